"""Strada Romana: the flow of a game (its phases and transitions, as in the rulebook's
table of contents), and the words every chapter of the rules writes alike."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Flow

if TYPE_CHECKING:
    from .board import Board
    from .movement import Road

# --- the flow of a game, as in the rulebook's table of contents ------------------
PHASES = [
    "wagons",  # Game Setup 2: the 10 wagons at random on the starting squares
    "wares",  # 3: one ware tile of each colour at random on the six areas
    "cubes",  # 4: one cube at random on each market-place
    "wagon_tiles",  # 6: one wagon tile back into the box, unseen
    "first_player",  # 7: the starting player at random; starting coins
    "turn",  # Playing the Game: move the wagons, choose a wagon tile, or pass
    "special",  # Special Moves: bought at the beginning of the turn; now move
    "moving",  # a) Moving the Wagons: one wagon takes its steps
    "stopped",  # the wagon ended its move: take a ware tile and/or a cube, move on
    "refill",  # a new cube or ware tile is drawn at random from the bag
    "wagon_tile",  # b) Choose a Wagon Tile: its identity entered as it is taken
    "reveal",  # Game End / Score: all players reveal their wagon tiles
    "over",  # Total Score
]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "wagons_placed", "source": "wagons", "dest": "wares"},
    {"trigger": "wares_placed", "source": "wares", "dest": "cubes"},
    {"trigger": "cubes_placed", "source": "cubes", "dest": "wagon_tiles"},
    {"trigger": "tile_removed", "source": "wagon_tiles", "dest": "first_player"},
    {"trigger": "first_chosen", "source": "first_player", "dest": "turn"},
    {"trigger": "buy", "source": "turn", "dest": "special"},
    {"trigger": "step", "source": ["turn", "special", "stopped"], "dest": "moving"},
    {"trigger": "stop", "source": "moving", "dest": "stopped"},
    {"trigger": "collect", "source": "stopped", "dest": "refill"},
    {"trigger": "refilled", "source": "refill", "dest": "stopped"},
    {"trigger": "take_tile", "source": "turn", "dest": "wagon_tile"},
    {
        "trigger": "next_turn",
        "source": ["turn", "moving", "stopped", "refill", "wagon_tile"],
        "dest": "turn",
    },
    {"trigger": "game_end", "source": ["turn", "moving", "stopped"], "dest": "reveal"},
    {"trigger": "scored", "source": ["turn", "moving", "stopped", "reveal"], "dest": "over"},
]

FLOW = Flow("Strada Romana", PHASES, TRANSITIONS, initial="wagons")

SETUP_PHASES = frozenset(("wagons", "wares", "cubes", "wagon_tiles", "first_player"))
MOVE_PHASES = frozenset(("turn", "special", "moving", "stopped"))
"""The phases of a turn of moving the wagons, in which the seat whose turn it is acts."""


def coins_text(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def wagon_name(state: Road, w: int) -> str:
    return state.board.wagons[w].capitalize()


def action_words(verb: str, arg: str) -> list[str]:
    """The action as the player wrote it, word by word (`verb` may be two words)."""
    return f"{verb} {arg}".split()


def step_text(b: Board, head: list[int], w: int, t: int) -> str:
    return b.step_text[w][t + head[w] if t == b.finish else t]
