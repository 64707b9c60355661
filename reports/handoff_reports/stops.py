"""How every command stops early: on Ctrl-C (SIGINT), SIGTERM or SIGHUP it says so in one line on
stderr and exits 128 + the signal's number, as a shell reports a program a signal ended; on a
stdout closed under it (`handoff-compare A B | head`) it exits 141, as one SIGPIPE ended, with
nothing on stderr. Never with a traceback.

A signal reaches the command's code as an exception (KeyboardInterrupt, or Stopped) rather than
ending the process where it stands, so that the `finally` blocks that end the programs it started
(children.py) and remove its temporary files run first.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

# SIGINT already raises KeyboardInterrupt (Python's own handler).
RAISED = (signal.SIGTERM, signal.SIGHUP)
EXIT_CLOSED_STDOUT = 128 + signal.SIGPIPE


class Stopped(BaseException):
    """A SIGTERM or SIGHUP, raised where the command was; a BaseException, as KeyboardInterrupt
    is, so that no `except Exception` takes it for an error to report and carry on from."""

    def __init__(self, number: int) -> None:
        super().__init__(signal.Signals(number).name)
        self.number = number


def _raise_stopped(number: int, frame: FrameType | None) -> None:
    raise Stopped(number)


@contextmanager
def signals_raise() -> Iterator[None]:
    """SIGTERM and SIGHUP raise Stopped inside the block. One that was ignored when the command
    started stays ignored (`nohup` ignores SIGHUP); outside the main thread nothing changes, since
    only the main thread may set handlers."""
    previous: dict[signal.Signals, Callable[[int, FrameType | None], object] | int | None] = {}
    if threading.current_thread() is threading.main_thread():
        for number in RAISED:
            handler = signal.getsignal(number)
            if handler == signal.SIG_DFL:
                previous[number] = handler
                signal.signal(number, _raise_stopped)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _say(program: str, text: str) -> None:
    try:
        print(f"{program}: {text}", file=sys.stderr, flush=True)
    except OSError:
        pass  # stderr is gone too: the exit status is all that is left to tell


def _quiet_stdout() -> None:
    """Points stdout at /dev/null, so that the interpreter's last flush of what is still buffered
    finds a place to go instead of printing its own BrokenPipeError at exit."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return  # not a real file (a test's captured stdout): nothing will be flushed to a pipe
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)


def run_command(program: str, command: Callable[[], int]) -> int:
    """command's exit status, or the status of how it was stopped."""
    try:
        with signals_raise():
            status = command()
            sys.stdout.flush()  # a closed pipe shows here, inside this try, not at exit
            return status
    except KeyboardInterrupt:
        _say(program, "interrupted")
        return 128 + signal.SIGINT
    except Stopped as stop:
        _say(program, f"stopped by {stop}")
        return 128 + stop.number
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_CLOSED_STDOUT
