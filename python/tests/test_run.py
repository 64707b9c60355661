import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import SCRIPTS
from handoff_reports.results import load_results
from test_torch_recipes import HOST_SMOKE_ROWS

from handoff import availability

SEED_ROWS = {
    "pool_prep/python_seed/chunks:3/elements:1027/workers:2/start:warm",
    "queued_worker/python_seed/compute:host/items:10/elements:4099/start:warm",
    "tensor_transfer/python_queue/memory:host/bytes:65536/start:warm",
    "tensor_transfer/python_pipe/memory:host/bytes:65536/start:warm",
    "postproc_split/python_seed/target:host/elements:100003/chunks:7/workers:4/start:warm",
    *HOST_SMOKE_ROWS,  # the PyTorch articles' recipes that run without torch
}


def shared_memory() -> set[str]:
    return set(os.listdir("/dev/shm"))


def test_seed_rows_are_verified_and_read_by_the_reports(run_python, tmp_path: Path):
    results = tmp_path / "seed.json"
    shm_before = shared_memory()
    done = run_python("-m", "handoff", "--handoff-profile=smoke", f"--benchmark_out={results}")
    assert done.returncode == 0, done.stderr
    run = load_results(results)
    if availability.needs("cupy")() and availability.needs("torch")():
        assert set(run.rows) == SEED_ROWS
    else:  # the GPU recipes' rows too, which test_cupy_recipes and test_torch_recipes check
        assert SEED_ROWS <= set(run.rows)
    for row in run.rows.values():
        assert row.error is None
        assert row.wrong == 0 and row.verified > 0
        for counter in ("samples", "row_seconds", "setup_seconds", "noise_target"):
            assert counter in row.counters
        # One sample has no noise to state.
        assert ("noise" in row.counters) == (row.counters["samples"] >= 2)
    assert run.context["setting_profile"] == "smoke"
    assert run.context["handoff_process"]
    # A progress line per family, as handoff_bench prints them.
    families = {name.split("/")[0] + "/" + name.split("/")[1] for name in run.rows}
    progress = [line for line in done.stderr.splitlines() if line.startswith("handoff: family ")]
    assert len(progress) >= len(families), done.stderr
    assert f"of {len(run.rows)} rows done" in progress[-1]
    variants = json.loads(run.context["handoff_variants"])
    assert variants["pool_prep"][0]["name"] == "python_seed"
    assert variants["pool_prep"][0]["language"] == "python"
    assert shared_memory() <= shm_before
    report = run_python(
        "-m", "handoff_reports", "report", str(results), "-o", str(tmp_path / "r.html")
    )
    assert report.returncode == 0, report.stderr
    compare = run_python("-m", "handoff_reports", "compare", str(results), str(results))
    assert compare.returncode == 0, compare.stdout + compare.stderr


def test_a_wrong_result_counts_wrong_and_fails_the_run(run_python, tmp_path: Path):
    results = tmp_path / "wrong.json"
    done = run_python(str(SCRIPTS / "planted.py"), "wrong", f"--benchmark_out={results}")
    assert done.returncode == 1
    # As for a C++ row: Google Benchmark keeps no counters of a failed row, so the count of
    # wrong elements is in its error, which the reports show as a failure.
    row = json.loads(results.read_text())["benchmarks"][0]
    assert row["error_occurred"]
    assert row["error_message"] == "verification failed: 1 of 1000 wrong"
    assert load_results(results).rows["selftest/planted"].failed


def test_a_benchmark_this_machine_cannot_run_is_skipped_with_its_reason(run_python, tmp_path: Path):
    results = tmp_path / "skipped.json"
    done = run_python(str(SCRIPTS / "planted.py"), "unavailable", f"--benchmark_out={results}")
    assert done.returncode == 0, done.stderr
    assert "skipped, no planted library here: selftest/absent" in done.stderr
    run = load_results(results)
    assert set(run.rows) == {"selftest/planted"}
    assert run.context["handoff_skipped_families"] == "no planted library here: selftest/absent"
    variants = json.loads(run.context["handoff_variants"])
    assert [variant["name"] for variant in variants["selftest"]] == ["planted", "absent"]


def test_an_unwritable_results_path_fails_before_measuring(run_python, tmp_path: Path):
    missing = tmp_path / "no such folder" / "out.json"
    done = run_python(str(SCRIPTS / "planted.py"), "none", f"--benchmark_out={missing}")
    assert done.returncode != 0
    assert "ResultsNotWritten" in done.stderr
    assert not missing.parent.exists()


def test_an_unknown_flag_is_an_arguments_error(run_python):
    done = run_python(str(SCRIPTS / "planted.py"), "none", "--handoff-no-such-flag")
    assert done.returncode != 0
    assert "ArgumentsError" in done.stderr


def test_the_example_measures_a_users_handoff(run_python, tmp_path: Path):
    example = Path(__file__).parents[2] / "examples" / "python" / "my_handoff.py"
    results = tmp_path / "mine.json"
    done = run_python(str(example), "--handoff-profile=smoke", f"--benchmark_out={results}")
    assert done.returncode == 0, done.stderr
    rows = load_results(results).rows
    assert set(rows) == {
        "my_patterns/pipe_doubler/elements:1024",
        "my_patterns/pipe_doubler/elements:1048576",
    }
    assert all(row.wrong == 0 and row.verified > 0 for row in rows.values())


def test_floors_are_priced_against_an_earlier_run_of_this_machine(run_python, tmp_path: Path):
    build = Path(os.environ.get("HANDOFF_BUILD_DIR", Path(__file__).parents[2] / "build/ci"))
    bench = build / "bench" / "handoff_bench"
    if not bench.is_file():
        pytest.skip(f"no handoff_bench in {build} to measure this machine's ceilings")
    ceilings = tmp_path / "ceilings.json"
    measured = subprocess.run(
        [
            str(bench),
            "--handoff-profile=smoke",
            "--benchmark_filter=^ceilings/pipe_between_processes/transport:pipe/bytes:1048576/",
            f"--benchmark_out={ceilings}",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert measured.returncode == 0, measured.stderr
    results = tmp_path / "priced.json"
    done = run_python(
        "-m",
        "handoff",
        "--handoff-profile=smoke",
        "--benchmark_filter=python_pipe/memory:host",
        f"--handoff-ceilings-from={ceilings}",
        f"--benchmark_out={results}",
    )
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(results.read_text())["benchmarks"]
    assert row["floor_bytes.pipe_between_processes"] == 65536
    assert row["floor_seconds"] > 0
    assert "pipe_between_processes" in row["floor_model"]
    assert 0 < row["efficiency"]


def test_ceilings_of_another_machine_are_refused(run_python, tmp_path: Path):
    other = Path(__file__).parents[2] / "reports/tests/fixtures/real/h200-default-profile.json"
    done = run_python(
        "-m",
        "handoff",
        "--handoff-profile=smoke",
        "--benchmark_filter=python_pipe/memory:host",
        f"--handoff-ceilings-from={other}",
        f"--benchmark_out={tmp_path / 'refused.json'}",
    )
    assert done.returncode == 2
    assert "ArgumentsError" in done.stderr


def test_the_gpu_example_is_timed_on_its_stream_or_skipped_with_the_reason(
    run_python, tmp_path: Path
):
    example = Path(__file__).parents[2] / "examples" / "python" / "my_gpu_handoff.py"
    results = tmp_path / "gpu.json"
    done = run_python(str(example), "--handoff-profile=smoke", f"--benchmark_out={results}")
    reason = availability.needs("torch")()
    if reason:
        if os.environ.get("HANDOFF_REQUIRE_GPU", "") not in ("", "0"):
            pytest.fail(f"HANDOFF_REQUIRE_GPU is set, but {reason}")
        # Its only benchmark skipped: nothing ran, as handoff_bench says of a GPU-only filter.
        assert done.returncode == 2, done.stderr
        assert f"skipped, {reason}: my_patterns/torch_round_trip" in done.stderr
        return
    assert done.returncode == 0, done.stderr
    rows = load_results(results).rows
    assert set(rows) == {
        "my_patterns/torch_round_trip/elements:65536",
        "my_patterns/torch_round_trip/elements:16777216",
    }
    for row in rows.values():
        assert row.wrong == 0 and row.verified > 0
        assert row.counters["clock"] == 0  # CUDA events on the row's stream
