"""Strada Romana, Special Moves and Traffic Jam: what a player may buy at the beginning
of a turn (`board.SpecialMove`), and what a jam leaves on offer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from engine.core import Event, Rule, in_phases

from . import movement
from .board import BUYABLE, SpecialMove
from .flow import FLOW, coins_text

if TYPE_CHECKING:
    from .movement import Road
    from .rules import StradaRomanaState

SPECIAL_BY_WORD: Mapping[str, SpecialMove] = {m.word: m for m in BUYABLE}
"""Each special move a player can buy, by its word in the notation."""
_DIAGONAL, _STACKING = SpecialMove.DIAGONAL, SpecialMove.STACKING


class SpecialMoves(Rule["StradaRomanaState"]):
    """'At the beginning of their turn, players can use their coins to buy special
    features to be added to their 3 simple "straight" moves. Note: each special move
    includes all the benefits of the cheaper ones, and can be used for all the wagons
    moved during a single turn. Sideways move: A player pays 1 coin ... Diagonal move: A
    player pays 2 coins ... Extra move: A player pays 3 coins. During his turn, he can
    move by 4 instead of 3 ... Stacking: A player pays 4 coins. A wagon can pass through
    an occupied square, but at the end of its move only one wagon can stay on each
    square ... Special Moves can be performed in the order preferred and as many times as
    wished during the turn.'

    Bought once, before the first step (ruling 12): `SpecialMove`, whose steps are
    `Board.steps_with` and whose allowance is `Board.allowance`. Which unlinked diagonals
    exist is data (ruling 8); stacking passes through any kind of step (ruling 10)."""

    heading = "Special Moves"
    plays = in_phases(turn=("buy",))
    refuses = in_phases(special=("buy",), moving=("buy",), stopped=("buy",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        if TRAFFIC_JAM.jammed(state):
            return TRAFFIC_JAM.purchases(state)
        b = state.board
        coins = state.coins[state.seat]
        return [b.buy_texts[m] for m in BUYABLE if b.costs[m] <= coins]

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        special = SPECIAL_BY_WORD[arg]
        cost = state.board.costs[special]
        state.coins[state.seat] -= cost
        state.special = special
        events.append(
            Event("special_bought", {"player": state.seat, "move": special.word, "cost": cost})
        )
        FLOW.fire(state, "buy")

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        if state.phase != "turn":
            return "Special moves are bought at the beginning of the turn, before moving."
        b = state.board
        special = SPECIAL_BY_WORD.get(arg)
        if special is None:
            moves = ", ".join(f"{m.word} ({b.costs[m]})" for m in BUYABLE)
            return f"The special moves (coins) are {moves}."
        coins = state.coins[state.seat]
        if b.costs[special] > coins:
            return (
                f"The {arg} move costs {coins_text(b.costs[special])} and {state.who(state.seat)} "
                f"has {coins_text(coins)}."
            )
        return TRAFFIC_JAM.refuse_buy(special)

    def prompt(self, state: StradaRomanaState) -> str:
        return f"{state.who(state.seat)} bought the {state.special.word} move: move the wagons."

    @staticmethod
    def escape(road: Road, square: int, h: int, left: int, trail: int) -> bool:
        """Stacking: 'at the end of its move only one wagon can stay on each square': a
        step onto a wagon is allowed only if a free square (or the arrival) is in reach."""
        b = road.board
        occ = road.occ
        for t in b.steps_with[_STACKING][h][square]:
            if t == b.finish:
                if road.finished[h] < b.finish_squares:
                    return True
            elif trail >> t & 1:
                continue
            elif occ[t] < 0 or (
                left > 1
                and SpecialMoves.escape(
                    road, t, h, left - 1, movement.THE_WAGONS.trail(b, square, t, trail)
                )
            ):
                return True
        return False

    @staticmethod
    def refuse_diagonal(state: StradaRomanaState) -> str | None:
        if state.special.includes(_DIAGONAL):
            return None
        return (
            "Moving diagonally where no line links the squares is a Special Move: "
            "buy diagonal (2 coins) at the beginning of the turn."
        )

    @staticmethod
    def refuse_stacking(target: str) -> str:
        return (
            f"With stacking a wagon may pass through {target}, but at the end of its "
            f"move only one wagon can stay on each square: no free square is in reach."
        )


class TrafficJam(Rule["StradaRomanaState"]):
    """'If the wagons are blocked, a traffic jam is formed. A player can buy a special move
    to solve the jam. If possible, he must make his three moves as usual. If the player
    cannot or does not want to pay to move, he can choose a wagon tile, or pass, taking a
    coin. During the next turn, if he wants, he can move by spending his coins.'

    Every special move the player can pay for from the cheapest one that lets a wagon
    step, since each includes the cheaper ones (ruling 13); one after which no wagon
    could move is not offered (ruling 12)."""

    heading = "Traffic Jam"

    @staticmethod
    def jammed(state: StradaRomanaState) -> bool:
        """No wagon can take a step (at the beginning of a turn, nothing bought)."""
        return not movement.MOVING.first_steps_now(state)

    def purchases(self, state: StradaRomanaState) -> list[str]:
        b = state.board
        coins = state.coins[state.seat]
        cheapest = next(
            (m for m in BUYABLE if b.costs[m] <= coins and self.moves_with(state, m)), None
        )
        if cheapest is None:
            return []
        return [b.buy_texts[m] for m in BUYABLE if m >= cheapest and b.costs[m] <= coins]

    @staticmethod
    def moves_with(state: StradaRomanaState, special: SpecialMove) -> bool:
        """Could some wagon take a step if `special` were bought?"""
        saved, state.special = state.special, special
        try:
            left = state.board.allowance(special)
            occ = state.occ
            for w, sq in enumerate(state.pos):
                if sq < 0:
                    continue
                occ[sq] = -1
                try:
                    if movement.THE_WAGONS.targets(state, w, left, 1 << sq):
                        return True
                finally:
                    occ[sq] = w
            return False
        finally:
            state.special = saved

    @staticmethod
    def refuse_buy(special: SpecialMove) -> str:
        return f"No wagon could move even with the {special.word} move."


SPECIAL_MOVES = SpecialMoves()
TRAFFIC_JAM = TrafficJam()
