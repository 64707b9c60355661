"""The process-level verdict rule end to end: small synthetic files in the current format (rows
measured by named processes), the real old-format nightly, and real A/A pairs."""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from contract14_fixtures import document, entry, write

from handoff_reports.compare import compare_runs
from handoff_reports.compare_cli import main
from handoff_reports.compare_stats import Verdict
from handoff_reports.machine_noise import load_machine_noise
from handoff_reports.results import load_results, parse_results

REAL = Path(__file__).parent / "fixtures" / "real"
ROW = "elementwise/cpu_serial/workload:vector_add/elements:{}/manual_time"
KEYS = [ROW.format(1 << power) for power in (10, 12, 14, 16)]


def entries(
    factor: float = 1.0, noise: float | None = 0.005, processes: int = 3, **flags: Any
) -> list[dict[str, Any]]:
    """Four rows, each measured by `processes` processes that agree; the first `factor` slower."""
    return [
        entry(
            key,
            1e-4 * (i + 1) * (factor if i == 0 else 1.0),
            noise,
            repetition=process,
            repetitions=processes,
            process=f"p{process}",
            **flags,
        )
        for i, key in enumerate(KEYS)
        for process in range(processes)
    ]


def pair(
    tmp_path: Path,
    factor: float,
    noise: float,
    *,
    noisy: bool = False,
    processes: int = 3,
    contender_settings: dict[str, str] | None = None,
) -> tuple[str, str]:
    """Baseline and contender files of four rows; the contender's first row `factor` slower."""
    base = entries(1.0, noise, processes, noisy=noisy)
    slow = entries(factor, noise, processes, noisy=noisy)
    baseline = write(tmp_path, "a.json", document(base))
    contender = write(tmp_path, "b.json", document(slow, contender_settings))
    return str(baseline), str(contender)


def verdict_line(output: str, key: str) -> str:
    return next(line for line in output.splitlines() if line.startswith(key + " "))


FIRST = KEYS[0].removesuffix("/manual_time")


def test_a_planted_10_percent_with_tight_processes_is_slower(tmp_path, capsys):
    assert main(list(pair(tmp_path, 1.10, 0.005))) == 1
    output = capsys.readouterr().out
    line = verdict_line(output, FIRST)
    assert line.endswith("run/run  SLOWER") and "+10.0%" in line and line.count("±0.5%") == 2
    # Three processes a side; resolution ±1.4%: at α* = 0.25%, the level of four rows judged
    # together of which one is beyond the noise (±1.0% were it judged alone at 1%).
    assert " 3/3 " in line and "±1.4%" in line
    assert (
        "benchmarks: Benjamini-Hochberg at 1% over 4 rows, 1 beyond the noise: each tested at "
        "α* = 0.25%" in output
    )
    assert "result: REGRESSION (1 rows)" in output
    assert "beyond its 3% threshold and its resolution ±1.4%" in output


def test_10_percent_inside_wide_process_noise_is_unresolved(tmp_path, capsys):
    assert main(list(pair(tmp_path, 1.10, 0.08))) == 0
    output = capsys.readouterr().out
    assert verdict_line(output, FIRST).endswith("UNRESOLVED")
    assert "±8.0%" in output
    assert "4 rows: resolution wider than the threshold" in output


def test_a_noisy_row_needs_no_verdict_of_its_own(tmp_path, capsys):
    # A row that hit its time cap above its target is as wide as its noise: UNRESOLVED.
    assert main(list(pair(tmp_path, 1.10, 0.08, noisy=True))) == 0
    assert verdict_line(capsys.readouterr().out, FIRST).endswith("UNRESOLVED")


def test_a_single_process_run_is_unresolved_with_the_reason(tmp_path, capsys):
    assert main(list(pair(tmp_path, 1.10, 0.005, processes=1))) == 0
    output = capsys.readouterr().out
    line = verdict_line(output, FIRST)
    assert line.endswith("none/none  UNRESOLVED") and " 1/1 " in line and "+10.0%" in line
    assert "4 rows: a side measured by one process: its interval holds for that process only" in (
        output
    )
    assert "result: no regression" in output


def test_different_measurement_settings_are_not_comparable(tmp_path, capsys):
    paths = pair(tmp_path, 1.10, 0.005, contender_settings={"max_noise": "0.03", "timeout": "2"})
    assert main(list(paths)) == 0
    output = capsys.readouterr().out
    warning = next(line for line in output.splitlines() if "different settings" in line)
    assert "max_noise: 0.01 -> 0.03" in warning and "timeout: 1 -> 2" in warning
    for key in KEYS:
        assert verdict_line(output, key.removesuffix("/manual_time")).endswith("NOT COMPARABLE")
    assert "4 NOT COMPARABLE" in output and "result: no regression" in output


def test_the_spin_and_worker_placement_are_measurement_settings(tmp_path, capsys):
    # A file written before they were recorded ran with their defaults: comparable with those.
    recorded_defaults = {"spin": "yield", "spin_us": "50"}
    defaults = pair(tmp_path, 1.0, 0.005, contender_settings=recorded_defaults)
    assert main(list(defaults)) == 0
    assert "different settings" not in capsys.readouterr().out
    switched = {"spin": "pause", "spin_us": "400", "worker_cores": "held"}
    held = pair(tmp_path, 1.0, 0.005, contender_settings=switched)
    assert main(list(held)) == 0
    output = capsys.readouterr().out
    warning = next(line for line in output.splitlines() if "different settings" in line)
    assert "spin: yield -> pause" in warning and "worker_cores: scheduler -> held" in warning
    assert "spin_us: 50 -> 400" in warning
    assert verdict_line(output, KEYS[0].removesuffix("/manual_time")).endswith("NOT COMPARABLE")


def test_ignore_settings_compares_anyway(tmp_path, capsys):
    paths = pair(tmp_path, 1.10, 0.005, contender_settings={"profile": "full"})
    assert main([*paths, "--ignore-settings"]) == 1
    output = capsys.readouterr().out
    assert "compared anyway (--ignore-settings)" in output
    assert verdict_line(output, KEYS[0].removesuffix("/manual_time")).endswith("SLOWER")


def test_a_failed_row_stays_failed_across_settings(tmp_path):
    base = [entry(key, 1e-4, 0.005) for key in KEYS]
    wrong = [entry(key, 1e-4, 0.005, wrong=1.0 if i == 0 else 0.0) for i, key in enumerate(KEYS)]
    baseline = parse_results(document(base))
    contender = parse_results(document(wrong, {"min_samples": "20"}))
    comparison = compare_runs(baseline, contender)
    verdicts = sorted(row.verdict.value for row in comparison.rows)
    assert verdicts == ["FAILED", "NOT COMPARABLE", "NOT COMPARABLE", "NOT COMPARABLE"]
    assert comparison.exit_code == 1


def test_other_settings_warn_once_and_change_nothing(tmp_path, capsys):
    paths = pair(
        tmp_path, 1.0, 0.005, contender_settings={"filter": "elementwise", "shuffle_seed": "7"}
    )
    assert main(list(paths)) == 0
    output = capsys.readouterr().out
    warnings = [line for line in output.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert "filter: - -> elementwise" in warnings[0] and "shuffle_seed: 0 -> 7" in warnings[0]
    assert "4 SAME" in output


def test_a_planted_slowdown_is_named_in_the_header(tmp_path, capsys):
    paths = pair(tmp_path, 1.10, 0.005, contender_settings={"planted_slowdown": "10:^elem"})
    assert main(list(paths)) == 1
    output = capsys.readouterr().out
    (line,) = [line for line in output.splitlines() if "planted slowdown" in line]
    assert "in the contender: 10:^elem" in line


def test_an_incomplete_side_is_a_warning(tmp_path, capsys):
    rows = entries(processes=1)
    baseline = write(tmp_path, "a.json", document(rows))
    partial = document(rows[:2], state="incomplete", reason="interrupted by SIGINT")
    contender = write(tmp_path, "b.json", partial)
    # The rows it never reached are missing: an interrupted contender cannot pass.
    assert main([str(baseline), str(contender)]) == 1
    output = capsys.readouterr().out
    assert "warning: the contender run is incomplete (interrupted by SIGINT, 2 rows)" in output
    assert f"{len(KEYS) - 2} baseline rows missing from the contender" in output


def test_unknown_settings_warn_and_compare(tmp_path, capsys):
    rows = entries()
    old = write(tmp_path, "a.json", document(rows, with_settings=False))
    new = write(tmp_path, "b.json", document(rows))
    assert main([str(old), str(new)]) == 0
    output = capsys.readouterr().out
    assert "warning: unknown settings in the baseline" in output and "4 SAME" in output


def test_the_html_shows_each_sides_noise_and_the_warnings(tmp_path):
    paths = pair(tmp_path, 1.10, 0.005, contender_settings={"min_time": "0.5"})
    out = tmp_path / "compare.html"
    assert main([*paths, "--html", str(out)]) == 0
    html = out.read_text()
    assert html.count("±0.5%") == 8
    assert 'class="NOT-COMPARABLE"' in html and "min_time: 0.1 -&gt; 0.5" in html


def test_alpha_is_accepted_and_ignored(tmp_path, capsys):
    assert main([*pair(tmp_path, 1.10, 0.005), "--alpha", "0.01"]) == 1
    assert "--alpha is deprecated and ignored" in capsys.readouterr().err


# --- old files, without process tokens --------------------------------------------------------


def test_an_old_file_of_several_repetitions_is_one_process(tmp_path, capsys):
    old = [{k: v for k, v in e.items() if k != "handoff_process"} for e in entries()]
    slower = [{k: v for k, v in e.items() if k != "handoff_process"} for e in entries(1.2)]
    paths = [write(tmp_path, "a.json", document(old)), write(tmp_path, "b.json", document(slower))]
    assert main([str(path) for path in paths]) == 0
    line = verdict_line(capsys.readouterr().out, FIRST)
    assert " 1/1 " in line and line.endswith("UNRESOLVED")


def test_old_files_merged_count_one_process_each(tmp_path):
    from handoff_reports.merge import merge_documents

    def old_pass(index: int, factor: float) -> dict[str, Any]:
        rows = entries(factor * (1 + index / 1000), processes=1)
        return document([{k: v for k, v in e.items() if k != "handoff_process"} for e in rows])

    baseline = merge_documents([old_pass(i, 1.0) for i in range(3)], ["a", "b", "c"])
    contender = merge_documents([old_pass(i, 1.1) for i in range(3)], ["d", "e", "f"])
    tokens = {e["handoff_process"] for e in baseline["benchmarks"]}
    assert tokens == {"a#0", "b#1", "c#2"} and baseline["context"]["handoff_processes"] == "3"
    comparison = compare_runs(parse_results(baseline), parse_results(contender))
    first = next(row for row in comparison.rows if row.key == FIRST)
    assert first.processes == (3, 3) and first.verdict is Verdict.SLOWER


# --- --machine-noise ----------------------------------------------------------------------------


def machine(content: dict[str, Any], cpu: str = "Test CPU") -> dict[str, Any]:
    content["context"].update(handoff_cpu_model=cpu, handoff_driver_version="1.0")
    return content


def single_process_pair(tmp_path: Path, factor: float) -> list[str]:
    baseline = write(tmp_path, "a.json", machine(document(entries(processes=1))))
    contender = write(tmp_path, "b.json", machine(document(entries(factor, processes=1))))
    return [str(baseline), str(contender)]


def noise_file(tmp_path: Path, cpu: str = "Test CPU", processes: int = 5) -> str:
    # Five processes whose medians spread by about 0.2%.
    rows = [
        entry(key, 1e-4 * (i + 1) * (1 + 0.002 * (p - 2)), 0.002, process=f"m{p}")
        for i, key in enumerate(KEYS)
        for p in range(processes)
    ]
    return str(write(tmp_path, "noise.json", machine(document(rows), cpu)))


def test_machine_noise_turns_a_single_process_into_a_verdict(tmp_path, capsys):
    noise = noise_file(tmp_path)
    assert main([*single_process_pair(tmp_path, 1.10), "--machine-noise", noise]) == 1
    output = capsys.readouterr().out
    line = verdict_line(output, FIRST)
    assert line.endswith("machine/machine  SLOWER") and " 1/1 " in line
    assert f"machine = machine noise from {noise}" in output
    assert main([*single_process_pair(tmp_path, 1.10), "--machine-noise", noise, "--format",
                 "json"]) == 1  # fmt: skip
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    assert rows[FIRST]["spread_source"] == {
        "baseline": f"machine noise from {noise} (5 processes)",
        "contender": f"machine noise from {noise} (5 processes)",
    }
    assert rows[FIRST]["processes"] == {"baseline": 1, "contender": 1}
    assert 0 < rows[FIRST]["resolution"] < 0.03
    assert main([*single_process_pair(tmp_path, 1.10), "--machine-noise", noise, "--format",
                 "markdown"]) == 1  # fmt: skip
    assert f"both: machine noise from {noise} (5 processes)" in capsys.readouterr().out


def test_machine_noise_from_another_machine_is_refused(tmp_path, capsys):
    noise = noise_file(tmp_path, cpu="Another CPU")
    assert main([*single_process_pair(tmp_path, 1.10), "--machine-noise", noise]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "measured on another machine than the baseline (CPU model: Another CPU -> Test CPU)" in (
        captured.err
    )


def test_a_machine_noise_file_of_one_process_is_refused(tmp_path, capsys):
    noise = noise_file(tmp_path, processes=1)
    assert main([*single_process_pair(tmp_path, 1.10), "--machine-noise", noise]) == 2
    assert "no row was measured by two processes or more" in capsys.readouterr().err


def test_machine_noise_is_pooled_with_a_side_of_several_processes(tmp_path, capsys):
    noise = noise_file(tmp_path, processes=9)
    baseline = write(tmp_path, "a.json", machine(document(entries(processes=3))))
    contender = write(tmp_path, "b.json", machine(document(entries(1.10, processes=3))))
    paths = [str(baseline), str(contender), "--machine-noise", noise]
    assert main(paths) == 1
    output = capsys.readouterr().out
    assert verdict_line(output, FIRST).endswith("run+machine/run+machine  SLOWER")
    assert "run+machine = both pooled" in output
    assert main([*paths, "--format", "json"]) == 1
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    assert rows[FIRST]["spread_source"]["baseline"] == (
        f"this run's 3 processes, pooled with machine noise from {noise} (9 processes)"
    )
    assert rows[FIRST]["processes"] == {"baseline": 3, "contender": 3}


def noise_run(tmp_path: Path, name: str, factor: float) -> str:
    # One earlier run of five processes that agree within about 0.2%, `factor` times the base.
    rows = [
        entry(key, 1e-4 * (i + 1) * factor * (1 + 0.002 * (p - 2)), 0.002, process=f"{name}{p}")
        for i, key in enumerate(KEYS)
        for p in range(5)
    ]
    return str(write(tmp_path, f"{name}.json", machine(document(rows))))


def test_machine_noise_of_several_runs_adds_the_spread_between_runs(tmp_path, capsys):
    baseline = write(tmp_path, "a.json", machine(document(entries(processes=3))))
    contender = write(tmp_path, "b.json", machine(document(entries(1.05, processes=3))))
    sides = [str(baseline), str(contender)]
    steady, moved = noise_run(tmp_path, "early", 1.0), noise_run(tmp_path, "late", 1.10)
    # One earlier run: its processes agree, so 5% between the sides is beyond the noise.
    assert main([*sides, "--machine-noise", steady]) == 1
    assert verdict_line(capsys.readouterr().out, FIRST).endswith("SLOWER")
    # Two earlier runs 10% apart: whole runs move by that much, whatever their processes say.
    both = [*sides, "--machine-noise", steady, "--machine-noise", moved]
    assert main(both) == 0
    assert verdict_line(capsys.readouterr().out, FIRST).endswith("UNRESOLVED")
    assert main([*both, "--format", "json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    assert rows[FIRST]["spread_source"]["baseline"] == (
        f"this run's 3 processes, pooled with machine noise from {steady}, {moved} "
        "(10 processes in 2 runs)"
    )
    assert rows[FIRST]["resolution"] > 0.10


def scattered_run(tmp_path: Path, name: str, factor: float) -> str:
    # One earlier run of three processes 10% apart, `factor` times the base.
    rows = [
        entry(key, 1e-4 * (i + 1) * factor * (0.9, 1.0, 1.1)[p], 0.002, process=f"{name}{p}")
        for i, key in enumerate(KEYS)
        for p in range(3)
    ]
    return str(write(tmp_path, f"{name}.json", machine(document(rows))))


def test_runs_that_move_less_than_their_processes_scatter_still_count_as_moving(tmp_path):
    # Two earlier runs 1% apart whose processes scatter by 10%: how far a whole run moves is the
    # runs' own spread, never taken as zero because their processes alone could explain it.
    early, late = scattered_run(tmp_path, "early", 1.0), scattered_run(tmp_path, "late", 1.01)
    spread = load_machine_noise([early, late]).spread_for(FIRST)
    assert spread is not None and spread.runs == 2
    assert spread.run_sd == pytest.approx(math.log(1.01) / math.sqrt(2))


def test_a_call_between_single_runs_warns_that_their_drift_is_not_in_it(tmp_path, capsys):
    baseline = write(tmp_path, "a.json", machine(document(entries(processes=3))))
    contender = write(tmp_path, "b.json", machine(document(entries(1.05, processes=3))))
    sides = [str(baseline), str(contender)]
    warning = "no resolution here includes how far whole runs move on this machine"
    beside_the_call = "how far whole runs move is not in that resolution: see the warning"
    assert main(sides) == 1
    output = capsys.readouterr().out
    assert warning in output
    assert beside_the_call in output.split("why it fails:")[1]
    assert main([*sides, "--format", "json"]) == 1
    assert any(warning in line for line in json.loads(capsys.readouterr().out)["warnings"])
    assert main([*sides, "--format", "markdown"]) == 1
    assert warning in capsys.readouterr().out
    # Two earlier runs say how far whole runs move: no warning.
    steady, again = noise_run(tmp_path, "early", 1.0), noise_run(tmp_path, "again", 1.0)
    assert main([*sides, "--machine-noise", steady, "--machine-noise", again]) == 1
    output = capsys.readouterr().out
    assert warning not in output and beside_the_call not in output
    # Nothing called, nothing to doubt.
    same = write(tmp_path, "c.json", machine(document(entries(processes=3))))
    assert main([str(baseline), str(same)]) == 0
    assert warning not in capsys.readouterr().out


def test_machine_noise_runs_from_another_machine_are_refused(tmp_path, capsys):
    steady = noise_run(tmp_path, "early", 1.0)
    other = write(
        tmp_path, "other.json", machine(json.loads(Path(steady).read_text()), "Another CPU")
    )
    paths = single_process_pair(tmp_path, 1.10)
    assert main([*paths, "--machine-noise", steady, "--machine-noise", str(other)]) == 2
    assert "measured on another machine than" in capsys.readouterr().err


# --- a change of machine ------------------------------------------------------------------------


def two_machines(tmp_path: Path) -> list[str]:
    baseline = write(tmp_path, "a.json", machine(document(entries()), "AMD EPYC"))
    contender = machine(document(entries(1.10)), "Intel(R) Xeon(R) Processor")
    contender["context"].update(handoff_gpu_count="1", handoff_gpu0_name="NVIDIA H200")
    return [str(baseline), str(write(tmp_path, "b.json", contender))]


MACHINES = "GPU model: none -> NVIDIA H200; CPU model: AMD EPYC -> Intel(R) Xeon(R) Processor"


def test_a_change_of_machine_makes_every_row_not_comparable_and_says_so_first(tmp_path, capsys):
    paths = two_machines(tmp_path)
    html = tmp_path / "compare.html"
    assert main([*paths, "--html", str(html)]) == 0
    output = capsys.readouterr().out
    first_line = output.splitlines()[0]
    assert first_line.startswith("NOT COMPARABLE: the runs were measured on different machines")
    assert MACHINES in first_line and "--across-machines compares anyway" in first_line
    for key in KEYS:
        assert verdict_line(output, key.removesuffix("/manual_time")).endswith("NOT COMPARABLE")
    assert "result: no regression; every row NOT COMPARABLE (different machines)" in output
    top = html.read_text().split("<h2>")[0]
    assert 'id="machine"' in top and MACHINES in top.replace("-&gt;", "->")

    assert main([*paths, "--format", "markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "### handoff compare: no regression; every row NOT COMPARABLE (different machines)"
    )
    assert lines[2].startswith("**⚠️ NOT COMPARABLE") and MACHINES in lines[2]

    assert main([*paths, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert next(iter(report)) == "machine"
    assert report["machine"]["comparable"] is False and report["comparable"] is False
    assert report["machine"]["changes"][1] == {
        "fact": "CPU model",
        "baseline": "AMD EPYC",
        "contender": "Intel(R) Xeon(R) Processor",
    }


def test_across_machines_compares_anyway_and_warns_first(tmp_path, capsys):
    assert main([*two_machines(tmp_path), "--across-machines"]) == 1
    output = capsys.readouterr().out
    assert output.startswith("warning: the runs were measured on different machines")
    assert "compared anyway (--across-machines)" in output.splitlines()[0]
    assert verdict_line(output, FIRST).endswith("SLOWER")


def test_rows_the_other_machine_lacks_do_not_fail(tmp_path, capsys):
    baseline, contender = two_machines(tmp_path)
    fewer = json.loads(Path(contender).read_text())
    fewer["benchmarks"] = [e for e in fewer["benchmarks"] if e["name"] != KEYS[1]]
    Path(contender).write_text(json.dumps(fewer))
    assert main([baseline, contender]) == 0
    output = capsys.readouterr().out
    assert "only in baseline: the contender was measured on another machine" in output
    assert main([baseline, contender, "--across-machines"]) == 1  # compared: a missing row fails


def test_another_unit_of_the_same_model_is_the_same_machine(tmp_path, capsys):
    baseline = machine(document(entries()))
    contender = machine(document(entries()))
    for content, uuid in ((baseline, "GPU-1"), (contender, "GPU-2")):
        content["context"].update(
            handoff_gpu_count="1", handoff_gpu0_name="NVIDIA H200", handoff_gpu0_uuid=uuid
        )
        # Each process's own token and layout offsets differ by design: never listed.
        content["context"].update(handoff_process=uuid, handoff_stack_offset=uuid[-1])
    paths = [str(write(tmp_path, f"{n}.json", c)) for n, c in (("a", baseline), ("b", contender))]
    assert main(paths) == 0
    output = capsys.readouterr().out
    assert "machine: the same models, driver and runtime; other details differ" in output
    assert "  handoff_gpu0_uuid: GPU-1 -> GPU-2" in output and "4 SAME" in output
    assert "handoff_process" not in output and "handoff_stack_offset" not in output


# --- the real nightly: four passes of one build, in the old format (no intervals) ---------------


def nightly_passes(*indices: int, separate: bool = False) -> Any:
    """The nightly's passes `indices`; each its own process where `separate` (ci/nightly ran each
    pass as a process of its own, but this file, merged before processes were named, cannot say
    so: read as it is, it is one process)."""
    whole = json.loads((REAL / "h200-nightly.json").read_text())
    kept = copy.deepcopy(whole)
    kept["benchmarks"] = [e for e in whole["benchmarks"] if e.get("repetition_index") in indices]
    if separate:
        for e in kept["benchmarks"]:
            e["handoff_process"] = f"pass-{e['repetition_index']}"
    return parse_results(kept, f"passes {indices}")


def counts(baseline: Any, contender: Any) -> dict[str, int]:
    comparison = compare_runs(baseline, contender)
    return {v.value: n for v, n in comparison.verdict_counts(comparison.benchmarks).items()}


def test_the_nightly_pass_0_against_pass_1_in_the_old_format():
    # The interval rule called 150 SLOWER and 49 FASTER here: one process a side, and each
    # process's own interval taken for the run's. One process says nothing beyond itself.
    assert counts(nightly_passes(0), nightly_passes(1)) == {"UNRESOLVED": 280}


def test_the_nightly_passes_0_1_against_2_3_as_separate_processes():
    # Two processes a side: df about 2 and t near 10 at 99%, so only rows whose passes agreed
    # closely resolve anything; the interval rule called 49 SLOWER and 12 FASTER here.
    assert counts(nightly_passes(0, 1), nightly_passes(2, 3)) == {"UNRESOLVED": 280}
    found = counts(nightly_passes(0, 1, separate=True), nightly_passes(2, 3, separate=True))
    # Judged alone at 1%, one row read SLOWER (its two earlier passes agreed within 1%, and the
    # two later ones too, 8% apart: a shift between the first and the second half of that night)
    # and 2 SAME. Judged together, 280 rows of one build call nothing.
    assert found == {"UNRESOLVED": 280}


# --- real A/A pairs -----------------------------------------------------------------------------
# aa-h100-4c96619-a.json, -b.json (`nvidia-h200` asked for, an H100 lent): two handoff_bench
# processes, one after the other, each timing the headline rows in nine passes with ci/power's
# brief sampling; the second was stopped by the device call's time limit in its ninth pass, so
# its file is marked incomplete and holds eight whole passes. Nine passes of one process are one
# process: no verdict holds beyond it.


def _pairs(prefix: str) -> list[Any]:
    found = sorted(REAL.glob(f"{prefix}-*-a.json"))
    params = [
        pytest.param(
            path, path.with_name(path.name.removesuffix("-a.json") + "-b.json"), id=path.name
        )
        for path in found
    ]
    reason = f"no tests/fixtures/real/{prefix}-<name>-a.json and -b.json pair yet"
    return params or [pytest.param(None, None, marks=pytest.mark.skip(reason=reason))]


@pytest.mark.parametrize(("first", "second"), _pairs("aa"))
def test_a_real_a_a_pair_is_never_slower_or_faster(first: Path, second: Path, capsys):
    comparison = compare_runs(load_results(first), load_results(second))
    rows = comparison.benchmarks
    assert rows
    assert not any(row.verdict in (Verdict.SLOWER, Verdict.FASTER) for row in rows)
    assert main([str(first), str(second)]) == 0


@pytest.mark.parametrize(("first", "second"), _pairs("planted"))
def test_a_real_planted_slowdown_is_found_where_resolved_and_nothing_else(
    first: Path, second: Path
):
    baseline, contender = load_results(first), load_results(second)
    planted = contender.settings.planted or baseline.settings.planted
    assert planted is not None, "the contender's context names no planted slowdown"
    regex = re.compile(planted[1])
    comparison = compare_runs(baseline, contender, ignore_settings=False)

    def is_planted(row: Any) -> bool:
        # The regex as handoff_bench applies it (the name with or without Google Benchmark's
        # suffix), or the row's own planted_slowdown counter.
        names = (row.key, row.key + "/manual_time")
        return any(regex.search(name) for name in names) or bool(row.contender.planted_slowdown)

    hit = [row for row in comparison.benchmarks if is_planted(row)]
    other = [row for row in comparison.benchmarks if row not in hit]
    assert hit, f"no compared row matches {planted[1]!r}"
    resolved = [
        row for row in hit if row.resolution is not None and row.resolution <= planted[0] / 100
    ]
    assert all(row.verdict is Verdict.SLOWER for row in resolved)
    moved = [row.key for row in other if row.verdict in (Verdict.SLOWER, Verdict.FASTER)]
    assert not moved


def test_a_contender_merged_from_a_normal_and_a_ten_times_slower_process_is_never_same(
    tmp_path, capsys
):
    # The interval rule read this row +450.0% SAME, exit 0: one interval stretched over both
    # repetitions overlapped the baseline's.
    from handoff_reports.merge import main as merge

    def process(name: str, token: str, factor: float) -> str:
        rows = [
            entry(key, 1e-4 * (i + 1) * (factor if i == 0 else 1.0), 0.005, process=token)
            for i, key in enumerate(KEYS)
        ]
        return str(write(tmp_path, name, document(rows)))

    baseline = [process("a1.json", "a1", 1.0), process("a2.json", "a2", 1.0)]
    contender = [process("b1.json", "b1", 1.0), process("b2.json", "b2", 10.0)]
    for parts, merged in ((baseline, "a.json"), (contender, "b.json")):
        assert merge([*parts, "-o", str(tmp_path / merged)]) == 0
    capsys.readouterr()
    main([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    line = verdict_line(capsys.readouterr().out, FIRST)
    assert "+450.0%" in line and " 2/2 " in line and " ±>1000% " in line
    assert line.endswith(("SLOWER", "UNRESOLVED")) and not line.endswith("SAME")
