"""`progress`: reads handoff_bench's console output on stdin, keeps all of it in a log file, and
prints one line as each benchmark family (pattern/variant) finishes, with the runs done so far,
and one for each benchmark that fails."""

from __future__ import annotations

import argparse
import io
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from handoff_reports.arguments import seconds, whole_number
from handoff_reports.input_files import InputError, read_text
from handoff_reports.names import parse_name
from handoff_reports.output_files import OutputError, check_output_file

AGGREGATE_SUFFIX = re.compile(r"_(mean|median|stddev|cv)$")
ROW = re.compile(r"^(?P<name>[a-z_0-9]+/\S+)\s+(?P<rest>.*)$")
NAME = re.compile(r"^[a-z_0-9]+/\S+$")


class FamilyProgress:
    def __init__(
        self,
        benchmark_names: Iterable[str],
        repetitions: int,
        out: TextIO,
        elapsed_before: float = 0.0,
        label: str = "progress",
    ) -> None:
        self.label = label
        self.expected = Counter(parse_name(name).family for name in benchmark_names)
        self.expected_runs = {
            family: count * repetitions for family, count in self.expected.items()
        }
        self.total = sum(self.expected_runs.values())
        self.done: Counter[str] = Counter()
        self.failed: Counter[str] = Counter()
        self.finished_families = 0
        self.runs = 0
        self.started = time.monotonic() - elapsed_before
        self.out = out

    def say(self, text: str) -> None:
        elapsed = int(time.monotonic() - self.started)
        print(
            f"[{elapsed // 60:3d}:{elapsed % 60:02d}] {self.label}: {text}",
            file=self.out,
            flush=True,
        )

    def feed(self, line: str) -> None:
        match = ROW.match(line.strip())
        if not match or AGGREGATE_SUFFIX.search(match["name"]):
            return
        family = parse_name(match["name"]).family
        if family not in self.expected_runs:
            return
        self.done[family] += 1
        self.runs += 1
        if "ERROR OCCURRED" in match["rest"]:
            self.failed[family] += 1
            self.say(f"FAILED {match['name']}: {match['rest'].split('ERROR OCCURRED:', 1)[-1]}")
        if self.done[family] == self.expected_runs[family]:
            self.finished_families += 1
            failed = f", {self.failed[family]} FAILED" if self.failed[family] else ""
            self.say(
                f"{self.finished_families}/{len(self.expected_runs)} families done: {family} "
                f"({self.expected_runs[family]} runs{failed}; {self.runs}/{self.total} in all)"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="handoff-progress",
        description="Progress lines per benchmark family from handoff_bench's console output "
        "(stdin); the whole output goes to --log.",
    )
    parser.add_argument("--list", required=True, type=Path,
                        help="the output of handoff_bench --benchmark_list_tests")  # fmt: skip
    parser.add_argument("--repetitions", type=whole_number(1), default=1,
                        help="runs of each benchmark (default 1)")  # fmt: skip
    parser.add_argument("--label", default="progress", help="what each line starts with")
    parser.add_argument("--log", required=True, type=Path, help="where the full output goes")
    parser.add_argument("--elapsed-before", type=seconds, default=0.0,
                        help="seconds already spent, for the caller's clock")  # fmt: skip
    arguments = parser.parse_args(argv)
    try:
        # The log is streamed, for reading while it grows, not replaced whole at the end; it
        # keeps every other rule of an output (output_files.py).
        log_path = check_output_file(arguments.log)
        lines = read_text(arguments.list).splitlines()
    except (InputError, OutputError) as error:
        print(f"handoff-progress: {error}", file=sys.stderr)
        return 2
    names = [line.strip() for line in lines if NAME.match(line.strip())]
    # The console output is copied, not judged: bytes that are not UTF-8 (a benchmark's own
    # message) go to the log as they came, rather than stopping the copy halfway.
    for stream in (sys.stdin, sys.stdout):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="surrogateescape")
    progress = FamilyProgress(
        names, arguments.repetitions, sys.stdout, arguments.elapsed_before, arguments.label
    )
    progress.say(f"{len(names)} benchmarks in {len(progress.expected)} families, "
                  f"{progress.total} runs")  # fmt: skip
    try:
        log = log_path.open("w", encoding="utf-8", errors="surrogateescape")
    except OSError as error:
        print(f"handoff-progress: {log_path}: cannot write: {error.strerror}", file=sys.stderr)
        return 2
    with log:
        for line in sys.stdin:
            log.write(line)
            log.flush()
            progress.feed(line)
    return 0
