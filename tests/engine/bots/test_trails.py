"""A table's bot is given the trail its game's history makes (`Trail.of_game`) without the
whole history replayed at each decision (`GameTrails`): the same trail, the same moves,
after an undo and in another game too."""

from __future__ import annotations

import engine
from engine.bots import GameTrails, GreedyBot, Trail, decide
from engine.core import CHANCE, State, derive, draw_chance


def advance(state: State, actions: int, seed: int) -> None:
    """Apply `actions` random actions (fewer if the game ends)."""
    rng = derive(seed, "trails")
    for _ in range(actions):
        player = state.current_player()
        if player is None:
            return
        if player == CHANCE:
            state.apply(draw_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def same(a: Trail, b: Trail) -> bool:
    return a.seen == b.seen and a.length == b.length


def test_the_kept_trail_is_the_replayed_one_and_each_action_is_replayed_once() -> None:
    trails = GameTrails()
    state = engine.get("strada_romana").new_state(3, seed=5)
    decisions = 0
    while len(state.history) < 400 and not state.is_over():
        advance(state, 7, len(state.history))
        for seat in range(3):
            assert same(trails.of_game(state, seat), Trail.of_game(state, seat))
            decisions += 1
    # each seat's replay goes through the history once, however many decisions it served
    assert trails.replayed == 3 * len(state.history)
    assert decisions > 100


def test_an_undo_or_another_game_is_replayed_from_the_start() -> None:
    trails = GameTrails()
    game = engine.get("florence")
    state = game.new_state(3, seed=2)
    advance(state, 120, 1)
    trails.of_game(state, 0)
    undone = game.new_state(3, seed=2)
    for action in state.history[:-5]:
        undone.apply(action)
    advance(undone, 5, 99)  # other actions in place of the undone ones
    assert [a.text for a in undone.history] != [a.text for a in state.history]
    assert same(trails.of_game(undone, 0), Trail.of_game(undone, 0))
    other = game.new_state(3, seed=3)
    advance(other, 60, 1)
    assert same(trails.of_game(other, 0), Trail.of_game(other, 0))
    assert trails.replayed == len(state.history) + len(undone.history) + len(other.history)


def test_a_bots_notes_do_not_change_the_kept_trail() -> None:
    """`choose` notes its move in the trail it is given; the kept trail counts only the
    moves the history holds, so asking twice gives the same move."""
    trails = GameTrails()
    state = engine.get("strada_romana").new_state(4, seed=8)
    advance(state, 200, 3)
    while state.current_player() in (None, CHANCE):
        advance(state, 1, len(state.history))
    seat = state.current_player()
    assert seat is not None
    first = decide(GreedyBot(), state, seat, trails)
    assert decide(GreedyBot(), state, seat, trails) == first
    assert same(trails.of_game(state, seat), Trail.of_game(state, seat))
