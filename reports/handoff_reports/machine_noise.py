"""`compare --machine-noise FILE`: each row's between-process spread, measured earlier on this
machine, for a side that was measured by a single process.

FILE is a results JSON of several processes (typically a merged multi-process run, as ci/bench
writes). For each row measured by two processes or more it gives that row's process-level spread
s and its process count n (process_level.own_spread); a single-process side of that row then uses
s, with n - 1 degrees of freedom, instead of being UNRESOLVED. A spread belongs to its machine:
a file from another machine (machines.py) is refused, and so is a file with no row of two
processes or more, since it holds no spread at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from handoff_reports.machines import describe_changes, machine_changes
from handoff_reports.process_level import Spread, own_spread
from handoff_reports.results import ResultsError, Run, load_results


class MachineNoiseError(ResultsError):
    """A machine-noise file that cannot serve: from another machine, or without spreads."""


@dataclass(frozen=True)
class MachineNoise:
    path: str
    run: Run
    spreads: dict[str, Spread]  # by row key: the rows measured by two processes or more

    def spread_for(self, key: str) -> Spread | None:
        return self.spreads.get(key)

    def check_machine(self, side: str, run: Run) -> None:
        """Raises MachineNoiseError when `run` was measured on another machine than this file."""
        changes = machine_changes(self.run.context, run.context)
        if changes:
            raise MachineNoiseError(
                f"--machine-noise {self.path}: measured on another machine than the {side} "
                f"({describe_changes(changes)}): its spreads do not hold there"
            )


def load_machine_noise(path: str | Path) -> MachineNoise:
    run = load_results(path)
    spreads: dict[str, Spread] = {}
    for key, row in run.rows.items():
        if row.failed or not row.seconds:
            continue  # a wrong or damaged row's spread is no evidence of the machine's
        spread = own_spread(row.processes)
        if spread is not None:
            source = f"machine noise from {path} ({spread.processes} processes)"
            spreads[key] = Spread(spread.sd, spread.processes, source)
    if not spreads:
        raise MachineNoiseError(
            f"--machine-noise {path}: no row was measured by two processes or more, so it "
            "holds no between-process spread"
        )
    return MachineNoise(str(path), run, spreads)
