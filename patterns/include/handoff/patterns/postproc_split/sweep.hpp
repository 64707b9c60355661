#pragma once
// postproc_split (seed 000 example 3): c = a + b is already in device memory; the timed region
// runs until its sum is on the host. The cpu family runs the process variants with a host
// stand-in for the device (the copy back becomes a host memcpy), so CI exercises their
// orchestration, plus cpu_serial; the gpu family runs them on the device, plus gpu_reduce.
//
// Names: postproc_split/<variant>/target:<device|host>/elements:N/chunks:K/workers:W/start:<s>
// for the process variants (the rows with a cold figure), postproc_split/<variant>/elements:N for
// the in-process ones.

#include "handoff/patterns/pattern_benchmarks.hpp"
#include "handoff/patterns/postproc_split/variants.hpp"

namespace handoff::patterns::postproc_split {

const pattern_benchmarks<split_point, split_case>& postproc_split_benchmarks();

}  // namespace handoff::patterns::postproc_split
