"""Noble Movement, Queue Scoring and Cleanup."""

from __future__ import annotations

from engine.core import CHANCE

from .helpers import holding, new_game, pass_round, play, seat_of, vp_by


def texts(state: object) -> list[str]:
    return [a.text for a in state.legal_actions()]  # type: ignore[attr-defined]


def test_only_the_active_noble_moves_scoring_every_location_it_enters() -> None:
    """'When a Noble enters a location, the player that has a Family Member on the Prime
    Position spot gets victory points ... They don't give VPs for the location they started
    at. No VPs are given at empty Locations.'"""
    state = new_game(2, carriages=(7, 1, 9), destinations=(2, 4, 6), placements=(7, 1))
    play(state, "dispatch 4", "dispatch 5")
    events = pass_round(state)
    assert [e["to"] for e in events if e.kind == "noble_moved"] == [4, 1, 5, 2]
    assert {e["noble"] for e in events if e.kind == "noble_moved"} == {"cosimo"}
    # 7 is where Cosimo started: no VP for seat 2's debutant there; 2 is empty.
    assert [(e["player"], e["location"]) for e in events if e.kind == "prime_position"] == [
        (0, 4),
        (0, 1),
        (1, 5),
    ]
    assert state.carriage == [1, 0, 8]  # Contessina and Giovanni stay where they are


def test_the_best_brag_needs_a_family_member_present_and_lower_markers_get_nothing() -> None:
    """'Whoever has performed the best Brag on the location the Noble has just entered ...
    draws 1 card from the Active Noble's Scandal deck, as long as they have a Family Member
    present there.' 'Players with a Brag marker beneath the highest gain nothing.'"""
    state = new_game(2, tiles={5: "street-cred"}, placements=(8, 5))
    play(state, "dispatch 4", "dispatch 5", "dispatch 6", "brag 5 0-6", "brag 5 7-12")
    assert state.slots[4] == (1, 0, -1)
    play(state, "pass 1", "move 5 debutant1 2", "bonus time")
    events = play(state, "pass")
    assert state.phase == "cleanup"
    assert not [e for e in events if e.kind.startswith("scandal")]
    assert state.hands == [(), ()]


def test_the_lowest_brag_marker_alone_earns_the_card() -> None:
    """'Even a player with a Brag marker on the lowest spot can get this reward if no other
    markers are present.'"""
    state = holding("carry")
    assert state.slots[4] == (0, -1, -1) and state.hands[0] == ("carry",)


def test_giovanni_claims_pass_down_the_ranking_one_award_each() -> None:
    """'If a player cannot (or chooses not to) pay the required time, the next ranked player has
    the opportunity to claim that reward ... Each player may only gain one award from
    Giovanni; ... you may not relinquish your prize to claim a lower one instead'."""
    state = new_game(3, carriages=(1, 7, 9), destinations=(6, 4, 3), placements=(3, 8, 6))
    play(state, "dispatch 3", "dispatch 3", "pass 1", "dispatch 3")
    assert state.ranking(2) == [0, 2, 1]
    pass_round(state)
    play(state, "token time 5", "token location 2")
    pass_round(state)
    play(state, "token time 6", "token location 5")
    assert state.round == 3 and seat_of(state) == 2
    while state.phase == "actions":  # seat 2 spends all its time; the others pass
        seat = seat_of(state)
        if seat == 1 and state.time[1] >= 4:
            play(state, f"dispatch {next(x for x in (9, 7, 4) if state._free(x - 1))}")
        elif state.passed[seat]:
            play(state, "bonus time")
        elif seat == 1 or state.npassed == 2:
            play(state, "pass" if state.npassed == 2 else "pass 4")
        else:
            play(state, f"pass {next(x for x in range(9) if x not in state.rings) + 1}")
    assert state.phase == "queue_scoring" and state.time[1] == 0
    assert seat_of(state) == 0 and texts(state) == ["claim", "decline"]
    events = play(state, "decline")  # the controller declines the 1st award...
    assert seat_of(state) == 2  # ...so the next ranked player may claim it
    events += play(state, "claim")
    claimed = [(e["player"], e["award"]) for e in events if e.kind == "giovanni_claimed"]
    declined = [(e["player"], e["reason"]) for e in events if e.kind == "giovanni_declined"]
    assert claimed == [(2, 1)]
    # Seat 1 cannot pay the 2nd award; seat 0 gave up its prize: nobody else is asked.
    assert declined == [(0, "choice"), (1, "time")]
    assert state.phase == "cleanup"


def test_cleanup_marker_rings_gifts_and_dial_tokens() -> None:
    """'The 1st player marker is handed to the next player in clockwise order'; 'All players
    retrieve their Pass Rings'; 'In rounds 3 & 6, the players gain the amount of Gifts ...
    2 Gifts in round 3, and 1 in round 6'; 'In rounds 1-6, the Noble Dial is rotated ...
    place new Time and Location tokens ... (or remove their Destination Marker from the board
    if it is round 7-9, as they won't move again.)'"""
    state = new_game(3, placements=(9, 5, 4))
    firsts, gifts, draws = [], [], []
    while state.phase == "actions":
        firsts.append(seat_of(state))
        gifts.append(state.gifts_left[0])
        rnd = state.round
        pass_round(state)
        while state.phase == "queue_scoring":
            play(state, "decline")
        kinds = []
        while state.phase == "cleanup":
            assert state.current_player() == CHANCE
            kinds.append(texts(state)[0].split()[1])
            play(state, texts(state)[0])
        if rnd < 9:
            assert state.rings == [-1, -1, -1] and not any(state.passed)
            draws.append(kinds)
    assert state.phase in ("final_discards", "schemes")
    assert firsts == [0, 1, 2, 0, 1, 2, 0, 1, 2]
    assert gifts == [3, 3, 3, 5, 5, 5, 6, 6, 6]
    # A draw with one possible outcome is not asked: round 6's location token is the last of
    # the six on top of the pile, round 9's tokens are the last ones.
    both = ["time", "location"]
    assert draws == [both, both, ["time"], both, both, [], [], []]
    assert state.dial_time[1:] and 0 not in state.dial_time
    assert sorted(state.dial_loc) == list(range(9))
    assert [state.destination(n) for n in range(3)] == [-1, -1, -1]


def test_destination_markers_follow_the_dial() -> None:
    """'Move the Destination marker of the Noble that activated this round to the Location on
    the newly placed Location token'."""
    state = new_game(2, destinations=(6, 4, 2), placements=(9, 5))
    assert [state.destination(n) + 1 for n in range(3)] == [6, 4, 2]
    pass_round(state)
    play(state, "token time 5", "token location 3")
    assert [state.destination(n) + 1 for n in range(3)] == [3, 4, 2]
    assert state.carriage[0] == 5  # 'The Carriage should be left in place'


def test_contessina_ignores_debutants_and_cosimo_counts_every_position() -> None:
    """'she will not award VPs to Debutants. VP that would be awarded to a Debutant is simply
    ignored. It is not distributed to other Family Members in the queue.'"""
    state = new_game(2, destinations=(6, 5, 2), placements=(8, 5))
    play(state, "pass 1", "dispatch 5", "bonus time", "promote 5 debutant2")
    pass_round(state)
    play(state, "token time 5", "token location 3")
    events = pass_round(state)
    scored = [(e["player"], e["position"], e["vp"]) for e in events if e.kind == "queue_scored"]
    assert scored == [(1, 1, 13)]  # seat 1's debutant in 2nd place earns nothing
    assert vp_by(events, "queue_scored") == {1: 13}


def test_a_scandal_discarded_for_time_can_pay_for_giovannis_award() -> None:
    """'At any time, without using an action, you may discard 1 Scandal to gain 1 time' -
    also when Giovanni asks for time."""
    state = holding("carry", players=2)  # round 2; seat 1 holds a card and starts on 5
    play(state, "dispatch 3", "pass 9", "dispatch 3", "bonus time", "dispatch 3", "bonus time")
    play(state, "pass")  # Contessina passes 5 too: a second card
    while state.phase != "actions" or state.round != 3:
        play(state, texts(state)[0])
    assert state.round == 3 and seat_of(state) == 1 and len(state.hands[0]) == 2
    play(state, "pass 1", "dispatch 4", "bonus vp", "move 5 debutant1 2", "bonus vp", "pass")
    while state.phase == "noble_movement":
        play(state, texts(state)[0])
    assert state.phase == "queue_scoring" and seat_of(state) == 0 and state.controller(2) == 0
    assert state.time[0] == 3
    assert "claim" not in texts(state) and "discard carry" in texts(state)
    play(state, "discard carry")
    assert state.time[0] == 4 and seat_of(state) == 0
    events = play(state, "claim")
    assert [e["vp"] for e in events if e.kind == "giovanni_claimed"] == [20]
    assert state.time[0] == 0
