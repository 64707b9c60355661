"""Every file a command writes: never a directory it was not asked for, never through something
that is not a regular file, and never half-written (a new file takes the old one's place whole)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from handoff_reports import cli
from handoff_reports.headline import BLOCK_BEGIN, BLOCK_END
from handoff_reports.output_files import OutputError, write_atomically

REAL = Path(__file__).parent / "fixtures" / "real"
SMALL = REAL / "h200x4-multi_gpu.json"
SINGLE = REAL / "h200-1gpu.json"

Command = Callable[[Path, Path], list[str]]


def _history(tmp_path: Path) -> Path:
    db = tmp_path / "history.sqlite"
    if not db.exists():
        assert cli.main(["track", "ingest", str(SMALL), "--db", str(db)]) == 0
    return db


def _listing(tmp_path: Path) -> str:
    listing = tmp_path / "list.txt"
    listing.write_text("pool_prep/seed/chunks:10/elements:1024/manual_time\n")
    return str(listing)


COMMANDS: dict[str, Command] = {
    "report -o": lambda tmp, out: ["report", str(SMALL), "-o", str(out)],
    "compare --html": lambda tmp, out: ["compare", str(SMALL), str(SMALL), "--html", str(out)],
    "merge -o": lambda tmp, out: ["merge", str(SMALL), "-o", str(out)],
    "track html": lambda tmp, out: ["track", "html", str(out), "--db", str(_history(tmp))],
    "track ingest --db": lambda tmp, out: ["track", "ingest", str(SMALL), "--db", str(out)],
    "headline --into": lambda tmp, out: ["headline", str(SINGLE), "--into", str(out)],
    "progress --log": lambda tmp, out: ["progress", "--list", _listing(tmp), "--log", str(out)],
}
# progress's log is written as the run goes, to be read while it grows: not replaced whole.
REPLACED_WHOLE = [name for name in COMMANDS if name not in ("progress --log", "track ingest --db")]


def _refused(arguments: list[str], capsys: pytest.CaptureFixture[str], *fragments: str) -> None:
    assert cli.main(arguments) == 2
    errors = capsys.readouterr().err
    assert len(errors.splitlines()) == 1, errors
    assert all(fragment in errors for fragment in fragments), errors


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_missing_output_directory_is_an_error_and_is_not_made(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing" / "deeper"
    _refused(COMMANDS[name](tmp_path, missing / "out"), capsys, str(missing), "no such directory")
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("kind", ["directory", "symlink", "device"])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_output_that_is_not_a_regular_file_is_refused(
    name: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "target"
    target.write_text(f"before\n{BLOCK_BEGIN}\n{BLOCK_END}\n")
    out = {
        "directory": tmp_path / "folder",
        "symlink": tmp_path / "link",
        "device": Path(os.devnull),
    }
    out["directory"].mkdir()
    out["symlink"].symlink_to(target)
    _refused(COMMANDS[name](tmp_path, out[kind]), capsys, str(out[kind]), "not a regular file")
    assert target.read_text() == f"before\n{BLOCK_BEGIN}\n{BLOCK_END}\n"
    assert out["directory"].is_dir() and not any(out["directory"].iterdir())


@pytest.mark.parametrize("name", REPLACED_WHOLE)
def test_an_output_is_replaced_whole_not_rewritten_in_place(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out" / "file"
    out.parent.mkdir()
    out.write_text(f"before\n{BLOCK_BEGIN}\n{BLOCK_END}\n")
    os.link(out, tmp_path / "hard-link")  # shares the old file's contents, not its name
    arguments = COMMANDS[name](tmp_path, out)
    assert cli.main(arguments) in (0, 1)
    assert (tmp_path / "hard-link").read_text() == f"before\n{BLOCK_BEGIN}\n{BLOCK_END}\n"
    assert out.read_text() != (tmp_path / "hard-link").read_text()
    assert sorted(path.name for path in out.parent.iterdir()) == ["file"]  # no temporary left


def test_compare_builds_makes_its_keep_folder_but_not_the_folders_above(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing"
    bench = sys.executable  # any program: the folder is checked before anything runs
    keep = str(missing / "kept")
    _refused(["compare-builds", bench, bench, "--keep", keep], capsys, str(missing))
    assert not missing.exists()
    afile = tmp_path / "a-file"
    afile.write_text("")
    _refused(["compare-builds", bench, bench, "--keep", str(afile)], capsys, "not a directory")


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out.json"
    out.write_text("old")

    def failing_replace(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OutputError, match="out.json: cannot write: No space left on device"):
        write_atomically(out, "new")
    assert out.read_text() == "old"
    assert [path.name for path in tmp_path.iterdir()] == ["out.json"]


def test_a_written_file_has_the_modes_a_plain_write_would_give(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        write_atomically(tmp_path / "new.html", "text")
    finally:
        os.umask(previous)
    assert (tmp_path / "new.html").stat().st_mode & 0o777 == 0o644
    kept = tmp_path / "private.html"
    kept.write_text("old")
    kept.chmod(0o600)
    write_atomically(kept, "new")
    assert kept.stat().st_mode & 0o777 == 0o600 and kept.read_text() == "new"
