import json
from pathlib import Path

import pytest

from handoff_reports.merge import main, split_alternating
from handoff_reports.results import load_results

REAL = Path(__file__).parent / "fixtures" / "real" / "h200-1gpu.json"


def _pass(tmp_path: Path, index: int, scale: float) -> Path:
    document = json.loads(REAL.read_text())
    for entry in document["benchmarks"]:
        entry["real_time"] *= scale
        if "floor_seconds" in entry:
            entry["floor_seconds"] *= scale
    document["handoff_ceilings"]["hbm_device_copy"]["value"] *= scale
    path = tmp_path / f"pass-{index}.json"
    path.write_text(json.dumps(document))
    return path


def test_passes_become_repetitions_with_median_ceilings(tmp_path):
    passes = [_pass(tmp_path, i, scale) for i, scale in enumerate((1.0, 1.1, 0.9))]
    assert main([str(p) for p in passes] + ["-o", str(tmp_path / "night.json")]) == 0
    night = load_results(tmp_path / "night.json")
    single = load_results(REAL)
    key = "pool_prep/cpu_serial/chunks:10/elements:65536"
    assert night.rows[key].repetitions == 3
    assert night.rows[key].median_seconds == pytest.approx(single.rows[key].median_seconds)
    # The floor is the one priced at the fastest pass's ceilings, the best the machine did.
    assert night.rows[key].floor_seconds == pytest.approx(0.9 * single.rows[key].floor_seconds)
    assert night.ceilings["hbm_device_copy"].value == pytest.approx(
        single.ceilings["hbm_device_copy"].value
    )
    assert night.context["handoff_passes"] == "3"


def test_the_rate_at_each_size_is_kept_for_a_run_that_reuses_the_ceilings(tmp_path):
    passes = []
    for index, rates in enumerate(([4e9, 8e9], [5e9, 9e9], [6e9, 7e9])):
        document = json.loads(REAL.read_text())
        document["handoff_ceilings"]["pipe_between_processes"] = {
            "value": max(rates),
            "unit": "bytes_per_second",
            "rate_by_bytes": [[4096.0, rates[0]], [4194304.0, rates[1]]],
        }
        passes.append(tmp_path / f"pass-{index}.json")
        passes[-1].write_text(json.dumps(document))
    assert main([str(p) for p in passes] + ["-o", str(tmp_path / "night.json")]) == 0
    pipe = json.loads((tmp_path / "night.json").read_text())["handoff_ceilings"][
        "pipe_between_processes"
    ]
    assert pipe["value"] == 8e9
    assert pipe["rate_by_bytes"] == [[4096.0, 5e9], [4194304.0, 8e9]]


def test_a_damaged_pass_is_an_error(tmp_path, capsys):
    broken = tmp_path / "pass-2.json"
    broken.write_text('{"benchmarks": [')
    assert main([str(REAL), str(broken), "-o", str(tmp_path / "night.json")]) == 2
    assert "pass-2.json: not valid JSON" in capsys.readouterr().err
    assert not (tmp_path / "night.json").exists()


def _issue_14_pass(tmp_path: Path, index: int, noise: float, **settings: str) -> Path:
    from contract14_fixtures import document, entry, write

    name = "elementwise/cpu_serial/workload:vector_add/elements:1024/manual_time"
    made = document([entry(name, 1e-5 * (1 + index / 100), noise)], settings)
    if index == 1:
        made["handoff_run"] = {"state": "incomplete", "reason": "interrupted by SIGTERM", "rows": 1}
    return write(tmp_path, f"pass-{index}.json", made)


def test_merging_keeps_each_passes_interval_and_the_settings(tmp_path):
    passes = [_issue_14_pass(tmp_path, i, noise) for i, noise in enumerate((0.01, 0.02))]
    assert main([str(p) for p in passes] + ["-o", str(tmp_path / "night.json")]) == 0
    night = load_results(tmp_path / "night.json")
    row = night.rows["elementwise/cpu_serial/workload:vector_add/elements:1024"]
    assert [(f.ci_low, f.ci_high) for f in row.repetition_figures] == [
        pytest.approx((0.99e-5, 1.01e-5)),
        pytest.approx((1.01e-5 * 0.98, 1.01e-5 * 1.02)),
    ]
    assert night.settings.max_noise == "0.01" and night.settings.profile == "default"
    assert night.run_state.incomplete and night.run_state.reason == "interrupted by SIGTERM"
    assert night.run_state.rows == 2


def test_passes_with_different_measurement_settings_are_refused(tmp_path, capsys):
    first = _issue_14_pass(tmp_path, 0, 0.01)
    second = _issue_14_pass(tmp_path, 2, 0.01, max_noise="0.03", min_time="0.5")
    assert main([str(first), str(second), "-o", str(tmp_path / "night.json")]) == 2
    error = capsys.readouterr().err
    assert "different settings cannot be merged" in error
    assert "max_noise 0.01 in" in error and "0.03 in" in error and "min_time" in error
    assert not (tmp_path / "night.json").exists()


def test_a_pass_without_the_spin_recorded_merges_with_one_at_the_default(tmp_path, capsys):
    first = _issue_14_pass(tmp_path, 0, 0.01)
    second = _issue_14_pass(tmp_path, 2, 0.01, spin="yield")
    assert main([str(first), str(second), "-o", str(tmp_path / "night.json")]) == 0
    paused = _issue_14_pass(tmp_path, 4, 0.01, spin="pause")
    assert main([str(first), str(paused), "-o", str(tmp_path / "other.json")]) == 2
    assert "spin yield in" in capsys.readouterr().err


def test_passes_differing_only_in_shuffle_seed_merge(tmp_path):
    first = _issue_14_pass(tmp_path, 0, 0.01, shuffle_seed="1")
    second = _issue_14_pass(tmp_path, 2, 0.01, shuffle_seed="2")
    assert main([str(first), str(second), "-o", str(tmp_path / "night.json")]) == 0


def test_files_of_several_passes_each_keep_every_pass(tmp_path):
    # handoff_bench --handoff-passes=2 writes each row twice, as repetitions 0 and 1.
    documents = []
    for index in range(2):
        document = json.loads(REAL.read_text())
        second = [dict(entry, repetition_index=1) for entry in document["benchmarks"]]
        document["benchmarks"] += second
        path = tmp_path / f"run-{index}.json"
        path.write_text(json.dumps(document))
        documents.append(path)
    assert main([str(p) for p in documents] + ["-o", str(tmp_path / "both.json")]) == 0
    merged = json.loads((tmp_path / "both.json").read_text())
    key = "pool_prep/cpu_serial/chunks:10/elements:65536/manual_time"
    indices = sorted(e["repetition_index"] for e in merged["benchmarks"] if e["name"] == key)
    assert indices == [0, 1, 2, 3]
    assert merged["context"]["handoff_passes"] == "4"
    assert (
        load_results(tmp_path / "both.json").rows[key.removesuffix("/manual_time")].repetitions == 4
    )


def test_an_alternating_run_splits_into_its_odd_and_its_even_passes():
    document = json.loads(REAL.read_text())
    one = document["benchmarks"][0]
    document["benchmarks"] = [
        dict(one, repetition_index=index, real_time=float(index + 1)) for index in range(6)
    ]
    odd, even = split_alternating(document)
    assert [e["real_time"] for e in odd["benchmarks"]] == [1.0, 3.0, 5.0]
    assert [e["real_time"] for e in even["benchmarks"]] == [2.0, 4.0, 6.0]
    assert [e["repetition_index"] for e in even["benchmarks"]] == [0, 1, 2]
    assert odd["context"]["handoff_passes"] == even["context"]["handoff_passes"] == "3"


def test_a_pass_without_rows_is_refused(tmp_path, capsys):
    from contract14_fixtures import document, write

    empty = write(tmp_path, "pass-2.json", document([]))
    first = _issue_14_pass(tmp_path, 0, 0.01)
    assert main([str(first), str(empty), "-o", str(tmp_path / "night.json")]) == 2
    assert capsys.readouterr().err == f"handoff-merge: {empty}: no rows to merge\n"
    assert not (tmp_path / "night.json").exists()


def test_repetitions_claimed_but_absent_make_the_merged_run_incomplete(tmp_path):
    from contract14_fixtures import document, entry, write

    name = "elementwise/cpu_serial/workload:vector_add/elements:1024/manual_time"
    # A file of three passes whose second left no row: it claims three repetitions, has two.
    gap = document([entry(name, 1e-5, repetition=i, repetitions=3) for i in (0, 2)])
    first = _issue_14_pass(tmp_path, 0, 0.01)
    gapped = write(tmp_path, "passes.json", gap)
    assert main([str(first), str(gapped), "-o", str(tmp_path / "night.json")]) == 0
    night = load_results(tmp_path / "night.json")
    assert night.run_state.incomplete
    assert night.run_state.reason == f"{gapped}: 2 of 3 repetitions have rows"
    # A file whose rows claim more repetitions than it holds (a run stopped after its first pass).
    short = write(tmp_path, "short.json", document([entry(name, 1e-5, repetitions=3)]))
    assert main([str(first), str(short), "-o", str(tmp_path / "night.json")]) == 0
    night = load_results(tmp_path / "night.json")
    assert night.run_state.incomplete
    assert night.run_state.reason == f"{short}: 1 of 3 repetitions have rows"


def _tokened_pass(tmp_path: Path, name: str, token: str | None, passes: int = 1) -> Path:
    from contract14_fixtures import document, entry, write

    row = "elementwise/cpu_serial/workload:vector_add/elements:1024/manual_time"
    made = document(
        [entry(row, 1e-5, repetition=i, repetitions=passes, process=token) for i in range(passes)]
    )
    if token is not None:
        made["context"]["handoff_process"] = token
    return write(tmp_path, name, made)


def test_each_process_keeps_its_token_and_passes_of_one_process_stay_one(tmp_path):
    # Two processes, the second of three passes (--handoff-passes=3): four repetitions, two
    # processes.
    first = _tokened_pass(tmp_path, "one.json", "3f9a0c12-4711")
    second = _tokened_pass(tmp_path, "two.json", "77aa01bc-4712", passes=3)
    assert main([str(first), str(second), "-o", str(tmp_path / "run.json")]) == 0
    merged = json.loads((tmp_path / "run.json").read_text())
    tokens = [e["handoff_process"] for e in merged["benchmarks"]]
    assert tokens == ["3f9a0c12-4711"] + ["77aa01bc-4712"] * 3
    assert "handoff_process" not in merged["context"]
    assert merged["context"]["handoff_processes"] == "2"
    row = load_results(tmp_path / "run.json").rows[
        "elementwise/cpu_serial/workload:vector_add/elements:1024"
    ]
    assert row.repetitions == 4 and len(row.processes) == 2
    assert [p.repetitions for p in row.processes] == [1, 3]


def test_old_files_without_tokens_become_one_process_each(tmp_path):
    passes = [_tokened_pass(tmp_path, f"pass-{i}.json", None) for i in range(3)]
    assert main([str(p) for p in passes] + ["-o", str(tmp_path / "night.json")]) == 0
    merged = json.loads((tmp_path / "night.json").read_text())
    assert [e["handoff_process"] for e in merged["benchmarks"]] == [
        "pass-0.json#0",
        "pass-1.json#1",
        "pass-2.json#2",
    ]
    assert merged["context"]["handoff_processes"] == "3"
