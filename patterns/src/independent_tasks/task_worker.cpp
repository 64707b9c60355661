#include "handoff/patterns/independent_tasks/task_worker.hpp"

#include <cstddef>
#include <stdexcept>
#include <thread>

#include "handoff/patterns/independent_tasks/seed_task.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/wall_clock.hpp"
#include "task_protocol.hpp"

namespace handoff::patterns::independent_tasks {

using transport::deadline_clock;

namespace {

using namespace std::chrono_literals;

// A worker may sit idle while a benchmark run does other things; it still gives up eventually, and
// leaves at once when its coordinator goes away (end of file on the channel).
constexpr auto idle_limit = std::chrono::hours(1);
// Once a task's length has arrived, the rest follows at once.
constexpr auto message_limit = 60s;

struct worker_options {
  compute_target target = compute_target::device;
  std::chrono::milliseconds task_delay{0};
};

worker_options parse_arguments(std::span<const std::string> arguments) {
  if (arguments.size() != 2) {
    throw std::invalid_argument(std::string(task_worker_role) +
                                ": expected <device|host> <task delay ms>");
  }
  return {parse_compute_target(arguments[0]), std::chrono::milliseconds(std::stoul(arguments[1]))};
}

template <class Value>
std::span<std::byte> writable_bytes_of(Value& value) {
  return std::as_writable_bytes(std::span(&value, 1));
}

}  // namespace

std::vector<std::string> task_worker_arguments(compute_target target,
                                               std::chrono::milliseconds task_delay) {
  return {std::string(compute_target_name(target)), std::to_string(task_delay.count())};
}

int run_task_worker(std::span<const std::string> arguments) {
  const auto options = parse_arguments(arguments);
  auto channel = transport::coordinator_connection();
  prepare_compute_target(options.target);
  channel.send_record(worker_ready{}, deadline_clock::now() + message_limit);

  constexpr std::uint64_t max_message = sizeof(task_header) + max_task_elements * sizeof(float);
  std::vector<float> dataset;
  while (true) {
    std::uint64_t length = 0;
    try {
      length = channel.receive_length(deadline_clock::now() + idle_limit, max_message);
    } catch (const transport::channel_closed&) {
      return 0;  // the coordinator closed the channel: the pool is done
    }
    const auto start = wall_clock::now();
    if (length < sizeof(task_header)) {
      throw transport::process_error("task message of " + std::to_string(length) +
                                     " bytes has no header");
    }
    task_header header;
    channel.receive_body(writable_bytes_of(header), deadline_clock::now() + message_limit);
    if (header.magic != protocol_magic || header.elements > max_task_elements ||
        header.elements * sizeof(float) != length - sizeof(task_header)) {
      throw transport::process_error("malformed task header: " + std::to_string(header.elements) +
                                     " elements in a message of " + std::to_string(length) +
                                     " bytes");
    }
    dataset.resize(header.elements);
    channel.receive_body(std::as_writable_bytes(std::span(dataset)),
                         deadline_clock::now() + message_limit);
    task_reply reply{.task = header.task, .deserialize = seconds_since(start)};

    if (options.task_delay.count() > 0) std::this_thread::sleep_for(options.task_delay);
    stage_times stages;
    reply.sum = seed_gpu_task(options.target, dataset, stages);
    reply.h2d = stages.h2d;
    reply.kernel = stages.kernel;
    reply.d2h = stages.d2h;
    channel.send_record(reply, deadline_clock::now() + message_limit);
  }
}

}  // namespace handoff::patterns::independent_tasks
