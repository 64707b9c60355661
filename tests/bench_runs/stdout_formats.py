#!/usr/bin/env python3
"""handoff_bench honours Google Benchmark's --benchmark_format on standard output.

Runs one quick CPU row three times: with json, standard output must be one JSON document with a
context and the row, and nothing else, the summary against the ceilings going to standard error; with csv, a header line then the row; with console (the
default), the table. An unknown format is a clear error
(exit 2). The results file (--benchmark_out) stays handoff's annotated JSON, and with
--benchmark_out_format=csv holds Google Benchmark's CSV of every row the run measured.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROW = "^tensor_transfer/pipe/memory:host/bytes:4096/start:warm/"
# A row with other counters (no stages, no floor): Google Benchmark's CSV reporter fixes its
# columns at the first rows it gets, so handoff must hand it every row at once.
OTHER_ROW = "^elementwise/cpu_serial/workload:vector_add/elements:65536/"


def fail(message: str) -> None:
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(
    bench: str, *flags: str, out: Path, rows: str = ROW
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            bench,
            f"--benchmark_filter={rows}",
            "--handoff-min-time=0.005",
            "--handoff-timeout=0.05",
            f"--benchmark_out={out}",
            *flags,
        ],
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )


def check_results_file(out: Path, format_name: str) -> None:
    document = json.loads(out.read_text())
    if not any(b["name"].startswith(ROW[1:]) for b in document["benchmarks"]):
        fail(f"{format_name}: the results file lacks the row")
    if "handoff_run" not in document:
        fail(f"{format_name}: the results file is not handoff's annotated JSON")
    # Where a process's pages land (NUMA nodes, transparent huge pages) is part of the machine.
    for key in ("handoff_numa_nodes", "handoff_transparent_hugepages"):
        if not document["context"].get(key):
            fail(f"{format_name}: the results file's context lacks {key}")


def main() -> int:
    bench = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run.json"

        as_json = run(bench, "--benchmark_format=json", out=out)
        if as_json.returncode != 0:
            fail(f"json: exit {as_json.returncode}\n{as_json.stderr}")
        try:
            printed = json.loads(as_json.stdout)
        except json.JSONDecodeError as error:
            fail(
                f"json: standard output is not one JSON document ({error}):\n{as_json.stdout}"
            )
        names = [b["name"] for b in printed["benchmarks"]]
        # The row needs the pipe ceiling, which the run measures after it and prices it with.
        if "Ceilings measured in this run" not in as_json.stderr:
            fail(f"json: the summary did not go to standard error:\n{as_json.stderr}")
        if "context" not in printed or not any(n.startswith(ROW[1:]) for n in names):
            fail(f"json: no context or no row in {names}")
        check_results_file(out, "json")

        as_csv = run(
            bench, "--benchmark_format=csv", out=out, rows=f"{OTHER_ROW}|{ROW}"
        )
        if as_csv.returncode != 0:
            fail(f"csv: exit {as_csv.returncode}\n{as_csv.stderr}")
        table = list(csv.reader(io.StringIO(as_csv.stdout)))
        if not table or table[0][:3] != ["name", "iterations", "real_time"]:
            fail(f"csv: no header line:\n{as_csv.stdout}")
        for row in (ROW, OTHER_ROW):
            if not any(line and line[0].startswith(row[1:]) for line in table[1:]):
                fail(f"csv: no row {row}:\n{as_csv.stdout}")
        check_results_file(out, "csv")

        as_console = run(bench, out=out)
        if as_console.returncode != 0:
            fail(f"console: exit {as_console.returncode}\n{as_console.stderr}")
        if "Benchmark" not in as_console.stdout or ROW[1:] not in as_console.stdout:
            fail(f"console: no table:\n{as_console.stdout}")
        if " us " not in as_console.stdout:
            fail(f"console: rows not in microseconds by default:\n{as_console.stdout}")
        if "***WARNING*** Library was built as DEBUG" in as_console.stderr:
            fail(f"console: the library's DEBUG warning, unexplained:\n{as_console.stderr}")

        # --benchmark_time_unit is Google Benchmark's: honoured on the console and in the file.
        in_ms = run(bench, "--benchmark_time_unit=ms", out=out)
        if in_ms.returncode != 0 or " ms " not in in_ms.stdout:
            fail(f"time unit ms: exit {in_ms.returncode}, not in ms:\n{in_ms.stdout}")
        units = {entry["time_unit"] for entry in json.loads(out.read_text())["benchmarks"]}
        if units != {"ms"}:
            fail(f"time unit ms: the results file's rows are in {units}")

        # A CSV results file keeps the row and the ceilings measured after it, which Google
        # Benchmark's own file would have lost when it reopened the file for them.
        csv_out = Path(folder) / "run.csv"
        as_csv_file = run(
            bench, "--benchmark_out_format=csv", out=csv_out, rows=f"{OTHER_ROW}|{ROW}"
        )
        if as_csv_file.returncode != 0:
            fail(f"csv file: exit {as_csv_file.returncode}\n{as_csv_file.stderr}")
        written = csv_out.read_text()
        if ROW[1:] not in written or "ceilings/pipe_between_processes/" not in written:
            fail(f"csv file: the row or its ceilings are missing:\n{written}")

        unknown = run(bench, "--benchmark_format=xml", out=out)
        if unknown.returncode != 2 or "console, json or csv" not in unknown.stderr:
            fail(f"xml: exit {unknown.returncode}, {unknown.stderr!r}")
    print("ok: console, json and csv on standard output; xml refused; --benchmark_time_unit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
