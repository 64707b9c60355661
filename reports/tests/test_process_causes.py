"""`processes`: each process's figure beside its sleeps and machine (process_causes.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from compare_fixtures import as_processes, benchmark_keys, key_of, real_document, write

from handoff_reports.process_causes import CAUSES, main, rank_correlation
from handoff_reports.results import ProcessFigure

EIGHT_PROCESSES = Path(__file__).parent / "fixtures" / "real" / "h200-headline-8-processes-a.json"


def six_processes(slower: dict[str, float]) -> dict[str, Any]:
    """Six processes within 2% of each other on every row, and each row `slower` names with its
    last process that many times slower."""
    document = as_processes(real_document(), count=6, spread=0.004)
    for entry in document["benchmarks"]:
        factor = slower.get(key_of(entry))
        if factor is not None and entry["handoff_process"] == "p5":
            entry["real_time"] *= factor
    return document


def with_counters(document: dict[str, Any], key: str, **columns: list[float | None]) -> None:
    """Gives the row's processes, in order p0..p5, the counters named (None: left unwritten)."""
    for entry in document["benchmarks"]:
        if key_of(entry) == key:
            index = int(entry["handoff_process"].removeprefix("p"))
            for counter, values in columns.items():
                if values[index] is not None:
                    entry[counter] = values[index]


def listed(tmp_path: Path, document: dict[str, Any], *flags: str, capsys) -> str:
    assert main([str(write(tmp_path, "run.json", document)), *flags]) == 0
    return capsys.readouterr().out


def test_slow_processes_that_slept_more_are_shown_beside_their_sleeps(tmp_path, capsys):
    key = benchmark_keys(real_document())[3]
    document = six_processes({key: 1.4})
    with_counters(
        document,
        key,
        voluntary_switches_per_run=[4.0, 4.5, 5.0, 6.0, 8.0, 61.25],
        involuntary_switches_per_run=[12.0] * 6,
        host_busy=[0.30, 0.29, 0.28, 0.27, 0.26, 0.25],
        host_steal=[0.0, 0.001, None, 0.002, 0.003, 0.004],
    )
    output = listed(tmp_path, document, capsys=capsys)
    block = output.split("\n\n")[0]
    assert block.startswith(f"{key}: 6 processes, ")
    lines = block.splitlines()
    assert lines[1].split() == ["figure", "noise", "sleeps", "a", "run", "preemptions", "a", "run",
                                "host", "busy", "host", "steal"]  # fmt: skip
    sleeps = [line.split()[3] for line in lines[2:8]]
    assert sleeps == ["4", "4.5", "5", "6", "8", "61.2"]  # quickest process first
    assert "30.0%" in lines[2] and "25.0%" in lines[7]
    correlations = lines[8]
    assert "sleeps a run +1.00 (p 0.0028)" in correlations  # 2 of the 720 pairings of six
    assert "preemptions a run –" in correlations  # the same in every process: nothing to rank
    assert "host busy -1.00 (p 0.0028)" in correlations
    assert "host steal +1.00 (p 0.017, over the 5 that wrote it)" in correlations  # 2 of 120
    assert lines[4].split()[-1] == "–"  # the process that did not write it


def test_only_rows_that_spread_beyond_the_threshold_are_listed_widest_first(tmp_path, capsys):
    keys = benchmark_keys(real_document())
    output = listed(tmp_path, six_processes({keys[1]: 1.10, keys[4]: 1.30}), capsys=capsys)
    headings = re.findall(r"^(\S+): 6 processes", output, flags=re.MULTILINE)
    assert headings == [keys[4], keys[1]]
    assert "(+3" in output.split("\n\n")[0]  # +30% and the 2% the processes already spread
    wider = listed(tmp_path, six_processes({keys[1]: 1.10}), "--above", "0.125", capsys=capsys)
    assert wider.strip() == "handoff-processes: no row's processes spread by more than 12.5%"
    doubled = six_processes({keys[1]: 2.5, keys[4]: 1.5})
    beyond = listed(tmp_path, doubled, "--above", "1", capsys=capsys)  # more than 100%
    assert re.findall(r"^(\S+): 6 processes", beyond, flags=re.MULTILINE) == [keys[1]]


def test_a_filter_lists_the_rows_it_names_however_little_they_spread(tmp_path, capsys):
    key = benchmark_keys(real_document())[2]
    output = listed(tmp_path, six_processes({}), "--filter", f"^{re.escape(key)}/", capsys=capsys)
    assert re.findall(r"^(\S+): 6 processes", output, flags=re.MULTILINE) == [key]
    nothing = listed(tmp_path, six_processes({}), "--filter", "^no_such_row/", capsys=capsys)
    assert nothing.strip() == "handoff-processes: no row matches the filter"
    few = as_processes(real_document(), count=3)
    named = listed(tmp_path, few, "--filter", f"^{re.escape(key)}/", capsys=capsys)
    assert named.strip() == (
        "handoff-processes: no row the filter names was measured by 4 or more processes (at most 3)"
    )


def test_a_row_that_failed_says_so_beside_its_processes(tmp_path, capsys):
    key = benchmark_keys(real_document())[3]
    document = six_processes({key: 1.4})
    for entry in document["benchmarks"]:
        if key_of(entry) == key and entry["handoff_process"] == "p2":
            entry["wrong"] = 3.0
    heading = listed(tmp_path, document, capsys=capsys).splitlines()[0]
    assert heading.startswith(f"{key}: 6 processes, ") and "; FAILED: " in heading
    assert "wrong" in heading.split("; FAILED: ")[1]


def test_a_run_of_one_process_says_that_nothing_can_be_set_side_by_side(tmp_path, capsys):
    output = listed(tmp_path, real_document(), capsys=capsys)
    assert output.strip() == (
        "handoff-processes: no row was measured by 4 or more processes (at most 1)"
    )


def test_a_real_run_of_eight_processes_lists_its_pools(capsys):
    assert main([str(EIGHT_PROCESSES), "--filter", "^pool_prep/seed/"]) == 0
    output = capsys.readouterr().out
    block = output.split("\n\n")[0].splitlines()
    assert re.match(r"pool_prep/seed/\S+: 8 processes, ", block[0])
    figures_listed = [line.split()[:2] for line in block[2:10]]
    seconds = [float(v) * {"ms": 1e-3, "µs": 1e-6, "s": 1.0}[unit] for v, unit in figures_listed]
    assert seconds == sorted(seconds) and len(seconds) == 8  # quickest first
    assert block[10].startswith("  rank correlation with the figure (Spearman, 8 processes)")


def test_bad_input_is_refused_with_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as refused:
        main([str(EIGHT_PROCESSES), "--filter", "(unclosed"])
    assert refused.value.code == 2
    assert "not a regular expression" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert main([str(broken)]) == 2
    assert capsys.readouterr().err.startswith("handoff-processes: ")


def figures(seconds: list[float], sleeps: list[float | None]) -> list[ProcessFigure]:
    return [
        ProcessFigure(process=str(i), seconds=s, repetitions=1, noise=None, sleeps_per_run=n)
        for i, (s, n) in enumerate(zip(seconds, sleeps, strict=True))
    ]


def test_a_correlation_needs_four_processes_and_something_that_varies():
    sleeps = CAUSES[0]
    assert rank_correlation(figures([1, 2, 3], [1, 2, 3]), sleeps) is None
    assert rank_correlation(figures([1, 2, 3, 4], [5, 5, 5, 5]), sleeps) is None
    assert rank_correlation(figures([2, 2, 2, 2], [1, 2, 3, 4]), sleeps) is None
    # Exact: of the 24 pairings of four, one ranks alike and one opposite, as far from none.
    assert rank_correlation(figures([1, 2, 3, 4, 5], [1, 2, None, 3, 4]), sleeps) == pytest.approx(
        (1.0, 2 / 24, 4)
    )
    ten = rank_correlation(figures(list(range(10)), list(range(10))), sleeps)
    assert ten is not None and ten[0] == pytest.approx(1.0)
    assert 1e-6 < ten[1] < 1e-4  # drawn pairings, not 10!: at least one in 100,000
    opposite = rank_correlation(figures([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]), sleeps)
    assert opposite is not None
    assert opposite[0] == pytest.approx(-1.0) and opposite[2] == 5
