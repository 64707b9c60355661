"""One colour and marker per variant in every plot, line styles within a variant, readable ticks."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from handoff_reports import plots
from handoff_reports.results import load_all
from handoff_reports.series import facets_of
from handoff_reports.styles import KNOWN_VARIANTS, series_style, variant_style

FIXTURE = Path(__file__).parent / "fixtures" / "real" / "h200-default-profile.json"


def test_the_variants_of_one_pattern_never_share_a_style() -> None:
    rows = load_all([str(FIXTURE)])[0].benchmark_rows()
    variants: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        variants[row.name.pattern].add(row.name.variant)
    for pattern, names in variants.items():
        colours = [variant_style(name)[0] for name in names]
        markers = [variant_style(name)[1] for name in names]
        assert len(set(colours)) == len(colours), pattern
        assert len(set(markers)) == len(markers), pattern
    assert {v for names in variants.values() for v in names} <= set(KNOWN_VARIANTS)


def test_a_variant_unknown_to_the_list_gets_a_stable_style() -> None:
    assert variant_style("my_new_variant") == variant_style("my_new_variant")


def test_series_of_one_variant_differ_by_line_style_only() -> None:
    labels = ["shm workers:2", "shm workers:4", "overlapped workers:2"]
    two, four, other = (series_style(label, labels) for label in labels)
    assert (two["color"], two["marker"]) == (four["color"], four["marker"])
    assert two["linestyle"] != four["linestyle"]
    # shm and overlapped share postproc_split's plots: neither colour nor marker is shared.
    assert other["color"] != two["color"] and other["marker"] != two["marker"]
    assert series_style("graph", ["graph"])["linestyle"] == "-"


def test_a_variant_keeps_its_colour_from_plot_to_plot_and_ticks_read_as_quantities() -> None:
    rows = [r for r in load_all([str(FIXTURE)])[0].benchmark_rows()
            if r.name.pattern == "tensor_transfer"]  # fmt: skip
    facet = next(f for f in facets_of(rows) if dict(f.key).get("memory") == "device")
    colour, _ = variant_style("shm_pinned")
    time_plot = plots.time_against_size("tensor_transfer", facet)
    efficiency_plot = plots.efficiency_against_size("tensor_transfer", facet)
    assert colour in time_plot and colour in efficiency_plot
    assert "mathdefault" not in time_plot  # no "2×10⁰" minor labels, no powers of ten
    assert " ms<" in time_plot or " µs<" in time_plot
