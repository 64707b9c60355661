"""What the tests that drive handoff_bench from outside share: running it, its children, and
checking that a run left nothing behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn


def fail(message: str) -> NoReturn:
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def skip(message: str) -> NoReturn:
    # ctest's SKIP_RETURN_CODE for these tests.
    print(f"SKIPPED: {message}")
    sys.exit(77)


def measure_processes(
    root: Path, bench: str, results: Path, arguments: list[str], **environment: str
) -> str:
    """ci/measure-processes RESULTS BENCH ARGUMENTS with these environment variables added; its
    standard output. A failure fails the test with the end of what it printed."""
    done = subprocess.run(
        [str(root / "ci/measure-processes"), str(results), bench, *arguments],
        cwd=root,
        env=dict(os.environ, **environment),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        fail(
            f"measuring {results.name} failed ({done.returncode}):\n"
            f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return done.stdout


def live_processes() -> Iterator[tuple[int, list[str]]]:
    """(pid, the fields of /proc/PID/stat after the command name) of every process not a zombie."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The fields after the command name, which may hold spaces, start after the last ')'.
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            yield int(entry.name), fields


def children_of(pid: int) -> list[int]:
    return [child for child, fields in live_processes() if int(fields[1]) == pid]


def workers_of(pid: int) -> list[int]:
    """The children that already run as workers. A child still between posix_spawn's vfork and
    its exec holds its parent suspended, so stopping it there would stop the parent too."""
    found = []
    for child in children_of(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"--handoff-worker=" in command:
            found.append(child)
    return found


def wait_for_workers(
    bench: subprocess.Popen[str],
    results: Path | None = None,
    seconds: float = 120,
    none_if_it_ends: bool = False,
) -> list[int]:
    """The run's workers once it has some (and, given its results file, a row measured); with
    none_if_it_ends, an empty list when the run ends first, rather than a failure."""
    deadline = time.monotonic() + seconds
    while (results is not None and rows_in(results) < 1) or not (
        workers := workers_of(bench.pid)
    ):
        if bench.poll() is not None:
            if none_if_it_ends:
                return []
            fail(
                f"handoff_bench ended (status {bench.returncode}) before it had workers"
            )
        if time.monotonic() > deadline:
            os.killpg(bench.pid, signal.SIGKILL)
            fail(f"no workers (and a row measured) after {seconds} s")
        time.sleep(0.01)
    return workers


def processes_of_session(session: int) -> list[int]:
    return [pid for pid, fields in live_processes() if int(fields[3]) == session]


def rows_in(path: Path) -> int:
    try:
        return len(json.loads(path.read_text())["benchmarks"])
    except (OSError, ValueError, KeyError):
        return 0


def start(
    bench: str, arguments: list[str], with_stdout: bool = False, **options: Any
) -> subprocess.Popen[str]:
    """with_stdout: the console table, where a failed row's error stands, comes with standard
    error."""
    return subprocess.Popen(
        [bench, *arguments],
        stdout=subprocess.PIPE if with_stdout else subprocess.DEVNULL,
        stderr=subprocess.STDOUT if with_stdout else subprocess.PIPE,
        text=True,
        start_new_session=True,
        **options,
    )


def finish(bench: subprocess.Popen[str], seconds: float) -> str:
    """Its standard error once it has ended; a failure if it runs past seconds."""
    try:
        output, errors = bench.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(bench.pid, signal.SIGKILL)
        output, errors = bench.communicate()
        errors = errors if errors is not None else output
        tail = "\n".join(errors.splitlines()[-15:])
        fail(
            f"handoff_bench did not end within {seconds} s; the end of its output:\n{tail}"
        )
    return errors if errors is not None else output


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def nothing_left_of(bench: subprocess.Popen[str]) -> None:
    """No process of the run's session, and so none of its shared memory, which lives only while
    a process holds it."""
    deadline = time.monotonic() + 5
    while (left := processes_of_session(bench.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    if left:
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        fail(f"processes left behind: {left}")
