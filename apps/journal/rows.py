"""A game as rows: writing a `GameRecord` into a journal, reading one back, salvaging a file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from .errors import JournalError
from .files import uri_path
from .records import GameRecord


def _data_key(game: str, digest: str) -> str:
    return f"data {game} {digest}"


def keep_data(db: sqlite3.Connection, game: str, digest: str, text: str) -> None:
    """The override text of data `digest`, once per digest (the same text gives the same
    digest, so the first one kept stays right)."""
    db.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (_data_key(game, digest), text))


def _kept_data(db: sqlite3.Connection, game: str, digest: str) -> str | None:
    try:
        row = db.execute(
            "SELECT value FROM meta WHERE key=?", (_data_key(game, digest),)
        ).fetchone()
    except sqlite3.OperationalError:  # a journal from before the meta table
        return None
    return None if row is None else str(row[0])


_COLUMNS = (
    "game, players, seed, options, seats, data_digest, status, started, ended, scores, winner"
)
"""The columns of `games` after `id`, in the order `_row` gives them."""


def _row(r: GameRecord) -> tuple[Any, ...]:
    return (
        r.game,
        r.players,
        r.seed,
        json.dumps(r.options),
        json.dumps(r.seats),
        r.data_digest,
        r.status,
        r.started,
        r.ended,
        None if r.scores is None else json.dumps(r.scores),
        None if r.winner is None else json.dumps(r.winner),
    )


def add_game(db: sqlite3.Connection, r: GameRecord) -> int:
    """A new game's row (its actions come one by one); SQLite gives it the next id."""
    cur = db.execute(f"INSERT INTO games ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)", _row(r))
    return int(cur.lastrowid or 0)


def insert_game(db: sqlite3.Connection, r: GameRecord) -> None:
    """A whole game under its own id, its actions and its data, as the record has them."""
    if r.data_text is not None:
        keep_data(db, r.game, r.data_digest, r.data_text)
    db.execute(
        f"INSERT INTO games (id, {_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", (r.id, *_row(r))
    )
    db.executemany(
        "INSERT INTO actions (game_id, seq, player, text, at) VALUES (?,?,?,?,?)",
        [(r.id, i, p, t, r.started) for i, (p, t) in enumerate(r.actions, 1)],
    )


def load_game(db: sqlite3.Connection, game_id: int, *, with_actions: bool = True) -> GameRecord:
    row = db.execute(
        "SELECT id, game, players, seed, options, seats, data_digest, status, started, ended,"
        " scores, winner FROM games WHERE id=?",
        (game_id,),
    ).fetchone()
    if row is None:
        raise JournalError(f"no game {game_id} in the journal")
    record = GameRecord(
        id=row[0],
        game=row[1],
        players=row[2],
        seed=row[3],
        options=json.loads(row[4]),
        seats=json.loads(row[5]),
        data_digest=row[6],
        status=row[7],
        started=row[8],
        ended=row[9],
        scores=None if row[10] is None else json.loads(row[10]),
        winner=None if row[11] is None else json.loads(row[11]),
        data_text=_kept_data(db, row[1], row[6]),
    )
    if with_actions:
        record.actions = [
            (int(p), str(t))
            for p, t in db.execute(
                "SELECT player, text FROM actions WHERE game_id=? ORDER BY seq", (game_id,)
            )
        ]
    return record


def salvage(path: Path) -> list[GameRecord]:
    """Every game still readable from a journal (a damaged one too); the rest is skipped."""
    try:
        db = sqlite3.connect(f"file:{uri_path(path)}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    found: list[GameRecord] = []
    try:
        ids = [int(r[0]) for r in db.execute("SELECT id FROM games ORDER BY id")]
    except sqlite3.Error:
        db.close()
        return []
    for game_id in ids:
        try:
            found.append(load_game(db, game_id))
        except (sqlite3.Error, ValueError, JournalError):
            continue
    db.close()
    return found
