#pragma once
// Pageable host memory that the kernel is asked to back with huge pages. A pageable copy ceiling
// is the best the machine can do with memory that is not pinned; left to the kernel's default, a
// large array gets huge pages or not by how fragmented memory is that minute, and the copy's rate
// moves with it from one process to the next.

#include <cstddef>
#include <span>

namespace handoff::bench {

class huge_page_host_buffer {
 public:
  // Zeroed by one thread, as a user's array is first written.
  explicit huge_page_host_buffer(std::size_t bytes);
  ~huge_page_host_buffer();
  huge_page_host_buffer(const huge_page_host_buffer&) = delete;
  huge_page_host_buffer& operator=(const huge_page_host_buffer&) = delete;

  template <class T>
  std::span<T> as() noexcept {
    return {static_cast<T*>(data_), bytes_ / sizeof(T)};
  }

 private:
  std::size_t bytes_;
  void* data_;
};

}  // namespace handoff::bench
