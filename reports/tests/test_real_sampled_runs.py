"""The verdict rule and the report on real runs of the sampling harness, from one H200
(`nvidia-h200`, a gVisor sandbox, 2026-11-24): what they say is what a user of that machine gets.

- h200-default-profile.json: `ci/bench`, the default profile.
- h200-sampled-pass-2.json, -3.json: two passes of one `ci/nightly` (one build, separate
  processes): an A/A pair of single runs.
- h200-three-passes-a.json, -b.json: passes 1-3 and 4-6 of one `ci/nightly` of six passes, merged.
- h200-power-plain.json, -planted.json: `ci/power`, three plain runs merged against three runs
  with 5% planted on the headline rows, merged.
"""

from __future__ import annotations

import re
from pathlib import Path

from handoff_reports.compare import compare_runs
from handoff_reports.compare_stats import Verdict
from handoff_reports.report import noise_summary
from handoff_reports.results import load_results

REAL = Path(__file__).parent / "fixtures" / "real"


def verdicts(baseline: str, contender: str) -> dict[str, str]:
    comparison = compare_runs(load_results(REAL / baseline), load_results(REAL / contender))
    return {row.key: row.verdict.value for row in comparison.rows}


def test_the_default_profile_records_its_settings_and_noise() -> None:
    run = load_results(REAL / "h200-default-profile.json")
    assert run.settings.profile == "default"
    assert not run.run_state.incomplete
    rows = list(run.rows.values())
    assert len(rows) == 272
    assert all(row.repetition_figures and row.repetition_figures[0].samples for row in rows)
    summary = noise_summary(rows)
    assert summary is not None and "met their noise target" in summary


def test_two_single_passes_of_one_build_disagree_beyond_their_own_intervals() -> None:
    # Each pass's interval is how precisely that process measured its median; between processes
    # this machine moves rows by far more. Recorded, not endorsed: single passes cannot tell a
    # regression from the weather here, which is why the nightly compares several passes a side.
    found = verdicts("h200-sampled-pass-2.json", "h200-sampled-pass-3.json")
    counts = {verdict: list(found.values()).count(verdict) for verdict in set(found.values())}
    assert counts == {"SAME": 45, "SLOWER": 40, "FASTER": 67, "NOISY": 4}


def test_with_three_passes_a_side_a_planted_slowdown_moves_no_other_row() -> None:
    planted = re.compile(
        "|".join(
            line
            for line in (REAL.parents[3] / "ci" / "headline-rows").read_text().splitlines()
            if line and not line.startswith("#")
        )
    )
    found = verdicts("h200-power-plain.json", "h200-power-planted.json")
    others = {key: v for key, v in found.items() if not planted.search(key + "/manual_time")}
    slowed = {key: v for key, v in found.items() if planted.search(key + "/manual_time")}
    assert len(others) == 37 and set(others.values()) == {Verdict.SAME.value}
    assert len(slowed) == 28
    assert list(slowed.values()).count(Verdict.SLOWER.value) == 12
    assert Verdict.FASTER.value not in slowed.values()


def test_three_passes_a_side_of_one_build_read_same_in_all_but_a_few_rows() -> None:
    # One ci/nightly of six passes, passes 1-3 merged against passes 4-6: the between-run spread
    # each side carries keeps the weather out of the verdicts, all but 5 rows of 156.
    found = verdicts("h200-three-passes-a.json", "h200-three-passes-b.json")
    counts = {verdict: list(found.values()).count(verdict) for verdict in set(found.values())}
    assert counts == {"SAME": 151, "SLOWER": 1, "FASTER": 2, "NOISY": 2}
