"""multi_gpu's recipe in Python (article 004, examples 1 and 2): the host array is cut with
np.array_split into one part per GPU; one device after the other, the part is copied there
(cp.asarray), the article's RawKernel runs on it into cp.empty_like, and cp.asnumpy brings the
result back; np.concatenate joins the results. This is host_gather's way, so the rows are
python_host_gather, beside host_gather's at the same points (scope: gather times the copies back
alone, resident adds the kernel, from_host the copies in too). Example 1's kernel doubles each
element (workload scale_by_two); example 2's adds a value per device (add_device_value: device d
adds 1 + d, the article's 1.0 and 2.0). Bugs of the recipe, fixed:
- `[cp.cuda.Device(i).use() for i in ...]` keeps None for each device and leaves the last one
  current, so every cp.empty_like and kernel launch after it runs there, whatever part it is
  for: each part's work runs inside `with cp.cuda.Device(i)`;
- cp.asarray takes no device= (TypeError): the part is copied while its device is current;
- example 1 gives the kernel a tuple (data_part.size,) in the place of its arguments and the
  arguments as a fourth one, where RawKernel takes (grid, block, args), and an int grid and
  block, where it takes tuples (TypeError either way): grid, block and arguments are tuples, in
  their places;
- the kernel is given the host part (a NumPy array, which RawKernel does not take) as its input:
  it is given the part's device copy;
- the size is passed as a Python int, which RawKernel passes as 64 bits, and example 2's value as
  a Python float, which it passes as a double, so the kernel's float reads the double's low half:
  0.0 for 1.0 and 2.0, and nothing is added. Both are passed as the kernel's types (np.int32,
  np.float32);
- both examples hard-code two GPUs, and example 2 two parts and their values: the parts are the
  row's GPUs, and device d adds 1 + d;
- np.random.rand draws unseeded values in [0, 1), zeros included, that nothing can check: the
  input is the suite's seeded, never-zero values, the C++ rows' (their seed);
- the result is dropped (its check is commented out): it is joined into the row's output, which
  the driver poisons before each run, and checked bit for bit against NumPy's float32 of the same
  single operation (the C++ rows' max_ulp 0).
Besides, the device result of cp.empty_like is poisoned before the kernel writes it, inside the
timed run (the driver's poison reaches host arrays only, and CuPy's memory pool hands back the
block that held the last run's result). The article's partitioner is np.array_split, the C++
rows' even one: the round_robin and weighted rows, which the article names but does not write,
have no Python form. The rows run on every GPU CuPy sees, 1 to all of them, at the C++ rows'
headline size for this machine."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from handoff import arrays, availability
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.recipes.cupy_device import cupy, int_argument, poison

# patterns/src/multi_gpu/partitioned_setup.cpp's input_seed, so that the input is the C++ rows'.
INPUT_SEED = 0x004D
BLOCK = 256  # the article's
SMOKE_ELEMENTS = 4099  # the C++ smoke size: no multiple of 4 or of any GPU count


@dataclass(frozen=True)
class Workload:
    name: str  # the C++ rows' workload axis
    source: str  # the article's kernel, as written
    adds_device_value: bool
    scopes: tuple[str, ...]  # where the C++ recipe's rows measure it

    def expected(self, part: Floats, device: int) -> Floats:
        result: Floats = (
            part + device_value(device) if self.adds_device_value else part * np.float32(2.0)
        )
        return result


SCALE_BY_TWO = Workload(
    name="scale_by_two",
    source=r"""
extern "C" __global__
void my_kernel(const float* input, float* output, int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) {
    output[i] = input[i] * 2.0f;
  }
}
""",
    adds_device_value=False,
    scopes=("gather", "resident", "from_host"),
)
# A part run on the wrong device shows in its result: the C++ rows check placement with it, from
# the host only.
ADD_DEVICE_VALUE = Workload(
    name="add_device_value",
    source=r"""
extern "C" __global__
void my_kernel(const float* input, float* output, int size, float value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) {
    output[i] = input[i] + value;
  }
}
""",
    adds_device_value=True,
    scopes=("from_host",),
)
WORKLOADS = {workload.name: workload for workload in (SCALE_BY_TWO, ADD_DEVICE_VALUE)}


def device_value(device: int) -> np.float32:
    """reference/partitioned_elementwise's device_value_of: the article's 1.0 and 2.0."""
    return np.float32(1 + device)


@functools.cache
def kernel(source: str) -> Any:
    """One RawKernel per source; CuPy compiles it on first use on each device."""
    return cupy().RawKernel(source, "my_kernel")


def launch(workload: Workload, data_d: Any, output_d: Any, device: int) -> None:
    """The article's kernel((size + 255) // 256, 256, ...) on the current device, its grid,
    block and arguments in their places and of the kernel's types."""
    size = int(data_d.size)
    arguments: tuple[Any, ...] = (data_d, output_d, int_argument(size))
    if workload.adds_device_value:
        arguments += (device_value(device),)
    kernel(workload.source)(((size + BLOCK - 1) // BLOCK,), (BLOCK,), arguments)


@dataclass
class GatherCase:
    workload: Workload
    scope: str
    parts: list[Floats]  # the input as np.array_split cuts it, one part per GPU
    # Per GPU, what a run starts from: its input part (resident) or its result (gather).
    on_devices: list[Any]
    out: Floats  # np.concatenate's result, poisoned before each run
    expected: Floats


def setup(workspace: Workspace, point: Point) -> GatherCase:
    workload, scope = WORKLOADS[str(point["workload"])], str(point["scope"])
    gpus, elements = int(point["gpus"]), int(point["elements"])
    parts = np.array_split(workspace.inputs(elements, INPUT_SEED), gpus)
    expected = np.concatenate([workload.expected(part, d) for d, part in enumerate(parts)])
    cp = cupy()
    on_devices: list[Any] = []
    for device, part in enumerate(parts):
        if scope == "from_host":
            break
        with cp.cuda.Device(device):
            held = cp.asarray(part)
            if scope == "gather":
                result = cp.empty_like(held)
                launch(workload, held, result, device)
                held = result
            on_devices.append(held)
            cp.cuda.Device(device).synchronize()
    return GatherCase(workload, scope, parts, on_devices, workspace.output(elements), expected)


def run(case: GatherCase) -> None:
    """The article's loop over the devices, then np.concatenate: every copy back is synchronous,
    so the run ends with the result in case.out."""
    cp = cupy()
    results = []
    for device, part in enumerate(case.parts):
        with cp.cuda.Device(device):
            if case.scope == "gather":
                output_d = case.on_devices[device]
            else:
                data_d = case.on_devices[device] if case.scope == "resident" else cp.asarray(part)
                output_d = cp.empty_like(data_d)
                poison(output_d)
                launch(case.workload, data_d, output_d, device)
            results.append(cp.asnumpy(output_d))
    np.concatenate(results, out=case.out)


def verify(case: GatherCase) -> int:
    return arrays.wrong_elements(case.expected, case.out, max_ulp=0)


def close(case: GatherCase) -> None:
    """The device arrays dropped, and the blocks CuPy's pool kept for them given back."""
    cp = cupy()
    case.on_devices.clear()
    for device in range(len(case.parts)):
        with cp.cuda.Device(device):
            cp.get_default_memory_pool().free_all_blocks()


def visible_gpus() -> int:
    """The GPUs CuPy sees; 1 where it sees none or is missing, so that the rows are still
    defined, and skipped with the reason (availability.needs)."""
    if availability.missing_modules("cupy"):
        return 1
    try:
        return max(1, availability.cupy_gpus())
    except Exception:  # noqa: BLE001 - a CuPy that cannot reach CUDA: the rows say why
        return 1


def headline_elements(smoke: bool, machine_gpus: int) -> int:
    """As patterns/multi_gpu/headline_size.hpp: 2^28 split over two GPUs or more, 2^26 on one."""
    if smoke:
        return SMOKE_ELEMENTS
    return 1 << 28 if machine_gpus >= 2 else 1 << 26


def axes_of(workload: Workload, gpus: int, elements: int) -> dict[str, list[int | str]]:
    return {
        "workload": [workload.name],
        "gpus": [gpus],
        "partitioner": ["even"],
        "elements": [elements],
        "scope": list(workload.scopes),
    }


def benchmarks(smoke: bool, machine_gpus: int | None = None) -> list[Benchmark]:
    """For 1 to every GPU of the machine (machine_gpus, else visible_gpus()), each workload at
    the scopes the C++ recipe's rows measure it, with the even partitioner, at the headline
    size."""
    gpus = visible_gpus() if machine_gpus is None else machine_gpus
    elements = headline_elements(smoke, gpus)
    return [
        Benchmark(
            pattern="multi_gpu",
            variant="python_host_gather",
            description="The article's multi-GPU loop in Python: np.array_split parts, one GPU "
            "after the other, each copied there (cp.asarray), run through the article's "
            "cp.RawKernel and copied back (cp.asnumpy), then np.concatenate",
            setup=setup,
            run=run,
            verify=verify,
            close=close,
            axes=axes_of(workload, used, elements),
            traffic=lambda at: (4.0 * int(at["elements"]), float(at["elements"])),
            recipe=True,
            cpu=False,
            unavailable=availability.needs("cupy", gpus=used),
            # The main job's is the claims' point: the gather of the headline workload.
            default_axes={**axes_of(workload, used, elements), "scope": ["gather"]}
            if "gather" in workload.scopes
            else None,
            sweep_only="gather" not in workload.scopes,
        )
        for used in range(1, gpus + 1)
        for workload in WORKLOADS.values()
    ]
