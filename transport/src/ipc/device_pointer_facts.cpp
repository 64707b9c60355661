#include "device_pointer_facts.hpp"

#include <cuda.h>

#include <array>
#include <bit>
#include <cstdint>

#include "handoff/cuda_check.hpp"
#include "handoff/driver_api.hpp"

namespace handoff::transport {
namespace {

constexpr std::array queried_attributes = {
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE,    CU_POINTER_ATTRIBUTE_IS_MANAGED,
    CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE,
    CU_POINTER_ATTRIBUTE_BUFFER_ID,      CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
};

// The driver writes each answer at its own width (unsigned int, bool, a handle, unsigned long
// long, int). Into a zeroed 8-byte slot on a little-endian machine, every width reads back the
// same as an integer, so no answer depends on guessing the width right.
static_assert(std::endian::native == std::endian::little);

}  // namespace

device_pointer_facts inspect_device_pointer(const void* pointer) {
  std::array<std::uint64_t, queried_attributes.size()> slots{};
  std::array<void*, queried_attributes.size()> destinations{};
  for (std::size_t index = 0; index < slots.size(); ++index)
    destinations[index] = &slots[index];
  auto attributes = queried_attributes;
  // Unlike cuPointerGetAttribute, the plural query answers defaults, not an error, for a pointer
  // the driver does not know (plain host memory, say).
  HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuPointerGetAttributes)(
      static_cast<unsigned>(attributes.size()), attributes.data(), destinations.data(),
      static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(pointer))));
  device_pointer_facts facts;
  facts.memory_type = static_cast<unsigned>(slots[0]);
  facts.managed = slots[1] != 0;
  facts.from_memory_pool = slots[2] != 0;
  facts.legacy_ipc_capable = slots[3] != 0;
  facts.allocation_id = slots[4];
  facts.device_ordinal = static_cast<int>(static_cast<std::uint32_t>(slots[5]));
  return facts;
}

}  // namespace handoff::transport
