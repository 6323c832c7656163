"""One home per rulebook heading: every action of a game is carried out, offered and refused by
the rule of the heading that governs it (docs/rules-index.md)."""

from __future__ import annotations

import json

from engine.core import Rule, derive, random_action
from engine.strada_romana import GAME, RULEBOOK
from engine.strada_romana.rules import StradaRomanaState

from .helpers import arrange, play, started

HOME = {
    "place": "Game Setup",
    "remove": "Game Setup",
    "start": "Game Setup",
    "step": "a) Moving the Wagons",
    "stop": "a) Moving the Wagons",
    "end": "a) Moving the Wagons",
    "collect tile": 'Taking "Ware" Tiles',
    "draw ware": 'Taking "Ware" Tiles',
    "collect cube": "Taking Cubes",
    "draw cube": "Taking Cubes",
    "buy": "Special Moves",
    "tile": 'b) Choose a "Wagon Tile"',
    "pass": "c) Pass",
}
"""The heading whose rule carries out each action; a draw at setup is Game Setup's."""


def owner(state: StradaRomanaState, text: str) -> Rule:
    rule, _verb, _arg = RULEBOOK._owner_of(state.phase, text)
    assert rule is not None, (state.phase, text)
    return rule


def expected(state: StradaRomanaState, text: str) -> str:
    verb, _, rest = text.partition(" ")
    if verb == "draw" and state.phase in ("wares", "cubes"):
        return "Game Setup"
    if verb == "wagon":
        return "Wagon Tiles" if state.phase == "reveal" else 'b) Choose a "Wagon Tile"'
    two = f"{verb} {rest.partition(' ')[0]}"
    return HOME.get(two) or HOME[verb]


def test_every_action_of_whole_games_has_the_home_of_its_heading() -> None:
    seen: set[str] = set()
    for players, options in ((2, {}), (4, {"wagon_tiles": "when_taken"}), (5, {})):
        state = GAME.new_state(players, seed=players, options=options)
        rng = derive(players, "rulebook")
        while not state.is_over() and len(state.history) < 3000:
            for action in state.legal_actions():
                rule = owner(state, action.text)
                assert rule.heading == expected(state, action.text), action.text
                seen.add(rule.heading)
            state.apply(random_action(state, rng))
    assert seen == {*HOME.values(), "Wagon Tiles"}


def test_every_heading_of_the_rulebook_has_its_rule() -> None:
    headings = [rule.heading for rule in RULEBOOK.rules]
    assert headings == [
        "Game Setup", "Starting Coins", "Playing the Game", "a) Moving the Wagons",
        "The Wagons", 'Wagon\'s Position and "Ware" Tiles', 'Taking "Ware" Tiles',
        "Taking Cubes", "Contracts", "Special Moves", "Traffic Jam",
        'b) Choose a "Wagon Tile"', "c) Pass", "Game End", "Score", "Wagon Tiles",
    ]  # fmt: skip
    assert all(rule.__doc__ and "'" in rule.__doc__ for rule in RULEBOOK.rules)


def test_a_refusal_comes_from_the_rule_it_explains() -> None:
    """'At the beginning of their turn, players can use their coins to buy special
    features': buying after the first step is refused by the Special Moves rule, in every
    phase of the move; goods asked for before the wagon stopped, by the taking rules."""
    state = arrange(started(4), coins={0: 3})
    state.apply("step ballio 111")
    special = RULEBOOK.rule("Special Moves")
    said = special.refuse(state, "buy", "sideways")
    assert said == "Special moves are bought at the beginning of the turn, before moving."
    assert state.explain("buy sideways") == said
    cubes = RULEBOOK.rule("Taking Cubes")
    assert state.explain("collect cube 111") == cubes.refuse(state, "collect cube", "111")
    assert state.explain("collect anything") == RULEBOOK.rule('Taking "Ware" Tiles').refuse(
        state, "collect", "anything"
    )
    assert "'stop' first" in (state.explain("collect anything") or "")


def test_the_refill_draw_belongs_to_the_goods_it_replaces() -> None:
    """'A new one is drawn at random from the bag to replace the one taken.'"""
    state = started(4)
    play(state, "step ballio 112", "stop", "collect cube 112")
    assert state.phase == "refill" and owner(state, "draw cube red").heading == "Taking Cubes"
    assert state.explain("draw ware red") == (
        f"This draw is not a ware: {state.describe()}"
    )  # the ware rule says why: this refill is a cube's
    assert state.explain("draw red") == "Write 'draw cube COLOUR'."
    before = json.dumps(state.to_dict())
    state.apply("draw cube red")
    assert json.dumps(state.to_dict()) != before and state.phase == "stopped"
