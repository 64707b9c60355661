#pragma once
// host_gather: the article's loop. One device after the other, each part goes up from the
// pageable host array with a synchronous copy (cp.asarray), the kernel runs, and the result comes
// back with a synchronous copy into a fresh pageable array (cp.asnumpy); np.concatenate then puts
// the pieces together. Nothing overlaps: not the devices, and not a copy with a kernel.
//
// The article's bugs, each fixed here and named, with a test for each:
//   host_arrays_passed_to_kernels  it launched the kernels on the host arrays (data_part); here
//                                  each part is copied to its device first, and launch_check
//                                  refuses a host pointer by name;
//   last_device_left_current      its loop left the last device current; every step here runs
//                                  under a scoped_device that restores the caller's device;
//   both_parts_on_one_device      its second example launched both parts on the current device;
//                                  here part d runs on device d, and launch_check refuses a
//                                  pointer of another device without peer access.

#include <array>
#include <span>
#include <string_view>
#include <vector>

#include "handoff/patterns/multi_gpu/gathers.hpp"

namespace handoff::patterns::multi_gpu {

inline constexpr std::array<std::string_view, 3> seed_bugs_fixed = {
    "host_arrays_passed_to_kernels", "last_device_left_current", "both_parts_on_one_device"};

class seed_host_gather {
 public:
  // pageable_input is the whole array (the article's numpy array); it must outlive the gather.
  seed_host_gather(partitioned_devices& devices, std::span<const float> pageable_input);

  void poison();
  // Synchronous: returns when the gathered array is complete.
  void run(const user_kernel& kernel, run_scope scope);
  std::span<const float> result() const noexcept { return result_; }

 private:
  partitioned_devices& devices_;
  std::span<const float> pageable_input_;
  std::vector<float> result_;
};

}  // namespace handoff::patterns::multi_gpu
