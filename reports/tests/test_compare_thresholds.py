from pathlib import Path

import pytest
from compare_fixtures import COMPARE_FIXTURES

from handoff_reports.compare_stats import ThresholdsError, load_thresholds, parse_thresholds

EXAMPLE = Path(__file__).parent.parent / "handoff_reports" / "data" / "thresholds.example.toml"


def test_first_matching_rule_wins_and_default_applies_elsewhere():
    thresholds = load_thresholds(COMPARE_FIXTURES / "thresholds.toml")
    assert thresholds.default == 0.10
    assert thresholds.for_key("elementwise/cpu_serial/workload:vector_add/elements:1024") == 0.01
    assert thresholds.for_key("elementwise/cpu_serial/workload:vector_add/elements:2048") == 0.30
    assert thresholds.for_key("pool_prep/threads/chunks:10") == 0.10


def test_regex_is_searched_and_glob_must_match_whole_name():
    thresholds = parse_thresholds(
        {
            "benchmark": [
                {"match": "start:cold", "threshold": 0.25},
                {"glob": "ceil*", "threshold": 0.5},
            ]
        }
    )
    assert thresholds.for_key("tensor_transfer/x/start:cold/iterations:3") == 0.25
    assert thresholds.for_key("ceilings/kernel_launch_sync") == 0.5
    assert thresholds.for_key("x/ceilings") == 0.03  # the default, 3%


def test_shipped_example_parses():
    thresholds = load_thresholds(EXAMPLE)
    assert thresholds.default == 0.03  # 3%
    assert thresholds.for_key("queued_worker/seed/items:10/start:cold/iterations:3") == 0.25
    assert thresholds.for_key("ceilings/kernel_launch_sync") == 0.15


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"defaults": {"threshold": "5%"}}, "must be a number"),
        ({"defaults": {"threshold": -0.1}}, "positive"),
        ({"defaults": {"treshold": 0.1}}, "may hold only threshold"),
        ({"benchmarks": []}, "unknown sections"),
        ({"benchmark": [{"match": "(", "threshold": 0.1}]}, "not a valid regex"),
        ({"benchmark": [{"match": "a", "glob": "b", "threshold": 0.1}]}, "exactly one"),
        ({"benchmark": [{"match": "a"}]}, "no threshold"),
        ({"benchmark": [{"match": "a", "threshold": 0.1, "alpha": 1}]}, "unknown keys"),
        ({"benchmark": {"match": "a", "threshold": 0.1}}, "array of tables"),
    ],
)
def test_bad_documents_raise_a_typed_error_naming_the_file(document, message):
    with pytest.raises(ThresholdsError, match=message) as raised:
        parse_thresholds(document, "my.toml")
    assert str(raised.value).startswith("my.toml")
    assert isinstance(raised.value, ValueError)


def test_unreadable_and_invalid_toml_files(tmp_path):
    with pytest.raises(ThresholdsError, match="cannot read"):
        load_thresholds(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[defaults\nthreshold = 0.1\n")
    with pytest.raises(ThresholdsError, match="not valid TOML"):
        load_thresholds(broken)
    with pytest.raises(ThresholdsError, match="must be a number"):
        load_thresholds(COMPARE_FIXTURES / "bad_threshold.toml")
