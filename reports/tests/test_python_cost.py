"""What Python costs: the Python recipe rows beside the C++ recipe and the fastest C++ variant,
and the refusal to set rows of different machines or settings side by side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from python_fixtures import CPP_RUN, PYTHON_RUN, loaded, run_of, written

from handoff_reports.headline import main as headline_main
from handoff_reports.python_cost import python_cost_lines, ratio_text
from handoff_reports.python_recipes import PythonRecipe, python_recipes
from handoff_reports.report import main as report_main
from handoff_reports.results import ResultsError, load_all
from handoff_reports.together import NotComparable, runs_together
from handoff_reports.variants import Variant, parse_variants, record_text, variants_of


def test_the_python_recipes_and_their_cpp_recipes_come_from_the_records() -> None:
    record = variants_of(load_all([CPP_RUN, PYTHON_RUN]))
    assert python_recipes(record) == [
        PythonRecipe("pool_prep", "python_seed", "seed"),
        PythonRecipe("tensor_transfer", "python_queue", "queue"),
        PythonRecipe("tensor_transfer", "python_pipe", "pipe"),
    ]
    # The C++ recipes are flagged `recipe` too: without a language they are no Python recipe.
    assert python_recipes(variants_of(load_all([CPP_RUN]))) == []


def test_a_python_recipe_without_a_namesake_stands_beside_the_seed() -> None:
    record = {
        "pool_prep": (
            Variant("seed", "", True, False),
            Variant("python_pool", "", True, True, "python"),
        )
    }
    assert python_recipes(record) == [PythonRecipe("pool_prep", "python_pool", "seed")]


def test_a_python_recipe_stands_beside_its_namesake_though_the_cpp_table_flags_it_no_recipe() -> (
    None
):
    record = {
        "elementwise": (
            Variant("cpu_map", "", True, True),
            Variant("gpu_transfers", "", False, False),
            Variant("python_gpu_transfers", "", True, False, "python"),
            Variant("python_cpu_map", "", True, True, "python"),
        )
    }
    assert python_recipes(record) == [
        PythonRecipe("elementwise", "python_gpu_transfers", "gpu_transfers"),
        PythonRecipe("elementwise", "python_cpu_map", "cpu_map"),
    ]


def test_the_language_survives_a_record_and_cpp_records_stay_as_written() -> None:
    cpp = {"name": "a", "description": "", "recipe": True, "cpu": True}
    text = json.dumps({"p": [cpp, {**cpp, "name": "b", "language": "python"}]})
    record = parse_variants(text, "here")
    assert [v.language for v in record["p"]] == ["c++", "python"]
    assert parse_variants(record_text(record), "again") == record
    assert '"language"' not in record_text({"p": record["p"][:1]})
    with pytest.raises(ResultsError, match="language must be"):
        parse_variants(text.replace('"python"', '"rust"'), "here")


def test_each_python_row_is_beside_the_recipe_and_the_fastest_at_its_point() -> None:
    runs = load_all([CPP_RUN, PYTHON_RUN])
    rows = [row for run in runs for row in run.benchmark_rows()]
    lines = python_cost_lines(rows, variants_of(runs))
    summary = [(line.python.row.name.variant, line.recipe and line.recipe.row.name.variant,
                line.fastest and line.fastest.row.name.variant) for line in lines]  # fmt: skip
    assert summary == [
        ("python_seed", "seed", "shared_gpu"),
        ("python_queue", "queue", "shm"),
        ("python_pipe", "pipe", "shm"),
    ]
    pool = lines[0]
    assert pool.point == "chunks:10/elements:1048576/workers:4/start:warm"
    assert pool.over_recipe is not None and pool.over_recipe.value == pytest.approx(2.0)
    assert pool.over_fastest is not None and pool.over_fastest.value == pytest.approx(8.0)
    low, high = pool.over_recipe.interval or (0.0, 0.0)
    assert low < 2.0 < high
    assert ratio_text(pool.over_recipe).startswith("2× [")


def test_a_python_row_at_a_point_the_cpp_run_lacks_stands_alone() -> None:
    python = loaded(PYTHON_RUN)
    for entry in python["benchmarks"]:
        entry["name"] = entry["run_name"] = entry["name"].replace("workers:4", "workers:2")
    runs = [run_of(loaded(CPP_RUN), "cpp"), run_of(python, "python")]
    rows = [row for run in runs for row in run.benchmark_rows()]
    pool = python_cost_lines(rows, variants_of(runs))[0]
    assert pool.recipe is None and pool.fastest is None and pool.over_recipe is None
    assert ratio_text(pool.over_recipe) == "–"


def test_the_report_shows_what_python_costs(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    assert report_main([str(CPP_RUN), str(PYTHON_RUN), "-o", str(page)]) == 0
    html = page.read_text()
    assert 'id="python-cost-table"' in html
    assert "python_queue" in html and "2.5×" in html
    assert "decided on the Python recipe (python_seed for seed)" in html


def test_a_cpp_run_alone_has_no_python_section(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    assert report_main([str(CPP_RUN), "-o", str(page)]) == 0
    html = page.read_text()
    assert "python-cost-table" not in html
    assert "decided on the Python recipe" not in html


def test_headline_prints_what_python_costs(capsys: pytest.CaptureFixture[str]) -> None:
    assert headline_main([str(CPP_RUN), str(PYTHON_RUN)]) == 0
    out = capsys.readouterr().out
    assert "What Python costs" in out
    assert "Python / fastest     25×" in out


def _python_elsewhere(key: str, value: str) -> dict[str, object]:
    document = loaded(PYTHON_RUN)
    document["context"][key] = value
    return document


@pytest.mark.parametrize(
    ("key", "value", "why"),
    [
        ("handoff_gpu0_name", "NVIDIA H100", "different machines (GPU model: NVIDIA H200 -> "),
        ("handoff_cpu_model", "AMD EPYC", "different machines (CPU model"),
        ("setting_max_noise", "0.05", "different settings (max_noise: 0.01 -> 0.05)"),
    ],
)
def test_python_rows_of_another_machine_or_settings_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: str, why: str
) -> None:
    other = written(_python_elsewhere(key, value), tmp_path / "python.json")
    page = tmp_path / "report.html"
    assert report_main([str(CPP_RUN), str(other), "-o", str(page)]) == 2
    error = capsys.readouterr().err
    assert "NOT COMPARABLE" in error and why in error
    assert not page.exists()
    assert headline_main([str(CPP_RUN), str(other)]) == 2


def test_runs_without_python_rows_are_combined_unchecked() -> None:
    cpp = loaded(CPP_RUN)
    elsewhere = loaded(CPP_RUN)
    elsewhere["context"]["handoff_gpu0_name"] = "NVIDIA H100"
    runs = [run_of(cpp, "a"), run_of(elsewhere, "b")]
    assert len(runs_together(runs).rows) == 2 * len(runs[0].rows)
    python = run_of(_python_elsewhere("handoff_gpu0_name", "NVIDIA H100"), "p")
    with pytest.raises(NotComparable):
        runs_together([runs[0], python])
