"""Component data: the numbers printed on cards, boards and dials.

Each game ships `data.toml` inside its package. Every top-level table except
`[meta]` is a *value group* and must say where its values come from:

    provenance = "rulebook" | "derived" | "public" | "provisional"
    source = "the line of the rulebook, or the reasoning"

A provisional group may also say what to ask its owner, key by key, with the
component in hand (`ask = { last_space = "..." }`); `tavola data check GAME` asks it.

Rules code reads values, never provenance; provenance exists so an owner of
the physical game can see what to check (`tavola data GAME`) and correct it in
one place: an override file whose tables replace the shipped ones key by key.
A table written by a component check says `provenance = "owner"`; one written by
hand says nothing and is listed as "override". Every key must be one the shipped
group has, with a value of the same kind (a number, text, list or table); a
mistake is a DataError naming the file, the line and the key. The app says which
file (apps.userdata).

When a value leaves its group (a fact settles part of a provisional group), the shipped
file's `[meta] moved = { "group.key" = "new_group.key" }` lets an owner's file written
before keep working: the key is read where it now lives. When shipped values change,
the previous `data.toml` is kept as `shipped/DIGEST.toml` in the game's package, so a
game started with it is resumed and replayed with its own values (`earlier_digests`).
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import DataError, DataUnreadable

PROVENANCES = ("rulebook", "derived", "public", "provisional", "override", "owner")
META_KEYS = ("provenance", "source", "ask")


@dataclass(frozen=True)
class Group:
    """One value group with its provenance. `shipped` is the provenance of the shipped
    group, `owned` the keys an override file replaced, `ask` what to ask an owner."""

    name: str
    provenance: str
    source: str
    values: dict[str, Any]
    shipped: str = ""
    owned: frozenset[str] = frozenset()
    ask: dict[str, str] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def unchecked(self) -> list[str]:
        """The keys still provisional: shipped as guesses and not replaced by the owner."""
        if (self.shipped or self.provenance) != "provisional":
            return []
        return [k for k in self.values if k not in self.owned]


class GameData:
    """The validated data of one game, addressed by group name."""

    def __init__(
        self, game: str, groups: dict[str, Group], origin: str, override_text: str | None = None
    ) -> None:
        self.game = game
        self.groups = groups
        self.origin = origin
        self.override_text = override_text
        """The override file's text these values come from (None: the shipped data), so an
        app can keep it with a game and load the same values later."""
        canonical = json.dumps(
            {k: g.values for k, g in sorted(groups.items())}, sort_keys=True, default=str
        )
        self.digest = hashlib.sha256(canonical.encode()).hexdigest()[:12]

    def __getitem__(self, name: str) -> Group:
        try:
            return self.groups[name]
        except KeyError:
            raise DataError(f"{self.origin}: no value group [{name}]") from None

    def provisional(self) -> list[Group]:
        return [g for g in self.groups.values() if g.provenance == "provisional"]

    def unchecked(self) -> list[tuple[Group, str]]:
        """Every provisional value an owner has not checked: (group, key), in file order."""
        return [(g, k) for g in self.groups.values() for k in g.unchecked()]


def _parse_groups(raw: dict[str, Any], origin: str, *, override: bool) -> dict[str, Group]:
    groups: dict[str, Group] = {}
    for name, table in raw.items():
        if name == "meta":
            continue
        if not isinstance(table, dict):
            raise DataError(f"{origin}: [{name}] must be a table of values")
        values = {k: v for k, v in table.items() if k not in META_KEYS}
        prov: Any
        source: Any
        if override:
            prov = table.get("provenance", "override")
            source = str(table.get("source", origin))
        else:
            prov = table.get("provenance")
            if prov not in PROVENANCES[:4]:
                raise DataError(
                    f"{origin}: [{name}] needs provenance = one of "
                    f"{', '.join(PROVENANCES[:4])} (found {prov!r})"
                )
            source = table.get("source")
            if not isinstance(source, str) or not source.strip():
                raise DataError(f'{origin}: [{name}] needs a non-empty source = "..."')
        ask = table.get("ask", {})
        if not isinstance(ask, dict) or not all(isinstance(v, str) for v in ask.values()):
            raise DataError(f'{origin}: [{name}] ask must be a table of key = "question"')
        groups[name] = Group(name, prov, source, values, ask=dict(ask))
    return groups


def _kind(value: Any) -> str:
    """The kind of a TOML value, as an owner would say it."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text in quotes"
    if isinstance(value, list):
        return "a list [...]"
    return "a table { ... }"


def value_problem(new: Any, old: Any) -> str | None:
    """Why `new` cannot replace `old` (None: it can): the same kind of value, and the
    items of a list or table of the kind the shipped ones are (what keys a nested table
    may have is the game's own check, `Game.check_data`)."""
    if _kind(new) != _kind(old):
        return f"must be {_kind(old)}, like {json.dumps(old)[:60]}"
    samples = old if isinstance(old, list) else list(old.values()) if isinstance(old, dict) else []
    kinds = {_kind(v) for v in samples}
    if len(kinds) == 1:
        items = new if isinstance(new, list) else list(new.values())
        labels = [f"item {i + 1}" for i in range(len(new))] if isinstance(new, list) else list(new)
        for label, item in zip(labels, items, strict=True):
            why = value_problem(item, samples[0])
            if why:
                return f"{label} {why}"
    return None


def line_of(text: str, group: str, key: str | None = None) -> int | None:
    """The line (1-based) where `[group]` or its `key` is written, for messages; None if
    it cannot be found (a dotted or inline way of writing it)."""
    current = None
    header = None
    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("[") and not stripped.startswith("[["):
            current = stripped.strip("[]").split("#")[0].strip().strip('"')
            if current == group and header is None:
                header = n
            continue
        if current == group and key is not None:
            lead = stripped.split("=", 1)[0].strip().strip('"')
            if "=" in stripped and lead == key:
                return n
    return header


_NAMED = re.compile(r"\[([\w-]+)\](?: ([\w-]+))?")


def located(message: str, data: GameData, override: Path | str | None) -> str:
    """`message` (a game's own check of `data`, naming `[group] key`) said at the line of
    the owner's file that holds the value: `FILE:LINE: [group] key ...`. Unchanged when
    the group is not in the owner's file (or there is none)."""
    text = data.override_text
    found = _NAMED.search(message)
    if text is None or found is None:
        return message
    group, key = found.group(1), found.group(2)
    line = line_of(text, group, key) or line_of(text, group)
    if line is None:
        return message
    path = override if override is not None else "<override>"
    return f"{path}:{line}: {message[found.start() :]}"


def _where(path: Path, text: str, group: str, key: str | None = None) -> str:
    line = line_of(text, group, key)
    return f"{path}:{line}" if line else str(path)


def _read_toml(path: Path | str, text: str | None = None) -> dict[str, Any]:
    try:
        if text is None:
            text = Path(path).read_text(encoding="utf-8")
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: {exc}") from None
    except OSError as exc:
        raise DataUnreadable(path, exc) from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not a TOML file: byte {exc.start} is not UTF-8 text") from None


def earlier_digests(package: str) -> list[str]:
    """The digests of the data files `package` shipped before its current `data.toml`
    (kept as `shipped/DIGEST.toml`), oldest name first."""
    folder = resources.files(package).joinpath("shipped")
    if not folder.is_dir():
        return []
    names = (f.name for f in folder.iterdir())
    return sorted(n.removesuffix(".toml") for n in names if n.endswith(".toml"))


def _moved(raw: dict[str, Any], moved: Any, origin: str) -> dict[str, Any]:
    """An override's tables with every key the shipped data moved ("group.key" =
    "new_group.key") read where it now lives; a table left with no value is dropped."""
    if not isinstance(moved, dict) or not moved:
        return raw
    out = {name: dict(table) if isinstance(table, dict) else table for name, table in raw.items()}
    for old, new in moved.items():
        group, _, key = str(old).partition(".")
        new_group, _, new_key = str(new).partition(".")
        table = out.get(group)
        if not isinstance(table, dict) or key not in table:
            continue
        target = out.setdefault(new_group, {})
        if not isinstance(target, dict):
            raise DataError(f"{origin}: [{new_group}] must be a table of values")
        for meta in ("provenance", "source"):
            if meta in table:
                target.setdefault(meta, table[meta])
        target.setdefault(new_key, table.pop(key))
        if not set(table) - set(META_KEYS):
            del out[group]
    return out


def load_game_data(
    package: str,
    game: str,
    *,
    override: Path | str | None = None,
    override_text: str | None = None,
    shipped: str | None = None,
) -> GameData:
    """Load `data.toml` of `package` (`shipped`: the earlier data file of that digest,
    `earlier_digests`), then apply the `override` file if one is given (`override_text`:
    that file's text, already read or about to be written).

    Where an owner keeps such a file is the app's business (apps.userdata): the engine
    reads no environment and no home directory.
    """
    name = "data.toml" if shipped is None else f"shipped/{shipped}.toml"
    origin = f"{package.replace('.', '/')}/{name}"
    if shipped is not None and shipped not in earlier_digests(package):
        raise DataError(f"{game} never shipped component data {shipped}")
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    raw = _read_toml(origin, text)
    moved = raw.get("meta", {}).get("moved") if isinstance(raw.get("meta"), dict) else None
    groups = _parse_groups(raw, origin, override=False)
    groups = {
        n: Group(n, g.provenance, g.source, g.values, g.provenance, ask=g.ask)
        for n, g in groups.items()
    }
    if override is None and override_text is None:
        return GameData(game, groups, origin)
    path = Path(override) if override is not None else Path("<override>")
    if override_text is None:
        override_text = _read_text(path)
    extra_raw = _moved(_read_toml(path, override_text), moved, str(path))
    extra = _parse_groups(extra_raw, str(path), override=True)
    for name, group in extra.items():
        where = _where(path, override_text, name)
        base = groups.get(name)
        if base is None:
            raise DataError(
                f"{where}: [{name}] is not a value group of {game} "
                f"(groups: {', '.join(groups)}; `tavola data {game} --template` lists them)"
            )
        if group.provenance not in ("override", "owner"):
            raise DataError(
                f"{_where(path, override_text, name, 'provenance')}: [{name}] provenance "
                f'must be "owner" (a checked copy) or left out, not {group.provenance!r}'
            )
        unknown = set(group.values) - set(base.values)
        if unknown:
            first = sorted(unknown)[0]
            raise DataError(
                f"{_where(path, override_text, name, first)}: [{name}] has unknown keys: "
                f"{', '.join(sorted(unknown))} (its keys: {', '.join(base.values)})"
            )
        for key, value in group.values.items():
            why = value_problem(value, base.values[key])
            if why:
                raise DataError(f"{_where(path, override_text, name, key)}: [{name}] {key} {why}")
        groups[name] = Group(
            name,
            group.provenance,
            str(path),
            {**base.values, **group.values},
            base.shipped,
            frozenset(group.values),
            base.ask,
        )
    return GameData(game, groups, f"{origin} + {path}", override_text)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataUnreadable(path, exc) from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not a TOML file: byte {exc.start} is not UTF-8 text") from None
