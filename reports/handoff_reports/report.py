"""`report`: one or more results files to one self-contained HTML page."""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime

from jinja2 import Environment, PackageLoader, select_autoescape

from handoff_reports import plots
from handoff_reports.claims import ClaimsError, ClaimVerdict, evaluate_claims, load_claims
from handoff_reports.formatting import ceiling_text, seconds_text
from handoff_reports.gpu_scaling import ScalingSeries, by_scope, scaling_series
from handoff_reports.headline import headline_table, speedup_text
from handoff_reports.headline_entry import LAUNCHES_ONLY
from handoff_reports.output_files import OutputError, check_output_file, write_atomically
from handoff_reports.parallel import map_on_every_core
from handoff_reports.python_cost import python_cost_lines, ratio_text
from handoff_reports.results import Ceiling, ResultsError, Row, Run, load_all
from handoff_reports.series import cold_warm_pairs, facets_of, speedups_over_best_cpu
from handoff_reports.styles import VariantStyles, styles_from_record
from handoff_reports.together import runs_together
from handoff_reports.variants import Variant, merge_records, variants_of, variants_seen

PATTERN_ORDER = ("pool_prep", "queued_worker", "postproc_split", "independent_tasks", "iterative",
                 "elementwise", "tensor_transfer", "multi_gpu", "multi_gpu_mpi")  # fmt: skip


@dataclass
class PatternSection:
    name: str
    rows: list[Row]
    time_plots: list[str] = field(default_factory=list)
    speedup_plots: list[str] = field(default_factory=list)
    efficiency_plots: list[str] = field(default_factory=list)
    bandwidth_plots: list[str] = field(default_factory=list)
    stage_plot: str | None = None
    cold_warm_plot: str | None = None
    variants: tuple[Variant, ...] = ()


def _by_pattern(rows: list[Row]) -> dict[str, list[Row]]:
    grouped: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        grouped[row.name.pattern].append(row)
    order = {name: index for index, name in enumerate(PATTERN_ORDER)}
    return dict(sorted(grouped.items(), key=lambda item: (order.get(item[0], 99), item[0])))


def _stage_rows(rows: list[Row]) -> list[Row]:
    """Per series, the warm row at its largest size: where the stages are most telling."""
    largest: dict[tuple[str, tuple[tuple[str, str], ...]], Row] = {}
    for row in rows:
        if not row.stages or row.failed or not row.seconds or row.name.axis("start") == "cold":
            continue
        size_axis = row.name.size_axis
        identity = (row.name.variant, row.name.axes_without(*((size_axis,) if size_axis else ())))
        best = largest.get(identity)
        if best is None or (row.name.size or 0) > (best.name.size or 0):
            largest[identity] = row
    return list(largest.values())


def pattern_section(
    pattern: str, rows: list[Row], ceilings: dict[str, Ceiling], styles: VariantStyles
) -> PatternSection:
    section = PatternSection(pattern, rows)
    for facet in facets_of(rows):
        if not any(series.points() for series in facet.series):
            continue
        if plots.has_one_size(facet):
            section.time_plots.append(plots.time_by_variant(pattern, facet, styles))
            continue
        section.time_plots.append(plots.time_against_size(pattern, facet, styles))
        if speedups := speedups_over_best_cpu(facet, rows):
            section.speedup_plots.append(plots.speedup_over_cpu(pattern, facet, speedups, styles))
        if any(row.efficiency for row in facet.all_rows()):
            section.efficiency_plots.append(plots.efficiency_against_size(pattern, facet, styles))
        if plots.has_bandwidth(facet):
            section.bandwidth_plots.append(
                plots.bandwidth_against_size(pattern, facet, ceilings, styles)
            )
    if stage_rows := _stage_rows(rows):
        section.stage_plot = plots.stage_breakdown(pattern, stage_rows)
    if pairs := cold_warm_pairs(rows):
        section.cold_warm_plot = plots.cold_against_warm(pattern, pairs)
    return section


def _section_of(
    arguments: tuple[str, list[Row], dict[str, Ceiling], VariantStyles],
) -> PatternSection:
    return pattern_section(*arguments)


CLOCK_CUDA_EVENTS = 0
CLOCK_WALL = 1


def _met_target(row: Row) -> bool:
    target = row.noise_target
    noise = row.noise
    return not row.noisy and noise is not None and target is not None and noise <= target


def noise_summary(rows: list[Row]) -> str | None:
    """ "N of M CUDA-event rows and K of L wall-clock rows met their noise target", counting the
    rows that aimed at a target (not the fixed-count ones); None when no row has a noise."""
    targeted = [
        row
        for row in rows
        if row.noise is not None and not row.fixed_samples and row.seconds and not row.failed
    ]
    if not targeted:
        return None
    parts = []
    for clock, what in ((CLOCK_CUDA_EVENTS, "CUDA-event"), (CLOCK_WALL, "wall-clock")):
        of_clock = [row for row in targeted if row.clock == clock]
        met = sum(_met_target(row) for row in of_clock)
        parts.append(f"{met} of {len(of_clock)} {what} rows")
    return " and ".join(parts) + " met their noise target"


def noise_text(row: Row) -> str:
    """±x% (the row's relative half-width of its median's interval), "–" in older files."""
    return f"±{row.noise:.1%}" if row.noise is not None else "–"


def samples_text(row: Row) -> str:
    if row.samples is None:
        return "–"
    return f"{row.samples:.0f}" + (" (fixed)" if row.fixed_samples else "")


def gpu_scaling_plots(
    rows: list[Row], styles: VariantStyles
) -> list[tuple[str, str, list[ScalingSeries]]]:
    """Per scope: the plot against GPU count and its series; empty without several GPU counts."""
    series = scaling_series(rows)
    if not any(point.gpus > 1 for one in series for point in one.points):
        return []
    return [(scope, plots.scaling_against_gpus(scope, members, styles), members)
            for scope, members in by_scope(series).items()]  # fmt: skip


def _evaluate_claims(run: Run) -> tuple[list[ClaimVerdict], str | None]:
    try:
        return evaluate_claims(run, load_claims()), None
    except ClaimsError as error:
        return [], str(error)


def report_styles(runs: list[Run]) -> VariantStyles:
    """Each variant's colour and marker, the variants of a pattern apart from one another."""
    # Variants the record lacks (a file written before it) still get styles apart from their
    # pattern's others, in the order their rows come.
    return styles_from_record(merge_records([variants_of(runs), variants_seen(runs)]))


def render_report(runs: list[Run]) -> str:
    """The page; NotComparable (a ResultsError) for Python rows from another machine or
    settings than the rest (together.py)."""
    run = runs_together(runs)
    rows = run.benchmark_rows()
    recorded = variants_of(runs)
    styles = report_styles(runs)
    # A pattern's section is a dozen plots or more: worth a process of its own.
    work = [(pattern, members, run.ceilings, styles)
            for pattern, members in _by_pattern(rows).items()]  # fmt: skip
    sections = map_on_every_core(_section_of, work, serial_below=2)
    for section in sections:
        section.variants = recorded.get(section.name, ())
    claims, claims_error = _evaluate_claims(run)
    environment = Environment(
        loader=PackageLoader("handoff_reports", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
    )
    environment.filters["seconds"] = seconds_text
    environment.filters["ceiling"] = ceiling_text
    environment.filters["noise"] = noise_text
    environment.filters["samples"] = samples_text
    environment.filters["headline_speedup"] = speedup_text
    environment.filters["ratio"] = ratio_text
    template = environment.get_template("report.html.j2")
    ceilings: list[Ceiling] = sorted(run.ceilings.values(), key=lambda c: c.name)
    return template.render(
        runs=runs,
        run=run,
        generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        headline=headline_table(rows),
        python_cost=python_cost_lines(rows, merge_records([recorded, variants_seen(runs)])),
        ceilings=ceilings,
        sections=sections,
        gpu_scaling=gpu_scaling_plots(rows, styles),
        multi_gpu_measured=any(row.name.pattern.startswith("multi_gpu") for row in rows),
        correctness=sorted(rows, key=lambda r: (not r.failed, r.name.pattern, r.key)),
        failures=[row for row in rows if row.failed],
        suspects=[row for row in rows if row.suspect],
        claims=claims,
        claims_error=claims_error,
        incomplete=[r for r in runs if r.run_state.incomplete],
        noise_summary=noise_summary(rows),
        noisy=[row for row in rows if row.noisy],
        clock_lowered=[row for row in rows if row.clock_lowered],
        ceilings_sources=[(r, r.ceilings_source.line) for r in runs if r.ceilings_source],
        launches_only=LAUNCHES_ONLY,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="handoff-report",
        description="Write one self-contained HTML report (inline SVG plots) from handoff_bench "
        "results JSON files.",
    )
    parser.add_argument("results", nargs="+", help="results JSON files written by handoff_bench")
    parser.add_argument("-o", "--output", required=True, help="the HTML file to write")
    arguments = parser.parse_args(argv)
    try:
        output = check_output_file(arguments.output)
        runs = load_all(arguments.results)
        write_atomically(output, render_report(runs))
    except (OutputError, ResultsError) as error:
        print(f"handoff-report: {error}", file=sys.stderr)
        return 2
    failures = sum(row.failed for run in runs for row in run.rows.values())
    print(f"handoff-report: wrote {output}" + (f" ({failures} failed rows)" if failures else ""))
    return 0
