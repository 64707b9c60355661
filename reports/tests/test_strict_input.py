"""Every command reads its input files strictly: a bad file is one line on stderr and exit 2."""

import json
import shutil
import sqlite3

import pytest
from contract14_fixtures import document, entry

from handoff_reports.cli import main

NAME = "elementwise/cpu_serial/workload:vector_add/elements:1024"


def good_text():
    return json.dumps(document([entry(NAME, 1e-3)]))


HUGE_INTEGER = (
    '{"context": {"handoff_version": "0.1.0"}, "benchmarks": [{"name": "a/b", "real_time": 1'
    + "0" * 400
    + "}]}"
)
# JSON files, each broken in its own way: bytes to write, or None for a missing file, or "dir".
BAD_JSON = {
    "not-utf8": b'{"context": {"handoff_version": "\xff\xfe"}, "benchmarks": []}',
    "huge-integer": HUGE_INTEGER.encode(),
    "deep-nesting": b"[" * 100_000,
    "nesting-past-the-limit": (
        '{"context": {"handoff_version": "0.1.0", "x": ' + "[" * 500 + "]" * 500 + "},"
        ' "benchmarks": []}'
    ).encode(),
    "not-an-object": b"[1, 2, 3]",
    "truncated": good_text()[: len(good_text()) // 2].encode(),
    "empty": b"",
    "lone-surrogate": b'{"context": {"handoff_version": "\\ud800"}, "benchmarks": []}',
    "unhashable-time-unit": json.dumps(
        {
            "context": {"handoff_version": "0.1.0"},
            "benchmarks": [{"name": "a/b", "real_time": 1, "time_unit": []}],
        }
    ).encode(),
    "infinite-ceiling": b'{"context": {"handoff_version": "0.1.0"}, "benchmarks": [],'
    b' "handoff_ceilings": {"pcie": {"value": Infinity, "unit": "seconds"}}}',
    "missing": None,
    "directory": "dir",
}
BAD_TOML = {
    "not-utf8": b"[defaults]\nthreshold = 0.05 # \xff\n",
    "deep-nesting": b"x = " + b"[" * 100_000,
    "truncated": b"[defaults]\nthreshold = ",
    "missing": None,
    "directory": "dir",
}


def make(tmp_path, kind, content):
    path = tmp_path / f"bad-{kind}.input"
    if content == "dir":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    return path


def good(tmp_path):
    path = tmp_path / "good.json"
    path.write_text(good_text())
    return str(path)


# Each command, with the bad file in the place it reads one.
JSON_COMMANDS = {
    "report": lambda tmp, bad: ["report", bad, "-o", str(tmp / "out.html")],
    "compare-baseline": lambda tmp, bad: ["compare", bad, good(tmp)],
    "compare-contender": lambda tmp, bad: ["compare", good(tmp), bad],
    "merge": lambda tmp, bad: ["merge", good(tmp), bad, "-o", str(tmp / "merged.json")],
    "track-ingest": lambda tmp, bad: ["track", "ingest", bad, "--db", str(tmp / "h.sqlite")],
    "claims": lambda tmp, bad: ["claims", bad],
    "previous": lambda tmp, bad: ["previous", "--root", str(tmp), bad],
    "results-page": lambda tmp, bad: ["results-page", bad, "-o", str(tmp / "page.md")],
}
TOML_COMMANDS = {
    "compare-thresholds": lambda tmp, bad: ["compare", good(tmp), good(tmp), "--thresholds", bad],
    "claims-file": lambda tmp, bad: ["claims", good(tmp), "--claims", bad],
}


def assert_one_line_naming(capsys, code, path):
    captured = capsys.readouterr()
    assert code == 2, captured
    assert "Traceback" not in captured.err
    assert captured.err.count("\n") == 1 and captured.err.endswith("\n"), captured.err
    assert str(path) in captured.err


@pytest.mark.parametrize("kind", BAD_JSON)
@pytest.mark.parametrize("command", JSON_COMMANDS)
def test_a_bad_results_file_is_one_line_and_exit_2(tmp_path, capsys, command, kind):
    bad = make(tmp_path, kind, BAD_JSON[kind])
    code = main(JSON_COMMANDS[command](tmp_path, str(bad)))
    assert_one_line_naming(capsys, code, bad)


@pytest.mark.parametrize("kind", BAD_TOML)
@pytest.mark.parametrize("command", TOML_COMMANDS)
def test_a_bad_toml_file_is_one_line_and_exit_2(tmp_path, capsys, command, kind):
    bad = make(tmp_path, kind, BAD_TOML[kind])
    code = main(TOML_COMMANDS[command](tmp_path, str(bad)))
    assert_one_line_naming(capsys, code, bad)


@pytest.mark.parametrize("kind", ["not-utf8", "missing", "directory"])
def test_a_bad_progress_list_is_one_line_and_exit_2(tmp_path, capsys, kind):
    content = {"not-utf8": b"a/b\xff\n", "missing": None, "directory": "dir"}[kind]
    bad = make(tmp_path, kind, content)
    code = main(["progress", "--list", str(bad), "--log", str(tmp_path / "log")])
    assert_one_line_naming(capsys, code, bad)


def sqlite_history(tmp_path):
    db = tmp_path / "real.sqlite"
    assert main(["track", "ingest", good(tmp_path), "--db", str(db)]) == 0
    return db


def bad_database(tmp_path, kind):
    if kind == "truncated":
        whole = sqlite_history(tmp_path).read_bytes()
        return make(tmp_path, kind, whole[: len(whole) // 2])
    if kind == "not-a-history":
        path = tmp_path / "other.sqlite"
        sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
        return path
    content = {"garbage": b"\xff\xfe not sqlite " * 100, "missing": None, "directory": "dir"}
    return make(tmp_path, kind, content[kind])


@pytest.mark.parametrize("kind", ["garbage", "truncated", "not-a-history", "missing", "directory"])
@pytest.mark.parametrize("command", ["check", "html", "ingest"])
def test_a_bad_history_database_is_one_line_and_exit_2(tmp_path, capsys, command, kind):
    if command == "ingest" and kind == "missing":
        pytest.skip("ingest creates a missing history")
    bad = bad_database(tmp_path, kind)
    capsys.readouterr()
    arguments = {
        "check": ["check"],
        "html": ["html", str(tmp_path / "out.html")],
        "ingest": ["ingest", good(tmp_path)],
    }[command]
    code = main(["track", *arguments, "--db", str(bad)])
    assert_one_line_naming(capsys, code, bad)


def test_good_files_still_pass_through_every_command(tmp_path, capsys):
    path = good(tmp_path)
    assert main(["compare", path, path]) == 0
    assert main(["merge", path, path, "-o", str(tmp_path / "m.json")]) == 0
    assert main(["track", "ingest", path, "--db", str(tmp_path / "h.sqlite")]) == 0
    shutil.rmtree(tmp_path / "h.sqlite", ignore_errors=True)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("index", ["first", -1, 1.5, None])
def test_merge_refuses_a_damaged_repetition_index_in_one_line(tmp_path, capsys, index):
    content = document([{**entry(NAME, 1e-3), "repetition_index": index}])
    bad = tmp_path / "bad-index.json"
    bad.write_text(json.dumps(content))
    code = main(["merge", good(tmp_path), str(bad), "-o", str(tmp_path / "merged.json")])
    assert_one_line_naming(capsys, code, bad)
