import json
import sqlite3

import pytest
from track_fixtures import BENCHMARKS, REAL, Nights, write_nights
from variant_lines import RECORDED, recorded_text

from handoff_reports.results import load_results
from handoff_reports.track import main
from handoff_reports.track.identity import identify
from handoff_reports.track.store import SCHEMA_VERSION, open_store
from handoff_reports.variants import run_variants

MULTI = REAL.parent / "h200x4-multi_gpu.json"


def test_ingest_keeps_every_row_and_repetition(tmp_path):
    db = tmp_path / "history.sqlite"
    paths = write_nights(tmp_path / "nights", Nights(count=3))
    assert main(["ingest", *map(str, paths), "--db", str(db)]) == 0
    with open_store(db, create=False) as store:
        assert store.count("runs") == 3
        assert store.count("rows") == 3 * len(BENCHMARKS)
        assert store.count("repetitions") == 3 * len(BENCHMARKS) * 5
        seconds = store.passing_repetitions(None)
    assert all(len(values) == 5 for values in seconds.values())


def test_ingest_of_a_real_run_stores_its_manifest(tmp_path):
    db = tmp_path / "history.sqlite"
    run = load_results(REAL)
    assert main(["ingest", str(REAL), "--db", str(db)]) == 0
    with open_store(db, create=False) as store:
        (stored,) = store.runs()
        assert store.count("rows") == len(run.rows)
        assert store.count("repetitions") == sum(row.repetitions for row in run.rows.values())
    assert stored.identity.gpu_uuids == ("GPU-3a2b1246-eace-0619-4236-e05f8c6ad8aa",)
    assert stored.identity.commit == "3a481c987fd9"
    assert stored.identity.cuda_runtime == "13.0"
    # This file predates handoff_driver_version: the driver API level stands in.
    assert stored.identity.driver == "CUDA driver API 13.0"
    assert stored.source_path == str(REAL)


def test_machine_is_every_gpu():
    four = identify(load_results(MULTI))
    one = identify(load_results(REAL))
    assert len(four.gpu_uuids) == 4
    assert all(uuid in four.machine for uuid in four.gpu_uuids)
    assert four.machine != one.machine
    assert "4x NVIDIA H200" in four.machine_label


def test_machine_without_gpus_is_host_and_cpu():
    run = load_results(REAL)
    for key in [key for key in run.context if key.startswith("handoff_gpu")]:
        del run.context[key]
    identity = identify(run)
    assert identity.gpu_models == ()
    assert identity.machine == "vm | Intel(R) Xeon(R) Processor"


def test_ingesting_twice_is_a_no_op(tmp_path, capsys):
    db = tmp_path / "history.sqlite"
    paths = write_nights(tmp_path / "nights", Nights(count=2))
    assert main(["ingest", *map(str, paths), "--db", str(db)]) == 0
    assert main(["ingest", str(paths[0]), "--db", str(db)]) == 0
    assert "already in the history" in capsys.readouterr().out
    with open_store(db, create=False) as store:
        assert store.count("runs") == 2
        assert store.count("repetitions") == 2 * len(BENCHMARKS) * 5


def test_a_bad_file_is_exit_2_and_stores_nothing(tmp_path, capsys):
    db = tmp_path / "history.sqlite"
    good = write_nights(tmp_path / "nights", Nights(count=1))[0]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["ingest", str(good), str(bad), "--db", str(db)]) == 2
    error = capsys.readouterr().err
    assert "bad.json" in error and "not valid JSON" in error
    assert len(error.strip().splitlines()) == 1
    with open_store(db, create=True) as store:
        assert store.count("runs") == 0


def test_a_run_without_a_date_is_exit_2(tmp_path, capsys):
    document = json.loads(REAL.read_text())
    del document["context"]["date"]
    path = tmp_path / "undated.json"
    path.write_text(json.dumps(document))
    assert main(["ingest", str(path), "--db", str(tmp_path / "h.sqlite")]) == 2
    assert "undated.json" in capsys.readouterr().err


def test_check_and_html_need_an_existing_history(tmp_path, capsys):
    missing = str(tmp_path / "missing.sqlite")
    assert main(["check", "--db", missing]) == 2
    assert main(["html", str(tmp_path / "out.html"), "--db", missing]) == 2
    assert "no history database" in capsys.readouterr().err
    assert not (tmp_path / "missing.sqlite").exists()


def test_a_foreign_database_is_refused(tmp_path, capsys):
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE unrelated (x)")
    connection.close()
    assert main(["check", "--db", str(db)]) == 2
    assert "not a handoff history database" in capsys.readouterr().err


def test_a_newer_schema_is_refused(tmp_path, capsys):
    db = tmp_path / "history.sqlite"
    with open_store(db, create=True):
        pass
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    connection.close()
    assert main(["check", "--db", str(db)]) == 2
    assert f"schema version {SCHEMA_VERSION + 1}" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["ingest"], ["check", "--recent", "x"], ["frobnicate"]])
def test_usage_errors_are_exit_2(argv):
    assert main(argv) == 2


def test_help_names_the_exit_codes(capsys):
    assert main(["check", "--help"]) == 0
    out = capsys.readouterr().out
    assert "regressions; 2: bad input" in " ".join(out.split())
    assert "--recent" in out and "--db" in out


def _ingested(tmp_path, paths):
    db = tmp_path / "history.sqlite"
    assert main(["ingest", *map(str, paths), "--db", str(db)]) == 0
    return db


def test_the_history_keeps_each_runs_variants_record(tmp_path):
    paths = write_nights(tmp_path / "nights", Nights(count=2, variants=recorded_text()))
    db = _ingested(tmp_path, paths)
    for path in paths:
        path.unlink()  # what the history says of the variants, it says without the files
    with open_store(db, create=False) as store:
        recorded = store.recorded_variants()
    assert recorded == run_variants(load_results(RECORDED))
    assert list(recorded) == list(json.loads(recorded_text()))


def test_runs_from_before_the_record_store_none(tmp_path):
    db = _ingested(tmp_path, write_nights(tmp_path / "nights", Nights(count=2)))
    with sqlite3.connect(db) as connection:
        stored = connection.execute("SELECT variants FROM runs").fetchall()
    connection.close()
    assert stored == [(None,), (None,)]
    with open_store(db, create=False) as store:
        assert store.recorded_variants() == {}


def _record_with(first_pattern_variants):
    record = json.loads(recorded_text())
    pattern = next(iter(record))
    record[pattern] = [
        {"name": name, "description": f"{name}, described", "recipe": False, "cpu": False}
        for name in first_pattern_variants
    ]
    return pattern, json.dumps(record)


def test_the_records_together_keep_the_earliest_nights_order(tmp_path):
    pattern, earlier = _record_with(["b", "a"])
    _, later = _record_with(["a", "c", "b"])
    first = write_nights(tmp_path / "early", Nights(count=1, variants=earlier))
    second = write_nights(tmp_path / "late", Nights(count=2, variants=later))[1:]
    db = _ingested(tmp_path, [*second, *first])  # the later night ingested first
    with open_store(db, create=False) as store:
        recorded = store.recorded_variants()
    assert [variant.name for variant in recorded[pattern]] == ["b", "a", "c"]


def test_a_damaged_record_refuses_the_batch(tmp_path, capsys):
    good = write_nights(tmp_path / "good", Nights(count=1, variants=recorded_text()))
    bad = write_nights(tmp_path / "bad", Nights(count=2, variants="{not json"))[1:]
    db = tmp_path / "history.sqlite"
    assert main(["ingest", str(good[0]), str(bad[0]), "--db", str(db)]) == 2
    assert "handoff_variants" in capsys.readouterr().err
    with open_store(db, create=True) as store:
        assert store.count("runs") == 0


def test_a_version_2_history_gains_an_empty_variants_column(tmp_path):
    db = _ingested(tmp_path, write_nights(tmp_path / "old", Nights(count=2)))
    with sqlite3.connect(db) as connection:  # as version 2 wrote it
        connection.execute("ALTER TABLE runs DROP COLUMN variants")
        connection.execute("UPDATE schema_version SET version = 2")
    connection.close()
    new = write_nights(tmp_path / "new", Nights(count=3, variants=recorded_text()))[2:]
    assert main(["ingest", str(new[0]), "--db", str(db)]) == 0
    with open_store(db, create=False) as store:
        assert len(store.runs()) == 3
        assert store.recorded_variants() == run_variants(load_results(RECORDED))
    with sqlite3.connect(db) as connection:
        (version,) = connection.execute("SELECT version FROM schema_version").fetchone()
        stored = connection.execute("SELECT variants FROM runs ORDER BY date").fetchall()
    connection.close()
    assert version == SCHEMA_VERSION
    assert [text is None for (text,) in stored] == [True, True, False]
