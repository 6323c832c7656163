"""The Strada Romana road as a graph, compiled once per data set.

Rules code works on small integers (square and wagon indices) so that legal
moves are a few list look-ups; names appear only in notation. Everything here
follows from `data.toml`: the sideways and diagonal special moves are derived
from the columns and links, so correcting the board data corrects them too.

Square indices: road squares 0..road-1 in column order (Portus to Rome, top to
bottom), then the Portus start squares, then the Roma start squares. FINISH is
a pseudo-square: the step off the far end of the road.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from engine.core import DataError, GameData

TO_ROME, TO_PORTUS = 0, 1
HEADINGS = ("rome", "portus")
SIDES = ("top", "bottom")


@dataclass(frozen=True)
class Board:
    """Component data as look-up tables (see the module docstring for indices)."""

    square_names: tuple[str, ...]
    square_index: dict[str, int]
    road: int
    finish: int
    column: tuple[int, ...]  # global column (0..14) of each road square
    part: tuple[int, ...]  # part (0..2) of each road square
    columns: tuple[tuple[int, ...], ...]
    start: tuple[tuple[int, ...], tuple[int, ...]]  # start squares per heading
    straight: tuple[tuple[tuple[int, ...], ...], ...]  # [heading][square] -> targets
    sideways: tuple[tuple[int, ...], ...]  # [square] -> targets
    diagonal: tuple[tuple[tuple[int, ...], ...], ...]  # [heading][square] -> targets
    moves: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]  # [kind][heading][square]
    areas_at: tuple[tuple[int, ...], ...]  # [road square] -> area indices it borders
    area_names: tuple[str, ...]
    area_part: tuple[int, ...]
    area_side: tuple[str, ...]
    market_at: tuple[int, ...]  # [road square] -> market index or -1
    market_square: tuple[int, ...]
    colours: tuple[str, ...]
    wagons: tuple[str, ...]
    wagon_index: dict[str, int]
    step_text: tuple[tuple[str, ...], ...]  # [wagon][square]; [wagon][finish + heading]
    cube_texts: tuple[str, ...]
    ware_texts: tuple[str, ...]
    place_texts: tuple[str, ...]
    wagon_texts: tuple[str, ...]
    special: tuple[str, ...]
    costs: tuple[int, ...]
    buy_texts: tuple[str, ...]
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

    def heading_of_start(self, square: int) -> int:
        return TO_ROME if square in self.start[TO_ROME] else TO_PORTUS

    def name(self, square: int, heading: int = TO_ROME) -> str:
        return HEADINGS[heading] if square == self.finish else self.square_names[square]


def _columns(data: GameData) -> tuple[list[list[int]], list[int]]:
    road = data["road"]
    columns: list[list[int]] = []
    parts: list[int] = []
    for p, part in enumerate(road["parts"]):
        for column in road[part]:
            columns.append([int(s) for s in column])
            parts.append(p)
    return columns, parts


def _diagonal_pairs(
    columns: list[list[int]], links: set[tuple[int, int]], rule: str
) -> list[tuple[int, int]]:
    """Unlinked forward neighbours that count as diagonal special moves (Portus -> Rome)."""
    pairs: list[tuple[int, int]] = []
    for here, there in pairwise(columns):
        between = {(a, b) for a, b in links if a in here and b in there}
        if rule == "parallel":
            straight = {(here[0], there[0]), (here[-1], there[-1])}
            if len(here) == len(there) == 2 and between == straight:
                pairs += [(here[0], there[1]), (here[1], there[0])]
        elif rule == "unlinked":
            pairs += [(a, b) for a in here for b in there if (a, b) not in between]
        else:
            raise DataError(f"[diagonals] rule must be 'parallel' or 'unlinked', not {rule!r}")
    return pairs


def compile_board(data: GameData) -> Board:
    """Check the data enough to fail with a named key, and build the tables."""
    columns, col_part = _columns(data)
    ids = [s for column in columns for s in column]
    if len(set(ids)) != len(ids):
        raise DataError("[road] lists a square twice")
    road = len(ids)
    names = [str(s) for s in ids]
    starts = data["start_squares"]
    per_side = int(data["setup"]["wagons_per_side"])
    portus, roma = list(starts["portus"]), list(starts["roma"])
    if len(portus) != per_side or len(roma) != per_side:
        raise DataError(f"[start_squares] needs {per_side} squares per side")
    names += portus + roma
    index = {n: i for i, n in enumerate(names)}
    finish = len(names)
    start = (
        tuple(range(road, road + per_side)),
        tuple(range(road + per_side, road + 2 * per_side)),
    )
    pos_in_col = {s: (c, k) for c, column in enumerate(columns) for k, s in enumerate(column)}
    column = tuple(pos_in_col[s][0] for s in ids)
    part = tuple(col_part[c] for c in column)

    links = {(int(a), int(b)) for a, b in data["links"]["portus_to_rome"]}
    for a, b in links:
        if a not in pos_in_col or b not in pos_in_col:
            raise DataError(f"[links] {a} -> {b} names a square that is not on the road")
        if pos_in_col[b][0] != pos_in_col[a][0] + 1:
            raise DataError(f"[links] {a} -> {b} does not lead to the next column")
    diag_pairs = _diagonal_pairs(columns, links, str(data["diagonals"]["rule"]))
    sq = {s: i for i, s in enumerate(ids)}
    n = finish

    def table(pairs: set[tuple[int, int]] | list[tuple[int, int]], heading: int) -> list[list[int]]:
        out: list[list[int]] = [[] for _ in range(n)]
        for a, b in sorted(pairs, key=lambda p: (sq[p[0]], sq[p[1]])):
            if heading == TO_ROME:
                out[sq[a]].append(sq[b])
            else:
                out[sq[b]].append(sq[a])
        return out

    straight = [table(links, h) for h in (TO_ROME, TO_PORTUS)]
    first, last = [sq[s] for s in columns[0]], [sq[s] for s in columns[-1]]
    for s in start[TO_ROME]:
        straight[TO_ROME][s] = list(first)  # "the first move from the start ... any of
    for s in start[TO_PORTUS]:  # the first squares (3 on the side of Portus, 2 of Rome)"
        straight[TO_PORTUS][s] = list(last)
    for s in last:
        straight[TO_ROME][s].append(finish)
    for s in first:
        straight[TO_PORTUS][s].append(finish)
    diagonal = [table(diag_pairs, h) for h in (TO_ROME, TO_PORTUS)]
    sideways: list[list[int]] = [[] for _ in range(n)]
    for col in columns:  # within a column, to the square above or below
        for a, b in pairwise(col):
            sideways[sq[a]].append(sq[b])
            sideways[sq[b]].append(sq[a])
    moves = []
    for kind in range(3):  # 0 plain, 1 with sideways, 2 with diagonal and sideways
        per_heading = []
        for h in (TO_ROME, TO_PORTUS):
            per_heading.append(
                tuple(
                    tuple(
                        straight[h][s]
                        + (sideways[s] if kind >= 1 else [])
                        + (diagonal[h][s] if kind >= 2 else [])
                    )
                    for s in range(n)
                )
            )
        moves.append(tuple(per_heading))

    areas = data["areas"]
    area_names = tuple(areas["names"])
    part_names = list(data["road"]["parts"])
    area_part = tuple(part_names.index(p) for p in areas["parts"])
    area_side = tuple(areas["sides"])
    if any(s not in SIDES for s in area_side):
        raise DataError("[areas] sides must be 'top' or 'bottom'")
    single = str(data["single_square"]["side"])
    if single not in ("top", "bottom", "both"):
        raise DataError("[single_square] side must be 'top', 'bottom' or 'both'")
    areas_at = []
    for s in ids:
        c, k = pos_in_col[s]
        size = len(columns[c])
        if size == 1:
            sides = SIDES if single == "both" else (single,)
        elif k == 0:
            sides = ("top",)
        elif k == size - 1:
            sides = ("bottom",)
        else:
            sides = SIDES  # a middle square borders both areas of its part
        p = col_part[c]
        areas_at.append(
            tuple(a for a in range(len(area_names)) if area_part[a] == p and area_side[a] in sides)
        )

    market_ids = [int(m) for m in data["markets"]["squares"]]
    market_square = tuple(sq[m] for m in market_ids)
    market_at = [-1] * road
    for m, s in enumerate(market_square):
        market_at[s] = m

    colours = tuple(data["colours"]["names"])
    wagons = tuple(data["wagons"]["names"])
    comp = data["components"]
    counts = data["colour_counts"]
    if len(wagons) != comp["wagons"] or len(wagons) != 2 * per_side:
        raise DataError("[wagons] needs one name per wagon, as many as start squares")
    if len(colours) * counts["cubes_each"] != comp["cubes"]:
        raise DataError("[colour_counts] cubes_each times the colours must give [components] cubes")
    if len(colours) * counts["tiles_each"] != comp["ware_tiles"]:
        raise DataError("[colour_counts] tiles_each times the colours must give ware_tiles")
    step_text = tuple(
        tuple(f"step {w} {nm}" for nm in names) + tuple(f"step {w} {h}" for h in HEADINGS)
        for w in wagons
    )
    special = data["special_moves"]
    tiles = data["wagon_tiles"]
    return Board(
        square_names=tuple(names),
        square_index=index,
        road=road,
        finish=finish,
        column=column,
        part=part,
        columns=tuple(tuple(sq[s] for s in col) for col in columns),
        start=start,
        straight=tuple(tuple(map(tuple, t)) for t in straight),
        sideways=tuple(map(tuple, sideways)),
        diagonal=tuple(tuple(map(tuple, t)) for t in diagonal),
        moves=tuple(moves),
        areas_at=tuple(areas_at),
        area_names=area_names,
        area_part=area_part,
        area_side=area_side,
        market_at=tuple(market_at),
        market_square=market_square,
        colours=colours,
        wagons=wagons,
        wagon_index={w: i for i, w in enumerate(wagons)},
        step_text=step_text,
        cube_texts=tuple(f"draw cube {c}" for c in colours),
        ware_texts=tuple(f"draw ware {c}" for c in colours),
        place_texts=tuple(f"place {w}" for w in wagons),
        wagon_texts=tuple(f"wagon {w}" for w in wagons),
        special=tuple(special["names"]),
        costs=tuple(int(c) for c in special["costs"]),
        buy_texts=tuple(f"buy {m}" for m in special["names"]),
        steps=int(data["turn"]["steps"]),
        extra_steps=int(special["extra_steps"]),
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
    )


_BOARDS: dict[str, Board] = {}


def board_for(data: GameData) -> Board:
    """The compiled board of a data set, built once per process and digest."""
    board = _BOARDS.get(data.digest)
    if board is None:
        board = _BOARDS[data.digest] = compile_board(data)
    return board
