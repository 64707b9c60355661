#!/usr/bin/env python3
"""No row of the default profile is renamed or dropped unawares.

compare, the report's history and the nightly's change points match rows by name: a row whose
name changes loses its history and reads as missing. So the names the default profile lists on a
machine of 0, 1, 2 and 4 GPUs (--handoff-list-as-gpus, which lists as such a machine would) are
kept in row_names/, and every one of them must still be listed. New rows are welcome; a row
dropped or renamed on purpose is written into the lists again with --write, in the same commit.

Usage: stable_row_names.py HANDOFF_BENCH [--write]
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GPU_COUNTS = (0, 1, 2, 4)
KEPT = Path(__file__).parent / "row_names"
# A build's own kernels (HANDOFF_USER_KERNELS) add rows of their own; they are the user's.
USER_WORKLOAD_MARK = "workload:square_plus_device_value"


def listed_rows(bench: str, gpus: int) -> list[str]:
    flags = ["--benchmark_list_tests=true"]
    if gpus > 0:
        flags.append(f"--handoff-list-as-gpus={gpus}")
    listing = subprocess.run([bench, *flags], capture_output=True, text=True, timeout=120,
                             check=False)  # fmt: skip
    if listing.returncode != 0:
        sys.exit(f"FAIL: listing as {gpus} GPUs exited {listing.returncode}: {listing.stderr}")
    rows = [line.strip() for line in listing.stdout.splitlines() if line.strip()]
    return [row for row in rows if USER_WORKLOAD_MARK not in row]


def kept_file(gpus: int) -> Path:
    return KEPT / f"gpus-{gpus}.txt"


def main() -> int:
    bench = sys.argv[1]
    if sys.argv[2:] == ["--write"]:
        KEPT.mkdir(exist_ok=True)
        for gpus in GPU_COUNTS:
            kept_file(gpus).write_text("\n".join(listed_rows(bench, gpus)) + "\n")
        print(f"wrote the row names of {len(GPU_COUNTS)} machines into {KEPT}")
        return 0
    lost_any = False
    for gpus in GPU_COUNTS:
        kept = kept_file(gpus).read_text().split()
        if not kept:
            sys.exit(f"FAIL: {kept_file(gpus)} lists no row")
        listed = set(listed_rows(bench, gpus))
        lost = [row for row in kept if row not in listed]
        for row in lost:
            print(f"FAIL: {gpus} GPUs: {row} is no longer listed", file=sys.stderr)
        lost_any |= bool(lost)
        print(f"{gpus} GPUs: {len(kept)} kept rows all listed" if not lost else
              f"{gpus} GPUs: {len(lost)} of {len(kept)} kept rows lost")  # fmt: skip
    if lost_any:
        print("A renamed or dropped row loses its history in compare and the nightly. If that is "
              f"meant, run {Path(__file__).name} HANDOFF_BENCH --write and commit the lists.",
              file=sys.stderr)  # fmt: skip
    return 1 if lost_any else 0


if __name__ == "__main__":
    sys.exit(main())
