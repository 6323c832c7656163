"""State fields declared once: persistence and copying derived from the declaration.

A game's State lists its fields in `FIELDS`, each with a *kind* that says how the value
is shaped (a scalar, a list of scalars, a list of lists, ...). From that one list the
core writes the game part of `to_dict()`, its inverse `_load_fields()` and `clone()`.
Like `dataclasses`, it generates their source once per class and compiles it, so a
generated `clone()` is the same straight-line code a careful hand would write: no loop
over the fields, no per-field dispatch at run time.

    FIELDS = Fields(
        phase=SCALAR,
        seen=Codec(copy=set, dump=sorted, load=set),
        flags=LISTS,
        ports=lists(of=PortEntry),      # a list of lists of named tuples
        payouts=Field(tuples(of=Payout, immutable=True), default=()),  # added later
    )

The dict keeps the declaration's order, so a format stays byte-compatible as long as
the declaration lists the keys in the order they were written. A field added after
games were recorded gets `default=`: older records load with it. `Field(kind,
saved=False)` is copied by `clone()` but not stored (an index rebuilt by the state's
`_after_load()`); `Stored(dump, load)` is a key written and read by functions of the
whole state, for a stored form that spans several attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

MISSING: Any = object()
"""No default: the key must be in the record."""


@dataclass(frozen=True)
class Kind:
    """How a value is copied, stored and loaded, as source templates over `{v}`.

    `copy` None means the value is immutable and is shared by clones. `{make}` in a
    template is the item constructor (`of._make` for a named tuple).
    """

    name: str
    copy: str | None
    dump: str
    load: str
    make: Callable[..., Any] | None = None


SCALAR = Kind("scalar", None, "{v}", "{v}")
"""An int, str, bool or None."""
SCALARS = Kind("list of scalars", "{v}[:]", "list({v})", "list({v})")
"""A list of ints, strs, bools or Nones."""
MAPPING = Kind("mapping", "{v}.copy()", "dict({v})", "dict({v})")
"""A dict of scalars (stored as a JSON object). A restored dict has the record's key
order, which a JSON store may change: where order matters, iterate a fixed order (the
component data's) and look the values up, never the dict itself."""


def _make_of(of: type | None) -> Callable[..., Any] | None:
    if of is None:
        return None
    make = getattr(of, "_make", None)  # a NamedTuple builds from an iterable with _make
    return make if make is not None else of


def lists(of: type | None = None) -> Kind:
    """A list of lists of scalars, or (`of=`) of named tuples; stored as arrays."""
    if of is None:
        return Kind(
            "list of lists",
            "[y[:] for y in {v}]",
            "[list(y) for y in {v}]",
            "[list(y) for y in {v}]",
        )
    return Kind(
        f"list of lists of {of.__name__}",
        "[y[:] for y in {v}]",
        "[[list(e) for e in y] for y in {v}]",
        "[[{make}(e) for e in y] for y in {v}]",
        _make_of(of),
    )


def tuples(of: type = tuple, *, immutable: bool = False) -> Kind:
    """A list of tuples (or named tuples `of`), stored as arrays of arrays.

    `immutable=True`: the container itself is a tuple, shared by clones (an
    append-only record grown by `+=`, rebuilt only when it changes)."""
    if immutable:
        return Kind(
            f"tuple of {of.__name__}",
            None,
            "[list(y) for y in {v}]",
            "tuple([{make}(y) for y in {v}])",
            _make_of(of),
        )
    return Kind(
        f"list of {of.__name__}",
        "{v}[:]",
        "[list(y) for y in {v}]",
        "[{make}(y) for y in {v}]",
        _make_of(of),
    )


def optional(of: type | None = None) -> Kind:
    """None or a list of scalars; with `of=` None or one named tuple (immutable, shared)."""
    if of is None:
        return Kind(
            "optional list",
            "None if {v} is None else {v}[:]",
            "None if {v} is None else list({v})",
            "None if {v} is None else list({v})",
        )
    return Kind(
        f"optional {of.__name__}",
        None,
        "None if {v} is None else list({v})",
        "None if {v} is None else {make}({v})",
        _make_of(of),
    )


LISTS = lists()
"""A list of lists of scalars."""
TUPLES = tuples()
"""A list of tuples of scalars."""
OPTIONAL = optional()
"""None or a list of scalars."""


@dataclass(frozen=True)
class Codec:
    """A kind of its own: functions of the value. `copy=None`: immutable, shared."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]
    copy: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class Field:
    """A declared attribute: its kind, a default for records older than the field, and
    whether it is stored at all (`saved=False`: copied by clone, rebuilt on load)."""

    kind: Kind | Codec
    default: Any = MISSING
    saved: bool = True


@dataclass(frozen=True)
class Stored:
    """A key of the record computed from the whole state: `dump(state)` gives its value,
    `load(state, record)` sets the attributes from the record (which it reads whole, so it
    may also use keys loaded after it). The attributes themselves are declared with
    `saved=False` so clone copies them, or, for an attribute of the key's own name, by
    `copy`."""

    dump: Callable[[Any], Any]
    load: Callable[[Any, Mapping[str, Any]], None]
    merge: bool = False
    """`dump` gives a dict of keys merged into the record (none for an empty dict): a part
    of the state that exists only in some games, stored at the top level."""
    copy: Kind | None = None
    """The kind of the attribute named like the key, for `clone()`: the record holds
    another form of it (names where the attribute holds indices). None: no such attribute,
    or an immutable one."""


Entry = Kind | Codec | Field | Stored


class Fields:
    """The ordered field declaration of a State class (see the module docstring)."""

    def __init__(self, **entries: Entry) -> None:
        self.entries: dict[str, Field | Stored] = {
            name: e if isinstance(e, Field | Stored) else Field(e) for name, e in entries.items()
        }

    def __add__(self, other: Fields) -> Fields:
        """A subclass's declaration: the parent's fields, then its own."""
        both = Fields()
        both.entries = {**self.entries, **other.entries}
        return both

    def compile(self, owner: str) -> dict[str, Callable[..., Any]]:
        """`_fields`, `_load_fields` and `clone` for a class, from generated source."""
        env: dict[str, Any] = {"_new": object.__new__, "_missing": _missing}
        copy_lines = [
            "new = _new(type(self))",
            "new.__dict__.update(self.__dict__)",
            "new.history = self.history[:]",
        ]
        dump_lines: list[str] = []
        load_lines: list[str] = []
        required: list[str] = []
        for name, entry in self.entries.items():
            if isinstance(entry, Stored):
                self._stored_lines(name, entry, env, dump_lines, load_lines, copy_lines)
                continue
            copy, dump, load = self._templates(name, entry.kind, env)
            attr = f"self.{name}"
            if copy is not None:
                copy_lines.append(f"new.{name} = {copy.format(v=attr)}")
            if entry.saved:
                dump_lines.append(f"d[{name!r}] = {dump.format(v=attr)}")
                raw = self._raw(name, entry, env, required)
                load_lines.append(f"self.{name} = {load.format(v=raw)}")
        copy_lines.append("return new")
        env["_required"] = tuple(required)
        source = "\n".join(
            [
                "def clone(self):",
                *(f"    {line}" for line in copy_lines),
                "def _fields(self):",
                "    d = {}",
                *(f"    {line}" for line in dump_lines),
                "    return d",
                "def _load_fields(self, d):",
                "    for key in _required:",
                "        if key not in d:",
                f"            raise _missing({owner!r}, key)",
                *(f"    {line}" for line in load_lines),
            ]
        )
        exec(compile(source, f"<fields of {owner}>", "exec"), env)  # our own source, as dataclasses
        return {k: env[k] for k in ("clone", "_fields", "_load_fields")}

    @classmethod
    def _stored_lines(
        cls,
        name: str,
        entry: Stored,
        env: dict[str, Any],
        dump_lines: list[str],
        load_lines: list[str],
        copy_lines: list[str],
    ) -> None:
        env[f"_dump_{name}"], env[f"_load_{name}"] = entry.dump, entry.load
        if entry.merge:
            dump_lines.append(f"d.update(_dump_{name}(self))")
        else:
            dump_lines.append(f"d[{name!r}] = _dump_{name}(self)")
        load_lines.append(f"_load_{name}(self, d)")
        copy = None if entry.copy is None else cls._templates(name, entry.copy, env)[0]
        if copy is not None:
            copy_lines.append(f"new.{name} = {copy.format(v=f'self.{name}')}")

    @staticmethod
    def _raw(name: str, entry: Field, env: dict[str, Any], required: list[str]) -> str:
        """The expression reading a field from the record `d`, with its default if any."""
        if entry.default is MISSING:
            required.append(name)
            return f"d[{name!r}]"
        env[f"_default_{name}"] = entry.default
        return f"d.get({name!r}, _default_{name})"

    @staticmethod
    def _templates(
        name: str, kind: Kind | Codec, env: dict[str, Any]
    ) -> tuple[str | None, str, str]:
        if isinstance(kind, Codec):
            env[f"_cdump_{name}"], env[f"_cload_{name}"] = kind.dump, kind.load
            copy = None
            if kind.copy is not None:
                env[f"_ccopy_{name}"] = kind.copy
                copy = f"_ccopy_{name}({{v}})"
            return copy, f"_cdump_{name}({{v}})", f"_cload_{name}({{v}})"
        make = ""
        if kind.make is not None:
            make = f"_make_{name}"
            env[make] = kind.make

        def fill(template: str | None) -> str | None:
            return None if template is None else template.replace("{make}", make)

        copy, dump, load = fill(kind.copy), fill(kind.dump), fill(kind.load)
        assert dump is not None and load is not None
        return copy, dump, load


def _missing(owner: str, key: str) -> ValueError:
    return ValueError(f"this {owner} record has no {key!r}: it is not a complete saved game")
