"""The engine contract shared by every game (see docs/engine.md)."""

from .action import CHANCE, Action, Event, normalise
from .data import DataError, GameData, Group, load_game_data, user_override_path
from .errors import IllegalAction
from .flow import Flow
from .playout import PLAYOUT_LIMIT, play_out
from .rng import derive, draw_chance, random_action
from .state import Game, Option, State, seat_name

__all__ = [
    "CHANCE",
    "PLAYOUT_LIMIT",
    "Action",
    "DataError",
    "Event",
    "Flow",
    "Game",
    "GameData",
    "Group",
    "IllegalAction",
    "Option",
    "State",
    "derive",
    "draw_chance",
    "load_game_data",
    "normalise",
    "play_out",
    "random_action",
    "seat_name",
    "user_override_path",
]


def parse_action(state: State, text: str, player: int | None = None) -> Action:
    """Module-level spelling of `State.parse_action`, as in the design."""
    return state.parse_action(text, player)
