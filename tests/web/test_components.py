"""The component check on the phone page, over real HTTP against a running table.

The owner's data files are real files in a directory of the test's own
(`$TAVOLA_DATA_DIR`); every refusal is checked byte for byte against the file. The
table runs its main loop in a thread, as `tavola run` does (conftest `served`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
from apps import datacheck

from .conftest import Phone, Served
from .test_http import start_game

QUEUES = "[" + ", ".join(["[3, 4]"] * 9) + "]"  # two numbers where three spots are printed


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The owner's data directory; every game's data as it was afterwards."""
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("TAVOLA_DATA_DIR", str(folder))
    before = {g: engine.get(g)._data_file for g in engine.games()}
    yield folder
    for g, path in before.items():
        engine.get(g).use_data_file(path)


def paired(s: Served) -> Phone:
    return s.pair("1")


def answer(phone: Phone, game: str, *answers: dict[str, Any]) -> tuple[int, Any]:
    return phone.post("/api/components", {"game": game, "answers": list(answers)})


def next_game_plays(last_space: int) -> None:
    """The table's thread switches the game's data: wait until it has."""
    deadline = time.monotonic() + 10
    while engine.get("strozzi").data()["track"]["last_space"] != last_space:
        assert time.monotonic() < deadline, "the table never took the new data"
        time.sleep(0.02)


def test_every_provisional_value_is_listed_with_its_question(served, data_dir: Path) -> None:
    s = served(run=True)
    phone = paired(s)
    status, shown = phone.get("/api/components")
    assert status == 200
    assert [g["game"] for g in shown["games"]] == engine.games()
    for g in shown["games"]:
        expected = datacheck.questions(g["game"], engine.get(g["game"]).load_data())
        assert [(q["group"], q["key"]) for q in g["questions"]] == [
            (q.group, q.key) for q in expected
        ]
        assert [q["text"] for q in g["questions"]] == [q.text for q in expected]
        assert [q["value"] for q in g["questions"]] == [q.shown() for q in expected]
        assert g["owner"] == [] and g["file"] == str(data_dir / f"{g['game']}.toml")
    status, florence = phone.get("/api/components?game=florence")
    assert status == 200 and len(florence["games"][0]["questions"]) == 26
    strozzi = next(g for g in shown["games"] if g["game"] == "strozzi")
    track = next(q for q in strozzi["questions"] if q["key"] == "last_space")
    assert track["text"].startswith("Count the spaces of one city track")
    assert track["value"] == "10"
    status, answer_ = phone.get("/api/components?game=chess")
    assert status == 404 and "no game 'chess'" in answer_["error"]


def test_a_confirmation_and_a_typed_value_are_written_as_the_owners(served, data_dir: Path) -> None:
    s = served(run=True)
    phone = paired(s)
    path = data_dir / "strozzi.toml"
    path.write_text("# Anna's copy, checked at the club\n\n[progress_tokens]\n# sorted later\n")
    before = path.read_bytes()
    status, said = answer(
        phone,
        "strozzi",
        {"group": "track", "key": "last_space", "answer": "12"},
        {"group": "track", "key": "bonus", "answer": "{ 4 = 5, 8 = 10, 12 = 15 }"},
    )
    assert status == 200, said
    assert said["said"] == (
        f"Written to {path}: [track] last_space = 12; [track] bonus = "
        "{ 4 = 5, 8 = 10, 12 = 15 }. The next game of Strozzi plays by these."
    )
    assert (data_dir / "strozzi.toml.bak").read_bytes() == before
    guess = engine.get("strozzi").load_data()["progress_tokens"]["counts"]
    status, said = answer(
        phone, "strozzi", {"group": "progress_tokens", "key": "counts", "matches": True}
    )
    assert status == 200 and "(matches your copy)" in said["said"], said
    text = path.read_text()
    assert text.startswith("# Anna's copy, checked at the club\n") and "# sorted later" in text
    data = tomllib.loads(text)
    assert data["track"]["last_space"] == 12
    assert data["track"]["bonus"] == {"4": 5, "8": 10, "12": 15}
    assert data["track"]["provenance"] == "owner"
    assert data["progress_tokens"]["counts"] == guess  # confirmed as the shipped guess
    assert data["progress_tokens"]["provenance"] == "owner"
    # listed as the owner's now, no longer asked
    _, shown = phone.get("/api/components?game=strozzi")
    game = shown["games"][0]
    assert ("track", "last_space") not in [(q["group"], q["key"]) for q in game["questions"]]
    mine = {q["key"]: q for q in game["owner"]}
    assert (mine["last_space"]["value"], mine["last_space"]["guess"]) == ("12", "10")
    assert mine["last_space"]["checked"] and mine["bonus"]["checked"]
    # editable the same way
    status, said = answer(
        phone,
        "strozzi",
        {"group": "track", "key": "last_space", "answer": "11"},
        {"group": "track", "key": "bonus", "answer": "{ 4 = 5, 8 = 10, 11 = 15 }"},
    )
    assert status == 200 and tomllib.loads(path.read_text())["track"]["last_space"] == 11
    # no game in play: the table's next game plays by the file, without a restart
    next_game_plays(last_space=11)


def test_the_game_in_play_keeps_its_data_and_the_next_one_takes_the_new(
    served, data_dir: Path
) -> None:
    s = served(run=True)
    phone = paired(s)
    start_game(s)
    session = s.table.app.session
    assert session is not None
    digest = session.state.data.digest
    status, said = answer(
        phone,
        "strozzi",
        {"group": "track", "key": "last_space", "answer": "12"},
        {"group": "track", "key": "bonus", "answer": "{ 4 = 5, 8 = 10, 12 = 15 }"},
    )
    assert status == 200, said
    assert said["said"].endswith(
        "The Strozzi game in play keeps the values it began with; the next game plays by these."
    )
    s.wait(lambda v: True)  # the table has gone round its loop since
    time.sleep(0.2)
    # the default data is switched between games only: still the old one
    assert engine.get("strozzi").data().digest == digest
    status, _ = phone.post("/api/command", {"command": "new"})
    assert status == 200
    s.wait(lambda v: v["public"]["mode"] not in ("playing", "paused", "over", "scoring"))
    next_game_plays(last_space=12)


def test_wrong_answers_are_refused_in_words_and_the_file_is_untouched(
    served, data_dir: Path
) -> None:
    s = served(run=True)
    phone = paired(s)
    strozzi = data_dir / "strozzi.toml"
    strozzi.write_text('# mine\n[track]\nlast_space = 10\nprovenance = "owner"\n')
    before = strozzi.read_bytes()
    status, said = answer(
        phone, "strozzi", {"group": "track", "key": "last_space", "answer": "ten"}
    )
    assert status == 400
    assert said == {
        "ok": False,
        "error": "[track] last_space must be a number, like 10",
        "group": "track",
        "key": "last_space",
    }
    status, said = answer(phone, "strozzi", {"group": "track", "key": "bonus", "answer": "[4, 7]"})
    assert status == 400 and said["error"] == (
        "[track] bonus must be a table { ... }, like " + '{"4": 5, "7": 10, "10": 15}'
    )
    assert strozzi.read_bytes() == before
    # a value of the right kind the game cannot be played with
    status, said = answer(
        phone, "florence", {"group": "queue_blockers", "key": "numbers", "answer": QUEUES}
    )
    assert status == 400
    assert "location 1 shows [3, 4]; each location has three numbered spots" in said["error"]
    assert said["error"].endswith("(nothing was written)") and said["key"] == "numbers"
    assert not (data_dir / "florence.toml").exists()
    florence = data_dir / "florence.toml"
    florence.write_text('# Ben\n[scheme_vp]\nminimum = 4\nprovenance = "owner"\n')
    kept = florence.read_bytes()
    status, said = answer(
        phone, "florence", {"group": "queue_blockers", "key": "numbers", "answer": QUEUES}
    )
    assert status == 400 and "location 1 shows [3, 4]" in said["error"]
    assert florence.read_bytes() == kept and not (data_dir / "florence.toml.bak").exists()
    # not a value the check asks, a body of another shape
    status, said = answer(phone, "strozzi", {"group": "track", "key": "length", "answer": "3"})
    assert status == 400 and said["error"] == (
        "[track] length is not a value of Strozzi the check asks"
    )
    status, said = answer(
        phone, "strozzi", {"group": "track", "key": "bonus", "answer": "{}", "matches": True}
    )
    assert status == 400 and "either the value your copy shows or matches: true" in said["error"]
    status, said = phone.post("/api/components", {"game": "chess", "answers": []})
    assert status == 400 and said["error"].startswith("say which game: one of ")
    huge = {"group": "ships", "key": "cards", "answer": "[" + " " * 9000 + "]"}
    status, said = answer(phone, "strozzi", huge)
    assert status == 413 and said == {"error": "the request is too large (at most 8192 bytes)"}
    assert strozzi.read_bytes() == before


def test_a_directory_that_cannot_be_written_is_said(served, data_dir: Path, monkeypatch) -> None:
    s = served(run=True)
    phone = paired(s)
    blocked = data_dir / "not-a-directory"
    blocked.write_text("")
    monkeypatch.setenv("TAVOLA_DATA_DIR", str(blocked))
    status, said = answer(phone, "strozzi", {"group": "track", "key": "bonus", "matches": True})
    assert status == 400
    assert said["error"].startswith(f"cannot write {blocked / 'strozzi.toml'}: ")
    assert said["error"].endswith("; nothing was written.")  # no hint: not a permission
    assert blocked.read_bytes() == b""


def test_a_directory_the_service_may_not_write_says_so() -> None:
    """A real process that may not write the data directory (as root: run as nobody)."""
    with tempfile.TemporaryDirectory() as tmp:  # under /tmp: a directory nobody may enter
        os.chmod(tmp, 0o755)
        try:
            refused_as_nobody(Path(tmp) / "data")
        finally:
            (Path(tmp) / "data").chmod(0o755)


def refused_as_nobody(folder: Path) -> None:
    folder.mkdir()
    (folder / "strozzi.toml").write_text("# mine\n")
    folder.chmod(0o555)
    os.chmod(folder / "strozzi.toml", 0o444)
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    code = (
        "import json; from apps.web import components; print(json.dumps(components.post("
        "{'game': 'strozzi', 'answers': [{'group': 'track', 'key': 'bonus', 'matches': True}]})))"
    )
    proc = subprocess.run(
        [*(as_nobody if os.geteuid() == 0 else []), sys.executable, "-c", code],
        env={**os.environ, "TAVOLA_DATA_DIR": str(folder)},
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    status, said = json.loads(proc.stdout)
    assert status == 400
    assert said["error"] == (
        f"cannot write {folder / 'strozzi.toml'}: Permission denied; nothing was written. "
        f"The table's service must be able to write {folder} (docs/install.md)."
    )
    assert (folder / "strozzi.toml").read_text() == "# mine\n"
    assert sorted(p.name for p in folder.iterdir()) == ["strozzi.toml"]


def test_only_a_paired_phone_reads_or_writes_the_check(served, data_dir: Path) -> None:
    s = served(run=True)
    phone = paired(s)
    stranger = s.phone()
    status, said = stranger.get("/api/components")
    assert status == 403 and said == {
        "error": "pair this phone with a seat first (Pair, on the page)"
    }
    body = {"game": "strozzi", "answers": [{"group": "track", "key": "bonus", "matches": True}]}
    status, said = stranger.post("/api/components", body)
    assert status == 403 and "pair this phone" in said["error"]
    # a phone that asked but was not confirmed at the table
    asking = s.phone()
    assert asking.post("/api/pair")[0] == 201
    status, said = asking.post("/api/components", body)
    assert status == 403
    assert said["error"] == "this phone is not paired yet: hold select at your seat, then confirm"
    # a paired phone's cookie sent by another site's page: CSRF
    status, said = phone.post("/api/components", body, headers={"Origin": "http://evil.example"})
    assert status == 403 and "CSRF" in said["error"]
    assert list(data_dir.iterdir()) == []
