"""`compare`'s console report: a machine change first, then the runs, the benchmarks (worst
first), the ceilings, the rows not compared and a summary."""

from __future__ import annotations

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
from handoff_reports.compare_stats import format_noise, format_resolution
from handoff_reports.process_level import STOLEN_SHARE_LIMIT

# The spread column's short words, by the start of where a side's spread came from.
SHORT_SOURCES = (("this run's", "run"), ("machine noise", "machine"), ("none", "none"))


def short_source(source: str) -> str:
    short = next((short for start, short in SHORT_SOURCES if source.startswith(start)), "pairs")
    return f"{short}+machine" if ", pooled with machine noise" in source else short


def spread_column(row: RowComparison) -> str:
    """'run/machine': where the baseline's and the contender's spread came from."""
    sources = row.spread_sources
    return "/".join(short_source(source) for source in sources) if sources else "-"


def spread_legend(comparison: Comparison) -> list[str]:
    noise = comparison.machine_noise or "--machine-noise FILE"
    return [
        "resolution: the smallest change each row could call (Welch's t on the log medians of "
        "its processes); the rows of each section are judged together, so that two runs of one "
        "build call a row of it in at most 1 comparison in 100: each row is tested at its "
        "section's level α*",
        *(f"  {line}" for line in comparison.family_lines()),
        "spread from (baseline/contender): run = this run's processes (counted under processes), "
        f"machine = machine noise from {noise}, run+machine = both pooled, none = one process "
        "(no spread known), pairs = runs taken in turn",
        f"processes: those each side's figure rests on; +N: N more set aside, since a hypervisor "
        f"took {STOLEN_SHARE_LIMIT:.0%} or more of the machine's CPU while they measured the row",
    ]


def _table(rows: list[RowComparison]) -> list[str]:
    header = (
        "name", "baseline", "noise", "contender", "noise", "processes", "change", "resolution",
        "threshold", "spread", "verdict",
    )  # fmt: skip
    cells = [
        (
            row.key,
            format_seconds(row.centres[0]),
            format_noise(row.baseline_side),
            format_seconds(row.centres[1]),
            format_noise(row.contender_side),
            format_processes(row),
            format_change(row.change),
            format_resolution(row.resolution),
            f"{row.threshold:.0%}",
            spread_column(row),
            row.verdict.value,
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in [header, *cells]) for i in range(len(header))]
    left = (0, len(header) - 2, len(header) - 1)
    return [
        "  ".join(
            text.ljust(width) if i in left else text.rjust(width)
            for i, (text, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in [header, *cells]
    ]


def _machine_lines(comparison: Comparison) -> list[str]:
    manifest = comparison.machine_differences()
    if comparison.machine_changes():
        state = "CHANGED"
    elif manifest:
        state = "the same models, driver and runtime; other details differ"
    else:
        state = "unchanged"
    lines = [f"machine: {state}"]
    lines.extend(f"  {key}: {before} -> {after}" for key, before, after in manifest)
    return lines


def format_report(comparison: Comparison) -> str:
    """The console report: a machine change first, then benchmarks (worst first), ceilings,
    unmatched rows and a summary."""
    lines = [line] if (line := comparison.machine_line()) else []
    lines += [f"baseline:  {comparison.baseline.path}", f"contender: {comparison.contender.path}"]
    lines += _machine_lines(comparison)
    lines.extend(comparison.warnings())
    lines.extend(spread_legend(comparison))
    lines += ["", "benchmarks (regressions first):", *_table(comparison.benchmarks)]
    if comparison.ceilings:
        lines += [
            "",
            "ceilings (the machine's own figures: a change here is the machine, not the code, "
            "and never fails the comparison):",
            *_table(comparison.ceilings),
        ]
    if comparison.unmatched:
        lines += ["", "not compared:"]
        lines.extend(f"  {row.key}: {row.reason}" for row in comparison.unmatched)
    if unresolved := comparison.unresolved_lines():
        lines += ["", "unresolved (never a failure):", *(f"  {line}" for line in unresolved)]
    if failures := comparison.failure_lines():
        lines += ["", "why it fails:", *(f"  {line}" for line in failures)]
    lines += [
        "",
        f"benchmarks: {format_counts(comparison, comparison.benchmarks)}; "
        f"geomean contender/baseline {format_ratio(geometric_mean_ratio(comparison.benchmarks))}",
        f"ceilings: {format_counts(comparison, comparison.ceilings)}; "
        f"geomean {format_ratio(geometric_mean_ratio(comparison.ceilings))}",
        f"not compared: {len(comparison.unmatched)}; result: {comparison.outcome}",
    ]
    return "\n".join(lines)
