"""A row's floor in words (handoff_bench's `floor_model`): read per repetition, shown in the
report's row tables, and a floor of launches alone said so in the headline."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from made_up import _entry, real_gpu_document, write

from handoff_reports.headline import headline_table
from handoff_reports.headline_entry import entry_text
from handoff_reports.names import parse_name
from handoff_reports.report import render_report
from handoff_reports.results import Row, load_all

GRAPH_ROW = "iterative/graph/unknowns:1048576/iterations:100/manual_time"
GRAPH_KEY = GRAPH_ROW.removesuffix("/manual_time")
# As handoff_bench writes it (bench/harness/floor_model.cpp), for the files written before it did.
GRAPH_MODEL = "launches only: kernel_launch_sync 1 x 8.77 µs"


def _with_models(document: dict[str, Any], models: dict[str, str]) -> dict[str, Any]:
    planted = copy.deepcopy(document)
    for name, model in models.items():
        _entry(planted, name)["floor_model"] = model
    return planted


def test_the_model_is_the_lowest_floors_and_empty_where_a_file_has_none() -> None:
    name = parse_name(GRAPH_ROW)
    row = Row(name=name, floors=[3.0, 1.0, 2.0], floor_models=["c", "a", "b"])
    assert row.floor_model == "a" and row.floor_seconds == 1.0
    assert Row(name=name, floors=[1.0]).floor_model == ""


def test_the_rows_table_shows_what_each_floor_is_made_of(tmp_path: Path) -> None:
    document = real_gpu_document()
    graph = _entry(document, GRAPH_ROW)
    assert graph.get("floor_seconds"), "the fixture's graph row has a floor"
    path = write(_with_models(document, {GRAPH_ROW: GRAPH_MODEL}), tmp_path / "run.json")
    html = render_report(load_all([str(path)]))
    assert "floor: what it is made of" in html
    assert GRAPH_MODEL in html


def test_a_floor_of_launches_alone_says_so_in_the_headline(tmp_path: Path) -> None:
    path = write(_with_models(real_gpu_document(), {GRAPH_ROW: GRAPH_MODEL}), tmp_path / "run.json")
    lines = {
        line.pattern: line for line in headline_table(load_all([str(path)])[0].benchmark_rows())
    }
    iterative = lines["iterative"].fastest
    assert iterative is not None and iterative.row.key == GRAPH_KEY
    assert ", launches only (" in entry_text(iterative)
    recipe = lines["iterative"].recipe
    assert recipe is not None and "launches only" not in entry_text(recipe)


def _priced(floors: list[float], seconds: list[float]) -> Row:
    return Row(name=parse_name(GRAPH_ROW), seconds=seconds, floors=floors)


def test_a_row_is_priced_at_the_fastest_process_ceilings() -> None:
    # One H200 main job: the pipe ceiling's three processes priced the queue at 256 MiB at
    # 52.45, 49.00 and 44.71 ms, and the row took 46.70, 46.57 and 41.81 ms: faster than the
    # median floor, but not than the floor the machine's best pipe in the run gives.
    row = _priced([0.05245, 0.04900, 0.04471], [0.04670, 0.04657, 0.04181])
    assert row.floor_seconds == 0.04471
    assert not row.suspect
    assert row.efficiency == pytest.approx(0.04471 / 0.04657)


def test_a_row_faster_than_every_process_floor_is_suspect() -> None:
    row = _priced([0.05245, 0.04900, 0.04471], [0.04170, 0.04160, 0.04150])
    assert row.suspect
