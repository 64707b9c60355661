import re
from pathlib import Path

import made_up
import pytest

from handoff_reports.plots import has_one_size
from handoff_reports.report import _by_pattern, main, report_styles
from handoff_reports.results import load_results
from handoff_reports.series import MAX_SERIES, facets_of

FIXTURES = Path(__file__).parent / "fixtures"
H200_MAIN_JOB = (
    Path(__file__).parents[2] / "docs" / "results" / "runs" / "h200-default-profile.json"
)


def _render(tmp_path, *paths):
    out = tmp_path / "report.html"
    assert main([str(p) for p in paths] + ["-o", str(out)]) == 0
    return out.read_text()


@pytest.fixture(scope="module")
def gpu_report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gpu")
    return _render(tmp, FIXTURES / "real" / "h200-1gpu.json",
                   FIXTURES / "real" / "h200x4-multi_gpu.json")  # fmt: skip


def test_report_is_self_contained(gpu_report):
    assert not re.search(r"""(src|href)=["']https?://""", gpu_report)
    assert "<script" not in gpu_report


def test_every_pattern_gets_its_plots(gpu_report):
    for pattern in ("pool_prep", "queued_worker", "postproc_split", "independent_tasks",
                    "iterative", "elementwise", "multi_gpu"):  # fmt: skip
        section = gpu_report.split(f'id="pattern-{pattern}"', 1)[1].split("<h2", 1)[0]
        assert "Time against size" in section and "<svg" in section, pattern
    assert gpu_report.count("speedup over the best CPU row") >= 5
    assert "Efficiency: the fraction" in gpu_report
    assert "stage times" in gpu_report
    assert "cold (processes and contexts created) against warm" in gpu_report


def test_manifest_and_ceilings_of_the_run(gpu_report):
    assert "GPU-3a2b1246-eace-0619-4236-e05f8c6ad8aa" in gpu_report
    assert "4253 GB/s" in gpu_report  # hbm_device_copy as the run measured it
    assert "ceilings/p2p_peer_access_on" in gpu_report  # not measured on one GPU, with the reason


def test_claims_table_has_verdicts(gpu_report):
    # One process measured that run: its claims hold for that process only, and say so.
    claims = gpu_report.split('id="claims"', 1)[1].split("<h2", 1)[0]
    assert re.search(r'<tr class="not-resolved">.*<strong>not resolved</strong>', claims)
    assert "its interval holds for that process only" in claims


def test_planted_failure_is_listed_first(tmp_path):
    path = made_up.write(made_up.with_failed_verification(made_up.real_gpu_document()),
                         tmp_path / "failed.json")  # fmt: skip
    html = _render(tmp_path, path)
    correctness = html.split('id="correctness"', 1)[1]
    first_row = correctness.split("<tr", 3)[2]
    assert made_up.FAILED_ROW.removesuffix("/manual_time") in first_row
    assert "WRONG" in first_row and 'class="bad"' in first_row
    assert re.search(r"failed verification or errored</th><td class=\"num bad\">1<", html)


def test_planted_figure_above_its_ceiling_is_flagged_suspect(tmp_path):
    path = made_up.write(made_up.with_figure_above_ceiling(made_up.real_gpu_document()),
                         tmp_path / "suspect.json")  # fmt: skip
    html = _render(tmp_path, path)
    suspects = html.split('id="suspects"', 1)[1].split("</table>", 1)[0]
    assert made_up.SUSPECT_ROW.removesuffix("/manual_time") in suspects
    assert "125.0% SUSPECT" in suspects


def test_cpu_only_run_says_what_needs_a_gpu(tmp_path):
    html = _render(tmp_path, FIXTURES / "real" / "cpu-only.json")
    assert 'id="no-gpu"' in html and "No usable GPU on this machine" in html
    assert "elementwise/cpu_serial" in html
    assert "shm_memcpy_one_thread" in html  # a ceiling that needs no GPU
    assert "not measured on this machine" in html


def test_bad_input_exits_2_with_a_message(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main([str(bad), "-o", str(tmp_path / "r.html")]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def _issue_14_document(state="complete", reason="", ceilings_source=None):
    from contract14_fixtures import document, entry

    name = "elementwise/cpu_serial/workload:vector_add/elements:{}/manual_time"
    entries = [
        entry(name.format(1024), 1e-5, 0.004, samples=120),
        entry(name.format(4096), 4e-5, 0.02, samples=900, noisy=True),
        entry(name.format(16384), 1.6e-4, 0.006, clock=1, clock_lowered=True),
        entry(name.format(65536), 6.4e-4, 0.05, clock=1, noisy=True),
    ]
    made = document(entries, state=state, reason=reason)
    if ceilings_source is not None:
        made["handoff_ceilings_source"] = ceilings_source
    return made


def test_an_incomplete_run_gets_a_banner(tmp_path):
    from contract14_fixtures import write

    made = _issue_14_document("incomplete", "interrupted by SIGINT")
    html = _render(tmp_path, write(tmp_path, "partial.json", made))
    banner = html.split('id="incomplete"', 1)[1].split("</p>", 1)[0]
    assert "incomplete" in banner.lower()
    assert "interrupted by SIGINT" in banner and "4 rows" in banner


def test_a_complete_run_has_no_banner(tmp_path):
    from contract14_fixtures import write

    html = _render(tmp_path, write(tmp_path, "whole.json", _issue_14_document()))
    assert 'id="incomplete"' not in html


def test_noise_samples_marks_and_the_noise_target_summary(tmp_path):
    from contract14_fixtures import write

    html = _render(tmp_path, write(tmp_path, "noise.json", _issue_14_document()))
    assert "1 of 2 CUDA-event rows and 1 of 2 wall-clock rows met their noise target" in html
    rows = html.split('id="pattern-elementwise"', 1)[1]
    assert "±0.4%" in rows and ">120<" in rows and "±2.0%" in rows
    assert rows.count('<span class="warn">noisy</span>') == 2
    assert rows.count('<span class="warn">clock lowered</span>') == 1
    assert "Ceilings: measured in this run." in html


def test_reused_ceilings_say_where_they_came_from(tmp_path):
    from contract14_fixtures import write

    note = "reused from results/handoff-2025-01-01.json (same machine), measured 2025-01-01"
    source = {"kind": "reused", "file": "x.json", "measured_at": "2025-01-01", "note": note}
    made = _issue_14_document(ceilings_source=source)
    html = _render(tmp_path, write(tmp_path, "reused.json", made))
    assert f"Ceilings: {note}." in html


def test_old_files_have_no_noise_summary(gpu_report):
    assert 'id="noise-summary"' not in gpu_report
    assert 'id="incomplete"' not in gpu_report


def test_one_gpu_says_scaling_needs_two_and_shows_nothing_else(tmp_path):
    one_gpu = _render(tmp_path, FIXTURES / "real" / "h200-default-profile.json")
    section = one_gpu.split('<h2 id="gpu-scaling">', 1)[1].split("<h2", 1)[0]
    assert 'id="scaling-needs-gpus"' in section
    assert "<svg" not in section and "<table" not in section
    headline = one_gpu.split('id="headline-table"', 1)[1].split("</table>", 1)[0]
    assert "splitting over GPUs needs two or more; this run measured one" in headline


def test_no_plot_against_size_has_a_single_size(tmp_path):
    # A facet measured at one size gets a dot chart by variant, not a column of line markers.
    fixture = FIXTURES / "real" / "h200-default-profile.json"
    html = _render(tmp_path, fixture)
    titles = re.findall(r"<title>([^<]*)</title>", html)
    single, several = set(), set()
    for pattern, rows in _by_pattern(load_results(fixture).benchmark_rows()).items():
        for facet in facets_of(rows):
            if any(series.points() for series in facet.series):
                (single if has_one_size(facet) else several).add(f"{pattern}, {facet.title}")
    assert single and several
    for title in titles:
        if " against size, " in title:
            pattern = title.split(" ")[0]
            assert f"{pattern}, {title.split(' against size, ')[1]}" in several, title
    by_variant = {t.replace(" time by variant", "") for t in titles if " time by variant, " in t}
    assert by_variant == single


def test_no_plot_of_the_h200_report_draws_more_than_eight_series_or_two_alike():
    # A facet of more lines is split by another axis; within one, no two series share a glyph.
    # The H200 main job the results page shows (its file records every variant) and the 4-GPU run.
    for path in (H200_MAIN_JOB, FIXTURES / "real" / "h200x4-multi_gpu.json"):
        run = load_results(path)
        styles = report_styles([run])
        rows = run.benchmark_rows()
        for pattern, members in _by_pattern(rows).items():
            for facet in facets_of(members):
                labels = [series.label for series in facet.series]
                assert len(labels) <= MAX_SERIES, (pattern, facet.title, labels)
                glyphs = [
                    tuple(
                        (key, value)
                        for key, value in sorted(styles.series_keywords(label, labels).items())
                        if key != "gid"  # an id of its own for every line drawn
                    )
                    for label in labels
                ]
                assert len(set(glyphs)) == len(glyphs), (pattern, facet.title, labels)
