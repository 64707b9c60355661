"""`track check` fails on damaged figures in the history rather than passing them."""

import json
import math
import sqlite3

import pytest
from track_fixtures import STEPPED, Nights, write_nights

from handoff_reports.track import main


def ingested(tmp_path, capsys):
    db = tmp_path / "history.sqlite"
    paths = write_nights(tmp_path / "nights", Nights(count=12))
    assert main(["ingest", *map(str, paths), "--db", str(db)]) == 0
    capsys.readouterr()
    return db, paths


def damage(db, sql):
    connection = sqlite3.connect(db)
    with connection:
        connection.execute(sql)
    connection.close()


def check(capsys, db, *flags):
    code = main(["check", "--db", str(db), *flags])
    return code, capsys.readouterr().out


def test_a_sound_history_passes(tmp_path, capsys):
    db, _ = ingested(tmp_path, capsys)
    code, out = check(capsys, db)
    assert code == 0 and "DAMAGED" not in out


@pytest.mark.parametrize("value", ["1e999", "-1e999", "-0.5", "0", "'fast'"])
def test_a_damaged_stored_time_fails_the_check(tmp_path, capsys, value):
    # A history written before the reader refused such times (it took inf and negatives).
    db, _ = ingested(tmp_path, capsys)
    damage(db, f"UPDATE repetitions SET seconds = {value} WHERE run_id = 3 AND repetition = 1")
    code, out = check(capsys, db)
    assert code == 1
    assert "DAMAGED FIGURES in the history, left out of every series: 3" in out
    assert "run 3 (" in out and ": repetition 1 seconds is " in out


@pytest.mark.parametrize("column", ["wrong", "verified", "efficiency", "floor_seconds"])
@pytest.mark.parametrize("value", ["1e999", "-1"])
def test_a_damaged_stored_counter_fails_the_check(tmp_path, capsys, column, value):
    db, _ = ingested(tmp_path, capsys)
    damage(db, f"UPDATE rows SET {column} = {value} WHERE run_id = 2 AND name = '{STEPPED}'")
    code, out = check(capsys, db)
    assert code == 1
    assert "run 2 (" in out and f"{STEPPED}: {column} is " in out


def test_the_match_limits_what_is_checked(tmp_path, capsys):
    db, _ = ingested(tmp_path, capsys)
    damage(db, f"UPDATE repetitions SET seconds = -1 WHERE name = '{STEPPED}'")
    assert check(capsys, db, "--match", "^elementwise/")[0] == 0
    assert check(capsys, db, "--match", "^queued_worker/")[0] == 1


def test_html_leaves_damaged_figures_out_and_says_so(tmp_path, capsys):
    db, _ = ingested(tmp_path, capsys)
    damage(db, "UPDATE repetitions SET seconds = 1e999 WHERE run_id = 3")
    out = tmp_path / "dashboard.html"
    assert main(["html", str(out), "--db", str(db)]) == 0
    assert "damaged figures left out" in capsys.readouterr().out


@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0])
def test_a_damaged_night_is_stored_as_failed_rows(tmp_path, capsys, value):
    paths = write_nights(tmp_path / "nights", Nights(count=12))
    night = json.loads(paths[5].read_text())
    night["benchmarks"][0]["real_time"] = value
    paths[5].write_text(json.dumps(night))
    db = tmp_path / "history.sqlite"
    assert main(["ingest", *map(str, paths), "--db", str(db)]) == 0
    assert "1 rows with damaged figures, stored as failed" in capsys.readouterr().out
    (error,) = (
        sqlite3.connect(db).execute("SELECT error FROM rows WHERE error IS NOT NULL").fetchone()
    )
    assert error.startswith("damaged figures: repetition 0: real_time is ")
    assert check(capsys, db)[0] == 0  # no damaged figure was stored
