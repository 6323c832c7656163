"""Views read a game only through its public observation (DESIGN.md, "One read path").

A view switched to the read model is listed in OBSERVING. Two checks, each able to fail:
every view method gives the same answer when handed an object that offers `observe()`
and nothing else, over whole random games; and no line of the view's module reads an
attribute of a state other than `observe`.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path
from typing import Any

import pytest

import apps
import engine
from apps.views import ViewContext, has_view, view_for
from engine.core import CHANCE, Action, Observation, State, derive, random_action

OBSERVING = ("strozzi", "florence", "strada_romana")
"""Games whose view reads only `state.observe()`: every game."""


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


def test_a_view_that_observes_only_is_held_to_it() -> None:
    """`View.observes_only` makes the table hand the view one observation per frame
    (apps.table.render.Seen): exactly the views this module checks may claim it."""
    claimed = tuple(g for g in engine.games() if has_view(g) and view_for(g).observes_only)
    assert set(claimed) == set(OBSERVING)


# --- the app modules: a game state is read through the base State contract only ---------
APPS = Path(apps.__file__).parent
STATE_NAMES = {"state", "trial", "replay"}
"""Variables that hold a game's state in the app modules (`x.state` and `x.after` too)."""


def _contract() -> set[str]:
    """What every State offers: its public methods and class attributes, the attributes
    `State.__init__` sets, and the annotated ones (`game`, `phase`)."""
    names = {n for n in dir(State) if not n.startswith("_")} | set(State.__annotations__)
    init = ast.parse(textwrap.dedent(inspect.getsource(State.__init__)))
    names |= {
        node.attr
        for node in ast.walk(init)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and isinstance(node.ctx, ast.Store)
    }
    return {n for n in names if not n.startswith("_")}


def _is_state(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in STATE_NAMES
    return isinstance(node, ast.Attribute) and node.attr in ("state", "after")


def _non_contract_reads(tree: ast.AST, contract: set[str]) -> list[tuple[int, str]]:
    """(line, attribute) for every read of a state's attribute outside `contract`,
    `getattr(state, "name")` and `hasattr` included."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_state(node.value):
            name, line = node.attr, node.lineno
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and _is_state(node.args[0])
            and isinstance(node.args[1], ast.Constant)
        ):
            name, line = str(node.args[1].value), node.lineno
        else:
            continue
        if name not in contract:
            found.append((line, name))
    return found


def _app_modules() -> list[Path]:
    """Every module of apps/ but the views (held to `observe()` alone, above)."""
    return sorted(p for p in APPS.rglob("*.py") if "views" not in p.relative_to(APPS).parts)


@pytest.mark.parametrize("path", _app_modules(), ids=lambda p: str(p.relative_to(APPS)))
def test_no_app_module_reads_a_game_field(path: Path) -> None:
    """The table, the scanner, the commands and the simulator read a game only through
    the base State contract (legal_actions, describe, observe, apply, to_dict, ...)."""
    assert _non_contract_reads(ast.parse(path.read_text()), _contract()) == []


def test_the_app_check_catches_a_field_read() -> None:
    sample = (
        "def texts(app, session, state):\n"
        "    a = state.legal_actions()\n"
        "    b = session.state.money\n"
        "    c = getattr(state, 'hands', None)\n"
        "    return app.state.describe(), state.players, state.phase\n"
    )
    contract = _contract()
    assert {"legal_actions", "describe", "players", "phase", "history"} <= contract
    assert _non_contract_reads(ast.parse(sample), contract) == [(3, "money"), (4, "hands")]
