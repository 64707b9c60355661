"""The trend dashboard: one small plot per benchmark, change points and known breaks marked.

Each night is its median time with the repetitions' range as a band; a regression is a red line,
an improvement a green one, a known break a dashed grey one labelled with what changed. Plots are
grouped by pattern behind a table of contents; groups with a change are open, the rest folded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import jinja2
from matplotlib.axes import Axes
from matplotlib.dates import AutoDateLocator, ConciseDateFormatter

from handoff_reports.names import parse_name
from handoff_reports.parallel import map_on_every_core
from handoff_reports.styles import LINE_STYLES, VariantStyles, styles_from_record, variant_gid
from handoff_reports.svg import figure_to_svg, new_figure
from handoff_reports.track.check import Change, CheckResult, format_seconds, night
from handoff_reports.track.series import KnownBreak, Series, break_between, segments
from handoff_reports.variants import Variant

COLOURS = {"regression": "#c62828", "improvement": "#2e7d32"}
BREAK_COLOUR = "#888888"
UNITS = (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9))


@dataclass(frozen=True)
class Mark:
    css: str  # a class of base.html.j2: regression, good, muted
    text: str


@dataclass(frozen=True)
class Plot:
    name: str
    anchor: str
    svg: str
    marks: list[Mark]


@dataclass(frozen=True)
class Group:
    pattern: str
    anchor: str
    plots: list[Plot]

    @property
    def changed(self) -> bool:
        return any(mark.css != "muted" for plot in self.plots for mark in plot.marks)


def _anchor(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # matplotlib's default date epoch


def _when(date: str) -> float:
    """A run's date as matplotlib's day number, so that spacing on the plot is time."""
    return (datetime.fromisoformat(date) - EPOCH).total_seconds() / 86400


def _unit(series: Sequence[Series]) -> tuple[str, float]:
    largest = max(point.high for one in series for point in one.points)
    return next(((unit, scale) for unit, scale in UNITS if largest >= scale), UNITS[-1])


def _draw_series(
    axes: Axes, one: Series, scale: float, label: str | None, line_style: str, styles: VariantStyles
) -> None:
    """In its variant's colour and marker from the history's variants records, as the report
    takes them from its runs' (styles.py); one machine's line style apart from another's."""
    when = [_when(point.run.identity.date) for point in one.points]
    medians = [point.median / scale for point in one.points]
    variant = parse_name(one.name).variant
    colour, marker = styles.colour_and_marker(variant)
    axes.plot(when, medians, color=colour, marker=marker, markersize=2.5, linewidth=1,
              linestyle=line_style, label=label, gid=variant_gid(variant))  # fmt: skip
    axes.fill_between(
        when,
        [point.low / scale for point in one.points],
        [point.high / scale for point in one.points],
        color=colour,
        alpha=0.2,
        linewidth=0,
    )


def _breaks_in(one: Series) -> list[tuple[str, str]]:
    marks = []
    for segment in segments(one.points)[1:]:
        before, after = one.points[segment.start - 1], one.points[segment.start]
        what = break_between(before.run.identity, after.run.identity) or "break"
        marks.append((after.run.identity.date, what))
    return marks


def _plot(
    name: str, series: Sequence[Series], changes: Sequence[Change], styles: VariantStyles
) -> Plot:
    unit, scale = _unit(series)
    # Fixed margins and concise dates: a layout engine measured every tick label to place them,
    # which took much of a dashboard's drawing time.
    figure = new_figure(4.6, 2.6, layout=None)
    figure.subplots_adjust(left=0.14, right=0.98, bottom=0.14, top=0.9)
    axes = figure.add_subplot()
    axes.xaxis_date()
    # matplotlib.dates has no annotations.
    locator = AutoDateLocator(minticks=3, maxticks=6)  # type: ignore[no-untyped-call]
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
    several = len(series) > 1
    marks = []
    for index, one in enumerate(series):
        line_style = LINE_STYLES[index % len(LINE_STYLES)]
        label = one.machine_label if several else None
        _draw_series(axes, one, scale, label, line_style, styles)
        for date, what in _breaks_in(one):
            when = _when(date)
            axes.axvline(when, color=BREAK_COLOUR, linestyle="--", linewidth=1, gid="known-break")
            axes.annotate(
                what,
                (when, 1),
                xycoords=("data", "axes fraction"),
                fontsize=6,
                rotation=90,
                va="top",
                ha="right",
                color=BREAK_COLOUR,
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 1},
            )
            marks.append(Mark("muted", f"known break {date[:10]}: {what}"))
    for number, change in enumerate(changes):
        when = _when(change.point.run.identity.date)
        colour = COLOURS[change.kind]
        axes.axvline(when, color=colour, linewidth=1.5, gid=f"change-{change.kind}-{number}")
        css = "regression" if change.kind == "regression" else "good"
        marks.append(
            Mark(
                css,
                f"{change.kind} from {night(change.point)}: "
                f"{format_seconds(change.before)} -> {format_seconds(change.after)} "
                f"({change.relative:+.1%})",
            )
        )
    axes.set_ylabel(f"median time ({unit})", fontsize=7)
    axes.tick_params(labelsize=6)
    axes.xaxis.get_offset_text().set_fontsize(6)  # the concise dates' "2026-Oct"
    axes.set_ylim(bottom=0)
    # A title at a set height: placed automatically, it measured the axes to dodge them.
    axes.set_title(name, fontsize=7, loc="left", y=1.01)
    if several:
        axes.legend(fontsize=6)
    return Plot(name=name, anchor=_anchor(name), svg=figure_to_svg(figure, name), marks=marks)


def _plot_of(arguments: tuple[str, list[Series], list[Change], VariantStyles]) -> Plot:
    return _plot(*arguments)


def _styles(result: CheckResult, variants: Mapping[str, Sequence[Variant]]) -> VariantStyles:
    """The recorded variants' styles, and for variants no stored record has (runs stored before
    the record), styles apart from their pattern's others, as the report gives them."""
    named: dict[str, list[str]] = {}
    for one in result.history.series:
        name = parse_name(one.name)
        if name.variant not in named.setdefault(name.pattern, []):
            named[name.pattern].append(name.variant)
    return styles_from_record(variants, named)


def _groups(result: CheckResult, styles: VariantStyles) -> list[Group]:
    by_name: dict[str, list[Series]] = {}
    for one in result.history.series:
        by_name.setdefault(one.name, []).append(one)
    changes: dict[str, list[Change]] = {}
    for change in result.changes:
        changes.setdefault(change.series.name, []).append(change)
    names = sorted(by_name)
    plots = map_on_every_core(
        _plot_of, [(n, by_name[n], changes.get(n, []), styles) for n in names]
    )
    groups: dict[str, list[Plot]] = {}
    for name, plot in zip(names, plots, strict=True):
        groups.setdefault(by_name[name][0].pattern, []).append(plot)
    return [
        Group(pattern, f"pattern-{_anchor(pattern)}", plots) for pattern, plots in groups.items()
    ]


@dataclass(frozen=True)
class MachineSummary:
    label: str
    runs: int
    first: str
    last: str
    driver: str
    cuda_runtime: str


def _machines(result: CheckResult) -> list[MachineSummary]:
    by_machine: dict[str, list[str]] = {}
    summaries: dict[str, MachineSummary] = {}
    for run in result.history.runs:  # grouped by machine, in time order
        identity = run.identity
        dates = by_machine.setdefault(identity.machine, [])
        dates.append(identity.date)
        summaries[identity.machine] = MachineSummary(
            identity.machine_label,
            len(dates),
            dates[0],
            identity.date,
            identity.driver,
            identity.cuda_runtime,
        )
    return list(summaries.values())


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("handoff_reports", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_dashboard(
    result: CheckResult, source: str, variants: Mapping[str, Sequence[Variant]]
) -> str:
    """`variants`: the history's stored records together (HistoryStore.recorded_variants)."""
    breaks: list[KnownBreak] = result.history.breaks
    template = _environment().get_template("dashboard.html.j2")
    return template.render(
        source=source,
        generated=datetime.now(UTC).isoformat(timespec="seconds"),
        options=result.options,
        machines=_machines(result),
        regressions=result.reported("regression"),
        improvements=result.reported("improvement"),
        breaks=breaks,
        groups=_groups(result, _styles(result, variants)),
        format_seconds=format_seconds,
        anchor=_anchor,
    )
