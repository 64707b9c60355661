"""A stand-in for handoff_bench, for tests of ci/measure-processes's budget: its timing is exact
where the real bench's is not. Every row it writes claims `row_seconds` = PRICE; the first round's
processes take no time at all (the first round's prices err on the safe side, as real ones do),
and a further process (one given the filter handoff_reports wide-rows prints) sleeps TAKES per
row, and SLOW_START more if it is the first of them."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from bench_run_support import fail, measure_processes

TEMPLATE = """#!/usr/bin/env python3
import json, os, re, sys, time
arguments = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
chosen = re.compile(arguments.get("--benchmark_filter", ""))
token = f"stand-in-{os.getpid()}"
# Each process's figures 10% from the last one's: processes that disagree by far more than 1%,
# every time (random figures can land within 1% of each other, and a row then spreads by less).
here = os.path.dirname(os.path.abspath(sys.argv[0]))
counter = os.path.join(here, "invocations")
invocation = len(open(counter).read()) if os.path.exists(counter) else 0
with open(counter, "a") as count:
    count.write(".")
rows = []
for name in NAMES:
    full = name + "/manual_time"
    if not chosen.search(full):
        continue
    seconds = 1e-3 * (1.0 + 0.1 * invocation)
    rows.append({
        "name": full, "run_name": full, "run_type": "iteration", "iterations": 1,
        "repetitions": 1, "repetition_index": 0, "threads": 1, "time_unit": "us",
        "real_time": seconds * 1e6, "cpu_time": seconds * 1e6, "noise": 0.001,
        "samples": 10.0, "wrong": 0.0, "verified": 1.0, "row_seconds": PRICE,
        "handoff_process": token,
    })
if arguments.get("--benchmark_filter", "").endswith("_time)?$"):
    started = os.path.join(here, "further-started")
    first_further = not os.path.exists(started)
    open(started, "a").close()
    time.sleep(TAKES * len(rows) + (SLOW_START if first_further else 0.0))
context = {"date": "2026-12-03T00:00:00+00:00", "handoff_process": token, "handoff_version": "0",
           "setting_profile": "default", "setting_max_noise": "0.01",
           "setting_min_samples": "10", "setting_min_time": "0.1", "setting_timeout": "1",
           "setting_max_elements": "268435456", "setting_processes": arguments["--handoff-processes"]}
with open(arguments["--benchmark_out"], "w") as out:
    json.dump({"context": context, "benchmarks": rows}, out)
"""


def write_stand_in(
    folder: Path,
    rows: list[str],
    price: float,
    takes: float = 0.0,
    slow_start: float = 0.0,
) -> Path:
    """An executable stand-in for handoff_bench in `folder` that lists `rows`."""
    bench = folder / "handoff_bench"
    text = TEMPLATE.replace("NAMES", repr(rows)).replace("PRICE", repr(price))
    text = text.replace("TAKES", repr(takes)).replace("SLOW_START", repr(slow_start))
    bench.write_text(text)
    bench.chmod(0o755)
    return bench


def rows_of(part: Path) -> set[str]:
    """The rows one process's results file holds."""
    return {entry["run_name"] for entry in json.loads(part.read_text())["benchmarks"]}


def measure_before_deadline(
    root: Path, bench: Path, rows: list[str], seconds: int
) -> str:
    """ci/measure-processes over `rows` with the stand-in: 3 processes, then 2 more that must be
    done `seconds` from now; what it printed. The processes' files are in run.processes/ beside
    the stand-in. Whether the run ends in time on a loaded machine is not asserted (the wall clock
    of a test is not a measurement); what the tests check is that the rows given to a process fit
    the time ci/measure-processes said it had for them."""
    deadline = int(time.time()) + seconds
    return measure_processes(
        root,
        str(bench),
        bench.parent / "run.json",
        [f"--benchmark_filter=^({'|'.join(rows)})/"],
        HANDOFF_PROCESSES="3",
        HANDOFF_MORE_PROCESSES="2",
        HANDOFF_FINISH_BY=str(deadline),
    )


def announced_seconds(printed: str, pattern: str) -> int:
    """The whole seconds in the first line of `printed` that `pattern` (with one group) matches."""
    found = re.search(pattern, printed)
    if found is None:
        fail(f"ci/measure-processes never printed /{pattern}/:\n{printed}")
    return int(found.group(1))
