#!/usr/bin/env python3
"""What `compare` sees between two runs of handoff_bench: the proof of its detection power.

--aa: the two runs are of the same build (an A/A pair). At least 95% of the matched rows must read
SAME, none SLOWER, and compare must exit 0.

--planted REGEX: the contender ran with --handoff-plant-slowdown on the rows matching REGEX (a
regex searched in the benchmark name, as handoff_bench matches it). At least --power (90%) of those
rows must read SLOWER, and no other row may read SLOWER or FASTER.

--alternating: BASELINE is one run of several passes made with --handoff-plant-alternate (the
slowdown planted in its even passes only), and there is no CONTENDER: its odd passes are the
baseline, its even passes the contender, compared pair by pair (compare --paired).

Prints the verdict counts and every row that broke the rule; exits 1 when the rule fails.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from handoff_reports.compare import compare_runs
from handoff_reports.compare_stats import Thresholds, Verdict
from handoff_reports.merge import split_alternating
from handoff_reports.results import load_results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("baseline")
    parser.add_argument("contender", nargs="?")
    parser.add_argument(
        "--alternating",
        action="store_true",
        help="BASELINE alternates plain and planted passes",
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--aa", action="store_true", help="the two runs are of one build")
    mode.add_argument(
        "--planted", metavar="REGEX", help="the rows the contender slowed"
    )
    parser.add_argument(
        "--power", type=float, default=0.9, help="share of planted rows to flag"
    )
    parser.add_argument(
        "--same", type=float, default=0.95, help="share of A/A rows to read SAME"
    )
    parser.add_argument(
        "--threshold", type=float, help="compare's threshold (default: its own)"
    )
    arguments = parser.parse_args()

    thresholds = None
    if arguments.threshold is not None:
        thresholds = Thresholds().with_default(arguments.threshold)
    if arguments.alternating == (arguments.contender is not None):
        parser.error("give BASELINE and CONTENDER, or one run with --alternating")
    if arguments.alternating:
        with tempfile.TemporaryDirectory() as folder:
            document = json.loads(Path(arguments.baseline).read_text())
            sides = []
            for name, half in zip(
                ("odd", "even"), split_alternating(document), strict=True
            ):
                path = Path(folder) / f"{name}-passes.json"
                path.write_text(json.dumps(half))
                sides.append(load_results(path))
        comparison = compare_runs(sides[0], sides[1], thresholds, paired=True)
    else:
        comparison = compare_runs(
            load_results(arguments.baseline),
            load_results(arguments.contender),
            thresholds,
        )
    rows = comparison.rows
    if not rows:
        print("FAIL: no row in common", file=sys.stderr)
        return 1
    counts = Counter(row.verdict.value for row in rows)
    print(
        f"{len(rows)} rows compared: "
        + ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
    )
    problems: list[str] = []
    if arguments.aa:
        same = counts.get(Verdict.SAME.value, 0) / len(rows)
        print(
            f"A/A: {same:.1%} SAME (needs {arguments.same:.0%}); compare exit {comparison.exit_code}"
        )
        if same < arguments.same:
            problems.append(f"only {same:.1%} of rows read SAME")
        problems += [
            f"{row.key}: {row.verdict.value} {row.change:+.1%}"
            for row in rows
            if row.verdict is Verdict.SLOWER
        ]
        if comparison.exit_code != 0:
            problems.append(f"compare exits {comparison.exit_code}")
    else:
        planted = re.compile(arguments.planted)
        slowed = [row for row in rows if planted.search(row.key + "/manual_time")]
        others = [row for row in rows if not planted.search(row.key + "/manual_time")]
        flagged = [row for row in slowed if row.verdict is Verdict.SLOWER]
        share = len(flagged) / len(slowed) if slowed else 0.0
        print(
            f"planted: {len(flagged)} of {len(slowed)} slowed rows read SLOWER ({share:.1%}, "
            f"needs {arguments.power:.0%}); {len(others)} other rows"
        )
        for row in slowed:
            if row.verdict is not Verdict.SLOWER:
                print(f"  missed: {row.key}: {row.verdict.value} {row.change:+.1%}")
        if not slowed or share < arguments.power:
            problems.append(f"only {share:.1%} of the planted rows read SLOWER")
        problems += [
            f"{row.key}: {row.verdict.value} {row.change:+.1%} (not planted)"
            for row in others
            if row.verdict in (Verdict.SLOWER, Verdict.FASTER)
        ]
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    if not problems:
        print("ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
