import math

import pytest
from compare_fixtures import run_of

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
from handoff_reports.results import Repetition

BASE = [1.00, 1.01, 0.99, 1.02, 0.98]


def rep(seconds: float, noise: float | None = None, noisy: bool = False) -> Repetition:
    """A repetition with median `seconds` and an interval `noise` either side (None: none)."""
    if noise is None:
        return Repetition(seconds)
    return Repetition(seconds, seconds * (1 - noise), seconds * (1 + noise), noise, 50, noisy)


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


def test_planted_10_percent_with_tight_intervals_is_slower():
    judgement = judge([rep(1.0, 0.01)], [rep(1.1, 0.01)], threshold=0.03)
    assert judgement.verdict is Verdict.SLOWER
    assert judgement.change == pytest.approx(0.1)
    assert judge([rep(1.0, 0.01)], [rep(0.9, 0.01)], 0.03).verdict is Verdict.FASTER


def test_10_percent_inside_wide_intervals_is_same():
    assert judge([rep(1.0, 0.08)], [rep(1.1, 0.08)], threshold=0.03).verdict is Verdict.SAME


@pytest.mark.parametrize("noisy_side", ["baseline", "contender"])
def test_10_percent_inside_a_noisy_rows_interval_is_noisy(noisy_side):
    baseline = [rep(1.0, 0.08, noisy=noisy_side == "baseline")]
    contender = [rep(1.1, 0.08, noisy=noisy_side == "contender")]
    assert judge(baseline, contender, threshold=0.03).verdict is Verdict.NOISY


def test_a_change_within_the_threshold_is_same_even_when_the_intervals_are_apart():
    assert judge([rep(1.0, 0.001)], [rep(1.02, 0.001)], threshold=0.03).verdict is Verdict.SAME


def test_old_files_single_repetitions_compare_the_change_with_the_threshold():
    assert judge([2e-3], [2.2e-3], threshold=0.05).verdict is Verdict.SLOWER
    assert judge([2e-3], [2.05e-3], threshold=0.05).verdict is Verdict.SAME


def test_old_files_overlapping_repetition_ranges_are_noisy():
    tight = judge([1.0, 1.01, 0.99], [1.2, 1.21, 1.19], threshold=0.05)
    assert tight.verdict is Verdict.SLOWER
    overlapping = judge([1.0, 1.02, 0.99], [1.2, 1.21, 1.01], threshold=0.05)
    assert overlapping.verdict is Verdict.NOISY  # no interval of its own: cannot call it SAME
    doubled = judge([1.0, 1.3, 0.7], [2.0, 2.1, 1.9], threshold=0.05)
    assert doubled.verdict is Verdict.SLOWER


def test_a_change_within_the_spread_between_runs_is_never_called():
    # Three passes a side, each with a narrow interval of its own, but 60% apart between passes:
    # a 20% change is weather.
    wide = judge([1.0, 1.3, 0.7], [1.2, 1.21, 1.19], threshold=0.05)
    assert wide.verdict is Verdict.SAME
    assert wide.baseline.between == pytest.approx(0.6)


# Nine passes of a row at about 1.0, two of them caught in a burst of outside load.
CLEAN = [0.99, 1.0, 1.01, 0.995, 1.005, 1.0, 0.998, 1.4, 1.7]


@pytest.mark.parametrize(
    ("n", "rank"), [(1, 0), (5, 0), (6, 1), (8, 1), (9, 2), (10, 2), (17, 5), (100, 40)]
)
def test_median_interval_ranks_match_the_binomial_table(n, rank):
    # The same ranks as handoff_bench's lower_rank_of_median_interval (tests/cpu/sampling_test.cpp).
    assert lower_rank_of_median_interval(n) == rank


def test_a_side_of_many_passes_is_the_median_with_its_interval_over_passes():
    side = side_of([rep(t, 0.001) for t in CLEAN])
    assert len(CLEAN) == MANY_REPETITIONS
    assert side.centre == pytest.approx(1.0)
    # Ranks 2 and 8 of 9: the burst's highest pass is left out, its second sets the upper end.
    assert (side.low, side.high) == pytest.approx((0.995, 1.4))
    assert side.robust and side.between == pytest.approx(0.71)


def test_a_burst_in_one_pass_does_not_hide_a_5_percent_slowdown():
    baseline = [rep(t, 0.001) for t in [0.99, 1.0, 1.01, 0.995, 1.005, 1.0, 0.998, 1.002, 1.7]]
    slowed = [rep(t * 1.05, 0.001) for t in [0.99, 1.0, 1.01, 0.995, 1.005, 1.0, 0.998, 1.6, 1.002]]
    judgement = judge(baseline, slowed, threshold=0.03)
    assert judgement.verdict is Verdict.SLOWER
    # Three passes a side with the same burst: the spread between passes swallows the change.
    assert judge(baseline[-3:], slowed[-3:], threshold=0.03).verdict is not Verdict.SLOWER


def test_many_passes_of_one_build_with_bursts_on_both_sides_are_same():
    other = [1.003, 0.997, 1.3, 1.0, 1.01, 0.99, 1.002, 1.5, 0.996]
    assert judge([rep(t) for t in CLEAN], [rep(t) for t in other], 0.03).verdict is Verdict.SAME


def test_a_side_of_many_passes_is_judged_by_its_interval_over_passes_not_their_caps():
    capped = [rep(t, 0.05, noisy=True) for t in CLEAN]
    assert not side_of(capped).noisy
    overlapping = [rep(t * 1.04, 0.05, noisy=True) for t in CLEAN]
    assert judge(capped, overlapping, 0.03).verdict is Verdict.SAME


def test_identical_sides_are_same():
    assert judge(BASE, list(BASE), threshold=0.05).verdict is Verdict.SAME
    assert judge([1.0] * 5, [1.0] * 5, threshold=0.05).verdict is Verdict.SAME


def test_the_default_threshold_is_3_percent():
    assert Thresholds().default == pytest.approx(0.03)


def test_compare_runs_sorts_worst_first_and_computes_the_geometric_mean():
    baseline = run_of({"a/x": [1.0], "b/x": [1.0], "c/x": [1.0]})
    contender = run_of({"a/x": [0.5], "b/x": [2.0], "c/x": [1.0]})
    comparison = compare_runs(baseline, contender, Thresholds())
    assert [row.key for row in comparison.rows] == ["b/x", "a/x", "c/x"]
    assert [row.verdict for row in comparison.rows] == [
        Verdict.SLOWER,
        Verdict.FASTER,
        Verdict.SAME,
    ]
    assert geometric_mean_ratio(comparison.rows) == pytest.approx(1.0)
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


# Pairs taken in turn on a machine whose speed wanders by tens of percent, every row alike.
DRIFT = [1.0, 1.3, 0.95, 1.25, 1.0, 1.4, 0.9, 1.1, 1.2, 1.0, 1.35, 0.97, 1.05, 1.3, 1.0]


def test_paired_runs_see_a_10_percent_slowdown_through_the_drift() -> None:
    baseline = [rep(d) for d in DRIFT]
    slowed = [rep(d * 1.10 * (1.01 if i % 2 else 0.99)) for i, d in enumerate(DRIFT)]
    assert judge(baseline, slowed, 0.05).verdict is Verdict.SAME  # unpaired: lost in the drift
    judgement = judge_paired(baseline, slowed, 0.05)
    assert judgement.verdict is Verdict.SLOWER
    assert judgement.change == pytest.approx(0.10, abs=0.011)


def test_paired_runs_of_one_build_read_same_through_the_drift() -> None:
    baseline = [rep(d) for d in DRIFT]
    again = [rep(d * (1.02 if i % 3 else 0.97)) for i, d in enumerate(DRIFT)]
    assert judge_paired(baseline, again, 0.05).verdict is Verdict.SAME


def test_a_paired_change_is_called_only_when_its_interval_leaves_out_one() -> None:
    baseline = [rep(1.0)] * 9
    mixed = [rep(r) for r in (0.8, 0.9, 0.95, 1.0, 1.12, 1.2, 1.25, 1.3, 1.4)]
    judgement = judge_paired(baseline, mixed, 0.05)
    assert judgement.change == pytest.approx(0.12)
    assert judgement.verdict is Verdict.SAME  # 0.9 to 1.3: no measurable difference


def test_too_few_or_unequal_pairs_fall_back_to_the_unpaired_rule() -> None:
    assert judge_paired([rep(1.0)] * 5, [rep(2.0)] * 5, 0.05).verdict is Verdict.SLOWER
    assert judge_paired([1.0] * 6, [1.2] * 7, 0.05).verdict is Verdict.SLOWER
