#pragma once
// queued_worker (seed 000, example 2): a producer hands items of (a, b) to one GPU worker process
// and takes back c = a + b, in order. Warm rows run one batch on a worker that is already up;
// cold rows spawn the worker, create its context, run one batch and join it (what a script run
// once pays). The host stand-in rows (compute:host, the family queued_worker/cpu) run the same
// processes and channels with the add on the CPU, so machines without a GPU exercise the
// orchestration.

#include "handoff/patterns/pattern_benchmarks.hpp"
#include "handoff/patterns/queued_worker/variants.hpp"

namespace handoff::patterns::queued_worker {

const pattern_benchmarks<point, item_batch, worker_behaviour>& queued_worker_benchmarks();

}  // namespace handoff::patterns::queued_worker
