"""Components: Florence's component data compiled once per data set.

States read these values on every action, so nothing here is parsed twice:
`tables_for(data)` caches one `Tables` per data digest. The tables are public and
immutable all the way down (tuples, frozen dataclasses, read-only mappings), so an
observation carries them as they are. Locations are 0-based inside the engine and
1-based in notation and messages (as printed on the board).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.core import DataError, GameData

DEBUTANT, DONNA, MAESTRO = 1, 2, 3
RANKS = ("", "debutant", "donna", "maestro")
RANK_OF = {"debutant": DEBUTANT, "donna": DONNA, "maestro": MAESTRO}
COSIMO, CONTESSINA, GIOVANNI = 0, 1, 2
NOBLES = (COSIMO, CONTESSINA, GIOVANNI)
SPOTS = 3  # brag marker spots per tile, bottom first
SOLO_COLOURS = ("fewer", "orange", "blue")  # index = the solo colour (1, 2); 0: card 5's rule
SOLO_ACTIONS = ("deploy", "party", "friend", "brag", "guard")


@dataclass(frozen=True)
class BragTile:
    """A brag tile: VP per match of what it counts, and its three marker spots."""

    name: str
    rate: int  # VP per match
    counts: str  # what is counted: senior, markers, hand, prime, row, column, pairs, ...
    floors: tuple[int, ...]  # lowest VP of each marker spot, bottom first
    labels: tuple[str, ...]  # "0-6", "7-12", "13+"

    def spot_for(self, vp: int) -> int:
        """The spot whose VP range includes `vp`."""
        k = len(self.floors) - 1
        while k > 0 and vp < self.floors[k]:
            k -= 1
        return k


@dataclass(frozen=True)
class Card:
    """A scandal card kind: its notation name, its Noble, and the time it costs."""

    name: str
    noble: int
    index: int  # position in its noble's deck list; card id = noble * 4 + index
    cost: int


@dataclass(frozen=True)
class Tables:
    """Board geometry, dial values, tiles, cards and schemes, ready to use."""

    locations: int
    columns: int
    loc_names: tuple[str, ...]
    roads: tuple[tuple[int, int], ...]
    road_names: tuple[str, ...]
    road_index: Mapping[tuple[int, int], int]
    neighbours: tuple[tuple[tuple[int, int], ...], ...]  # loc -> ((dest, road), ...)
    nobles_only: frozenset[tuple[int, int]]
    route_next: tuple[int, ...]
    route_prev: tuple[int, ...]
    spaces: int
    blockers: tuple[tuple[int, ...], ...]
    family: tuple[int, ...]  # pieces per rank, index by rank (0 unused)
    guards: int
    brag_markers: int
    gifts: int
    gifts_at_start: int
    time_at_start: int
    time_max: int
    hand_limit: int
    cost: Mapping[str, int]
    nobles: tuple[str, ...]
    guard_kinds: tuple[str, ...]
    decks: tuple[str, ...]
    rounds: int
    first_round_time: int
    time_tokens: tuple[int, ...]
    gifts_gained: Mapping[int, int]
    prime: tuple[int, ...]
    queue_vp: Mapping[int, tuple[int, ...]]  # round -> VP by position (Cosimo, Contessina)
    giovanni: Mapping[int, tuple[tuple[int, int], ...]]  # round -> ((vp, time), ...)
    tiles: tuple[BragTile, ...]
    tile_index: Mapping[str, int]
    cards: tuple[Card, ...]  # by card id, noble * 4 + index
    card_index: Mapping[str, int]
    copies: int
    schemes: tuple[str, ...]
    scheme_locs: tuple[frozenset[int], ...]
    scheme_vp: tuple[int, ...]
    scheme_min: int
    time_per_vp: int
    solo_actions: tuple[str, ...]  # solo card number - 1 -> its action
    solo_cost: tuple[int, ...]
    solo_noble: tuple[int, ...]  # deploy cards: Noble A, B, C as 0, 1, 2 (others -1)
    solo_colour: tuple[int, ...]  # deploy and brag cards: 1 orange, 2 blue, 0 fewer (others -1)

    def active_noble(self, rnd: int) -> int:
        """Cosimo in rounds 1, 4, 7; Contessina 2, 5, 8; Giovanni 3, 6, 9."""
        return (rnd - 1) % 3

    def capacity(self, players: int) -> tuple[int, ...]:
        """Locations: 'A number of Queue spaces at each Location are numbered. These spaces
        are unavailable when the player count is lower than the printed number': usable
        queue spaces per location, the numbered spots above the player count covered."""
        return tuple(self.spaces - sum(1 for b in nums if b > players) for nums in self.blockers)

    def path(self, start: int, dest: int) -> tuple[int, ...]:
        """Locations a Noble enters from `start` to `dest` along the arrows (start excluded)."""
        out: list[int] = []
        loc = start
        while loc != dest and len(out) <= self.locations:
            loc = self.route_next[loc]
            out.append(loc)
        return tuple(out)

    def road(self, a: int, b: int) -> int | None:
        """The road (with its Cosimo shield) between two locations, None if there is none."""
        return self.road_index.get((a, b) if a < b else (b, a))

    def deck(self, noble: int) -> range:
        """The card ids of a Noble's deck, in deck order."""
        return range(4 * noble, 4 * noble + 4)

    def card(self, name: str) -> Card:
        return self.cards[self.card_index[name]]


def _loc(value: object, where: str, n: int) -> int:
    if not isinstance(value, int) or not 1 <= value <= n:
        raise DataError(f"florence data: {where}: {value!r} is not a location 1-{n}")
    return value - 1


def _road(text: str, where: str, n: int) -> tuple[int, int]:
    a, _, b = str(text).partition("-")
    if not (a.isascii() and a.isdigit() and b.isascii() and b.isdigit()):
        raise DataError(f"florence data: {where}: road {text!r} must look like '4-5'")
    x, y = _loc(int(a), where, n), _loc(int(b), where, n)
    return (x, y) if x < y else (y, x)


def _route(data: GameData, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The Nobles' arrows: each location's next and previous stop on the one cycle."""
    cycle = [_loc(x, "noble_route.cycle", n) for x in data["noble_route"]["cycle"]]
    if sorted(cycle) != list(range(n)):
        raise DataError("florence data: noble_route.cycle must visit every location once")
    route_next = [0] * n
    route_prev = [0] * n
    for i, loc in enumerate(cycle):
        route_next[loc] = cycle[(i + 1) % n]
        route_prev[cycle[(i + 1) % n]] = loc
    return tuple(route_next), tuple(route_prev)


def _neighbours(
    roads: tuple[tuple[int, int], ...], n: int
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Each location's (neighbour, road) pairs, by neighbour."""
    near: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for i, (a, b) in enumerate(roads):
        near[a].append((b, i))
        near[b].append((a, i))
    return tuple(tuple(sorted(nb)) for nb in near)


def _board(data: GameData) -> dict[str, Any]:
    """Locations, roads (with their shields) and the Nobles' route."""
    n = int(data["board"]["locations"])
    roads = tuple(_road(r, "roads.player", n) for r in data["roads"]["player"])
    route_next, route_prev = _route(data, n)
    return {
        "locations": n,
        "columns": int(data["board"]["columns"]),
        "loc_names": tuple(str(i + 1) for i in range(n)),
        "roads": roads,
        "road_names": tuple(f"{a + 1}-{b + 1}" for a, b in roads),
        "road_index": MappingProxyType({r: i for i, r in enumerate(roads)}),
        "neighbours": _neighbours(roads, n),
        "nobles_only": frozenset(
            _road(r, "roads.nobles_only", n) for r in data["roads"]["nobles_only"]
        ),
        "route_next": route_next,
        "route_prev": route_prev,
        "spaces": int(data["queue"]["spaces"]),
        "blockers": _blockers(data, n),
    }


def _blockers(data: GameData, n: int) -> tuple[tuple[int, ...], ...]:
    """Setup: 'cover the spots that show a number higher than the number of players': the
    three numbered spots of each location (27 queue blockers), each a player count 2-5."""
    rows = data["queue_blockers"]["numbers"]
    if len(rows) != n:
        raise DataError(f"[queue_blockers] numbers: {len(rows)} locations given, the board has {n}")
    for i, nums in enumerate(rows, 1):
        if len(nums) != 3 or not all(isinstance(b, int) and 2 <= b <= 5 for b in nums):
            raise DataError(
                f"[queue_blockers] numbers: location {i} shows {nums}; each location has three "
                "numbered spots, each a player count 2-5, like [3, 4, 4]"
            )
    return tuple(tuple(int(b) for b in nums) for nums in rows)


def _family(data: GameData) -> dict[str, Any]:
    """A player's pieces and supplies, the action costs and the hand limit."""
    fam = data["family"]
    return {
        "family": (0, int(fam["debutants"]), int(fam["donnas"]), int(fam["maestros"])),
        "guards": int(fam["guards"]),
        "brag_markers": int(fam["brag_markers"]),
        "gifts": int(fam["gifts"]),
        "gifts_at_start": int(fam["gifts_at_start"]),
        "time_at_start": int(fam["time_at_start"]),
        "time_max": int(fam["time_max"]),
        "hand_limit": int(fam["hand_limit"]),
        "cost": MappingProxyType({k: int(v) for k, v in data["costs"].values.items()}),
    }


def _dial(data: GameData) -> dict[str, Any]:
    """The Nobles and the Noble dial: rounds, time tokens, gifts gained, VP by round."""
    nobles = data["nobles"]
    dial = data["dial"]
    queue_vp: dict[int, tuple[int, ...]] = {}
    giovanni: dict[int, tuple[tuple[int, int], ...]] = {}
    for noble, key in ((COSIMO, "cosimo"), (CONTESSINA, "contessina")):
        for k, values in enumerate(dial[key]):
            queue_vp[noble + 1 + 3 * k] = tuple(int(v) for v in values)
    for k, (vps, times) in enumerate(zip(dial["giovanni_vp"], dial["giovanni_time"], strict=True)):
        giovanni[3 + 3 * k] = tuple(zip(map(int, vps), map(int, times), strict=True))
    gained = data["gifts_gained"]
    return {
        "nobles": tuple(nobles["names"]),
        "guard_kinds": tuple(nobles["guards"]),
        "decks": tuple(nobles["decks"]),
        "rounds": int(nobles["rounds"]),
        "first_round_time": int(data["time_tokens"]["first_round"]),
        "time_tokens": tuple(int(v) for v in data["time_tokens"]["values"]),
        "gifts_gained": MappingProxyType({3: int(gained["round3"]), 6: int(gained["round6"])}),
        "prime": tuple(int(v) for v in dial["prime"]),
        "queue_vp": MappingProxyType(queue_vp),
        "giovanni": MappingProxyType(giovanni),
    }


def _tiles(data: GameData) -> dict[str, Any]:
    """Brag Tiles: each condition's VP per match and its marker spots' VP ranges."""
    tiles = []
    slots = data["brag_slots"]
    for name, (rate, counts) in data["brag_tiles"].values.items():
        floors = tuple(int(v) for v in slots[name])
        if len(floors) != SPOTS or list(floors) != sorted(floors):
            raise DataError(f"florence data: brag_slots.{name} needs 3 rising VP floors")
        labels = tuple(
            f"{lo}-{floors[i + 1] - 1}" if i + 1 < len(floors) else f"{lo}+"
            for i, lo in enumerate(floors)
        )
        tiles.append(BragTile(name, int(rate), str(counts), floors, labels))
    return {
        "tiles": tuple(tiles),
        "tile_index": MappingProxyType({t.name: i for i, t in enumerate(tiles)}),
    }


def _cards(data: GameData, names: tuple[str, ...]) -> dict[str, Any]:
    """Scandal Cards: the four abilities of each Noble's deck and their costs."""
    sc = data["scandals"]
    cards = []
    for noble, key in enumerate(names):
        if len(sc[key]) != 4:
            raise DataError(f"florence data: scandals.{key} needs the deck's 4 abilities")
        for i, card in enumerate(sc[key]):
            cards.append(Card(card, noble, i, int(sc["cost"][card])))
    return {
        "cards": tuple(cards),
        "card_index": MappingProxyType({c.name: i for i, c in enumerate(cards)}),
        "copies": int(sc["copies"]),
    }


def _schemes(data: GameData, n: int) -> dict[str, Any]:
    """Scheme cards, their VP table, and the time scored at the end."""
    schemes = data["schemes"].values
    svp = data["scheme_vp"]
    return {
        "schemes": tuple(schemes),
        "scheme_locs": tuple(
            frozenset(_loc(x, f"schemes.{k}", n) for x in v) for k, v in schemes.items()
        ),
        "scheme_vp": tuple(int(v) for v in svp["by_count"]),
        "scheme_min": int(svp["minimum"]),
        "time_per_vp": int(data["end_scoring"]["time_per_vp"]),
    }


def compile_tables(data: GameData) -> Tables:
    board = _board(data)
    dial = _dial(data)
    return Tables(
        **board,
        **_family(data),
        **dial,
        **_tiles(data),
        **_cards(data, dial["nobles"]),
        **_schemes(data, board["locations"]),
        **_solo_cards(data),
    )


def _solo_faces(actions: tuple[str, ...], faces: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Which Noble (A, B, C as 0-2) and colour each deploy card shows, and each brag
    card's colour (-1 for a card that shows neither)."""
    deploys = [i for i, a in enumerate(actions) if a == "deploy"]
    brags = [i for i, a in enumerate(actions) if a == "brag"]
    nobles, colours = list(faces["deploy_noble"]), list(faces["deploy_colour"])
    brag_colours = list(faces["brag_colour"])
    if not (len(nobles) == len(colours) == len(deploys) and len(brag_colours) == len(brags)):
        raise DataError("florence data: solo_faces needs a face for every deploy and brag card")
    noble = [-1] * len(actions)
    colour = [-1] * len(actions)
    for i, letter, name in zip(deploys, nobles, colours, strict=True):
        noble[i], colour[i] = _deploy_face(i, letter, name)
    for i, name in zip(brags, brag_colours, strict=True):
        if name not in SOLO_COLOURS[1:]:
            raise DataError(f"florence data: solo_faces: brag card {i + 1} shows {name!r}")
        colour[i] = SOLO_COLOURS.index(name)
    return tuple(noble), tuple(colour)


def _deploy_face(i: int, letter: str, name: str) -> tuple[int, int]:
    """A deploy card's Noble (A, B, C as 0-2) and colour (0: card 5's 'fewer')."""
    if letter not in ("A", "B", "C") or name not in SOLO_COLOURS:
        raise DataError(f"florence data: solo_faces: card {i + 1} shows {letter!r} {name!r}")
    return "ABC".index(letter), SOLO_COLOURS.index(name)


def _solo_cards(data: GameData) -> dict[str, Any]:
    """The ten solo cards: action and cost by number, and the faces of the deploy and brag
    cards (which Noble, which colour)."""
    cards = data["solo_cards"]
    actions = tuple(str(a) for a in cards["actions"])
    cost = tuple(int(c) for c in cards["cost"])
    if len(actions) != len(cost) or any(a not in SOLO_ACTIONS for a in actions):
        raise DataError(f"florence data: solo_cards needs one of {SOLO_ACTIONS} and a cost each")
    noble, colour = _solo_faces(actions, data["solo_faces"])
    return {
        "solo_actions": actions,
        "solo_cost": cost,
        "solo_noble": noble,
        "solo_colour": colour,
    }


_TABLES: dict[str, Tables] = {}


def tables_for(data: GameData) -> Tables:
    tables = _TABLES.get(data.digest)
    if tables is None:
        tables = _TABLES[data.digest] = compile_tables(data)
    return tables
