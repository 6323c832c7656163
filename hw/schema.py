"""One declarative config schema for every layer: keys, types, ranges, defaults, help.

A table of the config file is declared once, as data::

    BUTTONS = Table(
        Key("debounce_ms", Number(lo=0, hi=1000), 20, "a release counts once open this long"),
        Key("pin_factory", Choice(PIN_FACTORIES), None, "gpiozero's pin factory"),
    )

and `BUTTONS.read(src, ("buttons",), data)` checks what the file says against it:
a wrong type, a value out of range, a number that is not finite, a key that is
missing or unknown ("did you mean 'debounce_ms'?"). Each problem is one
`ConfigError` naming the file, the line and the key (`hw.tomlsource`); the
result is a `Section` with every declared key, defaults filled in, for the
checks that involve several keys (those stay code, beside the declaration).
The same types check command-line flags (`argument()`), so a flag and a key
refuse the same value with the same words.

hw declares `[buttons]`, `[seats.NAME]`, `[table]`, `[strip]` (a table of keys
per LED backend, `Variants`) and `[pipeline]`; firmware_bridge `[scanner]` and
`[mcu]`; apps `[app]` and the game options, and composes all of them into the
schema of the whole file, which also refuses tables nobody declared.
"""

from __future__ import annotations

import argparse
import difflib
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hw.tomlsource import ConfigError, TomlSource
from hw.tomlsource import Key as KeyPath

__all__ = [
    "REQUIRED",
    "Bool",
    "Choice",
    "ConfigError",
    "Custom",
    "FilePath",
    "Int",
    "Invalid",
    "Key",
    "Number",
    "Section",
    "Table",
    "Text",
    "Type",
    "Variants",
    "argument",
    "did_you_mean",
    "kind_of",
]


class Invalid(ValueError):
    """A value that does not fit its type; the message leaves the key to the caller."""


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


def kind_of(value: Any) -> str:
    """How a TOML (or JSON) value is called in a message."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    names: dict[type, str] = {str: "a string", list: "a list", dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def did_you_mean(word: str, known: Sequence[str]) -> str:
    """' (did you mean 'x'?)' for a near miss among `known`, else ''."""
    close = difflib.get_close_matches(str(word), [str(k) for k in known], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


class Type:
    """A key's type: `check(value)` gives the value to use or raises `Invalid`."""

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def describe(self) -> str:
        """The values it takes, for messages and --help ("a whole number 1-10000")."""
        raise NotImplementedError

    def _wrong(self, value: Any) -> Invalid:
        return Invalid(f"must be {self.describe()}, got {kind_of(value)} {_shown(value)}")


def _num(x: float) -> str:
    """A bound as people write it: 10000000, not 1e+07; 0.5 as 0.5."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _span(lo: float | None, hi: float | None, above: float | None = None) -> str:
    if above is not None:
        return f"greater than {_num(above)}" + (
            f" and at most {_num(hi)}" if hi is not None else ""
        )
    if lo is not None and hi is not None:
        return f"{_num(lo)}-{_num(hi)}" if hi - lo < 10**15 else f"{_num(lo)} to {hi}"
    if lo is not None:
        return f"{_num(lo)} or more"
    if hi is not None:
        return f"at most {_num(hi)}"
    return ""


@dataclass(frozen=True)
class Int(Type):
    lo: int | None = None
    hi: int | None = None

    def describe(self) -> str:
        span = _span(self.lo, self.hi)
        return "a whole number" + (f" {span}" if span else "")

    def check(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._wrong(value)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise Invalid(f"{_shown(value)} is out of range: must be {self.describe()}")
        return value


@dataclass(frozen=True)
class Number(Type):
    lo: float | None = None
    hi: float | None = None
    above: float | None = None  # exclusive lower bound

    def describe(self) -> str:
        span = _span(self.lo, self.hi, self.above)
        return "a number" + (f" {span}" if span else "")

    def check(self, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._wrong(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise Invalid(f"must be {self.describe()}, not {value!r}")
        if (
            (self.above is not None and not value > self.above)
            or (self.lo is not None and value < self.lo)
            or (self.hi is not None and value > self.hi)
        ):
            raise Invalid(f"{_shown(value)} is out of range: must be {self.describe()}")
        return float(value)


@dataclass(frozen=True)
class Bool(Type):
    def describe(self) -> str:
        return "true or false"

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self._wrong(value)
        return value


@dataclass(frozen=True)
class Text(Type):
    """A string: non-empty, printable, at most `longest` characters, maybe a pattern."""

    pattern: str | None = None
    example: str = ""
    longest: int = 4096

    def describe(self) -> str:
        return "a string" + (f" like {self.example!r}" if self.example else "")

    def check(self, value: Any) -> str:
        if not isinstance(value, str):
            raise self._wrong(value)
        if not value.strip() or not value.isprintable() or len(value) > self.longest:
            raise Invalid(
                f"must be {self.describe()}: not empty, printable, at most "
                f"{self.longest} characters"
            )
        if self.pattern is not None and not re.fullmatch(self.pattern, value):
            raise Invalid(f"{_shown(value)} is not {self.describe()}")
        return value


@dataclass(frozen=True)
class FilePath(Text):
    """A file path (not checked for existence here: its reader says what is wrong)."""

    example: str = "/etc/tavola/file.toml"

    def describe(self) -> str:
        return f"a file path like {self.example!r}"

    def check(self, value: Any) -> Path:  # type: ignore[override]
        return Path(super().check(value))


@dataclass(frozen=True)
class Choice(Type):
    """One of `values`, compared with their types (`true` is not `1`)."""

    values: tuple[Any, ...]

    def __init__(self, values: Sequence[Any] | range) -> None:
        object.__setattr__(self, "values", tuple(values))

    def describe(self) -> str:
        return "one of " + ", ".join(_toml(v) for v in self.values)

    def check(self, value: Any) -> Any:
        for v in self.values:
            if type(v) is type(value) and v == value:
                return value
        hint = (
            did_you_mean(value, [v for v in self.values if isinstance(v, str)])
            if (isinstance(value, str))
            else ""
        )
        raise Invalid(f"{_shown(value)} is not {self.describe()}{hint}")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else repr(value)


@dataclass(frozen=True)
class Custom(Type):
    """A type whose check is a function (a colour, a USB id): ValueError means no."""

    what: str
    convert: Callable[[Any], Any]

    def describe(self) -> str:
        return self.what

    def check(self, value: Any) -> Any:
        try:
            return self.convert(value)
        except (ValueError, TypeError) as exc:
            raise Invalid(str(exc)) from None


@dataclass(frozen=True)
class Key:
    """One key of a table: its name, type, default (REQUIRED: must be written) and help."""

    name: str
    type: Type
    default: Any = REQUIRED
    help: str = ""


@dataclass
class Section(Mapping[str, Any]):
    """A checked table: every declared key (defaults filled in), where it was written."""

    src: TomlSource
    at: KeyPath
    checked: dict[str, Any]
    written: set[str] = field(default_factory=set)

    def __getitem__(self, name: str) -> Any:
        return self.checked[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.checked)

    def __len__(self) -> int:
        return len(self.checked)

    def given(self, name: str) -> bool:
        """Whether the file wrote `name` (not just its default)."""
        return name in self.written

    def err(self, name: str | None, message: str) -> ConfigError:
        return self.src.error(self.at + ((name,) if name else ()), message)


@dataclass(frozen=True)
class Table(Type):
    """A TOML table: its declared keys, and a type for keys it does not declare (`rest`:
    a free table, such as segment names or game options); no `rest` refuses them."""

    keys: tuple[Key, ...] = ()
    rest: Type | None = None
    rest_name: str = "key"  # what the free keys are, for messages ("segment name")
    rest_pattern: str | None = None  # what they may look like

    def __init__(
        self,
        *keys: Key,
        rest: Type | None = None,
        rest_name: str = "key",
        rest_pattern: str | None = None,
    ) -> None:
        object.__setattr__(self, "keys", tuple(keys))
        object.__setattr__(self, "rest", rest)
        object.__setattr__(self, "rest_name", rest_name)
        object.__setattr__(self, "rest_pattern", rest_pattern)

    def describe(self) -> str:
        return "a table"

    def names(self) -> list[str]:
        return [k.name for k in self.keys]

    def key(self, name: str) -> Key:
        return next(k for k in self.keys if k.name == name)

    def check(self, value: Any) -> Any:
        if not isinstance(value, dict):
            raise self._wrong(value)
        return value

    def read(self, src: TomlSource, at: KeyPath, data: Any, *, why: str = "") -> Section:
        """Check `data`, the table at `at` of `src`; `why` explains the known keys."""
        if not isinstance(data, dict):
            raise src.error(at, f"must be a table, got {kind_of(data)} {_shown(data)}")
        values: dict[str, Any] = {}
        declared = {k.name: k for k in self.keys}
        for name, value in data.items():
            if name in declared:
                continue
            if self.rest is None:
                known = ", ".join(self.names()) or "none"
                raise src.error(
                    (*at, name),
                    f"unknown key{did_you_mean(name, self.names())} ({why or 'known: ' + known})",
                )
            if self.rest_pattern is not None and not re.fullmatch(self.rest_pattern, name):
                raise src.error((*at, name), f"is not a valid {self.rest_name}")
            values[name] = _read_value(self.rest, src, (*at, name), value)
        for k in self.keys:
            if k.name in data:
                values[k.name] = _read_value(k.type, src, (*at, k.name), data[k.name])
            elif k.default is REQUIRED:
                raise src.error(at, f"missing key {k.name!r}" + (f" ({k.help})" if k.help else ""))
            else:
                values[k.name] = k.default
        return Section(src, at, values, set(data))


def _read_value(t: Type, src: TomlSource, at: KeyPath, value: Any) -> Any:
    if isinstance(t, Table | Variants):
        return t.read(src, at, value)
    try:
        return t.check(value)
    except Invalid as exc:
        raise src.error(at, str(exc)) from None


@dataclass(frozen=True)
class Variants(Type):
    """A table whose keys depend on one of them (`[strip] backend`): the selector's value
    picks a `Table` of further keys, added to the common ones."""

    selector: Key
    common: tuple[Key, ...]
    by: Mapping[str, Table]

    def describe(self) -> str:
        return "a table"

    def check(self, value: Any) -> Any:
        return value

    def table(self, choice: str) -> Table:
        return Table(self.selector, *self.common, *self.by[choice].keys)

    def read(self, src: TomlSource, at: KeyPath, data: Any, *, why: str = "") -> Section:
        if not isinstance(data, dict):
            raise src.error(at, f"must be a table, got {kind_of(data)} {_shown(data)}")
        name = self.selector.name
        choice = Table(self.selector).read(src, at, {name: data[name]} if name in data else {})[
            name
        ]
        table = self.table(choice)
        return table.read(
            src,
            at,
            data,
            why=why or (f"{name} {choice!r} takes: {', '.join(sorted(table.names()))}"),
        )


def argument(t: Type) -> Callable[[str], Any]:
    """An argparse `type=` that parses a flag's text and checks it as `t` would a key."""

    def parse(text: str) -> Any:
        value: Any = text
        if isinstance(t, Int):
            if not re.fullmatch(r"[+-]?\d{1,30}", text.strip()):
                raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
            value = int(text)
        elif isinstance(t, Number):
            try:
                value = float(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
        try:
            return t.check(value)
        except Invalid as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = t.describe()  # argparse names the type in its message
    return parse
