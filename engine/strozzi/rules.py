"""Strozzi: the rules of the rulebook, for 3-6 players.

Seats are numbered clockwise: the player "to the left" of seat i is seat i+1.
Money is hidden information until the end; the engine tracks it, views must
not show it (see `HIDDEN`). Interpretations of ambiguous rules are listed in
docs/strozzi-rulings.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import (
    CHANCE,
    Event,
    Flow,
    Game,
    GameData,
    Option,
    State,
    seat_name,
)

# --- the flow of a game, as in the rulebook's table of contents ------------------
PHASES = [
    "setup",  # Setup: three progress tokens are turned face up
    "draw",  # the active player turns over the first ship card
    "decide",  # Acquiring the Ships: the active player flags the ship or rejects it
    "offer",  # Rejected Ships: the others, clockwise, may flag it
    "pirates",  # after a +1 or goods flag, the following players may seize it
    "place",  # Placing the Ship Card: choose a port
    "token",  # a progress-token symbol: choose one of the face-up tokens
    "reveal",  # a new token is drawn to replace it
    "scoring",  # End of the Round: ships and markers score
    "over",  # End of the Game
]

TRANSITIONS = [
    {"trigger": "tokens_ready", "source": "setup", "dest": "draw"},
    {"trigger": "ship_drawn", "source": "draw", "dest": "decide"},
    {"trigger": "rejected", "source": "decide", "dest": "offer"},
    {"trigger": "flag_placed", "source": ["decide", "offer"], "dest": "pirates"},
    {"trigger": "ship_taken", "source": ["decide", "offer", "pirates"], "dest": "place"},
    {"trigger": "all_refused", "source": "offer", "dest": "draw"},
    {"trigger": "token_earned", "source": "place", "dest": "token"},
    {"trigger": "token_taken", "source": "token", "dest": "reveal"},
    {"trigger": "next_turn", "source": ["place", "token", "reveal"], "dest": "draw"},
    {"trigger": "round_over", "source": ["offer", "place", "token", "reveal"], "dest": "scoring"},
    {"trigger": "new_round", "source": "scoring", "dest": "draw"},
    {"trigger": "game_over", "source": "scoring", "dest": "over"},
]

FLOW = Flow("Strozzi", PHASES, TRANSITIONS, initial="setup")

HIDDEN = ("money",)
"""State fields views must not show before the game is over."""

PIRATE, PLUS, GOODS = "pirate", "plus", "goods"
VERBS = ("draw", "reveal", "flag", "pass", "port", "token")
_VERB_PHASES = {
    "draw": ("draw",),
    "reveal": ("setup", "reveal"),
    "flag": ("decide", "offer", "pirates"),
    "pass": ("decide", "offer", "pirates"),
    "port": ("place",),
    "token": ("token",),
}


@dataclass(frozen=True)
class Ship:
    id: int
    sails: int
    goods: tuple[int, ...]  # per port, in port order
    scrolls: int
    token: bool


@dataclass(frozen=True)
class Rules:
    """Component data compiled once per data set, so states carry no parsing."""

    ports: tuple[str, ...]
    cities: tuple[str, ...]
    flags: tuple[str, ...]
    rounds: int
    ships: dict[int, Ship]
    removed: dict[int, int]
    ship_points: tuple[int, ...]
    marker_points: tuple[int, ...]
    last_space: int
    bonus: dict[int, int]
    progress_points: tuple[int, ...]
    categories: tuple[str, ...]
    token_counts: dict[str, int]
    token_value: dict[str, int]
    token_port: dict[str, int | None]  # port index a value-1 token moves
    draw_texts: dict[int, str]

    @classmethod
    def from_data(cls, data: GameData) -> Rules:
        ports = tuple(data["cities"]["ports"])
        cities = tuple(data["cities"]["all"])
        ships: dict[int, Ship] = {}
        for group in ("ships_example", "ships"):
            for card in data[group]["cards"]:
                goods = tuple(int(card["goods"].get(p, 0)) for p in ports)
                ship = Ship(
                    int(card["id"]),
                    int(card["sails"]),
                    goods,
                    int(card["scrolls"]),
                    bool(card["token"]),
                )
                ships[ship.id] = ship
        counts = dict(data["progress_tokens"]["counts"])
        categories = tuple(data["progress_scoring"]["categories"])
        value: dict[str, int] = {}
        port: dict[str, int | None] = {}
        for name in counts:
            parts = name.split("-")
            value[name] = int(parts[1])
            port[name] = ports.index(parts[2]) if len(parts) > 2 else None
        return cls(
            ports=ports,
            cities=cities,
            flags=tuple(data["flags"]["kinds"]),
            rounds=int(data["rounds"]["count"]),
            ships=ships,
            removed={int(k): int(v) for k, v in data["deck"]["removed"].items()},
            ship_points=tuple(data["ship_scoring"]["points"]),
            marker_points=tuple(data["marker_scoring"]["points"]),
            last_space=int(data["track"]["last_space"]),
            bonus={int(k): int(v) for k, v in data["track"]["bonus"].items()},
            progress_points=tuple(data["progress_scoring"]["points"]),
            categories=categories,
            token_counts=counts,
            token_value=value,
            token_port=port,
            draw_texts={i: f"draw {i}" for i in sorted(ships)},
        )

    def deck_size(self, players: int) -> int:
        return len(self.ships) - self.removed[players]


_RULES: dict[str, Rules] = {}


def rules_for(data: GameData) -> Rules:
    rules = _RULES.get(data.digest)
    if rules is None:
        rules = _RULES[data.digest] = Rules.from_data(data)
    return rules


class StrozziState(State):
    """A Strozzi position. Plain fields only, so clone and to_dict stay cheap."""

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        r = self.rules = rules_for(data)
        n = players
        self.phase = FLOW.initial
        self.round = 1
        self.active = int(options["first"]) % n
        self.decider = -1
        self.flagger = -1  # who put a +1 or goods flag on the ship now in play
        self.flag = ""
        self.taker = -1
        self.taker_flag = ""
        self.ship = 0
        self.seen: set[int] = set()
        self.drawn = 0
        self.flags: list[list[str]] = [list(r.flags) for _ in range(n)]
        # ports[p] = [speed, seat, ship, flag] from fastest (top) to slowest
        self.ports: list[list[list[Any]]] = [[] for _ in r.ports]
        # pos[city][seat]; stamp = arrival order on a space: smaller is further left
        self.pos: list[list[int]] = [[0] * n for _ in r.cities]
        order = [(self.active + i) % n for i in range(n)]
        self.stamp: list[list[int]] = [[order.index(s) for s in range(n)] for _ in r.cities]
        self.counter = n
        self.money = [0] * n
        self.tokens: list[list[str]] = [[] for _ in range(n)]
        self.face_up: list[str] = []
        self.pile: dict[str, int] = dict(r.token_counts)

    # --- whose turn --------------------------------------------------------------
    def current_player(self) -> int | None:
        phase = self.phase
        if phase in ("draw", "setup", "reveal"):
            return CHANCE
        if phase == "decide":
            return self.active
        if phase in ("offer", "pirates"):
            return self.decider
        if phase in ("place", "token"):
            return self.taker
        return None

    def _legal_texts(self) -> Sequence[str]:
        phase = self.phase
        if phase == "draw":
            seen = self.seen
            return [t for i, t in self.rules.draw_texts.items() if i not in seen]
        if phase in ("setup", "reveal"):
            return [f"reveal {t}" for t, c in self.pile.items() if c]
        if phase == "decide" or phase == "offer":
            seat = self.active if phase == "decide" else self.decider
            return [*(f"flag {f}" for f in self.flags[seat]), "pass"]
        if phase == "pirates":
            return ["flag pirate", "pass"]
        if phase == "place":
            taker = self.taker
            return [
                f"port {name}"
                for p, name in enumerate(self.rules.ports)
                if not any(entry[1] == taker for entry in self.ports[p])
            ]
        if phase == "token":
            return [f"token {t}" for t in dict.fromkeys(self.face_up)]
        return []

    def chance_weights(self) -> Sequence[float] | None:
        if self.phase in ("setup", "reveal"):
            return [float(c) for c in self.pile.values() if c]
        return None

    # --- applying ------------------------------------------------------------------
    def _apply(self, text: str) -> list[Event]:
        verb, _, arg = text.partition(" ")
        events: list[Event] = []
        phase = self.phase
        if verb == "draw":
            self._draw(int(arg), events)
        elif verb == "reveal":
            self.pile[arg] -= 1
            self.face_up.append(arg)
            events.append(Event("token_revealed", {"token": arg}))
            if phase == "setup":
                if len(self.face_up) == 3 or not any(self.pile.values()):
                    FLOW.fire(self, "tokens_ready")
            else:
                self._end_turn(events)
        elif verb == "flag":
            self._flag(arg, events)
        elif verb == "pass":
            self._pass(events)
        elif verb == "port":
            self._place(self.rules.ports.index(arg), events)
        elif verb == "token":
            self._take_token(arg, events)
        return events

    def _draw(self, ship: int, events: list[Event]) -> None:
        self.seen.add(ship)
        self.drawn += 1
        self.ship = ship
        events.append(
            Event(
                "ship_drawn",
                {"ship": ship, "sails": self.rules.ships[ship].sails, "player": self.active},
            )
        )
        FLOW.fire(self, "ship_drawn")

    def _seats_after(self, seat: int, last: int) -> list[int]:
        """Seats clockwise after `seat` up to and including `last`."""
        n = self.players
        out = []
        s = seat
        while s != last:
            s = (s + 1) % n
            out.append(s)
        return out

    def _first_with(self, seats: list[int], flag: str | None) -> int:
        for s in seats:
            if (flag in self.flags[s]) if flag else self.flags[s]:
                return s
        return -1

    def _flag(self, flag: str, events: list[Event]) -> None:
        phase = self.phase
        seat = self.current_player()
        assert seat is not None and seat >= 0
        events.append(Event("flag_placed", {"player": seat, "flag": flag}))
        if flag == PIRATE:
            if phase == "pirates" and self.flagger >= 0:
                events.append(Event("flag_returned", {"player": self.flagger, "flag": self.flag}))
            self._take(seat, PIRATE, events)
            return
        # A +1 or goods flag: the following players may still seize the ship.
        last = (self.active - 1) % self.players  # right of the active player decides last
        window = self._seats_after(seat, last)
        first = self._first_with(window, PIRATE)
        if first < 0:
            self._take(seat, flag, events)
            return
        self.flagger, self.flag, self.decider = seat, flag, first
        FLOW.fire(self, "flag_placed")

    def _pass(self, events: list[Event]) -> None:
        phase = self.phase
        last = (self.active - 1) % self.players
        if phase == "decide":
            events.append(Event("passed", {"player": self.active}))
            nxt = self._first_with(self._seats_after(self.active, last), None)
            if nxt < 0:
                self._discard(events)
            else:
                self.decider = nxt
                FLOW.fire(self, "rejected")
        elif phase == "offer":
            events.append(Event("passed", {"player": self.decider}))
            nxt = self._first_with(self._seats_after(self.decider, last), None)
            if nxt < 0:
                self._discard(events)
            else:
                self.decider = nxt
        else:  # pirates
            events.append(Event("passed", {"player": self.decider}))
            nxt = self._first_with(self._seats_after(self.decider, last), PIRATE)
            if nxt < 0:
                self._take(self.flagger, self.flag, events)
            else:
                self.decider = nxt

    def _discard(self, events: list[Event]) -> None:
        events.append(Event("ship_discarded", {"ship": self.ship}))
        self.ship = 0
        if self.phase == "decide":  # nobody else could take it: straight back to draw
            FLOW.fire(self, "rejected")
        if self.drawn >= self.rules.deck_size(self.players):
            FLOW.fire(self, "round_over")
            self._score_round(events)
        else:
            FLOW.fire(self, "all_refused")
            self.decider = -1

    def _take(self, seat: int, flag: str, events: list[Event]) -> None:
        self.flags[seat].remove(flag)
        self.taker, self.taker_flag = seat, flag
        self.flagger, self.flag, self.decider = -1, "", -1
        events.append(Event("ship_taken", {"player": seat, "flag": flag, "ship": self.ship}))
        FLOW.fire(self, "ship_taken")

    def _move(self, seat: int, city: int, steps: int, events: list[Event]) -> None:
        """Move a marker; it arrives right of markers already there; never past the last space."""
        if steps <= 0:
            return
        old = self.pos[city][seat]
        new = min(old + steps, self.rules.last_space)
        if new == old:
            return
        self.pos[city][seat] = new
        self.stamp[city][seat] = self.counter
        self.counter += 1
        events.append(
            Event(
                "marker_moved",
                {"player": seat, "city": self.rules.cities[city], "from": old, "to": new},
            )
        )

    def _place(self, port: int, events: list[Event]) -> None:
        r = self.rules
        ship = r.ships[self.ship]
        seat, flag = self.taker, self.taker_flag
        speed = ship.sails + (1 if flag == PLUS else 0)
        queue = self.ports[port]
        rank = 0
        while rank < len(queue) and queue[rank][0] >= speed:
            rank += 1  # an equal ship already there stays above
        queue.insert(rank, [speed, seat, ship.id, flag])
        events.append(
            Event(
                "ship_placed",
                {
                    "player": seat,
                    "port": r.ports[port],
                    "ship": ship.id,
                    "speed": speed,
                    "rank": rank + 1,
                },
            )
        )
        self._move(seat, port, ship.goods[port] + (1 if flag == GOODS else 0), events)
        self._move(seat, len(r.cities) - 1, ship.scrolls, events)
        if ship.token and self.face_up:
            FLOW.fire(self, "token_earned")
        else:
            self._end_turn(events)

    def _take_token(self, token: str, events: list[Event]) -> None:
        self.face_up.remove(token)
        self.tokens[self.taker].append(token)
        events.append(Event("token_taken", {"player": self.taker, "token": token}))
        port = self.rules.token_port[token]
        if port is not None:
            self._move(self.taker, port, 1, events)
        if any(self.pile.values()):
            FLOW.fire(self, "token_taken")
        else:
            self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        """The player to the left of the taker is next, skipping seats with no flags."""
        taker = self.taker
        self.taker, self.taker_flag, self.ship = -1, "", 0
        n = self.players
        nxt = self._first_with([(taker + 1 + i) % n for i in range(n)], None)
        if nxt < 0 or self.drawn >= self.rules.deck_size(self.players):
            FLOW.fire(self, "round_over")
            self._score_round(events)
            return
        self.active = nxt
        FLOW.fire(self, "next_turn")

    # --- scoring -------------------------------------------------------------------
    def _rank(self, city: int) -> list[int]:
        """Seats by marker position in a city, best first (leftmost wins a shared space)."""
        pos, stamp = self.pos[city], self.stamp[city]
        return sorted(range(self.players), key=lambda s: (-pos[s], stamp[s]))

    def _award(
        self, seat: int, points: int, reason: str, events: list[Event], **extra: Any
    ) -> None:
        self.money[seat] += points
        events.append(Event("award", {"player": seat, "points": points, "reason": reason, **extra}))

    def _score_round(self, events: list[Event]) -> None:
        r = self.rules
        for p, queue in enumerate(self.ports):
            for rank, (entry, points) in enumerate(zip(queue, r.ship_points, strict=False), 1):
                self._award(entry[1], points, "ship", events, city=r.ports[p], rank=rank)
        for c, city in enumerate(r.cities):
            ranked = [s for s in self._rank(c) if self.pos[c][s] > 0]
            for rank, (seat, points) in enumerate(zip(ranked, r.marker_points, strict=False), 1):
                self._award(
                    seat, points, "marker", events, city=city, rank=rank, space=self.pos[c][seat]
                )
            for seat in ranked:
                bonus = r.bonus.get(self.pos[c][seat])
                if bonus:
                    self._award(seat, bonus, "bonus", events, city=city, space=self.pos[c][seat])
        events.append(Event("round_scored", {"round": self.round, "money": list(self.money)}))
        if self.round >= r.rounds:
            self._score_progress(events)
            FLOW.fire(self, "game_over")
            events.append(Event("game_over", {"winner": self.winner(), "money": list(self.money)}))
            return
        self.round += 1
        self.flags = [list(r.flags) for _ in range(self.players)]
        self.ports = [[] for _ in r.ports]
        self.seen = set()
        self.drawn = 0
        self.active = self._rank(len(r.cities) - 1)[0]
        events.append(Event("round_started", {"round": self.round, "player": self.active}))
        FLOW.fire(self, "new_round")

    def _score_progress(self, events: list[Event]) -> None:
        r = self.rules
        florence = self._rank(len(r.cities) - 1)
        for category in r.categories:
            totals = [
                sum(r.token_value[t] for t in self.tokens[s] if t.startswith(category + "-"))
                for s in range(self.players)
            ]
            ranked = [s for s in florence if totals[s] > 0]
            ranked.sort(key=lambda s: -totals[s])  # stable: Florence order breaks ties
            for seat, points in zip(ranked, r.progress_points, strict=False):
                self._award(seat, points, "progress", events, category=category)

    def scores(self) -> list[int]:
        return list(self.money)

    def winner(self) -> list[int]:
        florence = self._rank(len(self.rules.cities) - 1)
        best = max(self.money)
        return [next(s for s in florence if self.money[s] == best)]

    # --- explaining refusals -------------------------------------------------------
    def describe(self) -> str:
        phase = self.phase
        r = self.rules
        if phase == "setup":
            return "Turn three progress tokens face up."
        if phase == "draw":
            return f"{seat_name(self.active).capitalize()} turns over the next ship card."
        ship = r.ships.get(self.ship)
        about = f"ship {ship.id} ({ship.sails} sails)" if ship else "the ship"
        if phase == "decide":
            return f"{seat_name(self.active).capitalize()} decides on {about}: a flag, or pass."
        if phase == "offer":
            return f"{seat_name(self.decider).capitalize()} may take the rejected {about}."
        if phase == "pirates":
            return (
                f"{seat_name(self.decider).capitalize()} may seize {about} "
                f"with a pirate flag, or pass."
            )
        if phase == "place":
            return f"{seat_name(self.taker).capitalize()} places {about} at a port."
        if phase == "token":
            return f"{seat_name(self.taker).capitalize()} chooses a face-up progress token."
        if phase == "reveal":
            return "Turn a new progress token face up."
        return "The game is over."

    def is_notation(self, text: str) -> bool:
        return text.partition(" ")[0] in VERBS

    def explain(self, text: str) -> str | None:
        verb, _, arg = text.partition(" ")
        r = self.rules
        if verb not in VERBS:
            return (
                f"'{text}' is not Strozzi notation: actions start with "
                f"{', '.join(VERBS[:-1])} or {VERBS[-1]}."
            )
        if self.phase not in _VERB_PHASES[verb]:
            return f"'{text}' is not possible now. {self.describe()}"
        seat = self.current_player()
        if verb == "draw":
            if not arg.isdigit() or int(arg) not in r.ships:
                return f"There is no ship card '{arg}': the cards are numbered 1-{len(r.ships)}."
            return f"Ship {int(arg)} has already come up this round; every card comes up once."
        if verb in ("reveal", "token") and arg not in r.token_counts:
            return (
                f"There is no progress token '{arg}': tokens are named like "
                f"arts-2 or sciences-1-venice."
            )
        if verb == "reveal":
            return f"No {arg} token is left in the pile."
        if verb == "token":
            showing = ", ".join(dict.fromkeys(self.face_up))
            return f"The {arg} token is not face up: choose one of {showing}."
        if verb == "flag":
            if arg not in r.flags:
                return f"There is no '{arg}' flag: the flags are pirate, plus and goods."
            if self.phase == "pirates" and arg != PIRATE:
                return (
                    "A ship that carries another player's flag can only be seized "
                    "with a pirate flag."
                )
            assert seat is not None
            return f"Your {arg} flag is already used this round: each flag buys one ship per round."
        if verb == "port":
            if arg == "florence":
                return "Florence is not a port: ships go to Venice, Rome or Naples."
            if arg not in r.ports:
                return f"There is no port '{arg}': the ports are Venice, Rome and Naples."
            return (
                f"You already have a ship in {arg.capitalize()} this round: each player "
                f"places only one ship in each port per round."
            )
        return None

    # --- persistence -------------------------------------------------------------
    def _fields(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "round": self.round,
            "active": self.active,
            "decider": self.decider,
            "flagger": self.flagger,
            "flag": self.flag,
            "taker": self.taker,
            "taker_flag": self.taker_flag,
            "ship": self.ship,
            "seen": sorted(self.seen),
            "drawn": self.drawn,
            "flags": [list(f) for f in self.flags],
            "ports": [[list(e) for e in q] for q in self.ports],
            "pos": [list(x) for x in self.pos],
            "stamp": [list(x) for x in self.stamp],
            "counter": self.counter,
            "money": list(self.money),
            "tokens": [list(t) for t in self.tokens],
            "face_up": list(self.face_up),
            "pile": dict(self.pile),
        }

    def _load_fields(self, d: Mapping[str, Any]) -> None:
        for key in (
            "phase",
            "round",
            "active",
            "decider",
            "flagger",
            "flag",
            "taker",
            "taker_flag",
            "ship",
            "drawn",
            "counter",
        ):
            setattr(self, key, d[key])
        self.seen = set(d["seen"])
        self.flags = [list(f) for f in d["flags"]]
        self.ports = [[list(e) for e in q] for q in d["ports"]]
        self.pos = [list(x) for x in d["pos"]]
        self.stamp = [list(x) for x in d["stamp"]]
        self.money = list(d["money"])
        self.tokens = [list(t) for t in d["tokens"]]
        self.face_up = list(d["face_up"])
        self.pile = dict(d["pile"])

    def clone(self) -> StrozziState:
        new = object.__new__(StrozziState)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.seen = set(self.seen)
        new.flags = [list(f) for f in self.flags]
        new.ports = [[list(e) for e in q] for q in self.ports]
        new.pos = [list(x) for x in self.pos]
        new.stamp = [list(x) for x in self.stamp]
        new.money = list(self.money)
        new.tokens = [list(t) for t in self.tokens]
        new.face_up = list(self.face_up)
        new.pile = dict(self.pile)
        return new

    # --- invariants ----------------------------------------------------------------
    def invariants(self) -> list[str]:
        r = self.rules
        broken: list[str] = []
        n = self.players
        if any(m < 0 for m in self.money):
            broken.append("negative money")
        for c, city in enumerate(r.cities):
            if any(not 0 <= p <= r.last_space for p in self.pos[c]):
                broken.append(f"marker off the {city} track")
            if len(set(self.stamp[c])) != n:
                broken.append(f"two markers share an arrival order in {city}")
        held = sum(len(t) for t in self.tokens)
        if sum(self.pile.values()) + len(self.face_up) + held != sum(r.token_counts.values()):
            broken.append("progress tokens not conserved")
        if any(c < 0 for c in self.pile.values()) or len(self.face_up) > 3:
            broken.append("token pile or display out of range")
        if len(self.seen) != self.drawn or self.drawn > r.deck_size(n):
            broken.append("more ships drawn than the round's deck holds")
        for seat in range(n):
            placed = sum(1 for q in self.ports for e in q if e[1] == seat)
            pending = 1 if self.phase == "place" and self.taker == seat else 0
            if len(r.flags) - len(self.flags[seat]) != placed + pending:
                broken.append(f"seat {seat + 1}: used flags and placed ships differ")
            if any(sum(1 for e in q if e[1] == seat) > 1 for q in self.ports):
                broken.append(f"seat {seat + 1}: two ships in one port")
        for q in self.ports:
            if any(q[i][0] < q[i + 1][0] for i in range(len(q) - 1)):
                broken.append("ships out of speed order")
        return broken


class StrozziGame(Game[StrozziState]):
    name = "strozzi"
    title = "Strozzi"
    state_class = StrozziState
    flow = FLOW
    min_players = 3
    max_players = 6
    options = (
        Option(
            "first",
            0,
            "seat index of the starting player (the table chooses)",
            choices=range(6),
            seat=True,
        ),
    )

    def card_catalogue(self, data: GameData) -> list[tuple[str, int]]:
        """The tagged pieces: every ship card once, each progress token with its count."""
        rules = rules_for(data)
        ships = [(f"draw {i}", 1) for i in sorted(rules.ships)]
        return ships + [(f"reveal {name}", n) for name, n in rules.token_counts.items()]
