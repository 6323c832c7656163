"""The public read model: what one seat, or everyone at the table, may know of a state.

`State.observe(seat=None)` returns an `Observation`: named, frozen values (frozen
dataclasses with slots, tuples and named tuples) built fresh from the state. A game
subclasses `Observation` twice: a public class with what the whole table sees, and a
seat class that adds what only that seat knows (its own money, its hand). A secret
therefore has no field to live in on the public class; it is absent by construction,
not hidden by a promise. Views, the card scanner, the phone page and bots read only
observations (OpenSpiel's observer, boardgame.io's `playerView`; docs/engine.md).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Observation:
    """What every game shows: who plays, where the game is, whose turn it is, the result.

    `seat` is the seat this observation is for (None: the public table). `scores` are
    the scores the rulebook makes public now (None while they are secret, like
    Strozzi's money before the end); `winner` is empty until the game is over.
    """

    game: str
    players: int
    seats: int
    """Seats at the board: `players`, plus an automa's seat in a solo game."""
    seat: int | None
    phase: str
    setup: bool
    """Still setting up: the table guides the players through laying out the board."""
    round: int | None
    """The round in play, for games played in rounds; None otherwise."""
    current: int | None
    """`current_player()`: a seat, CHANCE, or None once the game is over."""
    prompt: str
    """`describe()`: the sentence about what the game waits for."""
    over: bool
    scores: tuple[int, ...] | None
    winner: tuple[int, ...]
