"""apps.web.settings against real files: what the page shows, changes written back safely.

Every refusal is checked byte for byte against the file, and against what `tavola run`
itself says at start-up; a writer killed between its temporary file and the replace is
a real subprocess killed with SIGKILL.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import engine
from apps import runtime
from apps.names import NAME
from apps.sim import demo_config_text
from apps.web import settings
from hw.tomledit import edit
from tests.support import TAVOLA
from tests.systemd.test_service import messages, service  # noqa: F401  (the fixture)

SHIPPED = Path(__file__).resolve().parents[2] / "systemd" / "tavola.toml"


def demo_file(tmp: Path, game: str = "strozzi", seats: int = 3, **kw: Any) -> Path:
    path = tmp / "tavola.toml"
    text = demo_config_text(game, seats, journal=tmp / "t.db", seed=1, **kw)
    path.write_text(
        "# my table, my notes\n" + text.replace("budget_ma = 6000", "budget_ma = 6000  # PSU")
    )
    return path


def shipped_file(tmp: Path) -> Path:
    """The config install.sh writes, with its comments, on a mocked table."""
    path = tmp / "tavola.toml"
    text = SHIPPED.read_text().replace('backend = "spi"', 'backend = "mock"')
    path.write_text(text.replace("[buttons]\n", '[buttons]\npin_factory = "mock"\n', 1))
    path.chmod(0o640)
    return path


def by_key(shown: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["key"]: s for s in shown["settings"]}


def folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.is_file()}


# --- what the page shows -------------------------------------------------------------------
def test_current_offers_each_setting_with_the_values_the_schema_allows(tmp_path: Path) -> None:
    shown = settings.current(shipped_file(tmp_path))
    keys = by_key(shown)
    game = keys["app.game"]
    assert game["value"] == "strozzi" and game["written"] and game["takes_effect"] == "restart"
    assert [c["value"] for c in game["choices"]] == [None, *engine.games()]
    assert {"value": "florence", "label": "Florence"} in game["choices"]
    assert [c["value"] for c in keys["app.chance"]["choices"]] == ["app", "pick", "scanner"]
    bright = keys["pipeline.brightness"]
    assert (bright["value"], bright["min"], bright["max"], bright["takes_effect"]) == (
        0.6,
        0,
        1,
        "now",
    )
    assert keys["pipeline.budget_ma"]["value"] == 3000 and keys["pipeline.budget_ma"]["above"] == 0
    difficulty = keys["app.options.difficulty"]
    assert [c["value"] for c in difficulty["choices"]] == ["normal", "easier", "harder"]
    assert difficulty["games"] == ["florence"]
    assert difficulty["value"] == "normal" and not difficulty["written"]
    assert keys["app.options.harder_guards"]["choices"][1]["label"] == "on"
    first = keys["app.options.first"]
    assert first["games"] == ["strada_romana", "strozzi"]
    assert {"value": "random", "label": "random"} in first["choices"]
    assert [c["value"] for c in first["choices"]] == ["random", 0, 1, 2, 3, 4, 5]  # 6 seats
    assert first["choices"][1] == {"value": 0, "label": "seat 1"}
    names = [k for k in keys if k.startswith("app.names.")]
    assert names == [f"app.names.{s}" for s in range(1, 7)]
    assert keys["app.names.1"]["longest"] == NAME.longest and keys["app.names.1"]["value"] is None
    assert not any(k.startswith(("app.journal", "strip", "seats.1.select")) for k in keys)
    json.dumps(shown)  # what the page gets is JSON as it is


def test_options_of_another_game_are_shown_idle(tmp_path: Path) -> None:
    keys = by_key(settings.current(demo_file(tmp_path)))  # a Strozzi table
    assert keys["app.options.first"]["applies"] is True
    assert [c["value"] for c in keys["app.options.first"]["choices"]] == ["random", 0, 1, 2]
    assert keys["app.options.difficulty"]["applies"] is False
    assert "applies" not in keys["pipeline.brightness"]


def test_a_seat_colour_is_offered_where_the_file_has_one(tmp_path: Path) -> None:
    path = demo_file(tmp_path)
    path.write_text(path.read_text().replace("[seats.2]\n", '[seats.2]\ncolour = "#00ff00"\n'))
    keys = by_key(settings.current(path))
    assert keys["seats.2.colour"]["value"] == "#00ff00"
    assert "seats.1.colour" not in keys


def test_a_broken_file_is_shown_as_the_service_would_say_it(tmp_path: Path) -> None:
    path = demo_file(tmp_path)
    path.write_text(path.read_text().replace("brightness = 0.5", "brightness = 5"))
    shown = settings.current(path)
    assert shown["settings"] == []
    assert shown["error"].startswith(f"{path}:") and "pipeline.brightness" in shown["error"]


# --- written back safely -------------------------------------------------------------------
def test_a_change_edits_its_lines_keeps_comments_and_keeps_the_old_file(tmp_path: Path) -> None:
    path = shipped_file(tmp_path)
    before = path.read_bytes()
    result = settings.apply(
        path,
        {"pipeline.brightness": 0.3, "app.names.2": " Ben ", "app.options.first": 1},
    )
    assert result["ok"], result
    assert result["changed"] == ["pipeline.brightness", "app.names.2", "app.options.first"]
    assert result["now"] == ["pipeline.brightness", "app.names.2"]
    assert result["restart"] == ["app.options.first"]
    after = path.read_text()
    assert after == before.decode().replace("brightness = 0.6", "brightness = 0.3") + (
        '\n[app.names]\n2 = "Ben"\n\n[app.options]\nfirst = 1\n'
    )
    assert Path(result["backup"]) == tmp_path / "tavola.toml.bak"
    assert (tmp_path / "tavola.toml.bak").read_bytes() == before
    assert path.stat().st_mode & 0o777 == 0o640  # the owner's mode, not the temp file's
    assert sorted(folder(path)) == ["tavola.toml", "tavola.toml.bak"]  # no temp file left
    assert runtime.load(path).app.names == {"2": "Ben"}
    assert by_key(settings.current(path))["app.names.2"]["value"] == "Ben"
    # the second change keeps the first one as the backup
    again = settings.apply(path, {"app.names.2": "", "pipeline.budget_ma": None})
    assert again["ok"] and again["changed"] == ["app.names.2", "pipeline.budget_ma"]
    assert (tmp_path / "tavola.toml.bak").read_text() == after
    assert "budget_ma" not in path.read_text() and '2 = "Ben"' not in path.read_text()


def test_a_symlinked_config_stays_a_link_and_its_file_changes(tmp_path: Path) -> None:
    real = demo_file(tmp_path)
    (tmp_path / "etc").mkdir()
    link = tmp_path / "etc" / "tavola.toml"
    link.symlink_to(real)
    before = real.read_bytes()
    assert settings.apply(link, {"pipeline.brightness": 0.2})["ok"]
    assert link.is_symlink() and link.resolve() == real
    assert "brightness = 0.2" in real.read_text()
    assert (tmp_path / "tavola.toml.bak").read_bytes() == before


def test_post_answers_as_the_page_route_does(tmp_path: Path) -> None:
    path = demo_file(tmp_path)
    assert settings.post(path, {"pipeline.brightness": 0.3}, reload=None)[0] == 200
    status, answer = settings.post(path, {"pipeline.brightness": 3}, reload=None)
    assert status == 400 and answer["key"] == "pipeline.brightness"
    assert settings.post(path, "brightness=3", reload=None)[0] == 400


def test_nothing_to_change_writes_nothing(tmp_path: Path) -> None:
    path = demo_file(tmp_path)
    before = folder(path)
    result = settings.apply(path, {"pipeline.brightness": 0.5, "app.names.1": None})
    assert result == {"ok": True, "changed": [], "now": [], "restart": [], "reloaded": False}
    assert folder(path) == before


REFUSED = [
    (
        {"pipeline.brightness": 1.5},
        "pipeline.brightness: 1.5 is out of range: must be a number 0-1",
    ),
    ({"pipeline.brightness": "dim"}, "pipeline.brightness: must be a number 0-1, got a string"),
    ({"pipeline.budget_ma": 100}, "does not even cover the strip's idle current"),
    ({"app.names.2": "anna", "app.names.1": "Anna"}, "app.names.1: 'anna' is seat 2's name"),
    ({"app.names.3": "Seat 1"}, "app.names.3: 'Seat 1' would be mistaken for seat 1"),
    ({"app.names.3": "x" * 25}, "app.names.3: must be a string"),
    ({"app.chance": "dice"}, "app.chance: 'dice' is not one of"),
    ({"app.options.difficulty": "hard"}, "Strozzi has no such option"),
    ({"app.game": "florence"}, "644"),  # Florence's layout does not fit the 438 LEDs
    ({"app.game": "monopoly"}, "app.game: 'monopoly' is not one of"),
    ({"app.journal": "/etc/passwd"}, "'app.journal' is not a setting the page can change"),
    ({"strip.count": 10}, "'strip.count' is not a setting the page can change"),
    ({"app.names.1": {"first": "Anna"}}, "app.names.1: must be a name, got a table"),
    ([1, 2], "expected an object of changes, got a list"),
]


@pytest.mark.parametrize(("changes", "why"), REFUSED, ids=[w[:30] for _, w in REFUSED])
def test_a_wrong_change_is_refused_and_the_file_stays_byte_for_byte(
    tmp_path: Path, changes: Any, why: str
) -> None:
    path = demo_file(tmp_path)
    before = folder(path)
    mtime = path.stat().st_mtime_ns
    result = settings.apply(path, changes)
    assert result["ok"] is False, result
    assert why in result["error"]
    assert folder(path) == before and path.stat().st_mtime_ns == mtime  # no .bak either


def test_the_refusal_is_what_tavola_run_says_at_start_up(tmp_path: Path) -> None:
    """The page's message is the service's own: the same parser, the file's own name."""
    for changes in ({"pipeline.brightness": 1.5}, {"app.game": "florence"}):
        path = demo_file(tmp_path)
        result = settings.apply(path, changes)
        assert not result["ok"]
        # the file as it would have been, started the way systemd starts the service
        edits = {tuple(k.split(".")): v for k, v in changes.items()}
        path.write_text(edit(path.read_text(), edits))
        proc = subprocess.run(
            [*TAVOLA, "run", "--config", str(path)], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 2
        assert proc.stderr.splitlines() == [f"ERROR: {result['error']}"]


def test_a_writer_killed_before_the_replace_leaves_the_old_file_whole(tmp_path: Path) -> None:
    path = shipped_file(tmp_path)
    before = path.read_bytes()
    script = textwrap.dedent(
        f"""
        import os, sys, time
        from apps.web import settings
        real = os.replace
        def replace(src, dst):
            if str(dst) == {str(path)!r}:
                print("new file written, not yet in place", flush=True)
                time.sleep(60)
            real(src, dst)
        os.replace = replace
        settings.apply({str(path)!r}, {{"pipeline.brightness": 0.1}})
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=tmp_path
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "new file written, not yet in place"
        leftovers = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
        assert len(leftovers) == 1 and b"brightness = 0.1" in leftovers[0].read_bytes()
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=10) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
    assert path.read_bytes() == before
    runtime.load(path)  # whole: the service starts with it
    # the next change clears what the killed writer left and goes through
    assert settings.apply(path, {"pipeline.brightness": 0.2})["ok"]
    assert "brightness = 0.2" in path.read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_directory_the_service_may_not_write_is_said_with_its_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the web drop-in /etc/tavola is read-only to the service (ProtectSystem=
    strict): one clear line with the fix. The read-only mount is imitated (the tests run
    as root, which writes any directory); the QEMU guest has the real one."""

    def read_only(*args: Any, **kw: Any) -> Path:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    path = demo_file(tmp_path)
    before = folder(path)
    monkeypatch.setattr(settings, "replace_file", read_only)
    result = settings.apply(path, {"pipeline.brightness": 0.2})
    assert result == {
        "ok": False,
        "error": f"{path}: cannot write: Read-only file system (nothing changed; the service "
        "may write its config once `install.sh --web` has installed the web drop-in "
        "(docs/install.md))",
        "key": None,
    }
    assert folder(path) == before


def test_two_phones_at_once_both_changes_land(tmp_path: Path) -> None:
    path = demo_file(tmp_path)
    results: list[dict[str, Any]] = []
    threads = [
        threading.Thread(target=lambda c=c: results.append(settings.apply(path, c)))
        for c in ({"app.names.1": "Anna"}, {"app.names.2": "Ben"}, {"pipeline.brightness": 0.2})
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert all(r["ok"] for r in results), results
    config = runtime.load(path)
    assert config.app.names == {"1": "Anna", "2": "Ben"}
    assert config.hw.pipeline.brightness == 0.2


def test_a_file_changed_by_hand_meanwhile_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = demo_file(tmp_path)
    real = settings.replace_file

    def meanwhile(target: Path, data: bytes, *, expected: bytes | None = None) -> Path:
        path.write_text(path.read_text() + "# edited by hand\n")  # between read and write
        return real(target, data, expected=expected)

    monkeypatch.setattr(settings, "replace_file", meanwhile)
    result = settings.apply(path, {"pipeline.brightness": 0.2})
    assert not result["ok"] and "changed by someone else meanwhile" in result["error"]
    assert result["retry"] is True  # post() answers 409: load the settings again
    assert path.read_text().endswith("# edited by hand\n")
    assert not (tmp_path / "tavola.toml.bak").exists()


# --- taking effect -------------------------------------------------------------------------
def test_reload_applies_names_and_lights_at_once_the_rest_after_a_restart(
    tmp_path: Path,
) -> None:
    """What `now` and `restart` in the result promise is what Appliance.reload does."""
    path = demo_file(tmp_path)
    table = runtime.Appliance(runtime.load(path), button_thread=False)
    try:
        assert table.app.seat_label("2") == "seat 2"
        now = settings.apply(path, {"app.names.2": "Ben", "pipeline.brightness": 0.25})
        assert now["restart"] == []
        assert table.reload(runtime.load(path)) == []
        assert table.app.seat_label("2") == "Ben"
        assert table.pipeline.brightness == pytest.approx(0.25)
        later = settings.apply(path, {"app.options.first": 2})
        assert later["restart"] == ["app.options.first"]
        assert table.reload(runtime.load(path)) == ["[app]"]
    finally:
        table.close()


def test_a_reload_that_renames_a_seat_reaches_the_open_pages(served) -> None:
    """Nothing else changes at a reload, yet every page must show the new name."""
    table = served()
    bot = table.bot
    assert bot is not None
    for seat in ("1", "2", "3"):
        bot.press(seat, "select")  # join
    bot.press("table", "menu")  # start
    table.table.watch()
    phone = table.phone()
    seats = {s["seat"]: s["name"] for s in phone.state()["public"]["seats"]}
    assert seats["2"] == "seat 2"
    config = table.table.config
    table.table.reload(replace(config, app=replace(config.app, names={"2": "Ben"})))
    table.table.watch()  # what the main loop does after the reload
    seats = {s["seat"]: s["name"] for s in phone.state()["public"]["seats"]}
    assert seats == {"1": "seat 1", "2": "Ben", "3": "seat 3"}


def candidates(setting: dict[str, Any]) -> list[Any]:
    """New values to try for a setting, valid ones among them."""
    if "choices" in setting:
        return [c["value"] for c in setting["choices"] if c["value"] != setting["value"]]
    if setting["kind"] == "number":
        return [0.25] if setting["max"] == 1 else [5000]
    return ["#123456"] if setting["kind"] == "colour" else [f"Player {setting['key'][-1]}"]


def test_each_setting_takes_effect_as_the_result_says(tmp_path: Path) -> None:
    """For every setting the page offers: a change the result calls `now` is applied by
    the running table's reload with nothing left for a restart; one it calls `restart`
    is what the reload says needs a restart."""
    path = demo_file(tmp_path, "strada_romana", 3)
    path.write_text(path.read_text().replace("[seats.2]\n", '[seats.2]\ncolour = "#00ff00"\n'))
    shown = by_key(settings.current(path))
    table = runtime.Appliance(runtime.load(path), button_thread=False)
    tried = set()
    try:
        for key, setting in shown.items():
            for value in candidates(setting):
                result = settings.apply(path, {key: value})
                if result["ok"]:
                    break
            assert result["ok"], (key, result)
            restart = table.reload(runtime.load(path))
            if result["now"]:
                assert result["now"] == [key] and restart == [], (key, restart)
            else:
                assert result["restart"] == [key] and restart, (key, restart)
                table.close()
                table = runtime.Appliance(runtime.load(path), button_thread=False)
            tried.add(setting["takes_effect"])
    finally:
        table.close()
    assert tried == {"now", "restart"}


def test_signal_reload_is_the_sighup_tavola_run_handles() -> None:
    heard: list[int] = []
    old = signal.signal(signal.SIGHUP, lambda signum, frame: heard.append(signum))
    try:
        assert settings.signal_reload() is True
        time.sleep(0.01)
        assert heard == [signal.SIGHUP]
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        assert settings.signal_reload() is False  # the default would end the process
    finally:
        signal.signal(signal.SIGHUP, old)


def peak(frames: list[bytes], since: int) -> int:
    return max((max(f) for f in frames[since:]), default=0)


def test_a_running_table_brightens_after_a_change_and_a_reload(service) -> None:  # noqa: F811
    """The real `tavola run`, its LEDs on a pty: free seats glow, pulsing about every 2 s.
    The change, then the SIGHUP that `systemctl reload` (or signal_reload, inside the
    process) sends: brightness 0.5 -> 1 makes the glow's peak about 4.6 times brighter
    (gamma 2.2), so a frame twice the old peak shows the new setting on the strip."""
    proc, sock, reader = service["proc"], service["sock"], service["reader"]
    messages(sock, "READY=1")
    time.sleep(2.5)  # more than one pulse
    before = peak(reader.frames, 0)
    assert before > 0
    result = settings.apply(service["config"], {"pipeline.brightness": 1.0})
    assert result["ok"] and result["now"] == ["pipeline.brightness"]
    seen = len(reader.frames)
    proc.send_signal(signal.SIGHUP)
    messages(sock, "READY=1")
    deadline = time.monotonic() + 10
    while peak(reader.frames, seen) <= 2 * before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert peak(reader.frames, seen) > 2 * before
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=5) == 0
    assert "config reloaded from" in proc.stderr.read()
    assert os.path.exists(str(service["config"]) + ".bak")
