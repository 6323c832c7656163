"""Fixtures of the table tests: a mocked table on a journal file, driven by button bots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config


@pytest.fixture
def make_table(tmp_path: Path) -> Iterator:
    tables: list[Appliance] = []
    said: list[str] = []

    def make(
        players: int = 4,
        seed: int = 5,
        *,
        chance: str = "app",
        one_button: int = 0,
        db: Path | None = None,
        game: str = "strozzi",
        options: dict[str, object] | None = None,
        names: tuple[str, ...] = (),
        component_check: bool = False,
        bots: int = 0,
        bot: str = "ismcts",
    ) -> tuple[Appliance, ManualClock, ButtonBot]:
        config = demo_config(
            game,
            players,
            journal=db or tmp_path / "journal.db",
            seed=seed,
            chance=chance,
            one_button=one_button,
            options=options,
            names=names,
            component_check=component_check,
            bots=bots,
            bot=bot,
        )
        clock = ManualClock()
        table = Appliance(config, clock=clock, button_thread=False, say=said.append)
        tables.append(table)
        table.app.start()
        table.app.tick()
        return table, clock, ButtonBot(table, clock, seed)

    make.said = said  # type: ignore[attr-defined]
    make.journal = tmp_path / "journal.db"  # type: ignore[attr-defined]
    yield make
    for table in tables:
        table.close()
