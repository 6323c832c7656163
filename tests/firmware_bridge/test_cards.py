"""Cards: the registry file, what a card answers, the repeat window, `tavola cards`."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest

import engine
from apps.cards import (
    CardError,
    CardReader,
    CardRegistry,
    answers,
    catalogue,
    match,
)
from apps.cli import main
from apps.commands.cards_cmd import learn
from engine.core import CHANCE, Action, derive, random_action
from hw.tomlsource import ConfigError

ANNA = "draw 5 gold0 grain2 cloth2 scrolls0 token"  # the card of the rulebook's example


def strozzi_at(phase: str, seed: int = 3):
    """A 3-player Strozzi state in `phase` after at least one ship came up."""
    state = engine.get("strozzi").new_state(3, seed=seed)
    rng = derive(seed, "cards")
    while state.phase != phase or not state.seen:
        state.apply(random_action(state, rng))
    return state


def test_the_registry_round_trips_through_its_file(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "cards.toml"
    reg = CardRegistry.load(path)  # no file yet: empty
    assert reg.cards("strozzi") == {}
    reg.assign("strozzi", "04A1B2C3D4", "draw  5 gold0 grain2 cloth2\tscrolls0 token")
    reg.assign("strozzi", 'odd "id"\\', "reveal arts-2")
    reg.save()
    again = CardRegistry.load(path)
    assert again.cards("strozzi") == {"04A1B2C3D4": ANNA, 'odd "id"\\': "reveal arts-2"}
    assert path.read_text().count("[strozzi]") == 1
    assert not list(path.parent.glob(".cards-*"))  # no temporary file left behind


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[chess]\n"a" = "draw 1 gold0"\n', r"cards\.toml:1: chess: is not a game"),
        ('[strozzi]\n"a" = 7\n', r"cards\.toml:2: strozzi\.a: must be a card"),
        ("strozzi = 1\n", r"cards\.toml:1: strozzi: must be a table"),
    ],
)
def test_a_broken_registry_names_its_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        CardRegistry.load(path)


def test_strozzi_lists_its_ships_and_tokens_with_their_copies() -> None:
    cards = dict(catalogue("strozzi"))
    ships = [c for c in cards if c.startswith("draw ")]
    assert sum(cards[c] for c in ships) == 29 and cards[ANNA] == 1  # faces, with copies
    assert cards["draw 4 gold0 grain1 cloth1 scrolls0 no-token"] == 3  # three cards show it
    assert cards["reveal arts-2"] == 6 and cards["reveal arts-1-venice"] == 2
    assert sum(n for c, n in cards.items() if c.startswith("reveal ")) == 36
    with pytest.raises(CardError, match=r"docs/cards\.md"):
        catalogue("chess")


@pytest.mark.parametrize(
    ("card", "action", "expected"),
    [
        (ANNA, ANNA, True),
        (ANNA, ANNA.replace(" token", " no-token"), False),
        ("draw 5 gold0", ANNA, False),  # a card's words are all of its face
        ("tile influencers", "tile 3 influencers", True),  # the location is the table's business
        ("tile influencers", "token 3 influencers", False),
        ("draw ware yellow", "draw ware yellow", True),
        ("influencers", "tile 3 influencers", False),  # a verb alone never matches a suffix
    ],
)
def test_what_a_card_answers(card: str, action: str, expected: bool) -> None:
    assert answers(card, Action(CHANCE, action)) is expected


def test_a_card_answers_only_a_legal_draw() -> None:
    state = strozzi_at("draw")
    seen = next(f for f, n in state.seen.items() if n == state.rules.copies[f])
    fresh = next(a.text for a in state.legal_actions())
    assert match(state, fresh) == Action(CHANCE, fresh)
    with pytest.raises(CardError, match=r"The \d-sail ship \(.*\) has already come up"):
        match(state, f"draw {seen}")
    with pytest.raises(CardError, match="not a possible draw now"):
        match(state, "reveal arts-2")
    deciding = strozzi_at("decide")
    with pytest.raises(CardError, match="no draw is due"):
        match(deciding, fresh)


def test_the_reader_refuses_unknown_ids_and_repeats_within_the_window() -> None:
    state = strozzi_at("draw")
    fresh = next(a.text for a in state.legal_actions())
    reader = CardReader(CardRegistry(None, {"strozzi": {"A": fresh}}), repeat_s=2.0)
    with pytest.raises(CardError, match="card B is not in the strozzi card list"):
        reader.resolve("strozzi", state, "B", 10.0)
    assert reader.resolve("strozzi", state, "A", 10.0).text == fresh
    with pytest.raises(CardError, match=f"card A \\({fresh}\\) was just read"):
        reader.resolve("strozzi", state, "A", 11.9)
    assert reader.resolve("strozzi", state, "A", 14.0).text == fresh  # the window is from the
    with pytest.raises(CardError, match="just read"):  # last read, so a held tag stays out
        reader.resolve("strozzi", state, "A", 15.5)


def test_learn_pairs_scans_with_numbers_notation_or_a_ships_face(tmp_path: Path) -> None:
    reg = CardRegistry(tmp_path / "cards.toml")
    answers_given = iter(["5 g0 r2 c2 s0 t", "nonsense", "9 g1", "reveal arts-2", "", "1", "q"])
    said: list[str] = []
    paired = learn(
        "strozzi",
        reg,
        iter(["ID1", "ID2", "ID3", "ID4", "ID5"]),
        lambda prompt: next(answers_given),
        said.append,
    )
    assert paired == 3
    assert CardRegistry.load(tmp_path / "cards.toml").cards("strozzi") == {
        "ID1": ANNA,
        "ID2": "reveal arts-2",
        "ID4": "reveal arts-1-venice",
    }
    assert "ID1 = the 5-sail ship (2 grain, 2 cloth, progress token). 64 cards left" in " ".join(
        said
    )
    assert any("Skipped" in s for s in said)
    assert any("  4) reveal arts-2 x6" in s for s in said)  # copies still to pair
    assert not any(") draw " in s for s in said)  # ships are not listed: their face is asked
    assert any("Or type the face of one of the ship cards: sails (1-8)" in s for s in said)


def owner_faces() -> list[str]:
    """29 ship faces of an owner's box: two cards show Anna's face."""
    return ["5 g0 r2 c2 s0 t"] * 2 + [f"{1 + i % 8} g{i % 4} s{i % 3}" for i in range(27)]


def test_when_every_ship_has_a_tag_they_are_written_as_the_owners_deck(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("TAVOLA_DATA_DIR", str(tmp_path / "data"))
    override = tmp_path / "data" / "strozzi.toml"
    override.parent.mkdir()
    override.write_text(
        '[track]\nsource = "my board"\nlast_space = 12\nbonus = { 4 = 5, 8 = 10, 12 = 15 }\n',
        encoding="utf-8",
    )
    reg = CardRegistry(tmp_path / "cards.toml")
    said: list[str] = []
    answers_given = iter(owner_faces())
    codes = [f"T{i:02d}" for i in range(29)]

    def ask(prompt: str) -> str:
        if len(reg.cards("strozzi")) < 28:
            assert "All 29" not in " ".join(said) and "last_space = 12" in override.read_text()
            assert "[ships]" not in override.read_text()
        return next(answers_given)

    assert learn("strozzi", reg, iter(codes), ask, said.append) == 29
    assert f"All 29 ship cards are known; your deck is written to {override}" in " ".join(said)
    data = engine.get("strozzi").load_data(override)
    assert data["ships"].provenance == "owner" and data["track"]["last_space"] == 12
    assert 'provenance = "owner"' in override.read_text()
    rules = engine.get("strozzi").new_state(3, data=data).rules
    assert rules.copies[ANNA.removeprefix("draw ")] == 2 and sum(rules.copies.values()) == 29


def test_learn_faces_without_a_scanner_keeps_what_is_typed_and_goes_on(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("TAVOLA_DATA_DIR", str(tmp_path))
    faces = owner_faces()
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([*faces[:10], "9 g1", "q"]) + "\n"))
    assert main(["cards", "learn", "strozzi", "--faces"]) == 0
    out = capsys.readouterr().out
    assert "Enter your 29 ship cards once" in out
    assert "1: the 5-sail ship (2 grain, 2 cloth, progress token)." in out
    assert "'9 g1': 9 sails: a card shows 1-8 sails." in out
    assert "Stopped: 10 of 29 entered, kept in" in out
    draft = tmp_path / "strozzi-faces.txt"
    assert len(draft.read_text().splitlines()) == 10 and not (tmp_path / "strozzi.toml").exists()
    rest = [*faces[10:20], "8 g3 r3 c3 s2 t", "undo", *faces[20:]]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(rest) + "\n"))
    assert main(["cards", "learn", "strozzi", "--faces"]) == 0
    out = capsys.readouterr().out
    assert "10 of 29 were entered before" in out
    assert (
        "Taken back: the 8-sail ship (3 gold, 3 grain, 3 cloth, 2 scrolls, progress token)." in out
    )
    assert "All 29 ship cards are known; your deck is written to" in out
    assert not draft.exists()
    data = engine.get("strozzi").load_data(tmp_path / "strozzi.toml")
    assert len(data["ships"]["cards"]) == 29
    assert {"sails": 5, "goods": {"rome": 2, "naples": 2}, "scrolls": 0, "token": True} in data[
        "ships"
    ]["cards"]


def test_tavola_cards_learn_from_the_keyboard_and_list(tmp_path: Path, monkeypatch, capsys) -> None:
    cards = tmp_path / "cards.toml"
    monkeypatch.setattr("sys.stdin", io.StringIO("04A1B2C3D4\n1\nABC\nreveal sciences-2\n"))
    assert main(["cards", "learn", "strozzi", "--keyboard", "--cards", str(cards)]) == 0
    assert "2 cards paired" in capsys.readouterr().out
    assert main(["cards", "list", "strozzi", "--cards", str(cards)]) == 0
    out = capsys.readouterr().out
    assert "Strozzi: 2 of 65 cards paired" in out
    assert "reveal arts-1-venice" in out and "04A1B2C3D4" in out
    assert "reveal sciences-2" in out and "ABC (1 of 6)" in out


def test_tavola_cards_learn_from_an_emulated_board(
    tmp_path: Path, monkeypatch, capsys, mcu_emulator, device_path: Path
) -> None:
    emu = mcu_emulator(leds=4)
    cards = tmp_path / "cards.toml"
    monkeypatch.setattr("sys.stdin", io.StringIO("5 g0 r2 c2 s0 t\n1\n"))

    def scan() -> None:
        if emu.wait_connected(10):
            emu.scan("0A0079A2B1")
            emu.scan("1122334455")

    scanner = threading.Thread(target=scan)
    scanner.start()
    try:
        code = main(
            [
                "cards",
                "learn",
                "strozzi",
                "--device",
                str(device_path),
                "--kind",
                "mcu",
                "--cards",
                str(cards),
                "--count",
                "2",
            ]
        )
    finally:
        scanner.join()
    assert code == 0
    assert CardRegistry.load(cards).cards("strozzi") == {
        "0A0079A2B1": ANNA,
        "1122334455": "reveal arts-1-venice",
    }
    assert "Table microcontroller connected" in capsys.readouterr().out
