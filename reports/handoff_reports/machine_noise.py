"""`compare --machine-noise FILE [--machine-noise FILE ...]`: each row's spread, measured earlier
on this machine.

Each FILE is one run: a results JSON of several processes (a merged multi-process run, as ci/bench
writes). For each row they give:

- the spread between processes of one run: the standard deviation of the log process medians,
  pooled over the files (each file's variance weighted by its degrees of freedom), with their
  degrees of freedom together (process_level.own_spread, per file). A side of a single process uses
  it instead of being UNRESOLVED; a side of several pools it with its own (process_level.py);
- with two files or more, how far a whole run moves: the variance of the files' mean log medians,
  with one degree of freedom fewer than the files. The processes of one run are measured back to
  back and share its minute (the machine's state, its neighbours), which no count of them averages
  away; the resolution adds this variance for each side (process_level.resolution). It is taken
  whole, not less the part the files' own process spread would explain: with a few files that
  difference is often zero, and whole runs then counted as never moving beyond their processes,
  which a rare slow minute disproves (docs/design/comparing-runs.md, "Runs that move"). Whole,
  it counts the processes' part a second time: a resolution a little wider than it need be, where
  runs hardly move.

A spread belongs to its machine: a file from another machine (machines.py) is refused, and so is a
set of files with no row of two processes or more, since it holds no spread at all.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from handoff_reports.machines import describe_changes, machine_changes
from handoff_reports.process_level import Spread, own_spread, set_aside_stolen
from handoff_reports.results import ProcessFigure, ResultsError, Run, load_results


class MachineNoiseError(ResultsError):
    """A machine-noise file that cannot serve: from another machine, or without spreads."""


@dataclass(frozen=True)
class MachineNoise:
    path: str  # the files, in words
    runs: tuple[Run, ...]
    spreads: dict[str, Spread]  # by row key: the rows measured by two processes or more

    @property
    def run(self) -> Run:
        return self.runs[0]

    def spread_for(self, key: str) -> Spread | None:
        return self.spreads.get(key)

    def check_machine(self, side: str, run: Run) -> None:
        """Raises MachineNoiseError when `run` was measured on another machine than these files."""
        for noise in self.runs:
            changes = machine_changes(noise.context, run.context)
            if changes:
                raise MachineNoiseError(
                    f"--machine-noise {noise.path}: measured on another machine than the {side} "
                    f"({describe_changes(changes)}): its spreads do not hold there"
                )


def _row_spread(per_run: list[list[ProcessFigure]], where: str) -> Spread | None:
    """One row's spread from its processes in each run (a run's list may be empty)."""
    measured = [processes for processes in per_run if processes]
    own = [spread for processes in measured if (spread := own_spread(processes)) is not None]
    if not own:
        return None
    degrees = sum(spread.degrees_of_freedom for spread in own)
    variance = sum(spread.degrees_of_freedom * spread.sd**2 for spread in own) / degrees
    processes = sum(len(p) for p in measured)
    runs = len(measured)
    run_sd = 0.0
    if runs >= 2:
        means = [statistics.fmean(math.log(p.seconds) for p in processes) for processes in measured]
        run_sd = statistics.stdev(means)
    counted = f"{processes} processes" + (f" in {runs} runs" if runs >= 2 else "")
    return Spread(
        math.sqrt(variance), degrees + 1, f"machine noise from {where} ({counted})", run_sd, runs
    )


def load_machine_noise(paths: str | Path | Sequence[str | Path]) -> MachineNoise:
    listed = [paths] if isinstance(paths, (str, Path)) else list(paths)
    runs = tuple(load_results(path) for path in listed)
    for later in runs[1:]:
        changes = machine_changes(runs[0].context, later.context)
        if changes:
            raise MachineNoiseError(
                f"--machine-noise {later.path}: measured on another machine than "
                f"{runs[0].path} ({describe_changes(changes)})"
            )
    where = ", ".join(str(path) for path in listed)
    keys = {key for run in runs for key in run.rows}
    spreads: dict[str, Spread] = {}
    for key in sorted(keys):
        per_run = []
        for run in runs:
            row = run.rows.get(key)
            # A wrong or damaged row's spread is no evidence of the machine's.
            usable = row is not None and not row.failed and bool(row.seconds)
            per_run.append(set_aside_stolen(row.processes)[0] if row is not None and usable else [])
        spread = _row_spread(per_run, where)
        if spread is not None:
            spreads[key] = spread
    if not spreads:
        raise MachineNoiseError(
            f"--machine-noise {where}: no row was measured by two processes or more, so it "
            "holds no between-process spread"
        )
    return MachineNoise(where, runs, spreads)
