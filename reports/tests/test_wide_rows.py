import math
import re
import statistics
from pathlib import Path

import pytest

from handoff_reports.results import by_process, load_results
from handoff_reports.wide_rows import benchmark_filter, main, spread_between

EIGHT_PROCESSES = Path(__file__).parent / "fixtures" / "real" / "h200-headline-8-processes-a.json"


def _spread(row) -> float:
    return statistics.stdev(math.log(p.seconds) for p in by_process(row.repetition_figures))


def test_only_rows_between_the_two_spreads_are_chosen():
    rows = load_results(EIGHT_PROCESSES).rows
    chosen = set(spread_between(rows.values(), 0.01, 0.12))
    # An HBM copy timed by CUDA events: its eight processes agree to a fraction of a percent.
    assert "ceilings/hbm_device_copy/method:memcpy/bytes:268435456" not in chosen
    assert chosen, "a real run of eight processes has rows that spread by a few percent"
    for key, row in rows.items():
        spread = max(_spread(row), 0.0)
        if key in chosen:
            assert spread < 0.12
        elif 0.011 < spread < 0.119:
            pytest.fail(f"{key} spreads by {spread:.3f} and was not chosen")


def test_the_filter_selects_exactly_the_chosen_rows_with_or_without_the_timer_suffix():
    keys = ["tensor_transfer/pipe/memory:device/bytes:4194304/start:warm", "iterative/graph/u:1"]
    pattern = re.compile(benchmark_filter(keys))
    assert pattern.search("tensor_transfer/pipe/memory:device/bytes:4194304/start:warm/manual_time")
    assert pattern.search("iterative/graph/u:1")
    assert not pattern.search("tensor_transfer/pipe/memory:device/bytes:4194304/start:cold")
    assert not pattern.search("iterative/graph/u:16")
    assert not pattern.search("x/iterative/graph/u:1")
    assert benchmark_filter([]) == ""


def test_the_command_prints_the_filter_and_refuses_bounds_the_wrong_way(capsys):
    assert main([str(EIGHT_PROCESSES)]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed.startswith("^(") and printed.endswith(")(/[a-z_]+_time)?$")
    with pytest.raises(SystemExit):
        main([str(EIGHT_PROCESSES), "--above", "0.2", "--below", "0.1"])


def test_a_damaged_file_is_a_clear_error(tmp_path, capsys):
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"context": {}, "benchmarks": "none"}')
    assert main([str(damaged)]) == 2
    assert "handoff-wide-rows:" in capsys.readouterr().err
