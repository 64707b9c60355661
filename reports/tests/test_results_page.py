"""The per-machine results pages (docs/results/): what a page holds, that each committed page is
the one its results file gives today, and bad input."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from handoff_reports import headline
from handoff_reports.claims import load_claims
from handoff_reports.headline import BLOCK_BEGIN, BLOCK_END, headline_table, markdown_table
from handoff_reports.python_cost import python_cost_lines
from handoff_reports.results import by_process, load_all, load_results
from handoff_reports.results_page import main, results_page, which_run
from handoff_reports.together import runs_together
from handoff_reports.variants import run_variants

REPOSITORY = Path(__file__).parent.parent.parent
PAGES = sorted(path for path in (REPOSITORY / "docs" / "results").glob("*.md")
               if path.name != "README.md")  # fmt: skip
FIXTURE = Path(__file__).parent / "fixtures" / "real" / "h200-default-profile.json"
RUNS = REPOSITORY / "docs" / "results" / "runs"
# The committed main job: its rows, and its Python recipes' beside them.
MAIN_JOB = RUNS / "h200-default-profile.json"
MAIN_JOB_PYTHON = RUNS / "h200-default-profile-python.json"
# The command each page names, from which the test writes it again.
COMMAND = re.compile(r"results-page (.+?) -o (\S+)\n")


def _page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    page = tmp_path / "h200.md"
    assert main([str(FIXTURE), "-o", str(page)]) == 0
    assert capsys.readouterr().out == f"handoff-results-page: wrote {page}\n"
    return page.read_text()


def test_a_page_has_its_sections_and_the_headline_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _page(tmp_path, capsys)
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings == [
        "# Results: 1 × NVIDIA H200, Intel(R) Xeon(R) Processor (16 cores)",
        "## Which run",
        "## The articles' claims",
        "## Headline",
        "## Ceilings",
    ]
    run = load_results(FIXTURE)
    table = markdown_table(headline_table(run.benchmark_rows()))
    assert f"{BLOCK_BEGIN}\n{table}{BLOCK_END}\n" in text
    for ceiling in run.ceilings:
        assert f"| {ceiling} | " in text
    claims = text.split("## The articles' claims\n\n")[1].split("\n\n")[0].splitlines()
    assert [line.split("`")[1] for line in claims] == [claim.id for claim in load_claims()]


def test_which_run_names_the_file_the_commit_and_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _page(tmp_path, capsys)
    which = text.split("## Which run\n\n")[1].split("## Headline")[0]
    context = load_results(FIXTURE).context
    assert f"From [`{FIXTURE.as_posix()}`]" in which
    assert f"commit `{context['handoff_git_commit']}`" in which
    assert context["date"] in which and "profile `default`" in which
    assert f"results-page {FIXTURE.as_posix()} -o {tmp_path / 'h200.md'}\n" in which


def test_which_run_counts_each_rows_processes(tmp_path: Path) -> None:
    # The committed main job: three processes for every row.
    run = load_results(MAIN_JOB)
    counts = Counter(len(by_process(row.repetition_figures)) for row in run.rows.values())
    assert sorted(counts) == [3]
    assert "in 3 processes;" in which_run([run], ["run.json"], "page.md")
    # Five rows left with two of their processes: the page counts each count's rows.
    document = json.loads(MAIN_JOB.read_text())
    shortened = list(dict.fromkeys(entry["name"] for entry in document["benchmarks"]))[:5]
    for name in shortened:
        last = max(i for i, entry in enumerate(document["benchmarks"]) if entry["name"] == name)
        del document["benchmarks"][last]
    uneven = tmp_path / "uneven.json"
    uneven.write_text(json.dumps(document))
    which = which_run([load_results(uneven)], ["run.json"], "page.md")
    assert f"in 2 to 3 processes a row (5 rows in 2, {len(run.rows) - 5} in 3)" in which
    assert "in 1 process;" in which_run([load_results(FIXTURE)], ["run.json"], "page.md")


def test_a_main_job_and_its_python_recipes_make_one_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "h200.md"
    assert main([str(MAIN_JOB), str(MAIN_JOB_PYTHON), "-o", str(page)]) == 0
    assert capsys.readouterr().out == f"handoff-results-page: wrote {page}\n"
    text = page.read_text()
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Which run", "## The articles' claims", "## Headline",
                        "## What Python costs", "## Ceilings"]  # fmt: skip
    which = text.split("## Which run\n\n")[1].split("## The articles' claims")[0]
    assert f"Beside it, from [`{MAIN_JOB_PYTHON.as_posix()}`]" in which
    assert f"results-page {MAIN_JOB.as_posix()} {MAIN_JOB_PYTHON.as_posix()} -o" in which
    # The claims are decided as the report decides them, on the Python recipe where one was run.
    claims = text.split("## The articles' claims\n\n")[1].split("\n\n")[0]
    assert "decided on the Python recipe" in claims
    runs = load_all([MAIN_JOB, MAIN_JOB_PYTHON])
    rows = [row for run in runs for row in run.benchmark_rows()]
    lines = python_cost_lines(rows, run_variants(runs_together(runs)))
    assert lines
    cost = text.split("## What Python costs\n\n")[1].split("## Ceilings")[0]
    assert sum(line.startswith("| ") for line in cost.splitlines()) == len(lines) + 1
    for line in lines:
        assert f"| {line.pattern} | {line.point} | " in cost


def test_a_python_file_of_another_machine_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(MAIN_JOB_PYTHON.read_text())
    document["context"]["handoff_gpu0_name"] = "NVIDIA H100 80GB HBM3"
    elsewhere = tmp_path / "elsewhere-python.json"
    elsewhere.write_text(json.dumps(document))
    error = _failure([str(MAIN_JOB), str(elsewhere), "-o", str(tmp_path / "page.md")], capsys)
    assert error.startswith("handoff-results-page: NOT COMPARABLE:")
    assert not (tmp_path / "page.md").exists()


def test_handoff_headline_writes_into_a_page_as_into_the_readme(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _page(tmp_path, capsys)
    assert headline.main([str(FIXTURE), "--into", str(tmp_path / "h200.md")]) == 0
    assert (tmp_path / "h200.md").read_text() == text


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_each_committed_page_is_the_one_its_results_file_gives(page: Path) -> None:
    text = page.read_text()
    found = COMMAND.search(text)
    assert found, f"{page} names no results-page command"
    files, written_as = found.group(1).split(), found.group(2)
    assert REPOSITORY / written_as == page
    expected = results_page(load_all(REPOSITORY / f for f in files), files, written_as)
    assert text == expected, (
        f"{written_as} differs from its run: from the repository root, run its command again"
    )


def test_the_pages_are_the_machines_their_readme_lists() -> None:
    assert {page.name for page in PAGES} >= {"h100.md", "h200.md"}
    listing = (REPOSITORY / "docs" / "results" / "README.md").read_text()
    for page in PAGES:
        assert f"[{page.name}]({page.name})" in listing
        results = COMMAND.search(page.read_text())
        assert results is not None and results.group(0).strip() in listing


def _failure(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    return captured.err


def test_a_missing_results_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.json"
    error = _failure([str(missing), "-o", str(tmp_path / "page.md")], capsys)
    assert error.startswith(f"handoff-results-page: {missing}: cannot read")
    assert not (tmp_path / "page.md").exists()


def test_a_results_file_without_rows_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"context": {"handoff_version": "0.1.0"}, "benchmarks": []}))
    error = _failure([str(empty), "-o", str(tmp_path / "page.md")], capsys)
    assert error == f"handoff-results-page: {empty}: no rows measured\n"
    assert not (tmp_path / "page.md").exists()


def test_a_run_without_any_headline_point_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(FIXTURE.read_text())
    # Rows of one pattern, none of them at its default size.
    document["benchmarks"] = [entry for entry in document["benchmarks"]
                              if entry["name"].startswith("tensor_transfer/")
                              and "/bytes:4194304/" not in entry["name"]]  # fmt: skip
    assert document["benchmarks"]
    off_point = tmp_path / "off-point.json"
    off_point.write_text(json.dumps(document))
    error = _failure([str(off_point), "-o", str(tmp_path / "page.md")], capsys)
    assert "no row of any pattern at its default point" in error


def test_a_page_in_a_missing_folder_is_refused_before_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    error = _failure([str(FIXTURE), "-o", str(tmp_path / "no" / "page.md")], capsys)
    assert "no such directory" in error
