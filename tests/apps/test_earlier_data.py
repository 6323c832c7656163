"""A game started with component data the engine no longer ships resumes, and replays,
with its own values: the engine keeps each earlier data file (`shipped/DIGEST.toml`) and
the journal the digest the game was played with."""

from __future__ import annotations

from pathlib import Path

import pytest

from apps.journal import Journal
from apps.record import data_of, replay
from engine.strada_romana import GAME as STRADA

OLD = "0ca7c04ec651"
"""Strada Romana's data before the areas, square 241 and part C column 4 were compared
with the public sources: [areas] held the names, [single_square] was a guess."""


def test_the_earlier_data_is_kept_under_its_digest() -> None:
    assert OLD in STRADA.earlier_data()
    old = STRADA.load_data(shipped=OLD)
    assert old.digest == OLD and old.digest != STRADA.data().digest
    assert old["single_square"].provenance == "provisional"
    assert "names" in old["areas"].values and "column_c4" not in old.groups
    for digest in STRADA.earlier_data():  # each file is what its name says
        assert STRADA.load_data(shipped=digest).digest == digest


def test_an_unknown_earlier_digest_is_refused() -> None:
    from engine.core import DataError

    with pytest.raises(DataError, match="never shipped component data 123456789abc"):
        STRADA.load_data(shipped="123456789abc")


def test_a_game_started_with_the_old_data_resumes_with_the_old_values(
    make_table, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A table that played with the data shipped before resumes the unfinished game with
    it after an update, not with today's, and `history` replays it the same way."""
    monkeypatch.setattr(STRADA, "_data", STRADA.load_data(shipped=OLD))  # the old release
    table, _clock, bot = make_table(4, seed=3, game="strada_romana")
    while len(table.app.state.history if table.app.state else []) < 25:
        bot.advance(3)
    state = table.app.state
    assert state is not None and state.data.digest == OLD and not state.is_over()
    played = [a.text for a in state.history]
    table.close()
    monkeypatch.setattr(STRADA, "_data", None)  # the update: today's data.toml
    assert STRADA.data().digest != OLD
    table, _clock, bot = make_table(4, seed=3, game="strada_romana")  # the same journal
    resumed = table.app.state
    assert resumed is not None and resumed.data.digest == OLD
    assert "names" in resumed.data["areas"].values  # the old groups, not today's
    assert [a.text for a in resumed.history][: len(played)] == played
    assert not any("set aside" in line for line in make_table.said)
    table.close()
    journal = Journal(make_table.journal)
    record = journal.unfinished()
    assert record is not None and record.data_digest == OLD and record.data_text is None
    assert data_of(record).digest == OLD
    assert [a.text for a in replay(record).history] == [a.text for a in resumed.history]
    journal.close()


def test_an_owner_file_kept_with_a_game_is_read_on_the_shipped_data_it_was_written_for() -> None:
    """A game played with the owner's file over the earlier shipped data: the kept file
    on today's data gives other groups, on the earlier one the digest the journal has."""
    from apps.journal.records import GameRecord

    text = '[diagonals]\nprovenance = "owner"\nrule = "parallel"\n'
    then = STRADA.load_data(text=text, shipped=OLD)
    assert STRADA.load_data(text=text).digest != then.digest
    record = GameRecord(1, "strada_romana", 4, 1, {}, [], then.digest, "playing", 0.0)
    record.data_text = text
    kept = data_of(record)
    assert kept.digest == then.digest and kept["diagonals"]["rule"] == "parallel"
    assert "column_c4" not in kept.groups
    record.data_digest = "123456789abc"  # data no release and no file gives
    with pytest.raises(ValueError, match="played with other component data"):
        data_of(record)
