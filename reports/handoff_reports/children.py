"""The programs a command starts: each one is ended when the command stops before it has finished
(an error, Ctrl-C, or SIGTERM raised as stops.Stopped), so that none runs on behind it.

A child is ended as a terminal's user would end it: SIGTERM first, which handoff_bench answers by
writing what it measured and marking its results incomplete, then SIGKILL when it has not ended
within a grace period.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from typing import IO, Any

GRACE_SECONDS = 5.0


def end_child(process: subprocess.Popen[Any], grace_seconds: float = GRACE_SECONDS) -> None:
    """Ends process, and reaps it: SIGTERM, then SIGKILL after grace_seconds."""
    if process.poll() is not None:
        return
    try:
        process.terminate()
        process.wait(grace_seconds)
    except subprocess.TimeoutExpired:
        pass
    finally:
        # Also reached when a second Ctrl-C cuts the grace short: the child goes either way.
        if process.poll() is None:
            process.kill()
            process.wait()


def run_to_end(command: Sequence[str], output: IO[Any]) -> int:
    """Runs command with its stdout and stderr into output; its exit status. Raises OSError when
    the program cannot be started."""
    process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    try:
        return process.wait()
    finally:
        end_child(process)
