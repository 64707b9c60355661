"""The process level of an experiment: a row's spread between processes, and the smallest change
two sides of a row can resolve at it.

A figure moves between processes (where the heap, stack and code land, which pages a buffer gets,
the machine's load that minute) by more than its samples move inside one process, so the spread a
verdict rests on is measured between processes, the level that varies (Kalibera and Jones,
"Rigorous benchmarking in reasonable time", ISMM 2013):

- a side's centre is the median of its process medians (each process's figure is the median of
  its repetitions' medians: repetitions of one process are one draw of the process level);
- its spread s is the sample standard deviation of the natural log of its process medians (times
  compare as ratios), floored by the within-process noise: the median over its processes of
  noise / 1.96, noise being the relative half-width of a median's 95% interval. Processes that
  happen to agree more closely than each could measure do not make the row more precise;
- a process during whose row a hypervisor took a share of the machine's CPU of STOLEN_SHARE_LIMIT
  or more is set aside (set_aside_stolen), while three processes and half of them are left: it
  measured its neighbours as much as the build, and the hypervisor's share is known to the
  process itself, as a lowered GPU clock is;
- a side of a single process has no spread of its own. One measured earlier on the same machine
  may stand in (compare --machine-noise), with the degrees of freedom of the file it came from;
  without one, nothing can be said beyond that process. A side of several processes pools its
  spread with the machine's, when given: the variance estimated from both, with both's degrees
  of freedom.

Two sides resolve a change by Welch's t on the log process medians: SE = sqrt(s_b²/n_b + s_c²/n_c),
degrees of freedom by Welch-Satterthwaite, t the two-sided Student quantile at a level alpha
(ALPHA = 1 - CONFIDENCE for a row judged alone; a comparison judges its rows together at a
smaller one: family_level.py). The resolution exp(t·SE) - 1 is the smallest relative change the
pair can call; the measured log difference d = mean(ln contender) - mean(ln baseline) is beyond
the noise when |d| > t·SE, that is when its two-sided p-value is below alpha.
See docs/design/comparing-runs.md for why this test and not a distribution-free one.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

# Student t's distribution function and quantile: scipy.stats.t.cdf and .ppf, without scipy.stats.
from scipy.special import stdtr, stdtrit

from handoff_reports.results import ProcessFigure, Repetition, by_process

# Two-sided: a change is called when its log difference is beyond the 99.5th percentile of t.
CONFIDENCE = 0.99
# The same as a two-sided level: the false calls allowed per row judged alone. Rounded, since
# 1 - 0.99 is 0.010000000000000009 in floats, which every output would carry.
ALPHA = round(1 - CONFIDENCE, 12)
# The normal quantile behind a 95% interval: a relative half-width over it is a standard error.
Z_95 = 1.959963984540054
ONE_PROCESS = "none: one process"
# The share of the machine's CPU time a hypervisor may take from the guest while a process measures
# a row (`host_steal`) before the process is set aside. Below it a process's figure scatters about
# its row's median as undisturbed ones do; at or above it, several times as far
# (docs/design/comparing-runs.md, "Processes the hypervisor interrupted").
STOLEN_SHARE_LIMIT = 0.01
# Setting a process aside must leave a side its own spread with two degrees of freedom or more: at
# one, Student's quantile is several times larger, which costs the side more than the disturbed
# process did, and the median of three already stands clear of one far-off process.
FEWEST_KEPT = 3
# exp() of more overflows a float; any resolution near it is "none at all" just the same.
MAX_LOG_HALF_WIDTH = 700.0


@dataclass(frozen=True)
class Spread:
    """A row's between-process spread: the standard deviation of the log of process medians."""

    sd: float
    processes: int  # how many processes it was measured from
    source: str  # where it came from, in words: "this run's 3 processes", "machine noise from F"
    # How far a whole run's mean log median moves (the minutes between runs: the machine's state,
    # its neighbours), from machine noise of several runs (machine_noise.py); 0 with runs below 2,
    # where it is unknown.
    run_sd: float = 0.0
    runs: int = 0

    @property
    def degrees_of_freedom(self) -> int:
        return self.processes - 1

    @property
    def knows_runs(self) -> bool:
        return self.runs >= 2


def within_process_floor(processes: Sequence[ProcessFigure]) -> float:
    """The median over the processes of noise / 1.96 (a log standard error); 0 where no process
    wrote a noise."""
    noises = [p.noise / Z_95 for p in processes if p.noise is not None]
    return statistics.median(noises) if noises else 0.0


def own_spread(processes: Sequence[ProcessFigure]) -> Spread | None:
    """The spread of two or more processes, floored by their noise; None for a single one."""
    if len(processes) < 2:
        return None
    sd = statistics.stdev(math.log(p.seconds) for p in processes)
    floor = within_process_floor(processes)
    return Spread(max(sd, floor), len(processes), f"this run's {len(processes)} processes")


def was_stolen_from(process: ProcessFigure) -> bool:
    """Whether a hypervisor took STOLEN_SHARE_LIMIT or more of the machine's CPU while the
    process measured the row (False where the file does not say)."""
    return process.host_steal is not None and process.host_steal >= STOLEN_SHARE_LIMIT


def set_aside_stolen(
    processes: Sequence[ProcessFigure],
) -> tuple[list[ProcessFigure], list[ProcessFigure]]:
    """(kept, set aside): the processes a hypervisor took CPU from are set aside, but only while
    at least FEWEST_KEPT processes, and at least half of them, are kept; otherwise every one is
    kept, since the run as a whole measured that weather."""
    kept = [p for p in processes if not was_stolen_from(p)]
    if len(kept) == len(processes) or len(kept) < FEWEST_KEPT or 2 * len(kept) < len(processes):
        return list(processes), []
    return kept, [p for p in processes if was_stolen_from(p)]


@dataclass(frozen=True)
class ProcessSide:
    """One run's figure for a row at the process level."""

    processes: tuple[ProcessFigure, ...]  # those its figure and spread rest on
    spread: Spread | None  # None: a single process, and no spread known for the row
    set_aside: tuple[ProcessFigure, ...] = ()  # measured, but a hypervisor took CPU from them

    @property
    def count(self) -> int:
        return len(self.processes)

    @property
    def centre(self) -> float:
        return statistics.median(p.seconds for p in self.processes)

    @property
    def log_mean(self) -> float:
        return statistics.fmean(math.log(p.seconds) for p in self.processes)

    @property
    def source(self) -> str:
        """Where the spread came from, in words: 'none: one process' without one."""
        return self.spread.source if self.spread is not None else ONE_PROCESS


def pooled_spread(own: Spread, machine: Spread) -> Spread:
    """A side's own spread pooled with the machine's: one variance, estimated from both sets of
    processes, with the degrees of freedom of both. Three processes give a spread from two
    degrees of freedom, whose t quantile is wide; the machine's processes, measured earlier and
    across runs, add theirs, and the minutes between runs that one run cannot see."""
    degrees = own.degrees_of_freedom + machine.degrees_of_freedom
    if degrees <= 0:
        return own
    variance = (
        own.degrees_of_freedom * own.sd**2 + machine.degrees_of_freedom * machine.sd**2
    ) / degrees
    source = f"{own.source}, pooled with {machine.source}"
    return Spread(math.sqrt(variance), degrees + 1, source, machine.run_sd, machine.runs)


def process_side(figures: Sequence[Repetition], machine: Spread | None = None) -> ProcessSide:
    """A non-empty list of repetitions at the process level. `machine` (a spread measured earlier
    on this machine) stands in for a side of a single process, which has none of its own, and is
    pooled with the spread of a side of several (pooled_spread)."""
    measured = by_process(figures)
    if not measured:
        raise ValueError("a side needs at least one repetition")
    processes, set_aside = set_aside_stolen(measured)
    spread = own_spread(processes)
    floor = within_process_floor(processes)
    if machine is not None and spread is None:
        # The machine's spread, but never below what this process itself could measure.
        spread = Spread(
            max(machine.sd, floor), machine.processes, machine.source, machine.run_sd, machine.runs
        )
    elif machine is not None and spread is not None:
        # Pooling lends the machine's degrees of freedom, never its steadiness: a side whose own
        # processes scatter more than the machine's (one of them far off) keeps its own spread.
        pooled = pooled_spread(spread, machine)
        spread = Spread(
            max(pooled.sd, spread.sd, floor),
            pooled.processes,
            pooled.source,
            pooled.run_sd,
            pooled.runs,
        )
    return ProcessSide(tuple(processes), spread, tuple(set_aside))


@dataclass(frozen=True)
class Resolution:
    """What two sides can tell apart: Welch's t on their log process medians."""

    standard_error: float
    degrees_of_freedom: float
    t: float

    @property
    def half_width(self) -> float:
        """The log difference beyond which a change is called: t · SE."""
        return self.t * self.standard_error

    @property
    def relative(self) -> float:
        """The smallest relative change the two sides can call: exp(t · SE) - 1 (held below a
        float's overflow: a side of two wildly different processes can ask for more)."""
        return math.expm1(min(self.half_width, MAX_LOG_HALF_WIDTH))

    def relative_toward(self, change: float) -> float:
        """The smallest relative change the two sides can call in the direction of `change`: a
        rise must pass exp(t · SE) - 1, a fall only 1 - exp(-t · SE), which is smaller."""
        if change >= 0:
            return self.relative
        return -math.expm1(-min(self.half_width, MAX_LOG_HALF_WIDTH))

    def resolves(self, log_difference: float) -> bool:
        return abs(log_difference) > self.half_width

    def p_value(self, log_difference: float) -> float:
        """The two-sided p-value of `log_difference` under no change: 2 · P(T > |d| / SE)."""
        if self.standard_error == 0:
            # Identical processes without noise: any difference at all is beyond them.
            return 0.0 if log_difference else 1.0
        score = abs(log_difference) / self.standard_error
        return float(2 * stdtr(self.degrees_of_freedom, -score))


def t_quantile(degrees_of_freedom: float, alpha: float = ALPHA) -> float:
    """The two-sided Student t quantile at level `alpha`: P(|T| > t) = alpha."""
    # 1 - ALPHA / 2 is (1 + CONFIDENCE) / 2 to the last bit, so a row judged alone gets the very
    # t it always had.
    return float(stdtrit(degrees_of_freedom, 1 - alpha / 2))


def resolution(
    baseline: ProcessSide, contender: ProcessSide, alpha: float = ALPHA
) -> Resolution | None:
    """Welch's standard error, degrees of freedom and t at the two-sided level `alpha`; None
    where a side has no spread."""
    if baseline.spread is None or contender.spread is None:
        return None
    variances = [
        (side.spread.sd**2 / side.count, float(side.spread.degrees_of_freedom))
        for side in (baseline, contender)
        if side.spread is not None
    ]
    # Each side is one run: its processes share that run's minute, which no count of them
    # averages away. Machine noise of several runs says how far whole runs move.
    if baseline.spread.knows_runs and contender.spread.knows_runs:
        runs = min(baseline.spread.runs, contender.spread.runs)
        run_variance = baseline.spread.run_sd**2 + contender.spread.run_sd**2
        if run_variance > 0:
            variances.append((run_variance, float(runs - 1)))
    total = sum(v for v, _ in variances)
    denominator = sum(v**2 / df for v, df in variances)
    # Both spreads zero (identical processes, no noise written): any degrees of freedom will do,
    # since t · 0 is 0; take the sum of both sides'.
    df = total**2 / denominator if denominator > 0 else float(sum(df for _, df in variances))
    return Resolution(math.sqrt(total), df, t_quantile(df, alpha))


def log_difference(baseline: ProcessSide, contender: ProcessSide) -> float:
    """d = mean(ln contender process medians) - mean(ln baseline process medians)."""
    return contender.log_mean - baseline.log_mean
