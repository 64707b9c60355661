#include "handoff/patterns/pool_prep/threads_pipeline.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "batch_session.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/transport/fd_io.hpp"
#include "handoff/wall_clock.hpp"
#include "rows.hpp"

namespace handoff::patterns::pool_prep {
namespace {

constexpr std::size_t no_chunk = std::numeric_limits<std::size_t>::max();
// One chunk being prepared, one being copied up, one spare for a preparation that runs ahead.
constexpr std::size_t default_staging_slots = 3;

const threads_options& checked(const threads_options& options) {
  check_pool_size(options.prep_threads, "threads");
  if (options.max_chunk_elements == 0) {
    throw std::invalid_argument("pool_prep threads: the chunk limit must be above 0");
  }
  return options;
}

}  // namespace

// Page-locked on the device, so the h2d copies run from it asynchronously at the pinned rate.
struct threads_pipeline::staging {
  pinned_buffer<float> pinned;
  std::vector<float> pageable;
  std::span<float> floats;
};

// What the preparation threads and the streaming thread share during one batch. Slot s holds
// chunks s, s + slots, ...: pieces_ready[s] counts the pieces of its current chunk that are
// prepared, consumed[s] is the last chunk handed to the streamer from it.
class threads_pipeline::batch_state {
 public:
  explicit batch_state(std::size_t slots) : pieces_ready(slots, 0), consumed(slots, no_chunk) {}

  // Waits until ready() or a failure; false when a failure stopped the batch.
  template <class Ready>
  bool wait(std::unique_lock<std::mutex>& lock, std::chrono::milliseconds patience,
            const char* what, Ready&& ready) {
    if (!changed.wait_until(lock, wall_clock::now() + patience, [&] { return stop || ready(); })) {
      throw transport::deadline_exceeded(std::string("pool_prep threads: ") + what +
                                         " took longer than the patience");
    }
    return !stop;
  }
  void fail(std::exception_ptr error) {
    {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::move(error);
      stop = true;
    }
    changed.notify_all();
  }

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::size_t> pieces_ready, consumed;
  std::exception_ptr failure;
  bool stop = false;
  double prep_seconds = 0;
};

threads_pipeline::threads_pipeline(const threads_options& options)
    : options_(checked(options)),
      slots_(options.staging_slots != 0 ? options.staging_slots : default_staging_slots),
      streamer_(options.target, options.max_chunk_elements, options.streams),
      staging_(std::make_unique<staging>()) {
  const std::size_t floats = slots_ * 2 * options_.max_chunk_elements;
  if (options_.target == compute_target::device) {
    staging_->pinned = pinned_buffer<float>(floats);
    staging_->floats = staging_->pinned.span();
  } else {
    staging_->pageable.resize(floats);
    staging_->floats = staging_->pageable;
  }
}

threads_pipeline::~threads_pipeline() {
  streamer_.quiesce();
}

std::span<float> threads_pipeline::slot(std::size_t index, std::size_t half) const {
  const std::size_t chunk_floats = options_.max_chunk_elements;
  return staging_->floats.subspan((2 * index + half) * chunk_floats, chunk_floats);
}

void threads_pipeline::prepare_share(batch_state& state, const batch& work, std::size_t thread) {
  try {
    for (std::size_t chunk = 0; chunk < work.chunks; ++chunk) {
      const std::size_t index = chunk % slots_;
      {
        std::unique_lock lock(state.mutex);
        const bool go = state.wait(lock, options_.patience, "waiting for a free staging slot", [&] {
          return chunk < slots_ || state.consumed[index] == chunk - slots_;
        });
        if (!go) return;
      }
      if (chunk >= slots_) streamer_.wait_inputs_read(chunk - slots_);
      const auto extent = work.chunk(chunk);
      const auto piece = reference::array_split_chunk(extent.count, options_.prep_threads, thread);
      const auto start = wall_clock::now();
      reference::prepare_vector_add_chunk(work.seeds, extent.offset + piece.offset,
                                          slot(index, 0).subspan(piece.offset, piece.count),
                                          slot(index, 1).subspan(piece.offset, piece.count));
      const double seconds = seconds_since(start);
      {
        const std::lock_guard lock(state.mutex);
        ++state.pieces_ready[index];
        state.prep_seconds += seconds;
      }
      state.changed.notify_all();
    }
  } catch (...) {
    state.fail(std::current_exception());
  }
}

stage_times threads_pipeline::run(const batch& work, std::span<float> out) {
  check_batch(work, options_.max_chunk_elements);
  if (out.size() != work.total_elements) {
    throw std::invalid_argument("threads pipeline: the output holds " + std::to_string(out.size()) +
                                " floats for a batch of " + std::to_string(work.total_elements));
  }
  streamer_.begin(out, work.chunks);
  batch_state state(slots_);
  {
    std::vector<std::jthread> threads;
    const std::size_t count = work.chunks > 0 ? options_.prep_threads : 0;
    for (std::size_t thread = 0; thread < count; ++thread)
      threads.emplace_back([&, thread] { prepare_share(state, work, thread); });
    try {
      for (std::size_t chunk = 0; chunk < work.chunks; ++chunk) {
        const std::size_t index = chunk % slots_;
        {
          std::unique_lock lock(state.mutex);
          if (!state.wait(lock, options_.patience, "waiting for a prepared chunk",
                          [&] { return state.pieces_ready[index] == options_.prep_threads; })) {
            break;
          }
        }
        const auto extent = work.chunk(chunk);
        streamer_.submit(chunk, extent.offset, slot(index, 0).first(extent.count),
                         slot(index, 1).first(extent.count));
        {
          const std::lock_guard lock(state.mutex);
          state.pieces_ready[index] = 0;
          state.consumed[index] = chunk;
        }
        state.changed.notify_all();
      }
    } catch (...) {
      state.fail(std::current_exception());
    }
  }  // joins every preparation thread
  if (state.failure) {
    streamer_.quiesce();
    std::rethrow_exception(state.failure);
  }
  stage_times stages;
  streamer_.finish(stages);
  stages.prep += state.prep_seconds;
  return stages;
}

}  // namespace handoff::patterns::pool_prep

// --- The threads row --------------------------------------------------------------------------

namespace handoff::patterns::pool_prep {
namespace {

// The pipeline is the session: its threads' staging and streams are set up once; every run is a
// batch. The threads row has no cold figure: it starts no process.
class threads_session final : public batch_session {
 public:
  threads_session(const point& at, compute_target target)
      : batch_session(streamed_output(target), at.workers, at.elements),
        pipeline_({.prep_threads = at.workers,
                   .max_chunk_elements = at.buffer_elements(),
                   .target = target}) {}

  run_result run(batch_case& work) override {
    return {.stages = pipeline_.run(work.inputs(), output_of(work))};
  }

 private:
  threads_pipeline pipeline_;
};

}  // namespace

batch_session_ptr set_up_threads(const point& at, compute_target target) {
  return std::make_unique<threads_session>(at, target);
}

constinit const row threads_variant{
    .name = "threads",
    .description = "one process: preparation threads and CUDA streams",
    .targets = device_or_host,
    .clock = clock_kind::wall,
    .cold = cold_kind::none,
    .setup = set_up_threads,
    .floor = streamed_floor};

}  // namespace handoff::patterns::pool_prep
