import math

import pytest
from compare_fixtures import run_of

from handoff_reports.compare import compare_runs, geometric_mean_ratio
from handoff_reports.compare_stats import Thresholds, Verdict, judge, spread, u_test_can_decide

BASE = [1.00, 1.01, 0.99, 1.02, 0.98]


def times(scale: float, values: list[float] = BASE) -> list[float]:
    return [scale * value for value in values]


@pytest.mark.parametrize(
    ("n", "m", "decides"),
    [(1, 1, False), (2, 2, False), (3, 3, False), (4, 4, True), (5, 5, True), (3, 5, True),
     (3, 4, False), (2, 10, True), (1, 100, False)],
)  # fmt: skip
def test_u_test_needs_enough_repetitions_to_reach_alpha(n, m, decides):
    assert u_test_can_decide(n, m, 0.05) is decides


def test_u_test_slower_when_separated_and_beyond_threshold():
    judgement = judge(BASE, times(1.2), threshold=0.05, alpha=0.05)
    assert judgement.verdict is Verdict.SLOWER
    assert judgement.p_value is not None and judgement.p_value < 0.05
    assert judgement.change == pytest.approx(0.2)


def test_u_test_faster_when_separated_and_beyond_threshold():
    judgement = judge(BASE, times(0.8), threshold=0.05, alpha=0.05)
    assert judgement.verdict is Verdict.FASTER
    assert judgement.change == pytest.approx(-0.2)


def test_u_test_same_when_significant_but_within_threshold():
    tight = [1.000, 1.001, 0.999, 1.002, 0.998]
    judgement = judge(tight, times(1.03, tight), threshold=0.05, alpha=0.05)
    assert judgement.p_value is not None and judgement.p_value < 0.05
    assert judgement.verdict is Verdict.SAME


def test_u_test_noisy_when_beyond_threshold_but_not_significant():
    # The medians differ by 20%, but one wild repetition on each side overlaps the other run.
    baseline = [1.0, 1.0, 1.0, 1.5, 0.6]
    contender = [1.2, 1.2, 1.2, 0.7, 1.6]
    judgement = judge(baseline, contender, threshold=0.05, alpha=0.05)
    assert judgement.p_value is not None and judgement.p_value >= 0.05
    assert judgement.verdict is Verdict.NOISY


def test_u_test_noisy_when_spread_hides_a_threshold_sized_change():
    baseline = [1.0, 0.8, 1.2, 0.9, 1.1]
    contender = [1.0, 1.2, 0.8, 1.1, 0.9]
    judgement = judge(baseline, contender, threshold=0.05, alpha=0.05)
    assert spread(baseline) > 0.1
    assert judgement.verdict is Verdict.NOISY


def test_u_test_same_on_identical_samples():
    judgement = judge(BASE, list(BASE), threshold=0.05, alpha=0.05)
    assert judgement.verdict is Verdict.SAME
    assert judgement.p_value == pytest.approx(1.0)


def test_u_test_on_constant_samples_is_same_not_nan():
    judgement = judge([1.0] * 5, [1.0] * 5, threshold=0.05, alpha=0.05)
    assert judgement.p_value == 1.0
    assert judgement.verdict is Verdict.SAME


@pytest.mark.parametrize(
    ("factor", "verdict"),
    [(1.00, Verdict.SAME), (1.04, Verdict.SAME), (1.06, Verdict.SLOWER), (0.90, Verdict.FASTER)],
)
def test_without_repetitions_the_change_is_compared_with_the_threshold(factor, verdict):
    judgement = judge([2e-3], [2e-3 * factor], threshold=0.05, alpha=0.05)
    assert judgement.verdict is verdict
    assert judgement.p_value is None


def test_too_few_repetitions_fall_back_and_flag_wide_spread_as_noisy():
    tight = judge([1.0, 1.01, 0.99], [1.2, 1.21, 1.19], threshold=0.05, alpha=0.05)
    assert (tight.verdict, tight.p_value) == (Verdict.SLOWER, None)
    wide = judge([1.0, 1.3, 0.7], [1.2, 1.21, 1.19], threshold=0.05, alpha=0.05)
    assert (wide.verdict, wide.p_value) == (Verdict.NOISY, None)
    # +100% on a 30% spread: wider than the noise, so still a regression.
    doubled = judge([1.0, 1.3, 0.7], [2.0, 2.1, 1.9], threshold=0.05, alpha=0.05)
    assert (doubled.verdict, doubled.p_value) == (Verdict.SLOWER, None)


def test_alpha_changes_the_verdict():
    baseline, contender = times(1.0), times(1.2)
    assert judge(baseline, contender, 0.05, alpha=0.05).verdict is Verdict.SLOWER
    # 5 vs 5 cannot reach p < 0.005: the U test is skipped and the threshold decides alone.
    strict = judge(baseline, contender, 0.05, alpha=0.005)
    assert strict.p_value is None and strict.verdict is Verdict.SLOWER


def test_compare_runs_sorts_worst_first_and_computes_the_geometric_mean():
    baseline = run_of({"a/x": [1.0], "b/x": [1.0], "c/x": [1.0]})
    contender = run_of({"a/x": [0.5], "b/x": [2.0], "c/x": [1.0]})
    comparison = compare_runs(baseline, contender, Thresholds(), alpha=0.05)
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


def test_rows_in_one_run_only_are_listed_not_failed():
    baseline = run_of({"a/x": [1.0], "gone/x": [1.0]})
    contender = run_of({"a/x": [1.0], "new/x": [1.0]})
    comparison = compare_runs(baseline, contender)
    reasons = {row.key: row.reason for row in comparison.unmatched}
    assert reasons == {"gone/x": "only in baseline", "new/x": "only in contender"}
    assert comparison.exit_code == 0


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
