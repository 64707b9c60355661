#include "handoff/patterns/postproc_split/chunked_copy_back.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "handoff/cuda_check.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::postproc_split {

chunked_copy_back::chunked_copy_back(computed_result c, std::span<float> destination,
                                     std::vector<chunk> chunks, std::size_t window)
    : c_(c),
      destination_(destination),
      chunks_(std::move(chunks)),
      window_(std::max<std::size_t>(window, 1)) {
  if (destination_.size() != c_.values.size()) {
    throw std::invalid_argument("chunked_copy_back: the destination has " +
                                std::to_string(destination_.size()) + " floats, c " +
                                std::to_string(c_.values.size()));
  }
  for (const auto& piece : chunks_) {
    if (piece.offset > c_.values.size() || piece.count > c_.values.size() - piece.offset) {
      throw std::invalid_argument("chunked_copy_back: a chunk lies outside c");
    }
  }
  if (c_.target == compute_target::device) {
    stream_.emplace();
    chunk_copied_.reserve(chunks_.size());
    for (std::size_t index = 0; index < chunks_.size(); ++index)
      chunk_copied_.emplace_back(cudaEventDisableTiming);
    first_copy_starts_.emplace();
    last_copy_ends_.emplace();
  }
}

chunked_copy_back::~chunked_copy_back() {
  if (copier_.joinable()) copier_.join();
  if (stream_) HANDOFF_CUDA_CHECK_NOEXCEPT(cudaStreamSynchronize(stream_->get()));
}

void chunked_copy_back::start() {
  if (c_.target == compute_target::device) {
    queued_ = 0;
    first_copy_starts_->record(stream_->get());
    // With nothing to copy the batch's copies end where they start.
    if (chunks_.empty()) last_copy_ends_->record(stream_->get());
    queue_device_copies_up_to(std::min(window_, chunks_.size()));
    return;
  }
  if (copier_.joinable()) copier_.join();  // a batch whose finish() was skipped by an error
  chunks_copied_.store(0, std::memory_order_relaxed);
  copier_ = std::thread([this] { copy_on_host(); });
}

void chunked_copy_back::queue_device_copies_up_to(std::size_t end) {
  // Nothing new to queue (each await() once the window has reached the last chunk, and finish()):
  // last_copy_ends_ keeps the time it was recorded at. Recorded again here, on a stream long idle,
  // it took this call's time instead, and d2h read as long as the whole batch or longer, as if
  // PCIe ran far slower than it does.
  if (queued_ >= end) return;
  for (; queued_ < end; ++queued_) {
    const auto& piece = chunks_[queued_];
    if (piece.count > 0) {
      HANDOFF_CUDA_CHECK(
          cudaMemcpyAsync(destination_.data() + piece.offset, c_.values.data() + piece.offset,
                          piece.count * sizeof(float), cudaMemcpyDeviceToHost, stream_->get()));
    }
    chunk_copied_[queued_].record(stream_->get());
  }
  // Once a batch, right behind its last copy.
  if (queued_ == chunks_.size()) last_copy_ends_->record(stream_->get());
}

void chunked_copy_back::copy_on_host() {
  const auto start = wall_clock::now();
  for (std::size_t index = 0; index < chunks_.size(); ++index) {
    const auto& piece = chunks_[index];
    if (piece.count > 0) {
      std::memcpy(destination_.data() + piece.offset, c_.values.data() + piece.offset,
                  piece.count * sizeof(float));
    }
    chunks_copied_.store(index + 1, std::memory_order_release);
    chunks_copied_.notify_all();
  }
  host_copy_seconds_ = seconds_since(start);
}

void chunked_copy_back::await(std::size_t chunk_index) {
  if (chunk_index >= chunks_.size()) {
    throw std::out_of_range("chunked_copy_back::await: no chunk " + std::to_string(chunk_index));
  }
  if (c_.target == compute_target::device) {
    if (chunk_index >= queued_ && queued_ == 0) {
      throw std::logic_error("chunked_copy_back::await: no batch has been started");
    }
    queue_device_copies_up_to(std::min(chunks_.size(), std::max(queued_, chunk_index + window_)));
    chunk_copied_[chunk_index].synchronize();
    return;
  }
  std::size_t copied = chunks_copied_.load(std::memory_order_acquire);
  if (copied <= chunk_index && !copier_.joinable()) {
    throw std::logic_error("chunked_copy_back::await: no batch has been started");
  }
  while (copied <= chunk_index) {
    chunks_copied_.wait(copied, std::memory_order_acquire);
    copied = chunks_copied_.load(std::memory_order_acquire);
  }
}

double chunked_copy_back::finish() {
  if (c_.target == compute_target::device) {
    queue_device_copies_up_to(chunks_.size());
    return elapsed_milliseconds(*first_copy_starts_, *last_copy_ends_) * 1e-3;
  }
  if (copier_.joinable()) copier_.join();
  return host_copy_seconds_;
}

}  // namespace handoff::patterns::postproc_split
