"""docs/rules-index.md: every rulebook heading maps to one symbol that exists, and every rule
unit of a game is listed under its own heading."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.core import Rule, Rulebook

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
