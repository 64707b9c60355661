"""matplotlib figures as inline SVG, so a report is one file that needs no network."""

from __future__ import annotations

import io
import os
import re

import matplotlib

matplotlib.use("Agg")  # no display on CI machines or GPU hosts

import matplotlib.pyplot as plt  # noqa: E402
from cycler import cycler  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

# Text stays text (smaller files, searchable); ids get a per-figure prefix so that several
# figures inlined in one page do not share clip-path ids.
matplotlib.rcParams["svg.fonttype"] = "none"
matplotlib.rcParams["svg.hashsalt"] = "handoff"
# Twenty distinct colours: a pattern's plot can carry more series than the default ten.
matplotlib.rcParams["axes.prop_cycle"] = cycler(color=[plt.get_cmap("tab20")(i) for i in range(20)])

_figure_count = 0


def new_figure(
    width: float = 7.0, height: float = 4.0, layout: str | None = "constrained"
) -> Figure:
    """layout="tight" is several times cheaper than "constrained", for pages with many plots;
    None, with margins set by the caller, cheaper still: no layout measures the text."""
    return plt.figure(figsize=(width, height), layout=layout)


def new_plot_with_legend_beside(width: float = 8.0, height: float = 3.6) -> tuple[Figure, Axes]:
    """One axes on the left 60% of the figure and room for a legend on the right, at fixed margins:
    a page of sixty plots was half layout engine, measuring every tick label to place them."""
    figure = new_figure(width, height, layout=None)
    figure.subplots_adjust(left=0.12, right=0.64, bottom=0.14, top=0.9)
    return figure, figure.add_subplot()


def figure_to_svg(figure: Figure, title: str) -> str:
    """The figure as an <svg> element with a <title>, closed afterwards so nothing accumulates."""
    global _figure_count
    _figure_count += 1
    buffer = io.StringIO()
    try:
        figure.savefig(buffer, format="svg")
    finally:
        plt.close(figure)
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    prefix = f"f{os.getpid()}-{_figure_count}-"  # unique across the processes that draw a page
    text = re.sub(r'id="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', text)
    text = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", text)
    text = re.sub(r'xlink:href="#([^"]+)"', lambda m: f'xlink:href="#{prefix}{m.group(1)}"', text)
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace(">", f' class="plot" role="img"><title>{escaped}</title>', 1)
    return text
