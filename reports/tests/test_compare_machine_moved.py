"""compare warns where the machine's own ceilings moved as well as benchmarks: a benchmark's
change may then be the machine's, not the code's."""

from __future__ import annotations

from compare_fixtures import run_of

from handoff_reports.compare import compare_runs
from handoff_reports.compare_formats import format_json, format_markdown
from handoff_reports.compare_text import format_report

CEILING = "ceilings/pcie_d2h_pageable/bytes:268435456"
OTHER_CEILING = "ceilings/hbm_device_copy/method:kernel/bytes:268435456"
BENCHMARK = "tensor_transfer/pipe/memory:device/bytes:268435456/start:warm"
STEADY = [1.0, 1.001, 0.999, 1.0005, 0.9995]
WARNING = "the machine itself moved between the runs: 1 of its 2 ceilings"


def scaled(factor: float) -> list[float]:
    return [t * factor for t in STEADY]


def test_a_ceiling_and_a_benchmark_both_slower_warn_in_every_format() -> None:
    baseline = run_of({CEILING: STEADY, OTHER_CEILING: STEADY, BENCHMARK: STEADY}, processes=True)
    contender = run_of(
        {CEILING: scaled(1.2), OTHER_CEILING: STEADY, BENCHMARK: scaled(1.2)}, processes=True
    )
    comparison = compare_runs(baseline, contender)
    line = comparison.machine_moved_line()
    assert line is not None and WARNING in line and "1 SLOWER" in line
    assert "may be the machine's change, not the code's" in line
    assert WARNING in format_report(comparison)
    assert WARNING in format_markdown(comparison)
    assert WARNING in format_json(comparison)


def test_no_warning_where_only_benchmarks_or_only_ceilings_moved() -> None:
    baseline = run_of({CEILING: STEADY, BENCHMARK: STEADY}, processes=True)
    code_only = run_of({CEILING: STEADY, BENCHMARK: scaled(1.2)}, processes=True)
    machine_only = run_of({CEILING: scaled(1.2), BENCHMARK: STEADY}, processes=True)
    assert compare_runs(baseline, code_only).machine_moved_line() is None
    assert compare_runs(baseline, machine_only).machine_moved_line() is None


def test_a_ceiling_slowed_on_purpose_says_nothing_about_the_machine() -> None:
    baseline = run_of({CEILING: STEADY, BENCHMARK: STEADY}, processes=True)
    planted = run_of({CEILING: scaled(1.2), BENCHMARK: scaled(1.2)}, processes=True)
    for row in planted.rows.values():
        row.counters["planted_slowdown"] = 5.0
    assert compare_runs(baseline, planted).machine_moved_line() is None
