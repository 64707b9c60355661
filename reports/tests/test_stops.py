"""Every stop is prompt: SIGTERM or Ctrl-C ends the programs a command started, says so in one
line, and exits 128 + the signal's number, never with a traceback."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from handoff_reports import cli
from handoff_reports.children import end_child

PACKAGE = Path(__file__).parent.parent


def _interruptible() -> None:
    # A test runner started in the background of a shell inherits Ctrl-C ignored, and so would the
    # tool, which then rightly keeps ignoring it: the tool starts as it would from a terminal.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _tool(*arguments: str, **options: object) -> subprocess.Popen[str]:
    """`python -m handoff_reports ARGUMENTS` in its own process, its stderr a pipe."""
    return subprocess.Popen(
        [sys.executable, "-m", "handoff_reports", *arguments],
        cwd=PACKAGE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
        **options,  # type: ignore[call-overload]
    )


def _sleeping_bench(tmp_path: Path) -> tuple[str, Path]:
    """A stand-in for handoff_bench that writes its process id, then sleeps for a minute."""
    pids = tmp_path / "pids"
    bench = tmp_path / "sleeping_bench"
    bench.write_text(f"#!/bin/sh\necho $$ >> {pids}\nexec sleep 60\n")
    bench.chmod(bench.stat().st_mode | stat.S_IEXEC)
    return str(bench), pids


def _wait_for_pid(pids: Path, seconds: float = 60) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if pids.exists() and pids.read_text().strip():
            return int(pids.read_text().split()[0])
        time.sleep(0.05)
    raise AssertionError("the stand-in bench never started")


def _running(pid: int) -> bool:
    """Whether pid is alive (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _gone_soon(pid: int, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _running(pid)


@pytest.mark.parametrize(
    ("stop", "status", "line"),
    [
        (signal.SIGTERM, 143, "handoff-compare-builds: stopped by SIGTERM"),
        (signal.SIGINT, 130, "handoff-compare-builds: interrupted"),
    ],
)
def test_a_stopped_compare_builds_ends_its_running_bench(
    tmp_path: Path, stop: signal.Signals, status: int, line: str
) -> None:
    bench, pids = _sleeping_bench(tmp_path)
    tool = _tool("compare-builds", bench, bench, "--pairs", "6")
    child = None
    try:
        child = _wait_for_pid(pids)
        tool.send_signal(stop)
        _, errors = tool.communicate(timeout=30)
        assert _gone_soon(child), "the bench that compare-builds started is still running"
        assert tool.returncode == status
        assert errors.splitlines()[-1] == line
        assert "Traceback" not in errors
    finally:
        tool.kill()
        tool.wait()
        if child is not None and _running(child):
            os.kill(child, signal.SIGKILL)


def test_ctrl_c_in_progress_is_one_line_and_130(tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("pool_prep/seed/chunks:10/elements:1024/manual_time\n")
    tool = _tool(
        "progress", "--list", str(listing), "--log", str(tmp_path / "log.txt"),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert tool.stdout is not None
        tool.stdout.readline()  # its first line: it is reading stdin now
        tool.send_signal(signal.SIGINT)
        _, errors = tool.communicate(timeout=30)
        assert tool.returncode == 130
        assert errors == "handoff-progress: interrupted\n"
    finally:
        tool.kill()
        tool.wait()


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_every_command_answers_ctrl_c_with_one_line(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(argv: list[str] | None) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_command", lambda _: interrupted)
    assert cli.main([name]) == 130
    assert capsys.readouterr().err == f"handoff-{name}: interrupted\n"
    script = getattr(cli, f"{name.replace('-', '_')}_main")
    assert script() == 130
    assert capsys.readouterr().err == f"handoff-{name}: interrupted\n"


def test_a_child_that_ignores_sigterm_is_killed_after_the_grace() -> None:
    stubborn = subprocess.Popen(
        [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
         " print('ready', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert stubborn.stdout is not None
        assert stubborn.stdout.readline() == "ready\n"
        started = time.monotonic()
        end_child(stubborn, grace_seconds=0.5)
        assert stubborn.returncode == -signal.SIGKILL
        assert time.monotonic() - started < 10
    finally:
        stubborn.kill()
        stubborn.wait()
        assert stubborn.stdout is not None
        stubborn.stdout.close()


# Plots on every core, each worker writing its process id and then sleeping, under the guard that
# every command runs in.
PLOTTING = """
import os, sys, time
from handoff_reports.parallel import map_on_every_core
from handoff_reports.stops import run_command

def plot(item):
    with open(sys.argv[1], "a") as pids:
        pids.write(f"{os.getpid()}\\n")
    time.sleep(60)

sys.exit(run_command("plots", lambda: len(map_on_every_core(plot, list(range(20)), 2))))
"""


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: the plots run serially")
def test_a_stop_while_plotting_ends_every_worker_at_once(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    tool = subprocess.Popen(
        [sys.executable, "-c", PLOTTING, str(pids)],
        cwd=PACKAGE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    workers: list[int] = []
    try:
        _wait_for_pid(pids)
        time.sleep(0.5)  # the other workers start their first plot
        workers = [int(pid) for pid in pids.read_text().split()]
        started = time.monotonic()
        tool.send_signal(signal.SIGTERM)
        _, errors = tool.communicate(timeout=30)
        assert time.monotonic() - started < 10
        assert all(_gone_soon(worker) for worker in workers)
        assert tool.returncode == 143
        assert errors == "plots: stopped by SIGTERM\n"
    finally:
        tool.kill()
        tool.wait()
        for worker in workers:
            if _running(worker):
                os.kill(worker, signal.SIGKILL)
