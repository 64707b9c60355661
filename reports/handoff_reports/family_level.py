"""Many rows at once: the level at which the rows of one comparison are judged together.

One row's test, alone, calls a change where there is none at the rate ALPHA (1%). A comparison
judges some three hundred rows, so two runs of one build would call a few of them every time by
chance alone. The rows of one section (the benchmarks; the ceilings) are therefore one family,
and Benjamini and Hochberg's procedure holds the expected share of false calls among the family's
calls at q = ALPHA:

- with the m rows' two-sided p-values sorted ascending, k is the largest i with p_(i) <= i·q/m,
  0 where there is none;
- every row of the family is then judged at the one level α* = q·max(k, 1)/m: its half width is
  the t quantile at α* times its standard error, its resolution exp() of that minus 1.

The rows beyond the noise at α* are exactly the k that the procedure rejects (a p-value at most
α* has a rank of at most k). Where none is rejected, α* is Bonferroni's q/m: the stated
resolutions are then the smallest changes this comparison as a whole could have called. The more
rows really moved, the larger k and the closer α* comes to q, so real changes keep their power.
A family of one row is judged at q: the rule of a row judged alone.

Rows judged another way stay out of the family: a side of one process with no spread known for
it (no p-value), rows judged by pairs taken in turn, FAILED and NOT COMPARABLE rows.
(Y. Benjamini and Y. Hochberg, "Controlling the false discovery rate: a practical and powerful
approach to multiple testing", J. R. Statist. Soc. B 57, 1995.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from handoff_reports.process_level import ALPHA

RULE = "Benjamini-Hochberg"


@dataclass(frozen=True)
class FamilyLevel:
    """What Benjamini-Hochberg made of one family's p-values."""

    q: float  # the share of false calls among the calls the family is held to
    rows: int  # m: how many rows were judged together
    rejected: int  # k: how many of them are beyond the noise at the family's level

    @property
    def alpha(self) -> float:
        """α* = q·max(k, 1)/m: the two-sided level every row of the family is tested at (q
        where the family is empty: nothing is tested at it)."""
        return self.q * max(self.rejected, 1) / self.rows if self.rows else self.q

    def describe(self, noun: str = "rows") -> str:
        """One line: 'Benjamini-Hochberg at 1% over 250 rows, 0 beyond the noise: each tested
        at α* = 0.004%'."""
        if not self.rows:
            return f"no {noun} judged together (none is judged by Welch's t)"
        return (
            f"{RULE} at {format_level(self.q)} over {self.rows} {noun}, {self.rejected} beyond "
            f"the noise: each tested at α* = {format_level(self.alpha)}"
        )


def format_level(alpha: float) -> str:
    """A two-sided level in percent to two significant digits, never in exponent form: a
    Bonferroni level of a few hundred rows is thousandths of a percent."""
    digits = np.format_float_positional(
        100 * alpha, precision=2, unique=False, fractional=False, trim="-"
    )
    return f"{digits}%"


def family_level(p_values: Sequence[float], q: float = ALPHA) -> FamilyLevel:
    """Benjamini-Hochberg at `q` over the p-values of one family's rows."""
    m = len(p_values)
    ordered = sorted(p_values)
    k = max((i for i, p in enumerate(ordered, start=1) if p <= i * q / m), default=0)
    return FamilyLevel(q, m, k)
