"""The recipes whose GPU step runs on CuPy: their rows stand at the C++ recipes' points, a machine
without CuPy or a GPU skips them with the reason and still exits 0, and where both are (the GPU
machine) their smoke rows run and verify, and their verification fails on a poisoned output."""

import json
import multiprocessing
import os
import re
import subprocess
from pathlib import Path

import pytest
from conftest import require_gpu_library
from handoff_reports.python_recipes import same_point
from handoff_reports.results import load_results

import handoff
from handoff import availability
from handoff._native import candidate_dirs
from handoff.benchmark import Benchmark
from handoff.recipes.cupy_recipes import cupy_benchmarks

# The C++ recipe each Python variant stands beside (reports/handoff_reports/python_recipes.py).
BESIDE = {"python_seed_cupy": "seed", "python_seed": "seed", "python_host_gather": "host_gather"}
# The C++ recipes' rows that the CuPy recipes cover: their warm device rows, and multi_gpu's
# rows of the article's two workloads with its partitioner (np.array_split's, the even one).
COVERED = re.compile(
    r"^(pool_prep/seed/.*/start:warm"
    r"|queued_worker/seed/compute:device/.*/start:warm"
    r"|postproc_split/seed/target:device/.*/start:warm"
    r"|independent_tasks/seed/compute:device/.*/start:warm"
    r"|multi_gpu/host_gather/workload:(scale_by_two|add_device_value)/gpus:\d+/partitioner:even/.*)$"
)
UNIT_SUFFIX = "/manual_time"


def row_names(benchmarks: list[Benchmark]) -> list[str]:
    return [benchmark.row_name(point) for benchmark in benchmarks for point in benchmark.points()]


def families(benchmarks: list[Benchmark]) -> list[str]:
    return list(dict.fromkeys(benchmark.family for benchmark in benchmarks))


def cpp_rows(*arguments: str) -> set[str]:
    """handoff_bench's row names, from the build the package's native module comes from."""
    benches = [folder.parent / "bench" / "handoff_bench" for folder in candidate_dirs()]
    bench = next((path for path in benches if path.is_file()), None)
    if bench is None:
        pytest.skip(f"no handoff_bench in {', '.join(str(path) for path in benches)}")
    listing = subprocess.run(
        [str(bench), "--benchmark_list_tests", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return {line.removesuffix(UNIT_SUFFIX) for line in listing.stdout.splitlines() if line}


@pytest.mark.parametrize("gpus", [1, 2])
@pytest.mark.parametrize("profile", ["smoke", "default"])
def test_rows_stand_at_the_cpp_recipes_points(profile: str, gpus: int):
    smoke = profile == "smoke"
    cpp = cpp_rows(f"--handoff-list-as-gpus={gpus}", f"--handoff-profile={profile}")
    python = row_names(cupy_benchmarks(smoke, machine_gpus=gpus))
    assert len(set(python)) == len(python)
    beside = {same_point(name, BESIDE[name.split("/")[1]]) for name in python}
    assert sorted(beside - cpp) == []  # every Python row has its C++ row
    covered = {name for name in cpp if COVERED.match(name)}
    assert sorted(covered - beside) == []  # every covered C++ row has its Python row


def test_without_cupy_or_a_gpu_each_is_skipped_with_its_reason(run_python, tmp_path: Path):
    reason = availability.needs("cupy")()
    if not reason:
        pytest.skip("CuPy sees a GPU here: test_smoke_rows_run_and_verify runs the rows")
    results = tmp_path / "skipped.json"
    host_row = "queued_worker/python_seed/compute:host/items:10/elements:4099/start:warm"
    done = run_python(
        "-m",
        "handoff",
        "--handoff-profile=smoke",
        "--benchmark_filter=^queued_worker/python_seed/",
        f"--benchmark_out={results}",
    )
    assert done.returncode == 0, done.stderr
    run = load_results(results)
    assert set(run.rows) == {host_row}
    assert run.rows[host_row].wrong == 0
    ours = families(cupy_benchmarks(True))
    groups = dict(
        group.split(": ", 1) for group in run.context["handoff_skipped_families"].split("; ")
    )
    assert set(ours) <= set(groups[reason].split(", "))
    assert f"skipped, {reason}: " in done.stderr
    variants = json.loads(run.context["handoff_variants"])
    for family in ours:
        pattern, variant = family.split("/")
        (entry,) = [entry for entry in variants[pattern] if entry["name"] == variant]
        assert entry["recipe"] and not entry["cpu"] and entry["language"] == "python"


def test_smoke_rows_run_and_verify(run_python, tmp_path: Path):
    require_gpu_library("cupy")
    benchmarks = cupy_benchmarks(True)
    results = tmp_path / "cupy.json"
    shm_before = set(os.listdir("/dev/shm"))
    chosen = "|".join(f"{family}/" for family in families(benchmarks))
    done = run_python(
        "-m",
        "handoff",
        "--handoff-profile=smoke",
        f"--benchmark_filter=^({chosen})",
        f"--benchmark_out={results}",
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    rows = load_results(results).rows
    assert set(rows) == set(row_names(benchmarks))
    for name, row in rows.items():
        assert row.error is None, name
        assert row.wrong == 0 and row.verified > 0, name
    assert set(os.listdir("/dev/shm")) <= shm_before


def test_a_poisoned_output_fails_verification_until_a_run_writes_it():
    require_gpu_library("cupy")
    for benchmark in cupy_benchmarks(True):
        for point in benchmark.points():
            name = benchmark.row_name(point)
            workspace = handoff.Workspace()
            case = benchmark.setup(workspace, point)
            try:
                assert benchmark.verify(case) > 0, name  # poisoned: nothing has run
                benchmark.run(case)
                assert benchmark.verify(case) == 0, name
                workspace.poison_outputs()
                assert benchmark.verify(case) > 0, name
                benchmark.run(case)
                assert benchmark.verify(case) == 0, name
            finally:
                assert benchmark.close is not None
                benchmark.close(case)
            assert not multiprocessing.active_children(), name
