"""Strada Romana's Score in words: each step as a sentence, the coins as news, and the
tie-break that decided the winner.

Points come three ways (Total Score): a Victory Point each time 5 coins are changed
(`victory_point`), the wagon tiles revealed at the end (`wagon_tile_scored`, +3 arrived
or -1 not) and the contracts at the end (`contracts_scored`); `steps` turns each event
into a `ScoreStep`, so `engine.core.breakdown` adds up to `scores()`. Before the end the
contracts a seat holds already count in `scores()`: `standing` says them as steps of a
game not over. Money is public (the coins lie on the table; only the wagon tiles are
"always kept face down"), so `news` says every coin paid. No sentence here names a wagon
tile's wagon before `wagon_tile_scored`, which the Score emits after the reveal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core import Event, ScoreStep, SeatNamer, capital, counted, joined

if TYPE_CHECKING:
    from .rules import StradaRomanaState

VICTORY_POINTS = "Victory Points"
WAGON_TILES = "wagon tiles"
CONTRACTS = "contracts"
"""The score sheet's headings (Total Score 1-3), the kinds of the steps."""

ENDED = {
    "arrivals": "the fourth wagon has reached its destination",
    "victory points": "all the Victory Points are assigned",
}


def steps(state: StradaRomanaState, events: Sequence[Event], names: SeatNamer) -> list[ScoreStep]:
    return [step for e in events if (step := _step(state, e, names)) is not None]


def _step(state: StradaRomanaState, e: Event, names: SeatNamer) -> ScoreStep | None:
    d = e.data
    kind = e.kind
    if kind == "victory_point":
        p = d["player"]
        why = "the coin of a pass" if d["for"] == "pass" else f"the coins of a {d['for']} ware tile"
        return ScoreStep(
            p,
            1,
            VICTORY_POINTS,
            f"{capital(names(p))} changes {state.board.coins_per_vp} coins into a Victory "
            f"Point ({why}): 1 point, now {counted(d['vp'], 'Victory Point')}.",
        )
    if kind == "wagon_tile_scored":
        p, wagon, points = d["player"], d["wagon"].capitalize(), d["points"]
        where = "arrived" if d["arrived"] else "has not arrived"
        return ScoreStep(
            p,
            points,
            WAGON_TILES,
            f"{capital(names(p))}'s wagon tile {wagon}: {wagon} {where}, {points:+d}.",
        )
    if kind == "contracts_scored":
        p = d["player"]
        return ScoreStep(
            p, d["points"], CONTRACTS, f"{capital(names(p))}'s {contracts_text(state, d)}."
        )
    return None


def contracts_text(state: StradaRomanaState, d: dict) -> str:
    """'contracts: 3 colours x 2 most of one colour = 6; 1 loose cube or ware tile: -1;
    5 in all' (Contracts: 'the number of colours in which he holds contracts multiplied by
    the greatest number of contracts held of a single colour ... he loses 1 Point for each
    cube or "ware" tile owned that does not form part of a contract')."""
    held = d["contracts"]
    colours, most = len(held), max(held.values(), default=0)
    parts = [
        f"contracts: {counted(colours, 'colour')} x {most} most of one colour = {colours * most}"
        if held
        else "contracts: none"
    ]
    loose = d["loose"]
    if loose:
        each = state.board.points_loose
        items = counted(loose, "loose cube or ware tile", "loose cubes or ware tiles")
        parts.append(f"{items}: {loose * each:+d}")
    if len(parts) > 1 and held:
        parts.append(f"{d['points']} in all")
    return "; ".join(parts)


def standing(state: StradaRomanaState, names: SeatNamer) -> list[ScoreStep]:
    """The contracts each seat holds in a game not over, which `scores()` counts already
    (wagon tiles count only once revealed)."""
    from .scoring import SCORE  # the Score builds on these words' events

    return [
        step
        for s in range(state.players)
        if (step := _step(state, SCORE.contracts_scored(state, s), names)) is not None
    ]


# --- news: what is not points --------------------------------------------------------------
def news(state: StradaRomanaState, events: Sequence[Event], names: SeatNamer) -> list[str]:
    """Every sentence about `events` in their order: the coins paid and spent (money is
    public), the end and its reason, and the scoring steps."""
    out: list[str] = []
    for e in events:
        said = _news(state, e, names)
        if said:
            out.append(said)
        step = _step(state, e, names)
        if step is not None:
            out.append(step.sentence)
    return out


def _news(state: StradaRomanaState, e: Event, names: SeatNamer) -> str | None:
    d = e.data
    kind = e.kind
    who = capital(names(d["player"])) if "player" in d else ""
    if kind == "passed":
        return f"{who} passes and takes {counted(state.board.pass_coins, 'coin')}."
    if kind == "ware_taken":
        colour, coins = d["colour"], d["coins"]
        if not coins:
            return f"{who}'s {colour} ware tile pays no coins: no {colour} cube is on the board."
        cubes = counted(coins, f"{colour} cube")
        paid = counted(coins, "coin")
        return f"{who} takes {paid} for the {colour} ware tile: {cubes} on the board."
    if kind == "coins_short":
        missing = d["missing"]
        return (
            f"Of these, {counted(missing, 'coin')} {'is' if missing == 1 else 'are'} not paid: "
            f"all {state.board.coins_total} coins are in the players' hands."
        )
    if kind == "special_bought":
        return f"{who} pays {counted(d['cost'], 'coin')} for the {d['move']} move."
    if kind == "wagon_tile_taken":
        return f"{who} takes a wagon tile, face down: {counted(d['held'], 'tile')} held."
    if kind == "first_player":
        n = len(d["coins"])
        order = [(d["player"] + k) % n for k in range(n)]
        dealt = ", ".join(f"{names(s)} {d['coins'][s]}" for s in order)
        return f"{who} starts. Starting coins, clockwise: {dealt}."
    if kind == "game_ended":
        return f"The game ends: {ENDED.get(d['reason'], d['reason'])}."
    return None


# --- the tie-break ----------------------------------------------------------------------
def tiebreak(state: StradaRomanaState, names: SeatNamer) -> str | None:
    """'If two or more players tie, the winner is the player with more coins. If there is
    still a tie, the player that played last loses.' Played last by the order of play:
    of the tied players, the one whose latest turn came later loses, until one is left
    (ruling 23)."""
    scores = state.scores()
    best = max(scores)
    tied = [s for s in range(state.players) if scores[s] == best]
    if len(tied) < 2:
        return None
    coins = state.coins
    points = counted(best, "point")
    most = max(coins[s] for s in tied)
    rich = [s for s in tied if coins[s] == most]
    if len(rich) == 1:
        won = rich[0]
        second = max(coins[s] for s in tied if s != won)
        return (
            f"{capital(_all(tied, names))} have {points} each; {names(won)} wins the tie with "
            f"more coins ({most} against {second})."
        )
    held = counted(most, "coin")
    if len(rich) == len(tied):
        level = f"{capital(_all(tied, names))} have {points} and {held} each"
    else:
        level = (
            f"{capital(_all(tied, names))} have {points} each, and {_all(rich, names)} the "
            f"most coins ({held} each)"
        )
    order = sorted(rich, key=lambda s: state.last[s])  # earliest latest turn first
    won = order[0]
    if len(order) == 2:
        return f"{level}; {names(order[1])} played last and loses the tie: {names(won)} wins."
    return (
        f"{level}; the player that played last loses, until one is left: {names(won)}'s "
        f"latest turn came earliest, so {names(won)} wins."
    )


def _all(seats: list[int], names: SeatNamer) -> str:
    return joined([names(s) for s in seats])
