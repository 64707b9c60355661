"""Bandwidth against size, with the ceilings each facet's floors name as labelled lines."""

from __future__ import annotations

from pathlib import Path

from handoff_reports import plots
from handoff_reports.report import render_report
from handoff_reports.results import Ceiling, load_all
from handoff_reports.series import facets_of
from handoff_reports.styles import styles_from_record

FIXTURE = Path(__file__).parent / "fixtures" / "real" / "h100-default-profile.json"


def _device_transfers() -> tuple[plots.Facet, dict[str, Ceiling]]:
    run = load_all([str(FIXTURE)])[0]
    rows = [r for r in run.benchmark_rows() if r.name.pattern == "tensor_transfer"]
    facet = next(f for f in facets_of(rows) if dict(f.key).get("memory") == "device")
    return facet, run.ceilings


def test_the_lines_are_the_ceilings_the_floors_name() -> None:
    facet, ceilings = _device_transfers()
    names = {c.name for c in plots.bandwidth_ceilings(facet, ceilings)}
    # The device transfers are priced by the pinned PCIe copies, HBM, the pipe and one-thread
    # memcpy; no latency ceiling (a kernel launch) is a bandwidth line.
    assert {"hbm_device_copy", "pcie_h2d_pinned", "pipe_between_processes"} <= names
    assert "kernel_launch_sync" not in names
    assert plots.has_bandwidth(facet)


def test_ceilings_within_three_percent_share_a_line() -> None:
    lines = plots._ceiling_lines([Ceiling("a", 100e9, "bytes_per_second"),
                                  Ceiling("b", 102e9, "bytes_per_second"),
                                  Ceiling("c", 200e9, "bytes_per_second")])  # fmt: skip
    assert [label for _, label in lines] == ["a, b: 100 GB/s", "c: 200 GB/s"]


def test_the_plot_draws_achieved_bandwidth_and_names_its_ceilings() -> None:
    facet, ceilings = _device_transfers()
    svg = plots.bandwidth_against_size("tensor_transfer", facet, ceilings, styles_from_record({}))
    assert "hbm_device_copy: 3018 GB/s" in svg
    assert "GB/s<" in svg  # the y ticks are bandwidths, not bare powers of ten
    html = render_report(load_all([str(FIXTURE)]))
    assert "Bandwidth: bytes moved over the median time" in html
