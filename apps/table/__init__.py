"""The table app: a lobby, a session and a renderer behind one facade, `TableApp`.

- `app`: `TableApp`, the facade: the table's machine, the seats' buttons, routing, `tick`;
- `lobby`: idle, choosing a game, seating the players, starting a game;
- `check`: the component check the lobby offers before the first game of a title;
- `session`: a game in progress: confirm, undo, resume, the journal's writes, the words;
- `render`: the frames: board, prompts, previews, the scoring display.

docs/table.md ("How the table app is built") says why it is split this way.
"""

from __future__ import annotations

from .app import GAME_MODES, STATES, TRANSITIONS, Output, TableApp, TableSeat
from .lobby import Lobby, Seating
from .render import PULSE_PERIOD, SCORING_HOLD, SCORING_STEP, Renderer, Seen
from .session import RETRY_S, RETRY_WAIT_S, Session, Unwritten

__all__ = [
    "GAME_MODES",
    "PULSE_PERIOD",
    "RETRY_S",
    "RETRY_WAIT_S",
    "SCORING_HOLD",
    "SCORING_STEP",
    "STATES",
    "TRANSITIONS",
    "Lobby",
    "Output",
    "Renderer",
    "Seating",
    "Seen",
    "Session",
    "TableApp",
    "TableSeat",
    "Unwritten",
]
