"""docs/rules-index.md: every rulebook heading maps to one symbol that exists, and every rule
unit of a game is listed under its own heading."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.core import Rule, Rulebook, in_phases

INDEX = Path(__file__).parents[2] / "docs" / "rules-index.md"
ROW = re.compile(r"^\|\s*(?P<heading>[^|`]+?)\s*\|\s*`(?P<symbol>[\w.]+)`\s*\|\s*$")


def sections() -> dict[str, list[tuple[str, str]]]:
    """Game title -> [(heading, symbol)] in the page's order."""
    found: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for line in INDEX.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = found.setdefault(line[3:].strip(), [])
        elif current is not None and (m := ROW.match(line)):
            current.append((m["heading"], m["symbol"]))
    return found


def resolve(symbol: str) -> Any:
    """The object named by a dotted path: the longest importable module, then attributes."""
    parts = symbol.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ModuleNotFoundError(symbol)


def rulebooks() -> dict[str, Rulebook[Any]]:
    """Game title -> its Rulebook, for the games that declare one."""
    books = {}
    for name in engine.games():
        book = getattr(importlib.import_module(f"engine.{name}"), "RULEBOOK", None)
        if isinstance(book, Rulebook):
            books[engine.get(name).title] = book
    return books


TITLES = {engine.get(name).title for name in engine.games()}


def test_the_index_has_a_section_per_game_with_a_rulebook() -> None:
    found = sections()
    assert found, "no game sections in docs/rules-index.md"
    assert set(found) <= TITLES, f"sections for unknown games: {set(found) - TITLES}"
    assert set(rulebooks()) <= set(found)


@pytest.mark.parametrize("title", sorted(sections()))
def test_every_heading_has_one_home_that_exists(title: str) -> None:
    rows = sections()[title]
    assert rows, f"{title}: no headings listed"
    headings = [h for h, _ in rows]
    symbols = [s for _, s in rows]
    assert len(set(headings)) == len(headings), "a heading listed twice"
    assert len(set(symbols)) == len(symbols), "two headings share one home"
    for heading, symbol in rows:
        obj = resolve(symbol)
        assert obj.__doc__ and obj.__doc__.strip(), f"{symbol} has no docstring"
        if isinstance(obj, type) and issubclass(obj, Rule):
            assert obj.heading == heading, f"{symbol} is the home of {obj.heading!r}"


@pytest.mark.parametrize("title", sorted(rulebooks()))
def test_every_rule_unit_is_listed_under_its_heading(title: str) -> None:
    listed = {heading: resolve(symbol) for heading, symbol in sections()[title]}
    for rule in rulebooks()[title].rules:
        assert listed.get(rule.heading) is type(rule), (
            f"{type(rule).__name__} ({rule.heading!r}) is not in docs/rules-index.md"
        )
        assert '"' in (type(rule).__doc__ or "") or "'" in (type(rule).__doc__ or ""), (
            f"{type(rule).__name__} should quote the rulebook"
        )


def test_resolve_fails_for_a_symbol_that_does_not_exist() -> None:
    with pytest.raises(AttributeError):
        resolve("engine.strozzi.rules.NoSuchRule")


def test_two_rules_claiming_one_verb_in_one_phase_are_refused() -> None:
    class One(Rule[Any]):
        heading = "One"
        plays = {"draw": ("draw",)}  # noqa: RUF012 - a test double

    class Two(Rule[Any]):
        heading = "Two"
        plays = {"draw": ("draw",)}  # noqa: RUF012 - a test double

    with pytest.raises(ValueError, match="two homes"):
        Rulebook("Test", [One(), Two()])


class _Toy:
    """A state for the rulebook's own tests: a phase and a log of what the rules did."""

    def __init__(self, phase: str) -> None:
        self.phase = phase
        self.done: list[str] = []


class _Goods(Rule[Any]):
    """'take a cube'"""

    heading = "Cubes"
    plays = in_phases(stop=("take cube",))
    refuses = in_phases(move=("take cube",))

    def texts(self, state: Any) -> list[str]:
        return ["take cube red"]

    def apply(self, state: Any, verb: str, arg: str, events: list) -> None:
        state.done.append(f"{type(self).__name__}: {verb} / {arg}")

    def refuse(self, state: Any, verb: str, arg: str) -> str | None:
        if state.phase == "move":
            return "Goods are taken where a move ends."
        return f"{type(self).__name__} refuses {verb!r} {arg!r}"


class _Wares(_Goods):
    """'take a tile'"""

    heading = "Wares"
    plays = in_phases(stop=("take tile", "end"))
    refuses = in_phases()

    def texts(self, state: Any) -> list[str]:
        return ["take tile top", "end"]


def test_two_headings_share_a_verb_by_its_first_word() -> None:
    goods, wares = _Goods(), _Wares()
    book = Rulebook("Toy", [goods, wares])
    state = _Toy("stop")
    book.apply(state, "take tile top")
    book.apply(state, "take cube red")
    book.apply(state, "end")
    assert state.done == ["_Wares: take tile / top", "_Goods: take cube / red", "_Wares: end / "]
    assert book.verbs == ("take", "end") and book.is_notation("take anything")
    # no form matches: the first rule that claims a form of the verb explains it
    assert book.explain(state, "take coin", "") == "_Goods refuses 'take' 'coin'"
    assert book.explain(state, "take tile", "") == "_Wares refuses 'take tile' ''"


def test_a_rule_explains_its_verb_where_it_is_never_possible() -> None:
    book = Rulebook("Toy", [_Goods(), _Wares()])
    move = _Toy("move")
    assert book.texts(move) == []  # refusing is not playing: nothing is offered
    assert book.explain(move, "take cube red", "Waiting.") == "Goods are taken where a move ends."
    assert book.explain(move, "end", "Waiting.") == "'end' is not possible now. Waiting."
    with pytest.raises(ValueError, match="two homes"):
        Rulebook("Toy", [_Goods(), _Goods()])


def test_a_phase_offers_its_rules_actions_in_the_order_given() -> None:
    goods, wares = _Goods(), _Wares()
    state = _Toy("stop")
    assert Rulebook("Toy", [wares, goods]).texts(state) == [
        "take tile top", "end", "take cube red"
    ]  # fmt: skip
    ordered = Rulebook("Toy", [wares, goods], offers={"stop": (goods, wares)})
    assert ordered.texts(state) == ["take cube red", "take tile top", "end"]
    with pytest.raises(ValueError, match="play nothing in phase move"):
        Rulebook("Toy", [wares, goods], offers={"move": (goods,)})
