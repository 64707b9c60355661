// The iterative pattern's table: one line per variant. The CPU figure runs on the CPU; the others
// need the device (no host stand-in: the pattern is where the state lives between device steps).

#include <cstddef>

#include "handoff/patterns/iterative/variants.hpp"

namespace handoff::patterns::iterative {
namespace {

constexpr runs_on on_cpu{.cpu = true};
constexpr runs_on on_device{.device = true};

template <std::size_t largest>
bool up_to(const jacobi_point& at) {
  return at.unknowns <= largest;
}

const jacobi_row rows[] = {
    {.name = "cpu_serial",
     .description = "Jacobi on one CPU thread",
     .targets = on_cpu,
     .clock = clock_kind::wall,
     .reports_stages = false,  // one loop on one core
     .setup = set_up_cpu_serial,
     .threads = host_threads::calling_only,
     // 2^22 unknowns x 100 steps is a quarter to half a second a run on one core.
     .measured_at = up_to<std::size_t{1} << 22>},
    {.name = "host_loop",
     .description = "the state shipped up and down every iteration",
     .recipe = true,
     .targets = on_device,
     .clock = clock_kind::wall,
     .setup = set_up_host_loop,
     .floor = host_loop_floor,
     // Every step moves 2 x 4 bytes an unknown over PCIe: past 2^24 a run takes about a second,
     // and 2^24 already shows the trend.
     .measured_at = up_to<std::size_t{1} << 24>},
    {.name = "device_loop",
     .description = "the state stays on the device; a CUB norm every 10 iterations",
     .targets = on_device,
     .clock = clock_kind::cuda_events,
     .setup = set_up_device_loop,
     .floor = device_loop_floor},
    {.name = "graph",
     .description = "the iterations and their checks captured in one CUDA graph",
     .targets = on_device,
     .clock = clock_kind::cuda_events,
     .setup = set_up_graph,
     .floor = graph_floor},
};

}  // namespace

variant_table<jacobi_point, jacobi_case> iterative_variants() {
  return rows;
}

}  // namespace handoff::patterns::iterative
