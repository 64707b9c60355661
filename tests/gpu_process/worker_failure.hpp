#pragma once
// A worker's reply carries what went wrong in it as text, so the coordinator's test failure shows
// the worker's exception rather than only "the reply said failed".

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace handoff::test_support {

struct worker_failure {
  std::int32_t failed = 0;
  char what[1020] = {};

  void set(std::string_view message) noexcept {
    failed = 1;
    const std::size_t length = std::min(message.size(), sizeof(what) - 1);
    std::copy_n(message.data(), length, what);
    what[length] = '\0';
  }
  std::string text() const { return std::string(what, ::strnlen(what, sizeof(what))); }
};

}  // namespace handoff::test_support
