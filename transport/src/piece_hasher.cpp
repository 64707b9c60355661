#include "handoff/transport/piece_hasher.hpp"

#include "handoff/transport/streaming_copy.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::transport {

piece_hasher::piece_hasher() : thread_([this] { run(); }) {}

piece_hasher::~piece_hasher() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void piece_hasher::add(std::span<const std::byte> piece, std::byte* move_to) {
  {
    const std::lock_guard lock(mutex_);
    waiting_.push_back({piece, move_to});
    ++added_;
  }
  changed_.notify_all();
}

void piece_hasher::wait_hashed(std::size_t pieces) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return hashed_ >= pieces; });
}

std::uint64_t piece_hasher::digest() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return hashed_ == added_; });
  return checksum_.digest();  // the thread touches it only while a piece is waiting
}

double piece_hasher::busy_seconds() {
  const std::lock_guard lock(mutex_);
  return busy_seconds_;
}

void piece_hasher::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stop_ || !waiting_.empty(); });
    if (stop_) return;
    const auto piece = waiting_.front();
    lock.unlock();
    const auto start = wall_clock::now();
    checksum_.update(piece.bytes);
    // Streaming stores: the tensor is written once and not read here again, so its lines need
    // not be read into the cache first.
    if (piece.move_to != nullptr && !piece.bytes.empty()) {
      copy_streaming(piece.move_to, piece.bytes.data(), piece.bytes.size());
    }
    const double seconds = seconds_since(start);
    lock.lock();
    waiting_.pop_front();
    ++hashed_;
    busy_seconds_ += seconds;
    changed_.notify_all();
  }
}

}  // namespace handoff::transport
