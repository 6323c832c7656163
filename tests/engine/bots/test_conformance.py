"""Bots in play: every decision is a legal action, at every player count of every game,
and a game played by bots ends (or stops at its bound, said so)."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import (
    Bot,
    Budget,
    GreedyBot,
    IsmctsBot,
    RandomBot,
    judge,
    outcome,
    play_game,
)
from engine.core import PLAYOUT_LIMIT, Action, Game, State
from tests.engine.conformance import playout_options

CASES = [
    (name, players)
    for name in engine.games()
    for players in range(engine.get(name).min_players, engine.get(name).max_players + 1)
]


class Checked:
    """A bot whose every choice is checked against the legal actions before it is played
    (`State.apply` would refuse an illegal one too, but here it is the assertion)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        before = state.to_dict()
        action = self.bot.choose(state, seat, rng)
        assert state.current_player() == seat
        assert action in state.legal_actions(), f"{self.name} chose {action}"
        assert state.to_dict() == before, f"{self.name} changed the state it was shown"
        self.decisions += 1
        return action


def ladder(players: int) -> list[Checked]:
    """ISMCTS at seat 1, greedy at seat 2, random at the others (a small search budget:
    this checks legality, not strength)."""
    bots: list[Bot] = [IsmctsBot(Budget(playouts=4), playout_limit=150), GreedyBot()]
    return [Checked(b) for b in (bots + [RandomBot()] * players)[:players]]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_bots_choose_legal_actions_until_the_end(name: str, players: int) -> None:
    game = engine.get(name)
    for seed in range(2):
        state = game.new_state(players, seed=seed, options=playout_options(game, seed))
        seats = ladder(state.players)
        played = play_game(state, seats, seed)
        assert state.is_over(), f"{name} {players}p seed {seed}: stopped after {played}"
        assert played < PLAYOUT_LIMIT
        assert sum(s.decisions for s in seats) > 0
        assert state.invariants() == []


def test_a_playout_that_does_not_end_is_capped_and_counted() -> None:
    """Strada Romana's jam can go on for ever: a playout stops at the bound, is counted,
    and the decision is still a legal action."""
    game = engine.get("strada_romana")
    state = game.new_state(3, seed=4)
    rng = random.Random(4)
    while state.current_player() != 0 or len(state.legal_actions()) < 2:
        state.apply(RandomBot().choose(state, state.current_player(), rng))  # type: ignore[arg-type]
    bot = IsmctsBot(Budget(playouts=10), playout_limit=20)
    action = bot.choose(state, 0, random.Random(1))
    assert action in state.legal_actions()
    assert bot.stats.capped == 10
    assert bot.stats.iterations == 10
    assert bot.stats.actions == 10 * 20


def test_play_game_stops_at_its_bound() -> None:
    state = engine.get("strada_romana").new_state(2, seed=1)
    assert play_game(state, [RandomBot(), RandomBot()], 1, limit=30) == 30
    assert not state.is_over()
    assert len(state.history) == 30


def test_a_stopped_game_is_judged_by_its_standing() -> None:
    state = engine.get("strada_romana").new_state(3, seed=2)
    play_game(state, [RandomBot()] * 3, 2, limit=200)
    shares = outcome(state)
    best = max(v for _, v in state.standings())
    assert sum(shares) == pytest.approx(1.0)
    assert [s > 0 for s in shares] == [v == best for _, v in state.standings()]


def test_a_budget_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="at least 1 playout"):
        Budget(playouts=0)
    with pytest.raises(ValueError, match="needs a positive number and a clock"):
        Budget(seconds=0.1)


def test_a_budget_in_seconds_stops_the_search() -> None:
    """The clock is the caller's: a fake one that jumps a second per reading ends the
    search after the first iteration."""
    ticks = iter(range(1_000))
    bot = IsmctsBot(Budget(playouts=500, seconds=0.5, clock=lambda: float(next(ticks))))
    state = engine.get("strozzi").new_state(3, seed=1)
    rng = random.Random(3)
    while state.current_player() != 0 or len(state.legal_actions()) < 2:
        state.apply(RandomBot().choose(state, state.current_player(), rng))  # type: ignore[arg-type]
    assert bot.choose(state, 0, random.Random(2)) in state.legal_actions()
    assert bot.stats.iterations == 1


def _to_move(name: str, players: int, seed: int, skip: int = 0) -> State:
    """A random game of `name` at seat 0's first real choice after `skip` actions."""
    state = engine.get(name).new_state(players, seed=seed)
    rng = random.Random(seed)
    while (
        len(state.history) < skip or state.current_player() != 0 or (len(state.legal_actions()) < 2)
    ):
        state.apply(RandomBot().choose(state, state.current_player(), rng))  # type: ignore[arg-type]
    return state


CUT = [name for name in engine.games() if engine.get(name).horizon is not None]


def test_the_slow_games_declare_a_horizon() -> None:
    assert CUT == ["florence", "strada_romana"]


@pytest.mark.parametrize("name", CUT)
def test_a_playout_past_the_game_horizon_is_judged_by_its_evaluation(name: str) -> None:
    """A game with a horizon is searched with short playouts; without the cut, to the end."""
    state = _to_move(name, 3, seed=5)
    cut = IsmctsBot(Budget(playouts=12))
    assert cut.choose(state, 0, random.Random(1)) in state.legal_actions()
    assert (cut.stats.judged, cut.stats.capped, cut.stats.iterations) == (12, 0, 12)
    # each playout: a descent of a few actions, then at most the horizon
    assert cut.stats.actions <= 12 * (engine.get(name).horizon + 12)  # type: ignore[operator]
    full = IsmctsBot(Budget(playouts=12), cut=False)
    assert full.choose(state, 0, random.Random(1)) in state.legal_actions()
    assert full.stats.judged == 0
    assert full.stats.actions > cut.stats.actions * 3


@pytest.mark.parametrize("name", engine.games())
def test_judge_rewards_each_seat_by_its_lead_in_the_evaluation(name: str) -> None:
    """The best standing gets the most, a seat ahead of all others more than 0.5, one
    behind less, level seats 0.5; the order of the rewards is that of the standings."""
    for skip in (0, 40, 120):
        state = _to_move(name, 4, seed=skip, skip=skip)
        standing = state.game.evaluate_seats(state.observe(0), 0)
        shares = judge(state, 0)
        assert all(0.0 < s < 1.0 for s in shares)
        for s, value in enumerate(standing):
            others = max(v for o, v in enumerate(standing) if o != s)
            assert (shares[s] > 0.5) == (value > others), standing
            assert (shares[s] == 0.5) == (value == others), standing
        best = max(range(len(standing)), key=lambda s: standing[s])
        assert shares[best] == max(shares)


@pytest.mark.parametrize("name", engine.games())
def test_a_game_that_declares_no_evaluation_is_played_on_its_public_scores(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without its own `evaluate_seats` and `horizon` a game is judged by the scores the
    table may see (all level while they are secret), and the bots still play it."""
    state = _to_move(name, 3, seed=2, skip=40)
    monkeypatch.setattr(type(state.game), "evaluate_seats", Game.evaluate_seats)
    monkeypatch.setattr(type(state.game), "horizon", None)
    obs = state.observe(0)
    public = obs.scores if obs.scores is not None else [0] * obs.seats
    assert state.game.evaluate_seats(obs, 0) == [float(v) for v in public]
    for bot in (GreedyBot(), IsmctsBot(Budget(playouts=4))):
        assert bot.choose(state, 0, random.Random(3)) in state.legal_actions()
