"""Scores that explain themselves: every scoring step is a sentence, the steps add up to
the scores, and the result names the tie-break that decided it (engine.core.scoring)."""

from __future__ import annotations

import itertools

import pytest

import engine
from engine.core import breakdown, derive, random_action, replayed
from engine.strozzi import StrozziObservation


def played(name: str, players: int, seed: int):
    state = engine.get(name).new_state(players, seed=seed)
    rng = derive(seed, "score steps", name)
    while not state.is_over():
        state.apply(random_action(state, rng))
    return state


GAMES = [("strozzi", n) for n in range(3, 7)] + [("florence", n) for n in range(1, 6)]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_the_steps_add_up_to_every_seats_score(name: str, players: int) -> None:
    """Every point scored is a step of the breakdown: nothing is scored silently."""
    for seed in range(2):
        state = played(name, players, seed)
        table = breakdown(state)
        assert [(p, table.total(p)) for p, _ in state.standings()] == state.standings()
        assert all(table.points[p] for p, v in state.standings() if v)


def test_strozzi_ships_are_said_by_port_and_rank() -> None:
    """'At each port, the player with the ship positioned highest (fastest) earns 15
    points. The player with the second ship at that port earns 10 points, and the player
    with the third ship at that port earns 5 points.'"""
    state = engine.get("strozzi").new_state(4, seed=3)
    rng = derive(3, "ships")
    while True:
        before = state.observe()
        assert isinstance(before, StrozziObservation)
        events = state.apply(random_action(state, rng))
        if any(e.kind == "round_scored" for e in events):
            break
    said = [s.sentence for s in state.score_steps(events) if s.kind == "ships"]
    seats = {port.name: [entry.seat for entry in port.ships] for port in before.ports}
    for e in events:  # the round's last ship may be placed by the action that scores it
        if e.kind == "ship_placed":
            seats[e["port"]].insert(e["rank"] - 1, e["player"])
    expected = [
        f"Seat {seat + 1}'s ship is {rank} in {port.capitalize()}: {points}."
        for port, queue in seats.items()
        for rank, points, seat in zip(("1st", "2nd", "3rd"), (15, 10, 5), queue, strict=False)
    ]
    assert said == expected and len(said) >= 3


def test_strozzi_round_scoring_says_payouts_never_totals() -> None:
    """'Players may keep the amount of their money secret': a round's scoring is public
    as payouts; the round's event carries no money, and no step names a total."""
    state = engine.get("strozzi").new_state(3, seed=1)
    rng = derive(1, "secret")
    while True:
        events = state.apply(random_action(state, rng))
        if any(e.kind == "round_scored" for e in events):
            break
    scored = next(e for e in events if e.kind == "round_scored")
    assert "money" not in scored.data
    steps = state.score_steps(events)
    assert steps and all(
        s.sentence.endswith((f": {s.points}.", f": {s.points} more.")) for s in steps
    )
    assert state.observe().scores is None


def test_strozzi_a_tie_is_decided_by_florence_and_said() -> None:
    """'Players reveal their money, and the one with the greatest sum is the winner. In
    case of a tie, the player who has the marker in the better position in the city of
    Florence wins.'"""
    state = played("strozzi", 3, 2)
    florence = state.observe().tracks[-1]
    better, worse = florence.order[0], florence.order[1]
    state.money[better] = state.money[worse] = max(state.money) + 5
    assert state.winner() == [better]
    result = state.result()
    assert result.startswith(f"Seat {better + 1} wins ")
    assert "wins the tie with the better marker in Florence" in result
    assert state.tiebreak() is not None
    state.money[worse] += 1
    assert state.tiebreak() is None and "tie" not in state.result()


def test_florence_a_tie_is_decided_by_family_members_then_gifts() -> None:
    """'In the case of a tie, the player with the most Family Members on the main board
    wins. If a tie persists, the player who has given the most Gifts wins. If a tie still
    persists, players rejoice in their shared victory!'"""
    state = played("florence", 2, 1)
    state.vp[0] = state.vp[1] = 50
    family = [state.family_on_board(s) for s in (0, 1)]
    result = state.result()
    if family[0] != family[1]:
        won = 0 if family[0] > family[1] else 1
        assert state.winner() == [won]
        assert f"seat {won + 1} wins the tie with more Family Members on the main board" in result
    else:
        assert "Gifts" in result
    assert result.startswith("Seat 1 and seat 2 share") == (len(state.winner()) == 2)


def test_florence_solo_names_the_automa_as_the_winner() -> None:
    """Solo, End of the Game: 'If you have more VP than Strozzi, you win!'"""
    state = played("florence", 1, 2)
    human, automa = state.vp[0], state.vp[state.automa]
    assert state.winner() == [] and automa > human  # this seed's Strozzi wins
    assert state.result() == f"Strozzi (automa) wins {automa}-{human}."
    state.vp[0] = automa
    assert "must have more VP than Strozzi" in state.result()
    state.vp[0] = automa + 1
    assert state.result() == f"Seat 1 wins {automa + 1}-{automa}."


def test_florence_steps_name_the_queue_the_brag_and_the_final_scoring() -> None:
    """Queue scoring ('Complete the Queue scoring detailed on the active segment of the
    Noble dial') and 'Each player scores 1 VP for every 2 Time they have remaining'."""
    state = played("florence", 3, 0)
    assert {"Prime Positions", "time"} <= set(breakdown(state).kinds)
    sentences = [s.sentence for _, ev in replayed(state) for s in state.score_steps(ev)]
    assert any("VP for remaining time" in s for s in sentences)
    assert any("Prime Position at location" in s for s in sentences)


def test_strozzi_a_progress_tie_is_said_as_decided_by_florence() -> None:
    """'In case of a tie, the player with the marker in the better position in the city
    of Florence is considered the winner of that tie.' (progress tokens)"""
    found = 0
    for seed in range(12):
        state = played("strozzi", 5, seed)
        florence = state.observe().tracks[-1].order
        last = [ev for _, ev in replayed(state)][-1]
        awards = [e for e in last if e.kind == "award" and e["reason"] == "progress"]
        steps = {(s.player, s.sentence) for s in state.score_steps(last)}
        for a, b in itertools.pairwise(awards):
            if a["category"] == b["category"] and a["value"] == b["value"]:
                found += 1
                assert florence.index(a["player"]) < florence.index(b["player"])
                assert any(
                    p == a["player"] and "a tie decided by the better marker in Florence" in s
                    for p, s in steps
                )
    assert found
