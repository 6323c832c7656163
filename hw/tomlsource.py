"""TOML files with line numbers: `tomllib` gives none, and start-up errors must name the line.

`TomlSource` keeps the parsed data next to the raw text and finds the line a key
is written on, so config and layout errors read `file:line: key: what is wrong`.
The locator is deliberately small: it understands table headers, bare, quoted and
dotted keys, and inline tables (whose inner keys report their parent's line).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Key = tuple[str, ...]

_BARE = r"[A-Za-z0-9_-]+"
_PART = rf'(?:{_BARE}|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_DOTTED = rf"{_PART}(?:\s*\.\s*{_PART})*"
_HEADER = re.compile(rf"^\s*\[\[?\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(rf"^\s*({_DOTTED})\s*=")
_PART_RE = re.compile(_PART)


class ConfigError(ValueError):
    """A configuration or layout file that cannot be used; the message names file, line and key."""


def _split_key(dotted: str) -> Key:
    parts = []
    for m in _PART_RE.finditer(dotted):
        p = m.group(0)
        if p[0] in "\"'":
            p = p[1:-1]
        parts.append(p)
    return tuple(parts)


def dotted(key: Key) -> str:
    """A key path as it would be written in the file (quoting parts that need it)."""
    # quoted as TOML would: a control character shows as \u0007, not raw in the message
    return ".".join(p if re.fullmatch(_BARE, p) else json.dumps(p, ensure_ascii=False) for p in key)


@dataclass
class TomlSource:
    """Parsed TOML data, its source name and raw text, and the line of every key."""

    name: str
    text: str
    data: dict[str, Any]
    lines: dict[Key, int] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> TomlSource:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
        except UnicodeDecodeError as e:
            raise ConfigError(
                f"{path}: not a TOML file: byte {e.start} is not UTF-8 text"
            ) from None
        return cls.parse(text, name=str(path))

    @classmethod
    def parse(cls, text: str, *, name: str = "<config>") -> TomlSource:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            dup = _duplicate(text)
            if dup:
                line, key, first = dup
                raise ConfigError(
                    f"{name}:{line}: {dotted(key)}: defined twice (first on line {first})"
                ) from None
            raise ConfigError(f"{name}: not valid TOML: {e}") from None
        return cls.from_data(data, name=name, text=text)

    @classmethod
    def from_data(cls, data: dict[str, Any], *, name: str, text: str) -> TomlSource:
        return cls(name=name, text=text, data=data, lines=_locate(text))

    def line_of(self, key: Key) -> int | None:
        """The line where `key` (or, failing that, its nearest written parent) appears."""
        for end in range(len(key), 0, -1):
            line = self.lines.get(key[:end])
            if line is not None:
                return line
        return None

    def error(self, key: Key, message: str) -> ConfigError:
        line = self.line_of(key)
        where = f"{self.name}:{line}" if line else self.name
        return ConfigError(f"{where}: {dotted(key)}: {message}" if key else f"{where}: {message}")


def _scan(text: str) -> Iterator[tuple[int, str, Key, Key]]:
    """(line, "table" | "array" | "value", full key, enclosing table) for each header and key."""
    table: Key = ()
    for number, raw in enumerate(text.splitlines(), start=1):
        m = _HEADER.match(raw)
        if m:
            table = _split_key(m.group(1))
            yield number, "array" if raw.lstrip().startswith("[[") else "table", table, ()
            continue
        m = _ASSIGN.match(raw)
        if m:
            yield number, "value", table + _split_key(m.group(1)), table


def _locate(text: str) -> dict[Key, int]:
    lines: dict[Key, int] = {}
    for number, kind, key, table in _scan(text):
        for end in range(len(table) + 1 if kind == "value" else len(key), len(key) + 1):
            lines.setdefault(key[:end], number)
    return lines


def _duplicate(text: str) -> tuple[int, Key, int] | None:
    """The first key written twice (or a value later extended as a table): tomllib won't say."""
    values: dict[Key, int] = {}
    headers: dict[Key, int] = {}
    for number, kind, key, table in _scan(text):
        if kind == "array":
            continue
        for end in range(len(table) + 1, len(key) + 1):
            if key[:end] in values:
                return number, key, values[key[:end]]
        if key in headers:
            return number, key, headers[key]
        (values if kind == "value" else headers)[key] = number
    return None
