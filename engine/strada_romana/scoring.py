"""Strada Romana, Game End and Score: the game ends at once, in the middle of a turn if
need be; the scores and the tie-break."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, Rule

from . import payouts, wagon_tiles
from .flow import FLOW

if TYPE_CHECKING:
    from .rules import StradaRomanaState


class GameEnd(Rule["StradaRomanaState"]):
    """'The game ends immediately when all the 20 Victory Points are assigned, or when the
    fourth wagon reaches its destination (place the first 4 arrived wagons on the squares
    numbered from 1 to 4, regardless of the destination).'

    'immediately': in the middle of a turn if need be (ruling 22); then the wagon tiles
    not named yet are revealed."""

    heading = "Game End"

    @staticmethod
    def end(state: StradaRomanaState, reason: str, events: list[Event]) -> None:
        state.ended = reason
        state.mover = -1
        events.append(Event("game_ended", {"reason": reason}))
        if wagon_tiles.WAGON_TILES.unrevealed(state).seat >= 0:
            FLOW.fire(state, "game_end")
        else:
            SCORE.final(state, events)


class Score(Rule["StradaRomanaState"]):
    """'Points are calculated on the basis of: The Victory Points; The "wagon tiles" owned
    by each player; The Contracts. The winner of the game is the player with the highest
    score. If two or more players tie, the winner is the player with more coins. If there
    is still a tie, the player that played last loses.'

    'played last' by the order of play: the tied player whose latest turn came later
    loses (ruling 23)."""

    heading = "Score"

    @staticmethod
    def victory_points(state: StradaRomanaState, seat: int) -> int:
        """Victory Points: 'Each player scores 1 point for each Victory Point token held.
        Coins do not give points.'"""
        return state.vp[seat]

    @staticmethod
    def contract_points(state: StradaRomanaState, seat: int) -> int:
        """Contracts: 'Each player's score equals the number of colours in which he holds
        contracts multiplied by the greatest number of contracts held of a single colour.
        However, he loses 1 Point for each cube or "ware" tile owned that does not form
        part of a contract.'"""
        contracts, loose = payouts.CONTRACTS.count(state, seat)
        colours = sum(1 for k in contracts if k)
        return colours * max(contracts) + loose * state.board.points_loose

    def contracts_scored(self, state: StradaRomanaState, seat: int) -> Event:
        """A seat's contracts as the Score counts them: per colour, and the loose items."""
        b = state.board
        contracts, loose = payouts.CONTRACTS.count(state, seat)
        return Event(
            "contracts_scored",
            {
                "player": seat,
                "contracts": {b.colours[c]: k for c, k in enumerate(contracts) if k},
                "loose": loose,
                "points": self.contract_points(state, seat),
            },
        )

    def total(self, state: StradaRomanaState) -> list[int]:
        """Total Score: 'Victory Points + Wagon Points + Total contract Points = FINAL
        SCORE'. Wagon tiles count only once revealed at the end (ruling 20)."""
        over = state.phase == "over"
        return [
            self.victory_points(state, s)
            + self.contract_points(state, s)
            + (wagon_tiles.WAGON_TILES.points(state, s) if over else 0)
            for s in range(state.players)
        ]

    def winner(self, state: StradaRomanaState) -> list[int]:
        scores = self.total(state)
        keys = [(scores[s], state.coins[s], -state.last[s]) for s in range(state.players)]
        best = max(keys)
        return [s for s in range(state.players) if keys[s] == best]

    def final(self, state: StradaRomanaState, events: list[Event]) -> None:
        """The Score, once every wagon tile is named: each tile and each seat's contracts
        as an event of its own (what score_words says), then the result."""
        FLOW.fire(state, "scored")
        for seat in range(state.players):  # in the Total Score's order: tiles, contracts
            events += wagon_tiles.WAGON_TILES.scored(state, seat)
        events += (self.contracts_scored(state, seat) for seat in range(state.players))
        events.append(
            Event("game_over", {"scores": self.total(state), "winner": self.winner(state)})
        )


GAME_END = GameEnd()
SCORE = Score()
