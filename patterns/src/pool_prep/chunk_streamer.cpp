#include "handoff/patterns/pool_prep/chunk_streamer.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "handoff/reference/pool_prep_inputs.hpp"
#include "handoff/vector_add.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::pool_prep {

struct chunk_streamer::lane {
  explicit lane(std::size_t elements) : a(elements), b(elements), c(elements) {}
  handoff::stream stream;
  device_buffer<float> a, b, c;
};

// Blocking sync: a thread that waits for a chunk's inputs to be read sleeps instead of spinning
// on a core that preparation needs.
struct chunk_streamer::chunk_events {
  event start{cudaEventBlockingSync};
  event inputs_read{cudaEventBlockingSync};
  event kernel_done{cudaEventBlockingSync};
  event output_written{cudaEventBlockingSync};
};

chunk_streamer::chunk_streamer(compute_target target, std::size_t max_chunk_elements,
                               std::size_t streams)
    : target_(target), max_chunk_elements_(max_chunk_elements) {
  if (max_chunk_elements == 0 || streams == 0) {
    throw std::invalid_argument("chunk_streamer: needs a chunk size and a stream count above 0");
  }
  if (target_ == compute_target::device) {
    for (std::size_t index = 0; index < streams; ++index)
      lanes_.push_back(std::make_unique<lane>(max_chunk_elements));
  }
}

chunk_streamer::~chunk_streamer() {
  quiesce();
}

void chunk_streamer::begin(std::span<float> out, std::size_t chunks) {
  out_ = out;
  chunks_ = chunks;
  host_kernel_seconds_ = 0;
  if (target_ == compute_target::device) {
    while (events_.size() < chunks)
      events_.push_back(std::make_unique<chunk_events>());
  }
}

void chunk_streamer::check_chunk(std::size_t chunk, std::size_t offset, std::size_t count) const {
  if (chunk >= chunks_ || count > max_chunk_elements_ || offset > out_.size() ||
      count > out_.size() - offset) {
    throw std::invalid_argument("chunk_streamer: chunk " + std::to_string(chunk) + " of " +
                                std::to_string(chunks_) + " with " + std::to_string(count) +
                                " elements at offset " + std::to_string(offset) +
                                " does not fit an output of " + std::to_string(out_.size()) +
                                " and chunks of at most " + std::to_string(max_chunk_elements_));
  }
}

void chunk_streamer::begin_chunk(std::size_t chunk) {
  check_chunk(chunk, 0, 0);
  if (target_ == compute_target::device) events_[chunk]->start.record(lane_of(chunk).stream.get());
}

void chunk_streamer::add_piece(std::size_t chunk, std::size_t offset, std::size_t at,
                               std::span<const float> a, std::span<const float> b) {
  if (a.size() != b.size()) {
    throw std::invalid_argument("chunk_streamer: a and b must have the same length");
  }
  check_chunk(chunk, offset, at + a.size());
  if (target_ == compute_target::host_stand_in) {
    const auto start = wall_clock::now();
    reference::add_chunk_on_this_thread(a, b, out_.subspan(offset + at, a.size()));
    host_kernel_seconds_ += seconds_since(start);
    return;
  }
  if (a.empty()) return;
  const lane& on = lane_of(chunk);
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(on.a.data() + at, a.data(), a.size_bytes(),
                                     cudaMemcpyHostToDevice, on.stream.get()));
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(on.b.data() + at, b.data(), b.size_bytes(),
                                     cudaMemcpyHostToDevice, on.stream.get()));
}

void chunk_streamer::end_chunk(std::size_t chunk, std::size_t offset, std::size_t count) {
  check_chunk(chunk, offset, count);
  if (target_ == compute_target::host_stand_in) return;
  const lane& on = lane_of(chunk);
  const chunk_events& events = *events_[chunk];
  const cudaStream_t stream = on.stream.get();
  events.inputs_read.record(stream);
  launch_vector_add(on.a.data(), on.b.data(), on.c.data(), count, stream);  // checks the launch
  events.kernel_done.record(stream);
  if (count > 0) {
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(out_.data() + offset, on.c.data(), count * sizeof(float),
                                       cudaMemcpyDeviceToHost, stream));
  }
  events.output_written.record(stream);
}

void chunk_streamer::submit(std::size_t chunk, std::size_t offset, std::span<const float> a,
                            std::span<const float> b) {
  begin_chunk(chunk);
  add_piece(chunk, offset, 0, a, b);
  end_chunk(chunk, offset, a.size());
}

bool chunk_streamer::inputs_read(std::size_t chunk) const {
  if (target_ == compute_target::host_stand_in) return true;
  return events_.at(chunk)->inputs_read.finished();
}

void chunk_streamer::wait_inputs_read(std::size_t chunk) const {
  if (target_ == compute_target::device) events_.at(chunk)->inputs_read.synchronize();
}

void chunk_streamer::finish(stage_times& stages) {
  if (target_ == compute_target::host_stand_in) {
    stages.kernel += host_kernel_seconds_;
    return;
  }
  for (const auto& on : lanes_)
    on->stream.synchronize();
  for (std::size_t chunk = 0; chunk < chunks_; ++chunk) {
    const chunk_events& events = *events_[chunk];
    stages.h2d += elapsed_milliseconds(events.start, events.inputs_read) * 1e-3;
    stages.kernel += elapsed_milliseconds(events.inputs_read, events.kernel_done) * 1e-3;
    stages.d2h += elapsed_milliseconds(events.kernel_done, events.output_written) * 1e-3;
  }
}

void chunk_streamer::quiesce() noexcept {
  for (const auto& on : lanes_)
    HANDOFF_CUDA_CHECK_NOEXCEPT(cudaStreamSynchronize(on->stream.get()));
}

}  // namespace handoff::patterns::pool_prep
