"""The component check on the phone page: every provisional value of a game, its question
in words and the shipped guess, answered from a paired phone (docs/components.md).

`listing(game)` is what the page shows, read afresh from the owner's override file
(apps.userdata.user_override_path): the values still provisional and the values already
the owner's. `post(body)` takes answers, "matches my copy" or a typed value as the file
writes it (`12`, `[3, 4, 4]`, `{ 4 = 5 }`), reads each with `datacheck.parse` and writes
them with `datacheck.save`: checked by the game before anything is written, textually
(comments kept), atomically with the old file kept as `GAME.toml.bak`. A refusal is one
sentence and leaves the file byte for byte.

When the answers apply: a game in play keeps the data it began with (the journal holds
its digest and the owner's file as it was, undo rebuilds the game with its own data);
this process's `Game.data()` is switched to the new file on the table's thread once no
game of that title is in play (`NextGame`), so the one place that reads the default
(a new game) plays by it, without a restart.
"""

from __future__ import annotations

import errno
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engine
from engine.core import DataError, GameData

from .. import datacheck
from ..safefile import FileChanged
from ..userdata import present, user_override_path

if TYPE_CHECKING:
    from ..runtime import Appliance

__all__ = ["DataSaved", "NextGame", "listing", "post"]

_LOCK = threading.Lock()  # two phones at once: one after the other, each on the other's file


def _data(game: str) -> tuple[Path, GameData]:
    """The owner's file of `game` and the data it makes, read now (DataError: refused)."""
    path = user_override_path(game)
    return path, engine.get(game).load_data(present(path))


def _item(question: datacheck.Question, guess: Any) -> dict[str, Any]:
    return {
        "group": question.group,
        "key": question.key,
        "label": question.label,
        "text": question.text,
        "value": question.shown(),
        "guess": None if guess is None else replace(question, current=guess).shown(),
        "source": question.source,
    }


def _game(game: str) -> dict[str, Any]:
    g = engine.get(game)
    out: dict[str, Any] = {"game": game, "title": g.title, "questions": [], "owner": []}
    try:
        path, data = _data(game)
    except DataError as exc:
        out.update(file=str(user_override_path(game)), error=f"{exc} (fix the file first)")
        return out
    shipped = g.load_data()
    out["file"] = str(path)
    out["questions"] = [_item(q, None) for q in datacheck.questions(game, data)]
    for q in datacheck.owned(game, data):
        item = _item(q, shipped[q.group].values[q.key])
        item["checked"] = data[q.group].provenance == "owner"
        out["owner"].append(item)
    return out


def listing(game: str | None = None) -> tuple[int, dict[str, Any]]:
    """Every game's provisional values and the owner's, or those of `game` only."""
    names = engine.games()
    if game is not None and game not in names:
        return 404, {"error": f"no game {game!r} (games: {', '.join(names)})"}
    return 200, {"games": [_game(g) for g in ([game] if game else names)]}


def _refused(
    message: str, status: int = 400, where: dict[str, Any] | None = None
) -> tuple[int, dict[str, Any]]:
    """One sentence (and the value it is about, so the page marks that field)."""
    return status, {"ok": False, "error": message, **(where or {})}


def _answers(body: Any) -> tuple[str, list[tuple[str, str, str | None]]] | str:
    """(game, [(group, key, typed answer or None for "matches")]) or why not."""
    if not isinstance(body, dict):
        return "the body must be a JSON object"
    unknown = set(body) - {"game", "answers"}
    if unknown:
        return f"unknown field(s): {', '.join(sorted(unknown))} (send game and answers)"
    game, answers = body.get("game"), body.get("answers")
    if not isinstance(game, str) or game not in engine.games():
        return f"say which game: one of {', '.join(engine.games())}"
    if not isinstance(answers, list) or not answers:
        return 'answers must be a list of {"group", "key", "answer"} or {..., "matches": true}'
    out: list[tuple[str, str, str | None]] = []
    for a in answers:
        one = _answer(a)
        if isinstance(one, str):
            return one
        out.append(one)
    return game, out


def _answer(a: Any) -> tuple[str, str, str | None] | str:
    """One item of `answers`: (group, key, typed answer or None for "matches"), or why not."""
    if not isinstance(a, dict) or set(a) - {"group", "key", "answer", "matches"}:
        return 'each answer is {"group", "key", "answer": "12"} or {..., "matches": true}'
    group, key = a.get("group"), a.get("key")
    if not isinstance(group, str) or not isinstance(key, str):
        return "each answer names its group and key as text"
    typed, matches = a.get("answer"), a.get("matches")
    if matches is True and typed is None:
        return (group, key, None)
    if isinstance(typed, str) and matches in (None, False):
        return (group, key, typed)
    return f"[{group}] {key}: give either the value your copy shows or matches: true"


@dataclass(frozen=True)
class DataSaved:
    """On the table's queue: `game`'s owner's file is now `path`."""

    game: str
    path: Path


def post(
    body: Any, table: Appliance | None = None, *, playing: str | None = None
) -> tuple[int, dict[str, Any]]:
    """Read and write the answers of `body` (200, 400 with the sentence, 409 when the file
    changed meanwhile); on success tell the table (`DataSaved`). `playing`: the game in
    play, as the table last published it (its answer says when the values apply)."""
    parsed = _answers(body)
    if isinstance(parsed, str):
        return _refused(parsed)
    game, answers = parsed
    with _LOCK:
        return _write(game, answers, table, playing)


class _Refusal(Exception):
    """An answer refused, with the status and body the page gets; nothing is written."""

    def __init__(self, refusal: tuple[int, dict[str, Any]]) -> None:
        super().__init__(refusal[1]["error"])
        self.refusal = refusal


def _write(
    game: str,
    answers: list[tuple[str, str, str | None]],
    table: Appliance | None,
    playing: str | None,
) -> tuple[int, dict[str, Any]]:
    title = engine.get(game).title
    try:
        path, data = _data(game)
    except DataError as exc:
        return _refused(f"{exc} (fix the file first: nothing was written)")
    try:
        values, said = _values(game, title, data, answers)
        written = _save(game, values, path, answers)
    except _Refusal as refusal:
        return refusal.refusal
    if table is not None:
        table.events.put(DataSaved(game, written))
    when = (
        f"The {title} game in play keeps the values it began with; the next game plays by these."
        if playing == game
        else f"The next game of {title} plays by these."
    )
    return 200, {
        "ok": True,
        "file": str(written),
        "backup": str(written) + ".bak",
        "written": said,
        "applies": "next game",
        "said": f"Written to {written}: {'; '.join(said)}. {when}",
    }


def _values(
    game: str, title: str, data: GameData, answers: list[tuple[str, str, str | None]]
) -> tuple[dict[tuple[str, str], Any], list[str]]:
    """Each answer read as the check reads it (a value the check asks, or one the owner's
    file already holds), and a sentence per value for the page."""
    asked = {(q.group, q.key): q for q in datacheck.questions(game, data)}
    asked.update({(q.group, q.key): q for q in datacheck.owned(game, data)})
    values: dict[tuple[str, str], Any] = {}
    said = []
    for group, key, typed in answers:
        q = asked.get((group, key))
        where = {"group": group, "key": key}
        if q is None:
            raise _Refusal(
                _refused(f"[{group}] {key} is not a value of {title} the check asks", where=where)
            )
        try:
            value = q.current if typed is None else datacheck.parse(q, typed)
        except datacheck.AnswerError as exc:
            raise _Refusal(_refused(f"[{group}] {exc}", where=where)) from None
        values[(group, key)] = value
        shown = replace(q, current=value).shown()
        said.append(
            f"[{group}] {key} = {shown}" + (" (matches your copy)" if typed is None else "")
        )
    return values, said


def _save(
    game: str,
    values: dict[tuple[str, str], Any],
    path: Path,
    answers: list[tuple[str, str, str | None]],
) -> Path:
    """Write the owner's file unless it changed since it was read; returns where."""
    try:
        return datacheck.save(game, values, path=path, use=False)
    except DataError as exc:
        one = {"group": answers[0][0], "key": answers[0][1]} if len(answers) == 1 else {}
        raise _Refusal(_refused(f"{exc} (nothing was written)", where=one)) from None
    except FileChanged as exc:
        raise _Refusal(_refused(f"{exc}: load the check again", 409, {"retry": True})) from None
    except OSError as exc:
        hint = (
            f" The table's service must be able to write {path.parent} (docs/install.md)."
            if exc.errno in (errno.EACCES, errno.EROFS, errno.EPERM)
            else ""
        )
        raise _Refusal(
            _refused(f"cannot write {path}: {exc.strerror or exc}; nothing was written.{hint}")
        ) from None


class NextGame:
    """On the table's thread: the owner's new file becomes `Game.data()` of its title as
    soon as no game of that title is in play, so a running game, its undo and its journal
    keep the data it began with, and the next one needs no restart."""

    def __init__(self, table: Appliance) -> None:
        self.table = table
        self.pending: dict[str, Path] = {}
        table.handlers[DataSaved] = self.saved
        table.watchers.append(self.apply)

    def saved(self, event: DataSaved) -> None:
        self.pending[event.game] = event.path
        self.apply()

    def apply(self) -> None:
        if not self.pending:
            return
        status = self.table.app.status()
        playing = status.game if status.in_game else None
        for game in [g for g in self.pending if g != playing]:
            engine.get(game).use_data_file(self.pending.pop(game))
