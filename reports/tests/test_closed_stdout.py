"""`handoff-compare A B | head -30`: a reader that stops early ends the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent
REAL = Path(__file__).parent / "fixtures" / "real"
COMMANDS = [
    ["compare", str(REAL / "h200-1gpu.json"), str(REAL / "h200-1gpu.json")],
    ["claims", str(REAL / "h200-1gpu.json")],
    ["headline", str(REAL / "h200-1gpu.json")],
]


@pytest.mark.parametrize("arguments", COMMANDS, ids=lambda arguments: arguments[0])
def test_a_closed_stdout_ends_the_command_without_a_traceback(arguments: list[str]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first line, as `head` is after its last
    try:
        finished = subprocess.run(
            [sys.executable, "-m", "handoff_reports", *arguments],
            cwd=PACKAGE,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)
    assert "Traceback" not in finished.stderr
    assert "BrokenPipeError" not in finished.stderr
    assert len(finished.stderr.splitlines()) <= 1
    assert finished.returncode == 141
