"""A Strozzi game at the mocked table with the owner's own deck, every ship entered on the
buttons by what its card shows (`chance = "pick"`).

The test holds the physical deck: the owner's override file's 29 cards, shuffled each
round, the rulebook's number removed. When a ship is turned over, the seat walks the
menu to that card's face, word by word, with the presses a person makes (`presses_for`);
it never knows an index into the engine's list. The buttons are mocked (hw's button
layer fed by ButtonBot); what a mock cannot show is how long a person takes to read a
face off a card.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from apps.sim import ButtonBot
from engine.core import CHANCE, Action
from engine.strozzi.rules import rules_for

GAME = engine.get("strozzi")
TWICE = {"sails": 6, "goods": {"venice": 1, "naples": 2}, "scrolls": 1, "token": True}


def owner_deck() -> list[dict]:
    """29 cards unlike the shipped guesses; two of them show the same face (TWICE)."""
    cards = [TWICE, TWICE]
    for i in range(27):
        port = ("venice", "rome", "naples")[i % 3]
        cards.append(
            {
                "sails": 1 + i % 8,
                "goods": {port: 1 + i % 3},
                "scrolls": i % 3,
                "token": i % 4 == 0,
            }
        )
    return cards


def face_of(card: dict) -> str:
    goods = card["goods"]
    return " ".join(
        [
            str(card["sails"]),
            f"gold{goods.get('venice', 0)}",
            f"grain{goods.get('rome', 0)}",
            f"cloth{goods.get('naples', 0)}",
            f"scrolls{card['scrolls']}",
            "token" if card["token"] else "no-token",
        ]
    )


def toml_card(card: dict) -> str:
    goods = ", ".join(f"{p} = {n}" for p, n in card["goods"].items())
    token = "true" if card["token"] else "false"
    return (
        f"{{ sails = {card['sails']}, goods = {{ {goods} }}, "
        f"scrolls = {card['scrolls']}, token = {token} }}"
    )


@pytest.fixture
def owner_data(tmp_path: Path) -> Iterator[Path]:
    """The owner's override file with the owner's deck, in use for the test."""
    path = tmp_path / "strozzi.toml"
    cards = "".join(f"  {toml_card(c)},\n" for c in owner_deck())
    path.write_text(
        f'[ships]\nprovenance = "owner"\nsource = "my box"\ncards = [\n{cards}]\n',
        encoding="utf-8",
    )
    GAME.use_data_file(path)
    try:
        yield path
    finally:
        GAME.use_data_file(None)


class Dealer(ButtonBot):
    """Plays like ButtonBot, but a ship that comes up is the top card of a real deck."""

    def __init__(self, *args, deck: list[dict], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.box = deck
        self.shuffle = random.Random(7)
        self.round = 0
        self.pile: list[str] = []
        self.first: list[str] = []  # faces of cards to put on top of the first round's deck

    def choose(self, status=None) -> tuple[str, Action]:  # type: ignore[no-untyped-def]
        app = self.table.app
        state = app.state
        assert state is not None
        if state.current_player() == CHANCE and state.phase == "draw":
            if state.round != self.round:  # 'All ship cards are shuffled, ... discarded'
                self.round = state.round
                faces = [face_of(c) for c in self.box]
                self.shuffle.shuffle(faces)
                for face in self.first:  # cards the test wants on top, round 1
                    faces.remove(face)
                faces, self.first = self.first + faces, []
                self.pile = faces[: state.rules.deck_size(state.players)]
            face = self.pile.pop(0)  # the top card: the test knows its face, nothing else
            seat = app._waiting_seat() or app.players[0]
            return seat, Action(CHANCE, f"draw {face}")
        return super().choose(status)

    def ships(self) -> list[tuple[str, int]]:
        """The ships entered on the buttons, with the presses each took."""
        return [(text, n) for text, n in self.entered if text.startswith("draw ")]


def play_with_the_deck(make_table, deck: list[dict], **kwargs) -> tuple:
    table, clock, _bot = make_table(players=4, seed=3, chance="pick", **kwargs)
    dealer = Dealer(table, clock, 3, deck=deck)
    return table, dealer


def test_a_whole_game_with_the_owners_deck_entered_by_face_on_the_buttons(
    make_table, owner_data: Path
) -> None:
    assert rules_for(GAME.data()).copies[face_of(TWICE)] == 2
    table, dealer = play_with_the_deck(make_table, owner_deck())
    dealer.first = [face_of(TWICE), face_of(TWICE)]  # both cards of one face, one round
    assert dealer.play(4)
    app = table.app
    assert app.mode == "over" and app.state is not None and app.state.is_over()
    faces = {face_of(c) for c in owner_deck()}
    drawn = [t.removeprefix("draw ") for t, _n in dealer.ships()]
    assert drawn and set(drawn) <= faces and drawn[:2] == [face_of(TWICE)] * 2
    history = [a.text for a in app.state.history if a.text.startswith("draw ")]
    assert history == [t for t, _n in dealer.ships()]  # every ship entered on the buttons
    presses = [n for _t, n in dealer.ships()]
    assert all(n >= 2 for n in presses)  # the sails, then the rest of the face
    said = " ".join(make_table.said)
    assert "6-sail ship (1 gold, 2 cloth, 1 scroll, progress token)" in said
    scores = app.state.scores()
    assert any(scores) and "Game over" in said
    assert all(f"{v}" in said for v in scores)
    print(
        f"\npresses per ship entered: mean {sum(presses) / len(presses):.1f}, "
        f"max {max(presses)} over {len(presses)} ships"
    )


def test_with_ships_any_a_face_the_deck_lacks_is_entered_and_played(make_table) -> None:
    lacking = {"sails": 8, "goods": {"venice": 3, "rome": 3, "naples": 3}, "scrolls": 2}
    lacking["token"] = False
    face = face_of(lacking)
    assert face not in rules_for(GAME.data()).ships
    table, dealer = play_with_the_deck(make_table, [lacking] * 29, options={"ships": "any"})
    dealer.first = [face]
    while not dealer.ships():
        dealer.advance(4)
    app = table.app
    assert [t for t, _n in dealer.ships()] == [f"draw {face}"] and app.state is not None
    assert app.state.ship == face
    assert any("8-sail ship (3 gold, 3 grain, 3 cloth, 2 scrolls)" in s for s in make_table.said)
    state = app.state
    for text in ("flag pirate", "port venice"):  # the active seat takes it, to Venice
        seat = app.players[state.current_player()]
        for command in dealer.presses_for(seat, Action(state.current_player(), text)):
            dealer.command(seat, command)
    assert [e.ship for e in app.state.ports[0]] == [face]
    venice, florence = app.state.pos[0], app.state.pos[3]
    assert venice[app.state.history[-1].player] == 3 and max(florence) == 2  # 3 gold, 2 scrolls
    assert dealer.play(4)


def test_while_the_deck_is_the_shipped_guess_the_table_takes_any_face(make_table) -> None:
    """Where a card's contents are provisional, what came up is entered by its face: with
    the shipped deck and people entering the cards, the table plays with `ships = "any"`
    and says how to enter the deck once."""
    lacking = {"sails": 7, "goods": {"rome": 3}, "scrolls": 2, "token": True}
    face = face_of(lacking)
    assert face not in rules_for(GAME.data()).ships and GAME.data()["ships"].unchecked()
    table, dealer = play_with_the_deck(make_table, [lacking] * 29)
    dealer.first = [face]
    while not dealer.ships():
        dealer.advance(4)
    app = table.app
    assert app.state is not None and app.state.options["ships"] == "any"
    assert app.state.ship == face
    said = " ".join(make_table.said)
    assert "Your ship cards are not entered yet: the table takes any card" in said
    assert "`tavola cards learn strozzi --faces`" in said


def test_with_the_owners_deck_the_table_offers_its_faces_only(make_table, owner_data) -> None:
    table, dealer = play_with_the_deck(make_table, owner_deck())
    while not dealer.ships():
        dealer.advance(4)
    state = table.app.state
    assert state is not None and state.options["ships"] == "deck"
    assert "not entered yet" not in " ".join(make_table.said)


def test_the_app_drawing_keeps_the_shipped_deck(make_table) -> None:
    table, _clock, bot = make_table(players=3, seed=2)
    bot.advance(20)
    state = table.app.state
    assert state is not None and state.options["ships"] == "deck"


def test_a_new_card_scanned_is_learned_when_its_face_is_entered(make_table, tmp_path) -> None:
    """The deck is learned as cards come up: a tag the registry does not know, scanned at
    a draw, is said to be new; the face entered on the buttons is then that card's, the
    registry file has it, and the next time it is scanned it is the draw. (The scanner is
    the mocked edge here: `handle_card` is what its line feeds; tests/firmware_bridge run
    a real one over a pty.)"""
    from apps.cards import CardReader, CardRegistry

    registry = CardRegistry(tmp_path / "cards.toml")
    table, dealer = play_with_the_deck(make_table, owner_deck_shipped(), options={"ships": "deck"})
    app = table.app
    app.cards = CardReader(registry)
    while not (app.mode == "playing" and app.state.phase == "draw"):
        dealer.advance(4)
    face = app.state.legal_actions()[0].text.removeprefix("draw ")
    dealer.first = [face]
    dealer.round = app.state.round - 1  # the dealer shuffles its deck now, this card on top
    app.handle_card("TAG-1", 0.0)
    assert any("Card TAG-1 is new to the table" in s for s in make_table.said)
    assert app.state.phase == "draw"  # nothing entered yet
    while not dealer.ships():
        dealer.advance(4)
    assert app.state.history[-1].text == f"draw {face}"
    saved = CardRegistry.load(tmp_path / "cards.toml")
    assert saved.card("strozzi", "TAG-1") == f"draw {face}"
    words = rules_for(GAME.data()).words(rules_for(GAME.data()).ship(face))
    assert any(f"Card TAG-1 is remembered as the {words}" in s for s in make_table.said)
    while not (app.mode == "playing" and app.state.phase == "draw" and app.state.round == 2):
        dealer.advance(4)  # round 2: every card is back in the deck
    count = len(app.state.history)
    app.handle_card("TAG-1", 10.0)
    assert len(app.state.history) == count + 1 and app.state.ship == face


def owner_deck_shipped() -> list[dict]:
    """The shipped deck's cards, as the dealer holds them."""
    out = []
    rules = rules_for(GAME.data())
    for face, n in rules.copies.items():
        ship = rules.ship(face)
        goods = {p: g for p, g in zip(rules.ports, ship.goods, strict=True) if g}
        card = {"sails": ship.sails, "goods": goods, "scrolls": ship.scrolls, "token": ship.token}
        out += [card] * n
    return out
