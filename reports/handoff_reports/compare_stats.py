"""How one benchmark's times in two runs are judged: thresholds, the process-level rule, and
the paired rule.

A side (baseline, contender) of a row is its repetitions grouped by the process that measured them
(process_level.py): the centre is the median of the process medians; the spread is the standard
deviation of the log process medians, floored by the within-process noise, where the side has two
processes or more; a side of one process takes the spread measured earlier on the same machine
(compare --machine-noise), or has none.

change = contender centre / baseline centre - 1, and the row's threshold is the first matching
rule of the thresholds file, else the default (--threshold, else the file's default, else 3%).
From both sides' spreads, Welch's t at a two-sided level alpha gives the row's resolution
r = exp(t·SE) - 1: the smallest change it could call. A row judged alone is tested at 1% (99%
confidence); the rows of a comparison are judged together, at the level Benjamini-Hochberg gives
their family (family_level.py, applied in compare.py). With d the difference of the sides' mean
log process medians:

- SLOWER or FASTER: |d| > t·SE, |ln(1 + change)| > t·SE (the change shown clears the resolution
  shown) and |change| > threshold, all in the same direction;
- UNRESOLVED: a side has a single process and no spread is known for the row ("one process: its
  interval holds for that process only"), or r is wider than the threshold ("resolution ±X% wider
  than the threshold"), or the medians moved beyond the threshold while they, or the means of the
  processes, did not move beyond r. It never fails the comparison;
- SAME: otherwise: no change larger than the resolution, and the resolution within the threshold.

So a change beyond every plausible noise is never SAME: a side too wide to call it is UNRESOLVED.
A row that hit its time cap above its noise target (noisy) widens its own floor and so its
resolution; it needs no verdict of its own.

Paired sides (compare --paired): when the two runs alternated, repetition i of the baseline and
repetition i of the contender were measured within seconds of each other (compare-builds, or
handoff_bench --handoff-plant-alternate), and the machine's speed at that moment, which on a shared
machine wanders by tens of percent for seconds at a time and moves every row alike, cancels in
their ratio. The row's change is then the median of those ratios minus one, and its interval that
median's distribution-free 95% interval; its resolution is that interval's half-width toward the
change, as a share of the change's own kind (a rise, median / low - 1; a fall, 1 - median / high):
the smallest change whose interval leaves out 1. SLOWER or FASTER when the change is beyond the
threshold and the interval leaves out 1 (so the change clears the resolution); otherwise
UNRESOLVED where the resolution is wider than the threshold (as it is for any change beyond the
threshold whose interval holds 1), SAME where it is not. With
fewer than PAIRED_MINIMUM pairs, or unequal counts, the process-level rule applies.

FAILED (the contender's result was wrong, or it errored, or either side's figures are damaged) and
NOT COMPARABLE (the runs were measured with different settings, or on different machines) are
decided before these rules, in compare.py, so that the rules only ever see finite, positive times.

`side_of` sums a side up for display (the noise column, the report's plots and its headline
figures): the median of its repetitions' medians and an interval from the lowest ci_low to the
highest ci_high of its repetitions, widened to take in every repetition's median (from
MANY_REPETITIONS on, that median's distribution-free 95% interval over the repetitions).
"""

from __future__ import annotations

import fnmatch
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from handoff_reports.input_files import InputError, read_toml
from handoff_reports.process_level import (
    ALPHA,
    ProcessSide,
    Resolution,
    Spread,
    log_difference,
    process_side,
    resolution,
)
from handoff_reports.results import Repetition

DEFAULT_THRESHOLD = 0.03
# From 9 repetitions on, the median's 95% interval leaves out the lowest and the highest one.
MANY_REPETITIONS = 9
# From 6 pairs on, the median ratio has a 95% interval (the range of the ratios, at 6 to 8).
PAIRED_MINIMUM = 6


class Verdict(StrEnum):
    FAILED = "FAILED"  # the contender's result was wrong, or it errored, or a side is damaged
    SLOWER = "SLOWER"
    UNRESOLVED = "UNRESOLVED"  # the runs cannot tell a change of the threshold's size
    FASTER = "FASTER"
    SAME = "SAME"  # no change larger than the resolution, which is within the threshold
    NOT_COMPARABLE = "NOT COMPARABLE"  # different settings, or different machines


class ThresholdsError(ValueError):
    """A thresholds file that cannot be read or does not follow the documented layout."""


@dataclass(frozen=True)
class ThresholdRule:
    """`[[benchmark]]` in a thresholds file: a regex (`match`) or a glob (`glob`) on Row.key."""

    text: str
    threshold: float
    regex: re.Pattern[str] | None = None

    def applies_to(self, key: str) -> bool:
        if self.regex is not None:
            return self.regex.search(key) is not None
        return fnmatch.fnmatchcase(key, self.text)


@dataclass(frozen=True)
class Thresholds:
    """The relative change beyond which a row is FASTER or SLOWER; the first matching rule wins."""

    default: float = DEFAULT_THRESHOLD
    rules: tuple[ThresholdRule, ...] = ()

    def for_key(self, key: str) -> float:
        return next((rule.threshold for rule in self.rules if rule.applies_to(key)), self.default)

    def with_default(self, default: float) -> Thresholds:
        return Thresholds(default=default, rules=self.rules)


def _threshold_value(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ThresholdsError(f"{where}: threshold must be a number, not {value!r}")
    if not math.isfinite(value) or value <= 0:
        raise ThresholdsError(f"{where}: threshold must be a positive fraction, not {value!r}")
    return float(value)


def _rule(entry: Any, where: str) -> ThresholdRule:
    if not isinstance(entry, dict):
        raise ThresholdsError(f"{where}: must be a table with match or glob, and threshold")
    unknown = set(entry) - {"match", "glob", "threshold"}
    if unknown:
        raise ThresholdsError(f"{where}: unknown keys {sorted(unknown)}")
    if ("match" in entry) == ("glob" in entry):
        raise ThresholdsError(f"{where}: needs exactly one of match (a regex) or glob")
    if "threshold" not in entry:
        raise ThresholdsError(f"{where}: has no threshold")
    threshold = _threshold_value(entry["threshold"], where)
    text = entry.get("match", entry.get("glob"))
    if not isinstance(text, str) or not text:
        raise ThresholdsError(f"{where}: match or glob must be a non-empty string")
    if "glob" in entry:
        return ThresholdRule(text, threshold)
    try:
        return ThresholdRule(text, threshold, re.compile(text))
    except re.error as error:
        raise ThresholdsError(f"{where}: match {text!r} is not a valid regex: {error}") from error


def parse_thresholds(document: dict[str, Any], where: str = "<thresholds>") -> Thresholds:
    unknown = set(document) - {"defaults", "benchmark"}
    if unknown:
        raise ThresholdsError(f"{where}: unknown sections {sorted(unknown)}")
    defaults = document.get("defaults", {})
    if not isinstance(defaults, dict) or set(defaults) - {"threshold"}:
        raise ThresholdsError(f"{where}: [defaults] may hold only threshold")
    default = DEFAULT_THRESHOLD
    if "threshold" in defaults:
        default = _threshold_value(defaults["threshold"], f"{where}: [defaults]")
    entries = document.get("benchmark", [])
    if not isinstance(entries, list):
        raise ThresholdsError(f"{where}: benchmark must be an array of tables ([[benchmark]])")
    rules = tuple(
        _rule(entry, f"{where}: [[benchmark]] #{i + 1}") for i, entry in enumerate(entries)
    )
    return Thresholds(default=default, rules=rules)


def load_thresholds(path: str | Path) -> Thresholds:
    try:
        document = read_toml(path)
    except InputError as error:
        raise ThresholdsError(str(error)) from error
    return parse_thresholds(document, str(path))


@dataclass(frozen=True)
class Side:
    """One run's figure for a row as shown: the centre and the interval of its repetitions (the
    noise column, plots, claims' figures). Verdicts come from the process level instead."""

    centre: float
    low: float
    high: float
    has_interval: bool  # every repetition carried ci_low and ci_high
    noisy: bool  # a repetition stopped at its time cap above its noise target
    # (largest - smallest repetition median) / centre: the between-run spread; 0 with one.
    between: float = 0.0

    @property
    def noise(self) -> float:
        """The interval's relative half-width around the centre (0.004 = ±0.4%)."""
        if not self.centre > 0:
            return math.nan
        return (self.high - self.low) / 2 / self.centre


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def lower_rank_of_median_interval(n: int) -> int:
    """The 1-based rank j of the lower end of the median's 95% interval over n values, whose upper
    end has rank n + 1 - j; 0 when n is too small for any. The same ranks as handoff_bench's."""
    j = 0
    below = 0.0  # P(Binomial(n, 1/2) <= j - 1)
    while j < n // 2:
        next_below = below + math.comb(n, j) / 2**n
        if next_below > 0.025:
            break
        below = next_below
        j += 1
    return j


def _side_of_many(repetitions: list[Repetition]) -> Side:
    medians = sorted(r.seconds for r in repetitions)
    j = lower_rank_of_median_interval(len(medians))
    centre = _median(medians)
    return Side(
        centre=centre,
        low=medians[j - 1],
        high=medians[len(medians) - j],
        has_interval=True,
        # Whether each pass reached its own noise target no longer matters: the interval is
        # measured from the scatter of the passes.
        noisy=False,
        between=(medians[-1] - medians[0]) / centre if centre > 0 else 0.0,
    )


def side_of(figures: Sequence[Repetition | float]) -> Side:
    """The side a non-empty list of repetitions makes (plain floats: medians without interval)."""
    repetitions = _repetitions(figures)
    if not repetitions:
        raise ValueError("a side needs at least one repetition")
    if len(repetitions) >= MANY_REPETITIONS:
        return _side_of_many(repetitions)
    medians = [r.seconds for r in repetitions]
    has_interval = all(r.has_interval for r in repetitions)
    low, high = min(medians), max(medians)
    if has_interval:
        low = min(low, *(r.ci_low for r in repetitions if r.ci_low is not None))
        high = max(high, *(r.ci_high for r in repetitions if r.ci_high is not None))
    return Side(
        centre=_median(medians),
        low=low,
        high=high,
        has_interval=has_interval,
        noisy=any(r.noisy for r in repetitions),
        between=(max(medians) - min(medians)) / _median(medians) if _median(medians) > 0 else 0.0,
    )


def format_noise(side: Side | None) -> str:
    """±x% of a side's interval, "-" where there is none to show (an older file's single
    repetition has no interval: its ±0.0% would claim a precision nobody measured)."""
    if side is None or not math.isfinite(side.noise):
        return "-"
    if not side.has_interval and side.low == side.high:
        return "-"
    return f"±{side.noise:.1%}"


# Beyond ±1000% a resolution's digits say nothing more: the row resolves no change at all.
WIDEST_SHOWN_RESOLUTION = 10.0
ONE_PROCESS_REASON = "its interval holds for that process only"


def format_resolution(resolution: float | None) -> str:
    """±x% of the smallest change a row could call; "-" where unknown (a side of one process)."""
    if resolution is None or not math.isfinite(resolution):
        return "-"
    if resolution >= WIDEST_SHOWN_RESOLUTION:
        return f"±>{WIDEST_SHOWN_RESOLUTION:.0%}"
    return f"±{resolution:.1%}"


@dataclass(frozen=True)
class Judgement:
    change: float  # contender centre / baseline centre - 1
    verdict: Verdict
    baseline: ProcessSide
    contender: ProcessSide
    resolution: float | None  # the smallest relative change it could call; None: unknown
    reason: str = ""  # why a row is UNRESOLVED
    # Where each side's spread came from, where not its ProcessSide's own (the paired rule).
    sources: tuple[str, str] | None = None
    # The Welch test the verdict rests on, at the level it was judged at; None for a side of one
    # process, and for the paired rule.
    welch: Resolution | None = None
    level: float = ALPHA  # the two-sided level of `welch`

    @property
    def spread_sources(self) -> tuple[str, str]:
        """(baseline, contender): where each side's spread came from, in words."""
        return self.sources or (self.baseline.source, self.contender.source)

    @property
    def p_value(self) -> float | None:
        """The two-sided p-value of the sides' log difference by Welch's t; None without it."""
        if self.welch is None:
            return None
        return self.welch.p_value(log_difference(self.baseline, self.contender))


def _by_direction(change: float) -> Verdict:
    return Verdict.SLOWER if change > 0 else Verdict.FASTER


def _single_process_sides(baseline: ProcessSide, contender: ProcessSide) -> str:
    names = [name for name, side in (("baseline", baseline), ("contender", contender))
             if side.spread is None]  # fmt: skip
    return " and ".join(names)


def judge_sides(
    baseline: ProcessSide, contender: ProcessSide, threshold: float, alpha: float = ALPHA
) -> Judgement:
    """The verdict for two sides, by the process-level rule in this module's docstring, with
    Welch's t at the two-sided level `alpha` (a row judged alone: ALPHA)."""
    change = contender.centre / baseline.centre - 1
    welch = resolution(baseline, contender, alpha)
    if welch is None:
        where = _single_process_sides(baseline, contender)
        reason = f"one process ({where}): {ONE_PROCESS_REASON}"
        return Judgement(change, Verdict.UNRESOLVED, baseline, contender, None, reason)
    difference = log_difference(baseline, contender)
    smallest = welch.relative_toward(change)

    def judged(verdict: Verdict, reason: str = "") -> Judgement:
        return Judgement(
            change, verdict, baseline, contender, smallest, reason, welch=welch, level=alpha
        )

    beyond_threshold = abs(change) > threshold
    # The change shown is the medians'; the test is on the processes' mean. Both must clear the
    # resolution shown, so that no row is called with its change inside its own resolution.
    both_resolved = welch.resolves(difference) and welch.resolves(math.log1p(change))
    if both_resolved and beyond_threshold and (difference > 0) == (change > 0):
        return judged(_by_direction(change))
    if smallest > threshold:
        return judged(
            Verdict.UNRESOLVED,
            f"resolution {format_resolution(smallest)} wider than the threshold ({threshold:.3g})",
        )
    if beyond_threshold:
        # The medians moved, but they or the processes' mean stayed within the resolution: too
        # few processes agree to call it.
        return judged(
            Verdict.UNRESOLVED,
            f"the median moved {change:+.1%}, beyond the threshold, but it or the processes' "
            f"mean by less than the resolution {format_resolution(smallest)}",
        )
    return judged(Verdict.SAME)


def _repetitions(figures: Sequence[Repetition | float]) -> list[Repetition]:
    """Plain floats are medians without an interval, all of one process."""
    return [f if isinstance(f, Repetition) else Repetition(float(f)) for f in figures]


def judge(
    baseline: Sequence[Repetition | float],
    contender: Sequence[Repetition | float],
    threshold: float,
    machine: Spread | None = None,
) -> Judgement:
    """The verdict for two non-empty lists of repetitions. `machine`: the row's spread measured
    earlier on this machine, for a side of a single process (compare --machine-noise)."""
    return judge_sides(
        process_side(_repetitions(baseline), machine),
        process_side(_repetitions(contender), machine),
        threshold,
    )


def judge_paired(
    baseline: Sequence[Repetition | float],
    contender: Sequence[Repetition | float],
    threshold: float,
    machine: Spread | None = None,
) -> Judgement:
    """The verdict for repetitions taken in alternation, pair by pair (see the module docstring)."""
    if len(baseline) != len(contender) or len(baseline) < PAIRED_MINIMUM:
        return judge(baseline, contender, threshold, machine)
    before, after = _repetitions(baseline), _repetitions(contender)
    ratios = sorted(c.seconds / b.seconds for b, c in zip(before, after, strict=True))
    j = lower_rank_of_median_interval(len(ratios))
    low, high = ratios[j - 1], ratios[len(ratios) - j]
    middle = _median(ratios)
    change = middle - 1
    # Toward the change, as the process-level rule's: a rise is called once the interval's low end
    # is above 1, a fall once its high end is below, so the change then clears the resolution; and
    # a change beyond the threshold whose interval holds 1 has a resolution wider than it.
    smallest = middle / low - 1 if change >= 0 else 1 - middle / high
    if abs(change) > threshold and (low > 1 or high < 1):
        verdict, reason = _by_direction(change), ""
    elif smallest > threshold:
        verdict = Verdict.UNRESOLVED
        reason = (
            f"resolution {format_resolution(smallest)} wider than the threshold ({threshold:.3g})"
        )
    else:
        verdict, reason = Verdict.SAME, ""
    source = f"{len(ratios)} pairs taken in turn"
    return Judgement(
        change,
        verdict,
        process_side(before),
        process_side(after),
        smallest,
        reason,
        sources=(source, source),
    )
