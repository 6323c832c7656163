"""The engine loads the data file it is given and never looks for one itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import load_game_data
from engine.strozzi import GAME

OVERRIDE = "[track]\nlast_space = 12\nbonus = { 4 = 5, 8 = 10, 12 = 15 }\n"


def test_no_environment_or_home_directory_reaches_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An owner's file where apps.userdata would find it changes nothing in the engine."""
    for variable in ("TAVOLA_DATA_DIR", "XDG_CONFIG_HOME", "HOME"):
        (tmp_path / variable / "tavola" / "data").mkdir(parents=True)
        (tmp_path / variable / "strozzi.toml").write_text(OVERRIDE)
        (tmp_path / variable / "tavola" / "data" / "strozzi.toml").write_text(OVERRIDE)
        (tmp_path / variable / ".config" / "tavola" / "data").mkdir(parents=True)
        (tmp_path / variable / ".config" / "tavola" / "data" / "strozzi.toml").write_text(OVERRIDE)
        monkeypatch.setenv(variable, str(tmp_path / variable))
    assert load_game_data("engine.strozzi", "strozzi")["track"].provenance == "provisional"
    assert GAME.load_data()["track"].provenance == "provisional"


def test_the_caller_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "strozzi.toml"
    path.write_text(OVERRIDE)
    assert GAME.load_data(override=path)["track"]["last_space"] == 12
    shipped = GAME.data()
    try:
        GAME.use_data_file(path)
        assert GAME.data()["track"].provenance == "override"
        assert GAME.new_state(3).rules.last_space == 12
    finally:
        GAME.use_data_file(None)
    assert GAME.data().digest == shipped.digest
