"""Articles 002 and 003 with PyTorch (recipes/elementwise_*.py, tensor_transfer.py,
shm_transfer.py, cuda_ipc_transfer.py): rows at the C++ rows' points, skipped with their reason
where torch or a GPU is missing while the host forms still run, the CPU recipes verified and
failing loudly, and, where torch sees a GPU, every GPU row verified with nothing left behind."""

import json
import multiprocessing
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import require_gpu_library
from handoff_reports.results import load_results

import handoff
from handoff import availability
from handoff.recipes import (
    cuda_ipc_transfer,
    deadlines,
    elementwise,
    elementwise_pool,
    elementwise_torch,
    shm_transfer,
    tensor_transfer,
)
from handoff.recipes.context import spawn
from handoff.recipes.torch_support import DeviceRows


def torch_benchmarks(smoke: bool) -> list[handoff.Benchmark]:
    return [
        shm_transfer.benchmark(smoke, "host"),
        tensor_transfer.benchmark("queue", smoke, "device"),
        tensor_transfer.benchmark("pipe", smoke, "device"),
        shm_transfer.benchmark(smoke, "device"),
        cuda_ipc_transfer.benchmark(smoke),
        *elementwise_pool.benchmarks(smoke),
        *elementwise_torch.benchmarks(smoke),
    ]


def row_names(benchmarks: list[handoff.Benchmark]) -> set[str]:
    return {b.row_name(point) for b in benchmarks for point in b.points()}


GPU_FAMILIES = {
    "tensor_transfer/python_queue/memory:device",
    "tensor_transfer/python_pipe/memory:device",
    "tensor_transfer/python_shm/memory:device",
    "tensor_transfer/python_cuda_ipc",
    "elementwise/python_gpu_transfers",
    "elementwise/python_gpu_resident",
}
HOST_SMOKE_ROWS = {
    "tensor_transfer/python_shm/memory:host/bytes:65536/start:warm",
    "elementwise/python_cpu_map/workload:square/elements:1027/start:warm",
    "elementwise/python_cpu_map/workload:square/elements:1027/start:cold",
    "elementwise/python_cpu_map/workload:neg_b_over_a/elements:1027/start:warm",
    "elementwise/python_cpu_map/workload:neg_b_over_a/elements:1027/start:cold",
    "elementwise/python_cpu_map/workload:affine/n:37/start:warm",
    "elementwise/python_cpu_map/workload:affine/n:37/start:cold",
}
FILTER = "--benchmark_filter=python_shm|python_cpu_map|python_gpu|python_cuda_ipc|memory:device"
# A run that says how many of its workers outlived it, as tests/scripts/planted.py does.
RUN_AND_COUNT_CHILDREN = """
import multiprocessing, sys
import handoff
from handoff.recipes import seed_benchmarks
outcome = handoff.run(seed_benchmarks(smoke=True), sys.argv[1:])
print(f"children left: {len(multiprocessing.active_children())}")
for name, error in outcome.errors.items():
    print(f"raised {name} {type(error).__name__}: {error}")
sys.exit(outcome.status)
"""


def shared_memory() -> set[str]:
    return set(os.listdir("/dev/shm"))


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def cpp_rows(smoke: bool) -> set[str]:
    build = Path(os.environ.get("HANDOFF_BUILD_DIR", Path(__file__).parents[2] / "build/ci"))
    bench = build / "bench" / "handoff_bench"
    if not bench.is_file():
        pytest.skip(f"no handoff_bench in {build} to list the C++ rows")
    listed = subprocess.run(
        [str(bench), "--benchmark_list_tests", "--handoff-list-as-gpus=1"]
        + (["--handoff-profile=smoke"] if smoke else []),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return {line.removesuffix("/manual_time") for line in listed.stdout.split()}


@pytest.mark.parametrize("smoke", [False, True])
def test_each_row_stands_at_a_cpp_row_of_its_variant(smoke):
    cpp = cpp_rows(smoke)
    for name in row_names(torch_benchmarks(smoke)):
        pattern, variant, *axes = name.split("/")
        twin = "/".join([pattern, variant.removeprefix("python_"), *axes])
        assert twin in cpp, f"{name}: no C++ row {twin}"


def test_the_article_recipes_are_recipes_and_the_gpu_rows_need_torch():
    for benchmark in torch_benchmarks(smoke=False):
        # Not the article's code: CUDA IPC is what the article says cannot be done.
        assert benchmark.recipe == (benchmark.variant != "python_cuda_ipc")
        needs_torch = benchmark.family in GPU_FAMILIES
        assert (benchmark.unavailable is not None) == needs_torch, benchmark.family
    # A variant's device rows are a family of their own, so that skipping them leaves its host rows.
    host, device = (
        tensor_transfer.benchmark("pipe", True, memory) for memory in ("host", "device")
    )
    assert isinstance(device, DeviceRows) and not isinstance(host, DeviceRows)
    assert (host.family, device.family) == (
        "tensor_transfer/python_pipe",
        "tensor_transfer/python_pipe/memory:device",
    )


def test_where_torch_or_a_gpu_is_missing_the_gpu_rows_are_skipped_and_the_host_rows_run(
    run_python, tmp_path: Path
):
    reason = availability.needs("torch", gpus=1)()
    if not reason:
        pytest.skip("torch sees a GPU here: test_the_gpu_rows_are_verified_... runs them")
    if os.environ.get("HANDOFF_REQUIRE_GPU", "") not in ("", "0"):
        pytest.fail(f"HANDOFF_REQUIRE_GPU is set, but {reason}")
    results = tmp_path / "skipped.json"
    shm_before = shared_memory()
    done = run_python(
        "-m", "handoff", "--handoff-profile=smoke", FILTER, f"--benchmark_out={results}"
    )
    assert done.returncode == 0, done.stderr
    run = load_results(results)
    skipped = dict(run.skipped_families)
    for family in GPU_FAMILIES:
        assert skipped.get(family) == reason, family
    said = next(line for line in done.stderr.splitlines() if line.startswith("handoff: skipped, "))
    assert f"{reason}: " in said
    # The host forms of the variants whose device forms were skipped still ran, and passed.
    assert set(run.rows) == HOST_SMOKE_ROWS
    for row in run.rows.values():
        assert row.error is None and row.wrong == 0 and row.verified > 0
    variants = {v["name"]: v for v in json.loads(run.context["handoff_variants"])["elementwise"]}
    assert variants["python_gpu_transfers"]["recipe"] and not variants["python_gpu_resident"]["cpu"]
    assert shared_memory() <= shm_before


@pytest.mark.parametrize(
    "point",
    [
        {"workload": "square", "elements": 37, "start": "warm"},
        {"workload": "neg_b_over_a", "elements": 37, "start": "cold"},
        {"workload": "affine", "n": 9, "start": "warm"},
    ],
)
def test_the_pool_recipe_is_verified_and_a_wrong_element_fails_it(point):
    case = elementwise_pool.setup(handoff.Workspace(), point)
    try:
        assert elementwise_pool.verify(case) == case.out.size  # poisoned: nothing has run
        elementwise_pool.run(case)
        assert elementwise_pool.verify(case) == 0
        case.out[5] += 1.0
        assert elementwise_pool.verify(case) == 1
    finally:
        elementwise_pool.close(case)
    assert not multiprocessing.active_children()


def _dies(_: float) -> float:
    os._exit(3)


def test_a_pool_worker_that_dies_is_a_worker_error():
    from concurrent.futures import ProcessPoolExecutor

    executor = ProcessPoolExecutor(max_workers=1, mp_context=spawn())
    try:
        with pytest.raises(handoff.WorkerError, match="a worker died"):
            elementwise_pool.answers(executor, _dies, [1.0])
    finally:
        with pytest.raises(handoff.WorkerError, match="exited with status"):
            elementwise_pool.shut_down(executor)  # which says how the worker ended
    assert not multiprocessing.active_children()


def test_the_oracles_take_a_correct_float32_result_and_reject_one_ulp_more():
    for point in (
        {"workload": "square", "elements": 1000},
        {"workload": "neg_b_over_a", "elements": 1000},
    ):
        problem = elementwise.problem(point)
        if problem.second is None:
            result = problem.first * problem.first
        else:
            result = -problem.second / problem.first
        assert problem.wrong(result) == 0
        result[3] = np.nextafter(np.nextafter(result[3], np.inf), np.inf)
        assert problem.wrong(result) == 1


def test_the_gemm_tolerance_takes_float32_and_rejects_an_error_beyond_its_bound():
    problem = elementwise.problem({"workload": "affine", "n": 64})
    assert problem.second is not None and problem.bias is not None
    w, x = problem.first.reshape(64, 64), problem.second.reshape(64, 64)
    y = (w @ x + problem.bias[:, np.newaxis]).reshape(-1)
    assert y.dtype == np.float32
    assert problem.wrong(y) == 0
    assert problem.tolerance is not None
    y[10] += np.float32(4 * problem.tolerance[10])
    y[20] = np.nan
    assert problem.wrong(y) == 2


def test_the_shm_recipe_on_the_host_is_verified_and_leaves_nothing():
    benchmark = shm_transfer.benchmark(True, "host")
    shm_before, descriptors = shared_memory(), []
    for _ in range(2):  # the first also opens what multiprocessing keeps (its resource tracker)
        workspace = handoff.Workspace()
        case = benchmark.setup(workspace, {"bytes": 65536})
        try:
            assert shm_transfer.verify(case) == 16384  # poisoned: nothing has run
            shm_transfer.run(case)
            assert shm_transfer.verify(case) == 0
            workspace.poison_outputs()
            shm_transfer.run(case)  # a second write starts at 0 again
            assert shm_transfer.verify(case) == 0
            case.out[100] = 0.0
            assert shm_transfer.verify(case) == 1
        finally:
            shm_transfer.close(case)
        assert not multiprocessing.active_children()
        descriptors.append(open_descriptors())
    assert shared_memory() <= shm_before
    assert descriptors[1] == descriptors[0]


def test_a_dead_shm_sender_is_a_worker_error_not_a_hang(monkeypatch):
    monkeypatch.setattr(deadlines, "DEADLINE_SECONDS", 5.0)
    case = shm_transfer.benchmark(True, "host").setup(handoff.Workspace(), {"bytes": 4096})
    case.sender.kill()
    case.sender.join(5)
    with pytest.raises(handoff.WorkerError, match="shm sender: exited"):
        shm_transfer.run(case)
    with pytest.raises(handoff.WorkerError):
        shm_transfer.close(case)
    assert not multiprocessing.active_children()


def test_the_shared_segment_cannot_be_resized():
    fd = shm_transfer.sealed_segment(4096)
    try:
        with pytest.raises(PermissionError):
            os.ftruncate(fd, 1024)
        with pytest.raises(PermissionError):
            os.ftruncate(fd, 8192)
    finally:
        os.close(fd)


def torch_with_a_gpu():
    require_gpu_library("torch")
    import torch

    return torch


def test_the_gpu_rows_are_verified_and_leave_nothing_behind(run_python, tmp_path: Path):
    torch_with_a_gpu()
    results = tmp_path / "gpu.json"
    shm_before = shared_memory()
    done = run_python(
        "-c",
        RUN_AND_COUNT_CHILDREN,
        "--handoff-profile=smoke",
        FILTER,
        f"--benchmark_out={results}",
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "children left: 0" in done.stdout
    run = load_results(results)
    assert row_names(torch_benchmarks(smoke=True)) <= set(run.rows)
    for row in run.rows.values():
        assert row.error is None and row.wrong == 0 and row.verified > 0, row.key
    assert not GPU_FAMILIES & {family for family, _ in run.skipped_families}
    assert shared_memory() <= shm_before


@pytest.mark.parametrize(
    "gpu_row",
    [b for b in torch_benchmarks(smoke=True) if b.family in GPU_FAMILIES],
    ids=lambda b: b.row_name(next(iter(b.points()))),
)
def test_a_gpu_row_lands_in_its_poisoned_device_tensor(gpu_row):
    torch_with_a_gpu()
    point = next(iter(gpu_row.points()))
    workspace = handoff.Workspace()
    case = gpu_row.setup(workspace, point)
    try:
        assert gpu_row.verify(case) > 0  # poisoned: nothing has run
        workspace.poison_outputs()
        gpu_row.run(case)
        assert gpu_row.verify(case) == 0
        # The driver's poison reaches the device tensor too: a run that did not land fails.
        workspace.poison_outputs()
        assert gpu_row.verify(case) > 0
        gpu_row.run(case)
        assert gpu_row.verify(case) == 0
    finally:
        if gpu_row.close is not None:
            gpu_row.close(case)
    assert not multiprocessing.active_children()


def test_the_driver_files_of_an_exited_sender_are_removed_and_no_others():
    dead = subprocess.Popen(["true"])
    dead.wait()
    alive = os.getpid()
    of_the_dead = Path(f"/dev/shm/cuda.shm.0.{dead.pid:x}.1")
    of_the_living = Path(f"/dev/shm/cuda.shm.0.{alive:x}.1")
    of_a_longer_pid = Path(f"/dev/shm/cuda.shm.0.{dead.pid:x}0.1")
    for path in (of_the_dead, of_the_living, of_a_longer_pid):
        path.write_bytes(b"")
    try:
        removed = cuda_ipc_transfer.remove_driver_files_of(dead.pid)
        assert removed == [str(of_the_dead)]
        assert not of_the_dead.exists()
        assert of_the_living.exists() and of_a_longer_pid.exists()
    finally:
        for path in (of_the_dead, of_the_living, of_a_longer_pid):
            path.unlink(missing_ok=True)
