#include "huge_page_host_buffer.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace handoff::bench {
namespace {

constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

std::size_t whole_huge_pages(std::size_t bytes) {
  return (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
}

}  // namespace

huge_page_host_buffer::huge_page_host_buffer(std::size_t bytes)
    : bytes_(bytes),
      data_(bytes == 0 ? nullptr : std::aligned_alloc(huge_page_bytes, whole_huge_pages(bytes))) {
  if (bytes_ == 0) {
    return;
  }
  if (data_ == nullptr) {
    throw std::bad_alloc();
  }
  // Advice only: a kernel without huge pages refuses it and the memory is still good memory.
  static_cast<void>(madvise(data_, whole_huge_pages(bytes), MADV_HUGEPAGE));
  std::memset(data_, 0, bytes_);
}

huge_page_host_buffer::~huge_page_host_buffer() {
  std::free(data_);
}

}  // namespace handoff::bench
