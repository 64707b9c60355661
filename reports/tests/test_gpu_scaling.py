"""The multi-GPU scaling section on the real 4-GPU run, and with one-rank-per-GPU rows beside it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from handoff_reports.gpu_scaling import by_scope, scaling_series
from handoff_reports.report import gpu_scaling_plots
from handoff_reports.results import load_all
from handoff_reports.styles import styles_from_record
from handoff_reports.variants import variants_of

FIXTURES = Path(__file__).parent / "fixtures" / "real"
FOUR_GPUS = FIXTURES / "h200x4-multi_gpu.json"
ONE_GPU = FIXTURES / "h200-1gpu.json"
KERNEL_RESIDENT = ("multi_gpu/kernel_only/workload:scale_by_two/gpus:{gpus}/partitioner:even/"
                   "elements:268435456/scope:resident/manual_time")  # fmt: skip


def _document(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text()))


def _median_us(document: dict[str, Any], name: str) -> float:
    entry = next(e for e in document["benchmarks"] if e["name"] == name)
    assert entry["time_unit"] == "us"
    return float(entry["real_time"])


def test_kernel_rows_scale_against_their_own_one_gpu_row() -> None:
    document = _document(FOUR_GPUS)
    series = scaling_series(load_all([str(FOUR_GPUS)])[0].benchmark_rows())
    resident = next(s for s in series if s.variant == "kernel_only" and s.scope == "resident")
    assert resident.elements == 2**28
    assert [p.gpus for p in resident.points] == [1, 2, 4]
    one = _median_us(document, KERNEL_RESIDENT.format(gpus=1))
    four = _median_us(document, KERNEL_RESIDENT.format(gpus=4))
    assert resident.points[2].speedup == pytest.approx(one / four)
    assert resident.points[2].efficiency == pytest.approx(one / four / 4)
    assert resident.points[0].efficiency == pytest.approx(1.0)
    for point in resident.points:
        assert point.low <= point.seconds <= point.high


def test_gathers_and_uneven_partitioners_are_left_out() -> None:
    series = scaling_series(load_all([str(FOUR_GPUS)])[0].benchmark_rows())
    assert series
    assert all(s.variant.startswith("kernel_only") for s in series)
    keys = [p.row_key for s in series for p in s.points]
    assert all("partitioner:even" in key for key in keys)
    assert list(by_scope(series)) == ["resident", "from_host"]


def _as_mpi(document: dict[str, Any], ranks: int) -> dict[str, Any]:
    """The 4-GPU file's kernel rows at `ranks` GPUs, renamed as handoff_bench_mpi names its rows."""
    made = copy.deepcopy(document)
    kept = []
    for entry in made["benchmarks"]:
        name = entry["name"]
        if name.startswith("multi_gpu/kernel_only/") and f"/gpus:{ranks}/" in name:
            entry["name"] = entry["name"].replace("multi_gpu/", "multi_gpu_mpi/", 1)
            entry["run_name"] = entry.get("run_name", name).replace("multi_gpu/", "multi_gpu_mpi/")
            kept.append(entry)
    made["benchmarks"] = kept
    return made


def test_one_rank_per_gpu_rows_use_the_one_process_one_gpu_row(tmp_path: Path) -> None:
    document = _document(FOUR_GPUS)
    mpi = tmp_path / "mpi.json"
    mpi.write_text(json.dumps(_as_mpi(document, 4)))
    runs = load_all([str(FOUR_GPUS), str(mpi)])
    rows = [row for run in runs for row in run.benchmark_rows()]
    series = scaling_series(rows)
    ranked = next(s for s in series if s.pattern == "multi_gpu_mpi" and s.scope == "resident")
    assert ranked.label == "kernel_only (one rank per GPU (MPI))"
    assert [p.gpus for p in ranked.points] == [4]
    one = _median_us(document, KERNEL_RESIDENT.format(gpus=1))
    assert ranked.points[0].speedup == pytest.approx(one / ranked.points[0].seconds / 1e6)
    plots = gpu_scaling_plots(rows, styles_from_record(variants_of(runs)))
    assert [scope for scope, _, _ in plots] == ["resident", "from_host"]
    assert all(svg.startswith("<svg") for _, svg, _ in plots)


def test_a_one_gpu_run_has_no_scaling_section() -> None:
    runs = load_all([str(ONE_GPU)])
    assert gpu_scaling_plots(runs[0].benchmark_rows(), styles_from_record(variants_of(runs))) == []


TWO_H100 = FIXTURES / "h100x2-multi_gpu-kernel.json"
TWO_H100_MPI = FIXTURES / "h100x2-mpi-2.json"


def test_a_real_two_gpu_run_with_its_mpi_run() -> None:
    """ci/multigpu on two H100s at b67fb88: one process, launch threads and one rank per GPU."""
    runs = load_all([str(TWO_H100), str(TWO_H100_MPI)])
    rows = [row for run in runs for row in run.benchmark_rows()]
    resident = {
        (s.pattern, s.variant): s
        for s in scaling_series(rows)
        if s.scope == "resident" and s.workload == "scale_by_two"
    }
    assert set(resident) == {
        ("multi_gpu", "kernel_only"),
        ("multi_gpu", "kernel_only_threads"),
        ("multi_gpu_mpi", "kernel_only"),
    }
    for series in resident.values():
        two = next(p for p in series.points if p.gpus == 2)
        assert two.efficiency is not None and 0.5 < two.efficiency <= 1.05
    assert "NCCL_PROTO=Simple" in runs[0].context["handoff_nccl_environment"]
    plots = gpu_scaling_plots(rows, styles_from_record(variants_of(runs)))
    assert [scope for scope, _, _ in plots] == ["resident", "from_host"]
