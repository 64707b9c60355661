#!/usr/bin/env python3
"""--handoff-axis=NAME:V1,V2 measures the user's own values of a size axis, in place of the
profile's sweep, and says what it measured.

Lists the rows with bytes:4096,2^16 chosen: exactly those two sizes for every host tensor
transfer, and no other size; then runs one of them and finds the choice in the JSON context. An
unknown axis, a value that is not a count, and a size that is no whole number of floats are each a
clear error (exit 2, the flag named) before anything runs.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def fail(message: str) -> None:
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(bench: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([bench, *flags], capture_output=True, text=True, timeout=90, check=False)


def main() -> None:
    bench = sys.argv[1]
    listed = run(bench, "--handoff-axis=bytes:4096,2^16", "--benchmark_list_tests=true",
                 "--benchmark_filter=^tensor_transfer/[a-z_]+/memory:host/")  # fmt: skip
    if listed.returncode != 0:
        fail(f"listing exited {listed.returncode}: {listed.stderr}")
    sizes = {int(m) for m in re.findall(r"/bytes:(\d+)/", listed.stdout)}
    if sizes != {4096, 65536}:
        fail(f"chose bytes 4096 and 2^16, listed {sorted(sizes)}")

    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "chosen.json"
        measured = run(bench, "--handoff-axis=bytes:2^16",
                       "--benchmark_filter=^tensor_transfer/pipe/memory:host/bytes:65536/start:warm/",
                       "--handoff-min-time=0.005", "--handoff-timeout=0.05",
                       f"--benchmark_out={out}")  # fmt: skip
        if measured.returncode != 0:
            fail(f"the run exited {measured.returncode}: {measured.stderr}")
        document = json.loads(out.read_text())
        if document["context"].get("setting_axes") != "bytes:65536":
            fail(f"the context says axes {document['context'].get('setting_axes')!r}")
        names = [b["name"] for b in document["benchmarks"] if "tensor_transfer" in b["name"]]
        if not names or any("bytes:65536" not in name for name in names):
            fail(f"measured {names}")

    for flag, words in (("--handoff-axis=colour:1", "axes that can be set"),
                        ("--handoff-axis=bytes:1e6", "is not a count"),
                        ("--handoff-axis=bytes:4098", "not a whole number of floats")):  # fmt: skip
        refused = run(bench, flag, "--benchmark_list_tests=true")
        if refused.returncode != 2 or words not in refused.stderr or flag not in refused.stderr:
            fail(f"{flag}: exit {refused.returncode}, stderr {refused.stderr!r}")
    print("ok: chosen sizes measured and recorded; bad choices refused")


if __name__ == "__main__":
    main()
