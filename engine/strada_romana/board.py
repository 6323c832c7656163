"""The Strada Romana components and road as look-up tables, compiled once per data set.

Rules code works on small integers (square and wagon indices) so that legal
moves are a few list look-ups; names appear only in notation. Everything here
follows from `data.toml`: the sideways and diagonal special moves are derived
from the columns and links, so correcting the board data corrects them too.

Square indices: road squares 0..road-1 in column order (Portus to Rome, top to
bottom), then the Portus start squares, then the Roma start squares. FINISH is
a pseudo-square: the step off the far end of the road.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import pairwise, product
from types import MappingProxyType
from typing import NamedTuple

from engine.core import DataError, GameData

TO_ROME, TO_PORTUS = 0, 1
HEADINGS = ("rome", "portus")
SIDES = ("top", "bottom")
UNPLACED, ARRIVED = -1, -2
"""A wagon's position off the road: before setup placed it, and once it has arrived."""

Targets = tuple[tuple[tuple[int, ...], ...], ...]
"""[heading][square] -> the squares a wagon may step to (FINISH: it arrives)."""


class SpecialMove(IntEnum):
    """What a player may buy at the beginning of a turn, cheapest first: 'Costs and
    effects of the Special Moves are summarized on the game board'. NONE: none bought.

    'each special move includes all the benefits of the cheaper ones', so every rule
    asks `special.includes(SpecialMove.SIDEWAYS)`, never for one move by name."""

    NONE = 0
    SIDEWAYS = 1  # 'he can move the wagons sideways'
    DIAGONAL = 2  # 'he can move the wagons diagonally and sideways'
    EXTRA = 3  # 'he can move by 4 instead of 3'
    STACKING = 4  # 'A wagon can pass through an occupied square'

    @property
    def word(self) -> str:
        """Its word in the notation: `buy extra`."""
        return self.name.lower()

    def includes(self, other: SpecialMove) -> bool:
        """Whether this move gives the benefits of `other` (its own or a cheaper one's)."""
        return self >= other


BUYABLE = tuple(m for m in SpecialMove if m is not SpecialMove.NONE)
"""The special moves a player can buy, cheapest first."""
_EXTRA = SpecialMove.EXTRA


@dataclass(frozen=True)
class Board:
    """Components: '1 game board, 10 wagons, 36 cubes, 36 "ware" tiles, 10 wagon tiles,
    20 coins (yellow), 20 victory points (black), 1 bag', with the road, the turn's
    numbers and the scoring values of one data set, as look-up tables (see the module
    docstring for indices). Public and immutable all the way down: observations carry it.
    """

    square_names: tuple[str, ...]
    square_index: Mapping[str, int]
    road: int
    finish: int
    column: tuple[int, ...]  # global column (0..14) of each road square
    part: tuple[int, ...]  # part (0..2) of each road square
    columns: tuple[tuple[int, ...], ...]
    start: tuple[tuple[int, ...], tuple[int, ...]]  # start squares per heading
    straight: Targets  # the links, and from the start squares to the first squares
    sideways: tuple[tuple[int, ...], ...]  # [square] -> targets
    diagonal: Targets  # unlinked diagonals of the diagonal special move
    steps_with: tuple[Targets, ...]  # [special move]: every step it allows, in that order
    areas_at: tuple[tuple[int, ...], ...]  # [road square] -> area indices it borders
    area_names: tuple[str, ...]
    area_part: tuple[int, ...]
    area_side: tuple[str, ...]
    market_at: tuple[int, ...]  # [road square] -> market index or -1
    market_square: tuple[int, ...]
    colours: tuple[str, ...]
    wagons: tuple[str, ...]
    wagon_index: Mapping[str, int]
    step_text: tuple[tuple[str, ...], ...]  # [wagon][square]; [wagon][finish + heading]
    cube_texts: tuple[str, ...]
    ware_texts: tuple[str, ...]
    place_texts: tuple[str, ...]
    wagon_texts: tuple[str, ...]
    costs: tuple[int, ...]  # [special move] -> coins
    buy_texts: tuple[str, ...]  # [special move] -> `buy WORD` ("" for NONE)
    steps: int
    extra_steps: int
    cubes_each: int
    tiles_each: int
    vp_tokens: int
    coins_total: int
    coins_per_vp: int
    pass_coins: int
    starting_coins: tuple[int, ...]
    max_wagon_tiles: int
    deck: int
    arrivals: int
    finish_squares: int
    one_item_up_to: int
    points_arrived: int
    points_not_arrived: int
    points_loose: int

    def allowance(self, special: SpecialMove) -> int:
        """How many steps a turn has: 'Players move by 3 squares'; 'Extra move: ... he can
        move by 4 instead of 3', and the stacking move includes it. The one place this is
        computed: the rules, the prompts and the table's step lights all ask here."""
        return self.steps + (self.extra_steps if special >= _EXTRA else 0)  # includes EXTRA

    def start_square(self, k: int) -> tuple[int, int]:
        """The `k`-th start square a setup draw fills, and the heading it gives a wagon:
        p1-p5 (on the Portus side, so to Rome) first, then r1-r5 (to Portus)."""
        per_side = len(self.start[TO_ROME])
        heading = TO_ROME if k < per_side else TO_PORTUS
        return self.start[heading][k % per_side], heading

    def heading_of_start(self, square: int) -> int:
        return TO_ROME if square in self.start[TO_ROME] else TO_PORTUS

    def name(self, square: int, heading: int = TO_ROME) -> str:
        return HEADINGS[heading] if square == self.finish else self.square_names[square]


def occupancy(b: Board, pos: Sequence[int], mover: int) -> list[int]:
    """Square -> the wagon resting on it (-1: none). The moving wagon is lifted off the
    board while it moves, so a stacking move may pass over others."""
    occ = [-1] * b.finish
    for w, sq in enumerate(pos):
        if sq >= 0 and w != mover:
            occ[sq] = w
    return occ


def arrivals_by_heading(arrived: Sequence[int], head: Sequence[int]) -> list[int]:
    """How many of the arrived wagons reached Rome, and how many Portus."""
    return [sum(1 for w in arrived if head[w] == h) for h in (TO_ROME, TO_PORTUS)]


class _Road(NamedTuple):
    """The squares as the data lists them, before they become tables."""

    columns: list[list[int]]  # square ids per column, Portus to Rome, top to bottom
    col_part: list[int]  # part of each column
    ids: list[int]  # road square ids in index order
    names: list[str]  # every square's name in index order, start squares last
    per_side: int
    pos_in_col: dict[int, tuple[int, int]]  # square id -> (column, place in it)


def _road(data: GameData) -> _Road:
    road = data["road"]
    columns: list[list[int]] = []
    col_part: list[int] = []
    for p, part in enumerate(road["parts"]):
        columns += [[int(s) for s in column] for column in road[part]]
        col_part += [p] * len(road[part])
    ids = [s for column in columns for s in column]
    if len(set(ids)) != len(ids):
        raise DataError("[road] lists a square twice")
    per_side = int(data["setup"]["wagons_per_side"])
    names = [str(s) for s in ids] + _start_squares(data, per_side)
    pos_in_col = {s: (c, k) for c, column in enumerate(columns) for k, s in enumerate(column)}
    return _Road(columns, col_part, ids, names, per_side, pos_in_col)


def _start_squares(data: GameData, per_side: int) -> list[str]:
    """'Place the 10 wagons at random on the starting squares: 5 on the "Portus" side and
    5 on the "Roma" side': their names, Portus side first."""
    starts = data["start_squares"]
    portus, roma = list(starts["portus"]), list(starts["roma"])
    if len(portus) != per_side or len(roma) != per_side:
        raise DataError(f"[start_squares] needs {per_side} squares per side")
    return portus + roma


JOINED = ("top", "bottom")


def _column_c4(data: GameData, road: _Road) -> set[tuple[int, int]]:
    """The lines of part C column 4, where the public sources disagree ([column_c4]): the
    `joined` square of its two has a line to both squares of each neighbouring column,
    the other one only straight across, to the square on its own side. Data shipped
    before the group existed has these lines in [links] (shipped/)."""
    if "column_c4" not in data.groups:
        return set()
    joined = str(data["column_c4"]["joined"])
    if joined not in JOINED:
        raise DataError(f"[column_c4] joined must be 'top' or 'bottom', not {joined!r}")
    parts = list(data["road"]["parts"])
    first = sum(len(data["road"][p]) for p in parts[:2])  # part C's first column
    if len(parts) != 3 or len(road.columns) < first + 5:
        raise DataError("[column_c4] needs a road of three parts whose part C has 5 columns")
    before, here, after = road.columns[first + 2 : first + 5]
    if len(here) != 2 or len(before) != 2 or len(after) != 2:
        raise DataError("[column_c4] needs part C columns 3, 4 and 5 of two squares each")
    k = 0 if joined == "top" else 1
    hub, other = here[k], here[1 - k]
    across = {(before[1 - k], other), (other, after[1 - k])}
    return {(b, hub) for b in before} | {(hub, a) for a in after} | across


def _links(data: GameData, road: _Road) -> set[tuple[int, int]]:
    links = {(int(a), int(b)) for a, b in data["links"]["portus_to_rome"]}
    links |= _column_c4(data, road)
    for a, b in links:
        if a not in road.pos_in_col or b not in road.pos_in_col:
            raise DataError(f"[links] {a} -> {b} names a square that is not on the road")
        if road.pos_in_col[b][0] != road.pos_in_col[a][0] + 1:
            raise DataError(f"[links] {a} -> {b} does not lead to the next column")
    return links


def _diagonal_pairs(
    columns: list[list[int]],
    links: set[tuple[int, int]],
    rule: str,
    listed: Sequence[tuple[int, int]] = (),
) -> list[tuple[int, int]]:
    """Unlinked forward neighbours that count as diagonal special moves (Portus -> Rome):
    every one ("unlinked"), the crossings of parallel 2-square columns ("parallel"), or
    those and the pairs an owner found on the board ("listed")."""
    if rule not in RULES:
        raise DataError(
            f"[diagonals] rule must be {', '.join(repr(r) for r in RULES)}, not {rule!r}"
        )
    pairs: list[tuple[int, int]] = []
    unlinked: set[tuple[int, int]] = set()
    for here, there in pairwise(columns):
        between = {(a, b) for a, b in links if a in here and b in there}
        loose = [pair for pair in product(here, there) if pair not in between]
        unlinked.update(loose)
        if rule == "unlinked":
            pairs += loose
        elif _parallel(here, there, between):
            pairs += [(here[0], there[1]), (here[1], there[0])]
    if rule == "listed":
        for a, b in listed:
            pair = (a, b) if (a, b) in unlinked else (b, a)
            if pair not in unlinked:
                raise DataError(
                    f"[diagonals] pairs: {a} - {b} are not unlinked squares of neighbouring "
                    "columns (a line joins them, or they are not side by side)"
                )
            if pair not in pairs:
                pairs.append(pair)
    return pairs


RULES = ("parallel", "unlinked", "listed")


def _parallel(here: list[int], there: list[int], between: set[tuple[int, int]]) -> bool:
    """Two 2-square columns linked only straight across: their crossings are diagonals."""
    straight = {(here[0], there[0]), (here[-1], there[-1])}
    return len(here) == len(there) == 2 and between == straight


class _Steps(NamedTuple):
    straight: Targets
    sideways: tuple[tuple[int, ...], ...]
    diagonal: Targets
    steps_with: tuple[Targets, ...]


def _table(
    pairs: set[tuple[int, int]] | list[tuple[int, int]], index: dict[int, int], n: int
) -> list[list[list[int]]]:
    """[heading][square] -> targets of (Portus -> Rome) square pairs; to Portus reversed."""
    out: list[list[list[int]]] = [[[] for _ in range(n)] for _ in HEADINGS]
    for a, b in sorted(pairs, key=lambda p: (index[p[0]], index[p[1]])):
        out[TO_ROME][index[a]].append(index[b])
        out[TO_PORTUS][index[b]].append(index[a])
    return out


def _straight(
    road: _Road, links: set[tuple[int, int]], index: dict[int, int]
) -> list[list[list[int]]]:
    """The links; from the start squares 'the first move from the start can be performed
    by any wagon on any of the first squares'; off the last squares, the arrival."""
    finish = len(road.names)
    straight = _table(links, index, finish)
    first, last = [index[s] for s in road.columns[0]], [index[s] for s in road.columns[-1]]
    n_road, per_side = len(road.ids), road.per_side
    for s in range(n_road, n_road + per_side):  # Portus side, heading to Rome
        straight[TO_ROME][s] = list(first)
    for s in range(n_road + per_side, n_road + 2 * per_side):
        straight[TO_PORTUS][s] = list(last)
    for s in last:
        straight[TO_ROME][s].append(finish)
    for s in first:
        straight[TO_PORTUS][s].append(finish)
    return straight


def _steps(data: GameData, road: _Road) -> _Steps:
    """'Wagons can only move straight ahead or diagonally (with the exception of the
    Special Moves) on the squares that link up'; sideways within a column, and the
    unlinked diagonals, only with the special move that allows them."""
    links = _links(data, road)
    index = {s: i for i, s in enumerate(road.ids)}
    n = len(road.names)  # FINISH
    straight = _straight(road, links, index)
    group = data["diagonals"]
    listed = [(int(a), int(b)) for a, b in group.values.get("pairs", [])]
    diagonal = _table(_diagonal_pairs(road.columns, links, str(group["rule"]), listed), index, n)
    sideways: list[list[int]] = [[] for _ in range(n)]
    for col in road.columns:  # within a column, to the square above or below
        for a, b in pairwise(col):
            sideways[index[a]].append(index[b])
            sideways[index[b]].append(index[a])
    return _Steps(
        straight=_frozen(straight),
        sideways=tuple(map(tuple, sideways)),
        diagonal=_frozen(diagonal),
        steps_with=tuple(_allowed(m, straight, sideways, diagonal) for m in SpecialMove),
    )


def _frozen(table: list[list[list[int]]]) -> Targets:
    return tuple(tuple(map(tuple, per_heading)) for per_heading in table)


def _allowed(
    special: SpecialMove,
    straight: list[list[list[int]]],
    sideways: list[list[int]],
    diagonal: list[list[list[int]]],
) -> Targets:
    """Every step `special` allows, straight ones first, then sideways, then diagonal."""
    side = special.includes(SpecialMove.SIDEWAYS)
    diag = special.includes(SpecialMove.DIAGONAL)
    return tuple(
        tuple(
            tuple(straight[h][s] + (sideways[s] if side else []) + (diagonal[h][s] if diag else []))
            for s in range(len(sideways))
        )
        for h in (TO_ROME, TO_PORTUS)
    )


class _Areas(NamedTuple):
    names: tuple[str, ...]
    part: tuple[int, ...]
    side: tuple[str, ...]
    at: tuple[tuple[int, ...], ...]


def _areas(data: GameData, road: _Road) -> _Areas:
    """'If on a top square, the player can only take a top "ware" tile. If on a middle
    square, the player can choose a top or a bottom "ware" tile. If on a bottom square,
    the player can only take a bottom "ware" tile.'"""
    areas = data["areas"]
    named = data["area_names"] if "area_names" in data.groups else areas  # shipped/: one group
    names = tuple(str(n) for n in named["names"])
    if len(names) != len(areas["parts"]) or len(names) != len(areas["sides"]):
        raise DataError("[area_names] names needs one name per area of [areas]")
    part_names = list(data["road"]["parts"])
    part = tuple(part_names.index(p) for p in areas["parts"])
    side = tuple(areas["sides"])
    if any(s not in SIDES for s in side):
        raise DataError("[areas] sides must be 'top' or 'bottom'")
    single = str(data["single_square"]["side"])
    if single not in ("top", "bottom", "both"):
        raise DataError("[single_square] side must be 'top', 'bottom' or 'both'")
    at = []
    for s in road.ids:
        c, k = road.pos_in_col[s]
        sides = _sides(len(road.columns[c]), k, single)
        p = road.col_part[c]
        at.append(tuple(a for a in range(len(names)) if part[a] == p and side[a] in sides))
    return _Areas(names, part, side, tuple(at))


def _sides(size: int, k: int, single: str) -> tuple[str, ...]:
    """The sides the `k`-th square of a column of `size` borders: a top, a bottom or a
    middle square, and a square alone in its column as the data says (ruling 19)."""
    if size == 1:
        return SIDES if single == "both" else (single,)
    if k == 0:
        return ("top",)
    return ("bottom",) if k == size - 1 else SIDES  # a middle square borders both


def cube_colours(data: GameData) -> tuple[str, ...]:
    """Colours of the Cubes: 'YELLOW: Corn, bread; RED: Wine, amphorae; GREEN: Oil, jars;
    BLUE: Metals, jewellery; BROWN: Skins, textiles; WHITE: Marble, statues'. A cube and
    a ware tile of one colour make a contract, so the names must be distinct."""
    colours = tuple(str(c) for c in data["colours"]["names"])
    if not colours or len(set(colours)) != len(colours):
        raise DataError("[colours] names must be distinct and not empty")
    return colours


def _special_moves(data: GameData) -> tuple[tuple[int, ...], int]:
    """[special_moves]: the costs by special move (0 for NONE) and the extra steps. The
    names must be the rules' own, cheapest first: their effects are rules, not data."""
    special = data["special_moves"]
    words = [m.word for m in BUYABLE]
    if list(special["names"]) != words:
        raise DataError(f"[special_moves] names must be {', '.join(words)}, cheapest first")
    costs = [int(c) for c in special["costs"]]
    if len(costs) != len(BUYABLE):
        raise DataError(f"[special_moves] costs needs one cost per move ({len(BUYABLE)})")
    return (0, *costs), int(special["extra_steps"])


def _check_components(data: GameData, wagons: Sequence[str], colours: Sequence[str]) -> None:
    comp, counts = data["components"], data["colour_counts"]
    per_side = int(data["setup"]["wagons_per_side"])
    if len(wagons) != comp["wagons"] or len(wagons) != 2 * per_side:
        raise DataError("[wagons] needs one name per wagon, as many as start squares")
    if len(colours) * counts["cubes_each"] != comp["cubes"]:
        raise DataError("[colour_counts] cubes_each times the colours must give [components] cubes")
    if len(colours) * counts["tiles_each"] != comp["ware_tiles"]:
        raise DataError("[colour_counts] tiles_each times the colours must give ware_tiles")


def _markets(data: GameData, road: _Road) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(market index -> its road square, road square -> its market or -1)."""
    index = {s: i for i, s in enumerate(road.ids)}
    market_square = tuple(index[int(m)] for m in data["markets"]["squares"])
    market_at = [-1] * len(road.ids)
    for m, s in enumerate(market_square):
        market_at[s] = m
    return market_square, tuple(market_at)


class _Notation(NamedTuple):
    """Every text of the notation the rules offer, built once."""

    step_text: tuple[tuple[str, ...], ...]
    cube_texts: tuple[str, ...]
    ware_texts: tuple[str, ...]
    place_texts: tuple[str, ...]
    wagon_texts: tuple[str, ...]
    buy_texts: tuple[str, ...]


def _notation(names: list[str], wagons: tuple[str, ...], colours: tuple[str, ...]) -> _Notation:
    return _Notation(
        step_text=tuple(tuple(f"step {w} {to}" for to in (*names, *HEADINGS)) for w in wagons),
        cube_texts=tuple(f"draw cube {c}" for c in colours),
        ware_texts=tuple(f"draw ware {c}" for c in colours),
        place_texts=tuple(f"place {w}" for w in wagons),
        wagon_texts=tuple(f"wagon {w}" for w in wagons),
        buy_texts=("", *(f"buy {m.word}" for m in BUYABLE)),
    )


def compile_board(data: GameData) -> Board:
    """Game Board Parts: 'Starting or Finishing Squares in Ostia-Portus and in Rome.
    Road: the black and grey squares represent the road where trade occurs. Squares for
    Goods Cubes (Market-places) ... Square for "ware" tiles (Area)'. Checks the data
    enough to fail with a named key, and builds the tables."""
    road = _road(data)
    index = {s: i for i, s in enumerate(road.ids)}
    n_road, names, per_side = len(road.ids), road.names, road.per_side
    steps, areas = _steps(data, road), _areas(data, road)
    market_square, market_at = _markets(data, road)
    colours = cube_colours(data)
    wagons = tuple(data["wagons"]["names"])
    _check_components(data, wagons, colours)
    costs, extra_steps = _special_moves(data)
    comp, counts, tiles = data["components"], data["colour_counts"], data["wagon_tiles"]
    columns = [road.pos_in_col[s][0] for s in road.ids]
    return Board(
        square_names=tuple(names),
        square_index=MappingProxyType({nm: i for i, nm in enumerate(names)}),
        road=n_road,
        finish=len(names),
        column=tuple(columns),
        part=tuple(road.col_part[c] for c in columns),
        columns=tuple(tuple(index[s] for s in col) for col in road.columns),
        start=(
            tuple(range(n_road, n_road + per_side)),
            tuple(range(n_road + per_side, n_road + 2 * per_side)),
        ),
        straight=steps.straight,
        sideways=steps.sideways,
        diagonal=steps.diagonal,
        steps_with=steps.steps_with,
        areas_at=areas.at,
        area_names=areas.names,
        area_part=areas.part,
        area_side=areas.side,
        market_at=market_at,
        market_square=market_square,
        colours=colours,
        wagons=wagons,
        wagon_index=MappingProxyType({w: i for i, w in enumerate(wagons)}),
        costs=costs,
        steps=int(data["turn"]["steps"]),
        extra_steps=extra_steps,
        cubes_each=int(counts["cubes_each"]),
        tiles_each=int(counts["tiles_each"]),
        vp_tokens=int(comp["victory_points"]),
        coins_total=int(comp["coins"]),
        coins_per_vp=int(data["turn"]["coins_per_vp"]),
        pass_coins=int(data["turn"]["pass_coins"]),
        starting_coins=tuple(int(c) for c in data["setup"]["starting_coins"]),
        max_wagon_tiles=int(tiles["max_held"]),
        deck=int(comp["wagon_tiles"]) - int(tiles["removed_unseen"]),
        arrivals=int(data["end"]["arrivals"]),
        finish_squares=int(data["finish"]["squares_per_side"]),
        one_item_up_to=int(data["collecting"]["one_item_up_to_players"]),
        points_arrived=int(data["scoring"]["wagon_arrived"]),
        points_not_arrived=int(data["scoring"]["wagon_not_arrived"]),
        points_loose=int(data["scoring"]["loose_item"]),
        **_notation(names, wagons, colours)._asdict(),
    )


_BOARDS: dict[str, Board] = {}


def board_for(data: GameData) -> Board:
    """The compiled board of a data set, built once per process and digest."""
    board = _BOARDS.get(data.digest)
    if board is None:
        board = _BOARDS[data.digest] = compile_board(data)
    return board
