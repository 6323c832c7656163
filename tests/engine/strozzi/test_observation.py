"""What the Strozzi table shows (`observe()`), and what only a seat knows (`observe(seat)`).

'Players may keep the amount of their money secret.' (Scoring the Ships) and 'Players
reveal their money, and the one with the greatest sum is the winner.' (End of the Game)
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.core import CHANCE
from engine.strozzi import (
    GAME,
    FlagOnShip,
    Payout,
    PortEntry,
    StrozziObservation,
    StrozziSeatObservation,
)

from .helpers import play, started, take


def test_the_public_table_has_no_field_for_money() -> None:
    public = {f.name for f in dataclasses.fields(StrozziObservation)}
    assert "money" not in public
    assert {f.name for f in dataclasses.fields(StrozziSeatObservation)} - public == {"money"}


def test_money_changes_nothing_the_table_sees_and_each_seat_sees_only_its_own() -> None:
    state = started(3)
    take(state, "8 gold0 grain0 cloth0 scrolls1 no-token", "pirate", "venice")
    table = state.observe()
    state.money = [500, 0, 1234]
    assert state.observe() == table
    assert table.scores is None  # no running totals while the game is on
    seats = [state.observe(s) for s in range(3)]
    assert [o.money for o in seats] == [500, 0, 1234]
    assert all(type(o) is StrozziSeatObservation and o.seat == s for s, o in enumerate(seats))
    assert type(table) is StrozziObservation and table.seat is None


def test_observations_are_frozen() -> None:
    obs = started(3).observe()
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.phase = "over"  # type: ignore[misc]


def test_the_common_part_says_whose_turn_it_is_and_what_the_game_waits_for() -> None:
    state = GAME.new_state(4, options={"first": 2})
    obs = state.observe()
    assert (obs.game, obs.players, obs.seats, obs.round) == ("strozzi", 4, 4, 1)
    assert obs.phase == "setup" and obs.setup and obs.current == CHANCE
    assert obs.prompt == state.describe() and not obs.over and obs.winner == ()
    play(state, "reveal arts-2", "reveal arts-2", "reveal sciences-1-rome")
    obs = state.observe()
    assert not obs.setup and obs.active == 2 and obs.pile == 33
    assert [t.name for t in obs.face_up] == ["arts-2", "arts-2", "sciences-1-rome"]
    assert obs.face_up[2].port == "rome" and obs.face_up[0].value == 2


def test_the_ship_in_play_its_flags_and_the_ports() -> None:
    state = started(3)
    play(state, "draw 4 gold2 grain0 cloth0 scrolls2 no-token", "flag plus")
    obs = state.observe()
    assert obs.phase == "pirates" and obs.ship is not None and obs.ship.scrolls == 2
    assert obs.flag_on_ship == FlagOnShip(0, "plus") and obs.current == 1
    play(state, "pass", "pass")
    obs = state.observe()
    assert obs.taker == 0 and obs.flag_on_ship == FlagOnShip(0, "plus")
    assert obs.flags[0] == ("pirate", "goods")
    play(state, "port rome")
    obs = state.observe()
    rome = obs.ports[1]
    face = "4 gold2 grain0 cloth0 scrolls2 no-token"
    speed = obs.rules.ships[face].sails + 1  # 'a ship numbered 4 with a +1 flag ... speed 5'
    assert rome.name == "rome" and rome.ships == (PortEntry(speed, 0, face, "plus"),)
    assert obs.ship is None and obs.taker is None and obs.flag_on_ship is None
    assert obs.ships_seen == (face,) and obs.deck_left == obs.rules.deck_size(3) - 1


def test_tracks_list_markers_highest_first_leftmost_first_on_a_shared_space() -> None:
    state = started(3)
    take(state, "3 gold0 grain2 cloth0 scrolls0 no-token", "pirate", "rome")  # seat 1: rome 2
    take(
        state, "2 gold0 grain2 cloth1 scrolls1 no-token", "pirate", "rome"
    )  # seat 2: rome 2, arrives later on the same space
    rome = state.observe().tracks[1]
    assert rome.city == "rome" and rome.positions[:2] == (2, 2)
    assert rome.order[:2] == (0, 1) and rome.on(2) == (0, 1)


def test_payouts_are_listed_and_the_money_is_revealed_at_the_end() -> None:
    state = started(3)
    while state.round == 1:
        state.apply(state.legal_actions()[0])
    obs = state.observe()
    assert obs.payouts and all(isinstance(p, Payout) and p.round == 1 for p in obs.payouts)
    assert obs.scores is None
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    obs = state.observe()
    assert obs.over and obs.scores == tuple(state.money) and obs.winner == tuple(state.winner())
    paid = [sum(p.points for p in obs.payouts if p.seat == s) for s in range(3)]
    assert paid == state.money
    assert {p.reason for p in obs.payouts} >= {"ship", "marker", "progress"}
