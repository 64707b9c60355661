"""Colours and markers from the runs' variants record, line styles within a variant, readable
ticks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from variant_lines import RECORDED, line_colours

from handoff_reports import plots
from handoff_reports.results import load_results
from handoff_reports.series import facets_of
from handoff_reports.styles import COLOURS, MARKERS, styles_from_record
from handoff_reports.variants import (
    Variant,
    VariantRecord,
    parse_variants,
    record_text,
    run_variants,
)

REPORTS = Path(__file__).parent.parent


def _record() -> VariantRecord:
    return run_variants(load_results(str(RECORDED)))


def _made_up(**patterns: list[str]) -> VariantRecord:
    return {pattern: tuple(Variant(name, name, recipe=False, cpu=False) for name in names)
            for pattern, names in patterns.items()}  # fmt: skip


def _checksum_style(variant: str) -> tuple[str, str]:
    checksum = zlib.crc32(variant.encode())
    return COLOURS[checksum % len(COLOURS)], MARKERS[checksum % len(MARKERS)]


def test_the_same_record_always_gives_the_same_styles() -> None:
    first, again = _record(), _record()
    assert first is not again
    styles = styles_from_record(first)
    assert styles_from_record(again) == styles
    assert styles_from_record(parse_variants(record_text(first), "stored")) == styles
    assert set(styles.recorded) == {v.name for variants in first.values() for v in variants}


def test_another_process_gives_the_same_styles_for_the_record() -> None:
    """Nothing in the assignment may hang on the process (hash seeds, set order)."""
    script = (
        "import json; from handoff_reports.results import load_results;"
        "from handoff_reports.styles import styles_from_record;"
        "from handoff_reports.variants import run_variants;"
        f"print(json.dumps(styles_from_record(run_variants(load_results({str(RECORDED)!r})))"
        ".recorded))"
    )
    environment = dict(os.environ, PYTHONHASHSEED="12345", PYTHONPATH=str(REPORTS))
    out = subprocess.run([sys.executable, "-c", script], env=environment, check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    there = {name: tuple(indices) for name, indices in json.loads(out).items()}
    assert there == styles_from_record(_record()).recorded


def test_no_two_variants_of_one_recorded_pattern_share_a_colour_or_a_marker() -> None:
    record = _record()
    styles = styles_from_record(record)
    for pattern, variants in record.items():
        colours, markers = zip(*(styles.colour_and_marker(v.name) for v in variants), strict=True)
        assert len(set(colours)) == len(variants), pattern
        assert len(set(markers)) == len(variants), pattern


def test_styles_are_handed_out_in_the_records_order_and_a_shared_variant_keeps_its_first() -> None:
    styles = styles_from_record(_made_up(one=["a", "b", "c"], two=["c", "d", "b", "e"]))
    assert [styles.recorded[name] for name in "abc"] == [(0, 0), (1, 1), (2, 2)]
    # In `two`, c and b keep what `one` gave them; d and e take the first indices they leave.
    assert styles.recorded["d"] == (0, 0) and styles.recorded["e"] == (3, 3)
    reordered = styles_from_record(_made_up(two=["c", "d", "b", "e"], one=["a", "b", "c"]))
    assert reordered.recorded["c"] == (0, 0) and reordered.recorded["a"] == (1, 1)


NAMES = st.sampled_from([f"v{index}" for index in range(14)])
PATTERN = st.lists(NAMES, min_size=1, max_size=len(COLOURS), unique=True)


@given(st.dictionaries(st.sampled_from("pqrstu"), PATTERN, min_size=1))
def test_a_variant_first_styled_in_a_pattern_shares_nothing_with_the_others_there(
    patterns: dict[str, list[str]],
) -> None:
    styles = styles_from_record(_made_up(**patterns))
    styled_before: set[str] = set()
    for names in patterns.values():
        for name in set(names) - styled_before:
            others = [styles.recorded[other] for other in names if other != name]
            assert styles.recorded[name][0] not in {colour for colour, _ in others}
            assert styles.recorded[name][1] not in {marker for _, marker in others}
        styled_before |= set(names)


def test_a_pattern_of_more_variants_than_colours_still_draws() -> None:
    names = [f"v{index}" for index in range(len(COLOURS) + 2)]
    styles = styles_from_record(_made_up(big=names))
    assert len({styles.colour_and_marker(name) for name in names[: len(COLOURS)]}) == len(COLOURS)
    assert all(styles.colour_and_marker(name)[0] in COLOURS for name in names)


def test_a_variant_missing_from_the_record_takes_its_checksum_style() -> None:
    styles = styles_from_record(_record())
    assert styles.colour_and_marker("my_new_variant") == _checksum_style("my_new_variant")
    # A file from before the record: every variant by checksum, queue included.
    assert styles_from_record({}).colour_and_marker("queue") == _checksum_style("queue")
    assert styles.colour_and_marker("queue") != _checksum_style("queue")


def test_series_of_one_variant_differ_by_line_style_only() -> None:
    styles = styles_from_record(_record())
    labels = ["shm workers:2", "shm workers:4", "overlapped workers:2"]
    two, four, other = (styles.series_keywords(label, labels) for label in labels)
    assert (two["color"], two["marker"]) == (four["color"], four["marker"])
    assert two["linestyle"] != four["linestyle"]
    # shm and overlapped share postproc_split's plots: neither colour nor marker is shared.
    assert other["color"] != two["color"] and other["marker"] != two["marker"]
    assert styles.series_keywords("graph", ["graph"])["linestyle"] == "-"


def test_a_plot_draws_each_variant_in_its_recorded_colour_and_ticks_read_as_quantities() -> None:
    run = load_results(str(RECORDED))
    styles = styles_from_record(run_variants(run))
    rows = [r for r in run.benchmark_rows() if r.name.pattern == "tensor_transfer"]
    (facet,) = facets_of(rows)
    time_plot = plots.time_against_size("tensor_transfer", facet, styles)
    efficiency_plot = plots.efficiency_against_size("tensor_transfer", facet, styles)
    drawn = line_colours(time_plot + efficiency_plot)
    assert set(drawn) == {"queue", "pipe", "shm"}
    for variant, colours in drawn.items():
        assert colours == {styles.colour_and_marker(variant)[0]}, variant
    assert "mathdefault" not in time_plot  # no "2×10⁰" minor labels, no powers of ten
    assert " ms<" in time_plot or " µs<" in time_plot


def test_the_stage_plot_uses_no_variant_colour() -> None:
    from handoff_reports.plots import STAGE_COLOURS, STAGE_HATCH
    from handoff_reports.styles import COLOURS

    assert not set(STAGE_COLOURS.values()) & {colour.lower() for colour in COLOURS}
    stages = list(STAGE_COLOURS)
    looks = {(STAGE_COLOURS[stage], STAGE_HATCH[stage]) for stage in stages}
    assert len(looks) == len(stages), "two stages look alike"


def test_variants_no_record_has_take_styles_apart_and_move_no_recorded_one() -> None:
    from handoff_reports.styles import styles_from_record
    from handoff_reports.variants import Variant

    record = {"pool_prep": (Variant("seed", "", True, False), Variant("threads", "", False, False))}
    alone = styles_from_record(record)
    # "seed" is recorded in another pattern; "newer" is nowhere in the record.
    styles = styles_from_record(record, {"old_pattern": ["seed", "newer"], "pool_prep": ["extra"]})
    for variant in ("seed", "threads"):
        assert styles.colour_and_marker(variant) == alone.colour_and_marker(variant)
    assert styles.colour_and_marker("newer") != styles.colour_and_marker("seed")
    pool_prep = {styles.colour_and_marker(v) for v in ("seed", "threads", "extra")}
    assert len(pool_prep) == 3
