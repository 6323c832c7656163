"""The journal's SQL schema: telling a Tavola journal from other files, making and upgrading one."""

from __future__ import annotations

import logging
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import JournalError
from .files import is_sqlite, uri_path

log = logging.getLogger(__package__)

APPLICATION_ID = 0x54564C41  # "TVLA" at offset 68 of the SQLite header: a Tavola journal
SCHEMA_VERSION = 3  # 3: the `undone` table (2 is brought to 3 when opened)
LEGACY_SCHEMA = 1  # journals written before the application id and the meta table
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    data_digest TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    started REAL NOT NULL,
    ended REAL,
    scores TEXT,
    winner TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    player INTEGER NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS undone (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    player INTEGER NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    undone_at REAL NOT NULL,
    locked INTEGER NOT NULL,
    why TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value NOT NULL
) WITHOUT ROWID;
"""
_UNDONE = (
    SCHEMA[
        SCHEMA.index("CREATE TABLE IF NOT EXISTS undone") : SCHEMA.index(
            "CREATE TABLE IF NOT EXISTS meta"
        )
    ]
    .strip()
    .rstrip(";")
)
_GAME_COLUMNS = {
    "id",
    "game",
    "players",
    "seed",
    "options",
    "seats",
    "data_digest",
    "status",
    "started",
    "ended",
    "scores",
    "winner",
}


def identify(db: sqlite3.Connection, path: Path) -> tuple[str, int]:
    """What the file is, with its schema version: "journal", "new" (an empty file to start
    one in) or "legacy" (schema 1, known by its tables); anything else is refused, untouched."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = {
        r[0]
        for r in db.execute(
            "SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite_%'"
        )
    }
    if app_id == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"journal {path} was written by a newer Tavola (schema "
                f"{version}, this one knows {SCHEMA_VERSION}); nothing was "
                "changed: update Tavola"
            )
        return "journal", version
    if app_id == 0 and not tables and version == 0:
        return "new", version
    if app_id == 0 and _is_legacy(db, version, tables):
        return "legacy", version
    raise _not_a_journal(path, app_id, tables)


def _not_a_journal(path: Path, app_id: int, tables: set[str]) -> JournalError:
    what = f"application id {app_id:#x}" if app_id else "no application id"
    listed = ", ".join(sorted(tables)) or "no tables"
    return JournalError(
        f"{path} is an SQLite database but not a Tavola journal "
        f"({what}; {listed}); nothing was changed: name another file "
        "in [app] journal (or --db)"
    )


def _is_legacy(db: sqlite3.Connection, version: int, tables: set[str]) -> bool:
    """A journal written before the application id: schema 1 and its two tables."""
    return (
        version in (0, LEGACY_SCHEMA)
        and tables == {"games", "actions"}
        and {r[1] for r in db.execute("PRAGMA table_info(games)")} >= _GAME_COLUMNS
    )


def prepare(db: sqlite3.Connection, kind: str, version: int, path: Path) -> None:
    """WAL on; then make the tables, bring an older schema up to date, or take the lock once."""
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    if kind != "journal":
        _create(db)
        if kind == "legacy":
            log.info("journal %s: brought to schema %d", path, SCHEMA_VERSION)
    elif version < SCHEMA_VERSION:  # schema 2: the undone table is added, nothing else
        with _immediate(db):
            db.execute(_UNDONE)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        log.info("journal %s: brought to schema %d", path, SCHEMA_VERSION)
    else:  # take the write lock once: a lock held elsewhere is an error now, not mid-game
        db.execute("BEGIN IMMEDIATE")
        db.execute("ROLLBACK")


def _create(db: sqlite3.Connection) -> None:
    """The tables, the journal's id and commit count, its application id and schema version
    (a journal of schema 1 keeps its rows and gains what it lacks)."""
    with _immediate(db):
        for statement in SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute("INSERT OR IGNORE INTO meta VALUES ('id', ?)", (uuid.uuid4().hex,))
        db.execute("INSERT OR IGNORE INTO meta VALUES ('commits', 0)")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


@contextmanager
def _immediate(db: sqlite3.Connection) -> Iterator[None]:
    """One write transaction, rolled back when anything in it fails."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def is_journal_file(path: Path) -> bool:
    """A readable Tavola journal (or backup) by its application id or its schema-1 tables."""
    if not path.is_file() or not is_sqlite(path):
        return False
    try:
        db = sqlite3.connect(f"file:{uri_path(path)}?mode=ro", uri=True)
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
        finally:
            db.close()
    except sqlite3.Error:
        return False
    return app_id == APPLICATION_ID or (app_id == 0 and {"games", "actions"} <= tables)
