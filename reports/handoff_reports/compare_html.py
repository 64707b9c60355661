"""The comparison as one self-contained HTML page: a change of machine first, then the level each
section's rows were judged at together, the table (with each row's resolution, process counts and
where its spread came from, and a strip of its processes' figures), the manifests and a change
plot."""

from __future__ import annotations

import math
from pathlib import Path

import jinja2
from markupsafe import Markup
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from handoff_reports.compare import (
    Comparison,
    RowComparison,
    format_change,
    format_counts,
    format_processes,
    format_ratio,
    format_seconds,
    geometric_mean_ratio,
)
from handoff_reports.compare_formats import spread_text
from handoff_reports.compare_stats import Verdict, format_noise, format_resolution
from handoff_reports.output_files import write_atomically
from handoff_reports.process_strip import process_strip
from handoff_reports.svg import figure_to_svg, new_figure

BAR_COLORS = {
    Verdict.SLOWER: "#d62728",
    Verdict.FASTER: "#2ca02c",
    Verdict.UNRESOLVED: "#c9c9c9",
    Verdict.SAME: "#7f7f7f",
}


def change_figure(rows: list[RowComparison], default_threshold: float) -> Figure | None:
    """Every compared benchmark's change in %, sorted, coloured by verdict; None if none."""
    plotted = sorted(
        (row for row in rows if row.verdict in BAR_COLORS and math.isfinite(row.change)),
        key=lambda row: row.change,
    )
    if not plotted:
        return None
    figure = new_figure(width=8.0, height=3.5)
    axes = figure.add_subplot()
    positions = range(len(plotted))
    axes.bar(
        positions,
        [100 * row.change for row in plotted],
        width=0.85,
        color=[BAR_COLORS[row.verdict] for row in plotted],
    )
    band = 100 * default_threshold
    axes.axhspan(-band, band, color="#000000", alpha=0.06)
    axes.axhline(0, color="#444444", linewidth=0.6)
    shown = {row.verdict for row in plotted}
    legend = [Patch(color="#000000", alpha=0.06, label=f"±{band:g}% default threshold")]
    legend += [Patch(color=c, label=v.value) for v, c in BAR_COLORS.items() if v in shown]
    axes.set_xticks([])
    axes.set_xlabel(f"{len(plotted)} benchmarks, sorted by change")
    axes.set_ylabel("contender vs baseline median time (%)")
    axes.legend(handles=legend, fontsize="small", loc="upper left")
    return figure


def change_plot(rows: list[RowComparison], default_threshold: float) -> str | None:
    figure = change_figure(rows, default_threshold)
    if figure is None:
        return None
    return figure_to_svg(figure, "Change in median time per benchmark, contender vs baseline")


def _row_view(row: RowComparison) -> dict[str, str]:
    strip = process_strip(row)
    return {
        "key": row.key,
        "baseline": format_seconds(row.centres[0]),
        "baseline_noise": format_noise(row.baseline_side),
        "contender": format_seconds(row.centres[1]),
        "contender_noise": format_noise(row.contender_side),
        "repetitions": f"{row.baseline.repetitions} / {row.contender.repetitions}",
        "processes": format_processes(row),
        "strip": Markup(strip) if strip else "",
        "change": format_change(row.change),
        "resolution": format_resolution(row.resolution),
        "threshold": f"{row.threshold:.0%}",
        "spread": spread_text(row),
        "verdict": row.verdict.value,
        "reason": row.reason if row.verdict is Verdict.UNRESOLVED else "",
        "css": "bad" if row.verdict is Verdict.FAILED else row.verdict.value.replace(" ", "-"),
    }


def render_html(comparison: Comparison) -> str:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("handoff_reports", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    plot = change_plot(comparison.benchmarks, comparison.default_threshold)
    return environment.get_template("compare.html.j2").render(
        machine_line=comparison.machine_line(),
        machine_noise=comparison.machine_noise,
        unresolved=comparison.unresolved_lines(),
        families=comparison.family_lines(),
        # "every row NOT COMPARABLE (...)" beside "No regression"; a regression lists its reasons.
        outcome_note=comparison.outcome.partition("; ")[2] if not comparison.exit_code else "",
        baseline=comparison.baseline,
        contender=comparison.contender,
        warnings=comparison.warnings(),
        default_threshold=comparison.default_threshold,
        regressed=comparison.exit_code != 0,
        failures=comparison.failure_lines(),
        benchmarks=[_row_view(row) for row in comparison.benchmarks],
        ceilings=[_row_view(row) for row in comparison.ceilings],
        benchmark_counts=format_counts(comparison, comparison.benchmarks),
        ceiling_counts=format_counts(comparison, comparison.ceilings),
        benchmark_geomean=format_ratio(geometric_mean_ratio(comparison.benchmarks)),
        ceiling_geomean=format_ratio(geometric_mean_ratio(comparison.ceilings)),
        manifest_differences=comparison.manifest_differences(),
        machine_changed=bool(comparison.machine_changes()),
        unmatched=comparison.unmatched,
        plot=Markup(plot) if plot else None,  # our own matplotlib output: already escaped
    )


def write_html(comparison: Comparison, path: str | Path) -> None:
    """Raises OutputError when path cannot or must not be written (output_files.py)."""
    write_atomically(path, render_html(comparison))
