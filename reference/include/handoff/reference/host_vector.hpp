#pragma once
// A std::vector for large set-up arrays (inputs, references, copies read back for verification)
// whose pages are first written by every core at once. On a virtual machine the first write to a
// page costs several times the copy into it, and std::vector's value-initialisation writes every
// page from one thread: a gibibyte took longer than the row it was made for. The elements are
// zero, as value-initialisation leaves them. Buffers a variant allocates inside its timed runs
// stay plain std::vector, as its user's would.

#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace handoff::reference {

// Writes zero over [bytes, bytes + count), in slices over threads when it is large.
void zero_in_parallel(void* bytes, std::size_t count);

template <class T>
struct prefaulted_allocator {
  using value_type = T;

  prefaulted_allocator() noexcept = default;
  template <class U>
  prefaulted_allocator(const prefaulted_allocator<U>&) noexcept {}

  T* allocate(std::size_t count) {
    auto* storage = static_cast<T*>(::operator new(count * sizeof(T)));
    zero_in_parallel(storage, count * sizeof(T));
    return storage;
  }
  void deallocate(T* storage, std::size_t) noexcept { ::operator delete(storage); }

  // Default-initialisation: the zeros written by allocate stay (so elements that a resize adds back
  // within the capacity keep their old values).
  template <class U>
  void construct(U* at) noexcept(noexcept(U())) {
    ::new (static_cast<void*>(at)) U;
  }
  template <class U, class... Arguments>
  void construct(U* at, Arguments&&... arguments) {
    ::new (static_cast<void*>(at)) U(std::forward<Arguments>(arguments)...);
  }

  template <class U>
  bool operator==(const prefaulted_allocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using host_vector = std::vector<T, prefaulted_allocator<T>>;

}  // namespace handoff::reference
