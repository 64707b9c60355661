"""elementwise's PyTorch recipes in Python (article 002), on the C++ GPU rows' points:
- python_gpu_transfers, beside the C++ gpu_transfers (pageable copies to the device and back
  around the kernel): the article's "Converting to CUDA with PyTorch" steps, as compute_on_gpu
  writes them: the inputs moved to the GPU, the expression computed there, the result moved back
  to the CPU, all timed;
- python_gpu_resident, beside the C++ gpu_resident: the expression alone on inputs already on
  the GPU, as the -b / a example times it (its tensors made with device=device), the result left
  on the device.
The expressions are the article's: some_function's x * x (compute_on_gpu's task ** 2), -b / a,
and torch.matmul(w, x) + b with b a column broadcast across the columns. Bugs of the recipes,
fixed:
- the first example's torch.tensor([1, 2, 3, 4, 5]) is an int64 tensor: every input is float32,
  as the other examples' are;
- results = torch.zeros_like(inputs) is made and never written, and the call that maps
  some_function over the tensor is lost from the article's text: the expression is applied to the
  whole tensor (it is element-wise already) and written into that results tensor (out=), which
  the driver poisons before every run, so a result that never arrived cannot pass;
- the -b / a example reads the clock right after launching the kernel, before the GPU has run
  it: a resident run ends with torch.cuda.synchronize(), a transfers run when its copy to the
  host has returned, which waits for the kernel;
- compute_on_gpu builds its tensor from a Python list, element by element, of values that may be
  anything: the inputs are the C++ rows' seeded, never-zero float32 arrays, wrapped by
  torch.from_numpy and moved with .cuda().
As measured: .cpu().numpy() lands the result in a new array; here the same pageable copy lands it
in the row's host output (copy_ into a tensor over it), which the driver poisons. TF32 is turned
off for the GEMM (PyTorch's default, set so that no environment can turn it on): the suite's
bound admits full FP32 only, as the C++ row pins cuBLAS. torch.no_grad() is left out: no input
requires a gradient, so it changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from handoff import availability
from handoff.arrays import Floats
from handoff.benchmark import Benchmark, Point, Workspace
from handoff.recipes import elementwise
from handoff.recipes.elementwise import Problem
from handoff.recipes.torch_support import copy_to_host, device_output, torch_module


@dataclass
class TorchCase:
    problem: Problem
    torch: Any
    resident: bool
    inputs: tuple[Any, ...]  # on the host (transfers) or on the device (resident)
    device_out: Any  # the article's results tensor, poisoned before every run
    host_out: Floats
    host_out_tensor: Any  # a tensor over host_out


def _host_inputs(torch: Any, problem: Problem) -> tuple[Any, ...]:
    first = torch.from_numpy(problem.first)
    if problem.workload == "square":
        return (first,)
    assert problem.second is not None
    second = torch.from_numpy(problem.second)
    if problem.workload == "neg_b_over_a":
        return first, second  # a, b
    assert problem.bias is not None
    n = problem.size
    return first.view(n, n), second.view(n, n), torch.from_numpy(problem.bias).view(n, 1)


def _compute(case: TorchCase, inputs: tuple[Any, ...]) -> None:
    torch, out = case.torch, case.device_out
    if case.problem.workload == "square":
        (x,) = inputs
        torch.mul(x, x, out=out)
    elif case.problem.workload == "neg_b_over_a":
        a, b = inputs
        torch.div(-b, a, out=out)
    else:
        w, x, b = inputs
        n = case.problem.size
        torch.add(torch.matmul(w, x), b, out=out.view(n, n))


def full_fp32_matmul(torch: Any) -> None:
    """FP32 matmuls in full FP32, not TF32, so that the GEMM verifies against the CPU reference:
    PyTorch 2.9 and later set it with fp32_precision, where the older allow_tf32 is deprecated."""
    matmul = torch.backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):
        matmul.fp32_precision = "ieee"
    else:
        matmul.allow_tf32 = False


def _setup(resident: bool, workspace: Workspace, point: Point) -> TorchCase:
    torch = torch_module()
    full_fp32_matmul(torch)
    problem = elementwise.problem(point)
    inputs = _host_inputs(torch, problem)
    if resident:
        inputs = tuple(each.cuda() for each in inputs)
    host_out = workspace.output(problem.output_count)
    device_out = device_output(workspace, problem.output_count)
    torch.cuda.synchronize()
    return TorchCase(
        problem, torch, resident, inputs, device_out, host_out, torch.from_numpy(host_out)
    )


def run(case: TorchCase) -> None:
    if case.resident:
        _compute(case, case.inputs)
        case.torch.cuda.synchronize()
        return
    _compute(case, tuple(each.cuda() for each in case.inputs))
    # The article's .cpu(): a copy to pageable memory returns once the bytes are there.
    case.host_out_tensor.copy_(case.device_out)


def verify(case: TorchCase) -> int:
    if case.resident:
        copy_to_host(case.device_out, case.host_out)
    return case.problem.wrong(case.host_out)


_DESCRIPTIONS = {
    "python_gpu_transfers": "The article's PyTorch steps in Python: the inputs moved to the GPU "
    "(.cuda()), x * x, -b / a or torch.matmul(w, x) + b there, the result moved back (.cpu())",
    "python_gpu_resident": "The article's PyTorch expression in Python (x * x, -b / a, "
    "torch.matmul(w, x) + b) on inputs already on the GPU, its result left there",
}


def benchmarks(smoke: bool) -> list[Benchmark]:
    """Per workload (affine's size axis is n), the transfers row and the resident row."""
    made = []
    for variant, resident in (("python_gpu_transfers", False), ("python_gpu_resident", True)):
        for workload in elementwise.WORKLOADS:
            made.append(
                Benchmark(
                    pattern="elementwise",
                    variant=variant,
                    description=_DESCRIPTIONS[variant],
                    setup=partial(_setup, resident),
                    run=run,
                    verify=verify,
                    axes={
                        "workload": [workload],
                        elementwise.size_axis(workload): elementwise.sizes(workload, smoke),
                    },
                    traffic=elementwise.traffic,
                    recipe=True,
                    cpu=False,
                    unavailable=availability.needs("torch", gpus=1),
                )
            )
    return made
