"""`handoff-compare`: one run against another, row by row, with an exit status CI can gate on.

Rows are matched by Row.key. Each side of a row is summed up at the process level
(process_level.py): its centre is the median of its process medians, its spread the standard
deviation of the log process medians, and a row's resolution the smallest change the two sides
could call (Welch's t), at the level of the row's section (below). change = contender centre /
baseline centre - 1; the threshold is the thresholds file's first matching rule, else --threshold
(default 3%). The rule, in full, is compare_stats.py's:

- FAILED: the contender's result was wrong, or it errored, or either side's figures are damaged
  (a NaN, infinite, null or negative count, a time of zero or less: results.CHECKED_FIGURES).
- NOT COMPARABLE: the two runs were measured on different machines (GPU or CPU model, driver or
  CUDA runtime: machines.py), unless --across-machines is given, or with different settings
  (results.MEASUREMENT_SETTINGS: the profile and sampling settings, the size cap, and the
  experiments' switches spin, spin_us and worker_cores), unless --ignore-settings is given;
  every row but a FAILED one gets this verdict, and every format says so first. Differences in
  filter, repetitions, shuffle seed or cold samples only warn; a planted slowdown is named in the
  header; files without settings warn.
- SLOWER / FASTER: the change is beyond the threshold and beyond the row's resolution.
- UNRESOLVED: a side has a single process and no spread is known for the row (--machine-noise
  FILE supplies one measured earlier on this machine), or the resolution is wider than the
  threshold. Never a failure.
- SAME: no change larger than the resolution, which is within the threshold.

The rows are judged together, not one by one: tested alone at 1% each, some three hundred rows
would call one to three changes by chance between two runs of one build. The rows of each section
(benchmarks; ceilings) that Welch's t judges are one family: Benjamini-Hochberg at 1% over their
p-values gives the family one level α*, and each row's resolution and verdict are those at α*
(family_level.py). Rows with a side of one process and no spread for it, rows judged by pairs
(--paired), FAILED and NOT COMPARABLE rows stay out of it.

Every format gives each row's resolution, both sides' process counts and where each side's spread
came from ("this run's 3 processes", "machine noise from FILE", "none: one process"), and each
section's family: how many rows, how many beyond the noise, and α*.

--filter REGEX compares only the rows it selects, searched in their benchmark names as
--benchmark_filter searches, and judges them together among themselves; every format says so
first. A filter that selects no row of either run is an input error.

The comparison passes only what it checked. Besides FAILED rows, it fails when either run has no
rows at all (nothing was compared), and for every baseline row the contender lacks, unless that
row is a ceiling, or lies under a family (`<family>/...`) that the contender's machine reported
it could not run (`handoff_skipped_families`), or the contender was measured on another machine:
such a row is listed and does not fail. A family whose rows are not named under it (say
`elementwise/vector_add/gpu`) cannot be matched to its rows, so its missing rows fail.

Exit status: 0 when nothing regressed; 1 when a benchmark is SLOWER, any row FAILED (a wrong result
is never a pass, whatever its time), a baseline row is missing from the contender, or a run has no
rows, each named on its own line under "why it fails"; 2 on a usage or input error, or a
--machine-noise file from another machine. UNRESOLVED and SAME never fail. Ceiling rows
(`ceilings/...`) get verdicts too, but they measure the machine rather than the code, so a slower
or missing ceiling is reported and never fails the comparison.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace

from handoff_reports.compare_stats import (
    Judgement,
    Side,
    Thresholds,
    Verdict,
    judge,
    judge_paired,
    judge_sides,
    side_of,
)
from handoff_reports.family_level import FamilyLevel, family_level
from handoff_reports.machine_noise import MachineNoise
from handoff_reports.machines import describe_changes, machine_changes
from handoff_reports.results import Row, Run, measurement_differences
from handoff_reports.row_selection import RowSelection, select_rows

# FAILED, SLOWER, UNRESOLVED, FASTER, SAME, NOT COMPARABLE: the worst first
VERDICT_ORDER = list(Verdict)
# Manifest entries that describe the machine rather than the build.
MACHINE_PREFIXES = ("handoff_gpu", "handoff_cpu", "handoff_cuda_driver", "handoff_peer_topology")
# Manifest entries of the process or processes that wrote a file (its token, its randomised
# stack and heap offsets): every run's differ, by design.
PROCESS_ENTRIES = (
    "handoff_process", "handoff_processes", "handoff_stack_offset", "handoff_heap_offset",
)  # fmt: skip


@dataclass(frozen=True)
class RowComparison:
    key: str
    baseline: Row
    contender: Row
    threshold: float
    change: float  # contender centre / baseline centre - 1; nan where either has no time
    verdict: Verdict
    baseline_side: Side | None = None  # None where a side has no time
    contender_side: Side | None = None
    failure: str = ""  # why a FAILED row failed, e.g. "contender: wrong result (1 wrong)"
    # The process-level (or paired) judgement, where both sides have times: the resolution and
    # where each side's spread came from, also for a row whose verdict was decided before it.
    judgement: Judgement | None = None

    @property
    def centres(self) -> tuple[float, float]:
        """(baseline, contender): the figures the change is computed from (the medians of the
        process medians); nan where a side has no time."""
        if self.judgement is not None:
            return self.judgement.baseline.centre, self.judgement.contender.centre
        return (
            self.baseline_side.centre if self.baseline_side else math.nan,
            self.contender_side.centre if self.contender_side else math.nan,
        )

    @property
    def resolution(self) -> float | None:
        """The smallest relative change this row could call; None where unknown."""
        return self.judgement.resolution if self.judgement is not None else None

    @property
    def p_value(self) -> float | None:
        """Welch's two-sided p-value of the sides' log difference; None without that test (a
        side of one process, or pairs taken in turn)."""
        return self.judgement.p_value if self.judgement is not None else None

    @property
    def level(self) -> float | None:
        """The two-sided level the row's Welch test was judged at; None without that test."""
        judgement = self.judgement
        return judgement.level if judgement is not None and judgement.welch is not None else None

    @property
    def processes(self) -> tuple[int, int]:
        """How many processes the row's figures rest on, in the baseline and in the contender:
        those measured, less any set aside (process_level.set_aside_stolen)."""
        if self.judgement is not None:
            return self.judgement.baseline.count, self.judgement.contender.count
        return len(self.baseline.processes), len(self.contender.processes)

    @property
    def set_aside(self) -> tuple[int, int]:
        """How many processes of each side were set aside because a hypervisor took the
        machine's CPU from them while they measured the row."""
        if self.judgement is None:
            return 0, 0
        return len(self.judgement.baseline.set_aside), len(self.judgement.contender.set_aside)

    @property
    def spread_sources(self) -> tuple[str, str] | None:
        """(baseline, contender): where each side's spread came from, in words."""
        return self.judgement.spread_sources if self.judgement is not None else None

    @property
    def reason(self) -> str:
        """Why the row is UNRESOLVED, or FAILED; empty otherwise."""
        if self.verdict is Verdict.FAILED:
            return self.failure
        if self.verdict is Verdict.UNRESOLVED and self.judgement is not None:
            return self.judgement.reason
        return ""

    @property
    def is_ceiling(self) -> bool:
        return self.contender.name.pattern == "ceilings"

    @property
    def is_called(self) -> bool:
        return self.verdict in (Verdict.SLOWER, Verdict.FASTER)

    @property
    def is_regression(self) -> bool:
        if self.verdict is Verdict.FAILED:
            return True
        return self.verdict is Verdict.SLOWER and not self.is_ceiling

    @property
    def why(self) -> str:
        """One line on why this row fails the comparison."""
        if self.verdict is Verdict.FAILED:
            return f"{self.key}: FAILED: {self.failure}"
        resolution = f" ±{self.resolution:.1%}" if self.resolution is not None else ""
        return (
            f"{self.key}: {self.verdict.value} by {format_change(self.change)}, beyond its "
            f"{self.threshold:.0%} threshold and its resolution{resolution}"
        )


@dataclass(frozen=True)
class Unmatched:
    """A row found in one run only, or one without a baseline time to compare with."""

    key: str
    reason: str
    failed: bool = False  # a contender-only row that failed still fails the comparison
    missing: bool = False  # a baseline row the contender lacks (and did not skip): fails too


RUN_LEVEL_UNKNOWN = (
    "warning: each side is one run, and no resolution here includes how far whole runs move on "
    "this machine (its state between the two runs, its neighbours), which no count of processes "
    "averages away: a row called SLOWER or FASTER may be that drift. To see it, give "
    "--machine-noise with two or more earlier runs of this machine, or alternate the builds "
    "(handoff_reports compare-builds)"
)


@dataclass
class Comparison:
    baseline: Run
    contender: Run
    default_threshold: float
    rows: list[RowComparison] = field(default_factory=list)  # worst verdict first
    unmatched: list[Unmatched] = field(default_factory=list)
    ignore_settings: bool = False
    across_machines: bool = False
    machine_noise: str | None = None  # the --machine-noise file, where one was given
    # Machine noise of two runs or more says how far whole runs move; runs taken in turn (paired)
    # cancel it. Otherwise each side is one run and that drift is in no resolution.
    run_level_known: bool = False
    # Faults of a whole run that fail the comparison, e.g. a contender without rows.
    problems: list[str] = field(default_factory=list)
    # "benchmarks", "ceilings": the level each section's rows were judged at together.
    families: dict[str, FamilyLevel] = field(default_factory=dict)
    selection: RowSelection | None = None  # the rows --filter kept, where one was given

    def setting_differences(self) -> list[tuple[str, str, str]]:
        """(setting, baseline, contender) for each measurement setting that differs."""
        return measurement_differences(self.baseline.settings, self.contender.settings)

    def machine_changes(self) -> list[tuple[str, str, str]]:
        """(fact, baseline, contender) for each machine fact that differs (machines.py)."""
        return machine_changes(self.baseline.context, self.contender.context)

    @property
    def settings_comparable(self) -> bool:
        return self.ignore_settings or not self.setting_differences()

    @property
    def machines_comparable(self) -> bool:
        return self.across_machines or not self.machine_changes()

    @property
    def comparable(self) -> bool:
        return self.settings_comparable and self.machines_comparable

    def machine_line(self) -> str | None:
        """The line every format leads with when the runs come from different machines."""
        changes = self.machine_changes()
        if not changes:
            return None
        if self.across_machines:
            return (
                f"warning: the runs were measured on different machines "
                f"({describe_changes(changes)}): compared anyway (--across-machines); every "
                "difference may be the machine's rather than the code's"
            )
        return (
            f"NOT COMPARABLE: the runs were measured on different machines "
            f"({describe_changes(changes)}): every row is NOT COMPARABLE "
            "(--across-machines compares anyway)"
        )

    def warnings(self) -> list[str]:
        """Lines about how the two runs were made: settings, planted slowdowns, incomplete runs."""
        lines = [self.selection.line] if self.selection is not None else []
        before, after = self.baseline.settings, self.contender.settings
        differences = self.setting_differences()
        if differences:
            lines.append(
                "warning: the runs were measured with different settings ("
                + "; ".join(f"{key}: {b} -> {a}" for key, b, a in differences)
                + "): "
                + (
                    "compared anyway (--ignore-settings)"
                    if self.ignore_settings
                    else "every row is NOT COMPARABLE (--ignore-settings compares anyway)"
                )
            )
        unknown = [
            side
            for side, settings in (("baseline", before), ("contender", after))
            if not settings.known
        ]
        if unknown:
            lines.append(
                f"warning: unknown settings in the {' and '.join(unknown)} (a file without "
                "setting_* entries): compared as if they matched"
            )
        elif informative := [
            (key, value, after.informative()[key])
            for key, value in before.informative().items()
            if value != after.informative()[key]
        ]:
            lines.append(
                "warning: the runs differ in "
                + "; ".join(f"{key}: {b or '-'} -> {a or '-'}" for key, b, a in informative)
                + " (this does not change how a row is measured)"
            )
        for side, run in (("baseline", self.baseline), ("contender", self.contender)):
            if run.settings.planted_slowdown:
                lines.append(
                    f"planted slowdown in the {side}: {run.settings.planted_slowdown} "
                    "(PERCENT:REGEX, a test of detection power)"
                )
        if not self.run_level_known and any(row.is_called for row in self.rows):
            lines.append(RUN_LEVEL_UNKNOWN)
        if line := self.machine_moved_line():
            lines.append(line)
        for side, run in (("baseline", self.baseline), ("contender", self.contender)):
            state = run.run_state
            if state.incomplete:
                rows = f", {state.rows} rows" if state.rows is not None else ""
                lines.append(
                    f"warning: the {side} run is incomplete ({state.reason or 'no reason given'}"
                    f"{rows})"
                )
        return lines

    def machine_moved_line(self) -> str | None:
        """Where ceilings and benchmarks were both called: the machine's own figures moved between
        the runs, so a benchmark's change may be the machine's. A ceiling slowed on purpose (a
        planted slowdown) says nothing about the machine."""
        moved = [
            row
            for row in self.ceilings
            if row.is_called
            and not (row.baseline.planted_slowdown or row.contender.planted_slowdown)
        ]
        if not moved or not any(row.is_called for row in self.benchmarks):
            return None
        slower = sum(row.verdict is Verdict.SLOWER for row in moved)
        ratio = geometric_mean_ratio(self.ceilings)
        overall = f", all ceilings' geomean {ratio - 1:+.1%}" if ratio is not None else ""
        return (
            f"warning: the machine itself moved between the runs: {len(moved)} of its "
            f"{len(self.ceilings)} ceilings read SLOWER or FASTER ({slower} SLOWER{overall}), "
            "so a benchmark called SLOWER or FASTER may be the machine's change, not the code's"
        )

    def family_lines(self) -> list[str]:
        """One line per section with rows: how its rows were judged together, and at what α*."""
        sections = (("benchmarks", self.benchmarks), ("ceilings", self.ceilings))
        return [
            f"{section}: {self.families[section].describe()}"
            for section, rows in sections
            if rows and section in self.families
        ]

    @property
    def benchmarks(self) -> list[RowComparison]:
        return [row for row in self.rows if not row.is_ceiling]

    @property
    def ceilings(self) -> list[RowComparison]:
        return [row for row in self.rows if row.is_ceiling]

    @property
    def regressions(self) -> list[RowComparison]:
        return [row for row in self.rows if row.is_regression]

    @property
    def failed_unmatched(self) -> list[Unmatched]:
        return [row for row in self.unmatched if row.failed]

    @property
    def exit_code(self) -> int:
        return 1 if self.problems or self.regressions or self.failed_unmatched else 0

    def failure_lines(self) -> list[str]:
        """One line per reason the comparison fails: run faults first, then rows; the missing
        rows in one line, since each is listed among the rows not compared."""
        missing = [row.key for row in self.unmatched if row.missing]
        lines = [*self.problems, *(self._why(row) for row in self.regressions)]
        lines += [f"{row.key}: {row.reason}" for row in self.failed_unmatched if not row.missing]
        if missing:
            lines.append(
                f"{len(missing)} baseline rows missing from the contender, "
                f"{missing[0]} first (each is listed under not compared)"
            )
        return lines

    def _why(self, row: RowComparison) -> str:
        """A regression's line, and, for a call between two single runs, that how far whole runs
        move is not in its resolution: a reader of the failure alone must see that too."""
        if row.verdict is Verdict.SLOWER and not self.run_level_known:
            return row.why + " (how far whole runs move is not in that resolution: see the warning)"
        return row.why

    @property
    def outcome(self) -> str:
        if not self.exit_code:
            if not self.machines_comparable:
                return "no regression; every row NOT COMPARABLE (different machines)"
            if not self.settings_comparable:
                return "no regression; every row NOT COMPARABLE (different settings)"
            return "no regression"
        rows = len(self.regressions) + len(self.failed_unmatched)
        return "; ".join([f"REGRESSION ({rows} rows)", *self.problems])

    def unresolved_lines(self) -> list[str]:
        """One line per kind of reason among the UNRESOLVED rows, with how many rows have it."""
        kinds = Counter(
            _unresolved_kind(row.reason) for row in self.rows if row.verdict is Verdict.UNRESOLVED
        )
        return [f"{count} rows: {kind}" for kind, count in kinds.most_common()]

    def verdict_counts(self, rows: list[RowComparison]) -> dict[Verdict, int]:
        counts = Counter(row.verdict for row in rows)
        return {verdict: counts[verdict] for verdict in VERDICT_ORDER if counts[verdict]}

    def manifest_differences(self) -> list[tuple[str, str, str]]:
        """(key, baseline value, contender value) for each manifest entry that differs."""
        before, after = self.baseline.manifest, self.contender.manifest
        keys = sorted((set(before) | set(after)) - set(PROCESS_ENTRIES))
        return [
            (key, before.get(key, "-"), after.get(key, "-"))
            for key in keys
            if before.get(key) != after.get(key)
        ]

    def machine_differences(self) -> list[tuple[str, str, str]]:
        return [
            diff for diff in self.manifest_differences() if diff[0].startswith(MACHINE_PREFIXES)
        ]


def _unresolved_kind(reason: str) -> str:
    if reason.startswith("one process"):
        return (
            "a side measured by one process: its interval holds for that process only "
            "(more processes, or --machine-noise, resolve it)"
        )
    if reason.startswith("resolution"):
        return "resolution wider than the threshold (more processes a side narrow it)"
    return (
        "the median moved beyond the threshold, but it or the processes' mean by less than the "
        "resolution"
    )


def geometric_mean_ratio(rows: list[RowComparison]) -> float | None:
    """Geometric mean of contender/baseline median times; FAILED rows' times do not count."""
    logs = [
        math.log1p(row.change)
        for row in rows
        if row.verdict is not Verdict.FAILED and math.isfinite(row.change) and row.change > -1
    ]
    return math.exp(sum(logs) / len(logs)) if logs else None


def _failure(baseline: Row, contender: Row) -> str | None:
    """Why a row FAILED: the contender's fault, or damaged figures on either side; else None."""
    reasons = []
    if (fault := contender.failure) is not None:
        reasons.append(f"contender {fault}")
    if baseline.defects:
        reasons.append(f"baseline {baseline.failure}")
    return "; ".join(reasons) or None


def _compare_row(
    key: str,
    baseline: Row,
    contender: Row,
    threshold: float,
    comparable: bool,
    paired: bool,
    machine_noise: MachineNoise | None = None,
) -> RowComparison | Unmatched:
    baseline_side = side_of(baseline.figures) if baseline.seconds else None
    contender_side = side_of(contender.figures) if contender.seconds else None
    judgement = None
    if baseline_side and contender_side and baseline_side.centre > 0:
        judging = judge_paired if paired else judge
        machine = machine_noise.spread_for(key) if machine_noise is not None else None
        judgement = judging(baseline.figures, contender.figures, threshold, machine)
    change = judgement.change if judgement is not None else math.nan

    def compared(verdict: Verdict, failure: str = "") -> RowComparison:
        return RowComparison(
            key,
            baseline,
            contender,
            threshold,
            change,
            verdict,
            baseline_side,
            contender_side,
            failure,
            judgement,
        )

    if (failure := _failure(baseline, contender)) is not None:
        return compared(Verdict.FAILED, failure)
    if baseline_side is None or not baseline_side.centre > 0:
        return Unmatched(key, f"no baseline time (baseline: {baseline.error or 'no repetitions'})")
    if contender_side is None or judgement is None:
        return Unmatched(key, "no contender time")
    if not comparable:
        return compared(Verdict.NOT_COMPARABLE)
    return compared(judgement.verdict)


def _family_p_value(row: RowComparison) -> float | None:
    """The row's p-value where it belongs to its section's family: its verdict is Welch's (not
    decided before it, as FAILED and NOT COMPARABLE are), and both sides have a spread."""
    if row.verdict in (Verdict.FAILED, Verdict.NOT_COMPARABLE):
        return None
    return row.p_value


def judged_together(rows: list[RowComparison]) -> tuple[list[RowComparison], FamilyLevel]:
    """The rows of one section, each member of the family judged again at the family's level
    (family_level.py); every other row as it was."""
    level = family_level([p for row in rows if (p := _family_p_value(row)) is not None])
    judged = []
    for row in rows:
        if _family_p_value(row) is None or row.judgement is None:
            judged.append(row)
            continue
        before = row.judgement
        again = judge_sides(before.baseline, before.contender, row.threshold, level.alpha)
        judged.append(replace(row, verdict=again.verdict, judgement=again))
    return judged, level


def _sort_key(row: RowComparison) -> tuple[int, float]:
    change = row.change if math.isfinite(row.change) else math.inf
    return VERDICT_ORDER.index(row.verdict), -change


def compare_runs(
    baseline: Run,
    contender: Run,
    thresholds: Thresholds | None = None,
    ignore_settings: bool = False,
    paired: bool = False,
    across_machines: bool = False,
    machine_noise: MachineNoise | None = None,
    row_filter: re.Pattern[str] | None = None,
) -> Comparison:
    """Raises MachineNoiseError when `machine_noise` was measured on another machine, and
    FilterError when `row_filter` selects no row of either run."""
    thresholds = thresholds or Thresholds()
    selection = None
    if row_filter is not None:
        baseline, contender, selection = select_rows(baseline, contender, row_filter)
    if machine_noise is not None:
        machine_noise.check_machine("baseline", baseline)
        machine_noise.check_machine("contender", contender)
    comparison = Comparison(
        baseline,
        contender,
        thresholds.default,
        ignore_settings=ignore_settings,
        across_machines=across_machines,
        machine_noise=machine_noise.path if machine_noise is not None else None,
        run_level_known=paired or (machine_noise is not None and len(machine_noise.runs) >= 2),
        selection=selection,
    )
    comparable = comparison.comparable
    for key, contender_row in contender.rows.items():
        baseline_row = baseline.rows.get(key)
        if baseline_row is None:
            failed = contender_row.failed
            reason = "only in contender" + (", and it FAILED" if failed else "")
            comparison.unmatched.append(Unmatched(key, reason, failed))
            continue
        threshold = thresholds.for_key(key)
        result = _compare_row(
            key, baseline_row, contender_row, threshold, comparable, paired, machine_noise
        )
        if isinstance(result, Unmatched):
            comparison.unmatched.append(result)
        else:
            comparison.rows.append(result)
    other_machine = not comparison.machines_comparable
    comparison.unmatched.extend(
        _missing(row, contender, other_machine)
        for key, row in baseline.rows.items()
        if key not in contender.rows
    )
    comparison.problems.extend(_empty_runs(baseline, contender, row_filter))
    benchmarks, comparison.families["benchmarks"] = judged_together(comparison.benchmarks)
    ceilings, comparison.families["ceilings"] = judged_together(comparison.ceilings)
    comparison.rows = sorted([*benchmarks, *ceilings], key=_sort_key)
    return comparison


def _empty_runs(baseline: Run, contender: Run, row_filter: re.Pattern[str] | None) -> list[str]:
    which = "no rows" if row_filter is None else "no rows that --filter selects"
    return [
        f"the {side} ({run.path}) has {which}: nothing was compared"
        for side, run in (("baseline", baseline), ("contender", contender))
        if not run.rows
    ]


def _skipped_by(key: str, run: Run) -> tuple[str, str] | None:
    """The family, and the reason, under which `run`'s machine skipped the row `key`, if any.

    Only families that name their rows (`multi_gpu/p2p_gather` runs `multi_gpu/p2p_gather/...`)
    can be matched: a family is not written beside its rows, so any other would be a guess."""
    return next(
        (
            (family, reason)
            for family, reason in run.skipped_families
            if key == family or key.startswith(family + "/")
        ),
        None,
    )


def _missing(baseline_row: Row, contender: Run, other_machine: bool = False) -> Unmatched:
    """A baseline row the contender lacks: a fail, unless a ceiling, skipped by its machine, or
    the contender's machine is another one (what a machine can run is its own)."""
    key = baseline_row.key
    if baseline_row.name.pattern == "ceilings":
        return Unmatched(key, "only in baseline (a ceiling: the machine's, never a failure)")
    if other_machine:
        return Unmatched(key, "only in baseline: the contender was measured on another machine")
    if (skipped := _skipped_by(key, contender)) is not None:
        family, reason = skipped
        why = f"only in baseline: the contender's machine skipped {family} ({reason})"
        return Unmatched(key, why)
    return Unmatched(
        key, "missing from the contender (in the baseline only)", failed=True, missing=True
    )


def format_seconds(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_change(change: float) -> str:
    return f"{change:+.1%}" if math.isfinite(change) else "-"


def format_ratio(ratio: float | None) -> str:
    return f"{ratio:.3f} ({ratio - 1:+.1%})" if ratio is not None else "-"


def format_processes(row: RowComparison) -> str:
    """'3/3': how many processes the row's figures rest on in the baseline and in the
    contender; '8/7+1': and how many more were set aside (a hypervisor took CPU from them)."""
    return "/".join(
        f"{count}+{aside}" if aside else str(count)
        for count, aside in zip(row.processes, row.set_aside, strict=True)
    )


def format_counts(comparison: Comparison, rows: list[RowComparison]) -> str:
    """ "3 SAME, 1 SLOWER": the verdicts of rows, counted; "none" without rows."""
    counts = comparison.verdict_counts(rows)
    return ", ".join(f"{count} {verdict.value}" for verdict, count in counts.items()) or "none"
