"""The engine contract shared by every game (see docs/engine.md)."""

from .action import CHANCE, QUIET, Action, Event, normalise, typed_digits, whole_number
from .data import (
    DataError,
    DataUnreadable,
    GameData,
    Group,
    earlier_digests,
    load_game_data,
    value_problem,
)
from .errors import GameOver, IllegalAction, NotYourTurn, UnknownNotation
from .faces import CardFaces
from .fields import (
    LISTS,
    MAPPING,
    OPTIONAL,
    SCALAR,
    SCALARS,
    TUPLES,
    Codec,
    Field,
    Fields,
    Kind,
    Stored,
    lists,
    optional,
    tuples,
)
from .flow import Flow
from .hidden import redeal
from .observation import Observation
from .playout import PLAYOUT_LIMIT, fast_play_out, play_out
from .rng import derive, draw_chance, random_action
from .rulebook import Rule, Rulebook, in_phases, revealing
from .scoring import Breakdown, ScoreStep, breakdown, joined, points_text, replayed
from .state import DRAWN, Game, Option, SeatNamer, State, capital, seat_name
from .words import counted

__all__ = [
    "CHANCE",
    "DRAWN",
    "LISTS",
    "MAPPING",
    "OPTIONAL",
    "PLAYOUT_LIMIT",
    "QUIET",
    "SCALAR",
    "SCALARS",
    "TUPLES",
    "Action",
    "Breakdown",
    "CardFaces",
    "Codec",
    "DataError",
    "DataUnreadable",
    "Event",
    "Field",
    "Fields",
    "Flow",
    "Game",
    "GameData",
    "GameOver",
    "Group",
    "IllegalAction",
    "Kind",
    "NotYourTurn",
    "Observation",
    "Option",
    "Rule",
    "Rulebook",
    "ScoreStep",
    "SeatNamer",
    "State",
    "Stored",
    "UnknownNotation",
    "breakdown",
    "capital",
    "counted",
    "derive",
    "draw_chance",
    "earlier_digests",
    "fast_play_out",
    "in_phases",
    "joined",
    "lists",
    "load_game_data",
    "normalise",
    "optional",
    "play_out",
    "points_text",
    "random_action",
    "redeal",
    "replayed",
    "revealing",
    "seat_name",
    "tuples",
    "typed_digits",
    "value_problem",
    "whole_number",
]


def parse_action(state: State, text: str, player: int | None = None) -> Action:
    """Module-level spelling of `State.parse_action`, as in the design."""
    return state.parse_action(text, player)
