"""The settings a player would otherwise edit in the TOML config, for the phone page.

`current(path)` is what the page shows: each setting with its value, its default and
the values it allows, all taken from the config schema (apps.runtime, hw.config) and
the options each game declares. `apply(path, changes)` changes some of them:

- only the settings listed by `current` (never pins, the strip or file paths: a phone
  must not point the journal at another file);
- the file is edited in place as text (hw.tomledit): comments, order and every other
  key stay byte for byte;
- the edited text is checked BEFORE anything is written by the parser the service
  runs at start-up (`runtime.parse`, then the layout and seat checks of
  `Appliance.check`), under the file's own name: a refusal is the very message
  `tavola run` would log, and the file is untouched;
- it is written atomically (apps.safefile): temporary file, fsync, `os.replace`,
  directory fsync, the old file kept as `<name>.bak`.

What takes effect when: the running table re-reads its config on SIGHUP (what
`systemctl reload tavola` sends). Brightness, power budget and the players' names
change at once; the game, its options, the chance source and seat colours when the
service restarts (`restart` in the result). `apply(..., reload=signal_reload)` asks
for the reload after writing, from inside the `tavola run` process.

Changes are a JSON object: `{"pipeline.brightness": 0.4, "app.names.2": "Ben"}`;
null (or an empty name) removes the key, so its default applies again.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine.core import Option
from hw.config import PIPELINE
from hw.schema import Choice, Number, Type, did_you_mean, kind_of
from hw.tomledit import EditError, edit
from hw.tomlsource import ConfigError, Key, TomlSource, dotted

from .. import runtime
from ..names import NAME
from ..safefile import FileChanged, replace_file

__all__ = ["Setting", "apply", "current", "post", "settings_of", "signal_reload"]

#: the keys the running table applies on a reload (Appliance.reload); the rest wait
#: for a restart
LIVE: tuple[Key, ...] = (("pipeline",), ("app", "names"))

_LOCK = threading.Lock()
_CHANCE_LABELS = {
    "app": "the table draws",
    "pick": "players enter what they drew",
    "scanner": "a card scanner reads it",
}


@dataclass(frozen=True)
class Setting:
    """One setting the page offers: where it lives in the file and what it may be."""

    key: Key
    group: str  # "game", "lights" or "players"
    label: str
    help: str
    type: Type | None  # None: a name (apps.names) or a colour
    kind: str  # "choice", "number", "name" or "colour"
    default: Any
    games: tuple[str, ...] = ()  # for a game option: the games that declare it
    choices: tuple[Any, ...] = ()
    labels: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return dotted(self.key)

    @property
    def live(self) -> bool:
        return any(self.key[: len(p)] == p for p in LIVE)

    def describe(self, value: Any, written: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "key": self.name,
            "group": self.group,
            "label": self.label,
            "help": self.help,
            "kind": self.kind,
            "value": value,
            "default": self.default,
            "written": written,
            "takes_effect": "now" if self.live else "restart",
        }
        if self.games:
            out["games"] = list(self.games)
        if self.choices:
            out["choices"] = [
                {"value": v, "label": lab} for v, lab in zip(self.choices, self.labels, strict=True)
            ]
        if isinstance(self.type, Number):
            out.update({"min": self.type.lo, "max": self.type.hi, "above": self.type.above})
        if self.kind == "name":
            out["longest"] = NAME.longest
        return out


def _number(key: str, label: str, help: str) -> Setting:
    k = PIPELINE.key(key)
    return Setting(("pipeline", key), "lights", label, help, k.type, "number", k.default)


def _options(players: int) -> list[Setting]:
    """One setting per option name of every game (`first` is Strozzi's and Strada
    Romana's); its choices are every value some game allows, a seat option's only the
    seats this table has (`players`). Not the option of the seats whose secrets the app
    keeps (`Game.kept_secrets`): the table sets that one for its bots."""
    return [_option_setting(name, owners, players) for name, owners in _options_by_name().items()]


def _options_by_name() -> dict[str, list[tuple[str, Option]]]:
    """Each option name with the games declaring it (several games may share a name)."""
    by_name: dict[str, list[tuple[str, Option]]] = {}
    for g in engine.games():
        for option in engine.get(g).options:
            if option.name == engine.get(g).kept_secrets:
                continue  # the table sets it for its bot seats
            by_name.setdefault(option.name, []).append((g, option))
    return by_name


def _option_choices(owners: list[tuple[str, Option]], players: int) -> list[Any]:
    """Every value some owner allows, once each (1 and True are different values), leaving
    out seats this table does not have."""
    choices: list[Any] = []
    for _, option in owners:
        for c in option.choices or ():
            if option.seat and isinstance(c, int) and c >= players:
                continue
            if not any(type(c) is type(v) and c == v for v in choices):
                choices.append(c)
    return choices


def _option_setting(name: str, owners: list[tuple[str, Option]], players: int) -> Setting:
    choices = _option_choices(owners, players)
    helps = [f"{engine.get(g).title}: {o.help}" for g, o in owners]
    return Setting(
        ("app", "options", name),
        "game",
        name.replace("_", " "),
        "; ".join(helps),
        Choice(choices) if choices else None,
        "choice",
        owners[0][1].default,
        games=tuple(g for g, _ in owners),
        choices=tuple(choices),
        labels=tuple(_shown(c) for c in choices),
    )


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int):
        return f"seat {value + 1}"  # the options' seat indices count from 0
    return str(value).replace("_", " ")


def settings_of(config: runtime.Config) -> list[Setting]:
    """Every setting the page may change, for this table (its seats, its colours)."""
    games = tuple(engine.games())
    out = [
        Setting(
            ("app", "game"),
            "game",
            "Game",
            "the game the table starts with; none: choose it at the table",
            runtime.APP.key("game").type,
            "choice",
            None,
            choices=(None, *games),
            labels=("choose at the table", *(engine.get(g).title for g in games)),
        ),
        Setting(
            ("app", "chance"),
            "game",
            "Draws",
            "who supplies the cards and tiles drawn",
            runtime.APP.key("chance").type,
            "choice",
            "app",
            choices=tuple(_CHANCE_LABELS),
            labels=tuple(_CHANCE_LABELS.values()),
        ),
        *_options(sum(1 for s in config.hw.seats if s.kind != "table")),
        _number("brightness", "Brightness", "0 (off) to 1 (full) for every LED"),
        _number(
            "budget_ma",
            "Power budget (mA)",
            "the most current the LEDs may draw; none: no limit",
        ),
    ]
    for seat in config.hw.seats:
        if seat.kind == "table":
            continue
        out.append(
            Setting(
                ("app", "names", seat.name),
                "players",
                f"Seat {seat.name}",
                f"the player's name, said instead of 'seat {seat.name}'",
                None,
                "name",
                None,
            )
        )
        if seat.colour is not None:
            out.append(
                Setting(
                    ("seats", seat.name, "colour"),
                    "players",
                    f"Seat {seat.name} colour",
                    "'#rrggbb'",
                    None,
                    "colour",
                    None,
                )
            )
    return out


def _value(config: runtime.Config, setting: Setting) -> Any:
    key = setting.key
    if key == ("app", "game"):
        return config.app.game
    if key == ("app", "chance"):
        return config.app.chance
    if key[:2] == ("app", "options"):
        return config.app.options.get(key[2], setting.default)
    if key[:2] == ("app", "names"):
        return config.app.names.get(key[2])
    if key[0] == "pipeline":
        return getattr(config.hw.pipeline, key[1])
    if key[0] == "seats":
        seat = next(s for s in config.hw.seats if s.name == key[1])
        return None if seat.colour is None else "#{:02x}{:02x}{:02x}".format(*seat.colour)
    raise KeyError(key)


def _written(data: dict[str, Any], key: Key) -> bool:
    node: Any = data
    for part in key:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def current(config_path: str | Path) -> dict[str, Any]:
    """What the page shows: `{"file", "settings": [...]}`, or `{"file", "error"}` when the
    file cannot be read (the message the service would give)."""
    try:
        src = TomlSource.load(config_path)
        config = runtime.parse(src)
    except ConfigError as exc:
        return {"file": str(config_path), "error": str(exc), "settings": []}
    shown = []
    for s in settings_of(config):
        out = s.describe(_value(config, s), _written(src.data, s.key))
        if s.games:  # an option of another game than the table's is kept, but idle
            out["applies"] = config.app.game is None or config.app.game in s.games
        shown.append(out)
    return {"file": str(config_path), "settings": shown}


def _refused(message: str, key: str | None = None) -> dict[str, Any]:
    return {"ok": False, "error": message, "key": key}


def apply(
    config_path: str | Path,
    changes: Any,
    *,
    reload: Callable[[], object] | None = None,
) -> dict[str, Any]:
    """Check `changes` as the service would, then write them into the file safely.

    The result is JSON: `{"ok": true, "changed": [...], "now": [...], "restart": [...],
    "backup": path, "reloaded": bool}`, or `{"ok": false, "error": message, "key": k}`
    with the file untouched. `reload` (e.g. `signal_reload`) runs after a write.
    """
    if not isinstance(changes, Mapping):
        return _refused(f"settings: expected an object of changes, got {kind_of(changes)}")
    with _LOCK:  # two phones at once: one after the other, each on the other's result
        return _apply(Path(config_path), str(config_path), changes, reload)


class _Refusal(Exception):
    """A change refused, with the answer the page gets; the file is untouched."""

    def __init__(self, answer: dict[str, Any]) -> None:
        super().__init__(answer["error"])
        self.answer = answer


def _apply(
    path: Path, name: str, changes: Mapping[Any, Any], reload: Callable[[], object] | None
) -> dict[str, Any]:
    try:
        raw, src, config = _read(path, name)
        known = {s.name: s for s in settings_of(config)}
        edits = _edits(config, src, known, changes)
        if not edits:
            return {"ok": True, "changed": [], "now": [], "restart": [], "reloaded": False}
        text = _edited_text(src, name, edits, known)
        backup = _write(path, name, text, raw)
    except _Refusal as refusal:
        return refusal.answer
    changed = [dotted(k) for k in edits]
    reloaded = reload is not None and reload() is not False
    return {
        "ok": True,
        "changed": changed,
        "now": [k for k in changed if known[k].live],
        "restart": [k for k in changed if not known[k].live],
        "backup": str(backup),
        "reloaded": reloaded,
    }


def _read(path: Path, name: str) -> tuple[bytes, TomlSource, runtime.Config]:
    """The file as it is (its bytes, to notice a change before writing), which must be a
    config the table would start with."""
    try:
        raw = path.read_bytes()
        src = TomlSource.parse(raw.decode("utf-8"), name=name)
        config = runtime.parse(src)
    except OSError as exc:
        raise _Refusal(_refused(f"{name}: cannot read: {exc.strerror or exc}")) from None
    except UnicodeDecodeError as exc:
        raise _Refusal(
            _refused(f"{name}: not a TOML file: byte {exc.start} is not UTF-8 text")
        ) from None
    except ConfigError as exc:
        raise _Refusal(
            _refused(f"{exc} (fix the file first: the table would not start with it)")
        ) from None
    return raw, src, config


def _edits(
    config: runtime.Config,
    src: TomlSource,
    known: Mapping[str, Setting],
    changes: Mapping[Any, Any],
) -> dict[Key, Any]:
    """The changes that change something: a value the file already has, or a default the
    file does not write, is left alone."""
    edits: dict[Key, Any] = {}
    for key, value in changes.items():
        setting, value = _change(known, key, value)
        now = _value(config, setting)
        same = value == now and type(value) is type(now)
        if not same and (value is not None or _written(src.data, setting.key)):
            edits[setting.key] = value
    return edits


def _change(known: Mapping[str, Setting], key: Any, value: Any) -> tuple[Setting, Any]:
    """The setting a change names and the value to write; a JSON value only (not a list or
    an object), which the check of the whole file then judges."""
    setting = known.get(key) if isinstance(key, str) else None
    if setting is None:
        raise _Refusal(
            _refused(
                f"settings: {key!r} is not a setting the page can change"
                f"{did_you_mean(str(key), list(known))}",
                str(key),
            )
        )
    if setting.kind == "name" and isinstance(value, str):
        value = value.strip() or None  # a cleared name: the seat is "seat N" again
    if not (value is None or isinstance(value, str | int | float | bool)):
        raise _Refusal(
            _refused(f"settings: {key}: must be {_describe(setting)}, got {kind_of(value)}", key)
        )
    return setting, value


def _edited_text(
    src: TomlSource, name: str, edits: Mapping[Key, Any], known: Mapping[str, Setting]
) -> str:
    """The file with the edits, checked as the service would check it at start-up."""
    try:
        text = edit(src.text, edits)
    except EditError as exc:
        raise _Refusal(_refused(f"{name}: {exc}")) from None
    try:
        checked = runtime.parse(TomlSource.parse(text, name=name))
        runtime.Appliance.check(checked)
    except ConfigError as exc:
        raise _Refusal(_refused(str(exc), _blamed(str(exc), known))) from None
    return text


def _write(path: Path, name: str, text: str, raw: bytes) -> Path:
    """Replace the file, unless someone changed it since it was read; returns the backup."""
    try:
        return replace_file(path, text.encode("utf-8"), expected=raw)
    except FileChanged as exc:
        raise _Refusal({**_refused(f"{exc}: load the settings again"), "retry": True}) from None
    except OSError as exc:
        hint = (
            "; the service may write its config once `install.sh --web` has installed the "
            "web drop-in (docs/install.md)"
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM)
            else ""
        )
        raise _Refusal(
            _refused(f"{name}: cannot write: {exc.strerror or exc} (nothing changed{hint})")
        ) from None


def _describe(setting: Setting) -> str:
    if setting.type is not None:
        return setting.type.describe()
    return "a name" if setting.kind == "name" else "a colour '#rrggbb'"


def _blamed(message: str, known: Mapping[str, Setting]) -> str | None:
    """The setting a refusal names (`file:line: key: ...`), so the page can mark it."""
    m = re.match(r"[^\n]*?:\d+: ([^: ]+): ", message)
    return m.group(1) if m and m.group(1) in known else None


def signal_reload() -> bool:
    """Ask the running table to re-read its config, as `systemctl reload tavola` does: a
    SIGHUP to this process, whose handler (`tavola run`) reloads on the table's own
    thread. False (nothing sent) where no handler is installed, since SIGHUP would end
    the process."""
    if not callable(signal.getsignal(signal.SIGHUP)):
        return False
    os.kill(os.getpid(), signal.SIGHUP)
    return True


def post(
    config_path: str | Path,
    changes: Any,
    *,
    reload: Callable[[], object] | None = signal_reload,
) -> tuple[int, dict[str, Any]]:
    """`apply` as the page's POST /api/settings answers it: 200 with the result, 400 with
    a refusal, 409 when the file changed meanwhile (load the settings again)."""
    result = apply(config_path, changes, reload=reload)
    if result["ok"]:
        return 200, result
    return (409 if result.get("retry") else 400), result
