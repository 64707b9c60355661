#pragma once
// What pool_prep's table is made of: each variant's set-up (defined beside the variant, in its own
// file) and the floor models (floors.cpp). Private to the pattern; its users go through the table.

#include <memory>

#include "handoff/patterns/pool_prep/variants.hpp"

namespace handoff::patterns::pool_prep {

using batch_session_ptr = std::unique_ptr<session<batch_case>>;

batch_session_ptr set_up_cpu_serial(const point& at, compute_target target);  // cpu_serial.cpp
batch_session_ptr set_up_cpu_pool(const point& at, compute_target target);    // map_pool_rows.cpp
batch_session_ptr set_up_seed(const point& at, compute_target target);        // map_pool_rows.cpp
batch_session_ptr set_up_shared_gpu(const point& at, compute_target target);  // shared_gpu_pool.cpp
batch_session_ptr set_up_threads(const point& at, compute_target target);  // threads_pipeline.cpp

floor_terms cpu_serial_floor(const point& at, compute_target target, const measured_run& run);
floor_terms cpu_pool_floor(const point& at, compute_target target, const measured_run& run);
floor_terms seed_floor(const point& at, compute_target target, const measured_run& run);
floor_terms streamed_floor(const point& at, compute_target target, const measured_run& run);

}  // namespace handoff::patterns::pool_prep
