"""The draws the table describes name the players as the table does ('seat 2', or a name
from `[app.names]`), never by an engine number ('Player 2') beside them."""

from __future__ import annotations

import re
from pathlib import Path

from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config

VIEWS = Path(__file__).resolve().parents[2] / "apps" / "views"
PLAYER_N = re.compile(r"\b[Pp]layer \d")


def said_in_a_game(tmp_path: Path, game: str, players: int, seed: int) -> list[str]:
    """Everything a mocked table with named players says over a whole bot game."""
    said: list[str] = []
    names = ("Ada", "Bruno", "Carla")[:players]
    config = demo_config(game, players, journal=tmp_path / "j.db", seed=seed, names=names)
    clock = ManualClock()
    table = Appliance(config, clock=clock, button_thread=False, say=said.append)
    try:
        table.app.start()
        table.app.tick()
        assert ButtonBot(table, clock, seed).play(players)
    finally:
        table.close()
    return said


def test_florence_draws_name_the_players(tmp_path: Path) -> None:
    """Florence: the 1st player marker, a scandal card drawn into a hand (its name stays
    secret) and each scheme revealed at the end are said with the table's names."""
    said = said_in_a_game(tmp_path, "florence", 2, 3)
    assert not [line for line in said if PLAYER_N.search(line)]
    assert any(re.fullmatch(r"The 1st player marker goes to (Ada|Bruno)\.", s) for s in said)
    drawn = [s for s in said if " draws a scandal card from " in s]
    assert drawn and all(re.match(r"(Ada|Bruno) draws", s) for s in drawn)
    reveals = [s for s in said if " reveals the scheme " in s]
    assert sorted(s.split()[0] for s in reveals) == ["Ada", "Bruno"]


def test_no_view_names_a_player_by_number() -> None:
    """Every sentence a view builds names players through the table's names."""
    for path in sorted(VIEWS.glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            assert not re.search(r"[Pp]layer \{", line), f"{path.name}:{n}: {line.strip()}"
