"""A run is one per process (Google Benchmark keeps its context), so runs are made in child
Python processes; HANDOFF_BUILD_DIR, when set, says which build's module they load. A test of a
GPU recipe skips where its library or a GPU is missing, unless HANDOFF_REQUIRE_GPU is set (as
ci/gpu sets it on a GPU machine), which makes that skip a failure, as for the C++ GPU tests."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from handoff import availability

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


def require_gpu_library(library: str) -> None:
    """Skips the test unless `library` is importable and sees a GPU; a failure instead where
    HANDOFF_REQUIRE_GPU is set."""
    reason = availability.needs(library)()
    if not reason:
        return
    if os.environ.get("HANDOFF_REQUIRE_GPU", "") not in ("", "0"):
        pytest.fail(f"HANDOFF_REQUIRE_GPU is set, but {reason}")
    pytest.skip(reason)
