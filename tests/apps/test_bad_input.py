"""Every command, flag and config key given wrong types and garbage: one line, never a trace.

The flags are found by walking the `tavola` parser itself and the keys by walking the
config schema (`apps.runtime.TABLES`), so a flag or key added later is tried too. Each
answer must be exactly one line on stderr that names the flag or the key (with the file
and line where there is one), and an exit status of 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
from apps import runtime
from apps.cards import CardError, CardReader, CardRegistry, match
from apps.cli import build_parser, main
from apps.journal import JournalError
from apps.sim import ButtonBot, ManualClock, demo_config_text
from engine.core import CHANCE
from hw.schema import (
    Bool,
    Choice,
    Custom,
    FilePath,
    Int,
    Number,
    Table,
    Text,
    Type,
    Variants,
)
from hw.tomlsource import ConfigError
from tests.support import TAVOLA

GARBAGE_TEXT = ["x", "-1", "²", "9" * 5000, "1e999", "nan", "", "0x10", "1_000", " "]


# --- the command line --------------------------------------------------------------------------
def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """(words, parser) of every command and subcommand, leaves only."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
        return
    for name, sub in subs[0].choices.items():
        yield from commands(sub, (*path, name))


def positionals(parser: argparse.ArgumentParser, tmp: Path) -> list[str]:
    """Valid values for the positional arguments, so the flag under test is what fails."""
    out = []
    for action in parser._actions:
        if action.option_strings or isinstance(action, argparse._SubParsersAction):
            continue
        if action.nargs == "?":
            continue  # optional (history's GAME): the flag alone is tried
        if action.choices:
            out.append(sorted(action.choices)[-1])  # a game
        else:
            record = tmp / "game.json"
            record.write_text(json.dumps({"game": "strozzi", "players": 3, "actions": []}))
            out.append(str(record))
    return out


def typed_flags(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Flags with a type or choices (a path's checks are the file tests' below)."""
    return [
        a
        for a in parser._actions
        if a.option_strings
        and a.nargs is None
        and a.type is not Path
        and (a.type is not None or a.choices is not None)
    ]


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """`tavola ARGV` in this process: (exit status, stderr lines). argparse's own errors
    arrive as SystemExit; any other exception is a traceback and fails the test."""
    try:
        code = main(argv)
    except SystemExit as exc:
        assert isinstance(exc.code, int), exc.code
        code = exc.code
    return int(code or 0), capsys.readouterr().err.splitlines()


def flag_cases() -> list[Any]:
    cases = []
    for words, parser in commands(build_parser()):
        for action in typed_flags(parser):
            cases.append(
                pytest.param(
                    words,
                    action.option_strings[-1],
                    id=f"{' '.join(words)} {action.option_strings[-1]}",
                )
            )
    return cases


@pytest.mark.parametrize(("words", "flag"), flag_cases())
def test_every_typed_flag_refuses_garbage_in_one_line(
    words: tuple[str, ...], flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = dict(commands(build_parser()))[words]
    action = next(a for a in parser._actions if flag in a.option_strings)
    tried = 0
    for garbage in GARBAGE_TEXT:
        if action.choices is not None and garbage in action.choices:
            continue
        if action.type is not None and action.choices is None:
            try:
                value = action.type(garbage)
            except (argparse.ArgumentTypeError, ValueError, TypeError):
                pass
            else:
                if not (isinstance(value, float) and not math.isfinite(value)):
                    continue  # a value the flag takes ("0x10" for a string): not garbage
        code, lines = run_main([*words, *positionals(parser, tmp_path), flag, garbage], capsys)
        assert code == 2, (flag, garbage)
        assert len(lines) == 1, (flag, garbage, lines)
        assert flag in lines[0] and "Traceback" not in lines[0]
        assert len(lines[0]) < 400
        tried += 1
    assert tried >= 3


@pytest.mark.parametrize(
    "words",
    [
        w
        for w, p in commands(build_parser())
        if positionals(p, Path("/tmp"))
        and any(
            a.choices
            for a in p._actions
            if not a.option_strings and not isinstance(a, argparse._SubParsersAction)
        )
    ],
    ids=" ".join,
)
def test_every_game_argument_refuses_a_wrong_game(
    words: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = run_main([*words, "strozy"], capsys)
    assert code == 2 and len(lines) == 1 and "'strozy'" in lines[0]


#: a TOML file that is wrong for each flag that reads TOML; for the others any TOML is wrong
WRONG_TOML = {
    "--config": '[buttons]\ndebounce_ms = "x"\n',
    "--cards": '[strozzi]\n"04A1" = 5\n',
    "--override": "[bogus]\nx = 1\n",
}


def file_cases(tmp: Path, flag: str | None) -> dict[str, Path]:
    binary = tmp / "binary.bin"
    binary.write_bytes(bytes(range(256)) * 8)
    toml = tmp / "tavola.toml"
    toml.write_text(WRONG_TOML.get(flag or "", "[app]\ngame = 'strozzi'\n"))
    folder = tmp / "folder"
    folder.mkdir(exist_ok=True)
    return {
        "a folder": folder,
        "a binary file": binary,
        "a missing file": tmp / "missing",
        "a wrong TOML file": toml,
    }


FILE_FLAGS = [
    (("replay",), None),
    (("doctor",), "--config"),
    (("cards", "list"), "--cards"),
    (("cards", "list"), "--config"),
    (("data",), "--override"),
    (("history",), "--db"),
    (("journal", "check"), "--db"),
    (("journal", "restore"), "--db"),
    (("journal", "restore"), "--from"),
    (("demo",), "--db"),
    (("sim",), "--db"),
]


#: where a file that does not exist yet is a right answer, not a wrong input
FINE_WHEN_MISSING = {
    (("history",), "--db"),
    (("demo",), "--db"),
    (("sim",), "--db"),
    (("cards", "list"), "--cards"),
}


@pytest.mark.parametrize(
    ("words", "flag"), FILE_FLAGS, ids=[f"{' '.join(w)} {f or 'FILE'}" for w, f in FILE_FLAGS]
)
def test_every_file_argument_answers_a_wrong_file_in_one_line(
    words: tuple[str, ...], flag: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = dict(commands(build_parser()))[words]
    for what, path in file_cases(tmp_path, flag).items():
        if what == "a missing file" and (words, flag) in FINE_WHEN_MISSING:
            continue  # no journal yet, a new journal, an empty card registry: all right
        before = sorted((p.name, p.stat().st_size) for p in tmp_path.rglob("*"))
        argv = [*words, *([a for a in positionals(parser, tmp_path) if words != ("replay",)])]
        argv += [flag, str(path)] if flag else [str(path)]
        if words == ("journal", "restore") and flag == "--from":
            argv += ["--db", str(tmp_path / "new.db")]
        code, lines = run_main(argv, capsys)
        assert code != 0, (what, argv)
        assert len(lines) == 1, (what, lines)
        assert str(path) in lines[0] or path.name in lines[0], (what, lines)
        assert "Traceback" not in lines[0]
        after = sorted(
            (p.name, p.stat().st_size)
            for p in tmp_path.rglob("*")
            if p.name not in ("game.json", "new.db", "new.db.mark")
        )
        assert after == [b for b in before if b[0] not in ("game.json",)] or words == (
            "journal",
            "restore",
        ), (what, before, after)


def test_demo_and_selfplay_check_the_player_count_against_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for words in (("demo", "strozzi"), ("selfplay", "strozzi")):
        for players in ("0", "2", "7"):
            code, lines = run_main([*words, "--players", players], capsys)
            assert code == 2 and len(lines) == 1
            assert "3-6 players" in lines[0] and players in lines[0]


def test_a_seed_the_journal_cannot_store_and_a_db_below_a_file_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = run_main(["demo", "strozzi", "--seed", str(2**70)], capsys)
    assert code == 2 and len(lines) == 1 and "--seed" in lines[0] and "out of range" in lines[0]
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine")
    code, lines = run_main(["demo", "strozzi", "--db", str(blocker / "x.db")], capsys)
    assert code == 2 and len(lines) == 1 and "notes.txt is a file, not a folder" in lines[0]
    assert blocker.read_text() == "mine"


def test_cards_learn_refuses_a_usb_id_that_is_not_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run_main(["cards", "learn", "strozzi", "--usb", "pico"], capsys)
    assert code == 2 and len(lines) == 1 and "--usb" in lines[0] and "'pico'" in lines[0]


@pytest.mark.parametrize(
    "body",
    [
        "[1, 2]",
        '{"game": 5, "players": 3, "actions": []}',
        '{"game": "strozzi", "players": "x", "actions": []}',
        '{"game": "strozzi", "players": 3, "seed": 1e400, "actions": []}',
        '{"game": "strozzi", "players": 3, "seed": 1180591620717411303424, "actions": []}',
        '{"game": "strozzi", "players": 3, "options": [1], "actions": []}',
        '{"game": "strozzi", "players": 3, "options": {"first": true}, "actions": []}',
        '{"game": "strozzi", "players": 3, "options": {"frist": 1}, "actions": []}',
        '{"game": "strozzi", "players": 3, "actions": 5}',
        '{"game": "strozzi", "players": 3, "actions": [{"a": 1}]}',
        "[" * 100000,
    ],
)
def test_replay_of_badly_typed_json_is_one_line(
    body: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    record.write_text(body)
    code, lines = run_main(["replay", str(record)], capsys)
    assert code == 2 and len(lines) == 1 and "game.json" in lines[0], lines


def test_replay_of_garbage_actions_reports_the_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    record.write_text(
        json.dumps(
            {"game": "strozzi", "players": 3, "actions": [[0, 5], ["x", "draw 1"], "draw ²"]}
        )
    )
    code = main(["replay", str(record)])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["ok"] is False and out["position"] == 1


# --- the config file ---------------------------------------------------------------------------
def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"


def toml_dump(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> str:
    """TOML of plain data: tables as [headers], every key on its own line."""
    scalars = {k: v for k, v in data.items() if not (isinstance(v, dict) and v)}
    tables = {k: v for k, v in data.items() if isinstance(v, dict) and v}
    out = []
    if prefix and (scalars or not tables):
        out.append("[" + ".".join(json.dumps(p) for p in prefix) + "]")
    out += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in scalars.items()]
    text = "\n".join(out) + ("\n\n" if out else "")
    for k, v in tables.items():
        text += toml_dump(v, (*prefix, k))
    return text


def garbage_for(t: Type) -> list[Any]:
    """Values of the wrong type, out of range, or not finite, for a key of type `t`."""
    wrong_type: list[Any] = ["fast", 5, 1.5, True, [1, 2], {"a": 1}]
    if isinstance(t, Int):
        extra = [9223372036854775807, -9223372036854775807, "12"]
        keep = [v for v in wrong_type if not (isinstance(v, int) and not isinstance(v, bool))]
        return [
            *keep,
            *(
                v
                for v in extra
                if isinstance(v, str)
                or ((t.lo is not None and v < t.lo) or (t.hi is not None and v > t.hi))
            ),
        ]
    if isinstance(t, Number):
        return ["fast", True, [1], {"a": 1}, math.nan, math.inf, -math.inf, 1e300, -1e300]
    if isinstance(t, Bool):
        return ["yes", 1, 0.0, [True], {"a": True}]
    if isinstance(t, Choice):
        return [
            "bogus",
            5,
            1.5,
            [1],
            {"a": 1},
            *(
                v
                for v in (True, 1)
                if v not in t.values or not any(type(v) is type(c) for c in t.values)
            ),
        ]
    if isinstance(t, Text | FilePath):
        return [5, 1.5, True, [1], {"a": 1}, "", "\u0000bad", "x" * 5000]
    if isinstance(t, Table | Variants):
        return ["fast", 5, [1], True]
    if isinstance(t, Custom):
        return ["fast", 1.5, True, [1, 2, 3, 4], {"a": 1}, -3]
    raise AssertionError(f"no garbage for {t}")


def schema_keys() -> Iterator[tuple[tuple[str, ...], Type, dict[str, Any]]]:
    """(path, type, context) of every key of the config schema; context is what else the
    file needs for that key to be read (the strip backend that has it)."""

    def walk(
        path: tuple[str, ...], t: Any, context: dict[str, Any]
    ) -> Iterator[tuple[tuple[str, ...], Type, dict[str, Any]]]:
        if isinstance(t, Variants):
            for choice, table in t.by.items():
                keys = (t.selector, *t.common, *table.keys)
                ctx = {**context, path: {t.selector.name: choice}}
                for key in keys:
                    yield from walk((*path, key.name), key.type, ctx)
            return
        if isinstance(t, Table):
            yield path, t, context
            for key in t.keys:
                yield from walk((*path, key.name), key.type, context)
            if t.rest is not None:
                name = {"seats": "1", "segments": "seat.1", "dimming": "seat.1"}.get(
                    path[-1], "scandal_entry"
                )
                yield from walk((*path, name), t.rest, context)
            return
        yield path, t, context

    for name, table in runtime.TABLES.items():
        yield from walk((name,), table, {})


def base_config(tmp: Path) -> dict[str, Any]:
    data = tomllib.loads(demo_config_text("strozzi", 3, journal=tmp / "j.db", seed=1))
    data["app"].pop("game")  # the game menu: options of every game may be given
    return data


def place(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    node = data
    for part in path[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[path[-1]] = value


def config_cases() -> list[Any]:
    cases = []
    for path, t, context in schema_keys():
        for i, value in enumerate(garbage_for(t)):
            cases.append(
                pytest.param(path, value, context, id=f"{'.'.join(path)}={str(value)[:12]}-{i}")
            )
    return cases


@pytest.mark.parametrize(("path", "value", "context"), config_cases())
def test_every_config_key_refuses_garbage_naming_file_line_and_key(
    path: tuple[str, ...], value: Any, context: dict[tuple[str, ...], Any], tmp_path: Path
) -> None:
    data = base_config(tmp_path)
    for where, values in context.items():
        for k, v in values.items():
            place(data, (*where, k), v)
    if path[0] in ("mcu", "scanner") or context.get(("strip",), {}).get("backend") == "mcu":
        data.setdefault("mcu", {})
    if path == ("app", "options", "scandal_entry") and isinstance(value, str):
        value = "drw"  # a near miss of a string option
    place(data, path, value)
    text = toml_dump(data)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        pytest.fail(f"the test wrote bad TOML:\n{text}")
    file = tmp_path / "tavola.toml"
    file.write_text(text)
    with pytest.raises(ConfigError) as info:
        runtime.load(file)
    message = str(info.value)
    assert "\n" not in message and len(message) < 500, message
    dotted = ".".join(p if p.replace("_", "").isalnum() else f'"{p}"' for p in path)
    assert message.startswith(f"{file}:"), message
    line = message.split(":")[1]
    assert line.isdigit(), message
    assert dotted in message or ".".join(path[:-1]) in message, message


def test_the_file_refuses_an_unknown_table_and_a_misspelt_key_with_did_you_mean(
    tmp_path: Path,
) -> None:
    data = base_config(tmp_path)
    data["strp"] = {"count": 5}
    with pytest.raises(ConfigError, match=r":\d+: strp: unknown table \(did you mean 'strip'\?"):
        runtime.parse_text(toml_dump(data))
    data = base_config(tmp_path)
    data["buttons"]["debounce"] = 20
    with pytest.raises(
        ConfigError,
        match=r":\d+: buttons\.debounce: unknown key \(did you mean "
        r"'debounce_ms'\?",
    ):
        runtime.parse_text(toml_dump(data))


@pytest.mark.parametrize(
    ("app", "message"),
    [
        ({"options": "fast"}, r"app\.options: must be a table, got a string 'fast'"),
        ({"options": {"bogus": 1}}, r"app\.options\.bogus: none of the games has no such option"),
        (
            {"game": "strozzi", "options": {"frist": 1}},
            r"app\.options\.frist: Strozzi has no such option \(did you mean 'first'\?\)",
        ),
        ({"game": "strozzi", "options": {"first": 9}}, r"app\.options\.first: 9 is not one of"),
        ({"game": "strozzi", "options": {"first": True}}, r"app\.options\.first: True is not one"),
        ({"game": "florence", "options": {"scandal_entry": "drw"}}, r"did you mean 'draw'\?"),
        ({"seed": 1180591620717411303424}, r"app\.seed: 1180591620717411303424 is out of range"),
        ({"seed": 9223372036854775807}, None),  # the largest the journal stores: taken
        ({"seed": -1}, r"app\.seed: -1 is out of range: must be a whole number 0 to"),
        ({"game": "strozzi", "seats": 2}, r"seats: Strozzi needs at least 3 players; 2 seat"),
        ({"layouts": {"strozi": "/x.toml"}}, r"did you mean 'strozzi'\?"),
        # a name is said in every sentence: it must read as one person at this table
        ({"names": {"1": "Anna", "2": "anna"}}, r":\d+: app\.names\.2: 'Anna' is seat 1's name"),
        ({"names": {"1": "seat 2"}}, r"app\.names\.1: 'seat 2' would be mistaken for seat 2"),
        ({"names": {"1": "A" * 25}}, r"app\.names\.1: must be a string .*at most 24 characters"),
        ({"names": {"1": "Anna", "2": "Ben"}, "seed": 1}, None),
    ],
)
def test_app_settings_are_checked_against_what_the_games_declare(
    app: dict[str, Any], message: str | None, tmp_path: Path
) -> None:
    seats = app.pop("seats", 3)
    data = tomllib.loads(demo_config_text("strozzi", seats, journal=tmp_path / "j.db", seed=1))
    data["app"].pop("game")
    data["app"].update(app)
    text = toml_dump(data)
    if message is None:
        assert runtime.parse_text(text).app.seed == app["seed"]
        return
    with pytest.raises(ConfigError, match=message):
        runtime.parse_text(text)


def test_run_with_a_bad_config_says_one_line_and_exits_2(tmp_path: Path) -> None:
    data = base_config(tmp_path)
    data["pipeline"]["brightness"] = math.nan
    config = tmp_path / "tavola.toml"
    config.write_text(toml_dump(data))
    out = subprocess.run(
        [*TAVOLA, "run", "--config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2
    (line,) = out.stderr.splitlines()
    assert "pipeline.brightness" in line and str(config) in line and "nan" in line


def test_options_of_another_game_do_not_stop_a_game_from_starting(tmp_path: Path) -> None:
    """The game menu with Florence's options set: Strozzi still starts (it gets only its own),
    where it used to fail at every game start."""
    data = base_config(tmp_path)
    data["app"]["options"] = {"scandal_entry": "play", "first": 1}
    config = runtime.parse_text(toml_dump(data))
    assert config.app.game is None

    clock = ManualClock()
    table = runtime.Appliance(config, clock=clock, button_thread=False)
    app = table.app
    try:
        app.start()
        bot = ButtonBot(table, clock, 1)
        while app.mode in ("idle", "choosing"):
            on_strozzi = app.mode == "choosing" and app.game_names[app.choice] == "strozzi"
            bot.command("1", "select" if app.mode == "idle" or on_strozzi else "next")
        for seat in ("1", "2", "3"):
            bot.command(seat, "select")
        bot.press("table", "menu")
        assert app.game_name == "strozzi" and app.mode == "setup"
        assert app.state is not None and app.state.options["first"] == 1
    finally:
        table.close()


# --- text from a card registry ------------------------------------------------------------------
def test_a_bad_card_registry_entry_is_a_refused_scan(make_table) -> None:
    table, _clock, bot = make_table(players=3, seed=2, chance="pick")
    app = table.app
    for seat in ("1", "2", "3"):
        bot.command(seat, "select")
    bot.press("table", "menu")
    state = app.state
    assert state is not None and state.current_player() == CHANCE
    before = json.dumps(state.to_dict())
    for card in ("draw ²", "draw 1²", "draw " + "9" * 5000, "reveal ٣"):
        with pytest.raises(CardError):
            match(state, card)
    app.cards = CardReader(CardRegistry(None, {"strozzi": {"A": "draw ²", "B": "draw 1²"}}))
    app.handle_card("A", 1.0)
    app.handle_card("B", 5.0)
    assert json.dumps(app.state.to_dict()) == before
    assert any("not a possible draw" in line for line in make_table.said)
    assert engine.get("strozzi")


# --- an owner's data file that cannot be read ----------------------------------------------------
def _without_root_reading() -> None:
    """In the child: drop the capabilities that let root read any file, so that chmod 000
    means what it means for the service's user (the tests run as root)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP: gone at the exec
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) refused")


def tavola_as_user(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`tavola argv` as a process that file permissions apply to."""
    return subprocess.run(
        [*TAVOLA, *argv],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **env},
        preexec_fn=_without_root_reading,
    )


@pytest.mark.parametrize("locked", ["file", "folder"])
def test_an_unreadable_owner_data_file_is_one_line_never_a_trace(
    locked: str, tmp_path: Path
) -> None:
    """chmod 000 on the owner's file (or on its folder): the commands that play with people
    or write answers refuse in one line; a demo of bots says so and plays the shipped data."""
    folder = tmp_path / "data"
    folder.mkdir()
    owners = folder / "strozzi.toml"
    owners.write_text("# nothing corrected yet\n")
    config = tmp_path / "tavola.toml"
    config.write_text(demo_config_text("strozzi", 3, journal=tmp_path / "j.db", seed=1))
    env = {"TAVOLA_DATA_DIR": str(folder)}
    (folder if locked == "folder" else owners).chmod(0)
    said = f"cannot read {owners}: permission denied; fix its permissions or remove it"
    try:
        for argv, status in (
            (["run", "--config", str(config)], 2),
            (["sim", "strozzi", "--seats", "3"], 2),
            (["cards", "learn", "strozzi"], 2),
            (["data", "strozzi"], 1),
            (["data", "check", "strozzi"], 1),
        ):
            out = tavola_as_user(argv, env)
            assert "Traceback" not in out.stderr, (argv, out.stderr)
            assert out.returncode == status, (argv, out.stderr)
            (line,) = [x for x in out.stderr.splitlines() if said in x]
            assert "Table ready" not in out.stderr, argv
            assert line == out.stderr.splitlines()[-1], (argv, out.stderr)
        out = tavola_as_user(["demo", "strozzi", "--seed", "1"], env)
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
        assert out.stderr.splitlines() == [
            f"tavola: warning: {said}; going on with the shipped data"
        ]
    finally:
        folder.chmod(0o755)
        owners.chmod(0o644)


# --- numbers typed by a person: ASCII digits only ------------------------------------------------
def test_cards_learn_asks_again_for_a_number_in_other_digits(tmp_path: Path) -> None:
    """'²' passes `str.isdigit()` but not `int()`: it was a traceback at the card prompt;
    now it is one line and the question again, as is '٣', which `int()` would have taken."""
    registry = tmp_path / "cards.toml"
    answers = "CODE1\n²\n٣\n1\nq\n"
    out = subprocess.run(
        [*TAVOLA, "cards", "learn", "florence", "--keyboard", "--cards", str(registry)],
        input=answers,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TAVOLA_DATA_DIR": str(tmp_path)},
    )
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.splitlines() == [
        "'²': type the numbers with the digits 0-9.",
        "'٣': type the numbers with the digits 0-9.",
    ]
    assert "1 card paired" in out.stdout
    faces = subprocess.run(
        [*TAVOLA, "cards", "learn", "strozzi", "--faces"],
        input="5 g²\n٣ g1\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TAVOLA_DATA_DIR": str(tmp_path)},
    )
    assert faces.returncode == 0 and "Traceback" not in faces.stderr, faces.stderr
    assert "'g²': write the numbers with the digits 0-9" in faces.stdout
    assert "'٣': write the numbers with the digits 0-9" in faces.stdout


@pytest.mark.parametrize("seats", ["²", "٣", "1,²"])
def test_a_seats_option_in_other_digits_names_the_option(seats: str) -> None:
    out = subprocess.run(
        [*TAVOLA, "demo", "strada_romana", "--option", f"named_tiles={seats}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0
    (line,) = out.stderr.splitlines()
    assert "option named_tiles must name seats as numbers" in line, line


# --- a journal on a full disk ---------------------------------------------------------------------
@pytest.mark.parametrize("free_kib", [64, 96])
def test_demo_on_a_full_disk_stops_with_one_line(free_kib: int, tmp_path: Path) -> None:
    """A real tmpfs, full but for `free_kib`: the journal opens, then refuses a write (at
    the game's start, or at an action). The table keeps retrying, rightly; the demo's bots
    pressed on against the refusal, a line per press, for ever (40,000 lines in 45 s)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
    )
    assert mount.returncode == 0, f"a tmpfs is needed for a real full disk: {mount.stderr}"
    try:
        (disk / "fill").write_bytes(bytes((256 - free_kib) * 1024))
        out = subprocess.run(
            [*TAVOLA, "demo", "strozzi", "--seed", "1", "--db", str(disk / "j.db")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        subprocess.run(["umount", str(disk)], check=True)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stdout.splitlines()) < 40, out.stdout[-2000:]
    last = out.stderr.splitlines()[-1]
    assert last == (
        f"tavola demo: stopped, journal {disk}/j.db cannot be written: the disk is full; "
        "free space on its disk or choose another --db"
    ), out.stderr


# --- wrong configs, start-up included ------------------------------------------------------------
def _set(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    """`place`, where None removes the key and a dict replaces the whole table."""
    node = data
    for part in path[:-1]:
        node = node.setdefault(part, {})
    if value is None:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value


#: (what is wrong, edits of the fixed-game config (key path, value), the key the line names)
WRONG_CONFIGS: list[tuple[str, list[tuple[tuple[str, ...], Any]], str]] = [
    ("a string for a number", [(("pipeline", "brightness"), "0.5")], "pipeline.brightness"),
    ("a bool for a number", [(("pipeline", "budget_ma"), True)], "pipeline.budget_ma"),
    ("a float for a count", [(("strip", "count"), 438.0)], "strip.count"),
    ("a bool for a string", [(("app", "chance"), True)], "app.chance"),
    ("a negative brightness", [(("pipeline", "brightness"), -0.1)], "pipeline.brightness"),
    ("a zero budget", [(("pipeline", "budget_ma"), 0)], "pipeline.budget_ma"),
    ("a huge budget", [(("pipeline", "budget_ma"), 10**12)], "pipeline.budget_ma"),
    ("a zero LED count", [(("strip", "count"), 0)], "strip.count"),
    ("a strip too short for the game", [(("strip", "count"), 10)], "strip.count"),
    ("a negative pin", [(("seats", "1", "select"), -1)], "seats.1.select"),
    ("a pin past 27", [(("seats", "1", "select"), 99)], "seats.1.select"),
    ("one pin at two seats", [(("seats", "2", "select"), 6)], "seats.2.select"),
    ("one pin at a seat and the table", [(("table", "undo"), 6)], "table.undo"),
    (
        "a seat's pin on the strip's",
        [(("strip", "backend"), "ws281x"), (("strip", "pin"), 21)],
        "seats.3.select",
    ),
    ("a misspelt key", [(("pipeline", "brightnes"), 0.5)], "pipeline.brightnes"),
    ("a misspelt table", [(("pipline",), {"brightness": 0.5})], "pipline"),
    ("an empty game name", [(("app", "game"), "")], "app.game"),
    ("an unknown game", [(("app", "game"), "monopoly")], "app.game"),
    ("an option the game lacks", [(("app", "options", "nosuch"), 1)], "app.options.nosuch"),
    ("an option of a wrong type", [(("app", "options", "first"), "x")], "app.options.first"),
    ("a float option for a choice", [(("app", "options", "first"), 1.0)], "app.options.first"),
    ("a negative seed", [(("app", "seed"), -1)], "app.seed"),
    ("a float seed", [(("app", "seed"), 1.5)], "app.seed"),
    ("a name too long", [(("app", "names", "1"), "x" * 500)], "app.names.1"),
    ("a name with a control character", [(("app", "names", "1"), "a\u0007b")], "app.names.1"),
    ("an empty name", [(("app", "names", "1"), "")], "app.names.1"),
    ("a name for no seat", [(("app", "names", "9"), "Ann")], "app.names.9"),
    ("a bot for no seat", [(("app", "bots", "9"), "greedy")], "app.bots.9"),
    ("an empty journal path", [(("app", "journal"), "")], "app.journal"),
    ("a journal in /proc", [(("app", "journal"), "/proc/tavola/j.db")], "app.journal"),
    ("a journal below a file", [(("app", "journal"), "/etc/hostname/j.db")], "app.journal"),
    ("a folder for the journal", [(("app", "journal"), "/tmp")], "app.journal"),
    ("port 0", [(("web", "port"), 0)], "web.port"),
    ("port 70000", [(("web", "port"), 70000)], "web.port"),
    ("a host name for an address", [(("web", "address"), "localhost")], "web.address"),
    ("a bad address", [(("web", "address"), "999.1.1.1")], "web.address"),
    ("a phone seat without [web]", [(("seats", "4"), {"kind": "phone"})], "seats.4.kind"),
    (
        "two seats one colour",
        [(("seats", "1", "colour"), "#ff0000"), (("seats", "2", "colour"), "#ff0000")],
        "seats.2.colour",
    ),
    (
        "a missing layout of the game",
        [(("app", "layouts", "strozzi"), "/nonexistent/strozzi.toml")],
        "app.layouts.strozzi",
    ),
    (
        "a missing layout of another game",
        [(("app", "layouts", "florence"), "/nonexistent/florence.toml")],
        "app.layouts.florence",
    ),
    (
        "a card registry that is not TOML",
        [(("scanner",), {"cards": "/etc/hostname"})],
        "scanner.cards",
    ),
]


@pytest.mark.parametrize(("edits", "key"), [pytest.param(e, k, id=w) for w, e, k in WRONG_CONFIGS])
def test_a_wrong_config_is_refused_before_the_table_starts(
    edits: list[tuple[tuple[str, ...], Any]], key: str, tmp_path: Path
) -> None:
    """Parsed, checked and started as `tavola run` does: the refusal must come before a
    table exists, in one line naming the file, the line and the key."""
    data = tomllib.loads(demo_config_text("strozzi", 3, journal=tmp_path / "j.db", seed=1))
    for path, value in edits:
        _set(data, path, value)
    file = tmp_path / "tavola.toml"
    file.write_text(toml_dump(data))
    table = None
    with pytest.raises((ConfigError, JournalError)) as info:
        config = runtime.load(file)
        runtime.Appliance.check(config)
        table = runtime.Appliance(config, button_thread=False)
    if table is not None:
        table.close()
    message = str(info.value)
    assert "\n" not in message and message.isprintable(), message
    assert re.search(rf"{re.escape(str(file))}:\d+: {re.escape(key)}\b", message), message


def test_run_names_the_key_of_a_journal_it_cannot_open(tmp_path: Path) -> None:
    """The real command: a journal path it cannot open stops `run` before the table is
    ready, one line with the config's file, line and key (it used to name none of them)."""
    text = demo_config_text("strozzi", 3, journal=Path("/proc/tavola/j.db"), seed=1)
    config = tmp_path / "tavola.toml"
    config.write_text(text)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("journal"))
    out = subprocess.run(
        [*TAVOLA, "run", "--config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2, out.stderr
    (said,) = out.stderr.splitlines()
    assert said.startswith(f"ERROR: {config}:{line}: app.journal: "), said
    assert "journal /proc/tavola/j.db" in said, said


def test_a_seat_name_with_a_control_character_is_shown_escaped(tmp_path: Path) -> None:
    """The key is quoted as TOML writes it: a raw BEL in the message rang the terminal."""
    data = tomllib.loads(demo_config_text("strozzi", 3, journal=tmp_path / "j.db", seed=1))
    data["seats"]["a\u0007"] = {"kind": "one", "button": 4}
    with pytest.raises(ConfigError) as info:
        runtime.parse_text(toml_dump(data))
    message = str(info.value)
    assert message.isprintable() and 'seats."a\\u0007"' in message, message
