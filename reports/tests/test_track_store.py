import json
import sqlite3

import pytest
from track_fixtures import BENCHMARKS, REAL, Nights, write_nights

from handoff_reports.results import load_results
from handoff_reports.track import main
from handoff_reports.track.identity import identify
from handoff_reports.track.store import SCHEMA_VERSION, open_store

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
