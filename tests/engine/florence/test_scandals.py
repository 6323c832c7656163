"""Scandal cards: the twelve abilities, discarding for time, hand limit, hidden hands."""

from __future__ import annotations

import pytest

from engine.core import CHANCE, IllegalAction
from engine.florence import FlorenceState

from .helpers import holding, new_game, play, queue, seat_of, snapshot

ME, LEFT, RIGHT = 0, 1, 2


def texts(state: object) -> list[str]:
    return [a.text for a in state.legal_actions()]  # type: ignore[attr-defined]


def scandals(state: object, card: str) -> list[str]:
    return [t for t in texts(state) if t.startswith(f"scandal {card} ")]


# --- Cosimo (Figlisto) ----------------------------------------------------------------------
def test_figlisto_guard_anywhere_any_type_even_on_another_players_guard() -> None:
    """'Figlisto, -2: Place a Guard anywhere on the board, even if another player's Guard is
    already there. You may place any of the 3 Guard types. The existing Guard's effect is
    unchanged.'"""
    state = holding("guard")
    assert len(scandals(state, "guard")) == 12 + 9 + 9
    play(state, "dispatch 2", "move 8 debutant1 9", "pass 1", "dispatch 1")
    play(state, "gift giovanni bouncer 5", "bonus time")
    assert "scandal guard bouncer 5" in texts(state)
    play(state, "scandal guard bouncer 5")
    assert state.bouncers[4] == (LEFT, ME)
    assert state.time[ME] == 12 - 4 - 4 - 2 and state.guards_left[ME] == 5
    assert state.hands[ME] == () and state.discard[0] == 1  # face up on Cosimo's pile


def test_figlisto_carry_moves_a_member_any_distance_ignoring_escorts() -> None:
    """'Figlisto, -2: Move 1 of your deployed Family Members to any Location (any number of
    spaces away.) Ignores Escorts.'"""
    state = holding("carry")
    assert sorted(scandals(state, "carry")) == [
        f"scandal carry 5 debutant1 {x}" for x in (1, 2, 3, 4, 6, 7, 8, 9)
    ]
    events = play(state, "scandal carry 5 debutant1 9")
    assert queue(state, 9) == ["1:debutant"] and state.time[ME] == 10
    assert not [e for e in events if e.kind == "escort"]


def test_figlisto_journey_moves_up_to_2_members_up_to_3_spaces_each() -> None:
    """'Figlisto, -3: Move 1-2 of your Family Members 1-3 spaces each.'"""
    state = holding("journey")
    play(state, "scandal journey 5 debutant1 4")
    assert state.phase == "moving" and state.time[ME] == 9
    assert "stop" in texts(state)
    play(state, "step 4 debutant1 1", "step 1 debutant1 2")
    assert texts(state) == ["stop"]  # 3 spaces moved, no other family member on the board
    play(state, "stop")
    assert queue(state, 2) == ["1:debutant"] and state.phase == "actions"
    assert seat_of(state) == LEFT


def test_figlisto_deploy_a_debutant_where_you_have_a_donna_or_maestro() -> None:
    """'Figlisto, -2: Deploy a Debutant at any Location where you already have a Donna or a
    Maestro.'"""
    state = holding("deploy")
    assert scandals(state, "deploy") == []
    play(state, "promote 5 debutant1", "pass 1", "pass 2")
    assert scandals(state, "deploy") == ["scandal deploy 5"]
    play(state, "scandal deploy 5")
    assert queue(state, 5) == ["1:donna", "1:debutant"] and state.time[ME] == 5


# --- Contessina (Carissima) ---------------------------------------------------------------
def test_carissima_gift_to_any_noble_regardless_of_location_at_the_normal_cost() -> None:
    """'Carissima, -2*: Gift a Gift to any Noble, regardless of Location. Pay the normal cost
    (2 + 1 per Gift you've given the Noble.)'"""
    state = holding("gift")
    assert not [t for t in texts(state) if t.startswith("gift ")]  # no one at a carriage
    assert "scandal gift cosimo escort 1-2" in texts(state)
    play(state, "scandal gift cosimo escort 1-2")
    assert state.given[0] == (1, 0, 0) and state.time[ME] == 10
    assert state.gifts_left[ME] == 2


def test_carissima_usurp_swaps_with_a_lower_ranked_piece_next_door() -> None:
    """'Carissima, -3: Swap 1 of your Family Members with a lower-ranked piece at an
    orthogonally-adjacent Location. The replaced piece joins the queue as if they moved there.'"""
    state = holding("usurp")
    assert scandals(state, "usurp") == []  # a debutant outranks no one
    play(state, "promote 5 debutant1", "pass 1", "pass 2")
    assert scandals(state, "usurp") == ["scandal usurp 5 donna1 8 debutant1"]
    play(state, "scandal usurp 5 donna1 8 debutant1")
    assert queue(state, 8) == ["1:donna"] and queue(state, 5) == ["2:debutant"]
    assert state.time[ME] == 12 - 5 - 3


def test_carissima_promote_a_debutant_to_a_donna_for_3() -> None:
    """'Carissima, -3: Promote a Debutant to a Donna.'"""
    state = holding("promote")
    play(state, "scandal promote 5 debutant1")
    assert queue(state, 5) == ["1:donna"] and state.time[ME] == 9


def test_carissima_advance_as_far_ahead_as_seniority_allows() -> None:
    """'Carissima, -2: Move 1 of your Family Members as far ahead in their queue as they can
    while respecting Seniority.'"""
    state = holding("advance")
    play(state, "dispatch 8", "pass 1", "pass 2")
    assert queue(state, 8) == ["2:debutant", "1:debutant"]
    assert scandals(state, "advance") == ["scandal advance 8 debutant2"]
    play(state, "scandal advance 8 debutant2")
    assert queue(state, 8) == ["1:debutant", "2:debutant"]


def test_an_advance_or_reorder_that_changes_nothing_is_refused_with_its_reason() -> None:
    """Rulings 24 and 25: a Carissima advance that would pass no other player's piece, or a
    Messere reorder of two identical pieces, is refused, and the refusal says why."""
    state = holding("advance")
    play(state, "dispatch 5", "pass 1", "pass 2")
    assert queue(state, 5) == ["1:debutant", "1:debutant"] and seat_of(state) == 0
    assert scandals(state, "advance") == []  # each would pass only its own twin
    with pytest.raises(IllegalAction, match="cannot get further ahead"):
        state.apply("scandal advance 5 debutant2")
    state = holding("reorder")
    play(state, "dispatch 5", "pass 1", "pass 2")
    with pytest.raises(IllegalAction, match="identical pieces would change nothing"):
        state.apply("scandal reorder 5 debutant1 debutant2")


# --- Giovanni (Messere) -------------------------------------------------------------------
def test_messere_recall_a_brag_marker_keeping_its_vp() -> None:
    """'Messere, -2: Remove 1 of your Brag tokens from the board, and put it back in your
    area. You do not lose the VP you gained when you completed the Brag.'"""
    state = holding("recall")
    vp = state.vp[ME]
    assert state.slots[4] == (ME, -1, -1)
    play(state, "scandal recall 5")
    assert state.slots[4] == (-1, -1, -1) and state.markers_left[ME] == 6
    assert state.vp[ME] == vp and state.time[ME] == 10


def test_messere_reorder_swaps_two_members_of_equal_rank() -> None:
    """'Messere, -2: Swap any 2 Family Members in a queue, respecting Seniority rules.'"""
    state = holding("reorder")
    play(state, "dispatch 8", "pass 1", "dispatch 8")
    assert queue(state, 8) == ["2:debutant", "1:debutant", "3:debutant"]
    assert sorted(scandals(state, "reorder")) == [
        "scandal reorder 8 debutant1 debutant2",
        "scandal reorder 8 debutant1 debutant3",
        "scandal reorder 8 debutant2 debutant3",
    ]
    play(state, "scandal reorder 8 debutant1 debutant3")
    assert queue(state, 8) == ["3:debutant", "1:debutant", "2:debutant"]


def test_messere_exile_gains_3_time_and_the_member_never_returns() -> None:
    """'Messere, +3: Permanently remove 1 of your Family Members from the board. Note that this
    card gains you 3 time, instead of costing time. You may not redeploy the Family Member'."""
    state = holding("exile")
    play(state, "dispatch 4", "pass 1", "pass 2")
    assert state.time[ME] == 8
    play(state, "scandal exile 4 debutant1")
    assert state.time[ME] == 11 and queue(state, 4) == []
    assert state.supply[1] == 3 and state.exiled[1] == 1


def test_messere_brag_anywhere_without_a_family_member_there() -> None:
    """'Messere, -1: Perform any Brag on the board, regardless of Location. You do not need a
    Family Member present. There must still be an available spot.'"""
    state = holding("brag")
    assert not [t for t in texts(state) if t.startswith("brag 3")]
    assert "scandal brag 3 0-6" in texts(state)
    assert "scandal brag 5 0-6" not in texts(state)  # already has a marker there
    play(state, "scandal brag 3 0-6")
    assert state.slots[2] == (ME, -1, -1) and state.time[ME] == 11


# --- discards, limits, decks ----------------------------------------------------------------
def test_discard_a_scandal_for_1_time_without_using_the_action() -> None:
    """'At any time, without using an action, you may discard 1 Scandal to gain 1 time. You do
    not perform the action listed on the card.'"""
    state = holding("carry")
    play(state, "dispatch 4", "pass 1", "pass 2")
    assert state.time[ME] == 8
    play(state, "discard carry")
    assert state.time[ME] == 9 and seat_of(state) == ME and state.hands[ME] == ()
    assert state.discard[1] == 1


def test_spy_and_best_brag_each_give_a_card_and_the_hand_holds_5() -> None:
    """'You can gain 2 cards from 1 Location at once: 1 from the Spy, another from your Brag';
    'You can hold up to 5 Scandals at once. For each Scandal gained over your limit, instead
    gain 1 time.'"""
    state = new_game(2, tiles={5: "eyes-everywhere"}, carriages=(1, 4, 9), destinations=(6, 2, 3))
    play(state, "place 8", "place 5")
    play(state, "dispatch 4", "pass 7", "gift contessina spy 5", "bonus time", "brag 5 0-6")
    assert state.time[ME] == 12 - 4 - 2 - 1
    hands = []
    for _ in range(3):  # Cosimo, Contessina and Giovanni all pass through 5
        while state.phase == "actions":
            seat = seat_of(state)
            if state.passed[seat]:
                play(state, "bonus time")
            elif state.npassed == 1:
                play(state, "pass")
            else:
                play(state, f"pass {next(x for x in range(9) if x not in state.rings) + 1}")
        events = []
        while state.phase in ("noble_movement", "hand_limit"):
            if state.phase == "hand_limit":  # at 5: keep the hand, gain 1 time instead
                assert seat_of(state) == ME and texts(state)[0] == "keep"
                events += play(state, "keep")
            else:
                events += play(state, texts(state)[0])
        hands.append(len(state.hands[ME]))
        while state.phase == "queue_scoring":
            play(state, "decline")
        while state.phase == "cleanup":
            play(state, texts(state)[0])
    assert hands == [2, 4, 5]
    assert [e["player"] for e in events if e.kind == "scandal_over_limit"] == [ME]


def five_cards_at_cosimos_brag(mode: str = "draw") -> FlorenceState:
    """Two players; seat 1 holds 5 Figlisto cards (arranged: taken out of Cosimo's deck) and
    the best brag on 5, which Cosimo (1 -> 6) passes; the last pass sets him moving."""
    state = new_game(
        2, tiles={5: "eyes-everywhere"}, carriages=(1, 7, 9), destinations=(6, 2, 3), mode=mode
    )
    play(state, "place 8", "place 5")
    t = state.tables
    for card in ("carry", "carry", "journey", "guard", "deploy"):
        i = t.card_index[card]
        state.deck_left[0] -= 1
        if mode == "draw":
            state.deck[i] -= 1
        state.hands[ME] = (*state.hands[ME], card if mode == "draw" else "cosimo")
    assert not state.invariants()
    play(state, "brag 5 0-6", "pass 7", "pass")
    return state


def test_a_full_hand_may_discard_first_to_take_the_new_card() -> None:
    """'You can hold up to 5 Scandals at once. For each Scandal gained over your limit,
    instead gain 1 time' and 'At any time, without using an action, you may discard 1 Scandal
    to gain 1 time': at 5 cards, the seat may discard a card of its choice first and keep the
    new one."""
    state = five_cards_at_cosimos_brag()
    assert state.phase == "hand_limit" and seat_of(state) == ME
    assert texts(state) == [
        "keep",
        "discard guard",
        "discard carry",
        "discard journey",
        "discard deploy",
    ]
    assert "holds 5 scandal cards, the limit" in state.describe()
    time = state.time[ME]
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply("draw cosimo guard")  # the seat decides first
    assert snapshot(state) == before
    play(state, "discard journey")
    assert state.time[ME] == time + 1 and len(state.hands[ME]) == 4
    assert state.current_player() == CHANCE and state.phase == "noble_movement"
    play(state, "draw cosimo guard")
    assert sorted(state.hands[ME]) == ["carry", "carry", "deploy", "guard", "guard"]


def test_a_full_hand_that_keeps_its_cards_gains_1_time_instead() -> None:
    """'For each Scandal gained over your limit, instead gain 1 time': one press ('keep')
    declines; no card leaves the Noble's deck."""
    state = five_cards_at_cosimos_brag()
    time, deck = state.time[ME], list(state.deck)
    events = play(state, "keep")
    assert [(e.kind, e["time"]) for e in events if e.kind == "scandal_over_limit"] == [
        ("scandal_over_limit", 1)
    ]
    assert state.time[ME] == time + 1 and len(state.hands[ME]) == 5 and state.deck == deck


def test_a_full_hidden_hand_discards_a_card_it_names() -> None:
    """With scandal_entry = 'play' hands are known by count: the discard that makes room names
    the card, as any discard does in that mode, and the new card joins the hand unnamed."""
    state = five_cards_at_cosimos_brag("play")
    assert state.phase == "hand_limit" and texts(state)[0] == "keep"
    assert "discard journey" in texts(state)
    play(state, "discard journey")
    assert state.discard[2] == 1 and len(state.hands[ME]) == 5
    assert state.hands[ME].count("cosimo") == 5


def spies_on_cosimos_path(mode: str) -> object:
    """Spies on 5 (seat 3), 2 (seat 1), 3 (seat 2) and 6 (seat 3): Cosimo (1 -> 6) hands out
    four cards; the last pass sets him moving."""
    state = new_game(
        3, carriages=(1, 4, 7), destinations=(6, 2, 3), placements=(4, 5, 2), mode=mode
    )
    play(
        state,
        "dispatch 4",
        "dispatch 4",
        "gift contessina spy 5",
        "gift contessina spy 2",
        "gift contessina spy 3",
        "gift contessina spy 6",
        "pass 1",
        "pass 2",
        "pass",
    )
    return state


def test_drawn_cards_are_limited_to_those_still_in_the_nobles_deck() -> None:
    """'3 copies of each of the 4 Noble Abilities': a fourth journey cannot be drawn."""
    state = spies_on_cosimos_path("draw")
    for _ in range(3):
        assert "draw cosimo journey" in texts(state)
        play(state, "draw cosimo journey")
    assert state.current_player() == CHANCE
    assert texts(state) == ["draw cosimo guard", "draw cosimo carry", "draw cosimo deploy"]
    assert state.chance_weights() == [3.0, 3.0, 3.0]


def test_hidden_hands_name_a_card_only_when_it_is_revealed() -> None:
    """Option scandal_entry='play': hands are known by count; a played or discarded card must
    still be possible given the cards revealed from that Noble's deck."""
    state = spies_on_cosimos_path("play")
    assert state.hands == [("cosimo",), ("cosimo",), ("cosimo", "cosimo")]
    while state.phase == "cleanup":
        play(state, texts(state)[0])
    assert seat_of(state) == LEFT
    play(state, "discard journey", "pass 1", "discard journey", "discard journey")
    assert state.discard[2] == 3
    play(state, "pass 3")
    assert seat_of(state) == ME
    assert [t for t in texts(state) if t.startswith("discard")] == [
        "discard guard",
        "discard carry",
        "discard deploy",
    ]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="journey"):
        state.apply("discard journey")
    assert snapshot(state) == before
