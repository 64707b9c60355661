"""`compare --format markdown|json`: the same comparison as the console report, as a Markdown
table for a pull-request comment, or as JSON for a tool to read."""

from __future__ import annotations

import json
import math
from typing import Any

from handoff_reports.compare import (
    Comparison,
    RowComparison,
    format_change,
    format_counts,
    format_ratio,
    format_seconds,
    geometric_mean_ratio,
)
from handoff_reports.compare_stats import Side, format_noise

FORMATS = ("text", "markdown", "json")
VERDICT_MARK = {"SLOWER": "🔴", "FAILED": "❌", "FASTER": "🟢", "NOISY": "🟡"}


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _markdown_rows(rows: list[RowComparison]) -> list[str]:
    lines = [
        "| benchmark | baseline | contender | change | threshold | verdict |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        baseline = row.baseline_side.centre if row.baseline_side else math.nan
        contender = row.contender_side.centre if row.contender_side else math.nan
        verdict = row.verdict.value
        lines.append(
            f"| `{row.key}` | {format_seconds(baseline)} {format_noise(row.baseline_side)} "
            f"| {format_seconds(contender)} {format_noise(row.contender_side)} "
            f"| {format_change(row.change)} | {row.threshold:.0%} "
            f"| {VERDICT_MARK.get(verdict, '')} {verdict}".rstrip()
            + " |"
        )
    return lines


def format_markdown(comparison: Comparison) -> str:
    """The summary first, then the benchmarks (regressions first), the ceilings and what was not
    compared, each table folded when long."""
    lines = [
        f"### handoff compare: {comparison.outcome}",
        "",
        f"Baseline `{comparison.baseline.path}`, contender `{comparison.contender.path}`.",
        "",
        f"- benchmarks: {format_counts(comparison, comparison.benchmarks)}; "
        f"geomean contender/baseline {format_ratio(geometric_mean_ratio(comparison.benchmarks))}",
        f"- ceilings: {format_counts(comparison, comparison.ceilings)} (the machine's own figures; "
        "they never fail the comparison)",
        f"- not compared: {len(comparison.unmatched)}",
    ]
    lines.extend(f"- ⚠️ {warning}" for warning in comparison.warnings())
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


def _side(side: Side | None) -> dict[str, Any] | None:
    if side is None:
        return None
    return {
        "seconds": _finite(side.centre),
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
        "baseline": _side(row.baseline_side),
        "contender": _side(row.contender_side),
        "change": _finite(row.change),
        "threshold": row.threshold,
        "verdict": row.verdict.value,
        "failure": row.failure or None,
    }


def format_json(comparison: Comparison) -> str:
    document = {
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
        "warnings": comparison.warnings(),
        "failures": comparison.failure_lines(),
        "rows": [_row(row) for row in comparison.rows],
        "not_compared": [
            {"name": row.key, "reason": row.reason, "fails": row.failed or row.missing}
            for row in comparison.unmatched
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)
