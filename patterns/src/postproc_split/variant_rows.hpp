#pragma once
// Each variant's set-up and floor, defined in the variant's own file, for the table (variants.cpp).

#include <memory>

#include "handoff/patterns/postproc_split/variants.hpp"

namespace handoff::patterns::postproc_split {

using split_session = std::unique_ptr<session<split_case>>;

split_session set_up_seed_split(const split_point& at, compute_target target);
floor_terms seed_split_floor(const split_point& at, compute_target target, const measured_run&);

split_session set_up_shm_split(const split_point& at, compute_target target);
floor_terms shm_split_floor(const split_point& at, compute_target target, const measured_run&);

split_session set_up_overlapped_split(const split_point& at, compute_target target);
floor_terms overlapped_split_floor(const split_point& at, compute_target target,
                                   const measured_run&);

split_session set_up_gpu_reduce(const split_point& at, compute_target target);
floor_terms gpu_reduce_floor(const split_point& at, compute_target target, const measured_run&);

split_session set_up_cpu_serial(const split_point& at, compute_target target);

}  // namespace handoff::patterns::postproc_split
