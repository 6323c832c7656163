"""The same seed plays the same random game, byte for byte, whatever makes the engine
faster: a digest of many random games' histories and scores is pinned here, computed
before the legal lists were made incremental. A change to a rule that alters the games
changes the digest, and the new one is pinned with the reason in the commit."""

from __future__ import annotations

import hashlib

import pytest

import engine
from engine.core import derive, fast_play_out, play_out
from tests.engine.conformance import new_state

SEEDS = range(8)

PINNED = {
    "florence": "5e6fa0317153212f453c11e97187c8b9530c2f45a7a2daf72eb6e9bd0e41e320",
    "strada_romana": "620225dc618467d0e2309f97aa636c25052e7104966a8d8b03154cb56afda96c",
    "strozzi": "8e502aa0444f1bf88e70b76444ac44355e903f68f6b2baa6933818563576478c",
}
"""Game -> sha256 of its random games at every player count and seed in `SEEDS`."""


def digest(name: str, *, fast: bool) -> str:
    """The sha256 of `name`'s random games: each game's seat count, seed, every action
    (player and text) and the scores, in order."""
    game = engine.get(name)
    h = hashlib.sha256()
    for players in range(game.min_players, game.max_players + 1):
        for seed in SEEDS:
            state = new_state(game, players, seed)
            rng = derive(seed, "same-games", name, players)
            (fast_play_out if fast else play_out)(state, rng)
            h.update(f"{players} {seed}\n".encode())
            for action in state.history:
                h.update(f"{action.player} {action.text}\n".encode())
            h.update(f"= {state.scores()} {state.is_over()}\n".encode())
    return h.hexdigest()


@pytest.mark.parametrize("name", engine.games())
def test_a_seed_plays_the_game_it_always_played(name: str) -> None:
    assert digest(name, fast=False) == PINNED[name]


@pytest.mark.parametrize("name", engine.games())
def test_the_fast_path_plays_the_same_pinned_games(name: str) -> None:
    assert digest(name, fast=True) == PINNED[name]
