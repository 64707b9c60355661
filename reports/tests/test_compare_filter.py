"""compare --filter: only the rows it selects are compared, judged together among themselves, and
every format says so first."""

import json
import re

from compare_fixtures import as_processes, benchmark_keys, real_document, scaled, write

from handoff_reports.compare_cli import main
from handoff_reports.results import load_results

# A filter as ci/headline-rows writes them: it ends at the name's "/" after the last axis, which
# a row's key lacks ("/manual_time" follows it in the benchmark's name).
VECTOR_ADD = r"^elementwise/(gpu_resident|cpu_serial)/workload:vector_add/elements:65536/"


def tight(document):
    return as_processes(document, spread=0.001)


def test_a_row_slowed_outside_the_filter_neither_shows_nor_fails(tmp_path, capsys):
    document = real_document()
    slowed = next(key for key in benchmark_keys(document) if key.startswith("pool_prep/"))
    baseline = write(tmp_path, "a.json", tight(document))
    contender = write(tmp_path, "b.json", tight(scaled(document, 1.5, lambda key: key == slowed)))

    assert main([str(baseline), str(contender)]) == 1
    capsys.readouterr()
    assert main([str(baseline), str(contender), "--filter", VECTOR_ADD]) == 0
    output = capsys.readouterr().out
    assert slowed not in output
    selected = [key for key in benchmark_keys(document) if re.search(VECTOR_ADD, key + "/")]
    assert len(selected) == 2
    for key in selected:
        assert re.search(rf"^{re.escape(key)} .* SAME$", output, re.MULTILINE)


def test_a_row_slowed_inside_the_filter_is_called_and_fails(tmp_path, capsys):
    document = real_document()
    slowed = "elementwise/gpu_resident/workload:vector_add/elements:65536"
    baseline = write(tmp_path, "a.json", tight(document))
    contender = write(tmp_path, "b.json", tight(scaled(document, 1.5, lambda key: key == slowed)))
    assert main([str(baseline), str(contender), "--filter", VECTOR_ADD]) == 1
    assert re.search(rf"^{re.escape(slowed)} .* SLOWER$", capsys.readouterr().out, re.MULTILINE)


def test_the_text_says_first_which_rows_were_compared(tmp_path, capsys):
    path = write(tmp_path, "a.json", tight(real_document()))
    rows = len(load_results(path).rows)
    assert main([str(path), str(path), "--filter", VECTOR_ADD]) == 0
    output = capsys.readouterr().out
    line = (
        f"compared only the rows --filter '{VECTOR_ADD}' selects: 2 of the baseline's {rows} "
        f"and 2 of the contender's {rows}, judged together among themselves"
    )
    assert line in output
    assert output.index(line) < output.index("benchmarks (regressions first):")


def test_json_names_the_filter_and_judges_the_selected_rows_as_the_family(tmp_path, capsys):
    path = write(tmp_path, "a.json", tight(real_document()))
    assert main([str(path), str(path), "--filter", VECTOR_ADD, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["filter"]["regex"] == VECTOR_ADD
    assert document["filter"]["baseline"]["selected"] == 2
    assert document["filter"]["contender"]["selected"] == 2
    assert document["filter"]["baseline"]["rows"] > 2
    assert document["families"]["benchmarks"]["m"] == 2
    assert document["families"]["ceilings"] is None or document["families"]["ceilings"]["m"] == 0
    assert len(document["rows"]) == 2


def test_without_a_filter_json_says_so(tmp_path, capsys):
    path = write(tmp_path, "a.json", tight(real_document()))
    assert main([str(path), str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["filter"] is None


def test_markdown_names_the_filter(tmp_path, capsys):
    path = write(tmp_path, "a.json", tight(real_document()))
    assert main([str(path), str(path), "--filter", VECTOR_ADD, "--format", "markdown"]) == 0
    assert f"compared only the rows --filter '{VECTOR_ADD}' selects" in capsys.readouterr().out


def test_a_filter_that_selects_nothing_is_an_input_error(tmp_path, capsys):
    path = write(tmp_path, "a.json", tight(real_document()))
    assert main([str(path), str(path), "--filter", "^no_such_pattern/"]) == 2
    error = capsys.readouterr().err
    assert "--filter '^no_such_pattern/' selects no row of either run" in error


def test_a_filter_that_is_not_a_regular_expression_is_a_usage_error(tmp_path, capsys):
    path = write(tmp_path, "a.json", tight(real_document()))
    assert main([str(path), str(path), "--filter", "elementwise/(gpu"]) == 2
    assert "is not a regular expression" in capsys.readouterr().err


def test_a_row_the_contender_lacks_still_fails_when_the_filter_selects_it(tmp_path, capsys):
    document = tight(real_document())
    lacking = json.loads(json.dumps(document))
    lacking["benchmarks"] = [
        entry
        for entry in lacking["benchmarks"]
        if not entry["name"].startswith(
            "elementwise/gpu_resident/workload:vector_add/elements:65536/"
        )
    ]
    baseline = write(tmp_path, "a.json", document)
    contender = write(tmp_path, "b.json", lacking)
    assert main([str(baseline), str(contender), "--filter", VECTOR_ADD]) == 1
    assert "elementwise/gpu_resident/workload:vector_add/elements:65536" in capsys.readouterr().out


def test_a_leading_minus_leaves_the_rows_it_names_out_as_benchmark_filter_does(tmp_path, capsys):
    document = real_document()
    slowed = next(key for key in benchmark_keys(document) if key.startswith("pool_prep/"))
    baseline = write(tmp_path, "a.json", tight(document))
    contender = write(tmp_path, "b.json", tight(scaled(document, 1.5, lambda key: key == slowed)))
    assert main([str(baseline), str(contender), "--filter=-^pool_prep/"]) == 0
    output = capsys.readouterr().out
    assert slowed not in output
    assert "elementwise/gpu_resident/workload:vector_add/elements:65536 " in output
