"""The comparison page's strip of each row's process figures (handoff_reports/process_strip.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from compare_fixtures import as_processes, benchmark_keys, key_of, real_document, scaled, write

from handoff_reports.compare_cli import main
from handoff_reports.process_strip import MARGIN, WIDTH, _positions, _span


def row_html(html: str, key: str) -> str:
    found = re.search(r"<tr[^>]*><td><code>" + re.escape(key) + r"</code>.*?</tr>", html)
    assert found, key
    return found.group(0)


def compared_page(tmp_path: Path, baseline: dict, contender: dict) -> str:
    out = tmp_path / "compare.html"
    paths = [str(write(tmp_path, "b.json", baseline)), str(write(tmp_path, "c.json", contender))]
    main([*paths, "--html", str(out)])
    return out.read_text()


def test_each_process_is_a_dot_in_its_sides_lane_and_named_in_the_title(tmp_path):
    baseline = as_processes(real_document(), count=3, spread=0.02)
    key = benchmark_keys(baseline)[5]
    contender = as_processes(scaled(real_document(), 1.3, lambda k: k == key), count=5, spread=0.02)
    row = row_html(compared_page(tmp_path, baseline, contender), key)
    strip = re.search(r'<svg class="strip".*?</svg>', row)
    assert strip, row
    lanes = re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)"', strip.group(0))
    assert sorted(lanes) == ["15.5"] * 5 + ["6.5"] * 3  # contender below, baseline above
    title = re.search(r"<title>(.*?)</title>", strip.group(0))
    assert title and "baseline: " in title.group(1) and "contender: " in title.group(1)
    assert title.group(1).count(", ") >= 2 + 4  # every figure of both sides, listed
    assert "log scale" in title.group(1)


def test_a_side_of_one_process_draws_no_strip(tmp_path):
    document = real_document()
    key = benchmark_keys(document)[0]
    row = row_html(compared_page(tmp_path, document, as_processes(document)), key)
    assert "<svg" not in row


def test_the_quickest_and_slowest_process_span_the_strip():
    positions = _positions([2.0, 1.0, 4.0], 1.0, 4.0)
    assert positions[1] == MARGIN and positions[2] == WIDTH - MARGIN
    assert abs(positions[0] - WIDTH / 2) < 1e-9  # 2 is halfway from 1 to 4 on a log axis
    assert _positions([3.0, 3.0], 3.0, 3.0) == [WIDTH / 2, WIDTH / 2]  # all alike: centred


def test_processes_within_a_percent_stay_together_on_the_strip():
    low, high = _span(1.000, 1.004)
    assert high / low == pytest.approx(1.10)
    together = _positions([1.000, 1.004], low, high)
    assert together[1] - together[0] < 0.05 * (WIDTH - 2 * MARGIN)
    assert _span(1.0, 2.0) == (1.0, 2.0)  # wider than the smallest span: as measured


def test_the_title_gives_each_process_its_sleeps_a_run_where_they_were_recorded(tmp_path):
    baseline = as_processes(real_document(), count=3, spread=0.02)
    key = benchmark_keys(baseline)[5]
    contender = as_processes(scaled(real_document(), 1.3, lambda k: k == key), count=3, spread=0.02)
    for index, entry in enumerate(e for e in contender["benchmarks"] if key_of(e) == key):
        entry["voluntary_switches_per_run"] = [4.0, 4.5, 61.25][index]
    row = row_html(compared_page(tmp_path, baseline, contender), key)
    title = re.search(r'<svg class="strip".*?<title>(.*?)</title>', row)
    assert title, row
    contender_part = title.group(1).split("contender: ")[1]
    assert re.findall(r"\(([\d.]+) sleeps a run\)", contender_part) == ["4", "4.5", "61.2"]
    assert "sleeps a run" not in title.group(1).split("contender: ")[0]  # none recorded there
