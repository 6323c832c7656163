"""Ships by what is printed on them: the deck compiled to faces and copies, the checks of
an owner's deck against the rulebook's totals, and `ships = "any"`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.core import DataError, IllegalAction, derive, random_action
from engine.strozzi import GAME

from .helpers import START_TOKENS, play

ANNA = "5 gold0 grain2 cloth2 scrolls0 token"
CARD = "{ sails = %d, goods = { %s }, scrolls = %d, token = %s }"


def deck_file(tmp_path: Path, cards: list[str], extra: str = "") -> Path:
    path = tmp_path / "strozzi.toml"
    path.write_text(
        '[ships]\nsource = "the owner\'s cards"\ncards = [\n'
        + "".join(f"  {c},\n" for c in cards)
        + "]\n"
        + extra,
        encoding="utf-8",
    )
    return path


def owner_cards() -> list[str]:
    """29 cards: 28 of different faces, and a second copy of Anna's card."""
    cards = [CARD % (5, "rome = 2, naples = 2", 0, "true")] * 2
    for sails in range(1, 8):
        for k in range(4):
            cards.append(CARD % (sails, f"venice = {k}", k % 3, "false"))
    return cards[:29]


def with_card(position: int, card: str) -> list[str]:
    """The owner's cards with the card at `position` (from 1) replaced."""
    cards = owner_cards()
    cards[position - 1] = card
    return cards


def started(data, players: int = 3, **options):
    state = GAME.new_state(players, seed=0, options=options, data=data)
    for token in START_TOKENS:
        state.apply(f"reveal {token}")
    return state


def test_the_deck_is_faces_with_copies_and_draws_weigh_by_copies_left(tmp_path: Path) -> None:
    data = GAME.load_data(deck_file(tmp_path, owner_cards()))
    state = started(data)
    assert state.rules.copies[ANNA] == 2 and sum(state.rules.copies.values()) == 29
    outcomes = dict((a.text, p) for a, p in state.chance_outcomes())
    assert outcomes[f"draw {ANNA}"] == pytest.approx(2 / 29)
    play(state, f"draw {ANNA}", "pass", "pass", "pass")
    outcomes = dict((a.text, p) for a, p in state.chance_outcomes())
    assert outcomes[f"draw {ANNA}"] == pytest.approx(1 / 28)  # one card of the face is left
    play(state, f"draw {ANNA}", "pass", "pass", "pass")
    assert f"draw {ANNA}" not in [a.text for a in state.legal_actions()]
    with pytest.raises(IllegalAction, match=r"already come up this round \(all 2 cards showing"):
        state.apply(f"draw {ANNA}")
    assert state.observe().ships_seen == (ANNA, ANNA)


def test_legal_draws_are_sorted_by_sails_then_notation(tmp_path: Path) -> None:
    state = started(GAME.load_data(deck_file(tmp_path, list(reversed(owner_cards())))))
    texts = [a.text for a in state.legal_actions()]
    assert texts == sorted(texts, key=lambda t: (int(t.split()[1]), t))
    assert texts[0] == "draw 1 gold0 grain0 cloth0 scrolls0 no-token"


def test_draws_come_up_as_often_as_their_cards_in_random_play(tmp_path: Path) -> None:
    data = GAME.load_data(deck_file(tmp_path, owner_cards()))
    rng = derive(5, "faces")
    drawn: Counter[str] = Counter()
    for _ in range(300):
        state = started(data)
        while state.phase != "decide":
            state.apply(random_action(state, rng))
        drawn[state.ship] += 1
    assert drawn[ANNA] > 2 * max(n for f, n in drawn.items() if f != ANNA) / 3
    assert set(drawn) <= set(data_faces(data))


def data_faces(data) -> list[str]:
    return list(started(data).rules.ships)


@pytest.mark.parametrize(
    ("cards", "extra", "match"),
    [
        (owner_cards()[:28], "", r"\[ships\] lists 28 cards; the rulebook's deck has 29"),
        (
            with_card(29, CARD % (9, "", 0, "false")),
            "",
            r"\[ships\] card 29: sails must be 1-8 \(found 9\)",
        ),
        (
            with_card(1, CARD % (3, "", 3, "false")),
            "",
            r"\[ships\] card 1: scrolls must be 0-2 \(found 3\)",
        ),
        (
            with_card(4, CARD % (3, "rome = 4", 0, "false")),
            "",
            r"\[ships\] card 4: goods rome must be 0-3 \(found 4\)",
        ),
        (
            with_card(2, CARD % (3, "florence = 1", 0, "false")),
            "",
            r"\[ships\] card 2: goods 'florence' is not a port",
        ),
        (
            with_card(1, "{ id = 1, sails = 3, goods = {}, scrolls = 0, token = false }"),
            "",
            r"\[ships\] card 1: unknown key 'id'",
        ),
        (
            with_card(1, "{ sails = 3, goods = {}, scrolls = 0 }"),
            "",
            r"\[ships\] card 1: no token = \.\.\.",
        ),
        (
            owner_cards(),
            '[progress_tokens]\nsource = "x"\ncounts = { "arts-2" = 12, "sciences-2" = 12, '
            '"architecture-2" = 11 }\n',
            r"architecture has 11 tokens; the rulebook's box has 12 of each category, 36 in all",
        ),
        (
            owner_cards(),
            '[progress_tokens]\nsource = "x"\ncounts = { "arts-3" = 12, "sciences-2" = 12, '
            '"architecture-2" = 12 }\n',
            r"arts-3: a token is worth 1 .* or 2",
        ),
    ],
)
def test_a_deck_unlike_the_rulebook_is_refused_naming_card_and_key(
    tmp_path: Path, cards: list[str], extra: str, match: str
) -> None:
    with pytest.raises(DataError, match=match):  # as the data loads, before any game
        GAME.load_data(deck_file(tmp_path, cards, extra))


def test_with_any_every_valid_face_can_be_entered_and_app_draws_stay_in_the_deck() -> None:
    state = started(GAME.data(), ships="any")
    legal = [a.text for a in state.legal_actions()]
    assert len(legal) == 8 * 4 * 4 * 4 * 3 * 2
    outcomes = state.chance_outcomes()
    assert {a.text for a, p in outcomes if p > 0} == {f"draw {f}" for f in state.rules.ships}
    lacking = "draw 8 gold3 grain3 cloth3 scrolls2 token"
    assert lacking[5:] not in state.rules.ships
    play(state, lacking, "flag pirate", "port venice")
    assert state.pos[0][0] == 3 and state.pos[3][0] == 2  # 3 gold, 2 scrolls
    assert state.phase == "token"  # its progress-token symbol
    with pytest.raises(IllegalAction, match="not a ship card's face"):
        started(GAME.data(), ships="any").apply("draw 9 gold0 grain0 cloth0 scrolls0 token")


def test_the_ships_option_takes_only_deck_or_any() -> None:
    with pytest.raises(ValueError, match="option ships must be one of deck, any"):
        GAME.new_state(3, options={"ships": "all"})


@pytest.mark.parametrize(
    ("typed", "face"),
    [
        ("5 g0 r2 c2 s0 t", ANNA),
        ("5 grain2 cloth2 token", ANNA),  # an absent word is 0, or no token
        (f"draw {ANNA}", ANNA),
        ("  5  ROME2, naples2 t ", ANNA),  # a port's name stands for its good
        ("7 s1", "7 gold0 grain0 cloth0 scrolls1 no-token"),
        ("3 v1 no-token", None),
    ],
)
def test_a_face_is_read_in_full_or_short(typed: str, face: str | None) -> None:
    faces = GAME.card_faces(GAME.data())
    if face is None:
        with pytest.raises(ValueError, match="'v1' is not on a ship card"):
            faces.read(typed)
    else:
        assert faces.read(typed) == face
        assert faces.words(face).startswith(f"the {face.split()[0]}-sail ship (")


@pytest.mark.parametrize(
    ("typed", "match"),
    [
        ("9 g1", "9 sails: a card shows 1-8 sails"),
        ("5 g4", "4 gold: a card shows 0-3 gold"),
        ("5 s3", "3 scrolls: a card shows 0-2 scrolls"),
        ("g2 r1", "how many sails"),
        ("5 gold", "'gold' has no count"),
        ("5 g1 gold2", "the gold is given twice"),
        ("5 6", "two sail counts"),
        ("", "no face given"),
    ],
)
def test_a_face_typed_wrong_is_refused_in_a_sentence(typed: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        GAME.card_faces(GAME.data()).read(typed)


def test_the_owners_deck_is_checked_before_it_becomes_data() -> None:
    faces = GAME.card_faces(GAME.data())
    entered = [faces.read(f"{1 + i % 8} g{i % 4} s{i % 3}") for i in range(29)]
    groups = faces.deck(entered)
    cards = groups["ships"]["cards"]
    assert len(cards) == 29 and cards[1] == {
        "sails": 2,
        "goods": {"venice": 1},
        "scrolls": 1,
        "token": False,
    }
    with pytest.raises(DataError, match="28 ship cards were entered; the rulebook's deck has 29"):
        faces.deck(entered[:28])
