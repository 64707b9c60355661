#!/usr/bin/env python3
"""What `compare` sees between two runs of handoff_bench: the proof of its detection power.

--aa: the two runs are of the same build (an A/A pair). No row may read SLOWER or FASTER, and
compare must exit 0. UNRESOLVED is allowed: a row too noisy to resolve the threshold says so.

--planted REGEX: the contender ran with --handoff-plant-slowdown on the rows matching REGEX (a
regex searched in the benchmark name, as handoff_bench matches it). Every planted row whose stated
resolution is --resolvable (5%) or finer must read SLOWER, and no other row may read SLOWER or
FASTER; --power SHARE also asks that share of all planted rows to read SLOWER. A planted row that
cannot resolve the plant is listed with its resolution, not counted against the check: the
resolution is the promise, and this checks that compare keeps it. Beside each planted row is the
slowdown its delay realised, where handoff_bench recorded it (planted_actual, the median over the
contender's processes): on a row of a few microseconds the delay's own fixed cost (the launch of
its kernel) plants far more than asked, and such a row's SLOWER is no evidence of power at the
asked size, so the rows planted beyond PLANTED_BEYOND times the aim are counted apart.

--machine-noise FILE: as compare's: each row's spread measured earlier on this machine, pooled with
each side's own.

--alternating: BASELINE is one run of several passes made with --handoff-plant-alternate (the
slowdown planted in its even passes only), and there is no CONTENDER: its odd passes are the
baseline, its even passes the contender, compared pair by pair (compare --paired).

Prints the verdict counts and every row that broke the rule; exits 1 when the rule fails.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from handoff_reports.compare import compare_runs
from handoff_reports.compare_stats import Thresholds, Verdict, format_resolution
from handoff_reports.machine_noise import load_machine_noise
from handoff_reports.merge import split_alternating
from handoff_reports.results import load_results


# A planted row that realised more than this multiple of the asked slowdown tests a larger one.
PLANTED_BEYOND = 1.5


def realised_plants(path: str) -> dict[str, tuple[float, float]]:
    """Each planted row's asked and realised slowdown (the median of its processes'
    planted_actual), by row key, where handoff_bench recorded them."""
    document = json.loads(Path(path).read_text())
    asked: dict[str, float] = {}
    realised: defaultdict[str, list[float]] = defaultdict(list)
    for entry in document.get("benchmarks", []):
        if entry.get("run_type") == "iteration" and "planted_actual" in entry:
            key = str(entry["name"]).removesuffix("/manual_time")
            asked[key] = float(entry["planted_slowdown"])
            realised[key].append(float(entry["planted_actual"]))
    return {
        key: (asked[key], statistics.median(values)) for key, values in realised.items()
    }


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
        "--resolvable",
        type=float,
        default=0.05,
        help="a planted row whose resolution is this or finer must read SLOWER",
    )
    parser.add_argument(
        "--power",
        type=float,
        help="besides: at least this share of the planted rows must read SLOWER, whatever "
        "their resolution (a design whose every planted row must be seen)",
    )
    parser.add_argument(
        "--machine-noise",
        metavar="FILE",
        action="append",
        help="as compare's (repeatable)",
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
        noise = (
            load_machine_noise(arguments.machine_noise)
            if arguments.machine_noise
            else None
        )
        comparison = compare_runs(
            load_results(arguments.baseline),
            load_results(arguments.contender),
            thresholds,
            machine_noise=noise,
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
    for line in comparison.family_lines():
        print(line)
    if arguments.aa:
        print(f"A/A: compare exit {comparison.exit_code}")
        problems += [
            f"{row.key}: {row.verdict.value} {row.change:+.1%}"
            for row in rows
            if row.verdict in (Verdict.SLOWER, Verdict.FASTER)
        ]
        if comparison.exit_code != 0:
            problems.append(f"compare exits {comparison.exit_code}")
    else:
        planted = re.compile(arguments.planted)
        slowed = [row for row in rows if planted.search(row.key + "/manual_time")]
        others = [row for row in rows if not planted.search(row.key + "/manual_time")]
        resolvable = [
            row
            for row in slowed
            if row.resolution is not None and row.resolution <= arguments.resolvable
        ]
        flagged = [row for row in slowed if row.verdict is Verdict.SLOWER]
        # Alternating, the one file holds the planted passes.
        plants = realised_plants(arguments.contender or arguments.baseline)
        overshot = [
            row
            for row in slowed
            if row.key in plants
            and plants[row.key][1] > PLANTED_BEYOND * plants[row.key][0]
        ]
        print(
            f"planted: {len(flagged)} of {len(slowed)} slowed rows read SLOWER; "
            f"{len(resolvable)} of them resolve {arguments.resolvable:.0%} or finer; "
            f"{len(others)} other rows"
        )
        if overshot:
            seen = sum(row.verdict is Verdict.SLOWER for row in overshot)
            print(
                f"  of which {len(overshot)} realised more than {PLANTED_BEYOND}x the asked "
                f"slowdown (their delay's fixed cost) and test a larger one: {seen} read "
                f"SLOWER; {len(flagged) - seen} of the other {len(slowed) - len(overshot)} did"
            )
        for row in sorted(slowed, key=lambda r: r.resolution or float("inf")):
            realised = (
                f"planted {plants[row.key][1]:+6.1%}" if row.key in plants else " " * 15
            )
            print(
                f"  {row.verdict.value:10} {row.change:+6.1%}  resolution "
                f"{format_resolution(row.resolution):>8}  {realised}  {row.key}"
            )
        if not slowed:
            problems.append("no row matches the planted REGEX")
        elif (
            arguments.power is not None and len(flagged) / len(slowed) < arguments.power
        ):
            problems.append(
                f"only {len(flagged)} of {len(slowed)} planted rows read SLOWER "
                f"(needs {arguments.power:.0%})"
            )
        problems += [
            f"{row.key}: {row.verdict.value} {row.change:+.1%} although it resolves "
            f"{format_resolution(row.resolution)} (planted)"
            for row in resolvable
            if row.verdict is not Verdict.SLOWER
        ]
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
