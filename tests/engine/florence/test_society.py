"""Rules of Society: priority, seniority, control, promotion and Bouncers."""

from __future__ import annotations

from .helpers import new_game, play, queue

BLUE, ORANGE, PURPLE = 0, 1, 2


def three() -> object:
    """Blue (1st), Orange, Purple; free debutants: Purple on 9, Orange on 1, Blue on 5."""
    return new_game(3, placements=(9, 1, 5))


def test_priority_latecomers_join_the_end_and_the_queue_closes_gaps() -> None:
    """'The 1st Family Member on a location is placed on Prime Position. Latecomers join the end
    of the queue. When someone leaves, anyone who was behind them move up to fill the space'."""
    state = three()
    play(state, "dispatch 3", "dispatch 5", "dispatch 5")
    assert queue(state, 5) == ["1:debutant", "2:debutant", "3:debutant"]
    play(state, "move 5 debutant1 4")  # "When Blue leaves, Orange and Purple move up"
    assert queue(state, 5) == ["2:debutant", "3:debutant"]


def test_seniority_a_maestro_joins_behind_an_earlier_maestro_ahead_of_inferiors() -> None:
    """'A Blue maestro arrives, and joins the queue behind Orange's maestro but in front of all
    other inferior family members.'"""
    state = new_game(3, placements=(9, 5, 4))
    play(
        state,
        "promote 4 debutant1",
        "promote 5 debutant1",
        "dispatch 5",
        "promote 4 donna1",
        "promote 5 donna1",
        "dispatch 5",
    )
    assert queue(state, 5) == ["2:maestro", "3:debutant", "3:debutant"]
    play(state, "move 4 maestro1 5")
    assert queue(state, 5) == ["2:maestro", "1:maestro", "3:debutant", "3:debutant"]


def test_control_most_family_members_ties_to_the_better_placed_piece() -> None:
    """'A player with the most Family Members on a location controls it. Ties are broken in
    favor of the player with the highest Priority in the queue.'"""
    state = three()
    play(state, "pass 2", "dispatch 5")
    assert queue(state, 5) == ["1:debutant", "2:debutant"]
    assert state.controller(4) == BLUE  # tied: Blue is ahead
    play(state, "dispatch 5", "bonus vp", "dispatch 5")
    assert queue(state, 5) == ["1:debutant", "2:debutant", "3:debutant", "2:debutant"]
    assert state.controller(4) == ORANGE  # "Blue has more pieces here, so controls" - Orange now
    assert state.ranking(4) == [ORANGE, BLUE, PURPLE]


def test_promotion_adjusts_the_position_immediately() -> None:
    """'When Family Members are Promoted, adjust their position immediately. Orange promotes a
    Debutant to a Donna, and moves it to the front of the queue. Blue has lost control.'"""
    state = three()
    play(state, "pass 2", "dispatch 5")
    assert state.controller(4) == BLUE
    play(state, "pass 3", "bonus time", "promote 5 debutant2")
    assert queue(state, 5) == ["2:donna", "1:debutant"]
    assert state.controller(4) == ORANGE
    # The debutant goes back to the player board; the donna came from it.
    assert state.supply[ORANGE * 4 + 1 : ORANGE * 4 + 3] == [4, 2]


def test_a_promoted_piece_queues_behind_equal_ranks_who_were_there_first() -> None:
    """'the piece joins the queue behind equal or higher ranking pieces who arrived earlier'
    (ruling: promotion re-sorts the piece like an arrival)."""
    state = three()
    play(state, "promote 5 debutant1", "dispatch 5", "dispatch 5")
    assert queue(state, 5) == ["1:donna", "2:debutant", "3:debutant"]
    play(state, "pass 1", "pass 2", "promote 5 debutant3")
    assert queue(state, 5) == ["1:donna", "3:donna", "2:debutant"]


def test_bouncers_advance_an_arriving_piece_as_far_as_seniority_allows() -> None:
    """'When a Family Member enters a Location with a Bouncer of the same colour, it advances as
    far ahead in the queue as possible, while respecting Seniority. The effect occurs whether
    Moving, Promoting or Dispatching.'"""
    state = new_game(3, placements=(5, 4, 9))  # Purple 5, Orange 4, Blue 9 (Giovanni's carriage)
    play(state, "gift giovanni bouncer 5", "promote 4 debutant1", "dispatch 5")
    assert state.bouncers[4] == (BLUE,)
    assert queue(state, 5) == ["3:debutant", "3:debutant"]
    play(state, "dispatch 5")  # Dispatching: ahead of both debutants
    assert queue(state, 5) == ["1:debutant", "3:debutant", "3:debutant"]
    play(state, "move 4 donna1 5", "dispatch 5")
    assert queue(state, 5) == ["2:donna", "1:debutant", "3:debutant", "3:debutant", "3:debutant"]
    play(state, "move 9 debutant1 8", "pass 2", "pass 3")
    play(state, "promote 5 debutant2")  # Promoting: ahead of Orange's donna
    assert queue(state, 5) == ["1:donna", "2:donna", "3:debutant", "3:debutant", "3:debutant"]
