"""Any text at all, typed, scanned or read from a file, is refused with `IllegalAction`.

A card registry (`cards.toml`), a replay file or a bug report can hold anything:
Unicode digits (`'²'.isdigit()` is true, `int('²')` raises), numbers of thousands
of digits (`int()` refuses more than 4300), control characters, non-strings from
JSON. The table's main loop catches `IllegalAction` and nothing else, so every
game's `parse_action` must raise exactly that, say why in a bounded sentence, and
leave the state as it was.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.core import IllegalAction, State, derive, normalise, random_action

from .conformance import new_state, snapshot

GAMES = engine.games()
UNICODE_DIGITS = "²³¹٣۴߄१௫๓໒༣၅႒០᠓᥆᧑᪅᭓᮲᱄᱕꘢꣔꤃꧓꩓꯰０𐒠𑁧𝟘𝟡"
SPECIAL = [
    "²",
    "1²",
    "٣",
    "０",
    "𝟡",
    "9" * 5000,
    "1" + "0" * 4400,
    "-1",
    "0",
    "+3",
    "1_0",
    "1e9",
    "0x10",
    " ",
    "\x00",
    "\u200b",
    "inf",
    "nan",
    "None",
    "-0",
]


@cache
def positions(name: str) -> tuple[State, ...]:
    """Some states of every phase: a random game of each player count, every 7th step."""
    game = engine.get(name)
    found: list[State] = []
    for players in range(game.min_players, game.max_players + 1):
        state = new_state(game, players, seed=players)
        rng = derive(11, "garbage", name, players)
        step = 0
        while not state.is_over() and step < 600:
            if step % 7 == 0:
                found.append(state.clone())
            state.apply(random_action(state, rng))
            step += 1
        found.append(state)  # over
    return tuple(found)


def near_misses(state: State, rng: random.Random) -> list[str]:
    """Legal notation with one word replaced by something hostile: what reaches `explain`."""
    texts = []
    legal = [a.text for a in state.legal_actions()] or ["pass"]
    for text in rng.sample(legal, min(4, len(legal))):
        words = text.split()
        for i in range(len(words) + 1):
            for junk in SPECIAL:
                texts.append(" ".join([*words[:i], junk, *words[i + 1 :]]))
    return texts


def assert_refused(state: State, text: object, player: object = None) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.parse_action(text, player=player)  # type: ignore[arg-type]
    message = str(info.value)
    assert message.strip(), "a refusal needs a sentence"
    assert len(message) < 2000, "a refusal quotes the input, not all of it"
    assert snapshot(state) == before


@pytest.mark.parametrize("name", GAMES)
def test_hostile_words_in_legal_notation_are_refused(name: str) -> None:
    rng = derive(5, "near-misses", name)
    legal = set()
    for state in positions(name):
        legal = {a.text for a in state.legal_actions()}
        for text in near_misses(state, rng):
            if normalise(text) in legal:
                continue
            assert_refused(state, text)
    assert positions(name)[-1].is_over() or legal


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_text_is_refused_or_is_a_legal_action(name: str, data: st.DataObject) -> None:
    states = positions(name)
    state = states[data.draw(st.integers(0, len(states) - 1), label="position")]
    legal = [a.text for a in state.legal_actions()]
    words = sorted({w for t in legal for w in t.split()}) or ["pass"]
    word = st.one_of(
        st.sampled_from(words),
        st.sampled_from(SPECIAL),
        st.text(alphabet=UNICODE_DIGITS + "0123456789-+", min_size=1, max_size=6),
        st.text(max_size=8),
    )
    text = data.draw(st.one_of(st.text(), st.lists(word, max_size=6).map(" ".join)), label="text")
    if normalise(text) in legal:
        assert state.parse_action(text).text in legal
        return
    assert_refused(state, text)


@pytest.mark.parametrize("name", GAMES)
def test_what_is_not_text_or_not_a_seat_is_refused(name: str) -> None:
    state = positions(name)[0]
    for thing in (None, 5, 2**80, 1.5, b"draw 1", ["draw", "1"], {"a": 1}, True):
        assert_refused(state, thing)
    text = state.legal_actions()[0].text
    for seat in ("1", 1.5, [0], 2**80, -(2**80), True):
        assert_refused(state, text, player=seat)
