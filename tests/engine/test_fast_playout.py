"""The search's fast path plays exactly the checked path's games, and the flow's table
changes phases exactly as the `transitions` machine does."""

from __future__ import annotations

import pytest
from transitions import MachineError

import engine
from engine.core import derive, fast_play_out, play_out, random_action
from tests.engine.conformance import new_state

CASES = [
    (name, players)
    for name in engine.games()
    for players in range(engine.get(name).min_players, engine.get(name).max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_fast_playouts_are_the_checked_games(name: str, players: int) -> None:
    """Same seed, same rng: the same actions, scores and final record, over many seeds,
    from the start and from a position part way through."""
    game = engine.get(name)
    for seed in range(12):
        checked = new_state(game, players, seed)
        if seed % 2:  # part way through: a playout starts from a search's position
            play_out(checked, derive(seed, "lead-in"), limit=40)
        fast = checked.clone()
        done = play_out(checked, derive(seed, "fast-test"))
        assert fast_play_out(fast, derive(seed, "fast-test")) is done
        assert [a.text for a in fast.history] == [a.text for a in checked.history]
        assert fast.scores() == checked.scores()
        assert fast.to_dict() == checked.to_dict()
        assert fast.legal_actions() == checked.legal_actions()


def test_a_fast_playout_stops_at_its_bound() -> None:
    state = engine.get("strada_romana").new_state(2, seed=1)
    assert fast_play_out(state, derive(1, "bound"), limit=25) is False
    assert len(state.history) == 25


class _Model:
    def __init__(self, phase: str) -> None:
        self.phase = phase


@pytest.mark.parametrize("name", engine.games())
def test_the_flow_table_is_the_machine(name: str) -> None:
    """Every trigger from every phase: the table's next phase is the machine's, and a
    trigger the machine refuses is still refused."""
    flow = engine.get(name).flow
    assert flow._table, "a flow of plain data is compiled"
    for trigger, event in flow.machine.events.items():
        for phase in flow.states:
            by_machine = _Model(phase)
            try:
                event.trigger(by_machine)
            except MachineError:
                with pytest.raises(MachineError):
                    flow.fire(_Model(phase), trigger)
                continue
            by_table = _Model(phase)
            flow.fire(by_table, trigger)
            assert by_table.phase == by_machine.phase, (trigger, phase)


def test_the_kept_ship_deck_is_the_one_rebuilt_from_what_was_seen() -> None:
    """Strozzi keeps the faces left in a round's deck as the draws take them
    (`CourseOfTheGame.deck_left`); at every draw of random games, at every player count,
    it is the deck rebuilt from `seen` alone, and a restored game rebuilds the same."""
    game = engine.get("strozzi")
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(4):
            state = game.new_state(players, seed=seed)
            rng = derive(seed, "kept-deck")
            draws = 0
            while not state.is_over():
                if state.phase == "draw":
                    kept = state.deck_cache
                    state.deck_cache = None
                    rebuilt = state._legal_texts(), state.chance_weights()
                    if kept is not None:
                        assert (kept.texts, kept.counts) == rebuilt
                        draws += 1
                    restored = game.state_from_dict(state.to_dict())
                    assert (restored._legal_texts(), restored.chance_weights()) == rebuilt
                state.apply(random_action(state, rng))
            assert draws > 20
