"""`compare` passes only what it checked: empty runs, missing rows and damaged figures fail it."""

import copy
import json
import math

import pytest
from compare_fixtures import MULTI_GPU, key_of, real_document
from contract14_fixtures import document, entry

from handoff_reports.compare import compare_runs
from handoff_reports.compare_cli import main
from handoff_reports.results import parse_results

NAMES = [
    "elementwise/cpu_serial/workload:vector_add/elements:1024",
    "elementwise/gpu_resident/workload:vector_add/elements:1024",
    "ceilings/kernel_launch_sync",
]
DAMAGED_VALUES = [math.nan, math.inf, -math.inf, -1.0, None]


def small_document():
    """Three rows of issue 14's format, two repetitions each, every figure sound."""
    entries = [
        entry(name, 1e-3 * (index + 1), repetition=repetition, repetitions=2)
        for index, name in enumerate(NAMES)
        for repetition in range(2)
    ]
    return document(entries)


def write(tmp_path, name, content):
    path = tmp_path / name
    # allow_nan: Google Benchmark itself writes NaN and Infinity literals.
    path.write_text(json.dumps(content, allow_nan=True))
    return str(path)


def with_figure(content, field, value, name=NAMES[0]):
    """A copy with `field` set to `value` in the first repetition of the row `name`."""
    result = copy.deepcopy(content)
    first = next(e for e in result["benchmarks"] if e["name"] == name)
    first[field] = value
    return result


def compare(tmp_path, capsys, baseline, contender, *flags):
    paths = [write(tmp_path, "base.json", baseline), write(tmp_path, "contender.json", contender)]
    code = main([*paths, *flags])
    return code, capsys.readouterr().out


def why_it_fails(output):
    return output.split("why it fails:\n")[1].split("\n\n")[0]


def test_a_sound_pair_still_passes(tmp_path, capsys):
    code, output = compare(tmp_path, capsys, small_document(), small_document())
    assert code == 0
    assert "why it fails" not in output
    assert output.endswith("result: no regression\n")


def test_a_contender_without_rows_fails(tmp_path, capsys):
    empty = small_document()
    empty["benchmarks"] = []
    code, output = compare(tmp_path, capsys, small_document(), empty)
    assert code == 1
    assert "the contender (" in why_it_fails(output)
    assert "has no rows: nothing was compared" in output.splitlines()[-1]


def test_a_baseline_without_rows_fails(tmp_path, capsys):
    empty = small_document()
    empty["benchmarks"] = []
    code, output = compare(tmp_path, capsys, empty, small_document())
    assert code == 1
    assert "the baseline (" in why_it_fails(output)


def test_a_baseline_row_missing_from_the_contender_fails(tmp_path, capsys):
    contender = small_document()
    contender["benchmarks"] = [e for e in contender["benchmarks"] if e["name"] != NAMES[1]]
    code, output = compare(tmp_path, capsys, small_document(), contender)
    assert code == 1
    assert f"{NAMES[1]}: missing from the contender" in output
    assert f"1 baseline rows missing from the contender, {NAMES[1]} first" in why_it_fails(output)
    assert "result: REGRESSION (1 rows)" in output


def test_a_missing_ceiling_row_does_not_fail(tmp_path, capsys):
    contender = small_document()
    contender["benchmarks"] = [e for e in contender["benchmarks"] if e["name"] != NAMES[2]]
    code, output = compare(tmp_path, capsys, small_document(), contender)
    assert code == 0
    assert f"{NAMES[2]}: only in baseline (a ceiling" in output


def multi_gpu_without(family, skipped):
    """The 4-GPU run's document without the rows under `family`, its context saying `skipped`."""
    content = real_document(MULTI_GPU)
    content["benchmarks"] = [
        e for e in content["benchmarks"] if not key_of(e).startswith(family + "/")
    ]
    content["context"]["handoff_skipped_families"] = skipped
    return content


def test_rows_of_a_family_the_contenders_machine_skipped_do_not_fail(tmp_path, capsys):
    contender = multi_gpu_without(
        "multi_gpu/p2p_gather", "no peer access between GPUs 0 and 1: multi_gpu/p2p_gather"
    )
    code, output = compare(tmp_path, capsys, real_document(MULTI_GPU), contender)
    assert code == 0
    assert (
        "only in baseline: the contender's machine skipped multi_gpu/p2p_gather "
        "(no peer access between GPUs 0 and 1)"
    ) in output


def test_a_skipped_family_covers_only_the_rows_named_under_it(tmp_path, capsys):
    # A skipped family vouches for its own rows only: rows of another family still fail.
    contender = multi_gpu_without(
        "multi_gpu/nccl_allgather", "no NCCL: multi_gpu/p2p_gather, multi_gpu/nccl_all"
    )
    code, output = compare(tmp_path, capsys, real_document(MULTI_GPU), contender)
    assert code == 1
    assert "multi_gpu/nccl_allgather/" in why_it_fails(output)


@pytest.mark.parametrize("field", ["real_time", "ci_low", "ci_high"])
@pytest.mark.parametrize("value", [*DAMAGED_VALUES, 0.0])
@pytest.mark.parametrize("side", ["baseline", "contender"])
def test_a_damaged_time_on_either_side_fails(tmp_path, capsys, field, value, side):
    damaged = with_figure(small_document(), field, value)
    sides = (damaged, small_document()) if side == "baseline" else (small_document(), damaged)
    code, output = compare(tmp_path, capsys, *sides)
    assert code == 1
    (line,) = [line for line in why_it_fails(output).splitlines() if NAMES[0] in line]
    assert f"FAILED: {side} damaged figures: repetition 0: {field} is" in line


@pytest.mark.parametrize("field", ["wrong", "verified", "samples", "noise"])
@pytest.mark.parametrize("value", DAMAGED_VALUES)
def test_a_damaged_counter_fails_and_is_never_verified(tmp_path, capsys, field, value):
    code, output = compare(
        tmp_path, capsys, small_document(), with_figure(small_document(), field, value)
    )
    assert code == 1
    assert f"{NAMES[0]}: FAILED: contender damaged figures: repetition 0: {field} is" in output
    row = parse_results(with_figure(small_document(), field, value)).rows[NAMES[0]]
    assert row.failed and row.failure is not None


def test_a_nan_wrong_count_reads_as_failed_not_as_zero():
    # max(0.0, nan) is 0.0 in Python: the reader must not fold a NaN into the worst-of maximum.
    row = parse_results(with_figure(small_document(), "wrong", math.nan)).rows[NAMES[0]]
    assert row.failed
    assert row.defects == ["repetition 0: wrong is NaN"]
    assert len(row.seconds) == 1  # the damaged repetition is left out whole


def test_a_damaged_ceiling_row_fails_too(tmp_path, capsys):
    code, output = compare(
        tmp_path, capsys, small_document(), with_figure(small_document(), "wrong", 1.0, NAMES[2])
    )
    assert code == 1
    assert f"{NAMES[2]}: FAILED: contender wrong result (1 wrong)" in why_it_fails(output)


def test_the_reasons_show_in_the_html(tmp_path, capsys):
    contender = with_figure(small_document(), "real_time", math.nan)
    contender["benchmarks"] = [e for e in contender["benchmarks"] if e["name"] != NAMES[1]]
    out = tmp_path / "compare.html"
    code, _ = compare(tmp_path, capsys, small_document(), contender, "--html", str(out))
    assert code == 1
    html = out.read_text()
    assert "<h2>Why it fails</h2>" in html
    assert f"{NAMES[0]}: FAILED: contender damaged figures: repetition 0: real_time is NaN" in html
    assert f"1 baseline rows missing from the contender, {NAMES[1]} first" in html


def test_compare_runs_names_the_empty_run():
    empty = small_document()
    empty["benchmarks"] = []
    comparison = compare_runs(parse_results(small_document()), parse_results(empty, "c.json"))
    assert comparison.exit_code == 1
    assert comparison.problems == ["the contender (c.json) has no rows: nothing was compared"]
