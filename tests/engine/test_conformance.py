"""The shared conformance suite: every game registered in `engine` runs all of it.

Playout counts: TAVOLA_PLAYOUTS (default 200 per player count, as CI requires).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from types import MappingProxyType
from typing import Any

import pytest

import engine
from engine.core import (
    CHANCE,
    Action,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Observation,
    UnknownNotation,
    derive,
    random_action,
)

from .conformance import MAX_ACTIONS, final_state, new_state, other_seat, playout, snapshot

PLAYOUTS = int(os.environ.get("TAVOLA_PLAYOUTS", "200"))
DEEP = int(os.environ.get("TAVOLA_DEEP_PLAYOUTS", "6"))
STRIDE = 3
"""The illegal-input test tries its refusals at every third position of a game, and at
the first of each phase (each try snapshots the whole state twice)."""

CASES = [
    pytest.param(name, n, id=f"{name}-{n}p")
    for name in engine.games()
    for n in range(engine.get(name).min_players, engine.get(name).max_players + 1)
]


def test_games_are_registered() -> None:
    assert "strozzi" in engine.games()
    for name in engine.games():
        game = engine.get(name)
        assert game.name == name
        assert 1 <= game.min_players <= game.max_players


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_playouts_terminate_with_invariants(name: str, players: int) -> None:
    """Random games end; invariants hold at every step; scores and winner exist at the end."""
    game = engine.get(name)
    total_actions = 0
    for seed in range(PLAYOUTS):
        state = None
        for state, _action in playout(game, players, seed):
            broken = state.invariants()
            assert not broken, f"seed {seed} step {len(state.history)}: {broken}"
            total_actions += 1
        assert state is not None
        # the loop leaves `state` advanced past its last action: it is over now
        assert state.is_over() and state.current_player() is None
        assert state.legal_actions() == ()
        assert not state.invariants()
        scores = state.scores()
        assert len(scores) == players and all(isinstance(s, int) for s in scores)
        winners = state.winner()
        # a solo game against an automa can be lost: then no seat at the table wins
        assert winners or players == 1
        assert set(winners) <= set(range(players))
        assert len(set(winners)) == len(winners)
    assert total_actions > PLAYOUTS  # every game took more than one action


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_legal_action_applies_and_notation_round_trips(name: str, players: int) -> None:
    """At every step, each legal action applies to a clone; str() and parse_action invert."""
    game = engine.get(name)
    for seed in range(DEEP):
        for state, _ in playout(game, players, 10_000 + seed):
            legal = state.legal_actions()
            assert legal, "a game that is not over must offer an action"
            assert len({a.text for a in legal}) == len(legal), "duplicate notation"
            for action in legal:
                assert state.is_notation(action.text), f"{action.text!r} is not notation"
                assert state.parse_action(str(action)) == action
                assert state.parse_action(str(action).upper()) == action
                trial = state.clone()
                trial.apply(action)
                assert not trial.invariants()
            if state.current_player() == CHANCE:
                probs = [p for _, p in state.chance_outcomes()]
                assert abs(sum(probs) - 1.0) < 1e-9 and all(p > 0 for p in probs)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_illegal_inputs_raise_and_change_nothing(name: str, players: int) -> None:
    """Another seat's action, unknown notation and another phase's action are refused, each
    with the IllegalAction subclass a caller can tell apart; notation that is merely not
    possible now is a plain IllegalAction."""
    game = engine.get(name)
    rng = derive(7, "illegal", name, players)
    for seed in range(DEEP):
        seen: set[str] = set()
        phases: set[str] = set()
        for i, (state, _) in enumerate(playout(game, players, 20_000 + seed)):
            seen.update(a.text for a in state.legal_actions())
            if i % STRIDE and state.phase in phases:
                continue  # every STRIDE-th position, and the first of each phase
            phases.add(state.phase)
            before = snapshot(state)
            legal = state.legal_actions()
            action = rng.choice(legal)
            intruder = other_seat(state, rng)
            attempts: tuple[tuple[Any, tuple[Any, ...], dict[str, Any], type], ...] = (
                (state.apply, (Action(intruder, action.text),), {}, NotYourTurn),
                (state.parse_action, (action.text,), {"player": intruder}, NotYourTurn),
                (state.apply, ("xyzzy 42",), {}, UnknownNotation),
                (state.apply, ("",), {}, UnknownNotation),
                (state.apply, (Action(action.player, action.text + " extra"),), {}, IllegalAction),
            )
            for call, args, kwargs, kind in attempts:
                with pytest.raises(IllegalAction) as info:
                    call(*args, **kwargs)
                assert type(info.value) is kind, (args, info.value)
                assert isinstance(info.value, ValueError)
                assert str(info.value).strip(), "an IllegalAction needs a message"
                assert snapshot(state) == before
            elsewhere = sorted(seen - {a.text for a in legal})
            for text in rng.sample(elsewhere, min(3, len(elsewhere))):
                with pytest.raises(IllegalAction) as info:
                    state.apply(text)
                assert type(info.value) is IllegalAction, (text, info.value)
                assert snapshot(state) == before
        over = final_state(game, players, 20_000 + seed)
        before = snapshot(over)
        for text in sorted(seen)[:5]:
            with pytest.raises(GameOver, match="over"):
                over.apply(text)
        assert snapshot(over) == before


@pytest.mark.parametrize(("name", "players"), CASES)
def test_dict_and_clone_round_trips_continue_identically(name: str, players: int) -> None:
    """from_dict(to_dict(s)) and s.clone() at random steps play on exactly like s."""
    game = engine.get(name)
    for seed in range(DEEP):
        actions = [a for _, a in playout(game, players, 30_000 + seed)]
        cut = (seed * 7919) % max(1, len(actions))
        state = new_state(game, players, 30_000 + seed)
        for action in actions[:cut]:
            state.apply(action)
        restored = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
        copied = state.clone()
        assert snapshot(restored) == snapshot(state) == snapshot(copied)
        for action in actions[cut:]:
            events = [s.apply(action) for s in (state, restored, copied)]
            assert events[0] == events[1] == events[2]
            assert snapshot(restored) == snapshot(state) == snapshot(copied)
        assert state.is_over() and restored.is_over() and copied.is_over()


def shuffled_keys(value: Any, rng: random.Random) -> Any:
    """`value` with the keys of every JSON object in another order, as a JSON store that
    does not keep key order may give it back (arrays keep theirs: their order is data)."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {k: shuffled_keys(value[k], rng) for k in keys}
    if isinstance(value, list):
        return [shuffled_keys(v, rng) for v in value]
    return value


def observations(state: Any) -> list[Any]:
    """The public observation and every seat's."""
    return [state.observe(), *(state.observe(p) for p in range(state.players))]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_restored_state_does_not_depend_on_json_key_order(name: str, players: int) -> None:
    """`to_dict()` is plain JSON, whose objects have no key order: restored from a record
    whose every object lists its keys in another order, a state offers the same legal
    actions in the same order, observes the same, and plays on exactly as the original
    from the same random stream (the same chance draws). Checked at several points of
    random games, the draws pending included."""
    game = engine.get(name)
    for seed in range(max(2, DEEP // 2)):
        actions = [a for _, a in playout(game, players, 50_000 + seed)]
        rng = derive(seed, "key-order", name, players)
        for cut in sorted(rng.sample(range(len(actions)), min(4, len(actions)))):
            state = new_state(game, players, 50_000 + seed)
            for action in actions[:cut]:
                state.apply(action)
            record = json.loads(json.dumps(shuffled_keys(state.to_dict(), rng)))
            restored = game.state_from_dict(record)
            assert snapshot(restored) == snapshot(state)
            draws = [derive(seed, "continue", cut) for _ in range(2)]
            for step in range(MAX_ACTIONS):
                where = f"seed {50_000 + seed}, restored after {cut}, then {step} actions"
                assert restored.legal_actions() == state.legal_actions(), where
                if state.current_player() == CHANCE:
                    assert restored.chance_outcomes() == state.chance_outcomes(), where
                if step % 16 == 0 or state.is_over():  # the views; not at every step (cost)
                    assert observations(restored) == observations(state), where
                if state.is_over():
                    break
                action = random_action(state, draws[0])
                assert random_action(restored, draws[1]) == action, where
                state.apply(action)
                restored.apply(action)
            assert restored.is_over() and snapshot(restored) == snapshot(state)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_clone_is_independent(name: str, players: int) -> None:
    game = engine.get(name)
    for state, action in playout(game, players, 40_000):
        before = snapshot(state)
        other = state.clone()
        other.apply(action)
        assert snapshot(state) == before
        if len(state.history) > 40:
            break


@pytest.mark.parametrize(("name", "players"), CASES)
def test_seed_and_actions_reproduce_the_state(name: str, players: int) -> None:
    """Determinism: the same seed and action texts give the same state."""
    game = engine.get(name)
    for seed in range(3):
        end = final_state(game, players, 50_000 + seed)
        replay = new_state(game, players, 50_000 + seed)
        for action in end.history:
            replay.apply(str(action))
        assert snapshot(replay) == snapshot(end)
        assert replay.scores() == end.scores() and replay.winner() == end.winner()


def immutable(value: Any, path: str = "observation") -> list[str]:
    """Paths inside `value` that could be changed: anything but scalars, tuples, frozensets,
    read-only mappings and frozen dataclasses, all the way down."""
    if value is None or isinstance(value, bool | int | float | str):
        return []
    if isinstance(value, tuple | frozenset):
        return [p for i, v in enumerate(value) for p in immutable(v, f"{path}[{i}]")]
    if isinstance(value, MappingProxyType):
        return [p for k, v in value.items() for p in immutable((k, v), f"{path}[{k!r}]")]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return [f"{path} ({type(value).__name__}, not frozen)"]
        return [
            p
            for f in dataclasses.fields(value)
            for p in immutable(getattr(value, f.name), f"{path}.{f.name}")
        ]
    return [f"{path} ({type(value).__name__})"]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_observations_are_frozen_values_that_follow_the_state(name: str, players: int) -> None:
    """observe() for the table and for every seat: frozen all the way down, the common part
    as the state says, and observing changes nothing."""
    game = engine.get(name)
    for state, _ in playout(game, players, 60_000):
        before = snapshot(state)
        for seat in (None, *range(state.seats)):
            obs = state.observe(seat)
            assert isinstance(obs, Observation) and obs.seat == seat
            assert not immutable(obs), immutable(obs)
            assert (obs.game, obs.players, obs.phase) == (name, state.players, state.phase)
            assert obs.current == state.current_player() and obs.prompt == state.describe()
            assert obs.over == state.is_over() and obs.setup == state.in_setup()
            assert obs.scores is None or obs.scores == tuple(state.scores())
        assert snapshot(state) == before
        with pytest.raises(ValueError, match="no seat"):
            state.observe(state.seats)
        if len(state.history) > 120:
            break
    over = final_state(game, players, 60_000)
    final = over.observe()
    assert final.over and final.scores == tuple(over.scores())
    assert final.winner == tuple(over.winner())
