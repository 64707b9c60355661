"""`compare --format markdown|json`: the same comparison as the console report, as a Markdown
table for a pull-request comment, or as JSON for a tool to read. Both lead with a change of
machine, and give every row its resolution, both sides' process counts and where each side's
spread came from, and say at what level each section's rows were judged together (JSON: each
section's m, k and α*, and each row's p-value)."""

from __future__ import annotations

import json
import math
from typing import Any

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
from handoff_reports.compare_stats import Side, format_noise, format_resolution
from handoff_reports.family_level import RULE, FamilyLevel
from handoff_reports.row_selection import RowSelection

FORMATS = ("text", "markdown", "json")
VERDICT_MARK = {"SLOWER": "🔴", "FAILED": "❌", "FASTER": "🟢", "UNRESOLVED": "⚪"}


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def spread_text(row: RowComparison) -> str:
    """Where each side's spread came from, in words; once where both sides share it."""
    sources = row.spread_sources
    if sources is None:
        return "-"
    baseline, contender = sources
    if baseline == contender:
        return f"both: {baseline}"
    return f"baseline: {baseline}; contender: {contender}"


def _markdown_rows(rows: list[RowComparison]) -> list[str]:
    lines = [
        "| benchmark | baseline | contender | processes | change | resolution | threshold "
        "| spread from | verdict |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for row in rows:
        baseline, contender = row.centres
        verdict = row.verdict.value
        mark = VERDICT_MARK.get(verdict)
        label = f"{mark} {verdict}" if mark else verdict
        if row.verdict.value == "UNRESOLVED" and row.reason:
            label += f" ({row.reason})"
        lines.append(
            f"| `{row.key}` | {format_seconds(baseline)} {format_noise(row.baseline_side)} "
            f"| {format_seconds(contender)} {format_noise(row.contender_side)} "
            f"| {format_processes(row)} | {format_change(row.change)} "
            f"| {format_resolution(row.resolution)} | {row.threshold:.0%} | {spread_text(row)} "
            f"| {label} |"
        )
    return lines


def format_markdown(comparison: Comparison) -> str:
    """The outcome and a change of machine first, then the summary, the benchmarks (regressions
    first), the ceilings and what was not compared, each table folded when long."""
    noise = (
        f" (machine noise from `{comparison.machine_noise}`)" if comparison.machine_noise else ""
    )
    lines = [f"### handoff compare: {comparison.outcome}", ""]
    if machine := comparison.machine_line():
        lines += [f"**⚠️ {machine}**", ""]
    changed = "CHANGED" if comparison.machine_changes() else "unchanged"
    lines += [
        f"Baseline `{comparison.baseline.path}`, contender `{comparison.contender.path}`; "
        f"machine {changed}.",
        "",
        f"- benchmarks: {format_counts(comparison, comparison.benchmarks)}; "
        f"geomean contender/baseline {format_ratio(geometric_mean_ratio(comparison.benchmarks))}",
        f"- ceilings: {format_counts(comparison, comparison.ceilings)} (the machine's own figures; "
        "they never fail the comparison)",
        f"- not compared: {len(comparison.unmatched)}",
        "- resolution: the smallest change each row could call at its section's level α*, from "
        f"both sides' spread between processes{noise}",
    ]
    if families := comparison.family_lines():
        lines.append(
            "- rows judged together, so that two runs of one build call a row of a section in at "
            "most 1 comparison in 100: " + "; ".join(families)
        )
    lines.extend(f"- ⚠️ {warning}" for warning in comparison.warnings())
    lines.extend(f"- ⚪ unresolved: {line}" for line in comparison.unresolved_lines())
    if failures := comparison.failure_lines():
        lines += ["", "**Why it fails:**", *(f"- {line}" for line in failures)]
    for title, rows in (("Benchmarks", comparison.benchmarks), ("Ceilings", comparison.ceilings)):
        if rows:
            lines += ["", f"<details><summary>{title} ({len(rows)})</summary>", ""]
            lines += [*_markdown_rows(rows), "", "</details>"]
    if comparison.unmatched:
        lines += ["", f"<details><summary>Not compared ({len(comparison.unmatched)})</summary>", ""]
        lines += [f"- `{row.key}`: {row.reason}" for row in comparison.unmatched]
        lines += ["", "</details>"]
    return "\n".join(lines)


def _side(side: Side | None, centre: float) -> dict[str, Any] | None:
    if side is None:
        return None
    return {
        "seconds": _finite(centre),
        "low": _finite(side.low),
        "high": _finite(side.high),
        "noise": _finite(side.noise),
        "noisy": side.noisy,
        "between_runs": _finite(side.between),
    }


def _row(row: RowComparison) -> dict[str, Any]:
    return {
        "name": row.key,
        "kind": "ceiling" if row.is_ceiling else "benchmark",
        "baseline": _side(row.baseline_side, row.centres[0]),
        "contender": _side(row.contender_side, row.centres[1]),
        "change": _finite(row.change),
        "resolution": _finite(row.resolution),
        "threshold": row.threshold,
        "processes": dict(zip(("baseline", "contender"), row.processes, strict=True)),
        # Processes measured but not counted: a hypervisor took the machine's CPU from them.
        "set_aside": dict(zip(("baseline", "contender"), row.set_aside, strict=True)),
        "spread_source": (
            dict(zip(("baseline", "contender"), sources, strict=True))
            if (sources := row.spread_sources)
            else None
        ),
        "verdict": row.verdict.value,
        # Welch's two-sided p-value and the level the verdict was tested at; None where the row
        # has no Welch test (a side of one process, pairs taken in turn).
        "p_value": row.p_value,
        "level": row.level,
        "reason": row.reason or None,
        "failure": row.failure or None,
    }


def _family(level: FamilyLevel | None) -> dict[str, Any] | None:
    """A section's family: Benjamini-Hochberg at q over its m rows, k of them beyond the noise,
    each tested at alpha = α*."""
    if level is None:
        return None
    return {"rule": RULE, "q": level.q, "m": level.rows, "k": level.rejected, "alpha": level.alpha}


def _selection(selection: RowSelection | None) -> dict[str, Any] | None:
    """The rows --filter kept of each run; None where every row was compared."""
    if selection is None:
        return None
    return {
        "regex": selection.pattern,
        **{
            side: {"selected": selected, "rows": rows}
            for side, (selected, rows) in (
                ("baseline", selection.baseline),
                ("contender", selection.contender),
            )
        },
    }


def format_json(comparison: Comparison) -> str:
    document = {
        # First: whether the runs may be compared at all.
        "machine": {
            "comparable": comparison.machines_comparable,
            "across_machines": comparison.across_machines,
            "changes": [
                {"fact": fact, "baseline": before, "contender": after}
                for fact, before, after in comparison.machine_changes()
            ],
            "line": comparison.machine_line(),
        },
        "comparable": comparison.comparable,
        "baseline": comparison.baseline.path,
        "contender": comparison.contender.path,
        "outcome": comparison.outcome,
        "exit_code": comparison.exit_code,
        "geomean_ratio": _finite(geometric_mean_ratio(comparison.benchmarks)),
        "counts": {
            kind: {
                verdict.value: count for verdict, count in comparison.verdict_counts(rows).items()
            }
            for kind, rows in (
                ("benchmarks", comparison.benchmarks),
                ("ceilings", comparison.ceilings),
            )  # fmt: skip
        },
        "families": {
            section: _family(comparison.families.get(section))
            for section in ("benchmarks", "ceilings")
        },
        "machine_noise": comparison.machine_noise,
        "filter": _selection(comparison.selection),
        "warnings": comparison.warnings(),
        "unresolved": comparison.unresolved_lines(),
        "failures": comparison.failure_lines(),
        "rows": [_row(row) for row in comparison.rows],
        "not_compared": [
            {"name": row.key, "reason": row.reason, "fails": row.failed or row.missing}
            for row in comparison.unmatched
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)
