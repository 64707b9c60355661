"""Processes a hypervisor took the machine's CPU from are set aside: the rule on its own, end to
end on small synthetic files, and on a real H200 pair whose planted side had one such process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from contract14_fixtures import document, entry, write

from handoff_reports.compare import compare_runs
from handoff_reports.compare_cli import main
from handoff_reports.process_causes import main as processes_main
from handoff_reports.process_level import STOLEN_SHARE_LIMIT, set_aside_stolen
from handoff_reports.process_strip import process_strip
from handoff_reports.results import ProcessFigure, load_results

REAL = Path(__file__).parent / "fixtures" / "real"
ROW = "postproc_split/overlapped/target:device/elements:10000000/chunks:10/workers:4/start:warm"


def process(name: str, seconds: float, steal: float | None) -> ProcessFigure:
    return ProcessFigure(name, seconds, 1, 0.01, host_steal=steal)


def test_a_process_at_the_limit_is_set_aside_and_one_below_is_kept():
    processes = [process(f"p{i}", 1.0, 0.0) for i in range(6)]
    processes += [process("at", 1.3, STOLEN_SHARE_LIMIT), process("below", 1.0, 0.009)]
    kept, aside = set_aside_stolen(processes)
    assert [p.process for p in aside] == ["at"]
    assert len(kept) == 7 and all(p.process != "at" for p in kept)


def test_nothing_is_set_aside_where_fewer_than_half_or_three_would_be_kept():
    half_stolen = [process(f"s{i}", 1.2, 0.05) for i in range(5)]
    half_stolen += [process(f"q{i}", 1.0, 0.0) for i in range(4)]
    assert set_aside_stolen(half_stolen) == (half_stolen, [])
    one_left = [process("s0", 1.2, 0.05), process("s1", 1.2, 0.05), process("q", 1.0, 0.0)]
    assert set_aside_stolen(one_left) == (one_left, [])
    # Two left of three: a spread of one degree of freedom would cost more than the third did.
    two_left = [process("s0", 1.2, 0.05), process("q0", 1.0, 0.0), process("q1", 1.0, 0.0)]
    assert set_aside_stolen(two_left) == (two_left, [])
    three_left = [*two_left, process("q2", 1.0, 0.0)]
    assert [p.process for p in set_aside_stolen(three_left)[1]] == ["s0"]


def test_a_process_without_a_recorded_steal_is_kept():
    processes = [process("old", 1.0, None), process("new", 1.0, 0.0)]
    assert set_aside_stolen(processes) == (processes, [])


def _side(tmp_path: Path, name: str, factor: float, stolen: float, slow: bool = True) -> str:
    """Eight processes of one row within 1% of each other; where `slow`, the last took 30%
    longer and a hypervisor took `stolen` of the machine's CPU while it ran."""
    entries: list[dict[str, Any]] = []
    for index in range(8):
        spread = 1.0 + 0.01 * (index % 4 - 1.5) / 1.5 * 0.5
        seconds = 9e-4 * factor * (1.3 if slow and index == 7 else spread)
        row = entry(ROW + "/manual_time", seconds, 0.01, repetitions=8, repetition=index)
        row["handoff_process"] = f"{name}{index}"
        row["host_steal"] = stolen if slow and index == 7 else 0.0
        entries.append(row)
    return str(write(tmp_path, f"{name}.json", document(entries)))


def test_a_slow_process_the_hypervisor_interrupted_no_longer_hides_a_change(tmp_path, capsys):
    baseline = _side(tmp_path, "a", 1.0, 0.0, slow=False)
    # Left in, the slow process widens the contender past the change: UNRESOLVED.
    assert main([baseline, _side(tmp_path, "b", 1.06, 0.0)]) == 0
    assert "UNRESOLVED" in capsys.readouterr().out
    # Set aside, the seven others resolve it.
    interrupted = _side(tmp_path, "c", 1.06, 0.027)
    assert main([baseline, interrupted]) == 1
    output = capsys.readouterr().out
    line = next(line for line in output.splitlines() if line.startswith(ROW + " "))
    assert line.endswith("SLOWER") and " 8/7+1 " in line
    assert "+N: N more set aside, since a hypervisor took 1% or more" in output
    assert main([baseline, interrupted, "--format", "json"]) == 1
    row = json.loads(capsys.readouterr().out)["rows"][0]
    assert row["processes"] == {"baseline": 8, "contender": 7}
    assert row["set_aside"] == {"baseline": 0, "contender": 1}


def test_the_real_overlapped_split_resolves_5_percent_once_its_interrupted_process_is_aside(capsys):
    # One H200, OpenBLAS loaded at first use: the plain run, and one with 5% planted on the
    # headline rows, in which one process of the overlapped split read 1.181 ms while a
    # hypervisor took 2.7% of the machine's CPU (the other fifteen: 0 to 0.3%).
    plain = REAL / "h200-openblas-at-use-postproc-plain.json"
    planted = REAL / "h200-openblas-at-use-postproc-planted.json"
    assert main([str(plain), str(planted), "--format", "json"]) == 1
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    overlapped = rows[ROW]
    assert overlapped["set_aside"] == {"baseline": 0, "contender": 1}
    assert overlapped["verdict"] == "SLOWER"
    assert overlapped["resolution"] <= 0.05


def test_the_processes_command_marks_the_process_compare_sets_aside(capsys):
    planted = REAL / "h200-openblas-at-use-postproc-planted.json"
    assert processes_main([str(planted), "--filter", "^postproc_split/overlapped"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("1 set aside by compare (*)")
    marked = [line for line in lines if line.lstrip().startswith("* ")]
    assert len(marked) == 1 and "1.181 ms" in marked[0] and marked[0].endswith("2.7%")


def test_the_html_strip_draws_a_process_set_aside_hollow_and_says_why():
    plain = load_results(REAL / "h200-openblas-at-use-postproc-plain.json")
    planted = load_results(REAL / "h200-openblas-at-use-postproc-planted.json")
    row = next(row for row in compare_runs(plain, planted).rows if row.key == ROW)
    strip = process_strip(row)
    assert strip is not None
    assert strip.count('fill="none"') == 1 and strip.count("<circle") == 16
    assert "set aside: 2.7% of the CPU stolen" in strip
