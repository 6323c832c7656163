"""Games and undone actions as the journal hands them out, and as its mark and backups hold them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class UndoneAction:
    """An action taken back by undo, as the journal keeps it: it was number `seq`, and
    when it was undone the first `locked` actions could no longer be, because `why`."""

    seq: int
    player: int
    text: str
    at: float
    undone_at: float
    locked: int
    why: str


@dataclass
class GameRecord:
    """A game as the journal stores it."""

    id: int
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    seats: list[Any]
    data_digest: str
    status: str
    started: float
    ended: float | None = None
    scores: list[int] | None = None
    winner: list[int] | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    data_text: str | None = None
    """The owner's override file the game was played with (None: the shipped data), kept
    in `meta` under `data GAME DIGEST`, so a later change to the file cannot strand it."""

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        record = cls(**{k: data[k] for k in data if k in cls.__dataclass_fields__})
        record.actions = [(int(p), str(t)) for p, t in record.actions]
        return record

    def progress(self) -> tuple[int, int]:
        """How far the game got: ended games beyond playing ones, then more actions."""
        return (0 if self.status == "playing" else 1, len(self.actions))
