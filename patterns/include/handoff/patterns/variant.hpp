#pragma once
// The shape every pattern shares, in the spirit of nccl-tests' testColl. A pattern is
//   - a Point: the axes of one configuration (sizes, counts, workers);
//   - a Case: the work of one Point: seeded inputs, the outputs, the reference to verify against;
//   - a table of variant_rows, one per variant: its name, what it runs on, how it is timed, how it
//     is set up (cold), and its floor model.
// A row's setup() returns a session<Case>: the variant ready to run (its pool, worker, channel or
// device buffers). run() is one warm hand-off or batch. The benchmark driver, the floors and the
// conformance tests all work from the table, so adding a variant is one file that defines its
// session and setup, plus one line in its pattern's table.

#include <cuda_runtime_api.h>
#include <sys/types.h>

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/run_result.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns {

// The work of one configuration: it poisons its outputs before each run. A case that holds its
// outputs also checks them (verify()); one whose outputs are its sessions' own, or land in another
// process, has nothing to check, and each of its sessions says how its result is checked instead.
template <class Case>
concept checks_its_outputs = requires(const Case& checked) {
  { checked.verify() } -> std::same_as<reference::verification_result>;
};

namespace detail {

template <class Case, bool = checks_its_outputs<Case>>
class session_verification {
 public:
  virtual ~session_verification() = default;
  // The last run's result against the reference: by default the case's outputs.
  virtual reference::verification_result verify(const Case& work) const { return work.verify(); }
};

// A case that cannot check anything makes verify() a session's own duty: a session that forgets
// it does not compile, rather than failing every run.
template <class Case>
class session_verification<Case, false> {
 public:
  virtual ~session_verification() = default;
  virtual reference::verification_result verify(const Case& work) const = 0;
};

}  // namespace detail

template <class Case>
class session : public detail::session_verification<Case> {
 public:
  session() = default;
  session(const session&) = delete;
  session& operator=(const session&) = delete;
  ~session() override = default;

  // One warm hand-off or batch over work, leaving its result in work's outputs (or the session's
  // own, for verify()).
  virtual run_result run(Case& work) = 0;

  // A cold run for a variant whose cold figure is not "set up anew, then run" (tensor_transfer
  // reopens its channel to a receiver that stays up: process start is a ceiling of its own).
  virtual run_result run_cold(Case& /*work*/) {
    throw std::logic_error("this variant has no cold run of its own");
  }

  // Poisons the outputs before a run; by default the case's.
  virtual void poison(Case& work) { work.poison(); }

  // The stream the run's device work goes on, for variants timed with CUDA events.
  virtual cudaStream_t stream() const { return nullptr; }
  // The processes the session started, so that tests can kill one mid-run.
  virtual std::vector<pid_t> peers() const { return {}; }
  // Figures the variant reports about the last run (worker count, convergence, graph nodes).
  virtual std::vector<named_figure> figures() const { return {}; }
  // The stages of an average run, once the row's samples are taken, from those its runs
  // reported (run_result.stages, averaged over the samples) and its mean sample: by default the
  // reported ones, the rest of the mean sample a wait. A session that cannot fill run_result
  // without waiting inside the timed region (events between its steps, read afterwards), or whose
  // run is one stage as a whole (whole_run_as), gives its own here. The one way every row's
  // stage.* counters are made.
  virtual stages_of_a_run stages_per_run(const stage_times& reported, double /*mean_seconds*/) {
    return {.stages = reported, .span_the_run = false};
  }
  // Stops the workers the way their user would; a worker that does not stop cleanly throws.
  virtual void shutdown() {}
};

// How a row is timed: CUDA events on the session's stream for GPU-only regions, the wall clock
// around the whole run where host work is involved, or the variant's own clock where the run
// spans processes that only the variant sees both ends of.
enum class clock_kind { cuda_events, wall, self };

// A cold row times set-up plus one run (fresh_setup), or the session's run_cold (reopen).
enum class cold_kind { none, fresh_setup, reopen };

// What a variant can run on. cpu: it has no device part (the CPU references).
struct runs_on {
  bool device = false;
  bool host_stand_in = false;
  bool cpu = false;
  bool supports(compute_target target) const {
    return target == compute_target::device ? device : (host_stand_in || cpu);
  }
};

// Where a variant's run executes on the host. A run on the calling thread alone is pinned to one
// core while it is measured: left to the scheduler, it lands on a different core, with other
// caches and another clock, in each process, and its figure moves with it.
enum class host_threads { any, calling_only };

// What a pattern's rows need beyond what every row declares; most need nothing.
struct no_specifics {};

// Specifics: what only this pattern's rows declare (tensor_transfer: the two sides of its
// channel; queued_worker: its worker's loop and channels), so that the row stays the one place a
// variant is described.
template <class Point, class Case, class Specifics = no_specifics>
struct variant_row {
  using point_type = Point;
  using case_type = Case;

  std::string_view name;
  // One line for the report and the run's record of its variants (every table row has one).
  std::string_view description = {};
  // The article's own way, as written (with its named fixes only).
  bool recipe = false;
  runs_on targets;
  clock_kind clock = clock_kind::wall;
  cold_kind cold = cold_kind::none;
  // False for a variant with no stages to tell apart (one kernel, one CPU loop): its rows carry no
  // stage.* counters rather than a stage chart that is all wait.
  bool reports_stages = true;
  std::unique_ptr<session<Case>> (*setup)(const Point& at, compute_target target) = nullptr;
  floor_terms (*floor)(const Point& at, compute_target target, const measured_run& run) = nullptr;
  host_threads threads = host_threads::any;
  // Whether the variant is measured at a point of its pattern's sweep (a variant too slow for the
  // largest sizes stops below them); none: at every point.
  bool (*measured_at)(const Point& at) = nullptr;
  // Why this build or machine, with gpus GPUs, cannot run the variant (no peer access, a library
  // missing or too old), or an empty reason when it can; none: it runs wherever its targets do.
  std::string (*unavailable_reason)(int gpus) = nullptr;
  // The fewest GPUs its rows are measured with (a gather between devices has nothing to gather on
  // one); 0: as many as its targets need.
  int min_gpus = 0;
  // Where a pattern groups its variants into several benchmark families (multi_gpu: the launch
  // paths, each kind of gather), the family of its rows, after the pattern's name; empty: the
  // pattern's own.
  std::string_view family = {};
  [[no_unique_address]] Specifics specifics = {};
};

template <class Point, class Case, class Specifics>
bool is_measured_at(const variant_row<Point, Case, Specifics>& row, const Point& at) {
  return row.measured_at == nullptr || row.measured_at(at);
}

// The row's own reason it cannot run with gpus GPUs, or an empty one.
template <class Point, class Case, class Specifics>
std::string unavailable_reason_of(const variant_row<Point, Case, Specifics>& row, int gpus) {
  return row.unavailable_reason ? row.unavailable_reason(gpus) : std::string();
}

template <class Point, class Case, class Specifics = no_specifics>
using variant_table = std::span<const variant_row<Point, Case, Specifics>>;

// The row of a given name; std::invalid_argument when the table has none.
template <class Point, class Case, class Specifics>
const variant_row<Point, Case, Specifics>& find_row(variant_table<Point, Case, Specifics> table,
                                                    std::string_view name) {
  for (const auto& row : table)
    if (row.name == name) return row;
  throw std::invalid_argument("no variant named '" + std::string(name) + "'");
}

}  // namespace handoff::patterns
