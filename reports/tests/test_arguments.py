"""Arguments that make no sense (a negative count, a folder that is not there) are refused with
exit 2 and a line that says what is allowed, before any work; none is quietly taken."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from handoff_reports import cli

REAL = Path(__file__).parent / "fixtures" / "real"
SINGLE = str(REAL / "h200-1gpu.json")


def _status(arguments: list[str]) -> int:
    try:
        return cli.main(arguments)
    except SystemExit as stop:  # argparse's usage errors
        return stop.code if isinstance(stop.code, int) else 2


def _listing(tmp_path: Path) -> str:
    listing = tmp_path / "list.txt"
    listing.write_text("pool_prep/seed/chunks:10/elements:1024/manual_time\n")
    return str(listing)


def _progress(tmp_path: Path, *extra: str) -> list[str]:
    return ["progress", "--list", _listing(tmp_path), "--log", str(tmp_path / "log"), *extra]


CASES = {
    "previous, a missing root": (
        lambda tmp: ["previous", "--root", str(tmp / "nonexistent"), SINGLE],
        "is not a directory",
    ),
    "previous, a root that is a file": (
        lambda tmp: ["previous", "--root", SINGLE, SINGLE],
        "is not a directory",
    ),
    "progress, negative repetitions": (
        lambda tmp: _progress(tmp, "--repetitions", "-5"),
        "is not a whole number of 1 or more",
    ),
    "progress, zero repetitions": (
        lambda tmp: _progress(tmp, "--repetitions", "0"),
        "is not a whole number of 1 or more",
    ),
    "progress, negative elapsed time": (
        lambda tmp: _progress(tmp, "--elapsed-before", "-3"),
        "is not a number of seconds, 0 or more",
    ),
    "progress, elapsed time not a number": (
        lambda tmp: _progress(tmp, "--elapsed-before", "nan"),
        "is not a number of seconds, 0 or more",
    ),
    "compare-builds, too few pairs": (
        lambda tmp: ["compare-builds", sys.executable, sys.executable, "--pairs", "-1"],
        "is not a whole number of 6 or more",
    ),
    "compare-builds, a negative threshold": (
        lambda tmp: ["compare-builds", sys.executable, sys.executable, "--threshold", "-0.1"],
        "is not a fraction between 0 and 1",
    ),
    "compare-builds, a threshold that is not a number": (
        lambda tmp: ["compare-builds", sys.executable, sys.executable, "--threshold", "nan"],
        "is not a fraction between 0 and 1",
    ),
    "track check, negative recent nights": (
        lambda tmp: ["track", "check", "--recent", "-1"],
        "is not a whole number of 0 or more",
    ),
    "track check, a p-value of 0": (
        lambda tmp: ["track", "check", "--max-pvalue", "0"],
        "is not a fraction between 0 and 1",
    ),
    "track check, a p-value above 1": (
        lambda tmp: ["track", "check", "--max-pvalue", "1.5"],
        "is not a fraction between 0 and 1",
    ),
    "processes, a spread of 0": (
        lambda tmp: ["processes", SINGLE, "--above", "0"],
        "is not a number above 0",
    ),
    "processes, a spread that is not a number": (
        lambda tmp: ["processes", SINGLE, "--above", "inf"],
        "is not a number above 0",
    ),
    "track check, a threshold that is not a number": (
        lambda tmp: ["track", "check", "--threshold", "nan"],
        "is not a fraction such as 0.05 or 5%",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_nonsense_is_refused_with_the_allowed_range(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments, allowed = CASES[case]
    assert _status(arguments(tmp_path)) == 2
    captured = capsys.readouterr()
    assert allowed in captured.err.splitlines()[-1], captured.err
    assert captured.out == ""


def test_compare_builds_checks_both_programs_before_running_either(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = tmp_path / "ran"
    bench = tmp_path / "bench"
    bench.write_text(f"#!/bin/sh\ntouch {ran}\n")
    bench.chmod(bench.stat().st_mode | stat.S_IEXEC)
    missing = str(tmp_path / "missing_bench")
    assert _status(["compare-builds", str(bench), missing]) == 2
    errors = capsys.readouterr().err
    assert errors.splitlines() == [
        f"handoff-compare-builds: {missing}: no such program, or not executable"
    ]
    assert not ran.exists()
    not_executable = tmp_path / "plain"
    not_executable.write_text("")
    assert _status(["compare-builds", str(not_executable), str(bench)]) == 2
    assert "no such program" in capsys.readouterr().err
    assert not ran.exists()
