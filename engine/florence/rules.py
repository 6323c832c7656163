"""Florence: the rules of the rulebook, for 2-5 players, and solo against an automa.

Seats are numbered clockwise (seat i+1 is to the left of seat i). Locations are
0-based here and 1-based in notation. A family member is an int
`colour * 4 + rank` (rank 1 debutant, 2 donna, 3 maestro); each location's queue
is a list of them, Prime Position first, always in seniority order. A colour
belongs to a seat (`colours[colour]`): one each in a multiplayer game, two for
the solo automa, whose Orange and Blue pieces behave differently. A solo game
(`players == 1`) has a second seat for the automa, Palla Strozzi (solo.py):
per-seat lists run over `seats`, while scores() and winner() list the players.
Interpretations of ambiguous rules: docs/florence-rulings.md. Notation:
docs/notation.md, section Florence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import CHANCE, Event, Flow, Game, GameData, Option, State

from . import solo
from .seats import SEAT_KINDS, SeatKind
from .tables import (
    CONTESSINA,
    DEBUTANT,
    DONNA,
    GIOVANNI,
    MAESTRO,
    RANK_OF,
    RANKS,
    tables_for,
)

# --- the flow of a game, as in the rulebook's table of contents ------------------
PHASES = [
    "setup",  # Setup: brag tiles, carriages, the Noble dial's tokens, the 1st player marker
    "placement",  # Before the First Round: one free Debutant each, last player first
    "gain_time",  # 1. Gain Time
    "actions",  # 2. Perform Actions, until all players have passed
    "moving",  # a Rush (or a scandal journey) between its steps
    "noble_movement",  # 3. Noble Movement: Prime Position VP, brag and spy scandals
    "hand_limit",  # Scandal Cards: a seat holding 5 may discard one first, or gain 1 time
    "queue_scoring",  # 4. Queue Scoring (Giovanni's claims are decided here)
    "cleanup",  # 5. Cleanup: new Time and Location tokens on the dial
    "final_discards",  # Game End: a last chance to trade scandals for time
    "schemes",  # Game End: scheme cards revealed and scored
    "over",  # Declare the Winner
]

TRANSITIONS = [
    {"trigger": "dealt", "source": "setup", "dest": "placement"},
    {"trigger": "placed", "source": "placement", "dest": "gain_time"},
    {"trigger": "time_gained", "source": "gain_time", "dest": "actions"},
    {"trigger": "travel", "source": "actions", "dest": "moving"},
    {"trigger": "arrived", "source": "moving", "dest": "actions"},
    {"trigger": "all_passed", "source": "actions", "dest": "noble_movement"},
    {"trigger": "over_limit", "source": "noble_movement", "dest": "hand_limit"},
    {"trigger": "limit_decided", "source": "hand_limit", "dest": "noble_movement"},
    {"trigger": "noble_arrived", "source": "noble_movement", "dest": "queue_scoring"},
    {"trigger": "scored", "source": "queue_scoring", "dest": "cleanup"},
    {"trigger": "next_round", "source": "cleanup", "dest": "gain_time"},
    {"trigger": "last_round_scored", "source": "queue_scoring", "dest": "final_discards"},
    {"trigger": "discards_done", "source": "final_discards", "dest": "schemes"},
    {"trigger": "schemes_revealed", "source": "schemes", "dest": "over"},
]

FLOW = Flow("Florence", PHASES, TRANSITIONS, initial="setup")

HIDDEN = ("schemes", "hands")
"""State fields views must not show before the game is over (scheme cards, scandal hands)."""

SEAT_PHASES = frozenset(
    {"placement", "actions", "moving", "hand_limit", "queue_scoring", "final_discards"}
)
AUTOMA_TURNS = frozenset({"placement", "actions"})  # phases where Strozzi takes turns
SCANDAL_ENTRY = ("draw", "play")
MAX_LOC = 9  # piece words are precomputed for queues of up to this many spaces

# "debutant3": the piece of that rank in queue position 3 (positions 1-based).
PIECE_WORDS = tuple(
    tuple(f"{RANKS[r]}{i + 1}" for i in range(MAX_LOC)) if r else () for r in range(4)
)


def piece_word(code: int, idx: int) -> str:
    return PIECE_WORDS[code & 3][idx]


def ev(kind: str, **data: Any) -> Event:
    """An event with plain values, for views to animate and logs to print."""
    return Event(kind, data)


def piece_index(word: str) -> int:
    """Queue index named by a legal piece word ('donna2' -> 1; a bare rank, in transit -> -1)."""
    tail = word.lstrip("abcdefghijklmnopqrstuvwxyz")
    return int(tail) - 1 if tail else -1


def parse_piece(word: str) -> tuple[int, int] | None:
    """'donna2' -> (rank 2, index 1); a bare rank word -> (rank, -1), the piece in transit."""
    head = word.rstrip("0123456789")
    rank = RANK_OF.get(head)
    if rank is None:
        return None
    tail = word[len(head) :]
    return rank, (int(tail) - 1 if tail else -1)


class FlorenceState(State):
    """A Florence position. Plain fields only, so clone and to_dict stay cheap."""

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        t = self.tables = tables_for(data)
        # Solo: the human is seat 1 (index 0) and Palla Strozzi, the automa, a second seat
        # that counts as a player for the board but not in `players`, scores() or winner().
        n = self.seats = players + 1 if players == 1 else players
        self.automa = players if players == 1 else -1
        self.cap = t.capacity(n)
        self.nbrs = t.neighbours  # roads a family member may take (solo: fewer, see solo.py)
        self.draw_mode = options.get("scandal_entry", "draw") == "draw"
        self.phase = FLOW.initial
        self.round = 0
        self.first = -1
        self.turn = -1
        self.kinds = ["player"] * n
        self.colours = list(range(n))  # the seat owning each colour
        self.owner = self._owners()  # piece code -> seat (derived from colours)
        self.time = [t.time_at_start] * n
        self.vp = [0] * n
        self.supply = [0] * (4 * n)  # colour * 4 + rank: pieces on the player board
        self.exiled = [0] * (4 * n)  # removed from the game by a scandal
        for c in range(n):
            for r in (DEBUTANT, DONNA, MAESTRO):
                self.supply[c * 4 + r] = t.family[r]
        self.gifts_left = [t.gifts_at_start] * n
        self.given = [0] * (3 * n)  # seat * 3 + noble
        self.guards_left = [t.guards] * n
        self.markers_left = [t.brag_markers] * n
        self.queues: list[list[int]] = [[] for _ in range(t.locations)]
        self.tiles = [-1] * t.locations
        self.slots = [-1] * (3 * t.locations)  # location * 3 + spot (0 = bottom): seat
        self.escorts: list[tuple[int, ...]] = [()] * len(t.roads)
        self.spies: list[tuple[int, ...]] = [()] * t.locations
        self.bouncers: list[tuple[int, ...]] = [()] * t.locations
        self.carriage = [-1, -1, -1]
        self.bottom: list[int] = []  # the three carriage locations: the last three tokens
        self.dial_time = [0] * t.rounds
        self.dial_time[0] = t.first_round_time
        self.dial_loc = [-1] * t.rounds
        self.rings = [-1] * n
        self.passed = [False] * n
        self.npassed = 0
        self.hands: list[tuple[str, ...]] = [()] * n
        self.deck = [t.copies] * len(t.cards)  # draw mode: cards per kind in each draw pile
        self.deck_left = [t.copies * sum(1 for c in t.cards if c.noble == k) for k in range(3)]
        self.discard = [0] * len(t.cards)
        self.schemes = [-1] * n
        self.placed = 0
        self.travel: list[Any] | None = None
        self.path: list[int] = []  # locations the active Noble has still to enter
        self.pending: list[int] = []  # seats owed a scandal card at the current location
        self.gio_order: list[int] = []
        self.gio_award = 0
        self.gio_done: list[int] = []
        self.final: list[list[int]] = []  # per seat: time VP, scheme VP (after the game)
        if self.automa >= 0:
            solo.seat_strozzi(self)

    # --- small helpers ---------------------------------------------------------
    def kind(self, seat: int) -> SeatKind:
        return SEAT_KINDS[self.kinds[seat]]

    def _owners(self) -> list[int]:
        return [seat for seat in self.colours for _ in range(4)]

    def colour(self, seat: int) -> int:
        """The colour a seat's new pieces and guards take (its first colour)."""
        return self.colours.index(seat)

    def active_noble(self) -> int:
        return self.tables.active_noble(self.round)

    def destination(self, noble: int) -> int:
        """Where the Noble's destination marker stands (-1: removed, or not yet revealed).

        Once the active Noble has arrived, its marker counts as moved on to its next
        destination (the Cleanup step), so a view shows where it goes next."""
        arrived = self.phase in ("queue_scoring", "cleanup", "final_discards", "schemes", "over")
        start = self.round + 1 if arrived else max(self.round, 1)
        for rnd in range(start, self.tables.rounds + 1):
            if self.tables.active_noble(rnd) == noble:
                return self.dial_loc[rnd - 1]
        return -1

    def _gain_time(self, seat: int, amount: int) -> int:
        """Add time up to the cap; returns what was really gained."""
        before = self.time[seat]
        self.time[seat] = min(self.tables.time_max, max(0, before + amount))
        return self.time[seat] - before

    def _enter(self, loc: int, code: int) -> int:
        """A family member joins a queue: behind equal or higher ranks who came earlier,
        or, with its owner's Bouncer there, ahead of every piece of equal or lower rank."""
        q = self.queues[loc]
        r = code & 3
        i = 0
        n = len(q)
        if (code >> 2) in self.bouncers[loc]:  # a Bouncer of the same colour
            while i < n and (q[i] & 3) > r:
                i += 1
        else:
            while i < n and (q[i] & 3) >= r:
                i += 1
        q.insert(i, code)
        return i

    def own_pieces(self, seat: int) -> list[tuple[int, int, int]]:
        """(location, queue index, piece code) of every family member of `seat` on the board."""
        out = []
        owner = self.owner
        for loc, q in enumerate(self.queues):
            for i, code in enumerate(q):
                if owner[code] == seat:
                    out.append((loc, i, code))
        return out

    def family_on_board(self, seat: int) -> int:
        owner = self.owner
        return sum(1 for q in self.queues for c in q if owner[c] == seat)

    def has_member(self, seat: int, loc: int) -> bool:
        owner = self.owner
        return any(owner[c] == seat for c in self.queues[loc])

    def _free(self, loc: int) -> bool:
        return len(self.queues[loc]) < self.cap[loc]

    # --- whose turn ----------------------------------------------------------------
    def current_player(self) -> int | None:
        phase = self.phase
        if phase in SEAT_PHASES:
            return SEAT_KINDS[self.kinds[self.turn]].actor(self, self.turn)
        if phase == "over":
            return None
        return CHANCE

    def _legal_texts(self) -> Sequence[str]:
        if self.phase in SEAT_PHASES:
            return SEAT_KINDS[self.kinds[self.turn]].texts(self, self.turn)
        return self._chance_texts()

    def _apply(self, text: str) -> list[Event]:
        events: list[Event] = []
        if self.phase in SEAT_PHASES:
            SEAT_KINDS[self.kinds[self.turn]].apply(self, self.turn, text, events)
        else:
            self._apply_chance(text, events)
        self._advance(events)
        return events

    # --- chance ------------------------------------------------------------------------
    def _chance_step(self) -> tuple[str, int]:
        """What the table draws next: (kind, detail)."""
        phase = self.phase
        if phase == "setup":
            for loc, tile in enumerate(self.tiles):
                if tile < 0:
                    return "tile", loc
            for noble, loc in enumerate(self.carriage):
                if loc < 0:
                    return "carriage", noble
            for rnd in range(3):
                if self.dial_loc[rnd] < 0:
                    return "location", rnd
            for rnd in range(1, 3):
                if not self.dial_time[rnd]:
                    return "time", rnd
            return "first", 0
        if phase == "cleanup":
            rnd = self.round + 2  # 0-based slot of round + 3
            if not self.dial_time[rnd]:
                return "time", rnd
            return "location", rnd
        if phase == "noble_movement":
            return "draw", self.active_noble()
        if phase == "schemes":
            return "scheme", self._scheme_seat()
        raise AssertionError(f"no chance step in phase {phase}")  # pragma: no cover

    def _chance_options(self) -> list[tuple[str, float]]:
        kind, detail = self._chance_step()
        t = self.tables
        if kind == "tile":
            used = set(self.tiles)
            loc = t.loc_names[detail]
            return [
                (f"tile {loc} {tile.name}", 1.0) for i, tile in enumerate(t.tiles) if i not in used
            ]
        if kind == "carriage":
            taken = set(self.carriage)
            name = t.nobles[detail]
            return [
                (f"carriage {name} {t.loc_names[loc]}", 1.0)
                for loc in range(t.locations)
                if loc not in taken
            ]
        if kind == "location":
            used = set(self.dial_loc)
            pool = (
                self.bottom
                if detail >= t.rounds - len(self.bottom)
                else [loc for loc in range(t.locations) if loc not in self.bottom]
            )
            return [(f"token location {t.loc_names[loc]}", 1.0) for loc in pool if loc not in used]
        if kind == "time":
            used = list(self.dial_time[1:])
            out = []
            for v in sorted(set(t.time_tokens)):
                left = t.time_tokens.count(v) - used.count(v)
                if left > 0:
                    out.append((f"token time {v}", float(left)))
            return out
        if kind == "first":
            return [(f"first {s + 1}", 1.0) for s in range(self.players)]
        if kind == "draw":
            base = 4 * detail
            name = t.nobles[detail]
            weights = [(i, self._top_card_weight(i)) for i in range(base, base + 4)]
            return [(f"draw {name} {t.cards[i].name}", float(w)) for i, w in weights if w > 0]
        # scheme
        taken = set(self.schemes)
        return [(f"scheme {name}", 1.0) for i, name in enumerate(t.schemes) if i not in taken]

    def _chance_texts(self) -> list[str]:
        return [text for text, _ in self._chance_options()]

    def chance_weights(self) -> Sequence[float] | None:
        if self.current_player() != CHANCE:
            return None
        if self.phase in SEAT_PHASES:  # a seat whose decisions are card draws
            return SEAT_KINDS[self.kinds[self.turn]].weights(self, self.turn)
        return [w for _, w in self._chance_options()]

    def _apply_chance(self, text: str, events: list[Event]) -> None:
        words = text.split()
        verb = words[0]
        t = self.tables
        if verb == "tile":
            loc = int(words[1]) - 1
            self.tiles[loc] = t.tile_index[words[2]]
            events.append(ev("tile_dealt", location=loc + 1, tile=words[2]))
        elif verb == "carriage":
            noble = t.nobles.index(words[1])
            loc = int(words[2]) - 1
            self.carriage[noble] = loc
            self.bottom.append(loc)
            events.append(ev("carriage_placed", noble=words[1], location=loc + 1))
        elif verb == "token":
            _, rnd = self._chance_step()
            value = int(words[2])
            if words[1] == "time":
                self.dial_time[rnd] = value
            else:
                self.dial_loc[rnd] = value - 1
            events.append(ev("token_placed", round=rnd + 1, token=words[1], value=value))
        elif verb == "first":
            self.first = int(words[1]) - 1
            events.append(ev("first_player", player=self.first))
        elif verb == "draw":
            self._take_card(self.pending.pop(0), t.card_index[words[2]], events)
        elif verb == "scheme":
            seat = self._scheme_seat()
            self.schemes[seat] = t.schemes.index(words[1])
            events.append(ev("scheme_revealed", player=seat, scheme=words[1]))

    # --- the automatic steps between decisions ------------------------------------------
    def _advance(self, events: list[Event]) -> None:
        """Run every step that needs no input, until a decision or a draw is due."""
        while True:
            phase = self.phase
            if phase in ("setup", "cleanup", "schemes"):
                if phase == "cleanup" and self.dial_loc[self.round + 2] >= 0:
                    self._start_round(events)
                    continue
                if phase == "schemes" and self._scheme_seat() < 0:
                    self._final_scoring(events)
                    FLOW.fire(self, "schemes_revealed")
                    return
                if phase == "setup" and self.first >= 0:
                    FLOW.fire(self, "dealt")
                    self.placed = 0
                    self.turn = (self.first - 1) % self.seats
                    continue
                options = self._chance_options()
                if len(options) == 1:  # nothing random left to draw: place it
                    self._apply_chance(options[0][0], events)
                    continue
                return
            if phase == "placement" and self.placed >= self.seats:
                FLOW.fire(self, "placed")
                self._start_round(events)
                continue
            if self.turn == self.automa and phase in AUTOMA_TURNS:
                if solo.run(self, events):
                    return  # Strozzi waits for his card, or the human's ok or choice
                continue
            if phase == "placement":
                return
            if phase == "noble_movement":
                if self._run_noble(events):
                    return
                continue
            if phase == "queue_scoring":
                if self._giovanni_next(events):
                    if self.turn != self.automa or solo.claim(self, events):
                        return
                    continue
                self._end_round(events)
                continue
            if phase == "final_discards":
                if self._next_discarder():
                    return
                FLOW.fire(self, "discards_done")
                continue
            return

    def _start_round(self, events: list[Event]) -> None:
        """1. Gain Time, then the first player opens the Perform Actions phase."""
        if self.phase == "cleanup":
            FLOW.fire(self, "next_round")
        self.round += 1
        amount = self.dial_time[self.round - 1]
        for s in range(self.seats):
            self._gain_time(s, self.kind(s).time_gained(self, s, amount))
        events.append(ev("round_started", round=self.round, time=amount))
        FLOW.fire(self, "time_gained")
        self.turn = self.first

    def _end_turn(self, seat: int, events: list[Event]) -> None:
        if self.npassed >= self.seats:
            FLOW.fire(self, "all_passed")
            noble = self.active_noble()
            self.path = list(self.tables.path(self.carriage[noble], self.dial_loc[self.round - 1]))
            self.pending = []
            return
        nxt = (seat + 1) % self.seats
        if self.automa >= 0 and nxt != self.automa and self.passed[nxt] and self.tune.harder_pass:
            nxt = self.automa  # harder solo: "If you pass 1st, you don't get a benefit ..."
        self.turn = nxt

    # --- decisions of a seat: what may be done ------------------------------------------
    def decision_texts(self, seat: int) -> list[str]:
        phase = self.phase
        if phase == "actions":
            return self._action_texts(seat)
        if phase == "moving":
            return self._step_texts(seat)
        if phase == "placement":
            return [
                f"place {self.tables.loc_names[loc]}" for loc, q in enumerate(self.queues) if not q
            ]
        if phase == "hand_limit":  # "keep" first: declining takes one press
            return ["keep", *self._discard_texts(seat)]
        if phase == "queue_scoring":
            out = self._discard_texts(seat)
            if self.time[seat] >= self.tables.giovanni[self.round][self.gio_award][1]:
                out.append("claim")
            out.append("decline")
            return out
        # final discards
        out = self._discard_texts(seat)
        out.append("done")
        return out

    def _discard_texts(self, seat: int) -> list[str]:
        return [f"discard {name}" for name in self._playable_cards(seat)]

    def _playable_cards(self, seat: int) -> list[str]:
        """Names of the scandal cards `seat` may reveal from its hand, once each."""
        hand = self.hands[seat]
        if not hand:
            return []
        t = self.tables
        if self.draw_mode:
            return sorted(set(hand), key=t.card_index.__getitem__)
        out = [c for c in t.card_index if c in hand]
        for noble, name in enumerate(t.nobles):
            if name in hand:
                for i in range(4 * noble, 4 * noble + 4):
                    card = t.cards[i].name
                    if card not in out and self.discard[i] < t.copies:
                        out.append(card)
        return out

    def _action_texts(self, s: int) -> list[str]:
        t = self.tables
        out = self._discard_texts(s)
        ln = t.loc_names
        queues = self.queues
        if self.passed[s]:
            out.append("bonus time")
            out.append("bonus vp")
            ring = self.rings[s]
            if ring >= 0:
                q = queues[ring]
                for i in range(len(q) - 1):
                    a, b = q[i], q[i + 1]
                    if (a & 3) == (b & 3) and (self.owner[a] == s) != (self.owner[b] == s):
                        out.append(f"bonus swap {piece_word(a, i)} {piece_word(b, i + 1)}")
            return out
        if self.npassed == self.seats - 1:
            out.append("pass")
        else:
            rings = self.rings
            out.extend(f"pass {ln[loc]}" for loc in range(t.locations) if loc not in rings)
        time = self.time[s]
        cost = t.cost
        cap = self.cap
        own = self.own_pieces(s)
        nbrs = self.nbrs
        if time >= cost["move"]:
            for loc, i, code in own:
                head = f"move {ln[loc]} {piece_word(code, i)} "
                for d, _ in nbrs[loc]:
                    if len(queues[d]) < cap[d]:
                        out.append(head + ln[d])
        if time >= cost["rush"]:
            for loc, i, code in own:
                head = f"rush {ln[loc]} {piece_word(code, i)} "
                for d, _ in nbrs[loc]:
                    if len(queues[d]) < cap[d] or self._way_on(d, 1, loc):
                        out.append(head + ln[d])
        if time >= cost["brag"] and self.markers_left[s]:
            out.extend(self._brag_texts(s, own, "brag", anywhere=False))
        supply = self.supply
        if time >= cost["dispatch"] and supply[self.colour(s) * 4 + DEBUTANT]:
            out.extend(
                f"dispatch {ln[loc]}" for loc in range(t.locations) if len(queues[loc]) < cap[loc]
            )
        if time >= cost["promote"]:
            for loc, i, code in own:
                r = code & 3
                if r < MAESTRO and supply[code + 1]:
                    out.append(f"promote {ln[loc]} {piece_word(code, i)}")
        if self.gifts_left[s]:
            for noble in range(3):
                price = cost["gift"] + self.given[s * 3 + noble]
                if time >= price and self.has_member(s, self.carriage[noble]):
                    out.extend(self._gift_texts(s, noble, "gift"))
        cards = self._playable_cards(s)
        if cards:
            out.extend(self._scandal_texts(s, cards, own))
        return out

    def _way_on(self, loc: int, steps: int, origin: int) -> bool:
        """A piece may stop nowhere full: from full `loc`, can it reach a free location
        within `steps` more steps? (`origin` is where it left, one space freer now.)"""
        if steps <= 0:
            return False
        q = self.queues
        cap = self.cap
        for d, _ in self.nbrs[loc]:
            if len(q[d]) - (d == origin) < cap[d]:
                return True
            if steps > 1 and self._way_on(d, steps - 1, origin):
                return True
        return False

    def brag_vp(
        self, seat: int, tile_loc: int, counts: list[int] | None = None, played: int = 0
    ) -> int:
        """What the brag on `tile_loc` scores for `seat` now; `played` cards are leaving
        the hand (a Messere brag card is played before its brag scores)."""
        t = self.tables
        tile = t.tiles[self.tiles[tile_loc]]
        if counts is None:
            counts = self._counts(seat)
        what = tile.counts
        if what == "locations":
            n = sum(1 for c in counts if c)
        elif what == "pairs":
            n = sum(1 for c in counts if c >= 2)
        elif what == "row":
            row = tile_loc // t.columns
            n = sum(counts[row * t.columns : (row + 1) * t.columns])
        elif what == "column":
            n = sum(counts[tile_loc % t.columns :: t.columns])
        elif what == "senior":
            owner = self.owner
            n = sum(1 for q in self.queues for c in q if owner[c] == seat and c & 3 > DEBUTANT)
        elif what == "markers":
            n = t.brag_markers - self.markers_left[seat] + 1
        elif what == "hand":
            n = len(self.hands[seat]) - played
        elif what == "prime":
            n = sum(1 for q in self.queues if q and self.owner[q[0]] == seat)
        elif what == "gifts":
            n = sum(self.given[seat * 3 : seat * 3 + 3])
        else:  # pragma: no cover - data names a condition the engine does not know
            raise ValueError(f"unknown brag condition {what!r}")
        return tile.rate * n

    def _counts(self, seat: int) -> list[int]:
        owner = self.owner
        return [sum(1 for c in q if owner[c] == seat) for q in self.queues]

    def brag_spot(self, loc: int, vp: int) -> int:
        """The spot a brag scoring `vp` takes on `loc`: its range, else the next lower free one."""
        tile = self.tables.tiles[self.tiles[loc]]
        k = len(tile.floors) - 1
        while k > 0 and vp < tile.floors[k]:
            k -= 1
        base = loc * 3
        while k >= 0 and self.slots[base + k] >= 0:
            k -= 1
        return k

    def _brag_texts(
        self, s: int, own: list[tuple[int, int, int]], prefix: str, anywhere: bool
    ) -> list[str]:
        t = self.tables
        counts = self._counts(s)
        out = []
        slots = self.slots
        for loc in range(t.locations):
            if self.tiles[loc] < 0 or (not anywhere and not counts[loc]):
                continue
            base = loc * 3
            if s in (slots[base], slots[base + 1], slots[base + 2]):
                continue
            k = self.brag_spot(loc, self.brag_vp(s, loc, counts, 1 if anywhere else 0))
            if k >= 0:
                out.append(f"{prefix} {t.loc_names[loc]} {t.tiles[self.tiles[loc]].labels[k]}")
        return out

    def _guard_texts(self, s: int, noble: int, stacked: bool) -> list[str]:
        """Shields for a new guard: unoccupied ones (a gift), or any without one's own (a card)."""
        t = self.tables
        if noble == 0:
            stacks, names = self.escorts, t.road_names
        else:
            stacks = self.spies if noble == CONTESSINA else self.bouncers
            names = t.loc_names
        kind = t.guard_kinds[noble]
        if stacked:
            colours = self.colours
            return [
                f"{kind} {names[i]}"
                for i, st in enumerate(stacks)
                if all(colours[c] != s for c in st)
            ]
        return [f"{kind} {names[i]}" for i, st in enumerate(stacks) if not st]

    def _gift_texts(self, s: int, noble: int, prefix: str) -> list[str]:
        head = f"{prefix} {self.tables.nobles[noble]}"
        shields = self._guard_texts(s, noble, False) if self.guards_left[s] else []
        if not shields:
            return [head]
        return [f"{head} {g}" for g in shields]

    def _scandal_texts(
        self, s: int, cards: list[str], own: list[tuple[int, int, int]]
    ) -> list[str]:
        t = self.tables
        time = self.time[s]
        ln = t.loc_names
        queues = self.queues
        cap = self.cap
        nbrs = t.neighbours
        out: list[str] = []
        for card in cards:
            info = t.cards[t.card_index[card]]
            cost = info.cost
            if card == "gift":
                if not self.gifts_left[s]:
                    continue
                for noble in range(3):
                    if time >= cost + self.given[s * 3 + noble]:
                        out.extend(self._gift_texts(s, noble, "scandal gift"))
                continue
            if time < cost:
                continue
            if card == "guard":
                if self.guards_left[s]:
                    for noble in range(3):
                        out.extend(f"scandal guard {g}" for g in self._guard_texts(s, noble, True))
            elif card == "carry":
                for loc, i, code in own:
                    head = f"scandal carry {ln[loc]} {piece_word(code, i)} "
                    for d in range(t.locations):
                        if d != loc and len(queues[d]) < cap[d]:
                            out.append(head + ln[d])
            elif card == "journey":
                for loc, i, code in own:
                    head = f"scandal journey {ln[loc]} {piece_word(code, i)} "
                    for d, _ in self.nbrs[loc]:
                        if len(queues[d]) < cap[d] or self._way_on(d, 2, loc):
                            out.append(head + ln[d])
            elif card == "deploy":
                if self.supply[self.colour(s) * 4 + DEBUTANT]:
                    owner = self.owner
                    for loc, q in enumerate(queues):
                        if len(q) < cap[loc] and any(owner[c] == s and c & 3 > DEBUTANT for c in q):
                            out.append(f"scandal deploy {ln[loc]}")
            elif card == "usurp":
                for loc, i, code in own:
                    r = code & 3
                    head = f"scandal usurp {ln[loc]} {piece_word(code, i)} "
                    for d, _ in nbrs[loc]:
                        for j, other in enumerate(queues[d]):
                            if other & 3 < r:
                                out.append(f"{head}{ln[d]} {piece_word(other, j)}")
            elif card == "promote":
                for loc, i, code in own:
                    if code & 3 == DEBUTANT and self.supply[code + 1]:
                        out.append(f"scandal promote {ln[loc]} {piece_word(code, i)}")
            elif card == "advance":
                for loc, i, code in own:
                    q = queues[loc]
                    r = code & 3
                    j = i - 1
                    while j >= 0 and q[j] & 3 == r and self.owner[q[j]] == s:
                        j -= 1
                    if j >= 0 and q[j] & 3 == r:
                        out.append(f"scandal advance {ln[loc]} {piece_word(code, i)}")
            elif card == "recall":
                for loc in range(t.locations):
                    if s in self.slots[loc * 3 : loc * 3 + 3]:
                        out.append(f"scandal recall {ln[loc]}")
            elif card == "reorder":
                for loc, q in enumerate(queues):
                    for i in range(len(q)):
                        a = q[i]
                        for j in range(i + 1, len(q)):
                            b = q[j]
                            if (a & 3) != (b & 3):
                                break
                            if a != b:
                                pair = f"{piece_word(a, i)} {piece_word(b, j)}"
                                out.append(f"scandal reorder {ln[loc]} {pair}")
            elif card == "exile":
                for loc, i, code in own:
                    out.append(f"scandal exile {ln[loc]} {piece_word(code, i)}")
            elif card == "brag" and self.markers_left[s]:
                out.extend(self._brag_texts(s, own, "scandal brag", anywhere=True))
        return out

    def _step_texts(self, s: int) -> list[str]:
        kind, loc, idx, code, steps, pieces, left, per = self.travel  # type: ignore[misc]
        t = self.tables
        ln = t.loc_names
        queues = self.queues
        cap = self.cap
        nbrs = self.nbrs
        out = []
        if steps < per and left > 0:
            word = piece_word(code, idx) if idx >= 0 else RANKS[code & 3]
            head = f"step {ln[loc]} {word} "
            more = min(per - steps - 1, left - 1)
            origin = loc if idx >= 0 else -1
            for d, _ in nbrs[loc]:
                if len(queues[d]) < cap[d] or self._way_on(d, more, origin):
                    out.append(head + ln[d])
        if pieces < 2 and idx >= 0 and left > 0:
            more = min(per - 1, left - 1)
            for oloc, i, ocode in self.own_pieces(s):
                if oloc == loc and i == idx:
                    continue
                head = f"step {ln[oloc]} {piece_word(ocode, i)} "
                for d, _ in nbrs[oloc]:
                    if len(queues[d]) < cap[d] or self._way_on(d, more, oloc):
                        out.append(head + ln[d])
        if kind == "journey" and idx >= 0:
            out.append("stop")
        return out

    # --- decisions of a seat: carrying them out ----------------------------------------
    def apply_decision(self, s: int, text: str, events: list[Event]) -> None:
        words = text.split()
        verb = words[0]
        t = self.tables
        if verb == "discard":
            self._reveal_card(s, words[1])
            gained = self._gain_time(s, t.cost["discard_time"])
            events.append(ev("scandal_discarded", player=s, card=words[1], time=gained))
            if self.phase == "final_discards" and not self._wants_discard(s):
                self.turn = self._next_seat_after(s)
            elif self.phase == "hand_limit":  # room for the new card: it is drawn next
                FLOW.fire(self, "limit_decided")
            return
        if verb == "keep":  # "For each Scandal gained over your limit, instead gain 1 time."
            self.pending.pop(0)
            gained = self._gain_time(s, t.cost["hand_overflow_time"])
            events.append(ev("scandal_over_limit", player=s, time=gained))
            FLOW.fire(self, "limit_decided")
            return
        if verb == "place":
            loc = int(words[1]) - 1
            code = self.colour(s) * 4 + DEBUTANT
            self.supply[code] -= 1
            self._enter(loc, code)
            events.append(ev("placed", player=s, location=loc + 1))
            self.placed += 1
            self.turn = (s - 1) % self.seats
            return
        if verb in ("claim", "decline"):
            self._giovanni_decide(s, verb == "claim", events)
            return
        if verb == "done":
            self.turn = self._next_seat_after(s)
            return
        if verb == "step" or verb == "stop":
            self._travel_decision(s, words, events)
            return
        if verb == "bonus":
            self._bonus(s, words, events)
        elif verb == "pass":
            self._pass(s, words, events)
        elif verb == "move":
            self.time[s] -= t.cost["move"]
            self._move(s, int(words[1]) - 1, piece_index(words[2]), int(words[3]) - 1, events, True)
        elif verb == "rush":
            self.time[s] -= t.cost["rush"]
            self._start_travel(s, "rush", words, events)
            return
        elif verb == "brag":
            self.time[s] -= t.cost["brag"]
            self._brag(s, int(words[1]) - 1, events)
        elif verb == "dispatch":
            self.time[s] -= t.cost["dispatch"]
            self._deploy(s, int(words[1]) - 1, events, "dispatched")
        elif verb == "promote":
            self.time[s] -= t.cost["promote"]
            self._promote(s, int(words[1]) - 1, piece_index(words[2]), events)
        elif verb == "gift":
            noble = t.nobles.index(words[1])
            self._gift(s, noble, words[2:], events)
        elif verb == "scandal" and self._scandal(s, words, events):
            return  # a journey goes on step by step
        self._end_turn(s, events)

    def _bonus(self, s: int, words: list[str], events: list[Event]) -> None:
        t = self.tables
        what = words[1]
        if what == "time":
            gained = self._gain_time(s, t.cost["bonus_time"])
            events.append(ev("bonus", player=s, bonus="time", time=gained))
        elif what == "vp":
            self.vp[s] += t.cost["bonus_vp"]
            events.append(ev("bonus", player=s, bonus="vp"))
        else:
            loc = self.rings[s]
            i = piece_index(words[2])
            q = self.queues[loc]
            q[i], q[i + 1] = q[i + 1], q[i]
            events.append(ev("bonus", player=s, bonus="swap", location=loc + 1, position=i + 1))

    def _pass(self, s: int, words: list[str], events: list[Event]) -> None:
        gained = 0
        if self.npassed == 0:
            gained = self._gain_time(s, self.tables.cost["first_pass_time"])
        self.npassed += 1
        self.passed[s] = True
        loc = int(words[1]) - 1 if len(words) > 1 else -1
        self.rings[s] = loc
        events.append(ev("passed", player=s, ring=loc + 1 if loc >= 0 else None, time=gained))

    def _escorts(self, s: int, road: int, events: list[Event]) -> None:
        """Moving along a road with Escorts: one's own gives 1 time, another's 2 VP to its owner."""
        t = self.tables
        for colour in self.escorts[road]:
            owner = self.colours[colour]
            if owner == s:
                gained = self._gain_time(s, t.cost["escort_time"])
                vp = solo.OWN_ESCORT_VP if self.automa >= 0 else 0
                self.vp[s] += vp  # solo: "For each of your own Escorts ... score 1 VP"
                events.append(
                    ev("escort", player=s, owner=s, road=t.road_names[road], time=gained, vp=vp)
                )
            else:
                self.vp[owner] += t.cost["escort_vp"]
                events.append(
                    ev(
                        "escort",
                        player=s,
                        owner=owner,
                        road=t.road_names[road],
                        vp=t.cost["escort_vp"],
                    )
                )

    def _move(
        self, s: int, loc: int, idx: int, dest: int, events: list[Event], escorts: bool
    ) -> int:
        return self._relocate(s, loc, self.queues[loc].pop(idx), dest, events, escorts)

    def _relocate(
        self, s: int, loc: int, code: int, dest: int, events: list[Event], escorts: bool
    ) -> int:
        """`code` has left `loc` for `dest`: Escorts on the road (unless a card ignores them),
        then it joins the queue, or stays in transit (-1) when `dest` is full."""
        if escorts:
            a, b = (loc, dest) if loc < dest else (dest, loc)
            self._escorts(s, self.tables.road_index[(a, b)], events)
        new = self._enter(dest, code) if self._free(dest) else -1
        pos = new + 1 if new >= 0 else None
        events.append(
            ev("moved", player=s, origin=loc + 1, to=dest + 1, rank=RANKS[code & 3], position=pos)
        )
        return new

    def _start_travel(self, s: int, kind: str, words: list[str], events: list[Event]) -> None:
        per, left = (2, 2) if kind == "rush" else (3, 6)
        loc = int(words[1]) - 1
        idx = piece_index(words[2])
        self.travel = [kind, loc, idx, self.queues[loc][idx], 0, 1, left, per]
        FLOW.fire(self, "travel")
        self._travel_step(s, loc, idx, int(words[3]) - 1, events)

    def _travel_decision(self, s: int, words: list[str], events: list[Event]) -> None:
        tr = self.travel
        assert tr is not None
        if words[0] == "stop":
            self._finish_travel(s, events)
            return
        loc = int(words[1]) - 1
        idx = piece_index(words[2])
        if not (loc == tr[1] and idx == tr[2]):  # a second family member sets off
            tr[1], tr[2], tr[3], tr[4] = loc, idx, self.queues[loc][idx], 0
            tr[5] += 1
        self._travel_step(s, loc, idx, int(words[3]) - 1, events)

    def _travel_step(self, s: int, loc: int, idx: int, dest: int, events: list[Event]) -> None:
        """One step of a Rush or journey; a piece may cross a full location but not stop there."""
        tr = self.travel
        assert tr is not None
        code = self.queues[loc].pop(idx) if idx >= 0 else tr[3]
        new = self._relocate(s, loc, code, dest, events, True)
        tr[1], tr[2], tr[3] = dest, new, code
        tr[4] += 1
        tr[6] -= 1
        if new >= 0 and (tr[6] <= 0 or (tr[4] >= tr[7] and tr[5] >= 2)):
            self._finish_travel(s, events)

    def _finish_travel(self, s: int, events: list[Event]) -> None:
        self.travel = None
        FLOW.fire(self, "arrived")
        self._end_turn(s, events)

    def _brag(self, s: int, loc: int, events: list[Event]) -> None:
        vp = self.brag_vp(s, loc)
        k = self.brag_spot(loc, vp)
        self.slots[loc * 3 + k] = s
        self.markers_left[s] -= 1
        self.vp[s] += vp
        tile = self.tables.tiles[self.tiles[loc]]
        events.append(
            ev("brag", player=s, location=loc + 1, tile=tile.name, vp=vp, spot=tile.labels[k])
        )

    def _deploy(self, s: int, loc: int, events: list[Event], kind: str) -> None:
        code = self.colour(s) * 4 + DEBUTANT
        self.supply[code] -= 1
        pos = self._enter(loc, code)
        events.append(ev(kind, player=s, location=loc + 1, position=pos + 1))

    def _promote(self, s: int, loc: int, idx: int, events: list[Event]) -> None:
        """Replace the piece by the next rank, which takes its place by seniority at once."""
        code = self.queues[loc].pop(idx)
        r = code & 3
        self.supply[code] += 1
        self.supply[code + 1] -= 1
        pos = self._enter(loc, code + 1)
        events.append(
            ev("promoted", player=s, location=loc + 1, rank=RANKS[r + 1], position=pos + 1)
        )

    def _gift(self, s: int, noble: int, guard: list[str], events: list[Event]) -> None:
        t = self.tables
        self.time[s] -= t.cost["gift"] + self.given[s * 3 + noble]
        self.given[s * 3 + noble] += 1
        self.gifts_left[s] -= 1
        events.append(ev("gift", player=s, noble=t.nobles[noble]))
        if guard:
            self._place_guard(s, guard, events)

    def _place_guard(self, s: int, guard: list[str], events: list[Event]) -> None:
        kind, where = guard
        t = self.tables
        self.guards_left[s] -= 1
        if kind == t.guard_kinds[0]:
            a, _, b = where.partition("-")
            road = t.road_index[(int(a) - 1, int(b) - 1)]
            self.escorts[road] = (*self.escorts[road], self.colour(s))
        else:
            loc = int(where) - 1
            stacks = self.spies if kind == t.guard_kinds[CONTESSINA] else self.bouncers
            stacks[loc] = (*stacks[loc], self.colour(s))
        events.append(ev("guard_placed", player=s, guard=kind, at=where))

    # --- scandal cards ------------------------------------------------------------------
    def _reveal_card(self, s: int, card: str) -> None:
        """A card leaves the hand face up onto its Noble's discard pile."""
        t = self.tables
        i = t.card_index[card]
        hand = list(self.hands[s])
        hand.remove(card if card in hand else t.nobles[t.cards[i].noble])
        self.hands[s] = tuple(hand)
        self.discard[i] += 1

    def _scandal(self, s: int, words: list[str], events: list[Event]) -> bool:
        """Play a scandal card; True when the action goes on (a journey in steps)."""
        t = self.tables
        card = words[1]
        info = t.cards[t.card_index[card]]
        self._reveal_card(s, card)
        args = words[2:]
        events.append(ev("scandal_played", player=s, card=card, noble=t.nobles[info.noble]))
        if card == "gift":
            self._gift(s, t.nobles.index(args[0]), args[1:], events)
            return False
        if info.cost >= 0:
            self.time[s] -= info.cost
        else:
            self._gain_time(s, -info.cost)
        if card == "guard":
            self._place_guard(s, args, events)
        elif card == "carry":
            self._move(s, int(args[0]) - 1, piece_index(args[1]), int(args[2]) - 1, events, False)
        elif card == "journey":
            self._start_travel(s, "journey", words[1:], events)
            return True
        elif card == "deploy":
            self._deploy(s, int(args[0]) - 1, events, "deployed")
        elif card == "usurp":
            a, b = int(args[0]) - 1, int(args[2]) - 1
            mine = self.queues[a].pop(piece_index(args[1]))
            theirs = self.queues[b].pop(piece_index(args[3]))
            self._enter(b, mine)
            self._enter(a, theirs)
            events.append(ev("swapped", player=s, origin=a + 1, to=b + 1, other=self.owner[theirs]))
        elif card == "promote":
            self._promote(s, int(args[0]) - 1, piece_index(args[1]), events)
        elif card == "advance":
            loc = int(args[0]) - 1
            q = self.queues[loc]
            code = q.pop(piece_index(args[1]))
            r = code & 3
            j = 0
            while q[j] & 3 > r:
                j += 1
            q.insert(j, code)
            events.append(ev("advanced", player=s, location=loc + 1, position=j + 1))
        elif card == "recall":
            loc = int(args[0]) - 1
            k = self.slots.index(s, loc * 3, loc * 3 + 3)
            self.slots[k] = -1
            self.markers_left[s] += 1
            events.append(ev("brag_recalled", player=s, location=loc + 1))
        elif card == "reorder":
            q = self.queues[int(args[0]) - 1]
            i, j = piece_index(args[1]), piece_index(args[2])
            q[i], q[j] = q[j], q[i]
            events.append(
                ev("reordered", player=s, location=int(args[0]), positions=[i + 1, j + 1])
            )
        elif card == "exile":
            loc = int(args[0]) - 1
            code = self.queues[loc].pop(piece_index(args[1]))
            self.exiled[code] += 1
            events.append(ev("exiled", player=s, location=loc + 1, rank=RANKS[code & 3]))
        elif card == "brag":
            self._brag(s, int(args[0]) - 1, events)
        return False

    def _top_card_weight(self, card: int) -> int:
        """Copies of `card` the top of its Noble's pile may be: those in the draw pile (draw
        mode); in play mode, for the automa's discard, those not yet seen on the discards."""
        if self.draw_mode:
            return self.deck[card]
        return self.tables.copies - self.discard[card]

    def _take_card(self, s: int, card: int, events: list[Event]) -> None:
        """A drawn card goes to the hand (the automa's to the discards); the pile refills from
        the discards."""
        t = self.tables
        if self.draw_mode:
            self.deck[card] -= 1
        noble = t.cards[card].noble
        self.deck_left[noble] -= 1
        name = t.cards[card].name
        if s == self.automa:  # "discard the top card from the corresponding Noble"
            self.discard[card] += 1
            events.append(ev("scandal_discarded_by_automa", noble=t.nobles[noble], card=name))
        else:
            self.hands[s] = (*self.hands[s], name)
            events.append(ev("scandal_gained", player=s, noble=t.nobles[noble], card=name))
        if not self.deck_left[noble]:
            self._reshuffle(noble)

    def _reshuffle(self, noble: int) -> None:
        """'When a Noble's Scandal deck empties, shuffle the discard to replace it.'"""
        base = 4 * noble
        total = 0
        for i in range(base, base + 4):
            if self.draw_mode:
                self.deck[i] += self.discard[i]
            total += self.discard[i]
            self.discard[i] = 0
        self.deck_left[noble] += total

    # --- 3. Noble Movement ------------------------------------------------------------
    def _run_noble(self, events: list[Event]) -> bool:
        """Move the active Noble step by step; True while a scandal draw is awaited."""
        t = self.tables
        noble = self.active_noble()
        while True:
            while self.pending:
                s = self.pending[0]
                if not self.kind(s).takes_scandal(self, s, noble, events):
                    self.pending.pop(0)
                    continue
                automa = s == self.automa  # his card goes to the discards: its name is asked
                if not automa and len(self.hands[s]) >= t.hand_limit:
                    # "You can hold up to 5 Scandals at once" and "At any time, without using
                    # an action, you may discard 1 Scandal to gain 1 time": the seat decides
                    # whether to make room first (hand_limit) or take the time instead.
                    self.turn = s
                    FLOW.fire(self, "over_limit")
                    events.append(ev("scandal_limit", player=s, noble=t.nobles[noble]))
                    return True
                if not self.deck_left[noble]:
                    self._reshuffle(noble)
                    if not self.deck_left[noble]:
                        self.pending.pop(0)
                        events.append(ev("scandal_deck_empty", player=s, noble=t.nobles[noble]))
                        continue
                if not self.draw_mode and not automa:
                    self.pending.pop(0)
                    self.deck_left[noble] -= 1
                    self.hands[s] = (*self.hands[s], t.nobles[noble])
                    events.append(ev("scandal_gained", player=s, noble=t.nobles[noble], card=None))
                    if not self.deck_left[noble]:
                        self._reshuffle(noble)
                    continue
                kinds = [i for i in range(4 * noble, 4 * noble + 4) if self._top_card_weight(i)]
                if len(kinds) == 1:
                    self._take_card(self.pending.pop(0), kinds[0], events)
                    continue
                return True
            if not self.path:
                break
            loc = self.path.pop(0)
            self.carriage[noble] = loc
            events.append(ev("noble_moved", noble=t.nobles[noble], to=loc + 1))
            q = self.queues[loc]
            if q:
                seat = self.owner[q[0]]
                vp = t.prime[self.round - 1]
                self.vp[seat] += vp
                events.append(ev("prime_position", player=seat, location=loc + 1, vp=vp))
            for k in (2, 1, 0):
                best = self.slots[loc * 3 + k]
                if best >= 0:
                    if self.has_member(best, loc):
                        self.pending.append(best)
                    break
            self.pending.extend(self.colours[c] for c in self.spies[loc])
            if self.automa in self.pending:
                solo.scandals_earned(self, noble, events)
        FLOW.fire(self, "noble_arrived")
        self._queue_scoring(events)
        return False

    # --- 4. Queue Scoring -------------------------------------------------------------
    def _queue_scoring(self, events: list[Event]) -> None:
        t = self.tables
        noble = self.active_noble()
        loc = self.carriage[noble]
        q = self.queues[loc]
        if noble != GIOVANNI:
            values = t.queue_vp[self.round]
            for i, code in enumerate(q[: len(values)]):
                if noble == CONTESSINA and code & 3 == DEBUTANT:
                    continue
                seat = self.owner[code]
                self.vp[seat] += values[i]
                events.append(ev("queue_scored", player=seat, position=i + 1, vp=values[i]))
            self.gio_order = []
        else:
            self.gio_order = self.ranking(loc)
        self.gio_award = 0
        self.gio_done = []

    def ranking(self, loc: int) -> list[int]:
        """Players present by number of family members, ties to the better placed piece."""
        count: dict[int, int] = {}
        best: dict[int, int] = {}
        for i, code in enumerate(self.queues[loc]):
            s = self.owner[code]
            count[s] = count.get(s, 0) + 1
            best.setdefault(s, i)
        return sorted(count, key=lambda s: (-count[s], best[s]))

    def controller(self, loc: int) -> int:
        order = self.ranking(loc)
        return order[0] if order else -1

    def _giovanni_next(self, events: list[Event]) -> bool:
        """Offer the current award to the best ranked player still in; True when one decides."""
        if not self.gio_order:
            return False
        awards = self.tables.giovanni[self.round]
        while self.gio_award < len(awards):
            cost = awards[self.gio_award][1]
            for s in self.gio_order:
                if s in self.gio_done:
                    continue
                if self.kind(s).affords(self, s, cost):
                    self.turn = s
                    return True
                self.gio_done.append(s)  # cannot pay: the next ranked player may claim it
                events.append(
                    ev("giovanni_declined", player=s, award=self.gio_award + 1, reason="time")
                )
            break
        self.gio_order = []
        return False

    def _giovanni_decide(self, s: int, claim: bool, events: list[Event]) -> None:
        vp, cost = self.tables.giovanni[self.round][self.gio_award]
        self.gio_done.append(s)
        if claim:
            self.time[s] = max(0, self.time[s] - cost)
            self.vp[s] += vp
            events.append(
                ev("giovanni_claimed", player=s, award=self.gio_award + 1, vp=vp, time=cost)
            )
            self.gio_award += 1
        else:
            events.append(
                ev("giovanni_declined", player=s, award=self.gio_award + 1, reason="choice")
            )

    # --- 5. Cleanup and the end ------------------------------------------------------------
    def _end_round(self, events: list[Event]) -> None:
        t = self.tables
        events.append(ev("round_ended", round=self.round, vp=list(self.vp)))
        if self.round >= t.rounds:
            FLOW.fire(self, "last_round_scored")
            self.turn = self.first
            if not self._wants_discard(self.first):
                self.turn = self._next_seat_after(self.first)
            return
        FLOW.fire(self, "scored")
        if self.automa >= 0:
            solo.cleanup(self)
        self.first = (self.first + 1) % self.seats
        self.rings = [-1] * self.seats
        self.passed = [False] * self.seats
        self.npassed = 0
        gain = t.gifts_gained.get(self.round, 0)
        if gain:
            for s in range(self.seats):
                self.gifts_left[s] += gain
        if self.round > t.rounds - 3:  # rounds 7-9: no new tokens, the marker goes
            self._start_round(events)

    def _wants_discard(self, s: int) -> bool:
        return bool(self.hands[s]) and self.time[s] < self.tables.time_max

    def _next_seat_after(self, s: int) -> int:
        """In the last discards: the next seat clockwise that may still discard (or -1)."""
        n = self.seats
        for k in range(1, n + 1):
            seat = (s + k) % n
            if seat == self.first:
                return -1
            if self._wants_discard(seat):
                return seat
        return -1

    def _next_discarder(self) -> bool:
        return self.turn >= 0

    def _scheme_seat(self) -> int:
        """The next seat whose scheme card is to be revealed (-1: none left)."""
        for seat, scheme in enumerate(self.schemes):
            if scheme < 0 and self.kind(seat).has_scheme(self, seat):
                return seat
        return -1

    def scheme_count(self, seat: int) -> int:
        if self.schemes[seat] < 0:
            return 0
        locs = self.tables.scheme_locs[self.schemes[seat]]
        owner = self.owner
        return sum(1 for loc in locs for c in self.queues[loc] if owner[c] == seat)

    def scheme_vp(self, seat: int) -> int:
        t = self.tables
        count = self.scheme_count(seat)
        if count < t.scheme_min:
            return 0
        return t.scheme_vp[min(count - t.scheme_min, len(t.scheme_vp) - 1)]

    def _final_scoring(self, events: list[Event]) -> None:
        t = self.tables
        self.final = []
        for s in range(self.seats):
            time_vp = self.time[s] // t.time_per_vp
            scheme = self.scheme_vp(s)
            self.vp[s] += time_vp + scheme
            self.final.append([time_vp, scheme])
            events.append(ev("final_score", player=s, time_vp=time_vp, scheme_vp=scheme))
        events.append(ev("game_over", winner=self.winner(), vp=list(self.vp)))

    # --- results ----------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """VP of the players at the table (solo: the human only; Strozzi's are `vp[1]`)."""
        return self.vp[: self.players]

    def winner(self) -> list[int]:
        """Most VP; ties: most family members on the board, then most gifts given; else shared.
        Solo: "If you have more VP than Strozzi, you win!", else nobody at the table wins."""
        if self.automa >= 0:
            return [0] if self.vp[0] > self.vp[self.automa] else []

        def key(s: int) -> tuple[int, int, int]:
            return (self.vp[s], self.family_on_board(s), sum(self.given[s * 3 : s * 3 + 3]))

        best = max(key(s) for s in range(self.players))
        return [s for s in range(self.players) if key(s) == best]

    # --- persistence -------------------------------------------------------------------------
    _PLAIN = (
        "phase", "round", "first", "turn", "npassed", "placed", "gio_award",
    )  # fmt: skip
    _LISTS = (
        "kinds", "colours", "time", "vp", "supply", "exiled", "gifts_left", "given", "guards_left",
        "markers_left", "tiles", "slots", "carriage", "bottom", "dial_time", "dial_loc",
        "rings", "passed", "deck", "deck_left", "discard", "schemes", "path", "pending",
        "gio_order", "gio_done",
    )  # fmt: skip
    _TUPLES = ("escorts", "spies", "bouncers", "hands")

    def _fields(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: getattr(self, k) for k in self._PLAIN}
        for k in self._LISTS:
            d[k] = list(getattr(self, k))
        for k in self._TUPLES:
            d[k] = [list(x) for x in getattr(self, k)]
        d["queues"] = [list(q) for q in self.queues]
        d["travel"] = list(self.travel) if self.travel is not None else None
        d["final"] = [list(f) for f in self.final]
        if self.automa >= 0:
            d.update(solo.fields(self))
        return d

    def _load_fields(self, d: Mapping[str, Any]) -> None:
        for k in self._PLAIN:
            setattr(self, k, d[k])
        for k in self._LISTS:
            setattr(self, k, list(d[k]))
        for k in self._TUPLES:
            setattr(self, k, [tuple(x) for x in d[k]])
        self.queues = [list(q) for q in d["queues"]]
        self.travel = list(d["travel"]) if d["travel"] is not None else None
        self.owner = self._owners()
        self.final = [list(f) for f in d["final"]]
        if self.automa >= 0:
            solo.load_fields(self, d)

    def clone(self) -> FlorenceState:
        new = object.__new__(FlorenceState)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        for k in self._LISTS:
            setattr(new, k, list(getattr(self, k)))
        for k in self._TUPLES:
            setattr(new, k, list(getattr(self, k)))
        new.queues = [list(q) for q in self.queues]
        if self.travel is not None:
            new.travel = list(self.travel)
        if self.automa >= 0:
            solo.copy_fields(self, new)
        return new

    # --- what the table is waiting for, and why input was refused -------------------------------
    def describe(self) -> str:
        from .explain import describe

        return describe(self)

    def explain(self, text: str) -> str | None:
        from .explain import explain

        return explain(self, text)

    def is_notation(self, text: str) -> bool:
        from .explain import CHANCE_VERBS, SEAT_VERBS

        verb = text.partition(" ")[0]
        return verb in SEAT_VERBS or verb in CHANCE_VERBS

    def _begin(self) -> None:
        self._advance([])

    def invariants(self) -> list[str]:
        from .explain import invariants

        return invariants(self)


class FlorenceGame(Game[FlorenceState]):
    name = "florence"
    title = "Florence"
    state_class = FlorenceState
    flow = FLOW
    min_players = 1  # solo: against Palla Strozzi, the automa (solo.py)
    max_players = 5
    options = (
        Option(
            "scandal_entry",
            "draw",
            "when scandal cards are entered: 'draw' (each card as it is drawn) or "
            "'play' (hands are known by count; a card is named when played or discarded)",
            choices=SCANDAL_ENTRY,
        ),
        *solo.OPTIONS,
    )
    conformance_options = solo.CONFORMANCE_OPTIONS

    def resolve_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Solo difficulty switches not given follow the `difficulty` preset; all are recorded,
        so a replay needs no preset to reproduce them."""
        return solo.resolve_difficulty(super().resolve_options(players, options), options or {})

    def card_catalogue(self, data: GameData) -> list[tuple[str, int]]:
        """Scandal cards, schemes, brag tiles, the dial's time and location tokens, solo cards."""
        t = tables_for(data)
        scandals = [(f"draw {t.nobles[c.noble]} {c.name}", t.copies) for c in t.cards]
        schemes = [(f"scheme {name}", 1) for name in t.schemes]
        tiles = [(f"tile {tile.name}", 1) for tile in t.tiles]
        time = [(f"token time {n}", 1) for n in t.time_tokens]
        places = [(f"token location {n}", 1) for n in range(1, t.locations + 1)]
        solo_cards = [(f"solo {n}", 1) for n in range(1, len(t.solo_actions) + 1)]
        return scandals + schemes + tiles + time + places + solo_cards
