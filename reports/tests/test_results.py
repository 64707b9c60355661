import json
import math
from pathlib import Path

import pytest

from handoff_reports.names import parse_name
from handoff_reports.results import Repetition, ResultsError, Row, load_results, parse_results

FIXTURES = Path(__file__).parent / "fixtures"


def test_real_gpu_run_loads_manifest_ceilings_and_rows():
    run = load_results(FIXTURES / "real" / "h200-1gpu.json")
    assert run.gpu_count == 1
    assert run.manifest["handoff_gpu0_name"] == "NVIDIA H200"
    assert run.ceilings["hbm_device_copy"].value == pytest.approx(4.2532e12, rel=1e-3)
    assert run.ceilings["kernel_launch_async"].is_latency
    row = run.rows["pool_prep/cpu_serial/chunks:10/elements:65536"]
    assert row.median_seconds == pytest.approx(20417.9784e-6)
    assert row.efficiency == pytest.approx(0.8210822673805944, rel=1e-6)
    assert row.stages["prep"] == pytest.approx(0.0201541917)
    assert not row.failed and not row.suspect
    assert len(run.benchmark_rows()) == 268


def test_skipped_families_split_reason_from_families():
    run = load_results(FIXTURES / "real" / "h200-1gpu.json")
    assert run.skipped_families == [
        ("ceilings/p2p_peer_access_off", "needs 2 GPUs, this machine has 1"),
        ("ceilings/p2p_peer_access_on", "needs 2 GPUs, this machine has 1"),
    ]
    cpu = load_results(FIXTURES / "real" / "cpu-only.json")
    reasons = dict(cpu.skipped_families)
    assert cpu.gpu_count == 0
    assert reasons["ceilings/copies"].startswith("no usable CUDA device")


def test_repetitions_are_kept_and_aggregates_ignored():
    run = load_results(FIXTURES / "real" / "cpu-only.json")
    row = next(r for r in run.benchmark_rows() if r.repetitions > 1)
    assert row.repetitions == 3
    assert not math.isnan(row.cv)
    assert all(not key.endswith(("_mean", "_median", "_cv")) for key in run.rows)


def _document(*benchmarks):
    return {"context": {"handoff_version": "0.1.0"}, "benchmarks": list(benchmarks)}


def test_worst_repetition_decides_wrong_and_errors_fail_the_row():
    run = parse_results(_document(
        {"name": "p/v/elements:4/manual_time", "real_time": 1, "time_unit": "ms", "wrong": 0},
        {"name": "p/v/elements:4/manual_time", "real_time": 3, "time_unit": "ms", "wrong": 2},
        {"name": "p/e/manual_time", "error_occurred": True, "error_message": "boom"},
    ))  # fmt: skip
    assert run.rows["p/v/elements:4"].wrong == 2
    assert run.rows["p/v/elements:4"].median_seconds == pytest.approx(2e-3)
    assert run.rows["p/e"].failed and run.rows["p/e"].error == "boom"


def test_aggregates_only_files_use_the_median():
    run = parse_results(_document(
        {"name": "p/v/manual_time_mean", "run_name": "p/v/manual_time", "run_type": "aggregate",
         "aggregate_name": "mean", "real_time": 9, "time_unit": "s"},
        {"name": "p/v/manual_time_median", "run_name": "p/v/manual_time", "run_type": "aggregate",
         "aggregate_name": "median", "real_time": 2, "time_unit": "s"},
    ))  # fmt: skip
    assert run.rows["p/v"].seconds == [2.0]


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not valid JSON"),
        ("[]", "not a JSON object"),
        ('{"context": {}, "benchmarks": []}', "not written by handoff_bench"),
        ('{"benchmarks": []}', "not Google Benchmark JSON"),
        (json.dumps(_document({"name": "p/v", "real_time": 1, "time_unit": "weeks"})), "time_unit"),
        (json.dumps({**_document(), "handoff_ceilings": {"x": {"value": "fast"}}}), "ceiling 'x'"),
    ],
)
def test_bad_files_get_a_typed_error_naming_the_file(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ResultsError, match=message) as raised:
        load_results(path)
    assert str(path) in str(raised.value)


def test_missing_file_is_a_results_error(tmp_path):
    with pytest.raises(ResultsError, match="cannot read"):
        load_results(tmp_path / "absent.json")


def test_names_split_into_pattern_variant_and_axes():
    name = parse_name("multi_gpu/p2p_gather/gpus:2/elements:268435456/scope:gather/manual_time")
    assert (name.pattern, name.variant, name.family) == ("multi_gpu", "p2p_gather",
                                                          "multi_gpu/p2p_gather")  # fmt: skip
    assert name.size_axis == "elements" and name.size == 268435456
    assert name.axis("scope") == "gather"
    assert name.key == "multi_gpu/p2p_gather/gpus:2/elements:268435456/scope:gather"
    assert parse_name("ceilings/shm_memcpy_one_thread/manual_time").axes == ()


def test_issue_14_fields_are_parsed_per_repetition():
    from contract14_fixtures import document, entry

    name = "elementwise/cpu_serial/workload:vector_add/elements:1024"
    run = parse_results(
        document(
            [
                entry(name, 1e-3, 0.01, repetition=0, repetitions=2, samples=40),
                entry(name, 1.1e-3, 0.02, repetition=1, repetitions=2, noisy=True, clock=1),
            ],
            {"profile": "smoke", "planted_slowdown": "5:^elementwise/"},
            state="incomplete",
            reason="interrupted by SIGINT",
        )
    )
    row = run.rows[name]
    assert row.seconds == pytest.approx([1e-3, 1.1e-3])
    assert [(f.seconds, f.ci_low, f.ci_high) for f in row.repetition_figures] == [
        pytest.approx((1e-3, 0.99e-3, 1.01e-3)),
        pytest.approx((1.1e-3, 1.078e-3, 1.122e-3)),
    ]
    assert row.has_intervals and row.noisy and row.noise == pytest.approx(0.02)
    assert row.samples == 40 and row.clock == 0 and not row.fixed_samples
    assert not row.clock_lowered
    assert run.run_state.incomplete and run.run_state.reason == "interrupted by SIGINT"
    assert run.run_state.rows == 2
    assert run.ceilings_source is not None and run.ceilings_source.line == "measured in this run"
    assert run.settings.profile == "smoke" and run.settings.known
    assert run.settings.planted == (5.0, "^elementwise/")


@pytest.mark.parametrize("name", ["h200-1gpu", "h200-nightly", "h200x4-multi_gpu", "cpu-only"])
def test_old_files_load_without_settings_intervals_or_state(name):
    run = load_results(FIXTURES / "real" / f"{name}.json")
    assert not run.settings.known and run.settings.profile is None
    assert not run.run_state.incomplete and run.ceilings_source is None
    row = run.benchmark_rows()[0]
    assert len(row.repetition_figures) == len(row.seconds)
    assert not row.has_intervals and row.noise is None


def test_each_repetition_knows_its_process_and_a_row_groups_by_process():
    from contract14_fixtures import document, entry

    name = "elementwise/cpu_serial/workload:vector_add/elements:1024/manual_time"
    entries = [
        entry(name, 1e-5, 0.01, repetition=0, process="a"),
        entry(name, 3e-5, 0.03, repetition=1, process="a"),
        entry(name, 2e-5, 0.02, repetition=2, process="b"),
        entry(name, 4e-5, 0.04, repetition=3, process=""),  # not a usable token: unnamed
    ]
    row = parse_results(document(entries)).rows[name.removesuffix("/manual_time")]
    assert [f.process for f in row.figures] == ["a", "a", "b", None]
    processes = row.processes
    assert [(p.process, p.repetitions) for p in processes] == [("a", 2), ("b", 1), (None, 1)]
    assert processes[0].seconds == pytest.approx(2e-5)  # the median of its repetitions' medians
    assert processes[0].noise == pytest.approx(0.02)


def test_a_process_sleeps_a_run_as_the_median_of_its_repetitions_where_recorded():
    from contract14_fixtures import document, entry

    name = "elementwise/cpu_serial/workload:vector_add/elements:1024/manual_time"
    entries = [
        entry(name, 1e-5, 0.01, repetition=index, process=process)
        for index, process in enumerate(["a", "a", "a", "b"])
    ]
    for recorded, sleeps in zip(entries, [2.0, 10.0, 4.0], strict=False):
        recorded["voluntary_switches_per_run"] = sleeps
    row = parse_results(document(entries)).rows[name.removesuffix("/manual_time")]
    assert [f.sleeps_per_run for f in row.figures] == [2.0, 10.0, 4.0, None]
    assert [p.sleeps_per_run for p in row.processes] == [4.0, None]


def test_a_file_without_tokens_is_one_process():
    row = load_results(FIXTURES / "real" / "cpu-only.json").rows[
        "elementwise/cpu_serial/workload:vector_add/elements:1024"
    ]
    assert row.repetitions == 3 and len(row.processes) == 1


def test_a_row_is_suspect_only_when_its_whole_interval_beats_its_floor() -> None:
    def row(floor: float, *, interval: bool = True) -> Row:
        figure = Repetition(1.0, 0.97, 1.03, 0.03, 50, False) if interval else Repetition(1.0)
        return Row(
            name=parse_name("tensor_transfer/queue/memory:host/bytes:4096/start:warm/manual_time"),
            seconds=[1.0],
            repetition_figures=[figure],
            floors=[floor],
        )

    within = row(1.02)  # 102% of its floor at the median, but its interval reaches 97%
    assert within.efficiency is not None and within.efficiency > 1.0 and not within.suspect
    assert row(1.05).suspect  # even the slow end, 1.03 s, beats the 1.05 s floor
    assert row(1.02, interval=False).suspect  # no interval: the median decides
    assert not row(0.9).suspect


def test_one_sample_has_no_noise_even_where_its_interval_is_written() -> None:
    # Files from before the driver stopped writing a noise for one sample have a zero-width
    # interval there, which must not read as a noise-free figure.
    assert Repetition(1.0, 1.0, 1.0, 0.0, 1).relative_noise is None
    assert Repetition(1.0, 1.0, 1.0, None, 1).relative_noise is None
    assert Repetition(1.0, 0.99, 1.01, None, 2).relative_noise == pytest.approx(0.01)

    def row(*figures: Repetition) -> Row:
        return Row(
            name=parse_name("tensor_transfer/pipe/memory:host/bytes:4096/start:warm/manual_time"),
            seconds=[figure.seconds for figure in figures],
            repetition_figures=list(figures),
        )

    one_sample = Repetition(1.0, 1.0, 1.0, 0.0, 1)
    assert row(one_sample).noise is None
    assert row(one_sample, Repetition(1.1, 1.09, 1.11, 0.02, 30)).noise == pytest.approx(0.02)
