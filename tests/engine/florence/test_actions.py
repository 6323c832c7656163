"""The actions of the Perform Actions phase, each checked against its rule."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction

from .helpers import new_game, pass_round, play, queue, seat_of, snapshot, vp_by

BLUE, ORANGE, PURPLE = 0, 1, 2


def texts(state: object) -> list[str]:
    return [a.text for a in state.legal_actions()]  # type: ignore[attr-defined]


# --- Pass ------------------------------------------------------------------------------
def test_first_to_pass_gains_2_time_and_places_a_ring_where_no_ring_is() -> None:
    """'The 1st player to pass each round gains 2 time.' 'You cannot place it on a Location
    where someone has placed their ring, but you may place it where there is a Destination
    Marker or Carriage.'"""
    state = new_game(3, placements=(9, 5, 4))
    play(state, "dispatch 2")
    assert "pass 1" in texts(state)  # Cosimo's carriage is on 1
    assert "pass 6" in texts(state)  # Cosimo's destination marker is on 6
    play(state, "pass 6")
    assert state.time[ORANGE] == 12  # 'Any extra you gain is lost' (at 12 already)
    assert state.rings[ORANGE] == 5
    assert "pass 6" not in texts(state)
    play(state, "dispatch 3")
    time = state.time[BLUE]
    play(state, "pass 2")
    assert state.time[BLUE] == time  # only the first passer gains time


def test_the_last_to_pass_places_no_ring_and_the_phase_ends_at_once() -> None:
    """'Take your ring and place it on 1 of the board Locations (unless you're the last to
    pass, in which case the round ends.)' 'The Action Phase ends as soon as Blue passes, so
    Orange and Purple don't get a bonus this time.'"""
    state = new_game(3, placements=(9, 5, 4))
    play(state, "pass 1", "pass 2")
    assert texts(state)[-1] != "pass" and "pass" in texts(state)
    assert not any(t.startswith("pass ") for t in texts(state))
    events = play(state, "pass")
    assert state.rings[PURPLE] == -1
    assert not [e for e in events if e.kind == "bonus"]
    assert state.phase != "actions"


def test_after_passing_only_bonuses_time_vp_or_a_swap() -> None:
    """'Once you have passed, you cannot perform more actions this round.' 'If it would become
    your turn again after you have Passed, pick 1 of the following bonuses: ... Gain 1 Time,
    Gain 1 VP'."""
    state = new_game(3, placements=(9, 5, 4))
    play(state, "pass 1", "dispatch 2", "dispatch 3")
    assert seat_of(state) == BLUE
    assert texts(state) == ["bonus time", "bonus vp"]
    with pytest.raises(IllegalAction, match="passed"):
        state.apply("dispatch 7")
    play(state, "bonus vp", "dispatch 6", "dispatch 7", "bonus time")
    assert state.vp[BLUE] == 1 and state.time[BLUE] == 12


def test_pass_bonus_swap_with_an_adjacent_family_member_respecting_seniority() -> None:
    """'Swap 1 Family Member you have on your ring's Location with an adjacent Family Member
    (respecting Seniority)'."""
    state = new_game(3, placements=(9, 5, 4))
    play(state, "promote 4 debutant1", "dispatch 4", "dispatch 4", "dispatch 1")
    play(state, "pass 2", "pass 4", "move 1 debutant1 2", "bonus time")
    assert queue(state, 4) == ["1:donna", "2:debutant", "3:debutant"]
    assert seat_of(state) == PURPLE
    # Purple's debutant may swap with Orange's (same rank), never with Blue's donna.
    assert "bonus swap debutant2 debutant3" in texts(state)
    assert not [t for t in texts(state) if "donna" in t]
    play(state, "bonus swap debutant2 debutant3")
    assert queue(state, 4) == ["1:donna", "3:debutant", "2:debutant"]


# --- Move and Rush --------------------------------------------------------------------------
def test_move_costs_1_and_goes_to_an_orthogonally_adjacent_location() -> None:
    """'Move (-1 time): Move 1 of your deployed Family Members from their current location,
    along a path with a Shield icon on it, to an orthogonally adjacent location.'"""
    state = new_game(3, placements=(9, 5, 4))
    moves = sorted(t for t in texts(state) if t.startswith("move "))
    assert moves == ["move 4 debutant1 1", "move 4 debutant1 5", "move 4 debutant1 7"]
    play(state, "move 4 debutant1 5")
    assert state.time[BLUE] == 11
    assert queue(state, 5) == ["2:debutant", "1:debutant"] and queue(state, 4) == []


def test_the_park_diagonal_is_for_nobles_only() -> None:
    """'all roads except the diagonal path through the park in the top left, which is only used
    by Nobles.'"""
    state = new_game(3, placements=(9, 5, 1))
    assert "move 1 debutant1 5" not in texts(state)
    with pytest.raises(IllegalAction, match="diagonal"):
        state.apply("move 1 debutant1 5")


def test_rush_moves_one_member_twice_through_a_full_location() -> None:
    """'Rush (-3 time): Move 1 Family Member twice, or 2 Family Members once ... When moving 1
    Family Member twice, you may pass through a location that has no empty spaces, provided
    you don't stop there.'"""
    state = new_game(2, placements=(5, 4))  # Orange on 5, Blue (1st) on 4
    play(state, "dispatch 5", "dispatch 5", "dispatch 5", "pass 1")
    assert len(state.queues[4]) == state.cap[4] == 4  # location 5 is full
    assert "move 4 debutant1 5" not in texts(state)
    play(state, "rush 4 debutant1 5")
    assert state.time[BLUE] == 12 - 8 - 3 and state.phase == "moving"
    # In transit through 5: it may not stop, and no other member may move now.
    assert sorted(texts(state)) == [f"step 5 debutant {x}" for x in (2, 4, 6, 8)]
    assert queue(state, 5) == ["2:debutant", "1:debutant", "2:debutant", "1:debutant"]
    play(state, "step 5 debutant 6")
    assert queue(state, 6) == ["1:debutant"] and state.phase == "actions"


def test_rush_moves_two_members_once_each() -> None:
    """'Move 1 Family Member twice, or 2 Family Members once'."""
    state = new_game(3, placements=(9, 5, 4))
    play(state, "dispatch 1", "pass 2", "pass 3", "rush 4 debutant1 7")
    second = [t for t in texts(state) if t.startswith("step 1 ")]
    assert sorted(second) == ["step 1 debutant1 2", "step 1 debutant1 4"]
    play(state, "step 1 debutant1 2")
    assert queue(state, 7) == ["1:debutant"] and queue(state, 2) == ["1:debutant"]
    assert state.phase == "actions" and state.time[BLUE] == 12 - 4 - 3


# --- Brag -------------------------------------------------------------------------------------
BRAG_TILES = {
    1: "influencers",
    2: "loudmouth",
    3: "scandalous",
    4: "life-of-the-party",
    5: "street-cred",
    6: "big-spender",
    7: "plus-one",
    8: "upwardly-mobile",
    9: "eyes-everywhere",
}


def brag_position() -> object:
    """Blue: a donna on 1 and a debutant on 2 (both Prime Position), 1 gift given.
    Orange: 2 debutants on 5, 1 on 2 and 1 on 8 (Prime Position on 5 and 8)."""
    state = new_game(2, tiles=BRAG_TILES, placements=(5, 1))
    play(
        state,
        "gift cosimo escort 1-2",
        "dispatch 8",
        "dispatch 2",
        "dispatch 2",
        "promote 1 debutant1",
        "dispatch 5",
    )
    return state


@pytest.mark.parametrize(
    ("loc", "rule", "blue", "orange"),
    [
        (1, "5 VP for each Donna / Maestro you have placed on the main board", 5, 0),
        (2, "3 VP for each Brag marker you've placed, including this one", 3, 3),
        (3, "3 VP for each Scandal Card in your hand, regardless of colour", 0, 0),
        (4, "3 VP for each Prime Position you occupy", 6, 6),
        (5, "3 VP for each Family Member you have in the same row as this Location", 0, 6),
        (6, "3 VP for each gift you've given (in total) to all Nobles", 3, 0),
        (7, "4 VP for each Location where you have 2 or more Family Members", 0, 4),
        (8, "3 VP for each Family Member you have in the same column as this Location", 3, 12),
        (9, "2 VP for each Location in which you have at least 1 Family Member", 4, 6),
    ],
)
def test_brag_tiles_score_their_condition(loc: int, rule: str, blue: int, orange: int) -> None:
    state = brag_position()
    assert state.brag_vp(BLUE, loc - 1) == blue, rule
    assert state.brag_vp(ORANGE, loc - 1) == orange, rule


def test_brag_needs_a_family_member_there_a_marker_and_none_of_yours_on_it() -> None:
    """'You have 1 or more Family Members on the same location as the Brag tile; You must have
    at least 1 Brag marker; You don't have a marker on it already'; 'Brag (-1 time)'."""
    state = brag_position()
    brags = sorted(t for t in texts(state) if t.startswith("brag "))
    assert brags == ["brag 1 0-6", "brag 2 0-6"]
    events = play(state, "brag 2 0-6")
    assert vp_by(events, "brag") == {BLUE: 3} and state.time[BLUE] == 0
    assert state.markers_left[BLUE] == 5
    play(state, "pass 3", "pass")
    assert state.round == 1


def test_a_brag_scoring_0_takes_the_bottom_space_and_a_full_range_forbids_it() -> None:
    """'You may perform a Brag even if you score 0 VPs - as long as the bottom space is
    available.' 'If there are no such spots, you may not choose to take this action.'"""
    state = new_game(2, tiles={5: "scandalous"}, placements=(5, 4))
    play(state, "move 4 debutant1 5")
    assert "brag 5 0-6" in texts(state)  # 0 VP: empty hand
    play(state, "brag 5 0-6")
    assert state.slots[4] == (ORANGE, -1, -1)
    assert not [t for t in texts(state) if t.startswith("brag 5")]
    with pytest.raises(IllegalAction, match="no such spots"):
        state.apply("brag 5 0-6")


# --- Dispatch and Promote ----------------------------------------------------------------------
def test_dispatch_costs_4_and_needs_a_debutant_on_the_player_board() -> None:
    """'Dispatch (-4 time): Move a Debutant piece from your player board onto any Location with a
    vacant queue space ... The Debutant always goes to the back of the line ... If all your
    Debutants are on the main board, you may not perform this action.'"""
    state = new_game(2, placements=(9, 1))
    assert sum(t.startswith("dispatch ") for t in texts(state)) == 9
    play(state, "dispatch 9")
    assert state.time[BLUE] == 8 and queue(state, 9) == ["2:debutant", "1:debutant"]
    play(state, "pass 8", "dispatch 2", "bonus time", "dispatch 3", "bonus time", "pass")
    assert state.supply[1] == 1
    pass_round(state)
    play(state, "token time 5", "token location 3")
    assert state.round == 2 and seat_of(state) == ORANGE
    play(state, "pass 8", "dispatch 4")
    assert state.supply[1] == 0
    play(state, "bonus time")
    assert not [t for t in texts(state) if t.startswith("dispatch")]
    with pytest.raises(IllegalAction, match="All your Debutants are on the main board"):
        state.apply("dispatch 5")


def test_promote_costs_5_debutant_to_donna_donna_to_maestro_never_skipping() -> None:
    """'Promote (-5 time): Replace a deployed Debutant with a Donna, or a deployed Donna with a
    Maestro. You may not directly replace a Debutant with the Maestro.'"""
    state = new_game(2, placements=(9, 1))
    assert [t for t in texts(state) if t.startswith("promote")] == ["promote 1 debutant1"]
    play(state, "promote 1 debutant1")
    assert state.time[BLUE] == 7 and queue(state, 1) == ["1:donna"]
    play(state, "pass 2", "promote 1 donna1")
    assert queue(state, 1) == ["1:maestro"]
    assert state.supply[1:4] == [5, 3, 0]  # the debutant and the donna went back to the board


# --- Give a Gift -----------------------------------------------------------------------------
def test_gift_costs_2_plus_gifts_already_given_to_that_noble() -> None:
    """'The first Gift you give to each Noble costs 2 time. Subsequent gifts cost +1 time per
    gift you've already given that Noble. For example, giving your 3rd gift to a Noble will
    cost 4 time.'"""
    state = new_game(2, carriages=(1, 2, 3), destinations=(6, 4, 5), placements=(9, 1))
    play(state, "gift cosimo escort 1-2", "pass 8", "gift cosimo escort 2-3", "bonus time")
    play(state, "gift cosimo escort 4-5")
    assert state.time[BLUE] == 12 - 2 - 3 - 4
    assert state.given[0] == (3, 0, 0) and state.gifts_left[BLUE] == 0
    # 'If you've already placed all your gifts, you can't perform this action.'
    play(state, "bonus time")
    assert not [t for t in texts(state) if t.startswith("gift")]


def test_gift_needs_a_family_member_at_the_carriage_of_any_noble() -> None:
    """'You must have a Family Member at the location of the Carriage of the Noble you are
    giving the Gift to. You aren't restricted to the active Noble'."""
    state = new_game(2, carriages=(1, 4, 7), destinations=(6, 5, 2), placements=(9, 4))
    gifts = {t.split()[1] for t in texts(state) if t.startswith("gift")}
    assert gifts == {"contessina"}
    with pytest.raises(IllegalAction, match="carriage"):
        state.apply("gift cosimo escort 4-5")


def test_each_noble_places_a_guard_on_one_unoccupied_shield_of_its_colour() -> None:
    """'Place 1 Guard piece of your colour onto 1 unoccupied Shield space of the Noble's colour'
    - Cosimo's shields mark the paths (Escorts), Contessina's the Brag tiles (Spies),
    Giovanni's are next to each queue (Bouncers)."""
    state = new_game(2, carriages=(1, 2, 3), destinations=(6, 4, 5), placements=(9, 1))
    play(state, "dispatch 2", "pass 8", "dispatch 3", "bonus time")
    gifts = [t for t in texts(state) if t.startswith("gift")]
    assert len(gifts) == 12 + 9 + 9
    assert "gift contessina spy 5" in gifts and "gift giovanni bouncer 9" in gifts
    play(state, "gift contessina spy 5", "bonus time")
    assert "gift contessina spy 5" not in texts(state)
    assert state.spies[4] == (BLUE,) and state.guards_left == [5, 6]


# --- Escorts ------------------------------------------------------------------------------------
def test_escorts_give_time_to_their_owner_or_2_vp_when_another_player_moves() -> None:
    """'If you move a Family Member along a path occupied by an Escort of your colour, gain 1
    time. If another player does the same you gain 2 VP (they do not gain any time.)'"""
    state = new_game(2, placements=(4, 1))
    play(state, "gift cosimo escort 4-5")
    assert state.escorts[state.tables.road_index[(3, 4)]] == (BLUE,)
    events = play(state, "move 4 debutant1 5")
    assert [(e["owner"], e["vp"]) for e in events if e.kind == "escort"] == [(BLUE, 2)]
    assert state.vp == [2, 0] and state.time[ORANGE] == 11
    play(state, "dispatch 4", "move 5 debutant1 4")
    events = play(state, "move 4 debutant1 5")
    assert [e["time"] for e in events if e.kind == "escort"] == [1]
    assert state.time[BLUE] == 12 - 2 - 4 - 1 + 1


def test_escort_time_cannot_pay_for_the_move_itself() -> None:
    """'You must have the time to spend on the movement before you do it (i.e. you cannot use
    the time gained from moving to pay for the movement if you have 0 time.)'"""
    state = new_game(2, placements=(9, 1))
    play(state, "gift cosimo escort 1-2", "pass 8", "dispatch 2", "bonus time", "dispatch 3")
    assert state.time[BLUE] == 2
    play(state, "bonus time", "move 1 debutant1 2", "bonus time", "move 2 debutant1 1")
    assert state.time[BLUE] == 2  # each move: -1, then +1 from the own escort
    play(state, "bonus time", "brag 1 0-6", "bonus time", "brag 2 0-6", "bonus time")
    assert state.time[BLUE] == 0
    assert not [t for t in texts(state) if t.startswith("move")]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="cannot pay time you do not have"):
        state.apply("move 1 debutant1 2")
    assert snapshot(state) == before
