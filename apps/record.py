"""A game as the journal recorded it, read back: the result, the breakdown, the log, and
the file `tavola replay` reads.

The journal keeps the seed and the actions; the engine's determinism does the rest: the
record is replayed through the engine, so a finished game explains its scores (each
scoring step as a sentence, the tie-break named) as well as it did at the table, and a
solo game names its automa as the winner. Only the public log is written: an action
that names a secret card reads as the view's `public_text` has it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from typing import Any

import engine
from engine.core import (
    CHANCE,
    Action,
    DataError,
    GameData,
    IllegalAction,
    SeatNamer,
    State,
    breakdown,
    seat_name,
)

from .journal import GameRecord
from .views import has_view, view_for

log = logging.getLogger("tavola.record")


def recorded(state: State, player: int, text: str) -> Action:
    """A journal's action as the engine now reads it. The text is what was entered; an
    action an older version recorded for another actor (a Strada Romana wagon tile was once
    a draw, now its holder's choice) is matched by its text alone."""
    try:
        return state.parse_action(text, player=player)
    except IllegalAction:
        action = state.parse_action(text)
        log.info("journal: %r was recorded for player %s, now %s's", text, player, action.player)
        return action


def seat_namer(seats: Sequence[Any]) -> SeatNamer:
    """The table's names for a record's players: 'seat 3' for player 0 when the first to
    join sat at seat 3 (a record's seat entry may carry a player's name too, and
    says whether a bot played the seat)."""
    labels = []
    for s in seats:
        if isinstance(s, dict) and s.get("name"):
            labels.append(str(s["name"]))
        elif isinstance(s, dict):
            labels.append(f"seat {s.get('seat')}")
        else:
            labels.append(f"seat {s}")
        if isinstance(s, dict) and s.get("bot"):
            labels[-1] += " (bot)"

    def name(player: int) -> str:
        return labels[player] if 0 <= player < len(labels) else seat_name(player)

    return name


def result_lines(state: State, names: SeatNamer) -> list[str]:
    """The end of a game in words: the result with the tie-break that decided it, then
    each seat's scoring steps added up by kind (`engine.core.breakdown`)."""
    lines = [
        f"Game over. {state.result(names)}"
        if state.is_over()
        else f"Not finished: {state.describe(names)}"
    ]
    label = functools.partial(state.label, names=names)
    lines += breakdown(state).lines(label, state.standings())
    return lines


def data_of(record: GameRecord) -> GameData:
    """The component data `record`'s game was played with: today's, or the owner's file
    as it was when the game started (kept in the journal), on today's shipped data or on
    the shipped data of an earlier release (kept in the engine), so checking a component
    later or correcting the shipped data strands no game. ValueError (one line) when
    neither is it."""
    game = engine.get(record.game)
    data = game.data()
    if data.digest == record.data_digest:
        return data
    for shipped in (None, *reversed(game.earlier_data())):
        try:
            if record.data_text is not None:
                kept = game.load_data(text=record.data_text, shipped=shipped)
            elif shipped is not None:
                kept = game.load_data(shipped=shipped)
            else:
                continue
        except DataError:
            continue
        if kept.digest == record.data_digest:
            return kept
    raise ValueError(
        f"game #{record.id} was played with other component data "
        f"({record.data_digest}, now {data.digest})"
    )


def replay(record: GameRecord) -> State:
    """The record's game, replayed through the engine to its last action, with the data it
    was played with (`data_of`). Raises ValueError (one line) when the engine cannot:
    another component data, an action it no longer accepts."""
    game = engine.get(record.game)
    data = data_of(record)
    state = game.new_state(record.players, seed=record.seed, options=record.options, data=data)
    for n, (player, text) in enumerate(record.actions, 1):
        try:
            state.apply(recorded(state, player, text))
        except IllegalAction as exc:
            raise ValueError(
                f"game #{record.id}: action {n} ({text!r}) is refused now: {exc}"
            ) from None
    return state


def game_log(record: GameRecord) -> list[str]:
    """Every action as the table said it (`#N seat S: text`), each followed by the
    scoring steps and public news it caused (`State.news`), then the result and the
    breakdown."""
    names = seat_namer(record.seats)
    game = engine.get(record.game)
    view = view_for(game.name) if has_view(game.name) else None
    state = game.new_state(record.players, seed=record.seed, options=record.options)
    lines: list[str] = []
    for n, (player, text) in enumerate(record.actions, 1):
        action = recorded(state, player, text)
        events = state.apply(action)
        who = "draw" if action.player == CHANCE else names(action.player)
        shown = view.public_text(state, action) if view is not None else action.text
        lines.append(f"#{n} {who}: {shown}")
        lines += (f"    {sentence}" for sentence in state.news(events, names))
    return lines + result_lines(state, names)


def exported(state: State) -> dict[str, Any]:
    """The file `tavola replay` reads: game, players, seed, options and the actions as
    [player, text] pairs (0-based players, -1 for a draw)."""
    return {
        "game": state.game.name,
        "players": state.players,
        "seed": state.seed,
        "options": dict(state.options),
        "actions": [[a.player, a.text] for a in state.history],
    }


__all__ = ["exported", "game_log", "recorded", "replay", "result_lines", "seat_namer"]
