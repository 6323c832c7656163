"""The rulebook's worked examples, replayed action by action.

Reconstruction of steps the text leaves out: ../shared/research/rulebook-examples.md.
"""

from __future__ import annotations

from engine.core import CHANCE

from .helpers import new_game, pass_round, play, queue, seat_of, vp_by

BLUE, ORANGE, PURPLE = 0, 1, 2


def test_three_player_gameplay_example_ends_blue_2_orange_14_purple_19() -> None:
    """'At the end of the first round, Blue has 2 VP ..., Orange has 14, and Purple has 19!'"""
    state = new_game(
        3,
        tiles={5: "street-cred"},
        carriages=(1, 7, 9),
        destinations=(6, 4, 8),
        first=1,
    )
    # "Before round 1, players deploy 1 Debutant each, without cost, in reverse player
    # order: Purple, Orange, then Blue."
    assert seat_of(state) == PURPLE
    play(state, "place 6")  # "As Cosimo is headed to location 6 this round"
    assert seat_of(state) == ORANGE
    play(state, "place 5")
    assert seat_of(state) == BLUE
    play(state, "place 1")  # "next to Cosimo's carriage"
    assert state.round == 1 and state.time == [12, 12, 12]

    play(
        state,
        "gift cosimo escort 4-5",  # Blue pays 2 time, an Escort between 4 & 5
        "dispatch 6",  # Orange pays 4 time to deploy a Debutant on 6
        "dispatch 6",  # Purple: "joins the back of the queue"
    )
    assert queue(state, 6) == ["3:debutant", "2:debutant", "3:debutant"]
    # "After those actions, Blue has 10 time, Orange and Purple both have 8."
    assert state.time == [10, 8, 8]

    play(
        state,
        "gift cosimo escort 5-6",  # Blue's 2nd gift to Cosimo: "now 3 Time (2 + 1)"
        "dispatch 5",  # Orange's third family member in row 4-6
        "promote 6 debutant3",  # Purple's donna goes to the front of queue 6
    )
    assert queue(state, 6) == ["3:donna", "3:debutant", "2:debutant"]
    assert state.time == [7, 4, 3]

    events = play(state, "move 1 debutant1 2", "brag 5 7-12")
    # "The Street Cred brag on 5 gives 3 VP for each Family Member Orange has in that
    # row of Locations - in this case, 3 for 9 VP ... Orange places theirs in the centre slot"
    assert vp_by(events, "brag") == {ORANGE: 9}
    assert state.slots[4][1] == ORANGE
    play(state, "pass 6")  # Purple passes
    # "Now, Blue has 6 Time, Orange has 3, and Purple has 3" - plus the rule's 2 time for
    # "The 1st player to pass each round", which the text leaves out.
    assert state.time == [6, 3, 5]

    play(state, "dispatch 3", "pass 5", "bonus time")  # Purple "decide to gain 1 Time"
    assert state.time == [2, 3, 6]  # the text: "Blue has 2 Time, Orange 3, Purple 4"
    assert state.vp == [0, 9, 0]

    # "The Action Phase ends as soon as Blue passes, so Orange and Purple don't get a bonus"
    events = play(state, "pass")
    assert state.phase == "noble_movement" and state.current_player() == CHANCE
    # Cosimo entered 5: Orange's Prime Position and best brag; the scandal card is drawn.
    assert [e["to"] for e in events if e.kind == "noble_moved"] == [5]
    assert vp_by(events, "prime_position") == {ORANGE: 1}
    assert state.pending == [ORANGE]
    events = play(state, "draw cosimo journey")
    assert state.hands[ORANGE] == ("journey",)
    assert [e["to"] for e in events if e.kind == "noble_moved"] == [2, 3, 6]
    assert vp_by(events, "prime_position") == {BLUE: 2, PURPLE: 1}
    # "Purple has a Donna in Prime Position, and a Debutant in 2nd Position, worth 11 and 7
    # respectively. Purple gets 18 VP. Orange has a Debutant in the 3rd spot, so they get 4 VP."
    assert vp_by(events, "queue_scored") == {PURPLE: 18, ORANGE: 4}
    assert state.vp == [2, 14, 19]
    assert state.phase == "cleanup"


def test_cosimo_queue_scoring_example_orange_15_blue_9() -> None:
    """'Round 1. Cosimo scores Location 2. Orange occupies the 1st and 3rd spaces, while Blue
    occupies the 2nd and 4th. Orange scores 15 VP (11 + 4) and Blue scores 9 VP (7 + 2).'"""
    orange, blue = 0, 1
    # Blue has the 1st player marker, so Orange (the last player) places first.
    state = new_game(2, carriages=(5, 7, 9), destinations=(2, 4, 6), first=2, placements=(2, 3))
    assert queue(state, 2) == ["1:debutant"]
    play(state, "dispatch 2", "dispatch 2", "dispatch 2")
    assert queue(state, 2) == ["1:debutant", "2:debutant", "1:debutant", "2:debutant"]
    events = pass_round(state)
    assert vp_by(events, "queue_scored") == {orange: 15, blue: 9}


def test_contessina_queue_scoring_example_black_22() -> None:
    """'Round 2. Contessina scores Location 5. Black occupies the 1st and 2nd spaces with a
    Maestro and Donna. Orange has the 3rd space, but with a Debutant, so they do not score.
    Black scores 22 VP (13 + 9).'"""
    black, orange = 0, 1
    state = new_game(2, carriages=(1, 7, 9), destinations=(6, 5, 8), times=(9, 8))
    play(state, "place 3", "place 5")  # Orange (last) first, then Black
    play(state, "promote 5 debutant1", "dispatch 5", "dispatch 5")
    assert queue(state, 5) == ["1:donna", "2:debutant", "1:debutant"]
    pass_round(state)
    assert state.round == 1 and state.phase == "cleanup"
    play(state, "token time 7", "token location 2")
    assert state.round == 2 and state.time[black] == 12
    # Orange holds the 1st player marker in round 2.
    play(state, "pass 1", "promote 5 donna1", "bonus time", "promote 5 debutant3")
    assert queue(state, 5) == ["1:maestro", "1:donna", "2:debutant"]
    events = pass_round(state)
    assert vp_by(events, "queue_scored") == {black: 22}
    assert orange not in vp_by(events, "queue_scored")


def test_giovanni_queue_scoring_example_orange_20_blue_12() -> None:
    """'Round 3. Giovanni scores Location 3. Orange occupies the 1st and 2nd spaces, while Blue
    occupies the 3rd. As they have the most pieces present, Orange controls the Location.
    Orange spends 4 time to score 20 VP, and Blue spends 2 time to score 12 VP.'"""
    orange, blue = 0, 1
    state = new_game(2, carriages=(1, 7, 9), destinations=(6, 4, 3), placements=(8, 3))
    play(state, "dispatch 3", "dispatch 3")
    assert queue(state, 3) == ["1:debutant", "1:debutant", "2:debutant"]
    pass_round(state)
    play(state, "token time 5", "token location 2")
    pass_round(state)
    play(state, "token time 6", "token location 5")
    assert state.round == 3
    pass_round(state)
    assert state.phase == "queue_scoring" and seat_of(state) == orange
    assert state.controller(2) == orange
    time = list(state.time)
    events = play(state, "claim")
    assert seat_of(state) == blue
    events += play(state, "claim")
    claimed = {e["player"]: (e["vp"], e["time"]) for e in events if e.kind == "giovanni_claimed"}
    assert claimed == {orange: (20, 4), blue: (12, 2)}
    assert state.time[orange] == time[orange] - 4 and state.time[blue] == time[blue] - 2


def test_brag_example_eyes_everywhere_orange_10_then_blue_8_takes_0_6() -> None:
    """'Orange has 5 such locations, so they score 10 VPs, and put their marker on the '7-12'
    space. Blue also performs the Brag, and scores 8 VPs. As the '7-12' spot is already
    occupied, they place their Brag marker on the '0-6' spot instead.'"""
    blue, orange = 0, 1
    state = new_game(2, tiles={5: "eyes-everywhere"}, carriages=(1, 7, 9), destinations=(2, 4, 6))
    play(state, "place 5", "place 6")  # Orange (last) then Blue
    play(state, "dispatch 5", "dispatch 1", "dispatch 8", "dispatch 2", "dispatch 7", "dispatch 3")
    pass_round(state)
    play(state, "token time 5", "token location 8")
    assert state.round == 2
    assert seat_of(state) == orange  # the 1st player marker moved on
    # Orange: family members on 5, 1, 2, 3 and now 4; Blue keeps four: 6, 5, 7 and 9.
    events = play(state, "dispatch 4", "move 8 debutant1 9", "brag 5 7-12")
    assert vp_by(events, "brag") == {orange: 10}
    assert [e["spot"] for e in events if e.kind == "brag"] == ["7-12"]
    events = play(state, "brag 5 0-6")
    assert vp_by(events, "brag") == {blue: 8}
    assert state.slots[4] == (blue, orange, -1)
