"""A bot never sees what its seat could not: determinizations and decisions depend on the
seat's knowledge and the bot's rng only.

Each game is checked with a pair of states that differ only in another seat's secret
(Strozzi money, a Florence scandal card in hand, a Strada Romana wagon tile): the seat's
determinization and every bot's decision must be the same for the same rng.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import engine
from engine.bots import Budget, GreedyBot, IsmctsBot, RandomBot
from engine.core import State, derive, random_action

SEAT = 0


def reach(
    name: str, players: int, predicate: Callable[[State], bool], options: Any = None
) -> State:
    """A random game's first state, over a few seeds, where `predicate` holds and it is
    SEAT's turn with a real choice."""
    game = engine.get(name)
    for seed in range(40):
        state = game.new_state(players, seed=seed, options=options)
        rng = derive(seed, "hidden-test")
        while not state.is_over():
            if (
                state.current_player() == SEAT
                and len(state.legal_actions()) > 1
                and predicate(state)
            ):
                return state
            state.apply(random_action(state, rng))
    raise AssertionError(f"no {name} state found for the test")


def strozzi_pair() -> tuple[State, State]:
    state = reach("strozzi", 4, lambda s: s.round >= 2 and s.money[1] > 0)
    twin = state.clone()
    twin.money[1] += 17  # type: ignore[attr-defined]
    return state, twin


def florence_pair() -> tuple[State, State]:
    def swappable(s: Any) -> bool:
        return _florence_swap(s) is not None

    state = reach("florence", 3, swappable)
    twin = state.clone()
    held, other = _florence_swap(twin)  # type: ignore[misc]
    t = twin.tables  # type: ignore[attr-defined]
    hand = list(twin.hands[1])  # type: ignore[attr-defined]
    hand[hand.index(t.cards[held].name)] = t.cards[other].name
    twin.hands[1] = tuple(hand)  # type: ignore[attr-defined]
    twin.deck[other] -= 1  # type: ignore[attr-defined]
    twin.deck[held] += 1  # type: ignore[attr-defined]
    return state, twin


def _florence_swap(s: Any) -> tuple[int, int] | None:
    """(a card seat 2 holds, another card of the same Noble still in the pile)."""
    t = s.tables
    for name in s.hands[1]:
        held = t.card_index.get(name)
        if held is None:
            continue
        for other in t.deck(t.cards[held].noble):
            if other != held and s.deck[other] > 0:
                return held, other
    return None


def strada_pair() -> tuple[State, State]:
    def named(s: Any) -> bool:
        return s.phase == "turn" and any(w >= 0 for w in s.wagon_tiles[1])

    state = reach("strada_romana", 3, named, options={"wagon_tiles": "when_taken"})
    twin = state.clone()
    held = {w for tiles in twin.wagon_tiles for w in tiles}  # type: ignore[attr-defined]
    free = next(w for w in range(len(twin.board.wagons)) if w not in held)  # type: ignore[attr-defined]
    tiles = twin.wagon_tiles[1]  # type: ignore[attr-defined]
    tiles[next(i for i, w in enumerate(tiles) if w >= 0)] = free
    return state, twin


PAIRS = {"strozzi": strozzi_pair, "florence": florence_pair, "strada_romana": strada_pair}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_twins_differ_in_a_secret_only(name: str) -> None:
    """The pair is what the test claims: the same for SEAT, different in the state."""
    state, twin = PAIRS[name]()
    assert state.to_dict() != twin.to_dict()
    assert state.observe(SEAT) == twin.observe(SEAT)
    assert state.observe() == twin.observe()


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_determinization_hides_another_seats_secret(name: str) -> None:
    state, twin = PAIRS[name]()
    game = state.game
    for k in range(5):
        one = game.determinize(state, SEAT, derive(k, "world"))
        two = game.determinize(twin, SEAT, derive(k, "world"))
        assert one.to_dict() == two.to_dict()


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize(
    "bot",
    [RandomBot(), GreedyBot(), IsmctsBot(Budget(playouts=40))],
    ids=["random", "greedy", "ismcts"],
)
def test_a_bot_decides_the_same_without_the_secret(name: str, bot: Any) -> None:
    state, twin = PAIRS[name]()
    for k in range(3):  # each decision by a copy of the same bot: a bot's trail remembers
        one = copy.deepcopy(bot).choose(state, SEAT, derive(k, "bot"))
        two = copy.deepcopy(bot).choose(twin, SEAT, derive(k, "bot"))
        assert one == two
        assert one in state.legal_actions()


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_determinization_keeps_what_the_seat_knows(name: str) -> None:
    """Only the game's `hidden` fields change; the seat's own view, the public table and
    the legal actions stay; the game's invariants hold in every determinization."""
    state, _ = PAIRS[name]()
    game = state.game
    before = state.to_dict()
    changed = False
    for k in range(12):
        world = game.determinize(state, SEAT, derive(k, "keep"))
        after = world.to_dict()
        diff = {key for key in before if before[key] != after[key]}
        assert diff <= set(game.hidden)
        changed |= bool(diff)
        assert world.observe(SEAT) == state.observe(SEAT)
        assert world.legal_actions() == state.legal_actions()
        assert world.invariants() == []
    assert state.to_dict() == before  # the state itself is untouched
    if name != "strozzi":  # Strozzi's money is rebuilt from public payouts: no change
        assert changed, "the hidden fields were never re-sampled"


def test_florence_redeal_keeps_each_hand_and_pile() -> None:
    """Every other hand keeps its size and the Noble of each card; the pool of each
    Noble's cards (pile plus other hands) is conserved."""
    state, _ = florence_pair()
    t = state.tables  # type: ignore[attr-defined]

    def pool(s: Any) -> Counter[int]:
        cards: Counter[int] = Counter({i: n for i, n in enumerate(s.deck) if n})
        for seat in range(s.seats):
            if seat != SEAT:
                cards.update(t.card_index[c] for c in s.hands[seat] if c in t.card_index)
        return cards

    def nobles(hand: tuple[str, ...]) -> list[int]:
        return [t.cards[t.card_index[c]].noble for c in hand]

    for k in range(10):
        world: Any = state.game.determinize(state, SEAT, derive(k, "pile"))
        assert pool(world) == pool(state)
        assert world.hands[SEAT] == state.hands[SEAT]  # type: ignore[attr-defined]
        for seat in range(1, state.seats):
            assert nobles(world.hands[seat]) == nobles(state.hands[seat])  # type: ignore[attr-defined]


CASES = [
    (name, players)
    for name in engine.games()
    for players in range(engine.get(name).min_players, engine.get(name).max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_determinization_is_a_position_the_seat_could_be_in(name: str, players: int) -> None:
    """Over random games with every conformance option: at each seat's turn, a
    determinization shows the seat the same observation and the same legal actions, and
    the game's invariants hold in it."""
    from tests.engine.conformance import new_state

    game = engine.get(name)
    for seed in range(3):
        state = new_state(game, players, seed)
        rng = derive(seed, "every")
        for step in range(2_000):
            if state.is_over():
                break
            player = state.current_player()
            if player is not None and player >= 0 and step % 3 == 0:
                world = game.determinize(state, player, derive(seed, step))
                assert world.observe(player) == state.observe(player)
                assert world.legal_actions() == state.legal_actions()
                assert world.invariants() == []
            state.apply(random_action(state, rng))


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_a_purposeful_player_decides_the_same_without_the_secret(name: str) -> None:
    """The players the bots are measured against (bench/baselines) know no more than
    their seat: a gain against them is not won from a player that peeks."""
    from bench.baselines import PURPOSEFUL

    state, twin = PAIRS[name]()
    for k in range(3):
        one = PURPOSEFUL[name]().choose(state, SEAT, derive(k, "bot"))
        two = PURPOSEFUL[name]().choose(twin, SEAT, derive(k, "bot"))
        assert one == two
        assert one in state.legal_actions()
