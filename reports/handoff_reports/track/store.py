"""The history: one SQLite file holding every ingested run, every row and every repetition.

Tables: `runs` (one per results file: machine, GPUs, driver, CUDA runtime, commit, date,
measurement settings and the run's variants record; older versions are brought up to date when
opened, see MIGRATIONS),
`rows` (one per benchmark of a run: wrong, verified, efficiency, error) and `repetitions` (every
repetition's seconds). A run is unique by machine, date and commit: ingesting a file again is a
no-op that says so, so a nightly job that retries is harmless.

A row whose figures were damaged in its file (results.Row.defects) is stored as failed, its defects
as its error, so it never enters a series. Figures in the database itself that are not finite or
are negative (a time of zero or less) are never read as measurements: `damaged_figures` names
them, and `passing_repetitions` leaves them out.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from handoff_reports.output_files import check_output_file
from handoff_reports.results import Run
from handoff_reports.track.errors import TrackError
from handoff_reports.track.identity import RunIdentity, identify
from handoff_reports.variants import (
    VariantRecord,
    merge_records,
    parse_variants,
    record_text,
    run_variants,
)

SCHEMA_VERSION = 3
DEFAULT_PATH = Path("history.sqlite")

SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    machine TEXT NOT NULL,
    machine_label TEXT NOT NULL,
    host_name TEXT NOT NULL,
    gpu_models TEXT NOT NULL,
    gpu_uuids TEXT NOT NULL,
    driver TEXT NOT NULL,
    cuda_runtime TEXT NOT NULL,
    git_commit TEXT NOT NULL,
    date TEXT NOT NULL,
    source_path TEXT NOT NULL,
    ingested_at TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT 'unknown',
    variants TEXT,
    UNIQUE (machine, date, git_commit)
);
CREATE TABLE rows (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    name TEXT NOT NULL,
    pattern TEXT NOT NULL,
    wrong REAL NOT NULL,
    verified REAL NOT NULL,
    efficiency REAL,
    floor_seconds REAL,
    error TEXT,
    PRIMARY KEY (run_id, name)
);
CREATE TABLE repetitions (
    run_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    repetition INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (run_id, name, repetition),
    FOREIGN KEY (run_id, name) REFERENCES rows (run_id, name)
);
"""

RowKey = tuple[int, str]  # run id, benchmark name

# GPU models and UUIDs are joined with this; neither contains it.
LIST_SEPARATOR = ", "


@dataclass(frozen=True)
class StoredRun:
    id: int
    identity: RunIdentity
    source_path: str


@dataclass(frozen=True)
class Ingested:
    run_id: int
    added: bool  # False when the same machine, date and commit were already there
    rows: int
    repetitions: int


class HistoryStore:
    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path

    def ingest(self, run: Run) -> Ingested:
        identity = identify(run)
        variants = run_variants(run)
        existing = self._db.execute(
            "SELECT id FROM runs WHERE machine = ? AND date = ? AND git_commit = ?",
            (identity.machine, identity.date, identity.commit),
        ).fetchone()
        if existing is not None:
            return Ingested(run_id=int(existing[0]), added=False, rows=0, repetitions=0)
        cursor = self._db.execute(
            "INSERT INTO runs (machine, machine_label, host_name, gpu_models, gpu_uuids, driver,"
            " cuda_runtime, git_commit, date, source_path, ingested_at, settings, variants)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                identity.machine,
                identity.machine_label,
                identity.host_name,
                LIST_SEPARATOR.join(identity.gpu_models),
                LIST_SEPARATOR.join(identity.gpu_uuids),
                identity.driver,
                identity.cuda_runtime,
                identity.commit,
                identity.date,
                run.path,
                datetime.now(UTC).isoformat(timespec="seconds"),
                identity.settings,
                record_text(variants) if variants else None,
            ),
        )
        run_id = int(cursor.lastrowid or 0)
        rows = list(run.rows.values())
        self._db.executemany(
            "INSERT INTO rows VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    run_id,
                    row.key,
                    row.name.pattern,
                    row.wrong,
                    row.verified,
                    row.efficiency,
                    row.floor_seconds,
                    row.failure if row.defects else row.error,
                )
                for row in rows
            ],
        )
        repetitions = [
            (run_id, row.key, index, seconds)
            for row in rows
            for index, seconds in enumerate(row.seconds)
        ]
        self._db.executemany("INSERT INTO repetitions VALUES (?, ?, ?, ?)", repetitions)
        return Ingested(run_id=run_id, added=True, rows=len(rows), repetitions=len(repetitions))

    def runs(self) -> list[StoredRun]:
        """Every run, grouped by machine and in time order within one."""
        result = self._db.execute(
            "SELECT id, machine, machine_label, host_name, gpu_models, gpu_uuids, driver,"
            " cuda_runtime, git_commit, date, source_path, settings FROM runs"
            " ORDER BY machine, date, id"
        )
        return [
            StoredRun(
                id=int(record[0]),
                identity=RunIdentity(
                    machine=record[1],
                    machine_label=record[2],
                    host_name=record[3],
                    gpu_models=_split(record[4]),
                    gpu_uuids=_split(record[5]),
                    driver=record[6],
                    cuda_runtime=record[7],
                    commit=record[8],
                    date=record[9],
                    settings=record[11],
                ),
                source_path=record[10],
            )
            for record in result
        ]

    def recorded_variants(self) -> VariantRecord:
        """Every run's variants record together, the earliest run's order first
        (variants.merge_records): a night that adds a variant leaves the others' styles as they
        were. Runs from before the record, or stored before the history kept it, add nothing."""
        result = self._db.execute(
            "SELECT id, variants FROM runs WHERE variants IS NOT NULL ORDER BY date, id"
        )
        return merge_records(
            parse_variants(text, f"{self.path}: run {run_id}") for run_id, text in result
        )

    def passing_repetitions(self, match: re.Pattern[str] | None) -> dict[RowKey, list[float]]:
        """Seconds by (run id, benchmark), for rows that neither failed nor got a wrong answer:
        a row that computed garbage may well be fast, and is no evidence about speed."""
        result = self._db.execute(
            "SELECT r.run_id, r.name, p.seconds FROM rows AS r"
            " JOIN repetitions AS p ON p.run_id = r.run_id AND p.name = r.name"
            " WHERE r.error IS NULL AND r.wrong = 0 ORDER BY r.run_id, r.name, p.repetition"
        )
        seconds: dict[tuple[int, str], list[float]] = {}
        for run_id, name, value in result:
            if (match is None or match.search(name)) and _figure_problem(value, POSITIVE) is None:
                seconds.setdefault((int(run_id), str(name)), []).append(float(value))
        return seconds

    def damaged_figures(self, match: re.Pattern[str] | None) -> list[str]:
        """One line per stored figure that is not a finite, non-negative number (a time: a
        positive one), among the rows `match` selects: none should ever have been stored."""
        found = []
        rows = self._db.execute(
            "SELECT r.run_id, u.source_path, r.name, r.wrong, r.verified, r.efficiency,"
            " r.floor_seconds FROM rows AS r JOIN runs AS u ON u.id = r.run_id"
            " ORDER BY r.run_id, r.name"
        )
        for run_id, source, name, *values in rows:
            if match is not None and not match.search(name):
                continue
            for column, value in zip(ROW_FIGURES, values, strict=True):
                rule = ROW_FIGURES[column]
                if (value is not None or rule.required) and (
                    problem := _figure_problem(value, rule.kind)
                ) is not None:
                    found.append(f"run {run_id} ({source}), {name}: {column} {problem}")
        repetitions = self._db.execute(
            "SELECT p.run_id, u.source_path, p.name, p.repetition, p.seconds FROM repetitions AS p"
            " JOIN runs AS u ON u.id = p.run_id ORDER BY p.run_id, p.name, p.repetition"
        )
        for run_id, source, name, repetition, value in repetitions:
            if match is not None and not match.search(name):
                continue
            if (problem := _figure_problem(value, POSITIVE)) is not None:
                found.append(
                    f"run {run_id} ({source}), {name}: repetition {repetition} seconds {problem}"
                )
        return found

    def count(self, table: str) -> int:
        if table not in ("runs", "rows", "repetitions"):
            raise ValueError(f"no table {table!r} in the history")
        return int(self._db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


POSITIVE, NOT_NEGATIVE = "positive", "not negative"


@dataclass(frozen=True)
class _Rule:
    kind: str  # POSITIVE or NOT_NEGATIVE
    required: bool  # NOT NULL in the schema: a NULL there is how SQLite stores a NaN


# The columns of `rows` that hold figures, and what each must be.
ROW_FIGURES = {
    "wrong": _Rule(NOT_NEGATIVE, required=True),
    "verified": _Rule(NOT_NEGATIVE, required=True),
    "efficiency": _Rule(NOT_NEGATIVE, required=False),
    "floor_seconds": _Rule(POSITIVE, required=False),
}


def _figure_problem(value: object, kind: str) -> str | None:
    """What is wrong with a stored figure ("is inf", "is -2, not positive"); None when fine."""
    if value is None:
        return "is NULL (a NaN, as SQLite stores one)"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"is not a number ({str(value)[:24]!r})"
    if not math.isfinite(value):
        return f"is {value}"
    if value < 0 or (kind == POSITIVE and value == 0):
        return f"is {value:g}, not {kind}"
    return None


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split(LIST_SEPARATOR)) if text else ()


# The step from each older version to the next; an older history takes them in turn when opened.
MIGRATIONS = {
    # Version 1 had no settings column: its runs were made before setting_* existed.
    1: "ALTER TABLE runs ADD COLUMN settings TEXT NOT NULL DEFAULT 'unknown'",
    # Version 2 kept no variants record: its runs add nothing to the dashboard's styles.
    2: "ALTER TABLE runs ADD COLUMN variants TEXT",
}


def _migrate(connection: sqlite3.Connection, version: int) -> None:
    for step in range(version, SCHEMA_VERSION):
        connection.execute(MIGRATIONS[step])
    connection.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))


def _check_schema(connection: sqlite3.Connection, path: Path) -> None:
    try:
        record = connection.execute("SELECT version FROM schema_version").fetchone()
    except sqlite3.DatabaseError as error:
        raise TrackError(f"{path}: not a handoff history database ({error})") from error
    if record is not None and record[0] in MIGRATIONS:
        _migrate(connection, record[0])
        return
    if record is None or record[0] != SCHEMA_VERSION:
        found = record[0] if record else "none"
        raise TrackError(
            f"{path}: history schema version {found}, this tool reads version {SCHEMA_VERSION}"
        )


@contextmanager
def open_store(path: Path, create: bool) -> Iterator[HistoryStore]:
    """The history at `path`, committed on success and rolled back on any error.

    With `create`, a missing file becomes an empty history; without, it is a TrackError, since
    checking or plotting an empty history would only hide a wrong --db. A history to write to
    follows every output's rule (output_files.py): its directory must be there, and it must be a
    regular file. Raises OutputError for those."""
    if create:
        check_output_file(path)
    fresh = not path.exists()
    if fresh and not create:
        raise TrackError(f"{path}: no history database here (create one with `track ingest`)")
    try:
        connection = sqlite3.connect(path)
    except sqlite3.Error as error:
        raise TrackError(f"{path}: cannot open the history database: {error}") from error
    try:
        with connection:
            if fresh:
                connection.executescript(SCHEMA)
                connection.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
            _check_schema(connection, path)
            yield HistoryStore(connection, path)
    except sqlite3.Error as error:
        raise TrackError(f"{path}: history database error: {error}") from error
    finally:
        connection.close()
