"""The report's plots, each returned as inline SVG."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import EngFormatter, FuncFormatter, LogLocator, NullFormatter

from handoff_reports.compare_stats import side_of
from handoff_reports.gpu_scaling import ONE_PROCESS, SCALING_TARGET, ScalingSeries
from handoff_reports.results import STAGES, Ceiling, Row
from handoff_reports.series import ColdWarmPair, Facet, Series
from handoff_reports.styles import VariantStyles, readable_log_axis, variant_gid
from handoff_reports.svg import figure_to_svg, new_figure, new_plot_with_legend_beside

MAX_BARS = 24
# Stages in greys from light to dark, in the order a hand-off runs them, told apart by hatching
# where neighbours are close: the variants' colours mean variants everywhere else in the report.
STAGE_GREYS = (
    "#f7f7f7",
    "#d9d9d9",
    "#bdbdbd",
    "#969696",
    "#737373",
    "#525252",
    "#353535",
    "#111111",
)
STAGE_HATCHES = ("", "///", "", "...", "", "xxx", "", "\\\\\\")
STAGE_COLOURS = dict(zip(STAGES, STAGE_GREYS, strict=True))
STAGE_HATCH = dict(zip(STAGES, STAGE_HATCHES, strict=True))
WARM_GREY, COLD_GREY = "#c7c7c7", "#595959"


def _title(axes: Axes, text: str) -> None:
    """A title wrapped to the axes' width (about 70 characters), so that a long facet is not cut
    off at the figure's edge."""
    lines = textwrap.wrap(text, 70)
    axes.set_title("\n".join(lines), fontsize="small")
    if len(lines) > 1:  # room above the axes for every line: about a sixth of an inch each
        figure = axes.get_figure()
        assert isinstance(figure, Figure)
        top = 1 - (0.15 + 0.17 * len(lines)) / figure.get_figheight()
        figure.subplots_adjust(top=min(figure.subplotpars.top, top))


def _legend(axes: Axes) -> None:
    if axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize="x-small", loc="center left", bbox_to_anchor=(1.01, 0.5))


def _size_label(facet: Facet) -> str:
    return facet.size_axis or "size"


def _ratio_axis(axes: Axes) -> None:
    """A log axis of ratios labelled 0.5×, 1×, 2×, 5×: an engineering "100 m" or a lone "1" does
    not read as a speedup."""
    axes.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}×"))
    axes.yaxis.set_minor_formatter(NullFormatter())


def _finish_against_size(
    figure: Figure, axes: Axes, pattern: str, facet: Facet, what: str, y_unit: str, note: str
) -> str:
    """Log-log axes against the facet's size, readable ticks, title, grid and legend; the SVG.
    y_unit "×" makes the y axis a ratio."""
    axes.set(xscale="log", yscale="log", xlabel=_size_label(facet))
    readable_log_axis(axes, "x")
    if y_unit == "×":
        _ratio_axis(axes)
    else:
        readable_log_axis(axes, "y", y_unit)
    _title(axes, f"{pattern}: {what} against {_size_label(facet)} ({facet.title}){note}")
    axes.grid(True, which="both", alpha=0.3)
    _legend(axes)
    return figure_to_svg(figure, f"{pattern} {what} against size, {facet.title}")


def _interval(row: Row) -> tuple[float, float]:
    """The row's interval as compare shows it (compare_stats.side_of): its median's 95% interval,
    widened over several repetitions to take in each one's."""
    side = side_of(row.figures)
    return side.low, side.high


def _draw_series_times(
    axes: Axes, series: Series, labels: Sequence[str], styles: VariantStyles
) -> None:
    points = series.points()
    sizes = [size for size, _ in points]
    medians = [row.median_seconds for _, row in points]
    style = styles.series_keywords(series.label, labels)
    axes.plot(sizes, medians, label=series.label, **style)
    low, high = zip(*(_interval(row) for _, row in points), strict=True)
    if any(hi > lo for lo, hi in zip(low, high, strict=True)):
        axes.fill_between(sizes, low, high, color=style["color"], alpha=0.2, linewidth=0)


def time_against_size(pattern: str, facet: Facet, styles: VariantStyles) -> str:
    figure, axes = new_plot_with_legend_beside()
    labels = [series.label for series in facet.series]
    for series in facet.series:
        if series.points():
            _draw_series_times(axes, series, labels, styles)
    axes.set_ylabel("median time")
    return _finish_against_size(figure, axes, pattern, facet, "time", "s",
                                "; bands: the medians' intervals")  # fmt: skip


def has_one_size(facet: Facet) -> bool:
    """Every series of the facet measured at one and the same size: a line would be a column of
    markers, so the facet gets a dot chart by variant instead."""
    return len({size for series in facet.series for size, _ in series.points()}) == 1


def time_by_variant(pattern: str, facet: Facet, styles: VariantStyles) -> str:
    """Each series' median at the facet's one size as a dot with its interval, a line a series,
    quickest at the top, and its efficiency beside it where it has a floor."""
    points = [(series.label, row) for series in facet.series for _, row in series.points()]
    points.sort(key=lambda point: point[1].median_seconds, reverse=True)
    size = next(size for series in facet.series for size, _ in series.points())
    labels = [label for label, _ in points]
    height = max(2.0, 1.1 + 0.3 * len(points))
    figure = new_figure(9.0, height, layout=None)
    figure.subplots_adjust(left=0.34, right=0.84, bottom=0.75 / height, top=1 - 0.45 / height)
    axes = figure.add_subplot()
    for index, (label, row) in enumerate(points):
        style = styles.series_keywords(label, labels)
        low, high = _interval(row)
        median = row.median_seconds
        axes.errorbar([median], [index], xerr=[[median - low], [high - median]],
                      color=style["color"], marker=style["marker"], markersize=5, capsize=2,
                      linestyle="none", gid=style["gid"])  # fmt: skip
        if row.efficiency:
            note = f"{100 * row.efficiency:.0f}% of floor" + (" SUSPECT" if row.suspect else "")
            axes.annotate(note, (1.0, index), xycoords=("axes fraction", "data"), xytext=(4, 0),
                          textcoords="offset points", va="center", fontsize="x-small")  # fmt: skip
    axes.set_yticks(range(len(points)), labels, fontsize="x-small")
    axes.set_ylim(-0.6, len(points) - 0.4)
    times = [t for _, row in points for t in _interval(row)]
    if max(times) > 10 * min(times):
        axes.set_xscale("log")
        readable_log_axis(axes, "x", "s")
    else:
        axes.xaxis.set_major_formatter(EngFormatter(unit="s", places=0, sep=" "))
    axes.set_xlabel("median time, with its interval")
    _title(axes, f"{pattern}: time by variant at {_size_label(facet)}:{size:g} ({facet.title})")
    axes.grid(True, axis="x", which="both", alpha=0.3)
    return figure_to_svg(figure, f"{pattern} time by variant, {facet.title}")


def speedup_over_cpu(
    pattern: str,
    facet: Facet,
    speedups: dict[str, list[tuple[float, float]]],
    styles: VariantStyles,
) -> str:
    figure, axes = new_plot_with_legend_beside()
    labels = sorted(speedups)
    for label in labels:
        axes.plot(*zip(*speedups[label], strict=True), label=label,
                  **styles.series_keywords(label, labels))  # fmt: skip
    axes.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    axes.set_ylabel("speedup over the best CPU reference (×)")
    return _finish_against_size(figure, axes, pattern, facet, "speedup over the best CPU row",
                                "×", "")  # fmt: skip


def efficiency_against_size(pattern: str, facet: Facet, styles: VariantStyles) -> str:
    figure, axes = new_plot_with_legend_beside()
    labels = [series.label for series in facet.series]
    for series in facet.series:
        rows = [(size, row) for size, row in series.points() if row.efficiency]
        if not rows:
            continue
        sizes = [size for size, _ in rows]
        axes.plot(sizes, [100 * (row.efficiency or 0) for _, row in rows], label=series.label,
                  **styles.series_keywords(series.label, labels))  # fmt: skip
        suspect = [(size, 100 * (row.efficiency or 0)) for size, row in rows if row.suspect]
        if suspect:
            suspect_sizes, suspect_percents = zip(*suspect, strict=True)
            axes.scatter(suspect_sizes, suspect_percents, marker="x", s=60, color="red", zorder=3)
    axes.axhline(100, color="red", linewidth=0.8, linestyle="--")
    axes.set(xscale="log", xlabel=_size_label(facet), ylabel="efficiency (% of floor)")
    readable_log_axis(axes, "x")
    axes.set_ylim(bottom=0)
    _title(
        axes, f"{pattern}: efficiency against this run's ceilings ({facet.title}); red × = SUSPECT"
    )
    axes.grid(True, alpha=0.3)
    _legend(axes)
    return figure_to_svg(figure, f"{pattern} efficiency, {facet.title}")


FLOOR_BYTES_PREFIX = "floor_bytes."


def bandwidth_ceilings(facet: Facet, ceilings: dict[str, Ceiling]) -> list[Ceiling]:
    """The bandwidth ceilings the facet's rows are priced against (their floors' byte terms),
    as measured in the run."""
    names = {key.removeprefix(FLOOR_BYTES_PREFIX) for row in facet.all_rows()
             for key in row.counters if key.startswith(FLOOR_BYTES_PREFIX)}  # fmt: skip
    found = [ceilings[name] for name in sorted(names) if name in ceilings]
    return [ceiling for ceiling in found if not ceiling.is_latency]


def has_bandwidth(facet: Facet) -> bool:
    return any(row.bytes_per_iteration for row in facet.all_rows())


def _ceiling_lines(ceilings: list[Ceiling]) -> list[tuple[float, str]]:
    """(bytes per second, label) per line: ceilings within 3% of each other share one line, so
    that their labels do not overprint."""
    lines: list[tuple[float, list[str]]] = []
    for ceiling in sorted(ceilings, key=lambda c: c.value):
        if lines and ceiling.value <= lines[-1][0] * 1.03:
            lines[-1][1].append(ceiling.name)
        else:
            lines.append((ceiling.value, [ceiling.name]))
    return [(value, f"{', '.join(names)}: {value / 1e9:.4g} GB/s") for value, names in lines]


def bandwidth_against_size(
    pattern: str, facet: Facet, ceilings: dict[str, Ceiling], styles: VariantStyles
) -> str:
    """Achieved bandwidth (the bytes a row moves over its median time) against size, with the
    ceilings its floors name drawn as labelled lines, as nvbandwidth's or a roofline's readers
    expect."""
    figure, axes = new_plot_with_legend_beside()
    labels = [series.label for series in facet.series]
    for series in facet.series:
        points = [(size, row.bytes_per_iteration / row.median_seconds)
                  for size, row in series.points()
                  if row.bytes_per_iteration and row.median_seconds > 0]  # fmt: skip
        if points:
            axes.plot(*zip(*points, strict=True), label=series.label,
                      **styles.series_keywords(series.label, labels))  # fmt: skip
    for value, label in _ceiling_lines(bandwidth_ceilings(facet, ceilings)):
        axes.axhline(value, color="black", linewidth=0.8, linestyle=(0, (4, 3)))
        axes.annotate(label, (0.01, value), xycoords=("axes fraction", "data"),
                      fontsize="xx-small", va="bottom")  # fmt: skip
    axes.set_ylabel("achieved bandwidth")
    return _finish_against_size(figure, axes, pattern, facet, "bandwidth", "B/s",
                                "; dashed: this run's ceilings")  # fmt: skip


def stage_breakdown(pattern: str, rows: Sequence[Row]) -> str:
    """Each row's stage times as shares of its measured time, stacked; the label gives the time."""
    rows = list(rows)[:MAX_BARS]
    figure = new_figure(7.5, 0.8 + 0.28 * len(rows))
    axes = figure.add_subplot()
    labels = [
        f"{row.key.removeprefix(pattern + '/')} ({row.median_seconds * 1e3:.3g} ms)" for row in rows
    ]
    left = [0.0] * len(rows)
    for stage in STAGES:
        shares = []
        for row in rows:
            stages = row.stages
            total = max(sum(stages.values()), row.median_seconds)
            shares.append(100 * stages.get(stage, 0.0) / total if total > 0 else 0.0)
        if any(shares):
            axes.barh(labels, shares, left=left, color=STAGE_COLOURS[stage], label=stage,
                      hatch=STAGE_HATCH[stage], edgecolor="#666666", linewidth=0.4)  # fmt: skip
            left = [a + b for a, b in zip(left, shares, strict=True)]
    axes.invert_yaxis()
    axes.tick_params(axis="y", labelsize="x-small")
    axes.set(xlabel="share of the stages' summed time (%)", xlim=(0, 100))
    axes.set_title(f"{pattern}: stage times", fontsize="small")
    _legend(axes)
    return figure_to_svg(figure, f"{pattern} stage breakdown")


def cold_against_warm(pattern: str, pairs: Sequence[ColdWarmPair]) -> str:
    pairs = list(pairs)[:MAX_BARS]
    figure = new_figure(7.5, 0.8 + 0.36 * len(pairs))
    axes = figure.add_subplot()
    positions = list(range(len(pairs)))
    # Greys: the variants' colours mean variants everywhere else in the report.
    axes.barh([p - 0.2 for p in positions], [pair.warm.median_seconds for pair in pairs],
              height=0.4, label="warm", color=WARM_GREY)  # fmt: skip
    axes.barh([p + 0.2 for p in positions], [pair.cold.median_seconds for pair in pairs],
              height=0.4, label="cold", color=COLD_GREY)  # fmt: skip
    axes.set_yticks(positions, [f"{pair.label} (×{pair.ratio:.3g})" for pair in pairs])
    axes.invert_yaxis()
    axes.tick_params(axis="y", labelsize="x-small")
    axes.set(xscale="log", xlabel="median time")
    readable_log_axis(axes, "x", "s")
    axes.set_title(f"{pattern}: cold (processes and contexts created) against warm",
                   fontsize="small")  # fmt: skip
    _legend(axes)
    return figure_to_svg(figure, f"{pattern} cold against warm")


def scaling_against_gpus(scope: str, series: Sequence[ScalingSeries], styles: VariantStyles) -> str:
    """Time, speedup and scaling efficiency against GPU count, for the first workload of the
    series (the table beside the plot lists every one); a variant keeps its colour and marker
    (styles.py), one process drawn solid and one rank per GPU dashed."""
    workload = series[0].workload
    series = [one for one in series if one.workload == workload]
    figure = new_figure(13.0, 3.8)
    time_axes, speedup_axes, efficiency_axes = figure.subplots(1, 3)
    counts = sorted({point.gpus for one in series for point in one.points})
    for one in series:
        one_process = one.pattern == ONE_PROCESS
        colour, marker = styles.colour_and_marker(one.variant)
        style = {"color": colour, "marker": marker,
                 "markersize": 4, "linestyle": "-" if one_process else "--"}  # fmt: skip
        gpus = [point.gpus for point in one.points]
        time_axes.plot(gpus, [1e3 * p.seconds for p in one.points], label=one.label,
                       gid=variant_gid(one.variant), **style)  # fmt: skip
        time_axes.fill_between(gpus, [1e3 * p.low for p in one.points],
                               [1e3 * p.high for p in one.points], color=style["color"],
                               alpha=0.15, linewidth=0)  # fmt: skip
        with_speedup = [p for p in one.points if p.speedup is not None]
        if with_speedup:
            speedup_axes.plot([p.gpus for p in with_speedup], [p.speedup for p in with_speedup],
                              gid=variant_gid(one.variant), **style)  # fmt: skip
            efficiency_axes.plot([p.gpus for p in with_speedup],
                                 [100 * (p.efficiency or 0.0) for p in with_speedup],
                                 gid=variant_gid(one.variant), **style)  # fmt: skip
    speedup_axes.plot(counts, counts, color="black", linewidth=0.8, linestyle=":", label="ideal")
    efficiency_axes.axhline(100, color="black", linewidth=0.8, linestyle=":")
    efficiency_axes.axhline(100 * SCALING_TARGET, color="red", linewidth=0.8, linestyle="--")
    time_axes.set(xlabel="GPUs", ylabel="median time (ms)")
    time_axes.set_ylim(bottom=0)
    speedup_axes.set(xlabel="GPUs", ylabel="speedup over one GPU (×)")
    efficiency_axes.set(xlabel="GPUs", ylabel="scaling efficiency (%)")
    efficiency_axes.set_ylim(bottom=0, top=max(110.0, efficiency_axes.get_ylim()[1]))
    for axes in (time_axes, speedup_axes, efficiency_axes):
        axes.set_xticks(counts)
        axes.grid(True, alpha=0.3)
    time_axes.set_title(f"time, scope {scope}, {workload}", fontsize="small")
    speedup_axes.set_title("speedup (dotted: ideal)", fontsize="small")
    efficiency_axes.set_title(f"scaling efficiency (dashed red: {SCALING_TARGET:.0%} target)",
                              fontsize="small")  # fmt: skip
    handles, labels = time_axes.get_legend_handles_labels()
    figure.legend(handles, labels, fontsize="x-small", loc="outside right center")
    return figure_to_svg(figure, f"multi-GPU scaling against GPU count, scope {scope}")
