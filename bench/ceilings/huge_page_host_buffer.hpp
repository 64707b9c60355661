#pragma once
// Pageable host memory that the kernel is asked to back with huge pages. A pageable copy ceiling
// is the best the machine can do with memory that is not pinned, and where the kernel gives huge
// pages only to memory that asks (transparent_hugepage "madvise"), a plain array gets small pages,
// into which the driver's device-to-host copy runs slower.

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
