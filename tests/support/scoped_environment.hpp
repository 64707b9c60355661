#pragma once
// One environment variable set (or unset) for a scope, and put back as it was when the scope ends,
// so that a test of a setting read from the environment leaves none behind for the next test.

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace handoff::test {

class scoped_environment {
 public:
  // value null: the variable is unset for the scope.
  scoped_environment(std::string name, const char* value) : name_(std::move(name)) {
    if (const char* before = std::getenv(name_.c_str())) before_ = before;
    if (value == nullptr) {
      EXPECT_EQ(unsetenv(name_.c_str()), 0);
    } else {
      EXPECT_EQ(setenv(name_.c_str(), value, 1), 0);
    }
  }
  ~scoped_environment() {
    if (before_) {
      setenv(name_.c_str(), before_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  scoped_environment(const scoped_environment&) = delete;
  scoped_environment& operator=(const scoped_environment&) = delete;

 private:
  std::string name_;
  std::optional<std::string> before_;
};

}  // namespace handoff::test
