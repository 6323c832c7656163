"""Views read a game only through its public observation (DESIGN.md, "One read path").

A view switched to the read model is listed in OBSERVING. Two checks, each able to fail:
every view method gives the same answer when handed an object that offers `observe()`
and nothing else, over whole random games; and no line of the view's module reads an
attribute of a state other than `observe`.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

import pytest

import engine
from apps.views import ViewContext, view_for
from engine.core import CHANCE, Action, Observation, State, derive, random_action

OBSERVING = ("strozzi", "strada_romana")
"""Games whose view reads only `state.observe()`; the other views follow."""


class Observed:
    """A state reduced to its read model: any attribute but `observe` raises."""

    __slots__ = ("_state",)

    def __init__(self, state: State) -> None:
        self._state = state

    def observe(self, seat: int | None = None) -> Observation:
        assert seat is None, "the board is the whole table's: a view observes as the public"
        return self._state.observe(None)


def answers(view: Any, state: Any, action: Action, events: list, ctx: ViewContext) -> list:
    """What every state-reading method of a view says about `state`."""
    out = [
        view.render(state, ctx),
        view.setup_frame(state, ctx),
        view.in_setup(state),
        view.chance_actor(state),
        [view.seat_active(state, p) for p in range(len(ctx.colours))],
        view.hint(state, action.words[:1], ctx),
        view.candidate_hint(state, action, ctx),
        view.public_text(state, action),
        view.scoring_steps(state, events, ctx),
    ]
    if action.player == CHANCE:
        out.append(view.describe_chance(state, action))
    return out


@pytest.mark.parametrize("name", OBSERVING)
def test_the_view_needs_nothing_but_the_observation(name: str) -> None:
    game, view = engine.get(name), view_for(name)
    for players in range(game.min_players, game.max_players + 1):
        ctx = ViewContext(colours=tuple((40 * p, 200 - 30 * p, 7) for p in range(players)))
        for seed in range(3):
            state = game.new_state(players, seed=seed)
            rng = derive(seed, "read model", name)
            events: list = []
            while not state.is_over():
                action = random_action(state, rng)
                seen = answers(view, state, action, events, ctx)
                assert answers(view, Observed(state), action, events, ctx) == seen
                events = state.apply(action)


def _state_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, attribute) for every `state.X` in a module, X other than `observe`."""
    return [
        (node.lineno, node.attr)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "state"
        and node.attr != "observe"
    ]


@pytest.mark.parametrize("name", OBSERVING)
def test_no_line_of_the_view_reads_a_state_field(name: str) -> None:
    module = inspect.getmodule(type(view_for(name)))
    assert module is not None
    assert _state_reads(ast.parse(inspect.getsource(module))) == []


def test_the_source_check_catches_a_field_read() -> None:
    sample = "def render(state):\n    obs = state.observe()\n    return state.money\n"
    assert _state_reads(ast.parse(sample)) == [(3, "money")]
