"""How one benchmark's times in two runs are judged: thresholds, the U test and the verdict rules.

Verdict rules, for a row's median times (change = contender / baseline - 1):

- With enough repetitions on both sides for the two-sided Mann-Whitney U test to reach `alpha`
  at all (see `u_test_can_decide`; for alpha 0.05 that is 4 vs 4, 3 vs 5 or 2 vs 10, and 5 or
  more on each side is what gives it any power):
  p < alpha and |change| > threshold gives FASTER or SLOWER; |change| > threshold without
  p < alpha gives NOISY (the runs look different, but their repetitions overlap); a small change
  is SAME, unless p >= alpha and either side's spread (coefficient of variation) exceeds twice the
  threshold, because then a change of the threshold's size could hide in the noise: NOISY.
- With fewer repetitions (one per run, as a plain run writes) the median change is compared with
  the threshold and the spread (either side's coefficient of variation): FASTER or SLOWER beyond
  both, NOISY beyond only one of them, SAME within both. A noisy row cannot hide a change larger
  than its noise.
"""

from __future__ import annotations

import fnmatch
import math
import re
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from scipy.stats import mannwhitneyu

DEFAULT_THRESHOLD = 0.05
DEFAULT_ALPHA = 0.05
# A spread this many times the threshold makes a small, non-significant change NOISY, not SAME.
NOISE_SPREAD_FACTOR = 2.0


class Verdict(StrEnum):
    FAILED = "FAILED"  # the contender's result was wrong, or it errored
    SLOWER = "SLOWER"
    NOISY = "NOISY"
    FASTER = "FASTER"
    SAME = "SAME"


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
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise ThresholdsError(f"{path}: cannot read: {error.strerror}") from error
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ThresholdsError(f"{path}: not valid TOML: {error}") from error
    return parse_thresholds(document, str(path))


def u_test_can_decide(baseline_count: int, contender_count: int, alpha: float) -> bool:
    """Whether the smallest p the exact two-sided U test can give is below alpha.

    That smallest p, when the two samples do not overlap at all, is 2 / C(n + m, n): 0.1 for
    3 vs 3, 0.029 for 4 vs 4, 0.008 for 5 vs 5. Below it the test can never say "different".
    """
    if min(baseline_count, contender_count) < 2:
        return False
    return 2 / math.comb(baseline_count + contender_count, baseline_count) < alpha


def spread(seconds: list[float]) -> float:
    """Coefficient of variation of the repetitions; 0 for a single one (nothing to go on)."""
    if len(seconds) < 2:
        return 0.0
    mean = sum(seconds) / len(seconds)
    variance = sum((s - mean) ** 2 for s in seconds) / (len(seconds) - 1)
    return math.sqrt(variance) / mean if mean > 0 else 0.0


@dataclass(frozen=True)
class Judgement:
    change: float  # contender median / baseline median - 1
    p_value: float | None  # None where the U test could not decide
    verdict: Verdict


def _median(seconds: list[float]) -> float:
    ordered = sorted(seconds)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _by_direction(change: float) -> Verdict:
    return Verdict.SLOWER if change > 0 else Verdict.FASTER


def judge(
    baseline: list[float], contender: list[float], threshold: float, alpha: float
) -> Judgement:
    """The verdict for two non-empty lists of repetition times, by the rules in this docstring."""
    change = _median(contender) / _median(baseline) - 1
    beyond = abs(change) > threshold
    noise = max(spread(baseline), spread(contender))
    if not u_test_can_decide(len(baseline), len(contender), alpha):
        # A change wider than both the threshold and the spread is a verdict even without a test:
        # a noisy benchmark must not hide a regression larger than its noise.
        if abs(change) > max(threshold, noise):
            return Judgement(change, None, _by_direction(change))
        return Judgement(
            change, None, Verdict.NOISY if beyond or noise > threshold else Verdict.SAME
        )
    p_value = float(mannwhitneyu(baseline, contender, alternative="two-sided").pvalue)
    if math.isnan(p_value):  # every repetition on both sides has the same time
        p_value = 1.0
    if p_value < alpha:
        verdict = _by_direction(change) if beyond else Verdict.SAME
    elif beyond or noise > NOISE_SPREAD_FACTOR * threshold:
        verdict = Verdict.NOISY
    else:
        verdict = Verdict.SAME
    return Judgement(change, p_value, verdict)
