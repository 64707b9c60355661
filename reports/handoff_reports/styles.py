"""One colour and marker per variant, the same in every plot of every report and of the dashboard,
so that a reader who learnt shm_pinned's colour in one plot finds it again in the next; and tick
labels that read as quantities (10 ms, 4 Mi), not as powers of ten.

Styles are handed out pattern by pattern (_assign_styles), so that the variants of one pattern,
which share its plots, never share a colour or a marker. Several series of one variant in one plot
(other axes: workers, partitioner) differ by line style.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Sequence
from typing import Any

from matplotlib.axes import Axes
from matplotlib.ticker import EngFormatter, LogLocator, NullFormatter

# Each pattern's variants, in DESIGN.md's order.
PATTERN_VARIANTS = {
    "pool_prep": ("seed", "shared_gpu", "threads", "cpu_serial", "cpu_pool"),
    "queued_worker": ("seed", "slots", "streamed"),
    "postproc_split": ("seed", "shm", "overlapped", "gpu_reduce", "cpu_serial"),
    "independent_tasks": ("seed", "few_workers", "streams", "batched", "graph", "cpu_serial",
                          "cpu_threads"),
    "iterative": ("host_loop", "device_loop", "graph", "cpu_serial"),
    "elementwise": ("cpu_map", "cpu_chunked", "cpu_blas", "cpu_serial", "cpu_threads",
                    "gpu_transfers", "gpu_transfers_pinned", "gpu_resident"),
    "tensor_transfer": ("queue", "pipe", "shm", "shm_pinned", "cuda_ipc", "vmm_fd"),
    "multi_gpu": ("host_gather", "host_gather_pinned", "p2p_gather", "nccl_allgather",
                  "kernel_only", "kernel_only_threads", "kernel_only_host_join",
                  "nccl_allgather_window"),
}  # fmt: skip
# Tableau 10: distinct in colour and in lightness.
COLOURS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
           "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")  # fmt: skip
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")
LINE_STYLES = ("-", "--", ":", "-.")


def _assign_styles() -> dict[str, tuple[int, int]]:
    """Pattern by pattern, each new variant takes the first colour, then the first marker, that
    no variant already in that pattern has: a variant shared by patterns (seed, cpu_serial) keeps
    the style it got first, and no two variants of one pattern share a colour or a marker."""
    assigned: dict[str, tuple[int, int]] = {}
    for variants in PATTERN_VARIANTS.values():
        taken_colours = {assigned[v][0] for v in variants if v in assigned}
        taken_markers = {assigned[v][1] for v in variants if v in assigned}
        for variant in variants:
            if variant in assigned:
                continue
            colour = next(i for i in range(len(COLOURS)) if i not in taken_colours)
            marker = next(i for i in range(len(MARKERS)) if i not in taken_markers)
            assigned[variant] = (colour, marker)
            taken_colours.add(colour)
            taken_markers.add(marker)
    return assigned


STYLES = _assign_styles()
KNOWN_VARIANTS = tuple(STYLES)


def variant_style(variant: str) -> tuple[str, str]:
    """(colour, marker) of the variant, the same everywhere; a variant unknown to the table takes
    them from its name's checksum, which is as stable."""
    colour, marker = STYLES.get(variant, (zlib.crc32(variant.encode()),) * 2)
    return COLOURS[colour % len(COLOURS)], MARKERS[marker % len(MARKERS)]


_series_drawn = itertools.count()


def variant_gid(variant: str) -> str:
    """An SVG id naming the variant a line draws, unique in the page (figure_to_svg adds the
    figure's prefix): a reader of the page, such as the browser test, can find every line of one
    variant across the plots."""
    return f"variant-{variant}-{next(_series_drawn)}"


def series_style(label: str, labels_in_plot: Sequence[str]) -> dict[str, Any]:
    """matplotlib keywords for a series labelled "variant axis:value ...": the variant's colour
    and marker, a line style per series of that variant in the plot, and its variant_gid."""
    variant, _, rest = label.partition(" ")
    colour, marker = variant_style(variant)
    rests = sorted({other.partition(" ")[2] for other in labels_in_plot
                    if other.partition(" ")[0] == variant})  # fmt: skip
    line_style = LINE_STYLES[rests.index(rest) % len(LINE_STYLES)] if rest in rests else "-"
    return {"color": colour, "marker": marker, "markersize": 4, "linestyle": line_style,
            "gid": variant_gid(variant)}  # fmt: skip


def readable_log_axis(axes: Axes, which: str, unit: str = "") -> None:
    """Major ticks as engineering quantities (1 k, 10 M; 10 ms with unit "s"), and unlabelled minor
    ticks at 2 and 5 of each decade only: each tick is an object matplotlib lays out and draws,
    and eight a decade made the pages slow to draw."""
    axis = axes.xaxis if which == "x" else axes.yaxis
    axis.set_major_formatter(EngFormatter(unit=unit, places=0, sep=" "))
    axis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))
    axis.set_minor_formatter(NullFormatter())
