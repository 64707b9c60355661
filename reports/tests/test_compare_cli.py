import json
import re

import pytest
from compare_fixtures import (
    COMPARE_FIXTURES,
    MULTI_GPU,
    SINGLE_GPU,
    as_processes,
    benchmark_keys,
    real_document,
    scaled,
    with_repetitions,
    with_wrong,
    without,
    write,
)

from handoff_reports.compare import compare_runs
from handoff_reports.compare_cli import main
from handoff_reports.compare_stats import Thresholds, Verdict, load_thresholds
from handoff_reports.results import load_results, parse_results


def verdict_of(output: str, key: str) -> str:
    line = next(line for line in output.splitlines() if line.startswith(key + " "))
    return line.split()[-1]


def test_a_run_against_itself_exits_0(capsys):
    # One process a side: every row UNRESOLVED, which never fails.
    assert main([str(SINGLE_GPU), str(SINGLE_GPU)]) == 0
    output = capsys.readouterr().out
    assert "machine: unchanged" in output
    assert re.search(r"benchmarks: \d+ UNRESOLVED; geomean contender/baseline 1\.000", output)
    assert "result: no regression" in output


def test_three_processes_against_the_same_three_read_same(tmp_path, capsys):
    # Nothing moved, so the family's level is Bonferroni's (1% over 268 rows): three processes
    # a tenth of a percent apart still resolve the 3% threshold there.
    document = write(tmp_path, "a.json", as_processes(real_document(), spread=0.001))
    assert main([str(document), str(document)]) == 0
    assert re.search(r"benchmarks: \d+ SAME; geomean", capsys.readouterr().out)


def test_three_processes_half_a_percent_apart_cannot_resolve_3_percent_at_bonferronis_level(
    tmp_path, capsys
):
    # The cost of judging 268 rows together when none moved: each is tested at 1% / 268, where
    # t at 4 degrees of freedom is about 20, and half a percent a process resolves only ±8.5%.
    document = write(tmp_path, "a.json", as_processes(real_document(), spread=0.005))
    assert main([str(document), str(document)]) == 0
    output = capsys.readouterr().out
    assert re.search(r"benchmarks: \d+ UNRESOLVED; geomean", output)
    assert (
        "benchmarks: Benjamini-Hochberg at 1% over 268 rows, 0 beyond the noise: each tested "
        "at α* = 0.0037%" in output
    )


def test_an_a_a_pair_of_five_tight_processes_a_side_exits_0(tmp_path, capsys):
    document = real_document()
    baseline = write(tmp_path, "a1.json", with_repetitions(document, 5, 0.002, 1, processes=True))
    contender = write(tmp_path, "a2.json", with_repetitions(document, 5, 0.002, 2, processes=True))
    assert main([str(baseline), str(contender)]) == 0
    output = capsys.readouterr().out
    table = output.split("ceilings (")[0].split("benchmarks (regressions first):")[1]
    assert "SLOWER" not in table and "FASTER" not in table


def test_an_a_a_pair_of_wide_processes_is_called_no_more_often_than_the_rule_allows(tmp_path):
    # Five processes a side, each 2% apart at random: at 99% a row is called by chance in about
    # one pair in a hundred, and only where its scatter moved the median beyond the threshold.
    document = real_document()
    baseline = load_results(
        write(tmp_path, "a1.json", with_repetitions(document, 5, 0.02, 1, True))
    )
    contender = load_results(
        write(tmp_path, "a2.json", with_repetitions(document, 5, 0.02, 2, True))
    )
    rows = compare_runs(baseline, contender).benchmarks
    called = [row.key for row in rows if row.verdict in (Verdict.SLOWER, Verdict.FASTER)]
    assert len(called) <= 0.02 * len(rows), called


def _planted_5_percent(tmp_path, spread):
    document = real_document()
    slowed = set(benchmark_keys(document)[20:25])
    baseline = write(tmp_path, "a.json", as_processes(document, spread=spread))
    contender_document = as_processes(scaled(document, 1.05, lambda k: k in slowed), spread=spread)
    contender = write(tmp_path, "b.json", contender_document)
    return [str(baseline), str(contender), "--format", "json"], slowed


def test_a_planted_5_percent_on_processes_a_fifth_of_a_percent_apart_reads_slower(tmp_path, capsys):
    arguments, slowed = _planted_5_percent(tmp_path, 0.002)
    assert main(arguments) == 1
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    for key in slowed:
        assert rows[key]["verdict"] == "SLOWER"
        assert rows[key]["resolution"] < 0.05
    others = {row["verdict"] for name, row in rows.items() if name not in slowed}
    assert others == {"SAME"}


def test_5_of_268_rows_planted_5_percent_on_processes_half_a_percent_apart_are_unresolved(
    tmp_path, capsys
):
    # Each would be SLOWER alone at 1% (p about 0.0003), but five such p-values among 268 rows
    # are what chance alone gives now and then: the family calls none, and says it cannot tell.
    arguments, slowed = _planted_5_percent(tmp_path, 0.005)
    assert main(arguments) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    assert {rows[key]["verdict"] for key in slowed} == {"UNRESOLVED"}
    assert all(rows[key]["p_value"] < 0.01 for key in slowed)


@pytest.mark.parametrize("processes", [1, 3])
def test_a_planted_regression_exits_1(tmp_path, capsys, processes):
    document = real_document()
    slowed = set(benchmark_keys(document)[10:13])
    contender_document = scaled(document, 1.2, lambda key: key in slowed)
    flags = []
    if processes > 1:
        document = as_processes(document, processes, label="a")
        contender_document = as_processes(contender_document, processes, label="b")
    else:
        # One process a side: UNRESOLVED, unless machine noise gives the rows a spread.
        noise = write(tmp_path, "noise.json", as_processes(document, 5, label="m"))
        flags = ["--machine-noise", str(noise)]
    baseline = write(tmp_path, "base.json", document)
    contender = write(tmp_path, "slow.json", contender_document)
    if flags:
        assert main([str(baseline), str(contender)]) == 0
        output = capsys.readouterr().out
        assert all(verdict_of(output, key) == "UNRESOLVED" for key in slowed)
    assert main([str(baseline), str(contender), *flags]) == 1
    output = capsys.readouterr().out
    for key in slowed:
        assert verdict_of(output, key) == "SLOWER"
    table = output.split("benchmarks (regressions first):")[1].splitlines()[2:5]
    assert {line.split()[0] for line in table} == slowed  # regressions come first
    assert "result: REGRESSION (3 rows)" in output


def test_a_regression_within_its_own_threshold_passes(tmp_path):
    document = as_processes(real_document())
    contender = scaled(document, 1.2, lambda key: key.startswith("elementwise/"))
    paths = [str(write(tmp_path, "b.json", document)), str(write(tmp_path, "c.json", contender))]
    assert main(paths) == 1
    assert main([*paths, "--thresholds", str(COMPARE_FIXTURES / "thresholds.toml")]) == 1
    assert main([*paths, "--threshold", "0.25"]) == 0


def test_thresholds_file_overrides_per_benchmark(tmp_path):
    # Processes 0.05% apart: +2% is beyond the noise even at the level of 268 rows judged together.
    document = as_processes(real_document(), spread=0.0005)
    key = "elementwise/cpu_serial/workload:vector_add/elements:1024"
    other = "elementwise/cpu_serial/workload:vector_add/elements:1048576"
    contender = scaled(document, 1.2, lambda k: k == other)
    contender = scaled(contender, 1.02, lambda k: k == key)
    thresholds_file = COMPARE_FIXTURES / "thresholds.toml"
    comparison = compare_runs(
        parse_results(document), parse_results(contender), load_thresholds(thresholds_file)
    )
    by_key = {row.key: row for row in comparison.rows}
    assert (by_key[key].threshold, by_key[key].verdict) == (0.01, Verdict.SLOWER)
    assert (by_key[other].threshold, by_key[other].verdict) == (0.30, Verdict.SAME)
    assert comparison.exit_code == 1


def test_slower_ceilings_are_reported_but_do_not_fail(tmp_path, capsys):
    document = as_processes(real_document())
    contender = scaled(document, 1.5, lambda key: key.startswith("ceilings/"))
    paths = [str(write(tmp_path, "b.json", document)), str(write(tmp_path, "c.json", contender))]
    assert main(paths) == 0
    output = capsys.readouterr().out
    assert verdict_of(output, "ceilings/kernel_launch_sync") == "SLOWER"
    assert "the machine, not the code" in output
    assert re.search(r"ceilings: \d+ SLOWER; geomean 1\.500", output)


def test_a_wrong_result_fails_even_when_faster(tmp_path, capsys):
    document = real_document()
    key = benchmark_keys(document)[0]
    contender = with_wrong(scaled(document, 0.5, lambda k: k == key), key)
    paths = [str(write(tmp_path, "b.json", document)), str(write(tmp_path, "c.json", contender))]
    assert main(paths) == 1
    assert verdict_of(capsys.readouterr().out, key) == "FAILED"


def test_a_failed_row_only_in_the_contender_fails(tmp_path):
    document = real_document()
    key = benchmark_keys(document)[0]
    baseline = write(tmp_path, "b.json", without(document, [key]))
    contender = write(tmp_path, "c.json", with_wrong(document, key))
    assert main([str(baseline), str(contender)]) == 1


def test_different_row_sets_are_listed_and_missing_rows_fail(capsys):
    # The 4-GPU run is a multi_gpu-only run: the 1-GPU run's rows are missing from it.
    assert main([str(SINGLE_GPU), str(MULTI_GPU)]) == 1
    output = capsys.readouterr().out
    # Four GPUs of the same model, the same CPU model: the same machine, other details differ.
    assert "machine: the same models, driver and runtime; other details differ" in output
    assert "handoff_gpu_count: 1 -> 4" in output
    assert re.search(r"multi_gpu/\S+: only in contender", output)
    assert re.search(r"elementwise/\S+: missing from the contender", output)
    assert re.search(r"ceilings/\S+: only in baseline \(a ceiling", output)


def test_missing_file_exits_2_with_one_line(tmp_path, capsys):
    assert main([str(tmp_path / "nope.json"), str(SINGLE_GPU)]) == 2
    error = capsys.readouterr().err
    assert "nope.json: cannot read" in error
    assert error.count("\n") == 1


def test_garbage_json_exits_2(tmp_path, capsys):
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert main([str(SINGLE_GPU), str(garbage)]) == 2
    assert "garbage.json: not valid JSON" in capsys.readouterr().err


def test_bad_thresholds_file_exits_2(capsys):
    bad = str(COMPARE_FIXTURES / "bad_threshold.toml")
    assert main([str(SINGLE_GPU), str(SINGLE_GPU), "--thresholds", bad]) == 2
    assert "bad_threshold.toml" in capsys.readouterr().err


@pytest.mark.parametrize("arguments", [["only-one.json"], ["a", "b", "--alpha", "2"]])
def test_usage_errors_exit_2(arguments, capsys):
    assert main(arguments) == 2
    assert "usage:" in capsys.readouterr().err


def test_help_exits_0(capsys):
    assert main(["--help"]) == 0
    assert "Exit status" in capsys.readouterr().out


def test_html_is_written_with_an_svg_plot(tmp_path):
    document = as_processes(real_document())
    slow_key = benchmark_keys(document)[5]
    contender = scaled(document, 1.3, lambda key: key == slow_key)
    contender["context"]["handoff_git_commit"] = "feedbeef0000"
    out = tmp_path / "compare.html"
    paths = [str(write(tmp_path, "b.json", document)), str(write(tmp_path, "c.json", contender))]
    assert main([*paths, "--html", str(out)]) == 1
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert html.count("<svg") - html.count('<svg class="strip"') == 1  # the change plot
    assert re.search(r'<tr class="SLOWER"><td><code>' + re.escape(slow_key), html)
    assert "feedbeef0000" in html and "3a481c987fd9" in html  # the commits side by side
    assert "Same machine (GPU and CPU model, driver, runtime); the build or other" in html
    assert "<th>resolution</th>" in html and "<td>both: this run&#39;s 3 processes</td>" in html
    assert not re.search(r"<(script|link|img)\b", html)  # self-contained: nothing to fetch


def test_html_write_failure_exits_2(tmp_path, capsys):
    out = tmp_path / "missing-dir" / "compare.html"
    assert main([str(SINGLE_GPU), str(SINGLE_GPU), "--html", str(out)]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_compare_runs_defaults(tmp_path):
    run = load_results(SINGLE_GPU)
    comparison = compare_runs(run, run)
    assert comparison.default_threshold == Thresholds().default
    assert comparison.exit_code == 0
