"""Strozzi rule tests: each quotes the rulebook line it checks (shared rules: strozzi.txt).

Ship contents come from the shipped data file (provisional except Anna's card); ships are
entered by their face, so a test's draw says what the card shows.
"""

from __future__ import annotations

import pytest

from engine.core import CHANCE
from engine.strozzi import GAME
from engine.strozzi.rules import (
    EndOfTheGame,
    EndOfTheRound,
    PlacingTheShipCard,
    ScoringTheMarkers,
)

from .helpers import city, play, started, take


@pytest.mark.parametrize(("players", "deck"), [(3, 12), (4, 15), (5, 18), (6, 21)])
def test_cards_removed_per_player_count(players: int, deck: int) -> None:
    """'remove 17 cards with 3 players; 14 with 4; 11 with 5; 8 with 6' and 'The round ends
    when ... all ships have been taken or discarded'."""
    state = started(players)
    discarded = 0
    while state.round == 1:
        play(state, state.legal_actions()[0].text, *["pass"] * players)
        discarded += 1
    assert discarded == deck == state.rules.deck_size(players)


def test_setup_markers_on_start_and_three_tokens_face_up() -> None:
    """'placing them one on each of the lowest spaces'; 'the three available face up'."""
    state = GAME.new_state(4)
    assert state.current_player() == CHANCE and state.phase == "setup"
    assert all(p == 0 for row in state.pos for p in row)
    play(state, "reveal arts-2", "reveal arts-2", "reveal sciences-1-rome")
    assert state.face_up == ["arts-2", "arts-2", "sciences-1-rome"]
    assert state.pile["arts-2"] == 4 and state.phase == "draw"
    assert [a.text for a in state.legal_actions()][:2] == [
        "draw 1 gold1 grain0 cloth2 scrolls0 token",  # by sails, then notation
        "draw 1 gold2 grain1 cloth0 scrolls0 no-token",
    ]


def test_pirate_flag_claims_at_once() -> None:
    """'When he plays a "pirate flag," he claims the card for himself and gets it immediately.'"""
    state = started(4)
    play(state, "draw 1 gold2 grain1 cloth0 scrolls0 no-token", "flag pirate")
    assert state.phase == "place" and state.taker == 0
    assert "pirate" not in state.flags[0]


def test_pirate_seizes_a_flagged_ship_and_the_flag_goes_back() -> None:
    """'If a player plays his "pirate flag," he immediately takes the ship card and returns the
    previously played flag to the player whose turn it is.'"""
    state = started(4)
    events = play(state, "draw 1 gold2 grain1 cloth0 scrolls0 no-token", "flag plus")
    assert state.phase == "pirates" and state.current_player() == 1
    events = play(state, "pass", "flag pirate")  # seat 2 passes, seat 3 seizes
    assert state.taker == 2 and state.taker_flag == "pirate"
    assert state.flags[0] == ["pirate", "plus", "goods"]
    assert any(e.kind == "flag_returned" and e["player"] == 0 for e in events)


def test_unchallenged_flag_takes_the_ship() -> None:
    """'If no one plays his "pirate flag" on the ship card, the player whose turn it is takes
    the ship with the flag placed on it.'"""
    state = started(3)
    play(state, "draw 1 gold2 grain1 cloth0 scrolls0 no-token", "flag goods", "pass", "pass")
    assert state.phase == "place" and state.taker == 0 and state.taker_flag == "goods"


def test_pirate_window_skips_players_without_a_pirate_flag() -> None:
    """Only a pirate flag can seize a flagged ship, so seats without one are not asked."""
    state = started(3)
    take(
        state, "1 gold2 grain1 cloth0 scrolls0 no-token", "pirate", "venice"
    )  # seat 1 used its pirate flag; seat 2 is active
    play(state, "draw 2 gold0 grain2 cloth1 scrolls1 no-token", "flag plus")
    assert state.current_player() == 2  # seat 3, then seat 1 would be next: seat 1 has none
    state.apply("pass")
    assert state.phase == "place" and state.taker == 1


def test_rejected_ship_is_offered_clockwise() -> None:
    """'If the player whose turn it is does not want the ship ... the other players, in
    clockwise order, have the same option'."""
    state = started(4, first=1)
    play(state, "draw 1 gold2 grain1 cloth0 scrolls0 no-token", "pass")
    assert state.phase == "offer" and state.current_player() == 2
    play(state, "pass")
    assert state.current_player() == 3
    play(state, "pass")
    assert state.current_player() == 0


def test_last_to_decide_on_a_rejected_ship_is_right_of_the_active_player() -> None:
    """'The player to the right of the active player is the last to decide whether to play the
    "pirate flag."' The active player, who rejected, does not get to seize it."""
    state = started(4)
    play(
        state, "draw 1 gold2 grain1 cloth0 scrolls0 no-token", "pass", "flag plus"
    )  # seat 2 takes with +1
    assert state.current_player() == 2
    play(state, "pass")
    assert state.current_player() == 3
    play(state, "pass")
    assert state.phase == "place" and state.taker == 1  # seat 1 (active) was not asked


def test_all_refuse_then_discard_and_draw_again() -> None:
    """'If all players decide to refuse the ship, the player who turned it over places it face
    down ... and turns over a new ship. He again has all the same options'."""
    state = started(3, first=2)
    events = play(state, "draw 4 gold2 grain0 cloth0 scrolls2 no-token", "pass", "pass", "pass")
    assert any(
        e.kind == "ship_discarded" and e["ship"] == "4 gold2 grain0 cloth0 scrolls2 no-token"
        for e in events
    )
    assert state.phase == "draw" and state.active == 2
    assert "draw 4 gold2 grain0 cloth0 scrolls2 no-token" not in [
        a.text for a in state.legal_actions()
    ]


def test_ships_ordered_by_sails_plus_one_flag_and_ties_below() -> None:
    """'the fastest ship ... at the top'; 'a ship numbered 4 with a +1 flag will be placed ... as
    if it had speed 5'; 'If the player finds a ship with the same number already present at the
    port, he places his below the ship with the same number.'"""
    state = started(3)
    take(state, "5 gold0 grain1 cloth0 scrolls0 no-token", "pirate", "rome")  # seat 1: 5 sails
    take(
        state, "4 gold2 grain0 cloth0 scrolls2 no-token", "plus", "rome"
    )  # seat 2: 4 sails + 1 = 5, below the earlier 5
    take(
        state, "8 gold0 grain0 cloth0 scrolls1 no-token", "goods", "rome"
    )  # seat 3: 8 sails, on top
    assert [(e[0], e[1]) for e in state.ports[1]] == [(8, 2), (5, 0), (5, 1)]


def test_one_ship_per_port_per_round() -> None:
    """'Each player may place only one ship with his flag in each port during a round.'"""
    state = started(3)
    take(state, "1 gold2 grain1 cloth0 scrolls0 no-token", "pirate", "venice")
    take(state, "2 gold0 grain2 cloth1 scrolls1 no-token", "pirate", "venice")
    take(state, "3 gold1 grain0 cloth1 scrolls0 token", "pirate", "venice")
    play(
        state, "draw 4 gold2 grain0 cloth0 scrolls2 no-token", "flag plus"
    )  # no pirate flag left to seize it
    assert [a.text for a in state.legal_actions()] == ["port rome", "port naples"]


def test_goods_and_goods_flag_move_the_port_marker() -> None:
    """'he moves his marker at that port forward one space for each goods symbol on the ship
    that matches the symbol shown at the port. Goods symbols for other ports have no effect. In
    addition, if the player used the "goods flag," he moves his marker one further space.'"""
    state = started(3)
    ship = state.rules.ships["1 gold2 grain1 cloth0 scrolls0 no-token"]  # venice 2, rome 1
    take(state, "1 gold2 grain1 cloth0 scrolls0 no-token", "goods", "venice")
    assert state.pos[city(state, "venice")][0] == ship.goods[0] + 1
    assert state.pos[city(state, "rome")][0] == 0


def test_scrolls_move_the_florence_marker() -> None:
    """'If the ship card shows one or two scrolls, the player moves his marker on the Florence
    city track forward one or two spaces accordingly'."""
    state = started(3)
    take(state, "4 gold2 grain0 cloth0 scrolls2 no-token", "pirate", "naples")  # two scrolls
    assert state.rules.ships["4 gold2 grain0 cloth0 scrolls2 no-token"].scrolls == 2
    assert state.pos[city(state, "florence")][0] == 2


def test_markers_sharing_a_space_newcomer_right_leftmost_highest() -> None:
    """'he places it to the right of all the other markers present on that same space' and 'If
    there are several markers on one space, the leftmost marker is considered the highest.'"""
    state = started(3)
    take(state, "3 gold0 grain2 cloth0 scrolls0 no-token", "pirate", "rome")  # seat 1: rome 2
    take(
        state, "2 gold0 grain2 cloth1 scrolls1 no-token", "pirate", "rome"
    )  # seat 2: rome 2, arrives later on the same space
    rome = city(state, "rome")
    assert state.pos[rome][0] == state.pos[rome][1] == 2
    assert ScoringTheMarkers.rank(state, rome)[:2] == [0, 1]


def test_no_marker_past_bonus_space_15() -> None:
    """'Note: players cannot move their markers past the bonus space 15.'"""
    state = started(3)
    venice = city(state, "venice")
    last = state.rules.last_space
    assert state.rules.bonus[last] == 15  # the last space is the 15 bonus space
    state.pos[venice][0] = last - 1
    PlacingTheShipCard.move(state, 0, venice, 3, [])
    assert state.pos[venice][0] == last


def test_value_one_token_moves_its_port_marker_wherever_the_ship_went() -> None:
    """'Tokens with value 1 also show a goods symbol ... he moves his marker on the track of the
    port matching the symbol shown on the token forward one space ... regardless of which port
    the ship card was played at'."""
    state = started(3)
    play(state, "draw 5 gold0 grain2 cloth2 scrolls0 token", "flag pirate", "port naples")
    assert state.phase == "token"
    events = play(state, "token arts-1-venice")
    assert state.pos[city(state, "venice")][0] == 1
    assert state.tokens[0] == ["arts-1-venice"]
    assert state.phase == "reveal" and state.current_player() == CHANCE
    play(state, "reveal sciences-1-rome")
    assert sorted(state.face_up) == ["architecture-2", "sciences-1-rome", "sciences-2"]
    assert any(e.kind == "token_taken" for e in events)


def test_next_player_is_left_of_the_taker() -> None:
    """'After the player has placed the ship ..., the player to his left begins his turn.'"""
    state = started(5)
    play(
        state,
        "draw 1 gold2 grain1 cloth0 scrolls0 no-token",
        "pass",
        "pass",
        "flag pirate",
        "port venice",
    )  # seat 3 takes
    assert state.active == 3 and state.phase == "draw"


def test_seats_without_flags_are_skipped() -> None:
    """'When a player has used all three of his flags in a round, he can no longer take part
    ... he is simply skipped and the turn passes to the following player.'"""
    state = started(3)
    take(
        state, "1 gold2 grain1 cloth0 scrolls0 no-token", "pirate", "venice"
    )  # seat 1 takes; seat 2 is active
    play(
        state,
        "draw 2 gold0 grain2 cloth1 scrolls1 no-token",
        "pass",
        "pass",
        "flag plus",
        "port rome",
    )  # seat 1 takes again
    play(
        state,
        "draw 5 gold0 grain1 cloth0 scrolls0 no-token",
        "pass",
        "pass",
        "flag goods",
        "port naples",
    )
    assert state.flags[0] == [] and state.active == 1
    play(state, "draw 4 gold2 grain0 cloth0 scrolls2 no-token", "pass")
    assert state.current_player() == 2
    play(state, "flag pirate", "port venice")  # seat 3 takes: seat 1 is skipped, seat 2 is next
    assert state.active == 1
    play(
        state, "draw 7 gold0 grain0 cloth0 scrolls1 no-token", "pass", "pass"
    )  # seat 1, last in the offer, has no flag
    assert state.phase == "draw" and state.active == 1


def full_round(state) -> None:
    """Three players each take three ships directly with pirate, plus and goods flags."""
    plan = [
        ("8 gold0 grain0 cloth0 scrolls1 no-token", "pirate", "venice"),  # seat 1: 8 sails
        ("7 gold0 grain0 cloth0 scrolls1 no-token", "pirate", "venice"),  # seat 2: 7 sails
        ("1 gold2 grain1 cloth0 scrolls0 no-token", "pirate", "venice"),  # seat 3: 1 sail
        ("5 gold0 grain1 cloth0 scrolls0 no-token", "plus", "rome"),
        ("4 gold0 grain1 cloth1 scrolls0 no-token", "plus", "rome"),
        ("3 gold0 grain2 cloth0 scrolls0 no-token", "plus", "rome"),
        ("5 gold0 grain0 cloth1 scrolls0 token", "goods", "naples"),
        ("6 gold0 grain0 cloth1 scrolls1 token", "goods", "naples"),
        ("1 gold1 grain0 cloth2 scrolls0 token", "goods", "naples"),
    ]
    for ship, flag, port in plan:
        take(state, ship, flag, port)


def test_round_ends_when_all_flags_are_used_and_ships_score() -> None:
    """'The round ends when: all players have used their 3 flags'; 'At each port, the player
    with the ship positioned highest (fastest) earns 15 points ... second ... 10 points, and ...
    third ... 5 points.'"""
    state = started(3)
    full_round(state)
    assert state.round == 2
    # Venice: 8, 7, 1 sails -> seats 1, 2, 3; Rome: 5+1, 4+1, 3+1; Naples: 5, 6, 1 sails
    ship_money = [15 + 15 + 10, 10 + 10 + 15, 5 + 5 + 5]
    markers = _marker_money(state)
    assert state.money == [ship_money[s] + markers[s] for s in range(3)]


def _marker_money(state) -> list[int]:
    """Marker money recomputed from positions, independently of the engine's scoring."""
    money = [0, 0, 0]
    for c in range(4):
        order = sorted(range(3), key=lambda s: (-state.pos[c][s], state.stamp[c][s]))
        scoring = [s for s in order if state.pos[c][s] > 0]
        for seat, points in zip(scoring, (15, 10, 5), strict=False):
            money[seat] += points
        for seat in scoring:
            money[seat] += state.rules.bonus.get(state.pos[c][seat], 0)
    return money


def test_start_space_scores_nothing_and_bonus_spaces_pay() -> None:
    """'Markers on the starting space earn no points, regardless of their position.' and 'If a
    player has his marker on one of the bonus spaces (5, 10 or 15), he earns those points in
    addition to the others'."""
    state = started(3)
    five = next(space for space, points in state.rules.bonus.items() if points == 5)
    state.pos[city(state, "florence")] = [five, 0, 0]
    state.phase = "scoring"
    events: list = []
    EndOfTheRound.score(state, events)
    florence = [e for e in events if e.kind in ("award",) and e["city"] == "florence"]
    assert [(e["player"], e["points"], e["reason"]) for e in florence] == [
        (0, 15, "marker"),
        (0, 5, "bonus"),
    ]


def test_new_round_flags_back_start_player_highest_in_florence_markers_stay() -> None:
    """'Each player takes back his own flags ... The player whose turn it is for the new round
    is the player with the marker in the highest position in the city of Florence.' and
    'player markers remain where they were in the previous round.'"""
    state = started(3)
    full_round(state)
    florence = city(state, "florence")
    best = min(range(3), key=lambda s: (-state.pos[florence][s], state.stamp[florence][s]))
    assert state.round == 2 and state.active == best
    assert state.flags == [["pirate", "plus", "goods"]] * 3
    assert state.ports == [[], [], []] and state.drawn == 0
    assert any(p > 0 for row in state.pos for p in row)


def test_progress_majorities_with_florence_tie_break() -> None:
    """'The player with the greatest value of tokens in one of the three categories ... earns
    30 points ... second-highest ... 20 points, and the third earns 10 points. In case of a tie,
    the player with the marker in the better position in the city of Florence is considered the
    winner of that tie.'"""
    state = started(4)
    state.tokens = [["arts-2"], ["arts-1-rome", "arts-1-venice"], ["arts-1-naples"], []]
    state.pos[city(state, "florence")] = [1, 3, 0, 0]
    events: list = []
    EndOfTheGame.score_progress(state, events)
    awards = [(e["player"], e["points"]) for e in events if e["category"] == "arts"]
    assert awards == [(1, 30), (0, 20), (2, 10)]  # seat 4 has no arts token: nothing


def test_winner_by_money_tie_by_florence() -> None:
    """'Players reveal their money, and the one with the greatest sum is the winner. In case of
    a tie, the player who has the marker in the better position in the city of Florence wins.'"""
    state = started(3)
    state.money = [40, 55, 55]
    state.pos[city(state, "florence")] = [9, 2, 4]
    assert state.winner() == [2]
    state.pos[city(state, "florence")] = [9, 4, 4]  # seat 2 arrived first on space 4
    state.stamp[city(state, "florence")] = [5, 6, 7]
    assert state.winner() == [1]


def test_game_ends_after_three_rounds_with_final_events() -> None:
    """'After a complete third round, including the scoring phase, points are counted for the
    progress tokens.'"""
    state = started(3)
    rounds_seen = []
    while not state.is_over():
        rounds_seen.append(state.round)
        state.apply(state.legal_actions()[0])
    assert max(rounds_seen) == 3 and state.phase == "over"
    assert state.current_player() is None and state.winner()
