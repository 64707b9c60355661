import math
import re
import statistics
from pathlib import Path

import pytest

from handoff_reports.claims_file import load_claims
from handoff_reports.results import by_process, load_results
from handoff_reports.wide_rows import (
    Candidate,
    Tier,
    benchmark_filter,
    candidates,
    claimed_by,
    main,
    outside_rows,
    row_cost,
    within_budget,
)

EIGHT_PROCESSES = Path(__file__).parent / "fixtures" / "real" / "h200-headline-8-processes-a.json"
POOL_SEED = "pool_prep/seed/chunks:10/elements:1048576/workers:4/start:warm"


def _spread(row) -> float:
    return statistics.stdev(math.log(p.seconds) for p in by_process(row.repetition_figures))


def _never(key: str) -> bool:
    return False


def test_only_rows_that_spread_more_than_the_least_are_candidates():
    rows = load_results(EIGHT_PROCESSES).rows
    chosen = {c.key: c for c in candidates(rows.values(), 0.01, _never)}
    # An HBM copy timed by CUDA events: its eight processes agree to a fraction of a percent.
    assert "ceilings/hbm_device_copy/method:memcpy/bytes:268435456" not in chosen
    assert chosen, "a real run of eight processes has rows that spread by more than 1%"
    for key, row in rows.items():
        if key in chosen:
            assert chosen[key].spread > 0.01
        elif _spread(row) > 0.011:
            pytest.fail(f"{key} spreads by {_spread(row):.3f} and is not a candidate")


def test_a_named_row_earns_processes_however_little_it_spreads():
    rows = load_results(EIGHT_PROCESSES).rows
    steady = "ceilings/hbm_device_copy/method:memcpy/bytes:268435456"
    assert _spread(rows[steady]) < 0.01
    named = {c.key: c for c in candidates(rows.values(), 0.01, lambda key: key == steady)}
    assert named[steady].tier is Tier.HEADLINE


def test_headline_rows_then_claims_rows_each_cheapest_first_then_the_widest():
    rows = load_results(EIGHT_PROCESSES).rows.values()
    ordered = candidates(
        rows,
        0.01,
        lambda key: key.startswith("tensor_transfer/"),
        lambda key: key.startswith("pool_prep/"),
    )
    tiers = [c.tier for c in ordered]
    assert tiers == sorted(tiers), "headline rows, then claims' rows, then the others"
    assert set(tiers) == {Tier.HEADLINE, Tier.CLAIM, Tier.SPREAD}
    for tier in (Tier.HEADLINE, Tier.CLAIM):
        costs = [c.seconds for c in ordered if c.tier is tier]
        assert costs == sorted(costs)
    spreads = [c.spread for c in ordered if c.tier is Tier.SPREAD]
    assert spreads == sorted(spreads, reverse=True)


def test_a_headline_row_is_never_crowded_out_by_a_cheaper_claims_row():
    ordered = sorted(
        [
            Candidate("claimed_cheap", 0.05, Tier.CLAIM, 1.0),
            Candidate("headline_dear", 0.01, Tier.HEADLINE, 3.0),
        ],
        key=Candidate.order,
    )
    assert within_budget(ordered, 1, 3.5, 0.0) == ["headline_dear"]


def test_the_claims_rows_are_named_first():
    is_claimed = claimed_by(load_claims())
    assert is_claimed(POOL_SEED)
    assert is_claimed("tensor_transfer/pipe/memory:device/bytes:268435456/start:warm")
    assert not is_claimed("ceilings/hbm_device_copy/method:memcpy/bytes:268435456")


def test_the_budget_takes_rows_in_order_and_passes_over_what_does_not_fit():
    ordered = [
        Candidate("first", 0.05, Tier.HEADLINE, 2.0),
        Candidate("too_dear", 0.30, Tier.SPREAD, 50.0),
        Candidate("cheap", 0.10, Tier.SPREAD, 1.0),
        Candidate("last", 0.02, Tier.SPREAD, 1.0),
    ]
    # Five processes pay 10 s of their own, five of "first" 10 s more, of "cheap" 5 s: 25 of 28.
    assert within_budget(ordered, 5, 28.0, 2.0) == ["cheap", "first"]
    assert within_budget(ordered, 5, 30.0, 2.0) == ["cheap", "first", "last"]
    # The processes' own time alone is past the budget: nothing fits.
    assert within_budget(ordered, 5, 9.0, 2.0) == []
    assert within_budget(ordered, 5, None, 2.0) == ["cheap", "first", "last", "too_dear"]


def test_a_rows_cost_and_what_a_process_spends_outside_its_rows_come_from_the_file():
    rows = list(load_results(EIGHT_PROCESSES).rows.values())
    costs = [row_cost(row) for row in rows]
    assert all(cost > 0 for cost in costs), "every row of a timed run says what it took"
    assert outside_rows(rows, sum(costs) + 3.0) == pytest.approx(3.0)
    assert outside_rows(rows, 0.0) == 0.0


def test_the_filter_selects_exactly_the_chosen_rows_with_or_without_the_timer_suffix():
    keys = ["tensor_transfer/pipe/memory:device/bytes:4194304/start:warm", "iterative/graph/u:1"]
    pattern = re.compile(benchmark_filter(keys))
    assert pattern.search("tensor_transfer/pipe/memory:device/bytes:4194304/start:warm/manual_time")
    assert pattern.search("iterative/graph/u:1")
    assert not pattern.search("tensor_transfer/pipe/memory:device/bytes:4194304/start:cold")
    assert not pattern.search("iterative/graph/u:16")
    assert not pattern.search("x/iterative/graph/u:1")
    assert benchmark_filter([]) == ""


def test_the_command_prints_the_filter_within_the_time_it_is_given(capsys):
    assert main([str(EIGHT_PROCESSES)]) == 0
    everything = capsys.readouterr().out.strip()
    assert everything.startswith("^(") and everything.endswith(")(/[a-z_]+_time)?$")
    assert main([str(EIGHT_PROCESSES), "--processes", "5", "--seconds", "20"]) == 0
    printed = capsys.readouterr()
    budgeted = printed.out.strip()
    assert budgeted and len(budgeted) < len(everything)
    assert "fit 5 more processes in 20 s" in printed.err
    assert main([str(EIGHT_PROCESSES), "--processes", "5", "--seconds", "0"]) == 0
    assert capsys.readouterr().out.strip() == ""


def test_first_rows_are_matched_as_benchmark_names_are(capsys):
    headline = "^iterative/graph/unknowns:16777216/"
    assert main([str(EIGHT_PROCESSES), "--first", headline, "--above", "0.99"]) == 0
    chosen = re.compile(capsys.readouterr().out.strip())
    assert chosen.search("iterative/graph/unknowns:16777216/iterations:100/manual_time")
    assert chosen.search(POOL_SEED + "/manual_time"), "a claim's row comes first too"
    assert not chosen.search("ceilings/hbm_device_copy/method:memcpy/bytes:268435456/manual_time")


def test_rows_already_chosen_stay_in_the_filter_and_out_of_the_choice(capsys):
    assert main([str(EIGHT_PROCESSES), "--processes", "5", "--seconds", "20"]) == 0
    first_choice = capsys.readouterr().out.strip()
    chosen = re.compile(first_choice)
    rows = load_results(EIGHT_PROCESSES).rows
    kept = {key for key in rows if chosen.search(key)}
    # No time left: the filter is the rows already chosen, exactly.
    assert main([str(EIGHT_PROCESSES), "--also", first_choice, "--seconds", "0"]) == 0
    assert capsys.readouterr().out.strip() == first_choice
    # Time for more: the filter grows, and keeps every row chosen before.
    assert main([str(EIGHT_PROCESSES), "--also", first_choice, "--seconds", "20"]) == 0
    grown = re.compile(capsys.readouterr().out.strip())
    now = {key for key in rows if grown.search(key)}
    assert kept < now


def test_the_command_refuses_what_makes_no_sense(capsys):
    for wrong in (
        ["--above", "2"], ["--processes", "0"], ["--seconds", "-1"], ["--first", "("],
        ["--also", "["],
    ):  # fmt: skip
        with pytest.raises(SystemExit):
            main([str(EIGHT_PROCESSES), *wrong])


def test_a_damaged_file_is_a_clear_error(tmp_path, capsys):
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"context": {}, "benchmarks": "none"}')
    assert main([str(damaged)]) == 2
    assert "handoff-wide-rows:" in capsys.readouterr().err
