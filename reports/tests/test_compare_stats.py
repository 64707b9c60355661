import math
import random
import statistics

import pytest
from compare_fixtures import run_of
from scipy.stats import t as student_t

from handoff_reports.compare import compare_runs, geometric_mean_ratio
from handoff_reports.compare_stats import (
    MANY_REPETITIONS,
    Thresholds,
    Verdict,
    format_noise,
    judge,
    judge_paired,
    lower_rank_of_median_interval,
    side_of,
)
from handoff_reports.process_level import Z_95, Spread, process_side
from handoff_reports.results import Repetition

BASE = [1.00, 1.01, 0.99, 1.02, 0.98]


def rep(
    seconds: float, noise: float | None = None, noisy: bool = False, process: str | None = None
) -> Repetition:
    """A repetition with median `seconds` and an interval `noise` either side (None: none)."""
    if noise is None:
        return Repetition(seconds, process=process)
    return Repetition(
        seconds, seconds * (1 - noise), seconds * (1 + noise), noise, 50, noisy, process=process
    )


def processes(times: list[float], noise: float | None = 0.001, side: str = "p") -> list[Repetition]:
    """One repetition per process, each with its own token."""
    return [rep(t, noise, process=f"{side}{i}") for i, t in enumerate(times)]


# --- the display side: each run's median of repetitions and its interval ------------------------


def test_side_is_the_median_of_medians_and_the_widest_interval():
    side = side_of([rep(1.0, 0.01), rep(1.1, 0.01), rep(1.05, 0.2)])
    assert side.centre == pytest.approx(1.05)
    assert (side.low, side.high) == pytest.approx((0.84, 1.26))
    assert side.has_interval and not side.noisy
    assert side.noise == pytest.approx(0.2)
    assert format_noise(side) == "±20.0%"


def test_side_interval_takes_in_every_repetitions_median():
    # Two tight passes far apart: the spread between passes is noise too.
    side = side_of([rep(1.0, 0.001), rep(1.2, 0.001)])
    assert (side.low, side.high) == pytest.approx((0.999, 1.2012))


def test_side_without_intervals_is_the_range_of_the_medians():
    side = side_of([1.0, 1.3, 0.7])
    assert (side.centre, side.low, side.high, side.has_interval) == (1.0, 0.7, 1.3, False)


# Nine passes of a row at about 1.0, two of them caught in a burst of outside load.
CLEAN = [0.99, 1.0, 1.01, 0.995, 1.005, 1.0, 0.998, 1.4, 1.7]


@pytest.mark.parametrize(
    ("n", "rank"), [(1, 0), (5, 0), (6, 1), (8, 1), (9, 2), (10, 2), (17, 5), (100, 40)]
)
def test_median_interval_ranks_match_the_binomial_table(n, rank):
    # The same ranks as handoff_bench's lower_rank_of_median_interval (tests/cpu/sampling_test.cpp).
    assert lower_rank_of_median_interval(n) == rank


def test_a_side_of_many_passes_shows_the_median_with_its_interval_over_passes():
    side = side_of([rep(t, 0.001) for t in CLEAN])
    assert len(CLEAN) == MANY_REPETITIONS
    assert side.centre == pytest.approx(1.0)
    # Ranks 2 and 8 of 9: the burst's highest pass is left out, its second sets the upper end.
    assert (side.low, side.high) == pytest.approx((0.995, 1.4))
    assert side.between == pytest.approx(0.71)
    assert not side_of([rep(t, 0.05, noisy=True) for t in CLEAN]).noisy


# --- the process level --------------------------------------------------------------------------


def test_repetitions_of_one_process_are_one_process():
    # --handoff-passes=3 in one process: three repetitions, one token, one process.
    side = process_side([rep(t, 0.001, process="only") for t in (1.0, 1.2, 1.1)])
    assert side.count == 1 and side.spread is None
    assert side.centre == pytest.approx(1.1)
    assert side.source == "none: one process"


def test_old_repetitions_without_tokens_are_the_files_one_process():
    assert process_side([rep(1.0), rep(1.3), rep(0.7)]).count == 1


def test_the_centre_is_the_median_of_the_process_medians():
    # Process a ran three passes, b and c one each: the median over processes, not passes.
    figures = [rep(1.0, process="a"), rep(1.0, process="a"), rep(1.0, process="a")]
    figures += [rep(2.0, process="b"), rep(3.0, process="c")]
    side = process_side(figures)
    assert [p.seconds for p in side.processes] == [1.0, 2.0, 3.0]
    assert side.centre == 2.0
    assert side.spread is not None and side.spread.source == "this run's 3 processes"


def test_the_within_process_noise_floors_the_spread():
    # Three processes that agree to the last digit, each measured to ±1.96%: s is 1%, not 0.
    side = process_side(processes([1.0, 1.0, 1.0], noise=0.01 * Z_95))
    assert side.spread is not None and side.spread.sd == pytest.approx(0.01)
    spread_out = process_side(processes([1.0, 1.1, 0.9], noise=0.01 * Z_95))
    assert spread_out.spread is not None
    logs = [math.log(1.0), math.log(1.1), math.log(0.9)]
    assert spread_out.spread.sd == pytest.approx(statistics.stdev(logs))


def test_a_machine_spread_is_pooled_with_the_sides_own_by_their_degrees_of_freedom():
    logs = [math.log(1.0), math.log(1.004), math.log(0.996)]
    own = statistics.stdev(logs)
    machine = Spread(0.01, 9, "machine noise from m.json (9 processes)")
    side = process_side(processes([1.0, 1.004, 0.996], None), machine)
    assert side.spread is not None
    # (2 s_own^2 + 8 s_machine^2) / 10, with 10 degrees of freedom.
    assert side.spread.sd == pytest.approx(math.sqrt((2 * own**2 + 8 * 0.01**2) / 10))
    assert side.spread.degrees_of_freedom == 10
    assert side.spread.source == (
        "this run's 3 processes, pooled with machine noise from m.json (9 processes)"
    )
    # Never below what each process could measure itself.
    floored = process_side(processes([1.0, 1.0, 1.0], noise=0.05 * Z_95), machine)
    assert floored.spread is not None and floored.spread.sd == pytest.approx(0.05)
    # Nor below the side's own spread: the machine lends freedom, not steadiness.
    scattered = process_side(processes([1.0, 1.0, 1.6], None), machine)
    assert scattered.spread is not None
    own_scatter = statistics.stdev([0.0, 0.0, math.log(1.6)])
    assert scattered.spread.sd == pytest.approx(own_scatter)
    assert scattered.spread.degrees_of_freedom == 10


def test_the_spread_between_runs_adds_to_the_standard_error_with_its_own_freedom():
    from handoff_reports.process_level import resolution, t_quantile

    logs = [math.log(1.0), math.log(1.02), math.log(0.98)]
    own = statistics.stdev(logs)
    machine = Spread(own, 3, "machine noise from r1.json, r2.json, r3.json", 0.05, 3)
    baseline = process_side(processes([1.0, 1.02, 0.98], None, "b"), machine)
    contender = process_side(processes([1.0, 1.02, 0.98], None, "c"), machine)
    welch = resolution(baseline, contender)
    assert welch is not None
    process_term = own**2 / 3  # pooled with an equal spread: the same variance, more freedom
    run_term = 2 * 0.05**2
    assert welch.standard_error == pytest.approx(math.sqrt(2 * process_term + run_term))
    # Welch-Satterthwaite over the three terms: two sides of 4 degrees each, runs of 2.
    expected_df = (2 * process_term + run_term) ** 2 / (2 * process_term**2 / 4 + run_term**2 / 2)
    assert welch.degrees_of_freedom == pytest.approx(expected_df)
    assert welch.t == pytest.approx(t_quantile(expected_df))
    # Without the runs' spread the same sides resolve far finer.
    alone = resolution(process_side(processes([1.0, 1.02, 0.98], None, "b")),
                       process_side(processes([1.0, 1.02, 0.98], None, "c")))  # fmt: skip
    assert alone is not None and alone.standard_error < welch.standard_error


def test_the_resolution_is_welchs_t_at_99_percent_by_hand():
    baseline = [1.00, 1.01, 0.99]
    contender = [1.10, 1.12, 1.08, 1.11]
    judgement = judge(processes(baseline, None, "b"), processes(contender, None, "c"), 0.03)
    logs_b = [math.log(t) for t in baseline]
    logs_c = [math.log(t) for t in contender]
    vb = statistics.variance(logs_b) / 3
    vc = statistics.variance(logs_c) / 4
    df = (vb + vc) ** 2 / (vb**2 / 2 + vc**2 / 3)
    expected = math.exp(student_t.ppf(0.995, df) * math.sqrt(vb + vc)) - 1
    assert judgement.resolution == pytest.approx(expected)
    assert judgement.verdict is Verdict.SLOWER


def test_a_planted_5_percent_on_rows_of_half_a_percent_spread_is_slower():
    # Three processes a side whose log medians have a standard deviation of 0.5%.
    spread = [math.exp(0.005 * z) for z in (-1.0, 0.0, 1.0)]
    judgement = judge(processes(spread, 0.002, "b"), processes([1.05 * t for t in spread]), 0.03)
    assert judgement.verdict is Verdict.SLOWER
    assert judgement.resolution is not None and judgement.resolution < 0.05
    assert judgement.resolution == pytest.approx(0.0190, abs=0.0005)


def test_an_a_a_of_multi_process_sides_is_never_slower_or_faster():
    # Two runs of one build, each three processes whose medians fall alike: nothing moved.
    for spread in (0.002, 0.01, 0.05, 0.3):
        medians = [math.exp(spread * z) for z in (-1.0, 0.0, 1.0)]
        again = [math.exp(spread * z) for z in (0.5, -1.0, 0.5)]
        verdict = judge(processes(medians, 0.001, "b"), processes(again, 0.001, "c"), 0.03)
        assert verdict.verdict in (Verdict.SAME, Verdict.UNRESOLVED), (spread, verdict)


def test_random_a_a_pairs_are_called_no_more_often_than_the_confidence_allows():
    # Runs of one build whose processes scatter at random: a 99% rule calls at most about 1% of
    # them, and only where the scatter is wide enough to move the median beyond the threshold.
    generator = random.Random(7)
    called = {spread: 0 for spread in (0.002, 0.01, 0.05, 0.3)}
    trials = 400
    for spread in called:
        for _ in range(trials):
            baseline = [math.exp(generator.gauss(0, spread)) for _ in range(3)]
            again = [math.exp(generator.gauss(0, spread)) for _ in range(3)]
            verdict = judge(processes(baseline, 0.001, "b"), processes(again, 0.001, "c"), 0.03)
            called[spread] += verdict.verdict in (Verdict.SLOWER, Verdict.FASTER)
    assert called[0.002] == called[0.01] == 0
    assert all(count <= 0.015 * trials for count in called.values()), called


def test_a_single_process_side_is_unresolved_with_the_reason():
    judgement = judge([rep(1.0, 0.001)], [rep(2.0, 0.001)], 0.03)
    assert judgement.verdict is Verdict.UNRESOLVED and judgement.resolution is None
    assert judgement.reason == (
        "one process (baseline and contender): its interval holds for that process only"
    )
    one_side = judge(processes([1.0, 1.0, 1.0]), [rep(1.5, 0.001)], 0.03)
    assert one_side.verdict is Verdict.UNRESOLVED
    assert one_side.reason.startswith("one process (contender):")
    assert one_side.spread_sources == ("this run's 3 processes", "none: one process")


def test_a_machine_spread_turns_a_single_process_into_a_verdict():
    machine = Spread(0.004, 9, "machine noise from m.json (9 processes)")
    judgement = judge([rep(1.0, 0.001)], [rep(1.2, 0.001)], 0.03, machine)
    assert judgement.verdict is Verdict.SLOWER
    assert judgement.spread_sources == (machine.source, machine.source)
    assert judgement.resolution is not None and judgement.resolution < 0.03
    assert judge([rep(1.0, 0.001)], [rep(1.01, 0.001)], 0.03, machine).verdict is Verdict.SAME
    # A side of several processes pools its own spread with the machine's.
    mixed = judge(processes([1.0, 1.01, 0.99]), [rep(1.2, 0.001)], 0.03, machine)
    pooled = f"this run's 3 processes, pooled with {machine.source}"
    assert mixed.spread_sources == (pooled, machine.source)


def test_a_side_too_wide_for_the_threshold_is_unresolved():
    judgement = judge(processes([1.0, 1.3, 0.7], side="b"), processes([1.2, 1.21, 1.19]), 0.03)
    assert judgement.verdict is Verdict.UNRESOLVED
    assert judgement.resolution is not None and judgement.resolution > 0.03
    assert judgement.reason == (
        f"resolution ±{judgement.resolution:.1%} wider than the threshold (0.03)"
    )


def test_no_row_is_called_with_its_shown_change_inside_its_resolution():
    # Five processes near +3.5% and four near +12%: the processes' mean moves beyond the
    # resolution, but the median, the change shown, stays within it. The rule once called this
    # SLOWER; the change a reader sees must clear the resolution too.
    baseline = processes([1.0, 1.001, 0.999, 1.0, 1.001, 0.999, 1.0, 1.001, 0.999], side="b")
    contender = processes([1.035] * 5 + [1.12] * 4, side="c")
    judgement = judge(baseline, contender, 0.03)
    assert judgement.change == pytest.approx(0.035, abs=1e-9)
    assert judgement.resolution is not None and judgement.resolution > judgement.change
    mean_log_change = (5 * math.log(1.035) + 4 * math.log(1.12)) / 9
    assert math.expm1(mean_log_change) > judgement.resolution
    assert judgement.verdict is Verdict.UNRESOLVED


def test_a_fall_shows_the_resolution_of_a_fall_and_clears_it():
    # A symmetric log interval of ±h lets a rise through past exp(h) - 1 but a fall already past
    # 1 - exp(-h), which is smaller: the fall must print the latter, or a FASTER row would show a
    # change inside its own printed resolution.
    baseline = processes([1.00, 1.02, 0.98, 1.01, 0.99], side="b")
    rise = judge(baseline, processes([1.20, 1.22, 1.18, 1.21, 1.19], side="c"), 0.03)
    fall = judge(processes([1.20, 1.22, 1.18, 1.21, 1.19], side="b"),
                 processes([1.00, 1.02, 0.98, 1.01, 0.99], side="c"), 0.03)  # fmt: skip
    assert rise.verdict is Verdict.SLOWER and fall.verdict is Verdict.FASTER
    assert rise.welch is not None and fall.welch is not None
    h = fall.welch.half_width
    assert rise.resolution == pytest.approx(math.expm1(h))
    assert fall.resolution == pytest.approx(-math.expm1(-h))
    assert fall.resolution < rise.resolution
    for called in (rise, fall):
        assert called.resolution is not None and abs(called.change) > called.resolution


def test_a_change_within_a_resolved_threshold_is_same():
    tight = judge(processes([1.0, 1.001, 0.999], side="b"), processes([1.02, 1.021, 1.019]), 0.03)
    assert tight.verdict is Verdict.SAME and tight.resolution is not None
    assert tight.resolution < 0.03


def test_a_merged_row_of_one_normal_and_one_ten_times_slower_process_is_never_same():
    # The interval rule read this +450% as SAME (one interval stretched over both repetitions
    # overlapped the baseline's) and exited 0.
    contender = processes([1.0, 10.0], side="c")
    for baseline in (processes([1.0, 1.001], side="b"), [rep(1.0, 0.001)]):
        judgement = judge(baseline, contender, 0.03)
        assert judgement.change == pytest.approx(4.5, rel=1e-3)
        assert judgement.verdict in (Verdict.SLOWER, Verdict.UNRESOLVED)


def test_identical_multi_process_sides_are_same():
    assert judge(processes(BASE), processes(BASE), 0.05).verdict is Verdict.SAME


def test_the_default_threshold_is_3_percent():
    assert Thresholds().default == pytest.approx(0.03)


def test_compare_runs_sorts_worst_first_and_computes_the_geometric_mean():
    tight = [1.0, 1.001, 0.999]
    baseline = run_of({"a/x": tight, "b/x": tight, "c/x": tight, "d/x": [1.0]}, processes=True)
    contender = run_of(
        {"a/x": [t / 2 for t in tight], "b/x": [t * 2 for t in tight], "c/x": tight, "d/x": [2.0]},
        processes=True,
    )
    comparison = compare_runs(baseline, contender, Thresholds())
    assert [row.key for row in comparison.rows] == ["b/x", "d/x", "a/x", "c/x"]
    assert [row.verdict for row in comparison.rows] == [
        Verdict.SLOWER,
        Verdict.UNRESOLVED,
        Verdict.FASTER,
        Verdict.SAME,
    ]
    assert comparison.rows[0].processes == (3, 3)
    assert geometric_mean_ratio(comparison.rows[2:]) == pytest.approx(math.sqrt(0.5))
    assert comparison.exit_code == 1


def test_geometric_mean_is_none_without_rows():
    assert geometric_mean_ratio([]) is None


def test_rows_in_one_run_only_are_listed_and_only_missing_ones_fail():
    baseline = run_of({"a/x": [1.0], "gone/x": [1.0]})
    contender = run_of({"a/x": [1.0], "new/x": [1.0]})
    comparison = compare_runs(baseline, contender)
    reasons = {row.key: row.reason for row in comparison.unmatched}
    assert reasons == {
        "gone/x": "missing from the contender (in the baseline only)",
        "new/x": "only in contender",
    }
    assert comparison.exit_code == 1
    assert [row.key for row in comparison.failed_unmatched] == ["gone/x"]


def test_a_baseline_without_times_is_not_compared():
    baseline = run_of({"a/x": []})
    baseline.rows["a/x"].error = "out of memory"
    comparison = compare_runs(baseline, run_of({"a/x": [1.0]}))
    assert comparison.rows == []
    assert "out of memory" in comparison.unmatched[0].reason
    assert comparison.exit_code == 0


def test_failed_contender_row_without_times_has_no_change():
    contender = run_of({"a/x": []})
    contender.rows["a/x"].error = "cudaErrorIllegalAddress"
    comparison = compare_runs(run_of({"a/x": [1.0]}), contender)
    assert comparison.rows[0].verdict is Verdict.FAILED
    assert math.isnan(comparison.rows[0].change)
    assert comparison.exit_code == 1


# --- paired runs --------------------------------------------------------------------------------

# Pairs taken in turn on a machine whose speed wanders by tens of percent, every row alike.
DRIFT = [1.0, 1.3, 0.95, 1.25, 1.0, 1.4, 0.9, 1.1, 1.2, 1.0, 1.35, 0.97, 1.05, 1.3, 1.0]


def test_paired_runs_see_a_10_percent_slowdown_through_the_drift() -> None:
    baseline = processes(DRIFT, None, "b")
    slowed = processes([d * 1.10 * (1.01 if i % 2 else 0.99) for i, d in enumerate(DRIFT)], None)
    unpaired = judge(baseline, slowed, 0.05)
    assert unpaired.verdict is Verdict.UNRESOLVED  # lost in the drift
    judgement = judge_paired(baseline, slowed, 0.05)
    assert judgement.verdict is Verdict.SLOWER
    assert judgement.change == pytest.approx(0.10, abs=0.011)
    assert judgement.resolution is not None and judgement.resolution < 0.05
    assert judgement.spread_sources == ("15 pairs taken in turn", "15 pairs taken in turn")


def test_paired_runs_of_one_build_read_same_through_the_drift() -> None:
    baseline = [rep(d) for d in DRIFT]
    again = [rep(d * (1.01 if i % 3 else 0.99)) for i, d in enumerate(DRIFT)]
    judgement = judge_paired(baseline, again, 0.05)
    assert judgement.verdict is Verdict.SAME
    assert judgement.resolution is not None and judgement.resolution <= 0.05


def test_paired_runs_too_wide_for_the_threshold_are_unresolved_not_same() -> None:
    baseline = [rep(d) for d in DRIFT]
    again = [rep(d * (1.04 if i % 3 else 0.94)) for i, d in enumerate(DRIFT)]
    judgement = judge_paired(baseline, again, 0.03)
    assert judgement.verdict is Verdict.UNRESOLVED
    assert judgement.resolution == pytest.approx(1.04 / 0.94 - 1)
    assert "wider than the threshold" in judgement.reason


def test_a_paired_change_is_called_only_when_its_interval_leaves_out_one() -> None:
    baseline = [rep(1.0)] * 9
    mixed = [rep(r) for r in (0.8, 0.9, 0.95, 1.0, 1.12, 1.2, 1.25, 1.3, 1.4)]
    judgement = judge_paired(baseline, mixed, 0.05)
    assert judgement.change == pytest.approx(0.12)
    assert judgement.verdict is Verdict.UNRESOLVED  # 0.9 to 1.3: no measurable difference
    # The interval's half-width toward the rise, below the median ratio: 1.12 / 0.9.
    assert judgement.resolution == pytest.approx(1.12 / 0.9 - 1)


def test_a_paired_call_clears_its_resolution_toward_the_change() -> None:
    # Ratios 1.03 to 1.30: a rise whose interval leaves out 1, its high side far wider.
    baseline = [rep(1.0)] * 9
    slower = [rep(r) for r in (1.03, 1.04, 1.045, 1.05, 1.06, 1.1, 1.2, 1.25, 1.3)]
    judgement = judge_paired(baseline, slower, 0.03)
    assert judgement.verdict is Verdict.SLOWER
    assert judgement.resolution is not None
    assert judgement.resolution == pytest.approx(1.06 / 1.04 - 1)
    assert judgement.change > judgement.resolution
    faster = [rep(1 / r) for r in (1.03, 1.04, 1.045, 1.05, 1.06, 1.1, 1.2, 1.25, 1.3)]
    falling = judge_paired(baseline, faster, 0.03)
    assert falling.verdict is Verdict.FASTER
    assert falling.resolution == pytest.approx(1 - (1 / 1.06) / (1 / 1.04))
    assert falling.resolution is not None and -falling.change > falling.resolution


def test_too_few_or_unequal_pairs_fall_back_to_the_process_level_rule() -> None:
    assert judge_paired(processes([1.0] * 5), processes([2.0] * 5), 0.05).verdict is Verdict.SLOWER
    # Plain floats are one process a side: nothing holds beyond it.
    assert judge_paired([1.0] * 6, [1.2] * 7, 0.05).verdict is Verdict.UNRESOLVED
