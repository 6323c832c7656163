"""Change a few keys of a TOML file's text and keep everything else byte for byte.

A config file is the owner's: comments explain pins and budgets, keys are grouped the
way they wired the table. A TOML writer that rewrites the whole file (tomli-w, or
`tomllib` data dumped again) would lose all of that, and a style-keeping library
(tomlkit) is another dependency on the Pi whose output still has to be trusted. This
module edits the text instead: it finds where each key is written (a table header, a
bare, quoted or dotted key, values across lines), replaces only the value's characters
(a comment after it stays), adds a missing key after its table's last key (or a new
table at the end), and removes a line for a key set to None.

Every edit is then checked: the edited text is parsed again and must give exactly the
old data with the changes made, nothing else; otherwise `EditError` and no text.
"""

from __future__ import annotations

import copy
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hw.tomlsource import _ASSIGN, _HEADER, Key, _split_key, dotted

__all__ = ["EditError", "edit", "toml_value"]


class EditError(ValueError):
    """The text cannot be changed safely (the message says where and what to do instead)."""


@dataclass(frozen=True)
class _Entry:
    kind: str  # "table", "array" (a [[header]]) or "value"
    key: Key  # the full key path
    section: int  # the index of its header among the headers (-1: before any)
    start: int  # where its line starts
    value: tuple[int, int]  # the value's characters (values only)
    end: int  # just past its line (and the lines its value spans)
    line: int


_BARE_VALUE = re.compile(r"[^\s#,\]}]+(?: \d\d:\d\d[^\s#,\]}]*)?")


def _skip_value(text: str, i: int) -> int:
    """The end of the TOML value starting at `i` (it may span lines)."""
    for quote in ('"""', "'''"):
        if text.startswith(quote, i):
            j = i + 3
            while True:
                if quote == '"""' and text.startswith("\\", j):
                    j += 2
                    continue
                if text.startswith(quote, j):
                    run = 3
                    while run < 5 and text[j + run : j + run + 1] == quote[0]:
                        run += 1  # up to two quotes may end the content
                    return j + run
                if j >= len(text):
                    raise EditError("a multi-line string is not closed")
                j += 1
    c = text[i : i + 1]
    if c in ('"', "'"):
        j = i + 1
        while j < len(text) and text[j] != c and text[j] != "\n":
            j += 2 if c == '"' and text[j] == "\\" else 1
        if j >= len(text) or text[j] != c:
            raise EditError("a string is not closed on its line")
        return j + 1
    if c in ("[", "{"):
        depth, j = 0, i
        while j < len(text):
            ch = text[j]
            if ch in "\"'":
                j = _skip_value(text, j)
                continue
            if ch == "#":
                nl = text.find("\n", j)
                j = len(text) if nl < 0 else nl
                continue
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise EditError("an array or inline table is not closed")
    m = _BARE_VALUE.match(text, i)
    if not m:
        raise EditError("a key has no value")
    return m.end()


def _scan(text: str) -> list[_Entry]:
    entries: list[_Entry] = []
    table: Key = ()
    section = -1
    pos, line = 0, 1
    while pos < len(text):
        nl = text.find("\n", pos)
        eol = len(text) if nl < 0 else nl + 1
        raw = text[pos:eol].rstrip("\r\n")
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            pos, line = eol, line + 1
            continue
        m = _HEADER.match(raw)
        if m:
            table = _split_key(m.group(1))
            section += 1
            kind = "array" if stripped.startswith("[[") else "table"
            entries.append(_Entry(kind, table, section, pos, (eol, eol), eol, line))
            pos, line = eol, line + 1
            continue
        m = _ASSIGN.match(raw)
        if not m:
            raise EditError(f"line {line} is neither a table header nor a key")
        v = pos + m.end()
        while text[v : v + 1] in (" ", "\t"):
            v += 1
        end = _skip_value(text, v)
        rest = re.compile(r"[ \t]*(?:#[^\n]*)?(?:\r?\n|$)").match(text, end)
        if rest is None:
            raise EditError(f"line {line}: something follows the value of {m.group(1).strip()}")
        key = table + _split_key(m.group(1))
        entries.append(_Entry("value", key, section, pos, (v, end), rest.end(), line))
        line += text.count("\n", pos, rest.end())
        pos = rest.end()
    return entries


def _basic_string(s: str) -> str:
    out = []
    for ch in s:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            raise EditError(f"{s!r} is not text that can be written (a lone surrogate)")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    """`value` (a string, number, true/false, an inline table or a list of them) as TOML
    writes it; a list of tables one table a line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _basic_string(value)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return (
            "{ "
            + ", ".join(f"{dotted((str(k),))} = {toml_value(v)}" for k, v in value.items())
            + " }"
        )
    if isinstance(value, list | tuple):
        if any(isinstance(v, Mapping) for v in value):  # tables: one a line, as people write them
            return "[\n" + "".join(f"  {toml_value(v)},\n" for v in value) + "]"
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise EditError(f"cannot write {type(value).__name__} {value!r} as one TOML value")


def _expected(data: dict[str, Any], changes: Mapping[Key, Any]) -> dict[str, Any]:
    want = copy.deepcopy(data)
    for key, value in changes.items():
        node: Any = want
        for part in key[:-1]:
            if value is None and not isinstance(node.get(part), dict):
                break  # nothing to remove: no table makes itself
            node = node.setdefault(part, {})
        else:
            if value is None:
                node.pop(key[-1], None)
            else:
                node[key[-1]] = list(value) if isinstance(value, tuple) else value
    return want


def edit(text: str, changes: Mapping[Key, Any]) -> str:
    """`text` with each key of `changes` set to its value (None: removed), all else kept."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EditError(f"not valid TOML, so not edited: {exc}") from None
    entries = _scan(text)
    nl = "\r\n" if "\r\n" in text else "\n"  # new lines end as the file's do
    values = {e.key: e for e in entries if e.kind == "value"}
    headers = [e for e in entries if e.kind != "value"]
    edits: list[tuple[int, int, str]] = []  # (start, end, new text) in the old text
    new_tables: dict[Key, list[str]] = {}
    for key, value in changes.items():
        if not key:
            raise EditError("no key to change")
        found = values.get(key)
        if found is not None:
            if value is None:
                edits.append((found.start, found.end, ""))
            else:
                edits.append((*found.value, toml_value(value)))
            continue
        if value is None:
            continue  # not written: already its default
        for end in range(1, len(key)):
            inline = values.get(key[:end])
            if inline is not None:
                raise EditError(
                    f"line {inline.line}: {dotted(key[:end])} is written as one value "
                    f"(an inline table): change {dotted(key)} there by hand"
                )
        table, name = key[:-1], key[-1]
        line = toml_value(value)
        home = _home(entries, headers, table)
        if home is None:
            new_tables.setdefault(table, []).append(f"{dotted((name,))} = {line}{nl}")
            continue
        at, prefix = home
        lead = "" if at == 0 or text[at - 1] == "\n" else nl
        edits.append((at, at, f"{lead}{dotted((*table[len(prefix) :], name))} = {line}{nl}"))
    if new_tables:
        at_end = any(start == len(text) for start, _, _ in edits)  # a key already added
        tail = "" if not text or text.endswith("\n") or at_end else nl
        for table, lines in new_tables.items():
            if not table:
                raise EditError("a key outside every table cannot be added")
            tail += f"{nl}[{dotted(table)}]{nl}" + "".join(lines)
        edits.append((len(text), len(text), tail))
    out = text
    # from the end backwards, so offsets hold; at one place, in the order they were made
    for _, (start, end, new) in sorted(
        enumerate(edits), key=lambda e: (e[1][0], e[1][1], e[0]), reverse=True
    ):
        out = out[:start] + new + out[end:]
    try:
        got = tomllib.loads(out)
    except tomllib.TOMLDecodeError as exc:
        raise EditError(f"the change would not be valid TOML ({exc}); nothing changed") from None
    if got != _expected(data, changes):
        raise EditError("the file is written in a way this editor cannot change safely")
    return out


def _home(entries: list[_Entry], headers: list[_Entry], table: Key) -> tuple[int, Key] | None:
    """Where a new key of `table` goes, with the table path its line is relative to: after
    the last key of `[table]`, or after the last dotted key that builds `table` inside a
    parent table; None: nowhere yet (a new `[table]` is added)."""
    own = [h for h in headers if h.kind == "table" and h.key == table]
    if own:
        header = own[0]
        keys = [e for e in entries if e.kind == "value" and e.section == header.section]
        return (keys[-1].end if keys else header.end), table
    for section in [-1, *(h.section for h in headers if h.kind == "table")]:
        prefix = () if section < 0 else headers[section].key
        if table[: len(prefix)] != prefix or len(prefix) >= len(table):
            continue
        keys = [
            e
            for e in entries
            if e.kind == "value" and e.section == section and e.key[: len(table)] == table
        ]
        if keys:
            return keys[-1].end, prefix
    return None
