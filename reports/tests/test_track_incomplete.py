"""`track ingest` of a run that did not finish (`handoff_run.state` incomplete): a warning that
names the reason, or with --strict a refusal that leaves the history as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from track_fixtures import REAL

from handoff_reports.track import main
from handoff_reports.track.store import open_store

COMPLETE = REAL.parent / "h200-sampled-pass-2.json"


def _interrupted(tmp_path: Path) -> Path:
    document = json.loads(COMPLETE.read_text())
    document["handoff_run"] = {"state": "incomplete", "reason": "interrupted by SIGTERM", "rows": 3}
    document["benchmarks"] = document["benchmarks"][:3]
    path = tmp_path / "interrupted.json"
    path.write_text(json.dumps(document))
    return path


def test_an_incomplete_run_is_ingested_with_a_warning_that_names_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    interrupted = _interrupted(tmp_path)
    assert main(["ingest", str(interrupted), "--db", str(tmp_path / "history.sqlite")]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        f"track: warning: {interrupted}: an incomplete run (interrupted by SIGTERM); "
        "its 3 rows are stored\n"
    )
    assert "added as run 1" in captured.out


def test_strict_refuses_an_incomplete_run_and_stores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    interrupted = _interrupted(tmp_path)
    db = tmp_path / "history.sqlite"
    assert main(["ingest", "--strict", str(COMPLETE), str(interrupted), "--db", str(db)]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"track: {interrupted}: an incomplete run (interrupted by SIGTERM); "
        "refused under --strict\n"
    )
    assert captured.out == ""
    assert not db.exists()
    assert main(["ingest", "--strict", str(COMPLETE), "--db", str(db)]) == 0
    with open_store(db, create=False) as store:
        assert store.count("runs") == 1
    assert capsys.readouterr().err == ""
