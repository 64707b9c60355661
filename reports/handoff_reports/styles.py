"""One colour and marker per variant, the same in every plot of a report or of the dashboard, so
that a reader who learnt shm_pinned's colour in one plot finds it again in the next; and tick
labels that read as quantities (10 ms, 4 Mi), not as powers of ten.

Styles come from the variants record of the runs drawn (variants.py), handed out pattern by pattern
in the record's order (styles_from_record): one record always gives the same styles, and a variant
shares neither colour nor marker with the others of the pattern it is first styled in (two variants
first styled in different patterns could still meet in a third: the record's tables have none). The
report adds, after the record, the variants a file's rows name (variants.variants_seen), so that a
file from before the record still tells its variants apart; a variant no record names takes its
name's checksum.
Several series of one variant in one plot (other axes: workers, partitioner) differ by line style.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.axes import Axes
from matplotlib.ticker import EngFormatter, LogLocator, NullFormatter

from handoff_reports.variants import Variant

# Tableau 10: distinct in colour and in lightness.
COLOURS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
           "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")  # fmt: skip
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")
LINE_STYLES = ("-", "--", ":", "-.")

StyleIndices = tuple[int, int]  # into COLOURS and MARKERS


def _checksum_indices(variant: str) -> StyleIndices:
    """The style of a variant no record names: from its name, so as stable as a recorded one."""
    checksum = zlib.crc32(variant.encode())
    return checksum % len(COLOURS), checksum % len(MARKERS)


def _first_free(taken: set[int], count: int, position: int) -> int:
    """The first index no variant of the pattern has; past `count` variants in one pattern,
    repeats are unavoidable, and the variant's position spreads them."""
    return next((index for index in range(count) if index not in taken), position % count)


def _assign_pattern(names: Sequence[str], assigned: dict[str, StyleIndices]) -> None:
    """Each new variant of one pattern takes the first colour, then the first marker, that no
    variant already in that pattern has; one already assigned (a variant shared by patterns, such
    as seed or cpu_serial) keeps the style it got first."""
    taken_colours = {assigned[name][0] for name in names if name in assigned}
    taken_markers = {assigned[name][1] for name in names if name in assigned}
    for position, name in enumerate(names):
        if name in assigned:
            continue
        colour = _first_free(taken_colours, len(COLOURS), position)
        marker = _first_free(taken_markers, len(MARKERS), position)
        assigned[name] = (colour, marker)
        taken_colours.add(colour)
        taken_markers.add(marker)


@dataclass(frozen=True)
class VariantStyles:
    """Each recorded variant's style, as indices into COLOURS and MARKERS."""

    recorded: dict[str, StyleIndices]

    def colour_and_marker(self, variant: str) -> tuple[str, str]:
        colour, marker = self.recorded.get(variant) or _checksum_indices(variant)
        return COLOURS[colour], MARKERS[marker]

    def series_keywords(self, label: str, labels_in_plot: Sequence[str]) -> dict[str, Any]:
        """matplotlib keywords for a series labelled "variant axis:value ...": the variant's
        colour and marker, a line style per series of that variant in the plot, and its
        variant_gid."""
        variant, _, rest = label.partition(" ")
        colour, marker = self.colour_and_marker(variant)
        rests = sorted({other.partition(" ")[2] for other in labels_in_plot
                        if other.partition(" ")[0] == variant})  # fmt: skip
        line_style = LINE_STYLES[rests.index(rest) % len(LINE_STYLES)] if rest in rests else "-"
        return {"color": colour, "marker": marker, "markersize": 4, "linestyle": line_style,
                "gid": variant_gid(variant)}  # fmt: skip


def styles_from_record(
    record: Mapping[str, Sequence[Variant]],
    unrecorded: Mapping[str, Sequence[str]] | None = None,
) -> VariantStyles:
    """The styles of a variants record (variants.run_variants, variants_of), pattern by pattern in
    its order; {} (files from before the record) gives every variant its checksum style.
    `unrecorded`: each pattern's variants as a history names them, styled after the whole record,
    so that no recorded style moves, each apart from every other variant of its pattern."""
    assigned: dict[str, StyleIndices] = {}
    for variants in record.values():
        _assign_pattern([variant.name for variant in variants], assigned)
    for pattern, names in (unrecorded or {}).items():
        recorded = [variant.name for variant in record.get(pattern, ())]
        _assign_pattern(recorded + [name for name in names if name not in recorded], assigned)
    return VariantStyles(assigned)


_series_drawn = itertools.count()


def variant_gid(variant: str) -> str:
    """An SVG id naming the variant a line draws, unique in the page (figure_to_svg adds the
    figure's prefix): a reader of the page, such as the browser test, can find every line of one
    variant across the plots."""
    return f"variant-{variant}-{next(_series_drawn)}"


def readable_log_axis(axes: Axes, which: str, unit: str = "") -> None:
    """Major ticks as engineering quantities (1 k, 10 M; 10 ms with unit "s"), and unlabelled minor
    ticks at 2 and 5 of each decade only: each tick is an object matplotlib lays out and draws,
    and eight a decade made the pages slow to draw."""
    axis = axes.xaxis if which == "x" else axes.yaxis
    axis.set_major_formatter(EngFormatter(unit=unit, places=0, sep=" "))
    axis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))
    axis.set_minor_formatter(NullFormatter())
