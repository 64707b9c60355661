"""A run is one per process (Google Benchmark keeps its context), so runs are made in child
Python processes; HANDOFF_BUILD_DIR, when set, says which build's module they load."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent / "scripts"
Runner = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_python() -> Runner:
    def run(*arguments: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *arguments],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=dict(os.environ),
            check=False,
        )

    return run
