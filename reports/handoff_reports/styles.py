"""One colour and marker per variant, the same in every plot of every report and of the dashboard,
so that a reader who learnt shm_pinned's colour in one plot finds it again in the next; and tick
labels that read as quantities (10 ms, 4 Mi), not as powers of ten.

Variants are numbered in DESIGN.md's order, pattern by pattern, so that the variants of one
pattern, which share its plots, take neighbouring numbers: ten colours, then the next marker. A
variant the list does not know takes a number from its name's checksum, which is as stable.
Several series of one variant in one plot (other axes: workers, partitioner) differ by line style.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from matplotlib.axes import Axes
from matplotlib.ticker import EngFormatter, NullFormatter

KNOWN_VARIANTS = (
    # pool_prep
    "seed", "shared_gpu", "threads", "cpu_serial", "cpu_pool",
    # queued_worker, postproc_split
    "slots", "streamed", "shm", "overlapped", "gpu_reduce",
    # independent_tasks, iterative
    "few_workers", "streams", "batched", "graph", "cpu_threads", "host_loop", "device_loop",
    # elementwise
    "cpu_map", "cpu_chunked", "cpu_blas", "gpu_transfers", "gpu_transfers_pinned", "gpu_resident",
    # tensor_transfer
    "queue", "pipe", "shm_pinned", "cuda_ipc", "vmm_fd",
    # multi_gpu
    "host_gather", "host_gather_pinned", "p2p_gather", "nccl_allgather", "kernel_only",
    "kernel_only_threads",
)  # fmt: skip
# Tableau 10: distinct in colour and in lightness.
COLOURS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
           "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")  # fmt: skip
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
LINE_STYLES = ("-", "--", ":", "-.")


def variant_number(variant: str) -> int:
    if variant in KNOWN_VARIANTS:
        return KNOWN_VARIANTS.index(variant)
    return len(KNOWN_VARIANTS) + zlib.crc32(variant.encode())


def variant_style(variant: str) -> tuple[str, str]:
    """(colour, marker) of the variant, the same everywhere."""
    number = variant_number(variant)
    return COLOURS[number % len(COLOURS)], MARKERS[(number // len(COLOURS)) % len(MARKERS)]


def series_style(label: str, labels_in_plot: Sequence[str]) -> dict[str, Any]:
    """matplotlib keywords for a series labelled "variant axis:value ...": the variant's colour
    and marker, and a line style per series of that variant in the plot."""
    variant, _, rest = label.partition(" ")
    colour, marker = variant_style(variant)
    rests = sorted({other.partition(" ")[2] for other in labels_in_plot
                    if other.partition(" ")[0] == variant})  # fmt: skip
    line_style = LINE_STYLES[rests.index(rest) % len(LINE_STYLES)] if rest in rests else "-"
    return {"color": colour, "marker": marker, "markersize": 4, "linestyle": line_style}


def readable_log_axis(axes: Axes, which: str, unit: str = "") -> None:
    """Major ticks as engineering quantities (1 k, 10 M; 10 ms with unit "s"), no minor labels."""
    axis = axes.xaxis if which == "x" else axes.yaxis
    axis.set_major_formatter(EngFormatter(unit=unit, places=0, sep=" "))
    axis.set_minor_formatter(NullFormatter())
