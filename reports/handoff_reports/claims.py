"""The articles' claims, each decided by one run's rows: confirmed, refuted, no measurable
difference, not resolved, or not measured here.

A claim compares rows by their figures (the median of the repetitions' medians), and is decided
by the rule compare uses between two runs, applied between the two rows that decide it
(process_level.py): Welch's t on the log process medians of each row, against the claim's factor.
It is confirmed or refuted only when that difference is beyond the rows' resolution (and agrees
with the medians). Otherwise, as compare's SAME, it is "no measurable difference" only where that
resolution is within compare's default threshold (3%): the rows are then alike to within it. A
wider resolution cannot tell the rows apart, however far their medians lie: the claim is "not
resolved", with the resolution given, as compare calls such a row UNRESOLVED. Where a row was
measured by a single process, nothing holds beyond that process: the claim is "not resolved" too
(a run of several processes, as ci/bench makes, decides it).

The claims of one run are judged together, as compare judges the rows of a section: the claims
that Welch's t decides are one family, Benjamini-Hochberg at 1% over their p-values gives it one
level α* (family_level.py), and each claim's resolution is the one at α*. A claim evaluated on its
own is tested at 1%.

handoff-claims results/handoff-<time>.json [--claims my-claims.toml]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from handoff_reports.claims_file import (
    BreakEven,
    Claim,
    ClaimsError,
    Faster,
    Fastest,
    RowPattern,
    load_claims,
    parse_claims,
    unlisted_patterns,
)
from handoff_reports.claims_python import on_python_recipe
from handoff_reports.compare_stats import DEFAULT_THRESHOLD, format_resolution
from handoff_reports.family_level import FamilyLevel, family_level, format_level
from handoff_reports.host_cpu import cpu_variants, host_note, uses_a_cpu_way
from handoff_reports.input_files import InputError, read_text
from handoff_reports.process_level import (
    ProcessSide,
    log_difference,
    process_side,
    resolution,
)
from handoff_reports.results import ResultsError, Row, Run, load_all
from handoff_reports.together import runs_together

__all__ = [
    "CONFIRMED", "NOT_MEASURED", "NOT_RESOLVED", "NO_DIFFERENCE", "REFUTED", "Claim",
    "ClaimVerdict", "ClaimsError", "evaluate_claim", "evaluate_claims", "load_claims", "main",
    "parse_claims", "verdict_lines",
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
    # Where a CPU way decides the claim: the host CPU and one thread's speed (host_cpu.py).
    host: str = ""

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


@dataclass(frozen=True)
class _Pending:
    """A claim as the medians of its rows decide it, before its two deciding rows are judged at
    the process level: `verdict` is CONFIRMED when `second` takes more than `factor` times as long
    as `first`, and it stands only where that difference is beyond the resolution."""

    claim: Claim
    verdict: str
    figures: str
    rows_used: list[str]
    first: tuple[str, Row]
    second: tuple[str, Row]
    factor: float = 1.0

    @property
    def sides(self) -> tuple[ProcessSide, ProcessSide]:
        return process_side(self.first[1].figures), process_side(self.second[1].figures)

    def difference(self, a: ProcessSide, b: ProcessSide) -> float:
        """The log difference of the two rows beyond the claim's factor."""
        return log_difference(a, b) - math.log(self.factor)

    @property
    def p_value(self) -> float | None:
        """Welch's two-sided p-value of the difference; None where a row has one process."""
        a, b = self.sides
        welch = resolution(a, b)
        return welch.p_value(self.difference(a, b)) if welch is not None else None

    def settle(self, family: FamilyLevel) -> ClaimVerdict:
        """The claim's verdict, its rows tested at the level of the family it is judged in."""
        (first_label, _), (second_label, _) = self.first, self.second
        a, b = self.sides
        welch = resolution(a, b, family.alpha)
        if welch is None:
            single = [
                label
                for label, side in ((first_label, a), (second_label, b))
                if side.spread is None
            ]
            return self._verdict(
                NOT_RESOLVED,
                f"{self.figures}; not resolved: one process ({' and '.join(single)}): its "
                "interval holds for that process only",
            )
        difference = self.difference(a, b)
        if welch.resolves(difference) and (difference > 0) == (self.verdict == CONFIRMED):
            if suspect := [label for label, row in (self.first, self.second) if row.suspect]:
                # Faster than its floor: the row's figure or its floor is wrong, so it decides
                # nothing, however far apart the two are.
                return self._verdict(
                    NOT_RESOLVED,
                    f"{self.figures}; not resolved: {' and '.join(suspect)} SUSPECT, faster "
                    "than the floor this run's ceilings allow",
                )
            return self._verdict(self.verdict, self.figures + self._noisy_note())
        counts = f"{first_label} {a.count} processes, {second_label} {b.count}"
        if family.rows > 1:
            counts += (
                f"; at α* = {format_level(family.alpha)}, the level of the {family.rows} claims "
                "judged together"
            )
        if welch.relative > DEFAULT_THRESHOLD:
            return self._verdict(
                NOT_RESOLVED,
                f"{self.figures}; not resolved: the resolution {format_resolution(welch.relative)} "
                f"is wider than the {DEFAULT_THRESHOLD:.0%} within which rows read alike "
                f"({counts}); more processes a side narrow it",
            )
        return self._verdict(
            NO_DIFFERENCE,
            f"{self.figures}; no measurable difference: within the resolution "
            f"{format_resolution(welch.relative)} ({counts})",
        )

    def _noisy_note(self) -> str:
        """Which deciding rows stopped sampling above their noise target: the verdict stands
        (their processes' spread is in the resolution), and the reader is told."""
        noisy = [label for label, row in (self.first, self.second) if row.noisy]
        if not noisy:
            return ""
        return f" ({' and '.join(noisy)} noisy: stopped above the noise target)"

    def _verdict(self, verdict: str, figures: str) -> ClaimVerdict:
        return ClaimVerdict(self.claim, verdict, figures, self.rows_used)


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


def _faster(lookup: _Lookup, rule: Faster) -> _Pending:
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
    return _Pending(
        lookup.claim,
        verdict,
        figures,
        [fast.key, slow.key],
        (fast_label, fast),
        (slow_label, slow),
        rule.factor,
    )


def _fastest(lookup: _Lookup, rule: Fastest) -> _Pending:
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
    return _Pending(
        lookup.claim,
        verdict,
        figures,
        [row.key for row in rows],
        (labels[claimed.key], claimed),
        (labels[rival.key], rival),
    )


def _break_even(lookup: _Lookup, rule: BreakEven) -> _Pending:
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
    return _Pending(lookup.claim, verdict, figures, used, (ours_label, ours), (best_label, best))


def _by_medians(run: Run, claim: Claim) -> _Pending | ClaimVerdict:
    """The claim as its rows' medians decide it, on the Python recipe's rows where the run has
    them (claims_python.py); a finished verdict where it was not measured."""
    python = on_python_recipe(run, claim)
    if python is None:
        return _on_rows(run, claim)
    swapped, note = python
    decided = _on_rows(run, swapped)
    # The verdict is the article's claim, quoted as written; its figures say which rows.
    return replace(decided, claim=claim, figures=f"{note}: {decided.figures}")


def _on_rows(run: Run, claim: Claim) -> _Pending | ClaimVerdict:
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
    """The claims' verdicts, judged together: the claims Welch's t decides are one family, each
    tested at the level Benjamini-Hochberg gives it (family_level.py)."""
    decided = [_by_medians(run, claim) for claim in claims]
    pending = [found for found in decided if isinstance(found, _Pending)]
    family = family_level([p for found in pending if (p := found.p_value) is not None])
    verdicts = [found.settle(family) if isinstance(found, _Pending) else found for found in decided]
    cpu_ways = cpu_variants(run)
    note = host_note(run)
    for verdict in verdicts:
        if verdict.rows_used and uses_a_cpu_way(verdict.rows_used, cpu_ways):
            verdict.host = note
    return verdicts


def evaluate_claim(run: Run, claim: Claim) -> ClaimVerdict:
    """One claim's verdict, judged alone (at 1%)."""
    return evaluate_claims(run, [claim])[0]


def _check_listed(claims: Sequence[Claim], listing: Sequence[str]) -> int:
    unlisted = unlisted_patterns(claims, listing)
    for line in unlisted:
        print(f"handoff-claims: no listed row matches {line}", file=sys.stderr)
    if not unlisted:
        print(f"handoff-claims: every row pattern of {len(claims)} claims is listed")
    return 1 if unlisted else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="handoff-claims",
        description="Decide the articles' claims from handoff_bench's results, and a Python "
        "run's beside them (python -m handoff: a claim resting on the recipe is then decided on "
        "its Python row): each is confirmed, refuted, no measurable difference (within the rows' "
        "resolution between processes, the claims judged together: Benjamini-Hochberg at 1%), "
        "not resolved (a row of one process), or not measured on this machine, with the figures "
        "behind it.",
    )
    parser.add_argument(
        "results", nargs="+", help="Google Benchmark JSON files of one machine and settings"
    )
    parser.add_argument("--claims", help="a claims TOML file (default: the packaged claims)")
    parser.add_argument(
        "--listed",
        action="store_true",
        help="read RESULTS as a --benchmark_list_tests listing instead, and fail (exit 1) naming "
        "each claim's row pattern that no listed row matches",
    )
    args = parser.parse_args(argv)
    try:
        claims = load_claims(args.claims)
        if args.listed:
            if len(args.results) != 1:
                raise InputError("--listed reads one listing, not several files")
            return _check_listed(claims, read_text(args.results[0]).splitlines())
        run = runs_together(load_all(args.results))
    except (ResultsError, ClaimsError, InputError) as error:
        print(f"handoff-claims: {error}", file=sys.stderr)
        return 2
    for line in verdict_lines(evaluate_claims(run, claims)):
        print(line)
    return 0


def verdict_lines(verdicts: Iterable[ClaimVerdict]) -> list[str]:
    """One line per claim, `id: verdict: figures`, and under a claim a CPU way decides, the host."""
    lines = []
    for verdict in verdicts:
        lines.append(f"{verdict.claim.id}: {verdict.verdict}: {verdict.figures}")
        if verdict.host:
            lines.append(f"  ({verdict.host})")
    return lines
