"""Component data: the numbers printed on cards, boards and dials.

Each game ships `data.toml` inside its package. Every top-level table except
`[meta]` is a *value group* and must say where its values come from:

    provenance = "rulebook" | "derived" | "public" | "provisional"
    source = "the line of the rulebook, or the reasoning"

Rules code reads values, never provenance; provenance exists so an owner of
the physical game can see what to check (`tavola data GAME`) and correct it in
one place: an override file whose tables replace the shipped ones key by key
(and are then marked "override"). The app says which file (apps.userdata).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import DataError

PROVENANCES = ("rulebook", "derived", "public", "provisional", "override")


@dataclass(frozen=True)
class Group:
    """One value group with its provenance."""

    name: str
    provenance: str
    source: str
    values: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.values[key]


class GameData:
    """The validated data of one game, addressed by group name."""

    def __init__(self, game: str, groups: dict[str, Group], origin: str) -> None:
        self.game = game
        self.groups = groups
        self.origin = origin
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


def _parse_groups(raw: dict[str, Any], origin: str, *, override: bool) -> dict[str, Group]:
    groups: dict[str, Group] = {}
    for name, table in raw.items():
        if name == "meta":
            continue
        if not isinstance(table, dict):
            raise DataError(f"{origin}: [{name}] must be a table of values")
        values = {k: v for k, v in table.items() if k not in ("provenance", "source")}
        prov: Any
        source: Any
        if override:
            prov, source = "override", str(table.get("source", origin))
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
        groups[name] = Group(name, prov, source, values)
    return groups


def _read_toml(path: Path | str, text: str | None = None) -> dict[str, Any]:
    try:
        if text is None:
            text = Path(path).read_text(encoding="utf-8")
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: {exc}") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not a TOML file: byte {exc.start} is not UTF-8 text") from None


def load_game_data(package: str, game: str, *, override: Path | str | None = None) -> GameData:
    """Load `data.toml` of `package`, then apply the `override` file if one is given.

    Where an owner keeps such a file is the app's business (apps.userdata): the engine
    reads no environment and no home directory.
    """
    origin = f"{package.replace('.', '/')}/data.toml"
    text = resources.files(package).joinpath("data.toml").read_text(encoding="utf-8")
    groups = _parse_groups(_read_toml(origin, text), origin, override=False)
    path = Path(override) if override is not None else None
    if path is not None:
        extra = _parse_groups(_read_toml(path), str(path), override=True)
        for name, group in extra.items():
            base = groups.get(name)
            if base is None:
                raise DataError(f"{path}: [{name}] is not a value group of {game}")
            unknown = set(group.values) - set(base.values)
            if unknown:
                raise DataError(f"{path}: [{name}] has unknown keys: {', '.join(sorted(unknown))}")
            groups[name] = Group(name, "override", str(path), {**base.values, **group.values})
        origin = f"{origin} + {path}"
    return GameData(game, groups, origin)
