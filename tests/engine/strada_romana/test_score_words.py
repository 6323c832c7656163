"""Strada Romana's Score in words: every point a step with its sentence, the steps adding
up to the scores, coins said as they are paid, the wagon tiles kept secret until the
reveal, and the tie-break named in the result."""

from __future__ import annotations

import re

import pytest

from engine.core import breakdown, derive, points_text, random_action, replayed, seat_name
from engine.strada_romana import GAME, StradaRomanaState

from .helpers import WAGONS, arrange, play, started
from .test_golden import give


def played(players: int, seed: int, **options: object) -> StradaRomanaState:
    state = GAME.new_state(players, seed=seed, options=options)
    rng = derive(seed, "score words")
    while not state.is_over():
        state.apply(random_action(state, rng))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("wagon_tiles", ["at_end", "when_taken"])
def test_the_breakdown_adds_up_to_every_seats_score(players: int, wagon_tiles: str) -> None:
    """'Victory Points + Wagon Points + Total contract Points = FINAL SCORE': every point
    is a step of one of the three, so no line of the breakdown says 'other'."""
    for seed in range(4):
        state = played(players, seed, wagon_tiles=wagon_tiles)
        table = breakdown(state)
        assert [(p, table.total(p)) for p, _ in state.standings()] == state.standings()
        assert set(table.kinds) <= {"Victory Points", "wagon tiles", "contracts"}
        for p, line in enumerate(table.lines(seat_name, state.standings())):
            assert "other" not in line, line
            assert line.startswith(f"seat {p + 1}: ") and line.endswith(f"= {state.scores()[p]}")
            points = table.points.get(p, {})
            assert points.get("Victory Points", 0) == state.vp[p]
            assert points.get("wagon tiles", 0) == state.wagon_points(p)
            assert points.get("contracts", 0) == state.contract_points(p)


def test_a_game_not_over_explains_its_score_too() -> None:
    """Before the end, the contracts a seat holds count already (the wagon tiles do not,
    ruling 20): the breakdown of an unfinished game still adds up, with no 'other'."""
    for seed in range(6):
        whole = played(3, seed)
        state = GAME.new_state(3, seed=seed)
        for action in whole.history[: len(whole.history) * (seed + 2) // 9]:
            state.apply(action)
        assert not state.is_over()
        table = breakdown(state)
        assert [(p, table.total(p)) for p, _ in state.standings()] == state.standings()
        assert not any("other" in line for line in table.lines(seat_name, state.standings()))


def test_a_victory_point_is_said_with_the_coins_it_was_changed_from() -> None:
    """c) Pass: 'When a player decides to pass, he takes one coin and his turn is
    finished. If he owns 5 coins, he must change them into 1 Victory Point as usual.'"""
    state = arrange(started(3), coins={0: 4})
    events = state.apply("pass")
    assert state.news(events) == [
        "Seat 1 passes and takes 1 coin.",
        "Seat 1 changes 5 coins into a Victory Point (the coin of a pass): 1 point, "
        "now 1 Victory Point.",
    ]
    (step,) = state.score_steps(events)
    assert (step.player, step.points, step.kind) == (0, 1, "Victory Points")


def test_a_ware_tile_says_the_coins_it_pays() -> None:
    """Taking "Ware" Tiles: 'As soon as a "ware" tile is collected, the player takes one
    coin for each cube of the same colour currently on the board.' Coins are public: the
    table says how many, and the Victory Point they make."""
    state = arrange(started(4), coins={0: 4})
    play(state, "step ballio 112", "stop")
    events = state.apply("collect tile bottom")  # area II: red, three red cubes out
    assert state.news(events) == [
        "Seat 1 takes 3 coins for the red ware tile: 3 red cubes on the board.",
        "Seat 1 changes 5 coins into a Victory Point (the coins of a red ware tile): "
        "1 point, now 1 Victory Point.",
    ]
    state = started(4, cubes=("yellow",) * 6 + ("blue",) * 6 + ("green",) * 2)
    play(state, "step ballio 112", "stop")
    events = state.apply("collect tile bottom")
    assert state.news(events) == [
        "Seat 1's red ware tile pays no coins: no red cube is on the board."
    ]
    assert state.coins[0] == 0 and not state.score_steps(events)


def test_coins_the_supply_lacks_are_said_unpaid() -> None:
    """Components: '20 coins (yellow)': with every coin in the players' hands a payout
    takes nothing (ruling 17), and the table says so rather than a payment."""
    state = arrange(started(5), coins=dict.fromkeys(range(5), 4))
    play(state, "step ballio 112", "stop")
    events = state.apply("collect tile bottom")
    assert state.news(events) == [
        "Seat 1 takes 3 coins for the red ware tile: 3 red cubes on the board.",
        "Of these, 3 coins are not paid: all 20 coins are in the players' hands.",
    ]


def test_the_scoring_example_is_said_as_the_rulebook_counts_it() -> None:
    """Contracts: 'Score: 5 colours (yellow, green, red, blue, white) x maximum number: 4
    green contracts = 20. However he loses 2 Points: 1 for the single green "ware" tile and
    1 for the single brown cube. 20 - 2 = 18 points'. Wagon Tiles: 'a player has two
    "wagon tiles". At the end of the game, only one of them has arrived. The player scores
    2 points: 3 for the wagon that arrived, and -1 for the one still on the road.'"""
    contracts = {"yellow": 2, "green": 4, "red": 1, "blue": 2, "white": 1}
    state = give(
        started(4, options={"wagon_tiles": "when_taken"}),
        0,
        cubes={**contracts, "brown": 1},
        tiles={**contracts, "green": 5},
    )
    state = arrange(
        state,
        wagons={w: [None, "portus"] for w in ("persa", "plotus", "pseudolus")} | {"ballio": "351"},
        arrived=["persa", "plotus", "pseudolus"],
        wagon_tiles=[["ballio", "maccus"], [], [], []],
    )
    events = state.apply("step ballio rome")  # the fourth arrival ends the game
    assert state.is_over()
    mine = [s for s in state.score_steps(events) if s.player == 0]
    assert [(s.kind, s.points, s.sentence) for s in mine] == [
        ("wagon tiles", 3, "Seat 1's wagon tile Ballio: Ballio arrived, +3."),
        ("wagon tiles", -1, "Seat 1's wagon tile Maccus: Maccus has not arrived, -1."),
        (
            "contracts",
            18,
            "Seat 1's contracts: 5 colours x 4 most of one colour = 20; "
            "2 loose cubes or ware tiles: -2; 18 in all.",
        ),
    ]
    said = state.news(events)
    assert said[0] == "The game ends: the fourth wagon has reached its destination."
    assert "Seat 2's contracts: none." in said
    steps = state.score_steps(events)
    assert [sum(s.points for s in steps if s.player == p) for p in range(4)] == state.scores()


@pytest.mark.parametrize("wagon_tiles", ["at_end", "when_taken"])
def test_no_sentence_names_a_wagon_tile_before_the_reveal(wagon_tiles: str) -> None:
    """b) Choose a "Wagon Tile": 'The "wagon tiles" are always kept face down (the other
    players may know how many each player owns, but not which ones).' Wagon Tiles: 'When
    the game ends, all players reveal the "wagon tiles" they own.'"""
    names = re.compile(r"\b(" + "|".join(WAGONS) + r")\b", re.IGNORECASE)
    for seed in range(4):
        state = played(4, seed, wagon_tiles=wagon_tiles)
        held = sum(len(h) for h in state.wagon_tiles)
        assert held
        revealed = 0
        for _, events in replayed(state):
            said = state.news(events)  # what the table says: the steps among it
            assert {s.sentence for s in state.score_steps(events)} <= set(said)
            scored = [e for e in events if e.kind == "wagon_tile_scored"]
            if not scored:
                assert not any(names.search(s) for s in said), said
                continue
            # the Score: each tile's wagon said once, after every tile is named
            revealed += sum(1 for s in said if "'s wagon tile " in s)
            assert all(e.kind != "wagon_tile_revealed" for e in events[events.index(scored[0]) :])
        assert revealed == held


def test_a_tie_is_decided_by_coins() -> None:
    """Score: 'If two or more players tie, the winner is the player with more coins.'"""
    base = played(3, 2)
    scores = base.scores()
    top = max(scores) + 2
    # seats 1 and 3 tie at the top: Victory Points make up the difference
    state = arrange(base, vp={0: base.vp[0] + top - scores[0], 2: base.vp[2] + top - scores[2]})
    state = arrange(state, coins={0: 1, 1: 4, 2: 3})
    assert state.scores()[0] == state.scores()[2] == top > state.scores()[1]
    assert state.winner() == [2]
    assert state.result() == f"Seat 3 wins {points_text(state.scores())}. {state.tiebreak()}"
    assert state.tiebreak() == (
        f"Seat 1 and seat 3 have {top} points each; seat 3 wins the tie with more coins "
        "(3 against 1)."
    )


def test_a_tie_in_coins_too_is_lost_by_who_played_last() -> None:
    """Score: 'If there is still a tie, the player that played last loses.' Of the tied
    players, the one whose latest turn came later loses, until one is left (ruling 23)."""
    base = played(3, 2)
    scores = base.scores()
    top = max(scores) + 2
    vp = {s: base.vp[s] + top - scores[s] for s in range(3)}
    state = arrange(base, vp=vp, coins={0: 2, 1: 2, 2: 2}, last=[40, 42, 41])
    assert state.scores() == [top] * 3
    assert state.winner() == [0]
    assert state.tiebreak() == (
        f"Seat 1, seat 2 and seat 3 have {top} points and 2 coins each; the player that "
        "played last loses, until one is left: seat 1's latest turn came earliest, so "
        "seat 1 wins."
    )
    # two of them richer: the third is out on coins, then the later of the two loses
    state = arrange(state, coins={0: 1, 1: 2, 2: 2})
    assert state.winner() == [2]
    assert state.tiebreak() == (
        f"Seat 1, seat 2 and seat 3 have {top} points each, and seat 2 and seat 3 the "
        "most coins (2 coins each); seat 2 played last and loses the tie: seat 3 wins."
    )
    assert state.result().startswith(f"Seat 3 wins {top}-{top}-{top}. Seat 1, seat 2")
    # no tie: nothing to name
    state = arrange(state, vp={0: vp[0] + 1})
    assert state.winner() == [0] and state.tiebreak() is None
    assert state.result() == f"Seat 1 wins {top + 1}-{top}-{top}."
