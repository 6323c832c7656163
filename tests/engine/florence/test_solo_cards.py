"""Strozzi's ten solo cards, each resolution and each fallback, against "Strozzi's Cards".

Board (see solo_helpers): Cosimo's carriage on 1, Contessina's on 7, Giovanni's on 9;
destinations 6 (Cosimo, round 1), 4 (Contessina, round 2), 2 (Giovanni, round 3). After
setup Strozzi has an orange debutant on 6, a blue one on 2, an orange Escort on 1-2, a blue
Spy on 4 and an orange Bouncer on 2. A few positions that take many rounds to reach are
arranged directly (pieces moved between supply and queues); the rest is played.
"""

from __future__ import annotations

import pytest

from engine.core import CHANCE, IllegalAction
from engine.florence import FlorenceState
from engine.florence.solo import BLUE, ORANGE

from .helpers import play
from .solo_helpers import (
    BLUE_DEB,
    HUMAN,
    ORANGE_DEB,
    ORANGE_DONNA,
    STROZZI,
    YOUR_DEB,
    finish_round,
    pieces,
    solo_game,
    steps,
    texts,
)


def arrange(state: FlorenceState, loc: int, *codes: int) -> None:
    """Pieces (codes) from their owner's supply join queue `loc` as arrivals."""
    for code in codes:
        state.supply[code] -= 1
        state._enter(loc - 1, code)
    assert not state.invariants()


# --- cards 1-5: Deploy -----------------------------------------------------------------
def test_deploy_at_cosimos_destination_advances_the_debutant_respecting_seniority() -> None:
    """'Cosimo: Deploy 1 Debutant (of the indicated colour), and advance it to the highest
    possible space in the queue, respecting Seniority.'"""
    state = solo_game(place=5)
    play(state, "dispatch 6", "solo 2")  # card 2: Noble A (Cosimo, destination 6), blue
    assert pieces(state, 6) == ["blue:debutant", "orange:debutant", "you:debutant"]
    assert state.time[STROZZI] == 3  # 'Cards 1-5: Deploy (3 Time)'
    play(state, "promote 6 debutant3", "solo 1")  # your donna is senior: he stays behind her
    assert pieces(state, 6)[:2] == ["you:donna", "orange:debutant"]


def test_deploy_at_contessinas_destination_is_a_donna() -> None:
    """'Contessina: Deploy 1 Donna of the indicated colour.'"""
    state = solo_game(place=4)
    events = play(state, "dispatch 4", "solo 3")  # card 3: Noble B (Contessina, 4), orange
    assert pieces(state, 4) == ["orange:donna", "you:debutant", "you:debutant"]
    assert steps(events) == [
        "Card 3: Strozzi pays 3 time (3 left). Strozzi deploys an orange Donna on location 4, "
        "1st in the queue."
    ]
    assert [e["colour"] for e in events if e.kind == "deployed"] == ["orange"]


def test_deploy_at_giovannis_destination_is_two_debutants_one_of_each_colour() -> None:
    """'Giovanni: Deploy 2 Debutants (1 orange, 1 blue.)' - whatever colour the card shows."""
    state = solo_game(place=5, easier_setup=True)  # no orange Bouncer on 2 this time
    play(state, "dispatch 2", "solo 5")  # card 5: Noble C (Giovanni, 2)
    assert pieces(state, 2) == ["blue:debutant", "you:debutant", "orange:debutant", "blue:debutant"]


def test_a_full_destination_passes_to_the_next_cycling_c_to_a_and_card_5_asks_a_tie() -> None:
    """'If the Location is full, move to the next Noble Destination, cycling from C to A if
    needed.' 'If card 5 is drawn, place whichever colour Strozzi has fewer pieces of on the
    board. In a tie, you choose.'"""
    state = solo_game(place=5)
    play(state, "dispatch 2", "solo 8", "dispatch 2", "solo 9", "dispatch 2")
    assert len(pieces(state, 2)) == state.cap[1] == 4  # Giovanni's destination is full
    play(state, "solo 5")  # Noble C's location is full: on to A, Cosimo's 6 - a debutant
    assert state.current_player() == HUMAN and texts(state) == ["choose orange", "choose blue"]
    assert "you choose the colour" in state.describe()
    with pytest.raises(IllegalAction, match="In a tie, you choose"):
        state.apply("pass 3")
    events = play(state, "choose blue")
    assert pieces(state, 6) == ["blue:debutant", "orange:debutant"]
    assert [e.kind for e in events][:2] == ["strozzi_colour", "deployed"]


def test_card_5_places_the_colour_he_has_fewer_of() -> None:
    state = solo_game(place=5)
    play(state, "dispatch 2", "solo 1")  # a second orange piece: 2 orange, 1 blue
    play(state, "dispatch 2", "solo 8", "dispatch 2")  # Giovanni's 2 is full: on to Cosimo's 6
    play(state, "solo 5")
    assert pieces(state, 6)[0] == "blue:debutant"  # no question: blue is the fewer


def test_no_destination_with_room_traces_the_arrows_back_from_noble_as_destination() -> None:
    """'If no valid destinations exist, trace the Noble movement arrows back along a path from
    Noble A's destination until you find a Location where Strozzi can deploy.' The arrows run
    ... 2 -> 3 -> 6: back from 6 is 3, then 2, then 5."""
    state = solo_game(place=5)
    arrange(state, 6, ORANGE_DEB, ORANGE_DEB, ORANGE_DEB)
    arrange(state, 4, BLUE_DEB, BLUE_DEB, BLUE_DEB, BLUE_DEB)
    arrange(state, 2, ORANGE_DEB, YOUR_DEB, YOUR_DEB)
    arrange(state, 3, ORANGE_DONNA, ORANGE_DONNA, YOUR_DEB, YOUR_DEB)  # full, too
    play(state, "pass 1", "solo 4")  # card 4: Noble B (Contessina), blue
    # 3 is full, 2 too (Giovanni's destination): the blue donna goes on to 5, behind nobody
    # senior ("the card's own Noble" decides what is deployed off the destinations)
    assert pieces(state, 5) == ["blue:donna", "you:debutant"]


def test_the_second_giovanni_debutant_goes_on_when_the_first_fills_the_location() -> None:
    state = solo_game(place=5)
    play(state, "dispatch 2", "solo 8", "dispatch 2")  # 2: blue, you, you - one space left
    events = play(state, "solo 5")
    assert pieces(state, 2)[0] == "orange:debutant" and len(pieces(state, 2)) == 4
    # the blue one takes the next place in the card's order: C -> A (Cosimo's 6)
    assert pieces(state, 6) == ["orange:debutant", "blue:debutant"]
    assert len([e for e in events if e.kind == "deployed"]) == 2


def test_piece_shortage_takes_back_the_colour_off_the_destinations_then_deploys() -> None:
    """'If Strozzi wants to deploy a piece of which he has none left: Move all deployed Family
    Members of that colour that aren't on a Noble Destination back to his supply. Place as
    indicated.'"""
    state = solo_game(place=5)
    arrange(state, 8, ORANGE_DEB, ORANGE_DEB)
    arrange(state, 9, ORANGE_DEB, BLUE_DEB)
    arrange(state, 4, ORANGE_DEB)  # Contessina's destination: it stays
    assert state.supply[ORANGE_DEB] == 0
    events = play(state, "pass 1", "solo 1")
    assert steps(events) == [
        "Card 1: Strozzi pays 3 time (3 left). Strozzi has no orange Debutant left: his orange "
        "family members on location(s) 8, 9 go back to his board.",
        "Strozzi deploys an orange Debutant on location 6, 1st in the queue.",
    ]
    assert pieces(state, 8) == [] and pieces(state, 9) == ["blue:debutant"]
    assert pieces(state, 4) == ["orange:debutant"] and state.supply[ORANGE_DEB] == 2


def test_piece_shortage_with_nothing_to_take_back_does_nothing() -> None:
    """'If no Family Members can be removed this way, do nothing.'"""
    state = solo_game(place=5)
    arrange(state, 6, ORANGE_DEB, ORANGE_DEB)
    arrange(state, 4, ORANGE_DEB, ORANGE_DEB)
    before = [list(q) for q in state.queues]
    events = play(state, "pass 1", "solo 1")
    assert state.queues == before
    assert "none to take back: nothing is deployed" in steps(events)[0]


# --- card 6: Time to Party ---------------------------------------------------------------
def test_time_to_party_spends_all_time_and_passes() -> None:
    """'Card 6: Time to Party (0 Time) Strozzi spends all his time, then Passes.'"""
    state = solo_game(place=5)
    play(state, "dispatch 3", "solo 8", "dispatch 3")
    events = play(state, "solo 6")
    assert state.time[STROZZI] == 0 and state.passed[STROZZI]
    assert [e.kind for e in events if e.kind in ("strozzi_party", "passed")] == [
        "strozzi_party",
        "passed",
    ]


def test_time_to_party_first_is_replaced_by_a_new_card_that_is_never_card_6() -> None:
    """'If this is the 1st card Strozzi reveals in a round, don't resolve it. Draw a new card,
    and shuffle this one back into the draw deck.' The new card is drawn before card 6 goes
    back, so it cannot be card 6; card 6 is in the deck again for the draw after it."""
    state = solo_game(place=5, confirm=True)
    play(state, "dispatch 3")
    events = play(state, "solo 6")
    assert steps(events) == [
        "Card 6, Time to Party, is his first card this round: draw a new card, then shuffle "
        "card 6 back into his deck."
    ]
    assert not state.passed[STROZZI] and state.time[STROZZI] == 6
    play(state, "ok")
    assert texts(state) == [f"solo {n}" for n in (1, 2, 3, 4, 5, 7, 8, 9, 10)]
    assert state.chance_weights() == [1.0] * 9
    with pytest.raises(IllegalAction, match="the new card comes first"):
        state.apply("solo 6")
    events = play(state, "solo 8")
    assert steps(events)[0].startswith("Shuffle card 6 back into his deck. Card 8: ")
    play(state, "ok", "dispatch 3")
    assert "solo 6" in texts(state) and "solo 8" not in texts(state)
    play(state, "solo 6")  # his second card this round: it resolves
    assert state.passed[STROZZI]


def test_time_to_party_first_among_the_kept_cards_is_followed_by_the_next_kept_card() -> None:
    """Cleanup: 'Put aside the top 3 cards of Strozzi's deck, shuffle his discard pile ... and
    place the 3 cards you put aside back on top.' Card 6 drawn first from those kept cards is
    shuffled 'back into the draw deck', which lies below the kept cards still on top: the new
    card is the next kept card, and card 6 can come up again only after the kept cards."""
    state = solo_game(place=5)
    play(state, "pass 3", "solo 8", "bonus time", "solo 9", "bonus time", "solo 10")
    assert state.time[STROZZI] == 0  # 6 - 2 - 2 - 2: he passes at his next turn
    play(state, "bonus time")
    assert state.passed[STROZZI] and state.phase != "actions"
    while state.phase != "actions":
        state.apply(state.legal_actions()[0])
    assert state.round == 2 and state.turn == STROZZI
    left = [f"solo {n}" for n in range(1, 8)]  # cards 1-7 were left in his deck at cleanup
    assert state.solo.top_left == 3 and texts(state) == left
    play(state, "solo 6")  # the 1st card he reveals in round 2, one of the three kept ones
    assert not state.passed[STROZZI] and state.solo.top_left == 2
    assert texts(state) == [t for t in left if t != "solo 6"]
    play(state, "solo 1")  # the 2nd kept card; card 6 goes back below the 3rd
    assert state.solo.top_left == 1
    while state.current_player() == HUMAN:
        play(state, "dispatch 3" if "dispatch 3" in texts(state) else "pass 4")
    assert texts(state) == [f"solo {n}" for n in (2, 3, 4, 5, 7)]  # the 3rd kept card
    play(state, "solo 2")
    while state.current_player() == HUMAN:
        play(state, "dispatch 3" if "dispatch 3" in texts(state) else "pass 4")
    assert state.current_player() == CHANCE and state.solo.top_left == 0
    # after the kept cards: any card not drawn since the cleanup, card 6 included
    assert texts(state) == [f"solo {n}" for n in (3, 4, 5, 6, 7, 8, 9, 10)]


def test_time_to_party_in_giovannis_round_keeps_3_time() -> None:
    """'If it is Giovanni's round, he will spend all time except 3, before passing.'"""
    state = solo_game(place=5)
    finish_round(state)
    finish_round(state, party=False)  # card 6 stays in his deck
    assert state.round == 3 and state.current_player() == HUMAN
    play(state, "dispatch 3")
    play(state, next(t for t in texts(state) if t not in ("solo 6", "solo 7")), "dispatch 7")
    assert state.time[STROZZI] > 3 and "solo 6" in texts(state)
    play(state, "solo 6")
    assert state.time[STROZZI] == 3 and state.passed[STROZZI]


def test_harder_time_to_party_scores_2_vp_per_time_spent() -> None:
    """Harder: 'Strozzi gains 2 VP per remaining Time when he resolves Card 6'."""
    state = solo_game(place=5, harder_party=True, easier_setup=True)
    play(state, "dispatch 3", "solo 8", "dispatch 3")
    vp, time = state.vp[STROZZI], state.time[STROZZI]
    play(state, "solo 6")
    assert state.vp[STROZZI] == vp + 2 * time


def test_harder_time_to_party_scores_every_remaining_time_in_giovannis_round() -> None:
    """Harder: 'Strozzi gains 2 VP per remaining Time when he resolves Card 6', and card 6
    in Giovanni's round: 'he will spend all time except 3, before passing'. Read as
    written, the remaining time is all the time he has when the card resolves, the 3 he
    keeps included (ruling 61)."""
    state = solo_game(place=5, harder_party=True)
    finish_round(state)
    finish_round(state, party=False)  # card 6 stays in his deck
    assert state.round == 3
    play(state, "dispatch 3")
    play(state, next(t for t in texts(state) if t not in ("solo 6", "solo 7")), "dispatch 7")
    vp, time = state.vp[STROZZI], state.time[STROZZI]
    assert time > 3 and "solo 6" in texts(state)
    play(state, "solo 6")
    assert state.time[STROZZI] == 3 and state.passed[STROZZI]
    assert state.vp[STROZZI] == vp + 2 * time


# --- card 7: A Friend of Mine ---------------------------------------------------------------
def test_a_friend_of_mine_promotes_a_debutant_on_noble_as_destination() -> None:
    """'Card 7: A Friend of Mine (3 Time) Promote a Debutant (either colour) to a Donna on
    Noble A's Destination, if possible.'"""
    state = solo_game(place=5)
    play(state, "dispatch 6", "solo 7")
    assert pieces(state, 6) == ["orange:donna", "you:debutant"]
    assert state.time[STROZZI] == 3 and state.supply[ORANGE_DONNA] == 2


def test_a_friend_of_mine_goes_on_to_b_or_c() -> None:
    """'Otherwise, do the same on Noble B or C's Destination.' Nothing of his on Cosimo's 6."""
    state = solo_game(place=5)
    state.queues[5].clear()
    state.supply[ORANGE_DEB] += 1
    play(state, "pass 1", "solo 7")  # B (Contessina's 4) has nothing of his; C (2) has
    assert pieces(state, 2) == ["blue:donna"]


def test_a_friend_of_mine_promotes_a_donna_to_a_maestro_without_a_debutant_there() -> None:
    """'If there's a Donna present at the Destination in question, no Debutant present, and /
    or no more available Donna pieces, promote the Donna to a Maestro instead.'"""
    state = solo_game(place=5)
    play(state, "dispatch 6", "solo 3")  # an orange donna on Contessina's 4 (Noble B)
    finish_round(state)
    assert state.round == 2  # now Contessina is Noble A: a donna, no debutant of his
    play(state, "solo 7")
    assert pieces(state, 4) == ["orange:maestro"]


def test_a_friend_of_mine_with_no_donna_left_promotes_a_donna_instead() -> None:
    state = solo_game(place=5)
    arrange(state, 6, ORANGE_DONNA)
    arrange(state, 8, ORANGE_DONNA, ORANGE_DONNA)  # all three orange donnas are out
    play(state, "pass 1", "solo 7")
    assert pieces(state, 6) == ["orange:maestro", "orange:debutant"]


def test_a_friend_of_mine_with_a_shortage_takes_back_then_promotes() -> None:
    """'See the rule in the boxout above in case of a piece shortage.'"""
    state = solo_game(place=5)
    arrange(state, 8, ORANGE_DONNA, ORANGE_DONNA, ORANGE_DONNA)
    state.queues[1].clear()  # nothing of his on Giovanni's 2 to promote instead
    state.supply[BLUE_DEB] += 1
    events = play(state, "pass 1", "solo 7")
    assert "no orange Donna left" in steps(events)[0]
    assert pieces(state, 6) == ["orange:donna"] and pieces(state, 8) == []


def test_a_friend_of_mine_with_no_family_member_on_any_destination_brags() -> None:
    """'If there are no Family Members on any of the Destinations, perform a Brag action
    (below) instead.'"""
    state = solo_game(place=5, tiles={5: "plus-one"})
    state.queues[5].clear()
    state.queues[1].clear()
    state.supply[ORANGE_DEB] += 1
    state.supply[BLUE_DEB] += 1
    events = play(state, "pass 1", "solo 7")
    brag = next(e for e in events if e.kind == "brag")
    assert brag["location"] == 5 and brag["vp"] == 4 * 2 and brag["spot"] == "0-6"


# --- cards 8 & 9: Brag ------------------------------------------------------------------------
def test_brag_goes_on_along_the_arrows_when_he_cannot_use_a_tile() -> None:
    """'If he can't Brag because the spot is occupied, move along the Noble Movement arrows
    until you find a Location with a Brag he can use.' His own marker on 5 counts: 'You don't
    have a marker on it already'."""
    state = solo_game(place=5, tiles={5: "street-cred", 2: "plus-one"})
    play(state, "dispatch 3", "solo 8", "dispatch 7", "solo 9")
    assert state.slots[4][0] == STROZZI and state.slots[1][0] == STROZZI  # 5, then 2
    assert state.solo.marks[4][0] == ORANGE and state.solo.marks[1][0] == BLUE
    assert state.vp[STROZZI] == 3 * 2 + 4 * 2


def test_an_occupied_lowest_space_moves_his_brag_on() -> None:
    state = solo_game(place=5, tiles={5: "eyes-everywhere"})
    play(state, "brag 5 0-6", "solo 8")
    assert state.slots[4][0] == HUMAN and state.slots[1][0] == STROZZI


@pytest.mark.parametrize(
    ("rounds", "times", "spot", "options"),
    [
        (3, 3, 1, {}),  # round 4: 'three times ... on the middle space'
        (6, 4, 2, {}),  # round 7: 'four times ... on the highest space'
        (3, 2, 1, {"easier_brags": True}),  # 'Strozzi scores 1x / 2x / 3x for Brags'
        (0, 1, 0, {"easier_brags": True}),
    ],
)
def test_brag_multiplier_and_space_by_round(
    rounds: int, times: int, spot: int, options: dict[str, bool]
) -> None:
    """'In rounds 4-6, he gets the indicated VP three times and places the token on the
    middle space. In rounds 7-9, he gets the indicated VP four times and places the token on
    the highest space.'"""
    state = solo_game(place=5, **options)
    for _ in range(rounds):
        finish_round(state, cards=(10, 7, 1, 2, 3, 4, 5))
    if state.current_player() == HUMAN:
        play(state, "dispatch 3" if "dispatch 3" in texts(state) else "pass 3")
    vp = state.vp[STROZZI]
    events = play(state, next(t for t in ("solo 8", "solo 9") if t in texts(state)))
    brag = next(e for e in events if e.kind == "brag")
    tile = state.tables.tiles[state.tiles[brag["location"] - 1]]
    assert brag["vp"] == tile.rate * times == state.vp[STROZZI] - vp
    assert state.slots[brag["location"] - 1][spot] == STROZZI


# --- card 10: Deploy a Guard ------------------------------------------------------------------
def test_deploy_a_guard_on_noble_bs_shield_at_its_destination() -> None:
    """'Strozzi deploys a Guard on a shield of Noble B, at Noble B's Destination'."""
    state = solo_game(place=5, easier_setup=True)
    play(state, "pass 1", "solo 10")  # Noble B: Contessina, destination 4
    assert state.spies[3] == (ORANGE,) and state.time[STROZZI] == 4


def test_deploy_a_guard_for_giovanni_traces_back_from_a_taken_shield() -> None:
    """'If the spot is taken, trace a path back along the Noble arrows until you find a
    Location where a Guard can be placed.' Round 2: Noble B is Giovanni (2, with his Bouncer);
    the arrows reach 2 from 5."""
    state = solo_game(place=5)
    finish_round(state)
    play(state, "solo 10")
    assert state.bouncers[4] == (BLUE,)


def test_deploy_a_guard_for_cosimo_goes_just_before_and_skips_the_park_path() -> None:
    """'(or just before it, if it's Cosimo)': on the road the arrows take into his
    destination. Round 3: Noble B is Cosimo, going to 5 in round 4; the arrows come from 1
    by the park path, which has no shield, so back one more: the road 4-1."""
    state = solo_game(place=7)
    finish_round(state, cards=(8, 9), tokens=(5, 5))
    finish_round(state, cards=(8, 9))
    assert state.round == 3 and state.dial_loc[3] == 4
    play(state, "pass 3", "solo 10")
    assert state.escorts[state.tables.road_index[(0, 3)]] != ()


def test_deploy_a_guard_in_round_9_scores_2_vp() -> None:
    """'If no such spots exist, or it's round 9, give Strozzi 2 VP instead.'"""
    state = solo_game(place=5)
    while state.round < 9:
        finish_round(state, cards=(8, 9, 7, 1, 2, 3, 4, 5))
    assert state.first == HUMAN
    play(state, "pass 3")
    assert "solo 10" in texts(state)
    guards, vp = state.guards_left[STROZZI], state.vp[STROZZI]
    events = play(state, "solo 10")
    assert state.guards_left[STROZZI] == guards and state.vp[STROZZI] == vp + 2
    assert steps(events)[0].endswith("Strozzi places no guard and scores 2 VP instead.")


def test_deploy_a_guard_with_every_shield_of_noble_b_taken_scores_2_vp() -> None:
    """'If no such spots exist ... give Strozzi 2 VP instead.' Every Spy shield is taken."""
    state = solo_game(place=5)
    for loc in range(9):
        if not state.spies[loc]:
            state.spies[loc] = (ORANGE,)
            state.guards_left[STROZZI] -= 1
    assert not state.invariants() and state.guards_left[STROZZI] == 1
    events = play(state, "pass 1", "solo 10")
    assert state.vp[STROZZI] == 2 and state.guards_left[STROZZI] == 1
    assert [e["reason"] for e in events if e.kind == "strozzi_vp"] == ["guard"]


def test_deploy_a_guard_with_no_guard_left_scores_2_vp() -> None:
    state = solo_game(place=5, easier_setup=True)
    state.guards_left[STROZZI] = 0  # arranged: his twelve guards are out
    play(state, "pass 1", "solo 10")
    assert state.vp[STROZZI] == 2 and state.spies[3] == ()


def test_a_brag_card_whose_colour_has_no_token_left_uses_the_other_colour() -> None:
    state = solo_game(place=5, tiles={5: "street-cred"})
    for loc in (0, 2, 3, 5, 6, 7):  # arranged: his six orange tokens on six other tiles
        state.slots[loc] = (*state.slots[loc][:2], STROZZI)
        state.solo.marks[loc] = (*state.solo.marks[loc][:2], ORANGE)
        state.markers_left[STROZZI] -= 1
    assert not state.invariants()
    play(state, "pass 1", "solo 8")  # card 8 shows orange
    assert state.slots[4][0] == STROZZI and state.solo.marks[4][0] == BLUE


def test_easier_setup_places_no_guards_but_the_debutants() -> None:
    """Easier: 'Strozzi doesn't place guards during setup'."""
    state = solo_game(easier_setup=True)
    assert state.guards_left[STROZZI] == 12
    assert not any(state.escorts) and not any(state.spies) and not any(state.bouncers)
    assert pieces(state, 6) == ["orange:debutant"] and pieces(state, 2) == ["blue:debutant"]


def test_time_to_party_never_resolves_as_the_first_card_of_a_round_in_drawn_games() -> None:
    """'If this is the 1st card Strozzi reveals in a round, don't resolve it. Draw a new
    card': over whole games drawn at random, a card 6 resolves only after another card of
    his in the same round, and a card 6 set aside is never the card drawn instead."""
    import engine
    from engine.core import derive, random_action

    game = engine.get("florence")
    resolved = returned = 0
    for seed in range(40):
        state = game.new_state(1, seed=seed, options={"confirm_automa": False})
        rng = derive(seed, "party-test")
        revealed: dict[int, list[tuple[int, bool]]] = {}
        rnd = 0
        while not state.is_over():
            for event in state.apply(random_action(state, rng)):
                if event.kind == "round_started":
                    rnd = event["round"]
                elif event.kind == "solo_card":
                    revealed.setdefault(rnd, []).append((event["card"], event["returned"]))
        for cards in revealed.values():
            for k, (card, back) in enumerate(cards):
                if card == 6 and not back:
                    resolved += 1
                    assert k > 0, cards
                if back:
                    returned += 1
                    assert k == 0 and cards[1][0] != 6, cards
    assert resolved > 40 and returned > 5  # both cases come up in these games
