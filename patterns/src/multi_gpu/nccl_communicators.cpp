#include <cstdio>

#include "handoff/patterns/multi_gpu/nccl_gather.hpp"
#include "handoff/patterns/multi_gpu/nccl_library.hpp"
#include "handoff/scoped_device.hpp"

namespace handoff::patterns::multi_gpu {

nccl_communicators nccl_communicators::for_devices(const partitioned_devices& devices) {
  std::vector<int> ordinals;
  for (const auto& slot : devices.slots())
    ordinals.push_back(slot.ordinal);
  nccl_communicators made;
  made.communicators_.resize(ordinals.size());
  HANDOFF_NCCL_CHECK(nccl().comm_init_all(made.communicators_.data(),
                                          static_cast<int>(ordinals.size()), ordinals.data()));
  return made;
}

nccl_communicators nccl_communicators::for_rank(const ncclUniqueId& clique, int ranks, int rank,
                                                int ordinal) {
  const scoped_device on_device(ordinal);
  nccl_communicators made;
  made.communicators_.resize(1);
  HANDOFF_NCCL_CHECK(nccl().comm_init_rank(&made.communicators_[0], ranks, clique, rank));
  return made;
}

nccl_communicators::nccl_communicators(nccl_communicators&& other) noexcept
    : communicators_(std::move(other.communicators_)) {
  other.communicators_.clear();
}

nccl_communicators& nccl_communicators::operator=(nccl_communicators&& other) noexcept {
  if (this != &other) {
    destroy();
    communicators_ = std::move(other.communicators_);
    other.communicators_.clear();
  }
  return *this;
}

nccl_communicators::~nccl_communicators() {
  destroy();
}

void nccl_communicators::abort() noexcept {
  for (ncclComm_t communicator : communicators_) {
    if (communicator == nullptr) continue;
    const ncclResult_t status = nccl().comm_abort(communicator);
    if (status != ncclSuccess) {
      std::fprintf(stderr, "handoff: ncclCommAbort failed: %s\n", nccl().error_string(status));
    }
  }
  communicators_.clear();
}

void nccl_communicators::destroy() noexcept {
  for (ncclComm_t communicator : communicators_) {
    if (communicator == nullptr) continue;
    const ncclResult_t status = nccl().comm_destroy(communicator);
    if (status != ncclSuccess) {
      std::fprintf(stderr, "handoff: ncclCommDestroy failed: %s\n", nccl().error_string(status));
    }
  }
  communicators_.clear();
}

}  // namespace handoff::patterns::multi_gpu
