"""LED layouts: which LEDs light up for each named board element.

Views speak element names (`strozzi.track.venice.7`, `seat.2.status`); only the
layout knows indices. A layout is a TOML file::

    [strips]
    main = 300          # strip name = LED count; the first strip is the default
    rim = 60

    [elements]
    seat.1.status = 0                                # one LED
    strozzi.track.venice = { start = 10, end = 19 }  # a run, both ends included
    strozzi.track.genoa = { start = 39, end = 30 }   # a reversed run (index order follows)
    seat.2.status = { strip = "rim", at = 5 }        # one LED on another strip
    corner = { strip = "rim", leds = [7, 9, 11] }    # any list of LEDs

    [elements.florence.location.5]                   # a table groups dotted names
    queue.1 = 40
    queue.2 = 41

Dotted keys nest in TOML, so a group (`florence.location.5`) is an element too:
its indices are its members' in file order, which is how a view lights a whole
track. The words `strip`, `at`, `start`, `end` and `leds` describe a run, so they
cannot be name parts. Two elements may not share an LED, because then the frame
would depend on which the view happened to paint last.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hw.config import parse_colour
from hw.tomlsource import ConfigError, Key, TomlSource

RGB = tuple[int, int, int]
Index = tuple[str, int]
_SPEC_KEYS = {"strip", "at", "start", "end", "leds"}


class LayoutError(ConfigError):
    """A layout that does not describe the strips; the message names file, line and element."""


@dataclass(frozen=True, slots=True)
class Element:
    name: str
    strip: str
    indices: tuple[int, ...]
    line: int | None


class Layout:
    """Element names -> (strip, LED index) lists, checked against the strips' sizes."""

    def __init__(
        self, strips: Mapping[str, int], elements: list[Element], *, source: str = "<layout>"
    ) -> None:
        self.source = source
        self.strips = dict(strips)
        self.elements: dict[str, Element] = {e.name: e for e in elements}
        self._groups: dict[str, list[Index]] = {}
        for e in elements:
            parts = e.name.split(".")
            for end in range(1, len(parts)):
                prefix = ".".join(parts[:end])
                self._groups.setdefault(prefix, []).extend((e.strip, i) for i in e.indices)

    @classmethod
    def load(cls, path: str | Path) -> Layout:
        try:
            src = TomlSource.load(path)
        except ConfigError as e:
            raise LayoutError(str(e)) from None
        return _parse(src)

    @classmethod
    def parse(cls, text: str, *, source: str = "<layout>") -> Layout:
        try:
            src = TomlSource.parse(text, name=source)
        except ConfigError as e:
            raise LayoutError(str(e)) from None
        return _parse(src)

    @property
    def default_strip(self) -> str:
        return next(iter(self.strips))

    def __contains__(self, name: str) -> bool:
        return name in self.elements or name in self._groups

    def names(self) -> list[str]:
        return list(self.elements)

    def indices(self, name: str) -> list[Index]:
        """(strip, index) pairs of an element or of every element under a dotted group name."""
        e = self.elements.get(name)
        if e is not None:
            return [(e.strip, i) for i in e.indices]
        group = self._groups.get(name)
        if group is None:
            raise KeyError(f"{self.source}: no element {name!r} in the layout")
        return list(group)

    def check_fits(self, counts: Mapping[str, int]) -> None:
        """Raise LayoutError unless every strip the layout uses exists with enough LEDs."""
        for strip, need in self.strips.items():
            have = counts.get(strip)
            if have is None:
                raise LayoutError(
                    f"{self.source}: strip {strip!r} is not configured "
                    f"(configured: {', '.join(counts) or 'none'})"
                )
            if have < need:
                raise LayoutError(
                    f"{self.source}: strip {strip!r} has {have} LEDs but the layout needs {need}"
                )

    def render(
        self, colours: Mapping[str, RGB], *, background: RGB = (0, 0, 0)
    ) -> dict[str, list[RGB]]:
        """{element or group: colour} -> one frame (list of RGB) per strip."""
        frames = {s: [background] * n for s, n in self.strips.items()}
        for name, colour in colours.items():
            if not (
                isinstance(colour, tuple)
                and len(colour) == 3
                and all(isinstance(c, int) and 0 <= c <= 255 for c in colour)
            ):
                try:
                    colour = parse_colour(colour)
                except ValueError as e:
                    raise ValueError(f"element {name!r}: {e}") from None
            for strip, i in self.indices(name):
                frames[strip][i] = colour
        return frames


def _parse(src: TomlSource) -> Layout:
    def fail(key: Key, message: str) -> LayoutError:
        return LayoutError(str(src.error(key, message)))

    data = src.data
    for key in data:
        if key not in ("strips", "elements", "meta"):
            raise fail((key,), "unknown table (a layout has [strips], [elements] and [meta])")
    strips_raw = data.get("strips")
    if not isinstance(strips_raw, dict) or not strips_raw:
        raise fail((), "missing [strips]: name each strip and its LED count, e.g. main = 300")
    strips: dict[str, int] = {}
    for name, count in strips_raw.items():
        if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
            raise fail(
                ("strips", name), f"LED count must be a positive whole number, got {count!r}"
            )
        strips[name] = count
    default = next(iter(strips))
    elements: list[Element] = []
    owner: dict[Index, str] = {}

    def walk(node: Any, key: Key) -> None:
        if not isinstance(node, dict) or node.keys() & _SPEC_KEYS:
            elements.append(_element(src, fail, key, node, strips, default, owner))
            return
        if not node:
            raise fail(key, "empty group")
        for k, v in node.items():
            walk(v, (*key, k))

    body = data.get("elements")
    if not isinstance(body, dict) or not body:
        raise fail((), "missing [elements]: map element names to LEDs")
    for k, v in body.items():
        walk(v, ("elements", k))
    return Layout(strips, elements, source=src.name)


def _element(
    src: TomlSource,
    fail: Any,
    key: Key,
    spec: Any,
    strips: dict[str, int],
    default: str,
    owner: dict[Index, str],
) -> Element:
    name = ".".join(key[1:])
    where = (*key,)

    def bad(message: str, sub: str | None = None) -> LayoutError:
        k = (*where, sub) if sub else where
        return fail(k, f"element {name!r}: {message}")

    def as_int(v: Any, sub: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise bad(f"{sub} must be an LED index (a whole number from 0), got {v!r}", sub)
        return v

    strip = default
    if isinstance(spec, int) and not isinstance(spec, bool):
        indices: tuple[int, ...] = (as_int(spec, ""),) if spec >= 0 else ()
        if not indices:
            raise bad(f"LED index must be 0 or more, got {spec}")
    elif isinstance(spec, dict):
        for k in spec:
            if k not in _SPEC_KEYS:
                raise bad(f"unknown key {k!r} (a run takes strip, at, start, end or leds)", k)
        strip = spec.get("strip", default)
        if strip not in strips:
            raise bad(f"no strip {strip!r} in [strips] ({', '.join(strips)})", "strip")
        forms = [f for f in ("at", "start", "leds") if f in spec]
        if len(forms) != 1 or ("start" in spec) != ("end" in spec):
            raise bad("give exactly one of: at = I, start = I with end = J, or leds = [...]")
        if "at" in spec:
            indices = (as_int(spec["at"], "at"),)
        elif "start" in spec:
            a, b = as_int(spec["start"], "start"), as_int(spec["end"], "end")
            indices = tuple(range(a, b + 1)) if a <= b else tuple(range(a, b - 1, -1))
        else:
            leds = spec["leds"]
            if not isinstance(leds, list) or not leds:
                raise bad("leds must be a non-empty list of indices", "leds")
            indices = tuple(as_int(v, "leds") for v in leds)
            if len(set(indices)) != len(indices):
                raise bad("lists an LED twice", "leds")
    else:
        raise bad(f"must be an LED index or a table like {{ start = 0, end = 9 }}, got {spec!r}")
    count = strips[strip]
    for i in indices:
        if i >= count:
            raise bad(f"LED {i} is past the end of strip {strip!r} ({count} LEDs: 0-{count - 1})")
        other = owner.get((strip, i))
        if other is not None:
            line = src.line_of(("elements", *other.split(".")))
            at = f" (line {line})" if line else ""
            raise bad(f"LED {i} of strip {strip!r} is also used by {other!r}{at}")
        owner[(strip, i)] = name
    return Element(name=name, strip=strip, indices=indices, line=src.line_of(key))
