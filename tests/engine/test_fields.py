"""Declared state fields: one declaration gives to_dict, from_dict and a generated clone."""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import pytest

from engine.core import (
    LISTS,
    MAPPING,
    OPTIONAL,
    SCALAR,
    SCALARS,
    TUPLES,
    Codec,
    Event,
    Field,
    Fields,
    Flow,
    Game,
    GameData,
    State,
    Stored,
    lists,
    optional,
    tuples,
)

DATA = GameData("toy", {}, "test")


class Step(NamedTuple):
    seat: int
    word: str


def _dump_pair(state: ToyState) -> list[int]:
    return [state.left, state.right]


def _load_pair(state: ToyState, d: Mapping[str, Any]) -> None:
    state.left, state.right = d["pair"]


class ToyState(State):
    """Every kind of field once, in a made-up game."""

    FIELDS = Fields(
        phase=SCALAR,
        count=SCALAR,
        row=SCALARS,
        grid=LISTS,
        pairs=TUPLES,
        maybe=OPTIONAL,
        table=MAPPING,
        steps=lists(of=Step),
        trail=tuples(of=Step),
        last=optional(of=Step),
        log=Field(tuples(of=Step, immutable=True), default=()),
        seen=Codec(dump=sorted, load=set, copy=set),
        index=Field(SCALARS, saved=False),
        left=Field(SCALAR, saved=False),
        right=Field(SCALAR, saved=False),
        pair=Stored(dump=_dump_pair, load=_load_pair),
        added=Field(SCALAR, default=7),
    )

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        self.phase = "play"
        self.count = 0
        self.row = [1, 2]
        self.grid = [[1], [2, 3]]
        self.pairs = [(1, 2)]
        self.maybe: list[int] | None = None
        self.table = {"a": 1}
        self.steps: list[list[Step]] = [[Step(0, "x")], []]
        self.trail = [Step(1, "y")]
        self.last: Step | None = None
        self.log: tuple[Step, ...] = ()
        self.seen = {3, 1}
        self.index = [9]
        self.left, self.right = 4, 5
        self.added = 7

    def _after_load(self) -> None:
        self.index = [len(self.row)]

    def current_player(self) -> int | None:
        return None if self.count >= 3 else 0

    def _legal_texts(self) -> Sequence[str]:
        return ["go"]

    def _apply(self, text: str) -> list[Event]:
        self.count += 1
        self.row.append(self.count)
        self.grid[0].append(self.count)
        self.pairs.append((self.count, self.count))
        self.maybe = [self.count]
        self.table["a"] += 1
        self.steps[1].append(Step(self.count, text))
        self.trail.append(Step(self.count, text))
        self.last = Step(self.count, text)
        self.log += (Step(self.count, text),)
        self.seen.add(self.count + 10)
        self.index.append(self.count)
        self.left += 1
        return []

    def scores(self) -> list[int]:
        return [self.count]

    def winner(self) -> list[int]:
        return [0]

    def is_notation(self, text: str) -> bool:
        return text == "go"


class ToyGame(Game[ToyState]):
    name = "toy"
    title = "Toy"
    min_players = 1
    max_players = 2
    state_class = ToyState
    flow = Flow("Toy", ["play"], [], initial="play")


GAME = ToyGame()


def test_the_record_follows_the_declaration_in_order() -> None:
    state = GAME.new_state(1, data=DATA)
    state.apply("go")
    d = state.to_dict()
    keys = [k for k in d if k not in ("game", "players", "seed", "options", "data", "history")]
    assert keys == [
        "phase", "count", "row", "grid", "pairs", "maybe", "table", "steps", "trail", "last",
        "log", "seen", "pair", "added",
    ]  # fmt: skip
    assert d["steps"] == [[[0, "x"]], [[1, "go"]]] and d["last"] == [1, "go"]
    assert d["pairs"] == [[1, 2], [1, 1]] and d["seen"] == [1, 3, 11] and d["pair"] == [5, 5]
    assert "index" not in d and "left" not in d  # saved=False: copied, never stored
    json.dumps(d)  # JSON types only


def test_a_record_loads_back_with_named_tuples_and_rebuilt_indices() -> None:
    state = GAME.new_state(1, data=DATA)
    state.apply("go")
    back = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())), data=DATA)
    assert back.to_dict() == state.to_dict()
    assert back.steps[1][0] == Step(1, "go") and isinstance(back.steps[1][0], Step)
    assert isinstance(back.trail[0], Step) and isinstance(back.last, Step)
    assert isinstance(back.log, tuple) and isinstance(back.log[0], Step)
    assert back.pairs == [(1, 2), (1, 1)] and isinstance(back.pairs[0], tuple)
    assert back.seen == {1, 3, 11} and (back.left, back.right) == (5, 5)
    assert back.index == [3]  # rebuilt by _after_load from the stored row


def test_a_field_added_later_loads_with_its_default_from_an_older_record() -> None:
    d = GAME.new_state(1, data=DATA).to_dict()
    del d["added"], d["log"]
    back = GAME.state_from_dict(d, data=DATA)
    assert back.added == 7 and back.log == ()


def test_a_record_missing_a_required_field_is_refused_with_its_name() -> None:
    d = GAME.new_state(1, data=DATA).to_dict()
    del d["grid"]
    with pytest.raises(ValueError, match="record has no 'grid'"):
        GAME.state_from_dict(d, data=DATA)


def test_the_generated_clone_is_independent_for_every_mutable_kind() -> None:
    state = GAME.new_state(1, data=DATA)
    state.apply("go")
    before = json.dumps(state.to_dict(), sort_keys=True)
    index_before = list(state.index)
    copy = state.clone()
    assert isinstance(copy, ToyState) and copy.to_dict() == state.to_dict()
    copy.apply("go")
    assert json.dumps(state.to_dict(), sort_keys=True) == before
    assert state.index == index_before and copy.index == [*index_before, 2]
    assert len(state.history) == 1 and len(copy.history) == 2


def test_clone_and_persistence_are_generated_straight_line_code() -> None:
    """As dataclasses does: source compiled once per class, no loop over fields per call."""
    assert ToyState.clone.__code__.co_filename == "<fields of ToyState>"
    assert ToyState._fields.__code__.co_filename == "<fields of ToyState>"
    assert ToyState.clone.__qualname__ == "ToyState.clone"
    assert not inspect.isabstract(ToyState)


class MoreState(ToyState):
    """A subclass declares its own fields after its parent's."""

    FIELDS = Fields(extra=SCALARS)

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        self.extra = [1]


def test_a_subclass_adds_fields_to_its_parents() -> None:
    state = MoreState(1, 0, {}, DATA)
    assert list(state._fields())[-2:] == ["added", "extra"]
    copy = state.clone()
    copy.extra.append(2)
    assert state.extra == [1]


class OwnClone(ToyState):
    """A class that writes its own clone keeps it."""

    FIELDS = Fields(other=SCALAR)

    def clone(self) -> OwnClone:
        return self

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        self.other = 1


def test_a_hand_written_method_is_not_replaced() -> None:
    state = OwnClone(1, 0, {}, DATA)
    assert state.clone() is state
    assert state._fields()["other"] == 1


def _dump_solo(state: MergedState) -> dict[str, Any]:
    return {"solo_cards": list(state.solo)} if state.solo is not None else {}


def _load_solo(state: MergedState, d: Mapping[str, Any]) -> None:
    state.solo = list(d["solo_cards"]) if "solo_cards" in d else None


class MergedState(ToyState):
    """A part only some games have, stored as top-level keys (a solo opponent's deck)."""

    FIELDS = Fields(
        solo=Field(OPTIONAL, saved=False),
        solo_part=Stored(dump=_dump_solo, load=_load_solo, merge=True),
    )

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        self.solo: list[int] | None = [1, 2] if players == 1 else None


def test_a_merged_part_adds_its_keys_only_where_it_exists() -> None:
    solo, duo = MergedState(1, 0, {}, DATA), MergedState(2, 0, {}, DATA)
    assert solo._fields()["solo_cards"] == [1, 2] and "solo_part" not in solo._fields()
    assert "solo_cards" not in duo._fields()
    back = MergedState(1, 0, {}, DATA)
    back.solo = None
    back._load_fields(solo._fields())
    assert back.solo == [1, 2]
    copy = solo.clone()
    assert copy.solo is not None and copy.solo is not solo.solo


NAMES = ("ann", "bob", "cid")


def _dump_held(state: NamedKeyState) -> list[list[str]]:
    return [[NAMES[i] for i in row] for row in state.held]


def _load_held(state: NamedKeyState, d: Mapping[str, Any]) -> None:
    state.held = [[NAMES.index(n) for n in row] for row in d["held"]]


class NamedKeyState(ToyState):
    """A record that names what the attribute of the same name holds as indices."""

    FIELDS = Fields(held=Stored(dump=_dump_held, load=_load_held, copy=LISTS))

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        self.held = [[0, 2], []]


def test_a_stored_key_copies_the_attribute_of_its_name_as_its_kind() -> None:
    state = NamedKeyState(1, 0, {}, DATA)
    assert state._fields()["held"] == [["ann", "cid"], []]
    copy = state.clone()
    copy.held[1].append(1)
    assert state.held == [[0, 2], []] and copy._fields()["held"] == [["ann", "cid"], ["bob"]]
    back = NamedKeyState(1, 0, {}, DATA)
    back._load_fields(copy._fields())
    assert back.held == [[0, 2], [1]]
