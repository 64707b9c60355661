"""compare --filter: the rows of two runs that a benchmark filter selects, and how many of each
run's that is, so that every format can say first what was compared."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from handoff_reports.input_files import InputError
from handoff_reports.names import selected_by
from handoff_reports.results import Run


class FilterError(InputError):
    """A filter that selects no row of either run: nothing would be compared."""


@dataclass(frozen=True)
class RowSelection:
    pattern: str
    baseline: tuple[int, int]  # (rows selected, rows in the file)
    contender: tuple[int, int]

    @property
    def line(self) -> str:
        return (
            f"compared only the rows --filter '{self.pattern}' selects: {self.baseline[0]} of "
            f"the baseline's {self.baseline[1]} and {self.contender[0]} of the contender's "
            f"{self.contender[1]}, judged together among themselves"
        )


def _selected(run: Run, named: re.Pattern[str]) -> Run:
    return replace(run, rows={key: row for key, row in run.rows.items() if selected_by(named, key)})


def select_rows(
    baseline: Run, contender: Run, named: re.Pattern[str]
) -> tuple[Run, Run, RowSelection]:
    """Both runs with only the rows `named` selects, and how many that kept of each. Raises
    FilterError where it keeps none of either."""
    kept_baseline, kept_contender = _selected(baseline, named), _selected(contender, named)
    if not kept_baseline.rows and not kept_contender.rows:
        raise FilterError(
            f"--filter '{named.pattern}' selects no row of either run (the baseline has "
            f"{len(baseline.rows)}, the contender {len(contender.rows)})"
        )
    selection = RowSelection(
        named.pattern,
        (len(kept_baseline.rows), len(baseline.rows)),
        (len(kept_contender.rows), len(contender.rows)),
    )
    return kept_baseline, kept_contender, selection
