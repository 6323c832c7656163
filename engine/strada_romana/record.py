"""Strada Romana: the record of a position names wagons, squares and colours, in the
format the hand-written to_dict of earlier versions wrote (tests/engine/strada_romana/records)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .board import ARRIVED, HEADINGS, UNPLACED, Board, SpecialMove
from .goods import GOODS
from .special_moves import SPECIAL_BY_WORD
from .wagon_tiles import UNKNOWN

if TYPE_CHECKING:
    from .rules import StradaRomanaState


def _where(b: Board, sq: int) -> str | None:
    return b.square_names[sq] if sq >= 0 else None


def _per_colour(b: Board, counts: list[int]) -> dict[str, int]:
    return dict(zip(b.colours, counts, strict=True))


def dump_wagons(s: StradaRomanaState) -> dict[str, list[str | None]]:
    b = s.board
    return {b.wagons[w]: [_where(b, sq), HEADINGS[s.head[w]]] for w, sq in enumerate(s.pos)}


def load_wagons(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    b = s.board
    arrived = {b.wagon_index[w] for w in d["arrived"]}
    for name, (at, heading) in d["wagons"].items():
        w = b.wagon_index[name]
        s.head[w] = HEADINGS.index(heading)
        s.pos[w] = b.square_index[at] if at is not None else ARRIVED if w in arrived else UNPLACED


def dump_arrived(s: StradaRomanaState) -> list[str]:
    return [s.board.wagons[w] for w in s.arrived]


def load_arrived(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    s.arrived = [s.board.wagon_index[w] for w in d["arrived"]]


def dump_markets(s: StradaRomanaState) -> dict[str, str | None]:
    b = s.board
    return {
        b.square_names[sq]: b.colours[c] if c >= 0 else None
        for sq, c in zip(b.market_square, s.market, strict=True)
    }


def load_markets(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    b = s.board
    markets = [d["markets"][b.square_names[sq]] for sq in b.market_square]
    s.market = [b.colours.index(c) if c else -1 for c in markets]


def dump_areas(s: StradaRomanaState) -> dict[str, str | None]:
    b = s.board
    return {
        name: b.colours[c] if c >= 0 else None for name, c in zip(b.area_names, s.area, strict=True)
    }


def load_areas(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    b = s.board
    s.area = [b.colours.index(d["areas"][a]) if d["areas"][a] else -1 for a in b.area_names]


def dump_bag(s: StradaRomanaState) -> dict[str, dict[str, int]]:
    b = s.board
    return {"cubes": _per_colour(b, s.bag_cubes), "tiles": _per_colour(b, s.bag_tiles)}


def load_bag(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    colours = s.board.colours
    s.bag_cubes = [d["bag"]["cubes"][c] for c in colours]
    s.bag_tiles = [d["bag"]["tiles"][c] for c in colours]


def dump_cubes(s: StradaRomanaState) -> list[dict[str, int]]:
    return [_per_colour(s.board, c) for c in s.cubes]


def load_cubes(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    s.cubes = [[row[c] for c in s.board.colours] for row in d["cubes"]]


def dump_tiles(s: StradaRomanaState) -> list[dict[str, int]]:
    return [_per_colour(s.board, t) for t in s.tiles]


def load_tiles(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    s.tiles = [[row[c] for c in s.board.colours] for row in d["tiles"]]


def dump_wagon_tiles(s: StradaRomanaState) -> list[list[str | None]]:
    wagons = s.board.wagons
    return [[wagons[w] if w != UNKNOWN else None for w in held] for held in s.wagon_tiles]


def load_wagon_tiles(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    index = s.board.wagon_index
    s.wagon_tiles = [
        [index[w] if w is not None else UNKNOWN for w in held] for held in d["wagon_tiles"]
    ]


def dump_move(s: StradaRomanaState) -> dict[str, Any]:
    b = s.board
    return {
        "special": s.special.word if s.special else None,
        "steps": s.used,
        "moved": [b.wagons[w] for w in range(len(b.wagons)) if s.moved >> w & 1],
        "mover": b.wagons[s.mover] if s.mover >= 0 else None,
        "left": [n for i, n in enumerate(b.square_names) if s.trail >> i & 1],
        "stopped_at": _where(b, s.stop_at),
        "took": [word for word, kind in GOODS if s.took & kind],
    }


def load_move(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    b = s.board
    wagons, squares = b.wagon_index, b.square_index
    move = d["move"]
    s.special = SPECIAL_BY_WORD[move["special"]] if move["special"] else SpecialMove.NONE
    s.used = move["steps"]
    s.moved = sum(1 << wagons[w] for w in move["moved"])
    s.mover = wagons[move["mover"]] if move["mover"] else -1
    s.trail = sum(1 << squares[n] for n in move["left"])
    s.stop_at = squares[move["stopped_at"]] if move["stopped_at"] else -1
    s.took = sum(kind for word, kind in GOODS if word in move["took"])


def dump_refill(s: StradaRomanaState) -> list[Any] | None:
    return [s.refill_kind, s.refill_at] if s.refill_kind else None


def load_refill(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    s.refill_kind, s.refill_at = d["refill"] if d["refill"] else ("", -1)
