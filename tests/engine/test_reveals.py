"""What an action reveals (`State.reveals`): the engine says which actions show a seat or
the table something hidden, so the table's undo never takes back information seen.

A draw always reveals what came up ("Chance is input", DESIGN.md). A seat's action
reveals when one of its events is one its rule declares (`Rule.reveals`). Random games
of every game and option set check that no secret moves without it: a seat's action that
changes a field the game declares hidden (`Game.hidden`) is a revealing one.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import engine
from engine.core import CHANCE, DRAWN, Event, Rule, Rulebook, derive, random_action, revealing

# Strozzi's money changes only by payouts, which are public ('Players receive these points
# in money'); only the totals are secret ('Players may keep the amount of their money
# secret'), so a payout shows nothing hidden: it is a scoring, which undo locks anyway.
PUBLIC_CHANGES = {"strozzi": ("money", "award")}

CASES = [
    pytest.param(name, players, options, id=f"{name}-{players}p-{k}")
    for name in engine.games()
    for players in sorted({engine.get(name).min_players, engine.get(name).max_players})
    for k, options in enumerate(engine.get(name).conformance_options or ({},))
]


def hidden(state: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    return {f: copy.deepcopy(getattr(state, f)) for f in fields}


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_every_draw_and_every_secret_moved_by_a_seat_reveals(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Random games to the end: each draw reveals (the draw's sentence), and each seat
    action that changes a hidden field gives the rule's reason."""
    game = engine.get(name)
    fields = game.hidden
    exempt, scored = PUBLIC_CHANGES.get(name, ("", ""))
    for seed in range(2):
        state = game.new_state(players, seed=seed, options=options)
        rng = derive(seed, "reveals", name, players)
        seen: set[str] = set()
        while not state.is_over():
            action = random_action(state, rng)
            before = hidden(state, fields)
            events = state.apply(action)
            why = state.reveals(action, events)
            if action.player == CHANCE:
                assert why == DRAWN, action
                continue
            moved = {f for f, v in before.items() if getattr(state, f) != v}
            if exempt in moved and any(e.kind == scored for e in events):
                moved.discard(exempt)
            assert not moved or why is not None, (
                f"{name} seed {seed}: '{action.text}' changed {sorted(moved)} but reveals nothing"
            )
            if why is not None:
                assert why in state.revealing.values()
                seen.add(why)
        if name == "strozzi":  # every reveal of Strozzi is a draw
            assert not seen and not state.revealing


def test_an_event_declared_revealing_by_two_rules_is_refused() -> None:
    """One home per rule: a revealing event has one rule, and so one reason."""

    class One(Rule[Any]):
        heading = "One"
        reveals = revealing(card_shown="the card is face up")

    class Two(Rule[Any]):
        heading = "Two"
        reveals = revealing(card_shown="the card was played")

    assert Rulebook("Test", [One()]).revealing == {"card_shown": "the card is face up"}
    with pytest.raises(ValueError, match="declared revealing twice"):
        Rulebook("Test", [One(), Two()])


def test_a_seat_action_reveals_only_by_a_declared_event() -> None:
    """Strada Romana, b) Choose a "Wagon Tile": 'players pick the "wagon tiles" deck up and
    choose one of them' - the tile taken reveals the deck; a pass shows nothing."""
    game = engine.get("strada_romana")
    state = game.new_state(2, seed=1)
    rng = derive(1, "reveals")
    while state.phase != "turn":
        state.apply(random_action(state, rng))
    seat = state.current_player()
    passing, trial = state.parse_action("pass", seat), state.clone()
    assert trial.reveals(passing, trial.apply(passing)) is None
    tile = state.parse_action("tile", seat)
    events = state.apply(tile)
    assert state.reveals(tile, events) == "the wagon tile deck has been looked through"
    assert state.reveals(tile, [Event("passed", {})]) is None
