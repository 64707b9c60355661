"""A facet never repeats its x axis: affine's `n` is the axis of one plot, not a plot per value."""

from __future__ import annotations

from pathlib import Path

from handoff_reports.results import load_all
from handoff_reports.series import facets_of

FIXTURE = Path(__file__).parent / "fixtures" / "real" / "h100-default-profile.json"


def test_affine_is_one_plot_against_n() -> None:
    rows = [r for r in load_all([str(FIXTURE)])[0].benchmark_rows()
            if r.name.pattern == "elementwise" and r.name.axis("workload") == "affine"]  # fmt: skip
    facets = facets_of(rows)
    assert len(facets) == 1
    (facet,) = facets
    assert facet.size_axis == "n" and "n " not in facet.title
    blas = next(series for series in facet.series if series.label == "cpu_blas")
    assert [size for size, _ in blas.points()] == [64.0, 1000.0]


def test_no_facet_is_split_by_its_own_size_axis() -> None:
    rows = load_all([str(FIXTURE)])[0].benchmark_rows()
    for pattern in {row.name.pattern for row in rows}:
        for facet in facets_of([row for row in rows if row.name.pattern == pattern]):
            assert facet.size_axis not in dict(facet.key), (pattern, facet.title)


def test_a_series_in_two_files_keeps_the_first_files_row_at_each_size() -> None:
    # Both runs have the one-GPU multi_gpu rows at 2^28 elements; the series has one point there.
    four_gpus = FIXTURE.parent / "h200x4-multi_gpu.json"
    runs = load_all([str(FIXTURE), str(four_gpus)])
    rows = [r for run in runs for r in run.benchmark_rows() if r.name.pattern == "multi_gpu"]
    doubled = [series for facet in facets_of(rows) for series in facet.series
               if len(series.rows) > len({r.name.size for r in series.rows})]  # fmt: skip
    assert doubled, "the fixtures no longer share a multi_gpu row"
    first_file = {row.key: row.median_seconds for row in runs[0].benchmark_rows()}
    for series in doubled:
        sizes = [size for size, _ in series.points()]
        assert sizes == sorted(set(sizes))
        for _, row in series.points():
            if row.key in first_file:
                assert row.median_seconds == first_file[row.key]
