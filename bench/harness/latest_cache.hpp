#pragma once
// What a family keeps between benchmark runs, for the latest configuration only: the pool of a
// warm figure (Google Benchmark runs a body several times while it settles the iteration count, and
// a script keeps its Pool, with its workers, contexts and channels, from one batch to the next), or
// the seeded inputs and reference results of one size. A new configuration first shuts the old one
// down and frees it, so two never hold memory at once; whatever is left is shut down when the
// benchmarks finish, while the CUDA runtime is still up.

#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "outcome.hpp"
#include "registration.hpp"
#include "run_end.hpp"

namespace handoff::bench {

template <class Key, class Value>
class latest_cache {
 public:
  latest_cache() {
    on_benchmarks_finished([this] { retire_or_drop(); });
    // A family's pool or buffers must not linger into another family's measurements.
    on_family_change([this] { retire_or_drop(); });
  }
  latest_cache(const latest_cache&) = delete;
  latest_cache& operator=(const latest_cache&) = delete;

  // The cached value for key, or a new one from make() (a std::unique_ptr<Value>).
  template <class Make>
  Value& get(const Key& key, Make&& make) {
    if (value_ && key_ == key) return *value_;
    retire();
    value_ = make();
    key_ = key;
    return *value_;
  }

  // Shuts the cached value down the way its user would (its workers exit cleanly), if it has a
  // shutdown(); a worker that does not is reported by the exception shutdown() throws.
  void retire() {
    if (!value_) return;
    auto retiring = std::move(value_);
    key_.reset();
    if constexpr (requires(Value & value) { value.shutdown(); }) retiring->shutdown();
  }

  void retire_or_drop() noexcept {
    try {
      retire();
    } catch (const std::exception& error) {
      record_failure_between_benchmarks(std::string("a cached pool did not shut down cleanly: ") +
                                        error.what());
      drop();
    }
  }

  // A failed batch leaves the value in an unknown state, and a cold figure starts from nothing:
  // the destructor kills and reaps whatever the value started.
  void drop() noexcept {
    value_.reset();
    key_.reset();
  }

 private:
  std::optional<Key> key_;
  std::unique_ptr<Value> value_;
};

}  // namespace handoff::bench
