"""Many rows at once: the rows of a section judged together by Benjamini-Hochberg at 1%
(family_level.py), on made-up rows whose p-values are chosen, and through every format."""

from __future__ import annotations

import json
import math
import random

import pytest
from compare_fixtures import SINGLE_GPU, run_of
from scipy.special import stdtrit

from handoff_reports.compare import Comparison, compare_runs
from handoff_reports.compare_cli import main
from handoff_reports.compare_formats import format_json, format_markdown
from handoff_reports.compare_html import render_html
from handoff_reports.compare_stats import Verdict, judge
from handoff_reports.compare_text import format_report
from handoff_reports.family_level import family_level, format_level
from handoff_reports.process_level import log_difference, process_side, resolution
from handoff_reports.results import Repetition, Run

# Three processes a side whose log medians are -s, 0 and +s: a log spread of exactly s, so that
# SE = s·sqrt(2/3) and Welch's degrees of freedom are 4.
PROCESSES = (-1.0, 0.0, 1.0)
DEGREES_OF_FREEDOM = 4


def times(spread: float, log_shift: float = 0.0) -> list[float]:
    return [math.exp(log_shift + spread * z) for z in PROCESSES]


def shift_for(p_value: float, spread: float) -> float:
    """The log difference whose two-sided Welch p-value is `p_value` between two such sides."""
    standard_error = spread * math.sqrt(2 / 3)
    return float(stdtrit(DEGREES_OF_FREEDOM, 1 - p_value / 2)) * standard_error


def runs(shifts: dict[str, float], spread: float) -> tuple[Run, Run]:
    """A baseline and a contender in which row `key` moved by exp(shifts[key])."""
    baseline = run_of({key: times(spread) for key in shifts}, "a.json", processes=True)
    contender = run_of(
        {key: times(spread, shift) for key, shift in shifts.items()}, "b.json", processes=True
    )
    return baseline, contender


def keys(count: int, family: str = "made_up") -> list[str]:
    return [f"{family}/row/n:{i}" for i in range(count)]


# --- Benjamini-Hochberg by hand -----------------------------------------------------------------


def test_benjamini_hochberg_by_hand() -> None:
    # m = 5, q = 1%: thresholds 0.002, 0.004, 0.006, 0.008, 0.01. The third p-value is above
    # its 0.006, the fourth below its 0.008: k = 4, whatever the third.
    level = family_level([0.5, 0.007, 0.001, 0.0075, 0.003], q=0.01)
    assert (level.rows, level.rejected) == (5, 4)
    assert level.alpha == pytest.approx(0.008)
    none = family_level([0.005, 0.5, 0.9], q=0.01)
    assert none.rejected == 0 and none.alpha == pytest.approx(0.01 / 3)  # Bonferroni's level
    assert family_level([0.3], q=0.01).alpha == 0.01  # one row: judged as alone
    assert family_level([], q=0.01).rows == 0


def test_a_row_is_beyond_the_noise_at_a_level_exactly_when_its_p_value_is_below_it() -> None:
    generator = random.Random(3)
    for _ in range(500):
        baseline = times(generator.uniform(0.001, 0.1), generator.gauss(0, 0.01))
        contender = times(generator.uniform(0.001, 0.1), generator.gauss(0, 0.05))
        sides = [
            process_side([Repetition(t, process=f"{name}{i}") for i, t in enumerate(values)])
            for values, name in ((baseline, "b"), (contender, "c"))
        ]
        alpha = 10 ** generator.uniform(-6, -1)
        welch = resolution(*sides, alpha)
        assert welch is not None
        difference = log_difference(*sides)
        assert welch.resolves(difference) == (welch.p_value(difference) < alpha)


def test_levels_print_in_percent_without_an_exponent() -> None:
    assert [format_level(a) for a in (0.01, 0.0001, 0.01 / 268, 0.0096)] == [
        "1%",
        "0.01%",
        "0.0037%",
        "0.96%",
    ]


# --- made-up comparisons ------------------------------------------------------------------------


def test_an_a_a_of_100_rows_calls_none_of_the_rows_one_alone_would_call() -> None:
    # What two runs of one build give: p-values spread evenly over (0, 1), the smallest at
    # 0.005. Alone at 1%, that row (9.6% slower, processes 2% apart) reads SLOWER; among 100
    # rows of which none is beyond i·1%/100, every row is tested at Bonferroni's 1% / 100.
    spread = 0.02
    shifts = {key: shift_for((i + 0.5) / 100, spread) for i, key in enumerate(keys(100))}
    baseline, contender = runs(shifts, spread)
    first = keys(100)[0]
    alone = judge(baseline.rows[first].figures, contender.rows[first].figures, 0.03)
    assert alone.verdict is Verdict.SLOWER and alone.p_value == pytest.approx(0.005)
    comparison = compare_runs(baseline, contender)
    level = comparison.families["benchmarks"]
    assert (level.rows, level.rejected) == (100, 0)
    assert level.alpha == pytest.approx(0.0001)
    assert not {Verdict.SLOWER, Verdict.FASTER} & {row.verdict for row in comparison.rows}
    assert comparison.exit_code == 0
    row = next(row for row in comparison.rows if row.key == first)
    assert row.level == pytest.approx(0.0001) and row.verdict is Verdict.UNRESOLVED
    assert "each tested at α* = 0.01%" in format_report(comparison)


def test_100_rows_that_all_moved_at_p_0_005_are_all_called() -> None:
    # Benjamini-Hochberg is no Bonferroni: a hundred p-values of 0.005 are no chance (an A/A
    # gives about one), so all are beyond the noise and the family's level stays at 1%.
    spread = 0.02
    baseline, contender = runs({key: shift_for(0.005, spread) for key in keys(100)}, spread)
    comparison = compare_runs(baseline, contender)
    level = comparison.families["benchmarks"]
    assert (level.rows, level.rejected) == (100, 100) and level.alpha == pytest.approx(0.01)
    assert {row.verdict for row in comparison.rows} == {Verdict.SLOWER}


def test_20_of_40_rows_moved_10_percent_are_all_called_and_no_other() -> None:
    spread = 0.005
    moved, still = keys(20, "moved"), keys(20, "still")
    # The still rows wander by up to ±0.3% (p from about 0.3 to 1); the moved ones by 10%.
    shifts = {key: math.log(1.10) for key in moved}
    shifts |= {key: 0.003 * (i - 10) / 10 for i, key in enumerate(still)}
    comparison = compare_runs(*runs(shifts, spread))
    verdicts = {row.key: row.verdict for row in comparison.rows}
    assert {verdicts[key] for key in moved} == {Verdict.SLOWER}
    assert {verdicts[key] for key in still} == {Verdict.SAME}
    level = comparison.families["benchmarks"]
    assert (level.rows, level.rejected) == (40, 20) and level.alpha == pytest.approx(0.005)


@pytest.mark.parametrize("factor", [1.0, 1.02, 1.05, 1.10])
def test_a_comparison_of_one_row_is_judged_exactly_as_a_row_alone(factor: float) -> None:
    spread = 0.01
    key = "made_up/row/n:0"
    baseline, contender = runs({key: math.log(factor)}, spread)
    alone = judge(baseline.rows[key].figures, contender.rows[key].figures, 0.03)
    (row,) = compare_runs(baseline, contender).rows
    assert row.judgement is not None
    assert (row.verdict, row.resolution, row.judgement.reason) == (
        alone.verdict,
        alone.resolution,
        alone.reason,
    )
    assert row.level == 0.01


def test_rows_of_one_process_and_not_comparable_rows_stay_out_of_the_family() -> None:
    spread = 0.005
    baseline, contender = runs({key: 0.0 for key in keys(3)}, spread)
    single = {"single/row/n:0": [1.0]}
    baseline.rows |= run_of(single, "a.json").rows
    contender.rows |= run_of({"single/row/n:0": [1.2]}, "b.json").rows
    comparison = compare_runs(baseline, contender)
    assert comparison.families["benchmarks"].rows == 3
    row = next(row for row in comparison.rows if row.key == "single/row/n:0")
    assert row.verdict is Verdict.UNRESOLVED and row.p_value is None and row.level is None


def test_ceilings_are_a_family_of_their_own() -> None:
    spread = 0.005
    shifts = {key: math.log(1.10) for key in keys(2, "ceilings")}
    shifts |= {key: 0.0 for key in keys(8)}
    comparison = compare_runs(*runs(shifts, spread))
    benchmarks, ceilings = comparison.families["benchmarks"], comparison.families["ceilings"]
    assert (benchmarks.rows, benchmarks.rejected) == (8, 0)
    assert (ceilings.rows, ceilings.rejected) == (2, 2) and ceilings.alpha == pytest.approx(0.01)
    assert {row.verdict for row in comparison.ceilings} == {Verdict.SLOWER}
    assert comparison.exit_code == 0  # a slower ceiling never fails


# --- every format says it -----------------------------------------------------------------------


def _moved_comparison() -> Comparison:
    spread = 0.005
    shifts = {key: math.log(1.10) for key in keys(2)}
    shifts |= {key: 0.0 for key in keys(8, "still")}
    shifts |= {key: 0.0 for key in keys(4, "ceilings")}
    return compare_runs(*runs(shifts, spread))


def test_the_text_header_names_the_family_rule_and_its_level() -> None:
    lines = format_report(_moved_comparison()).splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("resolution:"))
    assert "the rows of each section are judged together" in lines[header]
    assert "each row is tested at its section's level α*" in lines[header]
    assert lines[header + 1 : header + 3] == [
        "  benchmarks: Benjamini-Hochberg at 1% over 10 rows, 2 beyond the noise: each tested at "
        "α* = 0.2%",
        "  ceilings: Benjamini-Hochberg at 1% over 4 rows, 0 beyond the noise: each tested at "
        "α* = 0.25%",
    ]


def test_json_carries_each_sections_family_and_each_rows_p_value() -> None:
    document = json.loads(format_json(_moved_comparison()))
    assert document["families"] == {
        "benchmarks": {"rule": "Benjamini-Hochberg", "q": 0.01, "m": 10, "k": 2, "alpha": 0.002},
        "ceilings": {"rule": "Benjamini-Hochberg", "q": 0.01, "m": 4, "k": 0, "alpha": 0.0025},
    }
    rows = {row["name"]: row for row in document["rows"]}
    moved = rows[keys(2)[0]]
    assert moved["verdict"] == "SLOWER" and moved["p_value"] < 0.002
    assert moved["level"] == pytest.approx(0.002)
    still = rows[keys(8, "still")[0]]
    assert still["p_value"] == 1.0 and still["level"] == pytest.approx(0.002)
    assert rows[keys(4, "ceilings")[0]]["level"] == pytest.approx(0.0025)


def test_json_of_one_process_rows_has_no_p_value_and_an_empty_family(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([str(SINGLE_GPU), str(SINGLE_GPU), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["families"]["benchmarks"]["m"] == 0
    assert {(row["p_value"], row["level"]) for row in document["rows"]} == {(None, None)}


def test_markdown_and_html_say_it_near_the_top() -> None:
    comparison = _moved_comparison()
    markdown = format_markdown(comparison)
    summary = markdown.split("<details>")[0]
    assert (
        "- rows judged together, so that two runs of one build call a row of a section in at "
        "most 1 comparison in 100: benchmarks: Benjamini-Hochberg at 1% over 10 rows, 2 beyond "
        "the noise: each tested at α* = 0.2%; ceilings: " in summary
    )
    html = render_html(comparison)
    top = html.split("<h2>")[0]
    assert 'id="families"' in top and "each tested at α* = 0.2%" in top
