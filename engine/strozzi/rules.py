"""Strozzi: the rules of the rulebook, for 3-6 players, one unit per heading.

Seats are numbered clockwise: the player "to the left" of seat i is seat i+1. Each
heading of the rulebook is one class below (`engine.core.Rule`), in the rulebook's
order, holding the grammar, legal texts, effect and refusal of the actions it governs;
docs/rules-index.md lists them. Money is secret until the end: the engine keeps it,
the public observation has no field for it (observation.py). Interpretations of
ambiguous rules are listed in docs/strozzi-rulings.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import product
from types import MappingProxyType
from typing import Any, NamedTuple, cast

from engine.core import (
    CHANCE,
    LISTS,
    MAPPING,
    QUIET,
    SCALAR,
    SCALARS,
    CardFaces,
    Codec,
    DataError,
    Event,
    Field,
    Fields,
    Flow,
    Game,
    GameData,
    Observation,
    Option,
    Rule,
    Rulebook,
    ScoreStep,
    SeatNamer,
    State,
    capital,
    counted,
    in_phases,
    joined,
    lists,
    seat_name,
    tuples,
)

from .observation import StrozziObservation, observe

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

TRANSITIONS: list[dict[str, Any]] = [
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

PIRATE, PLUS, GOODS = "pirate", "plus", "goods"


# --- named data -----------------------------------------------------------------------
@dataclass(frozen=True)
class Ship:
    """A ship card's face, all the rules read of it: sails, goods per port (in port
    order), scrolls, whether it shows the progress-token symbol, and `face`, the same in
    notation (`5 gold0 grain2 cloth2 scrolls0 token`). Two cards may show one face."""

    sails: int
    goods: tuple[int, ...]
    scrolls: int
    token: bool
    face: str


class Token(NamedTuple):
    """A kind of progress token: `arts-1-venice` is worth 1 and moves the Venice marker."""

    name: str
    category: str
    value: int
    port: str | None


class PortEntry(NamedTuple):
    """A ship at a port: its speed (sails, +1 for a +1 flag), whose it is, the card's face
    (`Ship.face`), the flag placed with it. Stored as an array, as before it had a name."""

    speed: int
    seat: int
    ship: str
    flag: str


class DeckLeft(NamedTuple):
    """The ship faces still in a round's deck (`CourseOfTheGame.deck_left`): the draw
    texts in the deck's order and the cards left showing each (the chance weights)."""

    texts: tuple[str, ...]
    counts: tuple[float, ...]


class Payout(NamedTuple):
    """Money paid out at a scoring: public, though the totals are not. `where` is the
    city for ships, markers and bonus spaces, the category for progress tokens."""

    round: int
    seat: int
    points: int
    reason: str
    where: str


# --- Components ------------------------------------------------------------------------
SAILS = range(1, 9)  # "Every ship has a number of sails shown on it (from 1 to 8)"
SCROLLS = range(0, 3)  # "If the ship card shows one or two scrolls"
GOODS_SHOWN = range(0, 4)  # goods symbols of one port on a card (the cards show up to 3)
TOKENS_PER_CATEGORY = 12  # "36 progress tokens (12 each for arts, sciences and architecture)"
TOKEN_VALUES = (1, 2)  # "The token has a value of 1 or 2"
TOKEN, NO_TOKEN = "token", "no-token"
CARD_KEYS = ("sails", "goods", "scrolls", "token")


@dataclass(frozen=True)
class Rules:
    """Components: the ship cards, tracks, flags and progress tokens of one data set,
    compiled once so states carry no parsing. Public, and immutable all the way down,
    so observations carry it as it is.

    The deck is compiled to faces: `ships` maps each face the deck shows to its `Ship`
    (by sails, then notation), `copies` to the number of cards showing it."""

    ports: tuple[str, ...]
    goods: tuple[str, ...]
    cities: tuple[str, ...]
    flags: tuple[str, ...]
    rounds: int
    ships: Mapping[str, Ship]
    copies: Mapping[str, int]
    cards: int
    removed: Mapping[int, int]
    ship_points: tuple[int, ...]
    marker_points: tuple[int, ...]
    last_space: int
    bonus: Mapping[int, int]
    progress_points: tuple[int, ...]
    categories: tuple[str, ...]
    token_counts: Mapping[str, int]
    tokens: Mapping[str, Token]
    draw_texts: Mapping[str, str]
    port_texts: tuple[str, ...]
    flag_texts: Mapping[str, str]

    @classmethod
    def from_data(cls, data: GameData) -> Rules:
        ports = tuple(data["cities"]["ports"])
        goods = _good_names(data, ports)
        categories = tuple(data["progress_scoring"]["categories"])
        counts = dict(data["progress_tokens"]["counts"])
        tokens = {name: _token(name, ports) for name in counts}
        _check_tokens(tokens, counts, categories)
        cards = int(data["deck"]["cards"])
        deck = _ships(data["ships"], "ships", ports, goods)
        if len(deck) != cards:
            raise DataError(
                f"[ships] lists {counted(len(deck), 'card')}; the rulebook's deck has "
                f"{cards} ([deck] cards)"
            )
        _ships(data["ships_example"], "ships_example", ports, goods)  # the same checks
        last_space, bonus = _track(data["track"])
        copies: dict[str, int] = {}
        faces: dict[str, Ship] = {}
        for ship in sorted(deck, key=_face_order):
            copies[ship.face] = copies.get(ship.face, 0) + 1
            faces[ship.face] = ship
        return cls(
            ports=ports,
            goods=goods,
            cities=tuple(data["cities"]["all"]),
            flags=tuple(data["flags"]["kinds"]),
            rounds=int(data["rounds"]["count"]),
            ships=MappingProxyType(faces),
            copies=MappingProxyType(copies),
            cards=cards,
            removed=MappingProxyType({int(k): int(v) for k, v in data["deck"]["removed"].items()}),
            ship_points=tuple(data["ship_scoring"]["points"]),
            marker_points=tuple(data["marker_scoring"]["points"]),
            last_space=last_space,
            bonus=MappingProxyType(bonus),
            progress_points=tuple(data["progress_scoring"]["points"]),
            categories=categories,
            token_counts=MappingProxyType(counts),
            tokens=MappingProxyType(tokens),
            draw_texts=MappingProxyType({f: f"draw {f}" for f in faces}),
            port_texts=tuple(f"port {port}" for port in ports),
            flag_texts=MappingProxyType({f: f"flag {f}" for f in data["flags"]["kinds"]}),
        )

    def deck_size(self, players: int) -> int:
        return self.cards - self.removed[players]

    def florence(self) -> int:
        """The city index of Florence, the last city: not a port, scrolls move it."""
        return len(self.cities) - 1

    def catalogue(self) -> list[tuple[str, int]]:
        """The tagged pieces: every ship face with its copies, each progress token with its
        count."""
        ships = [(text, self.copies[face]) for face, text in self.draw_texts.items()]
        return ships + [(f"reveal {name}", n) for name, n in self.token_counts.items()]

    # --- faces ---------------------------------------------------------------------------
    def ship(self, face: str) -> Ship:
        """The `Ship` of a face in notation, in the deck or not (KeyError if malformed)."""
        ship = self.ships.get(face)
        if ship is None:
            ship = self.every_face[face]
        return ship

    @cached_property
    def every_face(self) -> Mapping[str, Ship]:
        """Every face the rulebook allows (sails 1-8, 0-3 goods per port, 0-2 scrolls, a
        token or not), by sails then notation: the draws of `ships = "any"`."""
        every = [
            _face(self.goods, sails, goods, scrolls, token)
            for sails in SAILS
            for goods in product(GOODS_SHOWN, repeat=len(self.ports))
            for scrolls in SCROLLS
            for token in (False, True)
        ]
        return MappingProxyType({s.face: s for s in sorted(every, key=_face_order)})

    @cached_property
    def every_draw(self) -> tuple[str, ...]:
        return tuple(f"draw {face}" for face in self.every_face)

    def parse(self, text: str) -> Ship | None:
        """The face a person typed in notation, exactly (None if it is not one)."""
        return self.every_face.get(" ".join(text.split()))

    def form(self) -> str:
        """The notation of a ship draw, in words for a refusal."""
        goods = " ".join(f"{g}<n>" for g in self.goods)
        return f"draw <sails> {goods} scrolls<n> {TOKEN}|{NO_TOKEN}"

    def example(self) -> str:
        return f"draw {next(iter(self.ships))}"

    def words(self, ship: Ship) -> str:
        """A face in words for sentences: '5-sail ship (2 grain, 2 cloth, progress token)',
        after 'the' or `article`. Only what the card shows; the rules need nothing more."""
        shown = [f"{n} {g}" for g, n in zip(self.goods, ship.goods, strict=True) if n]
        if ship.scrolls:
            shown.append(counted(ship.scrolls, "scroll"))
        if ship.token:
            shown.append("progress token")
        return f"{ship.sails}-sail ship ({', '.join(shown) or 'nothing else'})"


def article(words: str) -> str:
    """'a 5-sail ship', 'an 8-sail ship'."""
    return f"{'an' if words[0] == '8' else 'a'} {words}"


def _face_order(ship: Ship) -> tuple[int, str]:
    return ship.sails, ship.face


def _good_names(data: GameData, ports: tuple[str, ...]) -> tuple[str, ...]:
    """The good of each port, in port order ('a ship wanted in Rome' shows grain)."""
    named = {**data["goods_rome"].values, **data["goods_venice_naples"].values}
    goods = []
    for port in ports:
        good = named.get(port)
        if not isinstance(good, str) or not good.isalpha() or not good.islower():
            raise DataError(f"the good of {port} must be one lowercase word (found {good!r})")
        goods.append(good)
    if len(set(goods)) != len(goods):
        raise DataError(f"two ports have the same good: {', '.join(goods)}")
    return tuple(goods)


def _ships(group: Any, name: str, ports: tuple[str, ...], goods: tuple[str, ...]) -> list[Ship]:
    """The cards of `[name]`, each checked against the rulebook: a DataError names the
    card by its position and the key."""
    cards = group["cards"]
    if not isinstance(cards, list):
        raise DataError(f"[{name}] cards must be a list of cards")
    return [_card(card, f"[{name}] card {i}", ports, goods) for i, card in enumerate(cards, 1)]


def _card(card: Any, where: str, ports: tuple[str, ...], goods: tuple[str, ...]) -> Ship:
    if not isinstance(card, dict):
        raise DataError(f"{where} must be a table like {{ sails = 5, goods = {{}}, ... }}")
    unknown = sorted(set(card) - set(CARD_KEYS))
    missing = [k for k in CARD_KEYS if k not in card]
    if unknown or missing:
        raise DataError(
            f"{where}: "
            + "; ".join(
                [f"unknown key {k!r}" for k in unknown] + [f"no {k} = ..." for k in missing]
            )
            + f" (a card has {', '.join(CARD_KEYS)})"
        )
    sails = _number(card["sails"], SAILS, f"{where}: sails")
    scrolls = _number(card["scrolls"], SCROLLS, f"{where}: scrolls")
    if not isinstance(card["token"], bool):
        raise DataError(f"{where}: token must be true or false (found {card['token']!r})")
    shown = card["goods"]
    if not isinstance(shown, dict):
        raise DataError(f"{where}: goods must be a table of port = count, like {{ rome = 2 }}")
    stray = sorted(set(shown) - set(ports))
    if stray:
        raise DataError(f"{where}: goods {stray[0]!r} is not a port ({', '.join(ports)})")
    counts = tuple(_number(shown.get(p, 0), GOODS_SHOWN, f"{where}: goods {p}") for p in ports)
    return _face(goods, sails, counts, scrolls, card["token"])


def _face(
    names: tuple[str, ...], sails: int, goods: Sequence[int], scrolls: int, token: bool
) -> Ship:
    """The `Ship` of a face given by its parts, its notation made from the good `names`."""
    words = [str(sails), *(f"{g}{n}" for g, n in zip(names, goods, strict=True))]
    words += [f"scrolls{scrolls}", TOKEN if token else NO_TOKEN]
    return Ship(sails, tuple(goods), scrolls, token, " ".join(words))


def _number(value: Any, allowed: range, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise DataError(f"{where} must be {allowed.start}-{allowed.stop - 1} (found {value!r})")
    return value


def _check_tokens(
    tokens: Mapping[str, Token], counts: Mapping[str, Any], categories: tuple[str, ...]
) -> None:
    """'36 progress tokens (12 each for arts, sciences and architecture)', worth 1 or 2."""
    per: dict[str, int] = dict.fromkeys(categories, 0)
    for name, token in tokens.items():
        n = counts[name]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise DataError(f"[progress_tokens] {name}: the count must be a whole number")
        if token.category not in per:
            raise DataError(
                f"[progress_tokens] {name}: {token.category!r} is not a category "
                f"({', '.join(categories)})"
            )
        if token.value not in TOKEN_VALUES or (token.value == 1) != (token.port is not None):
            raise DataError(
                f"[progress_tokens] {name}: a token is worth 1 (and shows a port's goods, "
                f"like arts-1-venice) or 2 (like arts-2)"
            )
        per[token.category] += n
    for category, n in per.items():
        if n != TOKENS_PER_CATEGORY:
            raise DataError(
                f"[progress_tokens] {category} has {counted(n, 'token')}; the rulebook's box "
                f"has {TOKENS_PER_CATEGORY} of each category, "
                f"{TOKENS_PER_CATEGORY * len(categories)} in all"
            )


def _track(group: Any) -> tuple[int, dict[int, int]]:
    """'If a player has his marker on one of the bonus spaces (5, 10 or 15), he earns
    those points' and 'players cannot move their markers past the bonus space 15': three
    bonus spaces worth 5, 10 and 15 in that order along the track, the 15 one its last."""
    last = int(group["last_space"])
    if last < 3:
        raise DataError(f"[track] last_space must be 3 or more (found {last})")
    try:
        bonus = {int(k): int(v) for k, v in group["bonus"].items()}
    except ValueError:
        raise DataError("[track] bonus: write it as { space = points }, like { 4 = 5 }") from None
    if sorted(bonus.values()) != [5, 10, 15]:
        raise DataError(
            f"[track] bonus must give the three bonus spaces 5, 10 and 15 (found "
            f"{sorted(bonus.values())})"
        )
    if [bonus[k] for k in sorted(bonus)] != [5, 10, 15] or not all(0 < k <= last for k in bonus):
        raise DataError(
            f"[track] bonus: the spaces of the 5, 10 and 15 bonus must rise along the track, "
            f"between 1 and the last space {last} (found {bonus})"
        )
    if bonus.get(last) != 15:
        raise DataError(
            f"[track] 'players cannot move their markers past the bonus space 15': the 15 "
            f"bonus is on the last space, {last} (found {bonus})"
        )
    return last, bonus


def _token(name: str, ports: tuple[str, ...]) -> Token:
    """`arts-1-venice`: category, value, and the port whose marker a value-1 token moves."""
    parts = name.split("-")
    if len(parts) not in (2, 3) or not (parts[1].isascii() and parts[1].isdecimal()):
        raise DataError(
            f"[progress_tokens] {name}: a token is named like arts-2 or sciences-1-venice"
        )
    port = parts[2] if len(parts) > 2 else None
    if port is not None and port not in ports:
        raise DataError(f"[progress_tokens] {name}: {port} is not a port")
    return Token(name, parts[0], int(parts[1]), port)


_RULES: dict[str, Rules] = {}


def rules_for(data: GameData) -> Rules:
    rules = _RULES.get(data.digest)
    if rules is None:
        try:
            rules = Rules.from_data(data)
        except DataError as e:  # say which files: the shipped one, or the owner's too
            raise DataError(f"{data.origin}: {e}") from None
        _RULES[data.digest] = rules
    return rules


def _no_token(arg: str) -> str:
    return f"There is no progress token '{arg}': tokens are named like arts-2 or sciences-1-venice."


# --- the rulebook, heading by heading --------------------------------------------------
class Setup(Rule["StrozziState"]):
    """'Each player ... takes the 3 flags of his color ... and takes the 4 player markers
    of his color, placing them one on each of the lowest spaces ... Shuffle the ship cards
    face down and randomly remove the number of cards indicated below'.

    The markers and flags are laid out by `StrozziState.__init__`, the removed cards are
    `Rules.deck_size`. The three face-up progress tokens ('the player chooses one of the
    three available face up on the board') are turned up here, from the pile that also
    replaces a token taken later (`turn_up`)."""

    heading = "Setup"
    plays = in_phases(setup=("reveal",))

    def texts(self, state: StrozziState) -> Sequence[str]:
        return self.pile_texts(state)

    def apply(self, state: StrozziState, verb: str, arg: str, events: list[Event]) -> None:
        self.turn_up(state, arg, events)
        if len(state.face_up) == 3 or not any(state.pile.values()):
            FLOW.fire(state, "tokens_ready")

    def refuse(self, state: StrozziState, verb: str, arg: str) -> str | None:
        if arg not in state.rules.tokens:
            return _no_token(arg)
        return f"No {arg} token is left in the pile."

    @staticmethod
    def pile_texts(state: StrozziState) -> list[str]:
        return [f"reveal {t}" for t, _ in state.pile_left()]

    @staticmethod
    def turn_up(state: StrozziState, token: str, events: list[Event]) -> None:
        state.pile[token] -= 1
        state.face_up.append(token)
        if events is not QUIET:
            events.append(Event("token_revealed", {"token": token}))


class CourseOfTheGame(Rule["StrozziState"]):
    """'The game is played over three rounds. During each round, every player will have
    the opportunity to buy 3 ship cards, one for each of his flags ... the player whose
    turn it is turns over the first card from the top of the ship deck'."""

    heading = "Course of the Game"
    plays = in_phases(draw=("draw",))

    def texts(self, state: StrozziState) -> Sequence[str]:
        r = state.rules
        if state.any_face:
            return r.every_draw
        return self.deck_left(state)[0]

    def apply(self, state: StrozziState, verb: str, arg: str, events: list[Event]) -> None:
        state.seen[arg] = state.seen.get(arg, 0) + 1
        self.turned_over(state, arg)
        state.drawn += 1
        state.ship = arg
        if events is not QUIET:
            sails = state.rules.ship(arg).sails
            events.append(
                Event("ship_drawn", {"ship": arg, "sails": sails, "player": state.active})
            )
        FLOW.fire(state, "ship_drawn")

    @staticmethod
    def weights(state: StrozziState) -> Sequence[float]:
        """'turns over the first card from the top of the ship deck': each face as likely as
        the cards left this round that show it (0 for a face the deck lacks)."""
        r, seen = state.rules, state.seen
        faces = r.every_face
        if state.any_face:
            return [float(max(r.copies.get(f, 0) - seen.get(f, 0), 0)) for f in faces]
        return CourseOfTheGame.deck_left(state).counts

    @staticmethod
    def deck_left(state: StrozziState) -> DeckLeft:
        """The faces still in the round's deck, as draw texts in the deck's order, and the
        cards left showing each. Derived from `seen` and kept by the draws themselves
        (`turned_over`): the longest list of the game, which, rebuilt at every draw, was a
        third of a random game's time."""
        left = state.deck_cache
        if left is None:
            r, seen = state.rules, state.seen
            kept = [(t, float(r.copies[f] - seen.get(f, 0))) for f, t in r.draw_texts.items()]
            kept = [(t, n) for t, n in kept if n > 0]
            left = state.deck_cache = DeckLeft(tuple(t for t, _ in kept), tuple(n for _, n in kept))
        return left

    @staticmethod
    def turned_over(state: StrozziState, face: str) -> None:
        """One card showing `face` left the deck: the cached `deck_left` follows."""
        left = state.deck_cache
        if left is None or state.any_face:
            return
        texts, counts = left
        i = texts.index(state.rules.draw_texts[face])
        n = counts[i] - 1.0
        if n > 0:
            state.deck_cache = DeckLeft(texts, (*counts[:i], n, *counts[i + 1 :]))
        else:
            state.deck_cache = DeckLeft(texts[:i] + texts[i + 1 :], counts[:i] + counts[i + 1 :])

    def refuse(self, state: StrozziState, verb: str, arg: str) -> str | None:
        r = state.rules
        ship = r.parse(arg)
        if ship is None:
            before = " (ships are no longer numbered)" if arg.strip().isdigit() else ""
            return (
                f"'draw {arg}' is not a ship card's face{before}: a ship is entered by what "
                f"its card shows, {r.form()}, every word present, like '{r.example()}'."
            )
        if ship.face not in r.copies:
            return (
                f"No ship card in this deck shows {article(r.words(ship))}; "
                f"`tavola cards learn strozzi` enters your own deck."
            )
        copies = r.copies[ship.face]
        cards = "its only card" if copies == 1 else f"all {copies} cards showing it"
        return (
            f"The {r.words(ship)} has already come up this round ({cards}); "
            f"every card comes up once."
        )

    @staticmethod
    def flag_refusal(state: StrozziState, flag: str) -> str:
        """Why a seat cannot place `flag`: no such flag, or it bought a ship this round."""
        if flag not in state.rules.flags:
            return f"There is no '{flag}' flag: the flags are pirate, plus and goods."
        return f"Your {flag} flag is already used this round: each flag buys one ship per round."


class AcquiringTheShips(Rule["StrozziState"]):
    """'If the player wants a ship card, he places one of his flags on the back of the
    sail. When he plays a "pirate flag," he claims the card for himself and gets it
    immediately. If, instead, he places a "+1 flag" or a "goods flag," another player may
    claim the card by playing a "pirate flag." Then, in clockwise order, each following
    player decides whether to play his own "pirate flag" ... If no one plays his "pirate
    flag" on the ship card, the player whose turn it is takes the ship'."""

    heading = "Acquiring the Ships"
    plays = in_phases(decide=("flag",), pirates=("flag", "pass"))

    def texts(self, state: StrozziState) -> Sequence[str]:
        if state.phase == "pirates":
            return ["flag pirate", "pass"]
        texts = state.rules.flag_texts
        return [texts[f] for f in state.flags[state.active]]

    def apply(self, state: StrozziState, verb: str, arg: str, events: list[Event]) -> None:
        if verb == "flag":
            self.place_flag(state, arg, events)
            return
        if events is not QUIET:
            events.append(Event("passed", {"player": state.decider}))
        last = (state.active - 1) % state.players
        nxt = state.first_with(state.seats_after(state.decider, last), PIRATE)
        if nxt < 0:
            self.take(state, state.flagger, state.flag, events)
        else:
            state.decider = nxt

    def refuse(self, state: StrozziState, verb: str, arg: str) -> str | None:
        pirates = state.phase == "pirates"
        if verb == "flag" and pirates and arg in state.rules.flags and arg != PIRATE:
            return (
                "A ship that carries another player's flag can only be seized with a pirate flag."
            )
        if verb == "flag":
            return CourseOfTheGame.flag_refusal(state, arg)
        return None

    def place_flag(self, state: StrozziState, flag: str, events: list[Event]) -> None:
        """A flag on the ship in play, by the active player or (Rejected Ships) another."""
        seat = state.current_player()
        assert seat is not None and seat >= 0
        if events is not QUIET:
            events.append(Event("flag_placed", {"player": seat, "flag": flag}))
        if flag == PIRATE:
            if state.phase == "pirates" and state.flagger >= 0 and events is not QUIET:
                events.append(Event("flag_returned", {"player": state.flagger, "flag": state.flag}))
            self.take(state, seat, PIRATE, events)
            return
        # A +1 or goods flag: the following players may still seize the ship.
        last = (state.active - 1) % state.players  # right of the active player decides last
        first = state.first_with(state.seats_after(seat, last), PIRATE)
        if first < 0:
            self.take(state, seat, flag, events)
            return
        state.flagger, state.flag, state.decider = seat, flag, first
        FLOW.fire(state, "flag_placed")

    @staticmethod
    def take(state: StrozziState, seat: int, flag: str, events: list[Event]) -> None:
        state.flags[seat].remove(flag)
        state.taker, state.taker_flag = seat, flag
        state.flagger, state.flag, state.decider = -1, "", -1
        if events is not QUIET:
            events.append(Event("ship_taken", {"player": seat, "flag": flag, "ship": state.ship}))
        FLOW.fire(state, "ship_taken")


class RejectedShips(Rule["StrozziState"]):
    """'If the player whose turn it is does not want the ship, he must say so. Then, the
    other players, in clockwise order, have the same option ... The player to the right of
    the active player is the last to decide ... If all players decide to refuse the ship,
    the player who turned it over places it face down (it will not be used this round)
    and turns over a new ship.'"""

    heading = "Rejected Ships"
    plays = in_phases(decide=("pass",), offer=("flag", "pass"))

    def texts(self, state: StrozziState) -> Sequence[str]:
        if state.phase == "decide":
            return ["pass"]
        texts = state.rules.flag_texts
        return [*[texts[f] for f in state.flags[state.decider]], "pass"]

    def apply(self, state: StrozziState, verb: str, arg: str, events: list[Event]) -> None:
        if verb == "flag":
            ACQUIRING.place_flag(state, arg, events)
            return
        deciding = state.phase == "decide"
        seat = state.active if deciding else state.decider
        if events is not QUIET:
            events.append(Event("passed", {"player": seat}))
        last = (state.active - 1) % state.players
        nxt = state.first_with(state.seats_after(seat, last), None)
        if nxt < 0:
            self.discard(state, events)
            return
        state.decider = nxt
        if deciding:
            FLOW.fire(state, "rejected")

    def refuse(self, state: StrozziState, verb: str, arg: str) -> str | None:
        return CourseOfTheGame.flag_refusal(state, arg) if verb == "flag" else None

    @staticmethod
    def discard(state: StrozziState, events: list[Event]) -> None:
        if events is not QUIET:
            events.append(Event("ship_discarded", {"ship": state.ship}))
        state.ship = ""
        if state.phase == "decide":  # nobody else could take it: straight back to draw
            FLOW.fire(state, "rejected")
        if END_OF_ROUND.deck_empty(state):
            END_OF_ROUND.end(state, events)
        else:
            FLOW.fire(state, "all_refused")
            state.decider = -1


class PlacingTheShipCard(Rule["StrozziState"]):
    """'The player who has taken the ship card places it, together with the flag he
    chose, near one of the three ports ... Each player may place only one ship with his
    flag in each port during a round ... in order of sail number ... he moves his marker
    at that port forward one space for each goods symbol ... if the player used the
    "goods flag," he moves his marker one further space ... If the ship card shows one or
    two scrolls, the player moves his marker on the Florence city track ... If the ship
    card shows a progress token, the player chooses one of the three available face up
    ... he draws the first token from the pile to replace the one he took'."""

    heading = "Placing the Ship Card"
    plays = in_phases(place=("port",), token=("token",), reveal=("reveal",))

    def texts(self, state: StrozziState) -> Sequence[str]:
        phase = state.phase
        if phase == "place":
            taker = state.taker
            return [
                text
                for text, queue in zip(state.rules.port_texts, state.ports, strict=True)
                if taker not in [entry.seat for entry in queue]
            ]
        if phase == "token":
            return [f"token {t}" for t in dict.fromkeys(state.face_up)]
        return Setup.pile_texts(state)

    def apply(self, state: StrozziState, verb: str, arg: str, events: list[Event]) -> None:
        if verb == "port":
            self.place(state, state.rules.ports.index(arg), events)
        elif verb == "token":
            self.take_token(state, arg, events)
        else:
            Setup.turn_up(state, arg, events)
            END_OF_ROUND.next_turn(state, events)

    def refuse(self, state: StrozziState, verb: str, arg: str) -> str | None:
        r = state.rules
        if verb == "port":
            if arg == "florence":
                return "Florence is not a port: ships go to Venice, Rome or Naples."
            if arg not in r.ports:
                return f"There is no port '{arg}': the ports are Venice, Rome and Naples."
            return (
                f"You already have a ship in {arg.capitalize()} this round: each player "
                f"places only one ship in each port per round."
            )
        if arg not in r.tokens:
            return _no_token(arg)
        if verb == "reveal":
            return SETUP.refuse(state, verb, arg)
        showing = ", ".join(dict.fromkeys(state.face_up))
        return f"The {arg} token is not face up: choose one of {showing}."

    def place(self, state: StrozziState, port: int, events: list[Event]) -> None:
        r = state.rules
        ship = r.ship(state.ship)
        seat, flag = state.taker, state.taker_flag
        speed = ship.sails + (1 if flag == PLUS else 0)
        queue = state.ports[port]
        rank = 0
        while rank < len(queue) and queue[rank].speed >= speed:
            rank += 1  # an equal ship already there stays above
        queue.insert(rank, PortEntry(speed, seat, ship.face, flag))
        if events is not QUIET:
            events.append(
                Event(
                    "ship_placed",
                    {
                        "player": seat,
                        "port": r.ports[port],
                        "ship": ship.face,
                        "speed": speed,
                        "rank": rank + 1,
                    },
                )
            )
        self.move(state, seat, port, ship.goods[port] + (1 if flag == GOODS else 0), events)
        self.move(state, seat, r.florence(), ship.scrolls, events)
        if ship.token and state.face_up:
            FLOW.fire(state, "token_earned")
        else:
            END_OF_ROUND.next_turn(state, events)

    def take_token(self, state: StrozziState, token: str, events: list[Event]) -> None:
        state.face_up.remove(token)
        state.tokens[state.taker].append(token)
        if events is not QUIET:
            events.append(Event("token_taken", {"player": state.taker, "token": token}))
        port = state.rules.tokens[token].port
        if port is not None:
            self.move(state, state.taker, state.rules.ports.index(port), 1, events)
        if any(state.pile.values()):
            FLOW.fire(state, "token_taken")
        else:
            END_OF_ROUND.next_turn(state, events)

    @staticmethod
    def move(state: StrozziState, seat: int, city: int, steps: int, events: list[Event]) -> None:
        """'The player moves his marker to the far left of the space he reaches, unless
        there are already other markers on that space. In that case, he places it to the
        right of all the other markers' ('players cannot move their markers past the bonus
        space 15'): a marker's stamp is its arrival order, smaller is further left."""
        if steps <= 0:
            return
        old = state.pos[city][seat]
        new = min(old + steps, state.rules.last_space)
        if new == old:
            return
        state.pos[city][seat] = new
        state.stamp[city][seat] = state.counter
        state.counter += 1
        if events is not QUIET:
            city_name = state.rules.cities[city]
            events.append(
                Event("marker_moved", {"player": seat, "city": city_name, "from": old, "to": new})
            )


class EndOfTheRound(Rule["StrozziState"]):
    """'After the player has placed his ship ... the player to his left begins his turn
    ... When a player has used all three of his flags in a round ... he is simply skipped
    ... The round ends when: all players have used their 3 flags; all ships have been
    taken or discarded. When the round ends, players score points from their ships and
    from their markers.'"""

    heading = "End of the Round"

    @staticmethod
    def deck_empty(state: StrozziState) -> bool:
        return state.drawn >= state.rules.deck_size(state.players)

    def next_turn(self, state: StrozziState, events: list[Event]) -> None:
        """The player to the left of the taker is next, skipping seats with no flags."""
        taker = state.taker
        state.taker, state.taker_flag, state.ship = -1, "", ""
        n = state.players
        nxt = state.first_with([(taker + 1 + i) % n for i in range(n)], None)
        if nxt < 0 or self.deck_empty(state):
            self.end(state, events)
            return
        state.active = nxt
        FLOW.fire(state, "next_turn")

    def end(self, state: StrozziState, events: list[Event]) -> None:
        FLOW.fire(state, "round_over")
        self.score(state, events)

    @staticmethod
    def score(state: StrozziState, events: list[Event]) -> None:
        """Ships, then markers; then the next round, or after the last the end of the game."""
        SHIP_SCORING.score(state, events)
        MARKER_SCORING.score(state, events)
        # no money here: the totals stay secret until the end, only the payouts are public
        if events is not QUIET:
            events.append(Event("round_scored", {"round": state.round}))
        if state.round >= state.rules.rounds:
            END_OF_GAME.end(state, events)
        else:
            NEW_ROUND.begin(state, events)


def award(
    state: StrozziState,
    seat: int,
    points: int,
    reason: str,
    where: str,
    events: list[Event],
    **extra: Any,
) -> None:
    """Pay `points` in money to `seat` ('Players receive these points in money'), on the
    public record of payouts."""
    state.money[seat] += points
    state.payouts += (Payout(state.round, seat, points, reason, where),)
    if events is not QUIET:
        place = {"category": where} if reason == "progress" else {"city": where}
        events.append(
            Event("award", {"player": seat, "points": points, "reason": reason, **place, **extra})
        )


class ScoringTheShips(Rule["StrozziState"]):
    """'At each port, the player with the ship positioned highest (fastest) earns 15
    points. The player with the second ship at that port earns 10 points, and the player
    with the third ship at that port earns 5 points.'"""

    heading = "Scoring the Ships"

    @staticmethod
    def score(state: StrozziState, events: list[Event]) -> None:
        r = state.rules
        for p, queue in enumerate(state.ports):
            for rank, (entry, points) in enumerate(zip(queue, r.ship_points, strict=False), 1):
                award(state, entry.seat, points, "ship", r.ports[p], events, rank=rank)


class ScoringTheMarkers(Rule["StrozziState"]):
    """'For each port and for Florence ... The player with the marker positioned highest
    at each location earns 15 points. If there are several markers on one space, the
    leftmost marker is considered the highest ... second-highest ... 10 points, and ...
    third position earns 5 points ... Markers on the starting space earn no points ... If
    a player has his marker on one of the bonus spaces (5, 10 or 15), he earns those
    points in addition to the others'."""

    heading = "Scoring the Markers"

    @staticmethod
    def rank(state: StrozziState, city: int) -> list[int]:
        """Seats by marker position in a city, best first (leftmost wins a shared space)."""
        pos, stamp = state.pos[city], state.stamp[city]
        return sorted(range(state.players), key=lambda s: (-pos[s], stamp[s]))

    def score(self, state: StrozziState, events: list[Event]) -> None:
        r = state.rules
        for c, city in enumerate(r.cities):
            pos = state.pos[c]
            ranked = [s for s in self.rank(state, c) if pos[s] > 0]
            for rank, (seat, points) in enumerate(zip(ranked, r.marker_points, strict=False), 1):
                award(state, seat, points, "marker", city, events, rank=rank, space=pos[seat])
            for seat in ranked:
                bonus = r.bonus.get(pos[seat])
                if bonus:
                    award(state, seat, bonus, "bonus", city, events, space=pos[seat])


class NewRound(Rule["StrozziState"]):
    """'Each player takes back his own flags. All ship cards are shuffled, the required
    number of cards is discarded ... The player whose turn it is for the new round is the
    player with the marker in the highest position in the city of Florence. Note: player
    markers remain where they were in the previous round.'"""

    heading = "New Round"

    @staticmethod
    def begin(state: StrozziState, events: list[Event]) -> None:
        r = state.rules
        state.round += 1
        state.flags = [list(r.flags) for _ in range(state.players)]
        state.ports = [[] for _ in r.ports]
        state.seen = {}
        state.deck_cache = None
        state.drawn = 0
        state.active = MARKER_SCORING.rank(state, r.florence())[0]
        if events is not QUIET:
            events.append(Event("round_started", {"round": state.round, "player": state.active}))
        FLOW.fire(state, "new_round")


class EndOfTheGame(Rule["StrozziState"]):
    """'After a complete third round, including the scoring phase, points are counted for
    the progress tokens ... 30 points ... 20 points, and the third earns 10 points. In case
    of a tie, the player with the marker in the better position in the city of Florence
    is considered the winner of that tie ... Players reveal their money, and the one with
    the greatest sum is the winner. In case of a tie, the player who has the marker in
    the better position in the city of Florence wins.'"""

    heading = "End of the Game"

    def end(self, state: StrozziState, events: list[Event]) -> None:
        self.score_progress(state, events)
        FLOW.fire(state, "game_over")
        if events is not QUIET:
            events.append(
                Event("game_over", {"winner": self.winner(state), "money": list(state.money)})
            )

    @staticmethod
    def score_progress(state: StrozziState, events: list[Event]) -> None:
        r = state.rules
        florence = MARKER_SCORING.rank(state, r.florence())
        for category in r.categories:
            totals = [
                sum(r.tokens[t].value for t in state.tokens[s] if r.tokens[t].category == category)
                for s in range(state.players)
            ]
            ranked = [s for s in florence if totals[s] > 0]
            ranked.sort(key=lambda s: -totals[s])  # stable: Florence order breaks ties
            for rank, (seat, points) in enumerate(zip(ranked, r.progress_points, strict=False), 1):
                tied = sum(1 for s in ranked if totals[s] == totals[seat]) > 1
                award(
                    state,
                    seat,
                    points,
                    "progress",
                    category,
                    events,
                    rank=rank,
                    value=totals[seat],
                    tied=tied,
                )

    @staticmethod
    def winner(state: StrozziState) -> list[int]:
        florence = MARKER_SCORING.rank(state, state.rules.florence())
        best = max(state.money)
        return [next(s for s in florence if state.money[s] == best)]

    @staticmethod
    def tiebreak(state: StrozziState, names: SeatNamer) -> str | None:
        """'In case of a tie, the player who has the marker in the better position in the
        city of Florence wins', in words, when the greatest sum was shared."""
        best = max(state.money)
        florence = MARKER_SCORING.rank(state, state.rules.florence())
        tied = [s for s in florence if state.money[s] == best]
        if len(tied) < 2:
            return None
        pos = state.pos[state.rules.florence()]
        won, other = tied[0], tied[1]
        if pos[won] > pos[other]:
            why = f"space {pos[won]} against {pos[other]}"
        else:
            why = f"both on space {pos[won]}, {names(won)}'s marker leftmost, first to arrive"
        return (
            f"{capital(joined([names(s) for s in tied]))} have {best} each; "
            f"{names(won)} wins the tie with the better marker in Florence ({why})."
        )


ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
KIND = {"ship": "ships", "marker": "markers", "bonus": "bonus spaces", "progress": "progress"}


def score_step(event: Event, names: SeatNamer) -> ScoreStep | None:
    """A payout in words ('Seat 2's ship is 1st in Venice: 15'); None for other events.
    Payouts are public; the money they add up to is not, so no total is named."""
    if event.kind != "award":
        return None
    d = event.data
    who, points, reason = capital(names(d["player"])), d["points"], d["reason"]
    rank = ORDINAL.get(d.get("rank", 0), f"{d.get('rank')}th")
    if reason == "ship":
        text = f"{who}'s ship is {rank} in {d['city'].capitalize()}: {points}."
    elif reason == "marker":
        text = (
            f"{who}'s marker is {rank} in {d['city'].capitalize()} (space {d['space']}): {points}."
        )
    elif reason == "bonus":
        text = (
            f"{who}'s marker is on the bonus space {points} (space {d['space']}) in "
            f"{d['city'].capitalize()}: {points} more."
        )
    else:
        value = f" ({d['value']} on its tokens)" if "value" in d else ""
        tie = ", a tie decided by the better marker in Florence" if d.get("tied") else ""
        text = f"{who} is {rank} in {d['category']}{value}{tie}: {points}."
    return ScoreStep(d["player"], points, KIND.get(reason, reason), text)


SETUP = Setup()
COURSE = CourseOfTheGame()
ACQUIRING = AcquiringTheShips()
REJECTED = RejectedShips()
PLACING = PlacingTheShipCard()
END_OF_ROUND = EndOfTheRound()
SHIP_SCORING = ScoringTheShips()
MARKER_SCORING = ScoringTheMarkers()
NEW_ROUND = NewRound()
END_OF_GAME = EndOfTheGame()

RULEBOOK: Rulebook[StrozziState] = Rulebook(
    "Strozzi",
    [
        SETUP,
        COURSE,
        ACQUIRING,
        REJECTED,
        PLACING,
        END_OF_ROUND,
        SHIP_SCORING,
        MARKER_SCORING,
        NEW_ROUND,
        END_OF_GAME,
    ],
)


# --- the state ---------------------------------------------------------------------------
NUMBERED = (
    "this Strozzi game was recorded when ship cards were numbered ('draw 7'); ships are now "
    "entered by their face, so it cannot be resumed: start a new game"
)


def _seen(value: Any) -> dict[str, int]:
    """The round's drawn faces from a record; a record of numbered ships is refused."""
    if not isinstance(value, dict):
        raise ValueError(NUMBERED)
    return {str(face): int(n) for face, n in value.items()}


class StrozziState(State):
    """A Strozzi position. Plain fields only, declared once, so clone and to_dict stay cheap."""

    FIELDS = Fields(
        phase=SCALAR,
        round=SCALAR,
        active=SCALAR,
        decider=SCALAR,
        flagger=SCALAR,
        flag=SCALAR,
        taker=SCALAR,
        taker_flag=SCALAR,
        ship=SCALAR,
        seen=Codec(dump=lambda seen: dict(sorted(seen.items())), load=_seen, copy=dict),
        drawn=SCALAR,
        flags=LISTS,
        ports=lists(of=PortEntry),
        pos=LISTS,
        stamp=LISTS,
        counter=SCALAR,
        money=SCALARS,
        tokens=LISTS,
        face_up=SCALARS,
        pile=MAPPING,
        payouts=Field(tuples(of=Payout, immutable=True), default=()),  # older records: none
    )
    secret_scores = True  # "Players may keep the amount of their money secret."
    # empty: what Strozzi reveals (a ship turned over, a progress token turned up) is drawn
    revealing = RULEBOOK.revealing

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        r = self.rules = rules_for(data)
        n = players
        self.phase = FLOW.initial
        self.round = 1
        self.active = int(options["first"]) % n  # the player whose turn it is
        self.decider = -1  # who decides on the ship now (offer, pirates)
        self.flagger = -1  # who put a +1 or goods flag on the ship now in play
        self.flag = ""
        self.taker = -1
        self.taker_flag = ""
        self.ship = ""  # the face of the ship card face up (Ship.face), "" for none
        self.seen: dict[str, int] = {}  # face -> cards showing it turned over this round
        self.deck_cache: DeckLeft | None = None  # derived from seen: immutable, shared by clones
        self.any_face = options.get("ships", "deck") == "any"  # every valid face may come up
        self.drawn = 0
        self.flags: list[list[str]] = [list(r.flags) for _ in range(n)]  # flags left per seat
        self.ports: list[list[PortEntry]] = [[] for _ in r.ports]  # fastest (top) first
        # pos[city][seat]; stamp = arrival order on a space: smaller is further left
        self.pos: list[list[int]] = [[0] * n for _ in r.cities]
        order = [(self.active + i) % n for i in range(n)]
        self.stamp: list[list[int]] = [[order.index(s) for s in range(n)] for _ in r.cities]
        self.counter = n
        self.money = [0] * n  # secret: in no public observation
        self.tokens: list[list[str]] = [[] for _ in range(n)]
        self.face_up: list[str] = []
        self.pile: dict[str, int] = dict(r.token_counts)
        self.payouts: tuple[Payout, ...] = ()

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
        return RULEBOOK.texts(self)

    def _after_load(self) -> None:
        self.deck_cache = None
        if not isinstance(self.ship, str) or any(
            not isinstance(e.ship, str) for q in self.ports for e in q
        ):
            raise ValueError(NUMBERED)
        unknown = sorted(set(self.pile) - set(self.rules.token_counts))
        if unknown:  # `pile_left` reads only the data's tokens: none may go unseen
            raise ValueError(f"this record's token pile holds unknown tokens: {unknown}")

    def _apply(self, text: str) -> list[Event]:
        return RULEBOOK.apply(self, text)

    def _apply_quietly(self, text: str) -> None:
        RULEBOOK.apply(self, text, QUIET)

    def chance_weights(self) -> Sequence[float] | None:
        if self.phase in ("setup", "reveal"):
            return [float(c) for _, c in self.pile_left()]
        if self.phase == "draw":
            return CourseOfTheGame.weights(self)
        return None

    def pile_left(self) -> list[tuple[str, int]]:
        """The tokens still in the pile, with how many of each, in the component data's
        order. Never in `pile`'s own order: that is the order of the keys of a JSON object
        when the state was restored, which a store may change, and the draws (their order,
        their weights) must be the same whatever order it gave them back in."""
        pile = self.pile
        return [(t, pile[t]) for t in self.rules.token_counts if pile.get(t)]

    # --- seats in turn order ---------------------------------------------------------
    def seats_after(self, seat: int, last: int) -> list[int]:
        """Seats clockwise after `seat` up to and including `last`."""
        n = self.players
        out = []
        s = seat
        while s != last:
            s = (s + 1) % n
            out.append(s)
        return out

    def first_with(self, seats: list[int], flag: str | None) -> int:
        """The first of `seats` holding `flag` (None: any flag); -1 for none."""
        for s in seats:
            if (flag in self.flags[s]) if flag else self.flags[s]:
                return s
        return -1

    # --- results -------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.money)

    def winner(self) -> list[int]:
        return END_OF_GAME.winner(self)

    def tiebreak(self, names: SeatNamer = seat_name) -> str | None:
        return END_OF_GAME.tiebreak(self, names) if self.is_over() else None

    def score_steps(self, events: Sequence[Event], names: SeatNamer = seat_name) -> list[ScoreStep]:
        return [step for e in events if (step := score_step(e, names)) is not None]

    # --- words for the table ---------------------------------------------------------
    def describe(self, names: SeatNamer = seat_name) -> str:
        phase = self.phase
        r = self.rules
        if phase == "setup":
            return "Turn three progress tokens face up."
        if phase == "draw":
            return f"{capital(names(self.active))} turns over the next ship card."
        about = f"the {r.words(r.ship(self.ship))}" if self.ship else "the ship"
        if phase == "decide":
            return f"{capital(names(self.active))} decides on {about}: a flag, or pass."
        if phase == "offer":
            return f"{capital(names(self.decider))} may take the rejected {about}."
        if phase == "pirates":
            return f"{capital(names(self.decider))} may seize {about} with a pirate flag, or pass."
        if phase == "place":
            return f"{capital(names(self.taker))} places {about} at a port."
        if phase == "token":
            return f"{capital(names(self.taker))} chooses a face-up progress token."
        if phase == "reveal":
            return "Turn a new progress token face up."
        return "The game is over."

    def explain(self, text: str) -> str | None:
        return RULEBOOK.explain(self, text, self.waiting_for())

    def is_notation(self, text: str) -> bool:
        return RULEBOOK.is_notation(text)

    # --- the read model --------------------------------------------------------------
    def _public_round(self) -> int | None:
        return self.round

    def _observe(self, seat: int | None) -> Observation:
        return observe(self, seat)

    # --- invariants ----------------------------------------------------------------
    def invariants(self) -> list[str]:
        broken: list[str] = []
        if any(m < 0 for m in self.money):
            broken.append("negative money")
        broken += self._track_invariants()
        broken += self._token_invariants()
        broken += self._ship_invariants()
        return broken

    def _track_invariants(self) -> list[str]:
        r = self.rules
        broken = []
        for c, city in enumerate(r.cities):
            if any(not 0 <= p <= r.last_space for p in self.pos[c]):
                broken.append(f"marker off the {city} track")
            if len(set(self.stamp[c])) != self.players:
                broken.append(f"two markers share an arrival order in {city}")
        return broken

    def _token_invariants(self) -> list[str]:
        broken = []
        held = sum(len(t) for t in self.tokens)
        total = sum(self.rules.token_counts.values())
        if sum(self.pile.values()) + len(self.face_up) + held != total:
            broken.append("progress tokens not conserved")
        if any(c < 0 for c in self.pile.values()) or len(self.face_up) > 3:
            broken.append("token pile or display out of range")
        return broken

    def _ship_invariants(self) -> list[str]:
        r = self.rules
        broken = []
        if sum(self.seen.values()) != self.drawn or self.drawn > r.deck_size(self.players):
            broken.append("more ships drawn than the round's deck holds")
        for seat in range(self.players):
            broken += self._seat_ship_invariants(seat)
        for q in self.ports:
            if any(q[i].speed < q[i + 1].speed for i in range(len(q) - 1)):
                broken.append("ships out of speed order")
        return broken

    def _seat_ship_invariants(self, seat: int) -> list[str]:
        broken = []
        here = [sum(1 for e in q if e.seat == seat) for q in self.ports]
        pending = 1 if self.phase == "place" and self.taker == seat else 0
        if len(self.rules.flags) - len(self.flags[seat]) != sum(here) + pending:
            broken.append(f"seat {seat + 1}: used flags and placed ships differ")
        if max(here, default=0) > 1:
            broken.append(f"seat {seat + 1}: two ships in one port")
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
        Option(
            "ships",
            "deck",
            "which ship faces can be entered: 'deck', the faces of the deck in the data "
            "(the owner's, once entered); 'any', every face a card can show, for a table "
            "whose deck is not entered yet",
            choices=("deck", "any"),
        ),
    )

    hidden = ("money",)

    def resample(self, state: StrozziState, seat: int, rng: Any) -> None:
        """Other seats' money is secret, but every payment into it was public (`payouts`):
        a seat that watched knows it, so it is rebuilt from the payouts alone."""
        for other in range(state.players):
            if other != seat:
                state.money[other] = sum(p.points for p in state.payouts if p.seat == other)

    horizon = None
    """No cut: random games are fast (over 1,000 a second) and end in about 130-180
    actions, so a search plays them to the end within its budget."""

    def evaluate_seats(self, obs: Observation, seat: int) -> list[float]:
        """For the bots: money is secret, so each seat counts its *public* payouts (its
        own money, which it knows, for itself), plus what the board promises: 2 per
        space of its markers on the city tracks (markers score at every round's end), 3
        per ship it has at a port this round (ships score) and 2 per progress token
        held."""
        o = cast(StrozziObservation, obs)
        paid = [0.0] * o.players
        for p in o.payouts:
            paid[p.seat] += p.points
        own_money = getattr(o, "money", None)
        if own_money is not None:
            paid[seat] = float(own_money)
        board = [0.0] * o.players
        for track in o.tracks:
            for s, space in enumerate(track.positions):
                board[s] += 2.0 * space
        for port in o.ports:
            for entry in port.ships:
                board[entry.seat] += 3.0
        for s, held in enumerate(o.tokens):
            board[s] += 2.0 * len(held)
        return [m + b for m, b in zip(paid, board, strict=True)]

    def load_data(self, *args: Any, **kwargs: Any) -> GameData:
        """The data, with the deck and the tokens checked against the rulebook as it loads
        (`Rules.from_data`): a DataError names the card by position and the key."""
        data = super().load_data(*args, **kwargs)
        rules_for(data)
        return data

    def card_catalogue(self, data: GameData) -> list[tuple[str, int]]:
        return rules_for(data).catalogue()

    def card_faces(self, data: GameData) -> CardFaces:
        """The ship cards: entered by what they show (faces.py), as the owner's deck."""
        from .faces import ShipFaces  # it builds on this module

        return ShipFaces(rules_for(data))
