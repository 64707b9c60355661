"""How one benchmark's times in two runs are judged: thresholds, intervals and the verdict rule.

Each side (baseline, contender) of a row is summed up as a centre and an interval:

- centre: the median of its repetitions' medians;
- interval: from the lowest ci_low to the highest ci_high of its repetitions (each repetition's
  95% interval of its median, as handoff_bench writes it), widened to take in every repetition's
  median, so that the spread between separate passes counts as noise too. A side from an older
  file, without ci_low/ci_high, has just the range of its repetitions' medians (a single point
  when it has one repetition).

A side of many repetitions (MANY_REPETITIONS or more: handoff_bench --handoff-passes, or merged
runs) is summed up by the repetitions' medians alone: the centre is their median and the interval
is that median's distribution-free 95% interval, whose ends are order statistics of the
repetitions' medians chosen from the binomial(n, 1/2) distribution, as handoff_bench does for one
row's samples. On a shared machine outside load comes in bursts of seconds, each of which slows
every sample of the row it falls on; with enough repetitions such a burst moves one end of the range
but not the median or its interval, so the spread between repetitions is measured rather than
taken whole as the threshold. Such a side is never marked noisy: its interval is measured from
the scatter of its passes, whether or not each pass reached its own noise target.

change = contender centre / baseline centre - 1, and the row's threshold is the first matching
rule of the thresholds file, else the default (--threshold, else the file's default, else 3%),
raised to the between-run spread of either side where a side has several but not many
repetitions (separate passes, as ci/nightly's): a change no larger than the difference between
two runs of one build is never called, however narrow each run's own interval.
The verdict:

- SLOWER or FASTER: |change| > threshold, and the two intervals do not overlap;
- NOISY: |change| > threshold, the intervals overlap, and either side is marked noisy (it hit
  its time cap above its noise target) or has no interval of its own (an older file);
- SAME: everything else (a change within the threshold, or one inside both sides' measured noise).

Paired sides (compare --paired): when the two runs alternated, repetition i of the baseline and
repetition i of the contender were measured within seconds of each other (handoff_bench
--handoff-plant-alternate, or runs taken in turn), and the machine's speed at that moment, which
on a shared machine wanders by tens of percent for seconds at a time and moves every row alike,
cancels in their ratio. The row's change is then the median of those ratios minus one, and its
interval that median's distribution-free 95% interval: SLOWER or FASTER when the change is beyond
the threshold and the interval leaves out 1, SAME otherwise. With fewer than PAIRED_MINIMUM pairs,
or unequal counts, the unpaired rule above applies.

FAILED (the contender's result was wrong, or it errored, or either side's figures are damaged) and
NOT COMPARABLE (the runs were measured with different settings) are decided before this rule, in
compare.py, so that the rule only ever sees finite, positive times.
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
from handoff_reports.results import Repetition

DEFAULT_THRESHOLD = 0.03
# From 9 repetitions on, the median's 95% interval leaves out the lowest and the highest one.
MANY_REPETITIONS = 9
# From 6 pairs on, the median ratio has a 95% interval (the range of the ratios, at 6 to 8).
PAIRED_MINIMUM = 6


class Verdict(StrEnum):
    FAILED = "FAILED"  # the contender's result was wrong, or it errored, or a side is damaged
    SLOWER = "SLOWER"
    NOISY = "NOISY"
    FASTER = "FASTER"
    SAME = "SAME"
    NOT_COMPARABLE = "NOT COMPARABLE"  # the runs were measured with different settings


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
    """One run's figure for a row: the centre and the interval the verdict rule uses."""

    centre: float
    low: float
    high: float
    has_interval: bool  # every repetition carried ci_low and ci_high
    noisy: bool  # a repetition stopped at its time cap above its noise target
    # (largest - smallest repetition median) / centre: the between-run spread; 0 with one.
    between: float = 0.0
    # The interval is the median's over many repetitions, so it already holds the between-run
    # spread, and the threshold is not raised to it.
    robust: bool = False

    @property
    def noise(self) -> float:
        """The interval's relative half-width around the centre (0.004 = ±0.4%)."""
        if not self.centre > 0:
            return math.nan
        return (self.high - self.low) / 2 / self.centre

    def overlaps(self, other: Side) -> bool:
        return self.low <= other.high and other.low <= self.high


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
        # measured from the scatter of the passes, so an overlap means no measurable difference.
        noisy=False,
        between=(medians[-1] - medians[0]) / centre if centre > 0 else 0.0,
        robust=True,
    )


def side_of(figures: Sequence[Repetition | float]) -> Side:
    """The side a non-empty list of repetitions makes (plain floats: medians without interval)."""
    repetitions = [f if isinstance(f, Repetition) else Repetition(float(f)) for f in figures]
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
    """±x% of a side's interval, "-" where there is none to show."""
    if side is None or not math.isfinite(side.noise):
        return "-"
    return f"±{side.noise:.1%}"


@dataclass(frozen=True)
class Judgement:
    change: float  # contender centre / baseline centre - 1
    verdict: Verdict
    baseline: Side
    contender: Side


def _by_direction(change: float) -> Verdict:
    return Verdict.SLOWER if change > 0 else Verdict.FASTER


def judge_sides(baseline: Side, contender: Side, threshold: float) -> Judgement:
    """The verdict for two sides, by the rule in this module's docstring."""
    change = contender.centre / baseline.centre - 1
    for side in (baseline, contender):
        if not side.robust:
            threshold = max(threshold, side.between)
    if abs(change) <= threshold:
        verdict = Verdict.SAME
    elif not baseline.overlaps(contender):
        verdict = _by_direction(change)
    elif (
        baseline.noisy or contender.noisy or not baseline.has_interval or not contender.has_interval
    ):
        verdict = Verdict.NOISY
    else:
        verdict = Verdict.SAME
    return Judgement(change, verdict, baseline, contender)


def judge(
    baseline: Sequence[Repetition | float],
    contender: Sequence[Repetition | float],
    threshold: float,
) -> Judgement:
    """The verdict for two non-empty lists of repetitions (see `side_of` and `judge_sides`)."""
    return judge_sides(side_of(baseline), side_of(contender), threshold)


def judge_paired(
    baseline: Sequence[Repetition | float],
    contender: Sequence[Repetition | float],
    threshold: float,
) -> Judgement:
    """The verdict for repetitions taken in alternation, pair by pair (see the module docstring)."""
    if len(baseline) != len(contender) or len(baseline) < PAIRED_MINIMUM:
        return judge(baseline, contender, threshold)

    def seconds(figure: Repetition | float) -> float:
        return figure.seconds if isinstance(figure, Repetition) else float(figure)

    ratios = sorted(seconds(c) / seconds(b) for b, c in zip(baseline, contender, strict=True))
    j = lower_rank_of_median_interval(len(ratios))
    low, high = ratios[j - 1], ratios[len(ratios) - j]
    change = _median(ratios) - 1
    if abs(change) > threshold and (low > 1 or high < 1):
        verdict = _by_direction(change)
    else:
        verdict = Verdict.SAME
    return Judgement(change, verdict, side_of(baseline), side_of(contender))
