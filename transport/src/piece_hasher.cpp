#include "handoff/transport/piece_hasher.hpp"

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

void piece_hasher::add(std::span<const std::byte> piece) {
  {
    const std::lock_guard lock(mutex_);
    waiting_.push_back(piece);
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
    checksum_.update(piece);
    const double seconds = seconds_since(start);
    lock.lock();
    waiting_.pop_front();
    ++hashed_;
    busy_seconds_ += seconds;
    changed_.notify_all();
  }
}

}  // namespace handoff::transport
