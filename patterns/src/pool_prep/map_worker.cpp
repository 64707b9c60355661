#include "handoff/patterns/pool_prep/map_worker.hpp"

#include <cuda_runtime_api.h>
#include <sys/prctl.h>

#include <chrono>
#include <csignal>
#include <stdexcept>
#include <string>

#include "handoff/cuda_check.hpp"
#include "handoff/fork_guard.hpp"
#include "handoff/patterns/workloads/seed_vector_add.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/wall_clock.hpp"
#include "protocol.hpp"

namespace handoff::patterns::pool_prep {

using transport::deadline_clock;

namespace {

void create_cuda_context() {
  enter_cuda();
  HANDOFF_CUDA_CHECK(cudaFree(nullptr));  // forces the context into existence
}

protocol::map_reply_header serve(compute_target target, const protocol::map_request& request,
                                 std::vector<float>& c) {
  protocol::map_reply_header reply;
  reply.chunk = request.chunk;
  reply.count = request.count;
  try {
    // The count comes from another process: cap it before allocating three vectors of it.
    if (request.count > protocol::max_chunk_elements) {
      throw std::invalid_argument("a chunk of " + std::to_string(request.count) +
                                  " elements is over the cap of " +
                                  std::to_string(protocol::max_chunk_elements));
    }
    stage_times stages;
    c = process_chunk(target, {.a = request.seed_a, .b = request.seed_b},
                      {.offset = request.offset, .count = request.count}, stages);
    reply.ok = 1;
    reply.prep = stages.prep;
    reply.h2d = stages.h2d;
    reply.kernel = stages.kernel;
    reply.d2h = stages.d2h;
  } catch (const std::exception& error) {
    c.clear();
    reply.error.set(error.what());
  }
  return reply;
}

}  // namespace

std::vector<float> process_chunk(compute_target target, const reference::vector_add_seeds& seeds,
                                 reference::chunk_extent extent, stage_times& stages) {
  const auto start = wall_clock::now();
  std::vector<float> a(extent.count), b(extent.count);
  reference::prepare_vector_add_chunk(seeds, extent.offset, a, b);
  std::vector<float> c(extent.count);
  stages.prep += seconds_since(start);
  if (target == compute_target::device) {
    seed_vector_add(target, a, b, c, stages);
  } else {
    // cpu_pool: the add is the real work here, on this worker's one thread, as a numpy add in a
    // pool worker would be; the pool is the parallelism.
    const auto add_start = wall_clock::now();
    reference::add_chunk_on_this_thread(a, b, c);
    stages.kernel += seconds_since(add_start);
  }
  return c;
}

int run_map_worker(std::span<const std::string> arguments) {
  if (arguments.size() != 2) {
    throw std::invalid_argument("pool_prep map worker: expected <target> <patience ms>");
  }
  const compute_target target = parse_compute_target(arguments[0]);
  const auto patience = protocol::parse_patience(arguments[1]);
  auto channel = transport::coordinator_connection();

  protocol::ready_record ready;
  try {
    if (target == compute_target::device) create_cuda_context();
    ready.ok = 1;
  } catch (const std::exception& error) {
    ready.error.set(error.what());
  }
  channel.send_record(ready, deadline_clock::now() + patience);
  if (!ready.ok) return 1;

  std::vector<float> c;
  while (true) {
    protocol::map_request request;
    try {
      request = channel.receive_record<protocol::map_request>(deadline_clock::now() +
                                                              protocol::worker_idle_limit);
    } catch (const transport::channel_closed&) {
      return 0;  // the coordinator closed the pool
    }
    if (request.stall) protocol::stall_until_killed();
    const auto reply = serve(target, request, c);
    channel.send_parts({std::as_bytes(std::span(&reply, 1)), std::as_bytes(std::span(c))},
                       deadline_clock::now() + patience);
  }
}

}  // namespace handoff::patterns::pool_prep
