"""Seat kinds: the hook through which the solo automa (issue 6) will take a seat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.core import CHANCE, Event, derive, random_action
from engine.florence import SEAT_KINDS, FlorenceState, SeatKind

from .helpers import DATA, GAME, new_game, play


class Dice(SeatKind):
    """A seat whose every decision is drawn at random, with at least 4 time a round."""

    name = "dice"

    def actor(self, state: FlorenceState, seat: int) -> int:
        return CHANCE

    def weights(self, state: FlorenceState, seat: int) -> list[float] | None:
        return [1.0] * len(self.texts(state, seat))

    def time_gained(self, state: FlorenceState, seat: int, amount: int) -> int:
        return max(4, amount)

    def takes_scandal(
        self, state: FlorenceState, seat: int, noble: int, events: list[Event]
    ) -> bool:
        state.time[seat] = min(12, state.time[seat] + 1)
        return False

    def has_scheme(self, state: FlorenceState, seat: int) -> bool:
        return False


@pytest.fixture
def dice() -> Iterator[None]:
    SEAT_KINDS["dice"] = Dice()
    yield
    del SEAT_KINDS["dice"]


def test_a_seat_kind_answers_decisions_by_chance_and_changes_its_rules(dice: None) -> None:
    for seed in range(4):
        state = GAME.new_state(2, seed=seed, data=DATA)
        state.kinds[1] = "dice"
        rng = derive(seed, "dice")
        asked = 0
        while not state.is_over():
            if state.phase in ("actions", "placement") and state.turn == 1:
                assert state.current_player() == CHANCE
                assert len(state.chance_outcomes()) == len(state.legal_actions())
                asked += 1
            state.apply(random_action(state, rng))
            assert not state.invariants()
        assert asked and state.hands[1] == () and state.schemes[1] == -1
        clone = GAME.state_from_dict(state.to_dict(), data=DATA)
        assert clone.kinds == ["player", "dice"]


def test_the_default_kind_is_a_player_deciding_for_itself() -> None:
    state = new_game(2, placements=(9, 5))
    assert state.kinds == ["player", "player"] and state.current_player() == 0
    play(state, "dispatch 4")
    assert state.current_player() == 1
