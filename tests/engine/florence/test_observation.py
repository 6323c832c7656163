"""What the Florence table shows (`observe()`), and what only a seat knows (`observe(seat)`).

Setup: 'Deal 1 random Scheme card to each player ... You may look at your card, but they
are kept a secret from other players.' Scandal cards are drawn into hands and played from
them (docs/florence-rulings.md, ruling 6); how many a seat holds is seen at the table.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.core import CHANCE, derive, random_action
from engine.florence import (
    Board,
    FlorenceObservation,
    FlorenceSeatObservation,
    Location,
    Piece,
)

from .helpers import GAME, holding, new_game, pass_round, play
from .solo_helpers import STROZZI, solo_game


def test_the_public_table_has_no_field_for_a_scheme_or_a_card_in_hand() -> None:
    public = {f.name for f in dataclasses.fields(FlorenceObservation)}
    assert not {"hand", "hands", "scheme", "schemes"} & public
    seat = {f.name for f in dataclasses.fields(FlorenceSeatObservation)}
    assert seat - public == {"hand", "scheme"}
    assert "hand_size" in Board._fields and "hand" not in Board._fields


def test_hands_and_schemes_change_nothing_the_table_sees_and_each_seat_sees_its_own() -> None:
    state = holding("journey")
    table = state.observe()
    assert [b.hand_size for b in table.boards] == [len(h) for h in state.hands]
    other = [tuple(["deploy"] * len(hand)) for hand in state.hands]
    assert state.hands[0] == ("journey",) and other[0] == ("deploy",)
    state.hands = other
    state.schemes = [2, 0, 5]
    assert state.observe() == table  # the same sizes: nothing else of them is public
    seats = [state.observe(s) for s in range(3)]
    assert [o.hand for o in seats] == other
    assert [o.scheme for o in seats] == ["north-west", "corners", "south-east"]
    assert all(type(o) is FlorenceSeatObservation and o.seat == s for s, o in enumerate(seats))
    assert type(table) is FlorenceObservation and table.seat is None


def test_observations_are_frozen_all_the_way_down() -> None:
    obs = new_game(3, placements=(9, 8, 5)).observe()
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.phase = "over"  # type: ignore[misc]
    assert isinstance(obs.locations, tuple) and isinstance(obs.locations[4], Location)
    with pytest.raises(TypeError):
        obs.tables.cost["move"] = 0  # type: ignore[index]


def test_the_board_queues_guards_and_player_boards() -> None:
    """'they queue in order of seniority (Maestros, Donnas, then Debutants.)'"""
    state = new_game(3, tiles={5: "street-cred"}, carriages=(1, 7, 9), placements=(6, 5, 1))
    play(state, "gift cosimo escort 4-5", "dispatch 6", "dispatch 6", "promote 1 debutant1")
    obs = state.observe()
    assert obs.locations[0].queue == (Piece(0, 0, 2),)
    assert obs.locations[0].queue[0].kind == "donna"
    assert obs.locations[5].queue == (Piece(2, 2, 1), Piece(1, 1, 1), Piece(2, 2, 1))
    assert obs.locations[4].tile is not None and obs.locations[4].tile.name == "street-cred"
    assert obs.roads[obs.tables.road_names.index("4-5")].escorts == (0,)
    assert obs.boards[0].gifts_given == (1, 0, 0) and obs.boards[0].guards_left == 5
    assert obs.boards[0].pieces_left == ((5, 2, 1),)  # the debutant went back to the board
    assert obs.boards[0].time == 12 - 2 - 5
    assert [n.carriage for n in obs.nobles] == [0, 6, 8]
    assert obs.nobles[0].destination == 5 and obs.active_noble == 0
    assert obs.turn == 1 and obs.current == 1 and obs.first == 0
    assert obs.prompt == state.describe() and obs.round == 1


def test_the_draws_say_who_is_owed_a_card_never_which() -> None:
    state = new_game(2, tiles={5: "eyes-everywhere"}, destinations=(6, 2, 3), placements=(8, 5))
    play(state, "brag 5 0-6")
    while state.phase == "actions":
        legal = [a.text for a in state.legal_actions()]
        play(state, "pass" if "pass" in legal else next(t for t in legal if t.startswith("pass")))
    obs = state.observe()
    assert obs.phase == "noble_movement" and obs.current == CHANCE
    assert obs.pending == (0,) and obs.turn is None
    assert obs.nobles[0].deck_left == 12
    state.apply("draw cosimo journey")
    assert state.observe().boards[0].hand_size == 1


def test_strozzis_public_side() -> None:
    state = solo_game(confirm=True)
    obs = state.observe()
    assert obs.automa == STROZZI and obs.colours == (0, 1, 1)
    assert (
        obs.strozzi is not None
        and obs.strozzi.asks == ""
        and obs.strozzi.deck == tuple(range(1, 11))
    )
    assert obs.seat_colour(STROZZI) == 1
    assert new_game(2).observe().strozzi is None


def test_the_offer_and_the_end() -> None:
    state = holding("journey", players=2)
    while state.round < 3 or state.phase != "queue_scoring":
        if state.phase == "actions":
            pass_round(state)
        else:
            state.apply(state.legal_actions()[0])
        if state.is_over():
            break
    rng = derive(1, "end")
    while not state.is_over():
        if state.phase == "queue_scoring":
            offer = state.observe().giovanni
            assert offer is not None and offer.award >= 1
        state.apply(random_action(state, rng))
    obs = state.observe()
    assert obs.over and obs.winner == tuple(state.winner()) and obs.scores == tuple(state.vp)
    assert [tuple(f) for f in obs.final] == [tuple(f) for f in state.final]


def test_every_seat_observation_matches_the_public_one_over_random_games() -> None:
    for players in (1, 3, 5):
        state = GAME.new_state(players, seed=players)
        rng = derive(players, "observe")
        while not state.is_over():
            public = state.observe()
            for seat in range(state.seats):
                own = state.observe(seat)
                fields = {f.name for f in dataclasses.fields(FlorenceObservation)} - {"seat"}
                assert all(getattr(own, f) == getattr(public, f) for f in fields)
                assert len(own.hand) == public.boards[seat].hand_size
            state.apply(random_action(state, rng))
