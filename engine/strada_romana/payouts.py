"""Strada Romana, what a player holds: Contracts (a cube and a ware tile of one colour)
and coins, changed into victory points by five, as c) Pass and the ware tiles pay them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from engine.core import Event, Rule, in_phases

from . import movement, scoring

if TYPE_CHECKING:
    from .rules import StradaRomanaState


class Holdings(NamedTuple):
    """A seat's cubes and ware tiles, as the Score counts them."""

    contracts: list[int]
    """Contracts per colour: a cube and a ware tile of that colour stacked."""
    loose: int
    """The cubes and ware tiles in no contract."""


class Contracts(Rule["StradaRomanaState"]):
    """'When a player has a "ware" tile and a cube of the same colour, he has stipulated a
    contract, the main system to score points in Strada Romana. He stacks them as shown.
    A contract is stipulated when a cube and a "ware" tile of the same colour are stacked.'

    Per colour, min(cubes, tiles) contracts and |cubes - tiles| loose items (ruling 24)."""

    heading = "Contracts"

    @staticmethod
    def count(state: StradaRomanaState, seat: int) -> Holdings:
        """Contracts per colour, and the cubes and ware tiles in none."""
        cubes, tiles = state.cubes[seat], state.tiles[seat]
        contracts = [min(c, t) for c, t in zip(cubes, tiles, strict=True)]
        loose = sum(abs(c - t) for c, t in zip(cubes, tiles, strict=True))
        return Holdings(contracts, loose)


class Pass(Rule["StradaRomanaState"]):
    """'When a player decides to pass, he takes one coin and his turn is finished. If he
    owns 5 coins, he must change them into 1 Victory Point as usual. When a player has 5
    coins, he must change them into 1 Victory Point (1 victory point = 5 coins).'"""

    heading = "c) Pass"
    plays = in_phases(turn=("pass",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        return ("pass",)

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        seat = state.seat
        events.append(Event("passed", {"player": seat}))
        if not self.gain(state, seat, state.board.pass_coins, "pass", events):
            movement.PLAYING.end_turn(state, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        return "'pass' takes no more words." if arg else None

    @staticmethod
    def gain(
        state: StradaRomanaState, seat: int, coins: int, source: str, events: list[Event]
    ) -> bool:
        """Coins for `seat`, every 5 changed into a victory point while any are left; the
        whole payout is taken, as far as the 20 coins go (ruling 17). True when that gave
        out the last victory point: the game has ended. `source` (the pass, a ware tile's
        colour) goes into each victory point's event, so its sentence can say why."""
        b = state.board
        supply = b.coins_total - sum(state.coins)
        given = False
        for k in range(coins):
            if not supply:  # every coin of the game is in the players' hands
                events.append(Event("coins_short", {"player": seat, "missing": coins - k}))
                break
            state.coins[seat] += 1
            supply -= 1
            if state.coins[seat] >= b.coins_per_vp and sum(state.vp) < b.vp_tokens:
                state.coins[seat] -= b.coins_per_vp
                supply += b.coins_per_vp
                state.vp[seat] += 1
                given = True
                events.append(
                    Event(
                        "victory_point",
                        {"player": seat, "vp": state.vp[seat], "for": source},
                    )
                )
        if given and sum(state.vp) >= b.vp_tokens:
            scoring.GAME_END.end(state, "victory points", events)
            return True
        return False


CONTRACTS = Contracts()
PASS = Pass()
