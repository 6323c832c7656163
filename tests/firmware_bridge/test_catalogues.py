"""Every game's tagged pieces: each draw of a tagged kind can be answered by a scan."""

from __future__ import annotations

import pytest

import engine
from apps.cards import CardError, catalogue, match
from engine.core import CHANCE, derive, random_action

#: the draws whose pieces carry tags: (game, players, options, notation prefixes)
CASES = [
    ("strozzi", 4, {}, ("draw", "reveal")),
    ("florence", 3, {}, ("draw", "scheme", "tile", "token")),
    ("florence", 1, {}, ("draw", "scheme", "tile", "token", "solo")),
    ("strada_romana", 3, {"wagon_tiles": "when_taken"}, ("draw ware", "wagon")),
    ("strada_romana", 2, {}, ("draw ware", "wagon")),
]


@pytest.mark.parametrize(
    ("name", "players", "options", "tagged"),
    CASES,
    ids=[f"{c[0]}-{c[1]}p-{i}" for i, c in enumerate(CASES)],
)
def test_every_tagged_draw_is_answered_by_exactly_its_card(name, players, options, tagged):
    cards = [card for card, _copies in catalogue(name)]
    assert len(cards) == len(set(cards)), "a card listed twice"
    game = engine.get(name)
    scanned = 0
    for seed in range(3):
        state = game.new_state(players, seed=seed, options=options)
        rng = derive(seed, "catalogue", name)
        while not state.is_over():
            action = random_action(state, rng)
            if state.current_player() == CHANCE and action.text.startswith(tagged):
                answering = []
                for card in cards:
                    try:
                        if match(state, card) == action:
                            answering.append(card)
                    except CardError:
                        pass
                assert len(answering) == 1, (action.text, answering)
                scanned += 1
            state.apply(action)
    assert scanned > 10


def test_copies_match_the_boxes() -> None:
    """Florence: 'three scandal decks' of 12 (3 copies of 4 abilities per Noble);
    Strada Romana: 6 ware tiles of each colour and 10 wagon tiles."""
    florence = dict(catalogue("florence"))
    assert sum(n for card, n in florence.items() if card.startswith("draw ")) == 36
    strada = dict(catalogue("strada_romana"))
    assert sum(n for card, n in strada.items() if card.startswith("draw ware")) == 36
    assert sum(1 for card in strada if card.startswith("wagon ")) == 10
