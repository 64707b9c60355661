#include "handoff/patterns/multi_gpu/nccl_windows.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "handoff/fork_guard.hpp"
#include "handoff/patterns/multi_gpu/nccl_gather.hpp"
#include "handoff/patterns/multi_gpu/nccl_library.hpp"
#include "handoff/scoped_device.hpp"

namespace handoff::patterns::multi_gpu {

void* nccl_memory::allocate(std::size_t bytes) {
  enter_cuda();
  void* raw = nullptr;
  HANDOFF_NCCL_CHECK(nccl().mem_alloc(&raw, bytes));
  return raw;
}

void nccl_memory::release::operator()(void* pointer) const noexcept {
  const ncclResult_t status = nccl().mem_free(pointer);
  if (status != ncclSuccess) {
    std::fprintf(stderr, "handoff: ncclMemFree failed: %s\n", nccl().error_string(status));
  }
}

nccl_symmetric_windows::nccl_symmetric_windows(const nccl_communicators& communicators,
                                               std::span<const int> ordinals, std::size_t elements)
    : ordinals_(ordinals.begin(), ordinals.end()) {
  if (const auto reason = nccl_windows_unavailable_reason(); !reason.empty()) {
    throw nccl_error(reason);
  }
  if (communicators.size() != ordinals_.size()) {
    throw std::invalid_argument("nccl_symmetric_windows: one communicator per device is needed");
  }
  for (std::size_t i = 0; i < ordinals_.size(); ++i) {
    const scoped_device on_device(ordinals_[i]);
    communicators_.push_back(communicators[i]);
    buffers_.emplace_back(elements);
  }
  windows_.assign(ordinals_.size(), nullptr);
  if (elements == 0) return;  // nothing to register: an empty array gathers nothing
  try {
    const nccl_group group;
    for (std::size_t i = 0; i < ordinals_.size(); ++i) {
      const scoped_device on_device(ordinals_[i]);
      HANDOFF_NCCL_CHECK(nccl().comm_window_register(communicators_[i], buffers_[i].data(),
                                                     buffers_[i].size_bytes(), &windows_[i],
                                                     NCCL_WIN_COLL_SYMMETRIC));
    }
  } catch (...) {
    deregister();
    throw;
  }
}

nccl_symmetric_windows::~nccl_symmetric_windows() {
  deregister();
}

bool nccl_symmetric_windows::all_registered() const noexcept {
  return std::ranges::all_of(windows_, [](ncclWindow_t window) { return window != nullptr; });
}

void nccl_symmetric_windows::abandon() noexcept {
  windows_.assign(windows_.size(), nullptr);
}

// In this thread, one window after another: a deregistration is local to its communicator (NCCL
// 2.28's waits for no peer), and a fresh thread would restore device 0 on its way out, making a
// context there in every MPI rank.
void nccl_symmetric_windows::deregister() noexcept {
  for (std::size_t i = 0; i < windows_.size(); ++i) {
    if (windows_[i] == nullptr) continue;
    try {
      const scoped_device on_device(ordinals_[i]);
      HANDOFF_NCCL_CHECK(nccl().comm_window_deregister(communicators_[i], windows_[i]));
    } catch (const std::exception& error) {
      std::fprintf(stderr, "handoff: the window of device %d: %s\n", ordinals_[i], error.what());
    }
    windows_[i] = nullptr;
  }
}

}  // namespace handoff::patterns::multi_gpu
