#pragma once
// What a warm figure keeps up between runs: Google Benchmark runs a body several times while it
// settles the iteration count, and a script keeps its Pool (its workers, their contexts, its
// channels) from one batch to the next. One configuration is cached at a time; a new one first
// shuts the old one down, and whatever is left is shut down when the benchmarks finish, while the
// CUDA runtime is still up.

#include <exception>
#include <iostream>
#include <memory>
#include <optional>

#include "run_end.hpp"

namespace handoff::bench {

template <class Key, class Value>
class warm_cache {
 public:
  warm_cache() {
    on_benchmarks_finished([this] {
      try {
        retire();
      } catch (const std::exception& error) {
        std::cerr << "handoff_bench: a cached pool did not shut down cleanly: " << error.what()
                  << "\n";
        drop();
      }
    });
  }
  warm_cache(const warm_cache&) = delete;
  warm_cache& operator=(const warm_cache&) = delete;

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
