"""Strozzi's turns, the Nobles and the end of a solo game, against the "Solo Mode" text."""

from __future__ import annotations

import pytest

from engine.core import CHANCE, IllegalAction
from engine.florence import FlorenceState

from .helpers import play
from .solo_helpers import HUMAN, STROZZI, finish_round, solo_game, steps, texts


# --- Gain Time ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "gains"),
    [
        ({}, [6, 9, 4]),
        ({"easier_time": True}, [5, 8, 4]),  # "-1 Time per round (but still never less than 4)"
        ({"harder_time": True}, [7, 9, 5]),  # "+1 time per round (but never more than 9)"
    ],
)
def test_time_gained_is_6_then_yours_but_never_less_than_4(
    options: dict[str, bool], gains: list[int]
) -> None:
    """'In the 1st Gain Time phase, Strozzi gets 6 time. In future rounds he gets the same as
    you, but never less than 4.' Time tokens: 9 in round 2, 2 in round 3."""
    state = solo_game(place=5, times=(9, 2), easier_setup=True, **options)  # no Spy: no time
    seen = [state.time[STROZZI]]
    finish_round(state)  # card 6 leaves him no time at the end of each round
    seen.append(state.time[STROZZI])
    finish_round(state)
    seen.append(state.time[STROZZI])
    assert seen == gains


# --- his action turns ------------------------------------------------------------------------
def test_with_time_he_draws_a_card_and_the_draw_is_chance() -> None:
    """'If he has 1 or more time: Draw a card from his deck'."""
    state = solo_game(place=5)
    play(state, "dispatch 3")
    assert state.current_player() == CHANCE
    assert [p for _, p in state.chance_outcomes()] == [0.1] * 10
    assert state.describe() == "Strozzi's turn: turn over the next card of his solo deck."


def test_he_keeps_his_ring_when_no_destination_allows_a_swap_and_then_scores_vp() -> None:
    """'If none exist, he keeps his ring.' 'If he couldn't place his ring ... he scores 1 / 2
    / 3 VP in rounds 1-3 / 4-6 / 7-9.'"""
    state = solo_game(place=5)
    play(state, "dispatch 3", "solo 8", "dispatch 7")
    events = play(state, "solo 6")
    assert state.passed[STROZZI] and state.rings[STROZZI] == -1
    assert steps(events)[-1].endswith(
        "Strozzi passes and keeps his ring: no destination where he could swap."
    )
    events = play(state, "move 5 debutant1 4")
    assert [e["vp"] for e in events if e.kind == "bonus"] == [1]


def test_his_pass_after_yours_ends_the_actions_without_a_ring() -> None:
    """Pass: 'Take your ring and place it on 1 of the board Locations (unless you're the last
    to pass, in which case the round ends.)' The 1st passer's 2 time is yours."""
    state = solo_game(place=5)
    play(state, "pass 3")
    assert state.time[HUMAN] == 12  # capped
    events = play(state, "solo 8", "bonus time", "solo 6")
    passed = next(e for e in events if e.kind == "passed")
    assert passed["ring"] is None and steps(events)[-1].endswith("the round's actions end.")
    assert state.phase != "actions"


def test_in_giovannis_round_he_passes_at_3_time_with_a_piece_on_his_destination() -> None:
    """'In Giovanni's rounds (3, 6, 9) Strozzi Passes as soon as he has <=3 time remaining, as
    long as he has a Family Member on Giovanni's Destination.'"""
    state = solo_game(place=5, times=(9, 2), easier_setup=True)  # no Spy: no extra time
    finish_round(state)
    finish_round(state)
    assert state.round == 3 and state.time[STROZZI] == 4 and state.has_member(STROZZI, 1)
    play(state, "dispatch 3", "solo 8")  # 2 time left: his next turn is a pass
    play(state, "dispatch 7")
    assert state.passed[STROZZI] and state.time[STROZZI] == 2


def test_in_giovannis_round_without_a_piece_there_he_draws_on() -> None:
    state = solo_game(place=5, times=(9, 2))
    finish_round(state)
    finish_round(state)
    state.queues[1].clear()  # arranged: nothing of his on Giovanni's 2
    state.supply[9] += 1
    play(state, "dispatch 3", "solo 8", "dispatch 7")
    assert state.current_player() == CHANCE and not state.passed[STROZZI]


def test_harder_he_gains_2_time_after_passing_first() -> None:
    """Harder: 'If Strozzi passes 1st, after doing his Pass action he gets 2 time'."""
    state = solo_game(place=5, harder_first_pass=True)
    play(state, "dispatch 3", "solo 8", "dispatch 7", "solo 6")
    assert state.passed[STROZZI] and state.time[STROZZI] == 2


def test_harder_you_get_no_bonus_after_passing_first() -> None:
    """Harder: 'If you pass 1st, you don't get a benefit when it's your turn again'."""
    state = solo_game(place=5, harder_pass=True)
    play(state, "pass 3")
    assert state.time[HUMAN] == 12
    play(state, "solo 8")
    assert state.current_player() == CHANCE  # his turn again: yours is skipped
    play(state, "solo 9", "solo 10")
    assert state.phase != "actions"


def test_without_harder_pass_you_get_a_bonus() -> None:
    state = solo_game(place=5)
    play(state, "pass 3", "solo 8")
    assert texts(state)[:2] == ["bonus time", "bonus vp"]


# --- Noble Movement --------------------------------------------------------------------------
def test_his_scandal_is_the_top_card_discarded_and_1_time() -> None:
    """'When Strozzi gains a Scandal card, discard the top card from the corresponding Noble
    and give him 1 time.' His brag on 2 is the best there and he has a piece on 2."""
    state = solo_game(place=5, tiles={5: "eyes-everywhere"})
    play(state, "brag 5 0-6", "solo 8")  # 5's lowest space is yours: his brag goes on to 2
    assert state.slots[1][0] == STROZZI
    play(state, "pass 3", "solo 6")
    assert state.phase == "noble_movement" and state.current_player() == CHANCE
    events = play(state, "draw cosimo guard")  # your card for the best brag on 5
    assert state.hands[HUMAN] == ("guard",)
    assert [e["time"] for e in events if e.kind == "strozzi_scandal"] == [1]
    assert state.current_player() == CHANCE and state.pending == [STROZZI]
    assert "Strozzi" in state.describe()
    events = play(state, "draw cosimo carry")
    assert state.hands[STROZZI] == () and state.discard[1] == 1
    assert events[0].kind == "scandal_discarded_by_automa"


@pytest.mark.parametrize(("easier", "time"), [(False, 2), (True, 1)])
def test_easier_no_time_for_brag_scandals_but_a_spy_still_pays(easier: bool, time: int) -> None:
    """Easier: 'Strozzi doesn't get Time for Brags during the Noble Movement'. Contessina goes
    to 2 in round 2, so his setup Spy is on 2, on Cosimo's way 1 -> 5 -> 2 -> 3 -> 6."""
    state = solo_game(
        place=5, tiles={5: "eyes-everywhere"}, destinations=(6, 2, 4), easier_scandals=easier
    )
    play(state, "brag 5 0-6", "solo 8")  # his brag goes on to 2
    play(state, "dispatch 3", "solo 3")  # card 3: an orange donna on Contessina's 2
    events = play(state, "pass 7", "solo 6", "draw cosimo guard")  # yours, for 5
    scandal = next(e for e in events if e.kind == "strozzi_scandal")
    assert (scandal["cards"], scandal["time"]) == (2, time)  # his brag and his spy on 2
    assert state.pending == [STROZZI, STROZZI]
    events = play(state, "draw cosimo carry", "draw cosimo deploy")
    assert [e.kind for e in events].count("scandal_discarded_by_automa") == 2


def test_in_play_mode_his_discarded_card_is_named_too() -> None:
    state = solo_game(place=5, tiles={5: "eyes-everywhere"}, scandal_entry="play")
    play(state, "brag 5 0-6", "solo 8", "pass 3", "solo 6")
    assert state.hands[HUMAN] == ("cosimo",)  # yours is known by count
    assert state.current_player() == CHANCE and texts(state)[0].startswith("draw cosimo ")
    play(state, "draw cosimo deploy")
    assert state.discard[3] == 1 and not state.invariants()


# --- Noble Scoring ----------------------------------------------------------------------------
def giovanni_round(**options: bool) -> FlorenceState:
    """Round 3 (Giovanni to 2, where Strozzi's blue debutant is), with 4 time for him: no
    setup guards, so no Spy gives him time on the way."""
    state = solo_game(place=5, times=(9, 2), easier_setup=True, **options)
    finish_round(state)
    finish_round(state)
    assert state.round == 3
    return state


def test_he_pays_giovanni_all_he_has_when_short_and_scores() -> None:
    """'For Giovanni, he must spend the time indicated to get his reward. If he hasn't got
    enough time, he spends all his time and scores.' Award 1 of round 3: 20 VP for 4 time."""
    state = giovanni_round()
    play(state, "dispatch 3", "solo 8")
    vp = state.vp[STROZZI]
    events = play(state, "pass 7")  # he passes with 2 time: the round ends
    while state.phase == "noble_movement":
        events += play(state, texts(state)[0])
    claim = next(e for e in events if e.kind == "giovanni_claimed")
    assert (claim["player"], claim["vp"], claim["time"]) == (STROZZI, 20, 2)
    assert state.time[STROZZI] == 0 and state.vp[STROZZI] >= vp + 20


def test_easier_he_scores_half_when_short() -> None:
    """Easier: 'Strozzi only scores 1/2 the VP if he hasn't got time to pay Giovanni'."""
    state = giovanni_round(easier_giovanni=True)
    events = play(state, "dispatch 3", "solo 8", "pass 7")
    while state.phase == "noble_movement":
        events += play(state, texts(state)[0])
    claim = next(e for e in events if e.kind == "giovanni_claimed")
    assert (claim["vp"], claim["time"]) == (10, 2)


def test_he_pays_in_full_when_he_can() -> None:
    state = giovanni_round(harder_first_pass=True)
    play(state, "dispatch 3", "solo 8", "dispatch 7")  # he passes first: 2 + 2 time
    assert state.passed[STROZZI] and state.time[STROZZI] == 4
    events = play(state, "pass")
    while state.phase == "noble_movement":
        events += play(state, texts(state)[0])
    claim = next(e for e in events if e.kind == "giovanni_claimed")
    assert (claim["vp"], claim["time"]) == (20, 4)


def test_with_no_time_he_cannot_score_and_the_award_passes_down() -> None:
    """'If he has 0 time, he cannot score.'"""
    state = giovanni_round()
    play(state, "dispatch 2", "solo 8", "pass 7")
    state.time[STROZZI] = 0  # arranged: a Giovanni round he ends with no time
    while state.phase == "noble_movement":
        play(state, texts(state)[0])
    assert state.phase == "queue_scoring" and state.current_player() == HUMAN
    assert texts(state)[-2:] == ["claim", "decline"]  # award 1 is offered to you instead
    assert state.gio_done == [STROZZI]


def test_his_claim_waits_for_your_ok_at_the_table() -> None:
    state = giovanni_round(confirm=True)
    play(state, "dispatch 3", "solo 8", "ok", "pass 7")
    assert texts(state) == ["ok"]  # his pass
    play(state, "ok")
    while state.phase == "noble_movement":
        play(state, texts(state)[0])
    assert state.phase == "queue_scoring" and texts(state) == ["ok"]
    assert state.describe().startswith("Strozzi pays 2 time to Giovanni for award 1: 20 VP.")
    play(state, "ok")
    assert state.phase == "cleanup" and state.round == 3


# --- the end --------------------------------------------------------------------------------
def test_the_end_you_win_only_with_more_vp() -> None:
    """'You both score time (and you score your Scheme) as normal. If you have more VP than
    Strozzi, you win!'"""
    state = solo_game(place=5)
    while state.phase != "schemes":
        finish_round(state)
    time = list(state.time)
    vp = list(state.vp)
    events = play(state, "scheme cross")
    final = {e["player"]: e["time_vp"] for e in events if e.kind == "final_score"}
    assert final == {HUMAN: time[HUMAN] // 2, STROZZI: time[STROZZI] // 2}
    assert state.vp[STROZZI] == vp[STROZZI] + time[STROZZI] // 2  # and no scheme
    assert state.scores() == [state.vp[HUMAN]] and len(state.final) == 2
    assert state.winner() == ([HUMAN] if state.vp[HUMAN] > state.vp[STROZZI] else [])
    state.vp[HUMAN] = state.vp[STROZZI]
    assert state.winner() == []  # a tie is not "more VP than Strozzi"
    state.vp[HUMAN] += 1
    assert state.winner() == [HUMAN]
    assert "you win" in state.describe()


def test_harder_he_has_a_scheme_revealed_and_scored_at_the_end() -> None:
    """Harder: 'In setup, give Strozzi a face-down Scheme to score at the end'."""
    state = solo_game(place=5, harder_scheme=True)
    while state.phase != "schemes":
        finish_round(state)
    play(state, "scheme cross")  # yours
    assert state.current_player() == CHANCE and "scheme cross" not in texts(state)
    play(state, "scheme corners")
    assert state.is_over() and state.schemes[STROZZI] == 0
    assert state.final[STROZZI][1] == state.scheme_vp(STROZZI)


# --- your moves -----------------------------------------------------------------------------
def test_moving_past_his_escort_scores_him_2_vp() -> None:
    """'Guard rules apply as normal to Strozzi ... (other than the 2 VP gained when you move
    through him.)' His setup Escort is on the road 1-2."""
    state = solo_game(place=1)
    events = play(state, "move 1 debutant1 2")
    assert [(e["owner"], e["vp"]) for e in events if e.kind == "escort"] == [(STROZZI, 2)]
    assert state.vp[STROZZI] == 2


def test_your_own_escort_gives_1_vp_as_well_as_1_time() -> None:
    """'For each of your own Escorts you move through, score 1 VP (as well as 1 time.)'"""
    state = solo_game(place=1)
    play(state, "gift cosimo escort 1-4", "solo 8", "move 1 debutant1 4")
    assert state.vp[HUMAN] == 1 and state.time[HUMAN] == 12 - 2 - 1 + 1


def test_harder_you_cannot_move_along_his_guarded_roads() -> None:
    """Harder: 'You cannot move along paths where Strozzi has a Guard.'"""
    state = solo_game(place=1, harder_guards=True)
    assert "move 1 debutant1 2" not in texts(state) and "move 1 debutant1 4" in texts(state)
    assert not any(t.startswith("rush 1 debutant1 2") for t in texts(state))
    with pytest.raises(IllegalAction, match="Strozzi has a guard"):
        state.apply("move 1 debutant1 2")


def test_a_ringless_pass_is_refused_with_its_reason_while_strozzi_plays() -> None:
    """'Take your ring and place it on 1 of the board Locations (unless you're the last to
    pass, in which case the round ends.)': in a solo game Strozzi is a seat too, so you are
    not the last to pass while he plays on."""
    state = solo_game(place=5)
    with pytest.raises(IllegalAction, match="say which, like 'pass 6'"):
        state.apply("pass")
