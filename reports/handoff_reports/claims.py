"""The articles' claims, each decided by one run's rows: confirmed, refuted, no measurable
difference, not resolved, or not measured here.

A claim compares rows by their figures (the median of the repetitions' medians), and is decided
by the rule compare uses between two runs, applied between the two rows that decide it
(process_level.py): Welch's t at 99% on the log process medians of each row, against the claim's
factor. It is confirmed or refuted only when that difference is beyond the rows' resolution (and
agrees with the medians); otherwise it is "no measurable difference", with the resolution given.
Where a row was measured by a single process, nothing holds beyond that process: the claim is
"not resolved" (a run of several processes, as ci/bench makes, decides it).

handoff-claims results/handoff-<time>.json [--claims my-claims.toml]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from handoff_reports.claims_file import (
    BreakEven,
    Claim,
    ClaimsError,
    Faster,
    Fastest,
    RowPattern,
    load_claims,
    parse_claims,
)
from handoff_reports.process_level import log_difference, process_side, resolution
from handoff_reports.results import ResultsError, Row, Run, load_results

__all__ = [
    "CONFIRMED", "NOT_MEASURED", "NOT_RESOLVED", "NO_DIFFERENCE", "REFUTED", "Claim",
    "ClaimVerdict", "ClaimsError", "evaluate_claim", "evaluate_claims", "load_claims", "main",
    "parse_claims",
]  # fmt: skip

CONFIRMED = "confirmed"
REFUTED = "refuted"
NOT_MEASURED = "not measured on this machine"
NO_DIFFERENCE = "no measurable difference"
NOT_RESOLVED = "not resolved"
# How the cold rows are timed, not what they measure: left out of the rows' labels.
_UNLABELLED_AXES = ("iterations:",)


@dataclass
class ClaimVerdict:
    claim: Claim
    verdict: str
    figures: str  # one sentence: the rows' median times, the size, the ratio
    rows_used: list[str] = field(default_factory=list)
    rows_missing: list[str] = field(default_factory=list)

    @property
    def css_class(self) -> str:
        """The class base.html.j2 styles this verdict with."""
        classes = {
            CONFIRMED: "confirmed",
            REFUTED: "refuted",
            NO_DIFFERENCE: "no-difference",
            NOT_RESOLVED: "not-resolved",
        }
        return classes.get(self.verdict, "not-measured")


class _NotMeasured(Exception):
    def __init__(self, missing: list[str], reason: str) -> None:
        super().__init__(reason)
        self.missing = missing
        self.reason = reason


def format_seconds(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:#.4g} {unit}"
    return f"{seconds / 1e-9:#.4g} ns"


def format_ratio(ratio: float) -> str:
    if ratio >= 100:
        return f"{ratio:,.0f}x"
    return f"{ratio:.1f}x" if ratio >= 10 else f"{ratio:.2f}x"


def format_size(axis: str | None, size: str) -> str:
    """'256 MiB' on the bytes axis, 'elements:16384' on the others; '' with no size."""
    if not axis or not size:
        return ""
    if axis == "bytes":
        value = float(size)
        for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
            if value >= scale and value % scale == 0:
                return f"{value / scale:g} {unit}"
    return f"{axis}:{size}"


def _at(axis: str | None, size: str, labels: Iterable[str] = ()) -> str:
    """' at 256 MiB'; nothing where there is no size, or where the labels already name it."""
    text = format_size(axis, size)
    if not text or any(f"{axis}:{size}" in label.split("/") for label in labels):
        return ""
    return f" at {text}"


def _labels(rows: Sequence[Row]) -> list[str]:
    """What tells the rows apart: their variants ('pipe', 'queue') or else the axes that differ."""
    variants = [row.name.variant for row in rows]
    if len(set(variants)) == len(variants):
        return variants
    segment_lists = [row.key.split("/")[1:] for row in rows]
    shared = set.intersection(*(set(segments) for segments in segment_lists))
    labels = []
    for row, segments in zip(rows, segment_lists, strict=True):
        own = [s for s in segments if s not in shared and not s.startswith(_UNLABELLED_AXES)]
        labels.append("/".join(own) or row.key)
    return labels


def _skipped_note(run: Run, patterns: Iterable[RowPattern]) -> str:
    wanted = {pattern.segments[0] for pattern in patterns}
    notes = [
        f"{family}: {reason}"
        for family, reason in run.skipped_families
        if family.split("/")[0] in wanted
    ]
    return f" (this machine skipped {'; '.join(notes)})" if notes else ""


def _settle(
    verdict: str,
    figures: str,
    first: tuple[str, Row],
    second: tuple[str, Row],
    factor: float = 1.0,
) -> tuple[str, str]:
    """The claim's verdict and figures once its two deciding rows are judged at the process
    level. `verdict` is what the medians say, CONFIRMED when `second` takes more than `factor`
    times as long as `first`; it stands only where that difference is beyond the resolution."""
    (first_label, first_row), (second_label, second_row) = first, second
    a, b = process_side(first_row.figures), process_side(second_row.figures)
    welch = resolution(a, b)
    if welch is None:
        single = [
            label for label, side in ((first_label, a), (second_label, b)) if side.spread is None
        ]
        return NOT_RESOLVED, (
            f"{figures}; not resolved: one process ({' and '.join(single)}): its interval holds "
            "for that process only"
        )
    difference = log_difference(a, b) - math.log(factor)
    if welch.resolves(difference) and (difference > 0) == (verdict == CONFIRMED):
        return verdict, figures
    counts = f"{first_label} {a.count} processes, {second_label} {b.count}"
    return NO_DIFFERENCE, (
        f"{figures}; no measurable difference: within the resolution ±{welch.relative:.1%} "
        f"({counts})"
    )


def _axis_value(row: Row, axis: str) -> float:
    return float(row.name.axis(axis) or 0)


class _Lookup:
    """The rows of one run that one claim's patterns name."""

    def __init__(self, run: Run, claim: Claim) -> None:
        self.run = run
        self.claim = claim

    def sizes(self, pattern: RowPattern) -> dict[str, Row]:
        """Every row the pattern matches, by its size ("" for a pattern without one)."""
        found: dict[str, Row] = {}
        largest = pattern.largest_axis
        for key, row in self.run.rows.items():
            size = pattern.match(key)
            if size is None:
                continue
            if size and self.claim.min_size is not None and float(size) < self.claim.min_size:
                continue
            kept = found.get(size)
            if kept is None or (largest and _axis_value(row, largest) > _axis_value(kept, largest)):
                found[size] = row
        return found

    def absent(self, patterns: Sequence[RowPattern]) -> _NotMeasured:
        texts = [pattern.text for pattern in patterns]
        floor = self.claim.min_size
        axis = next((p.size_axis for p in self.claim.patterns if p.size_axis), None)
        where = f" with {axis} ≥ {floor:g}" if floor and axis else ""
        note = _skipped_note(self.run, patterns)
        return _NotMeasured(texts, f"no rows {'; '.join(texts)}{where}{note}")

    def largest_common(self) -> tuple[str, list[Row]]:
        """The claim's rows at the largest size all of them were measured at."""
        patterns = self.claim.patterns
        found = [self.sizes(pattern) for pattern in patterns]
        absent = [pattern for pattern, rows in zip(patterns, found, strict=True) if not rows]
        if absent:
            raise self.absent(absent)
        sized = [
            set(rows) for pattern, rows in zip(patterns, found, strict=True) if pattern.size_axis
        ]
        common = set.intersection(*sized) if sized else {""}
        if not common:
            texts = [pattern.text for pattern in patterns if pattern.size_axis]
            raise _NotMeasured(texts, "no size at which every row was measured")
        size = max(common, key=lambda value: float(value) if value else 0.0)
        chosen = [
            by_size[size] if pattern.size_axis else by_size[""]
            for pattern, by_size in zip(patterns, found, strict=True)
        ]
        _require_verified(chosen)
        return size, chosen


def _require_verified(rows: Iterable[Row]) -> None:
    failed = [row for row in rows if row.failed or not row.median_seconds > 0]
    if failed:
        why = [f"{row.key} ({row.error or f'wrong {row.wrong:g}'})" for row in failed]
        raise _NotMeasured([row.key for row in failed], f"failed verification: {'; '.join(why)}")


def _faster(lookup: _Lookup, rule: Faster) -> ClaimVerdict:
    size, (fast, slow) = lookup.largest_common()
    ratio = slow.median_seconds / fast.median_seconds
    fast_label, slow_label = _labels([fast, slow])
    how = f"{format_ratio(ratio)} faster" if ratio >= 1 else f"{format_ratio(1 / ratio)} slower"
    needs = f" (the claim needs {rule.factor:g}x)" if rule.factor != 1 else ""
    at = _at(rule.faster.size_axis, size, (fast_label, slow_label))
    figures = (
        f"{fast_label} {format_seconds(fast.median_seconds)} vs {slow_label} "
        f"{format_seconds(slow.median_seconds)}{at}: "
        f"{fast_label} {how}{needs}"
    )
    verdict = CONFIRMED if ratio >= rule.factor else REFUTED
    verdict, figures = _settle(
        verdict, figures, (fast_label, fast), (slow_label, slow), rule.factor
    )
    return ClaimVerdict(lookup.claim, verdict, figures, [fast.key, slow.key])


def _fastest(lookup: _Lookup, rule: Fastest) -> ClaimVerdict:
    size, rows = lookup.largest_common()
    labels = dict(zip((row.key for row in rows), _labels(rows), strict=True))
    ranked = sorted(rows, key=lambda row: row.median_seconds)
    listed = ", ".join(f"{labels[row.key]} {format_seconds(row.median_seconds)}" for row in ranked)
    claimed, winner, runner_up = rows[0], ranked[0], ranked[1]
    if winner is claimed and claimed.median_seconds < runner_up.median_seconds:
        ratio = runner_up.median_seconds / claimed.median_seconds
        verdict, outcome = CONFIRMED, f"{format_ratio(ratio)} ahead of {labels[runner_up.key]}"
        rival = runner_up
    else:
        ratio = claimed.median_seconds / winner.median_seconds
        verdict, outcome = REFUTED, f"{labels[claimed.key]} {format_ratio(ratio)} slower"
        rival = winner
    figures = (
        f"{listed}{_at(rule.fastest.size_axis, size, labels.values())}: "
        f"{labels[winner.key]} fastest, {outcome}"
    )
    # Decided by the claimed row against its closest rival: the runner-up, or the winner.
    verdict, figures = _settle(
        verdict, figures, (labels[claimed.key], claimed), (labels[rival.key], rival)
    )
    return ClaimVerdict(lookup.claim, verdict, figures, [row.key for row in rows])


def _break_even(lookup: _Lookup, rule: BreakEven) -> ClaimVerdict:
    challengers = lookup.sizes(rule.challenger)
    if not challengers:
        raise lookup.absent([rule.challenger])
    baselines = [lookup.sizes(pattern) for pattern in rule.baselines]
    points = []  # (size, challenger, the fastest baseline there)
    used: list[str] = []
    for size in sorted(challengers, key=float):
        present = [rows[size] for rows in baselines if size in rows]
        if present:
            _require_verified([challengers[size], *present])
            points.append((size, challengers[size], min(present, key=lambda r: r.median_seconds)))
            used += [challengers[size].key, *(row.key for row in present)]
    if not points:
        raise lookup.absent(list(rule.baselines))
    wins = [size for size, ours, best in points if ours.median_seconds < best.median_seconds]
    from_size = None
    for size, ours, best in reversed(points):
        if ours.median_seconds >= best.median_seconds:
            break
        from_size = size
    axis = rule.challenger.size_axis
    size, ours, best = points[-1]
    ours_label, best_label = _labels([ours, best])
    ratio = best.median_seconds / ours.median_seconds
    how = f"{format_ratio(ratio)} faster" if ratio >= 1 else f"{format_ratio(1 / ratio)} slower"
    if from_size is not None:
        since = f"it wins from {format_size(axis, from_size)} on"
    elif wins:
        since = "it wins only at " + ", ".join(format_size(axis, win) for win in wins)
    else:
        span = f"{format_size(axis, points[0][0])} to {format_size(axis, size)}"
        since = f"it wins at no size measured ({span})"
    figures = (
        f"{ours_label} {format_seconds(ours.median_seconds)} vs {best_label} "
        f"{format_seconds(best.median_seconds)} (the fastest baseline){_at(axis, size)}: "
        f"{ours_label} {how}; {since}"
    )
    verdict = CONFIRMED if from_size is not None else REFUTED
    # Decided at the largest size: there, the difference must be beyond the resolution.
    verdict, figures = _settle(verdict, figures, (ours_label, ours), (best_label, best))
    return ClaimVerdict(lookup.claim, verdict, figures, used)


def evaluate_claim(run: Run, claim: Claim) -> ClaimVerdict:
    lookup = _Lookup(run, claim)
    try:
        if isinstance(claim.rule, Faster):
            return _faster(lookup, claim.rule)
        if isinstance(claim.rule, Fastest):
            return _fastest(lookup, claim.rule)
        return _break_even(lookup, claim.rule)
    except _NotMeasured as unmeasured:
        return ClaimVerdict(claim, NOT_MEASURED, unmeasured.reason, [], unmeasured.missing)


def evaluate_claims(run: Run, claims: Iterable[Claim]) -> list[ClaimVerdict]:
    return [evaluate_claim(run, claim) for claim in claims]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="handoff-claims",
        description="Decide the articles' claims from one handoff_bench results file: each is "
        "confirmed, refuted, no measurable difference (within the rows' resolution between "
        "processes), not resolved (a row of one process), or not measured on this machine, with "
        "the figures behind it.",
    )
    parser.add_argument("results", help="handoff_bench's Google Benchmark JSON")
    parser.add_argument("--claims", help="a claims TOML file (default: the packaged claims)")
    args = parser.parse_args(argv)
    try:
        run = load_results(args.results)
        claims = load_claims(args.claims)
    except (ResultsError, ClaimsError) as error:
        print(f"handoff-claims: {error}", file=sys.stderr)
        return 2
    for verdict in evaluate_claims(run, claims):
        print(f"{verdict.claim.id}: {verdict.verdict}: {verdict.figures}")
    return 0


if __name__ == "__main__":
    from handoff_reports.cli import run  # stops as every command does

    sys.exit(run("claims", None))
