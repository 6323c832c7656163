"""The contract every game implements: `Game` and `State`.

Modelled on OpenSpiel's State and python-chess's Board. A game subclasses
`State` and provides the rules (`_legal_texts`, `_apply`), while this base
class owns what must behave the same in every game: checking whose turn it is,
rejecting illegal input *before* anything changes, caching legal actions,
keeping the history, and parsing notation.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Generic, NoReturn, TypeVar

from .action import CHANCE, Action, Event, normalise
from .data import GameData, earlier_digests, load_game_data, located
from .errors import DataError, GameOver, IllegalAction, NotYourTurn, UnknownNotation
from .faces import CardFaces
from .fields import Fields
from .flow import Flow
from .observation import Observation
from .scoring import ScoreStep, joined, points_text


@dataclass(frozen=True)
class Option:
    """A game option: a name, a default, the values allowed and a line of help.

    `seat=True`: a number among the choices is a seat index, so it must also be below
    the player count (the starting player); other choices ("random") stay as they are.
    `seats=True`: the value names seats, as player numbers from 1 joined by commas
    ("2" or "1,3"; "" for none), each a seat of the game.
    """

    name: str
    default: Any
    help: str
    choices: Sequence[Any] | None = None
    seat: bool = False
    seats: bool = False

    def check(self, value: Any, players: int | None = None) -> Any:
        """`value` if it is one of the choices, of the same type (`True` is not `1`), and,
        for a seat option, a seat of the game."""
        if self.choices is not None and not any(
            type(c) is type(value) and c == value for c in self.choices
        ):
            allowed = ", ".join(map(str, self.choices))
            raise ValueError(f"option {self.name} must be one of {allowed} (got {value!r})")
        if self.seat and players is not None and isinstance(value, int) and value >= players:
            raise ValueError(
                f"option {self.name} must be {self._other_choices()}a seat below {players}"
            )
        if self.seats:
            self._check_seats(value, players)
        return value

    def _check_seats(self, value: Any, players: int | None) -> None:
        wanted = f"option {self.name} must name seats as numbers from 1 with commas ('2', '1,3')"
        if not isinstance(value, str):
            raise ValueError(f"{wanted}, not {value!r}")
        parts = [p.strip() for p in value.split(",")] if value.strip() else []
        if not all(p.isascii() and p.isdigit() for p in parts) or len(set(parts)) != len(parts):
            raise ValueError(f"{wanted}, each once, not {value!r}")
        top = players if players is not None else 6
        if any(not 1 <= int(p) <= top for p in parts):
            raise ValueError(f"option {self.name}: the seats are 1-{top}, not {value!r}")

    @staticmethod
    def seat_set(value: str) -> frozenset[int]:
        """The player indices a `seats` option's value names."""
        return frozenset(int(p) - 1 for p in value.split(",") if p.strip())

    def _other_choices(self) -> str:
        """The choices that are not seat numbers, as words before "a seat" ('random' or)."""
        named = [repr(c) for c in self.choices or () if not isinstance(c, int)]
        return f"{' or '.join(named)} or " if named else ""


DRAWN = "it was a draw, and what came up has been seen"
"""Why a draw cannot be taken back (`State.reveals`): a card turned over, a tile drawn."""

MAX_NOTATION = 200
"""Longer text is never an action (the longest notation is a few dozen characters)."""


def _quote(text: str, limit: int = 40) -> str:
    """`text` in quotes for a message, shortened: an input can be thousands of characters."""
    return f"'{text}'" if len(text) <= limit else f"'{text[:limit]}...' ({len(text)} characters)"


SeatNamer = Callable[[int], str]
"""How a sentence names a player: player index -> words ('seat 1'). The engine's
sentences (`State.describe`) take one, so a table can say the seats its players sit at
(player 0 may sit at seat 3) without rewriting the engine's words."""


def seat_name(player: int) -> str:
    """The default `SeatNamer`: 'seat 1' is index 0 (and CHANCE is 'the draw')."""
    return "the draw" if player == CHANCE else f"seat {player + 1}"


def capital(text: str) -> str:
    """`text` starting a sentence: only the first letter changes ('seat North' -> 'Seat
    North'; `str.capitalize` would lower the rest of a seat's name)."""
    return text[:1].upper() + text[1:]


S = TypeVar("S", bound="State")


class Game(ABC, Generic[S]):
    """One title: its name, player counts, options and a factory of states.

    `new_state` is the same for every game: options resolved and checked, the state
    built on the component data, then the state's `_begin()` hook (a game that
    advances through automatic setup steps does it there).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    conformance_options: ClassVar[tuple[Mapping[str, Any], ...]] = ()
    """Option sets the conformance suite's random playouts cycle through (a solo variant,
    a way of entering hidden tiles); empty: the defaults only."""
    state_class: type[S]
    """The game's State subclass; `Game.__init__` links it back to this game."""
    flow: ClassVar[Flow]
    """The game's phase machine (see `engine.core.flow`)."""

    def __init__(self) -> None:
        self._data: GameData | None = None
        self._data_file: Path | None = None
        self.state_class.game = self

    def load_data(
        self,
        override: Path | str | None = None,
        *,
        text: str | None = None,
        shipped: str | None = None,
    ) -> GameData:
        """Read this game's component data: `data.toml` of the game's package (`shipped`:
        the earlier data of that digest, `earlier_data`), then the `override` file if one
        is given (`text`: its text), checked (`check_data`). The engine never looks for an
        owner's file itself: the app says where it is (apps.userdata)."""
        data = load_game_data(
            self._package(), self.name, override=override, override_text=text, shipped=shipped
        )
        if override is not None or text is not None:
            try:
                self.check_data(data)
            except DataError as exc:  # the game's own check: point at the owner's line
                raise DataError(located(str(exc), data, override)) from None
        return data

    def _package(self) -> str:
        return type(self).__module__.rpartition(".")[0] or type(self).__module__

    def earlier_data(self) -> list[str]:
        """The digests of the component data this game shipped before today's: a game
        started with one of them is resumed with its own values, not today's."""
        return earlier_digests(self._package())

    def check_data(self, data: GameData) -> None:
        """DataError unless the game can be played with `data`: each game's own checks
        run when its components are compiled (a new state), then one random game at the
        fewest and the most players shows that the values hold together."""
        from .playout import PLAYOUT_LIMIT, play_out
        from .rng import derive

        for players in sorted({self.min_players, self.max_players}):
            try:
                state = self.new_state(players, seed=1, data=data)
                play_out(state, derive(1, "check-data", players), limit=PLAYOUT_LIMIT)
            except DataError:
                raise
            except Exception as exc:  # what the values break is the message
                raise DataError(
                    f"{data.origin}: {self.title} cannot be played with these values "
                    f"({type(exc).__name__}: {exc})"
                ) from None

    def use_data_file(self, path: Path | str | None) -> None:
        """Make `data()` apply the owner's override file `path` (None: the shipped data)."""
        self._data_file = None if path is None else Path(path)
        self._data = None

    def data(self) -> GameData:
        """The default data (with the file given to `use_data_file`), loaded and checked
        once: a mistake in an owner's file is a DataError on the first use of the game."""
        if self._data is None:
            self._data = self.load_data(self._data_file)
        return self._data

    def resolve_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and check values; unknown option names are an error."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is for {self.min_players}-{self.max_players} players, not {players}"
            )
        given = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = set(given) - set(known)
        if unknown:
            raise ValueError(f"{self.title} has no option {', '.join(sorted(unknown))}")
        # a seats option naming no seat is left out unless given: the records of games
        # written before such an option existed stay as they were, byte for byte
        return {
            name: o.check(given.get(name, o.default), players)
            for name, o in known.items()
            if name in given or not (o.seats and o.default == "")
        }

    def new_state(
        self,
        players: int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        data: GameData | None = None,
    ) -> S:
        """The state before the first action (setup draws are chance actions)."""
        opts = self.resolve_options(players, options)
        state = self.state_class(players, seed, opts, data or self.data())
        state._begin()
        return state

    def state_from_dict(self, d: Mapping[str, Any], data: GameData | None = None) -> S:
        """Inverse of `State.to_dict()`; refuses a game recorded with other component data."""
        data = data or self.data()
        if d.get("data") not in (None, data.digest):
            raise ValueError(
                f"this {self.title} game was recorded with other component data "
                f"({d.get('data')}, now {data.digest}); load it with the same data file"
            )
        state = self.state_class(int(d["players"]), int(d["seed"]), dict(d["options"]), data)
        state._restore_common(d)
        return state

    def card_catalogue(self, data: GameData) -> list[tuple[str, int]]:
        """The game's physical chance pieces that can carry a tag, as (card, copies in the
        box); a card is written in the chance notation (docs/cards.md). Empty: none."""
        return []

    def card_faces(self, data: GameData) -> CardFaces | None:
        """The game's cards that are entered by their face rather than by a name from
        `card_catalogue` (engine.core.faces), if it has such cards; None: it has none."""
        return None

    kept_secrets: ClassVar[str | None] = None
    """A `seats` option naming the seats whose secrets the app keeps (a bot's): they are
    entered as they come rather than revealed at the end, since no one at the table may
    see them. None: the engine already has every secret when it comes."""

    hidden: ClassVar[tuple[str, ...]] = ()
    """The state fields that hold what some seat may not know (other seats' secrets);
    `determinize` re-samples them. Empty: a game of open information."""

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A copy of `state` as `seat` may believe it to be: the fields of `hidden` that
        it cannot see re-sampled from what is still possible (engine.core.hidden), the
        rest kept. It depends on what `seat` may know and on `rng`, never on the secrets
        it replaces, so a bot that searches determinizations never sees them."""
        new: S = state.clone()  # type: ignore[assignment]  # clone keeps the class
        self.resample(new, seat, rng)
        new._legal = None
        return new

    def resample(self, state: S, seat: int, rng: random.Random) -> None:
        """Re-sample in place the `hidden` fields `seat` cannot see; a game with hidden
        fields overrides it (the default: nothing is hidden)."""

    horizon: ClassVar[int | None] = None
    """How many actions a bot's search plays on past its tree before it judges the
    position by `evaluate_seats` (engine.bots.ismcts); None: every playout goes to the
    end. A game whose random games are slow cuts them short here."""

    shortlist: ClassVar[int | None] = None
    """How many of a decision's actions a bot's search considers, the best by
    `evaluate_seats` one step ahead (engine.bots.ismcts); None: all. For a game whose
    turns offer dozens of actions, most of them plainly worse, where the search's
    playouts would otherwise be spread too thin to tell the good ones apart."""

    margin: ClassVar[float] = 10.0
    """A clear lead in `evaluate_seats`'s currency: a search judging a position by the
    evaluation rewards a lead of this much with about 0.73 (engine.bots.greedy.judge)."""

    def evaluate_seats(self, obs: Observation, seat: int) -> list[float]:
        """Each seat's standing as `seat` sees it in `obs` (its own observation): what the
        greedy bot plays for (its own standing against the best other's) and what a
        search judges a playout cut at `horizon` by. Bots read a game only through this,
        so it lives with the game. By default the scores the table may see (all level
        while they are secret); a game overrides it with a heuristic of its own."""
        if obs.scores is None:
            return [0.0] * obs.seats
        return [float(score) for score in obs.scores]

    def flow_diagram(self) -> str:
        """The phase machine as Mermaid text, drawn from the game's `flow`."""
        return self.flow.mermaid()


class State(ABC):
    """A position of one game. Subclasses keep their fields plain and copyable.

    A subclass declares its fields once in `FIELDS` (engine.core.fields); the core then
    generates `_fields`, `_load_fields` and `clone` for it, unless the class writes its
    own. `observe()` is the only way views and bots read a position.
    """

    game: ClassVar[Game[Any]]
    FIELDS: ClassVar[Fields | None] = None
    """The declared fields; None for a class that writes its own persistence and clone."""
    setup_phases: ClassVar[frozenset[str]] = frozenset({"setup"})
    """Phases in which the table is still being set up (`in_setup()`)."""
    secret_scores: ClassVar[bool] = False
    """True when the rulebook keeps scores secret until the end (Strozzi's money): the
    public observation then shows none."""
    phase: str
    """The current phase name, driven by the game's `Flow`."""
    revealing: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Event kind -> why an action that caused it cannot be taken back: the game's
    `Rulebook.revealing` (the events by which its rules show something hidden)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("FIELDS")
        if own is None:
            return
        parents = (getattr(b, "FIELDS", None) for b in cls.__mro__[1:])
        inherited = next((f for f in parents if f is not None), None)
        declared = inherited + own if inherited is not None else own
        cls.FIELDS = declared
        for name, method in declared.compile(cls.__qualname__).items():
            if name not in cls.__dict__:
                method.__qualname__ = f"{cls.__qualname__}.{name}"
                setattr(cls, name, method)

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        self.players = players
        self.seats = players  # seats at the board: a solo game adds its automa's
        self.seed = seed
        self.options = options
        self.data = data
        self.history: list[Action] = []
        self._legal: tuple[Action, ...] | None = None

    # --- what a game provides -------------------------------------------------
    @abstractmethod
    def current_player(self) -> int | None:
        """A seat index, CHANCE, or None once the game is over."""

    @abstractmethod
    def _legal_texts(self) -> Sequence[str]:
        """Notation of every legal action of the current player (not called when over)."""

    @abstractmethod
    def _apply(self, text: str) -> list[Event]:
        """Carry out a legal action. Never raises for an action from `_legal_texts`."""

    def _apply_quietly(self, text: str) -> None:
        """`_apply` for a search's playout, whose events nobody reads: a game whose rules
        skip building them (`engine.core.QUIET`) overrides it; by default they are built
        and dropped."""
        self._apply(text)

    @abstractmethod
    def scores(self) -> list[int]:
        """Points (or money) per seat; final once `is_over()`."""

    @abstractmethod
    def winner(self) -> list[int]:
        """Winning seats after the rulebook's tie-breaks; several only for a shared win."""

    @abstractmethod
    def is_notation(self, text: str) -> bool:
        """Whether `text` (normalised) is this game's notation at all: it starts with one
        of its verbs. Decides between `UnknownNotation` and a plain `IllegalAction`."""

    @abstractmethod
    def _fields(self) -> dict[str, Any]:
        """The game-specific part of `to_dict()`: JSON types only (generated from FIELDS)."""

    @abstractmethod
    def _load_fields(self, d: Mapping[str, Any]) -> None:
        """Inverse of `_fields()` (generated from FIELDS)."""

    def _begin(self) -> None:  # noqa: B027 - a hook: most games need nothing here
        """Called once on a new game (never on a restored one), after `__init__`."""

    def _after_load(self) -> None:  # noqa: B027 - a hook: most games need nothing here
        """Rebuild what is derived from the stored fields (an index, a cache)."""

    def explain(self, text: str) -> str | None:
        """Why `text` is not allowed now, naming the rule; None for the generic message."""
        return None

    def chance_weights(self) -> Sequence[float] | None:
        """Weights of the chance outcomes (same order as legal actions); None = uniform."""
        return None

    def invariants(self) -> list[str]:
        """Broken invariants (empty when all hold); the conformance suite checks them."""
        return []

    _names: SeatNamer = staticmethod(seat_name)
    """How this state's sentences name a player: the caller's namer inside `naming`."""

    def name(self, player: int) -> str:
        """A player inside a sentence: 'seat 2', or the caller's name for it."""
        return self._names(player)

    def who(self, player: int) -> str:
        """A player in a sentence's first words: 'Seat 2', or the caller's name for it."""
        return capital(self._names(player))

    @contextmanager
    def naming(self, names: SeatNamer) -> Iterator[None]:
        """Sentences built inside this block name players by `names` (through `name` and
        `who`), so a game's prompt functions need no namer argument of their own."""
        outer = self.__dict__.get("_names")  # a block inside another gives it back after
        self._names = names
        try:
            yield
        finally:
            if outer is None:
                del self._names
            else:
                self._names = outer

    def waiting_for(self) -> str:
        """`describe()` with the names of the enclosing `naming` block: what a reason
        inside a refusal says the game waits for."""
        return self.describe(self._names)

    def describe(self, names: SeatNamer = seat_name) -> str:
        """A sentence about what the state waits for, for prompts and error messages;
        `names` says how to name a player (the table passes its seat names)."""
        player = self.current_player()
        if player is None:
            return "The game is over."
        return f"Waiting for {names(player)}."

    # --- scores in words (engine.core.scoring) ------------------------------------
    def score_steps(self, events: Sequence[Event], names: SeatNamer = seat_name) -> list[ScoreStep]:
        """The scoring steps among `events`, each with its sentence; a game without
        scoring events to explain gives none."""
        return []

    def standing_steps(self, names: SeatNamer = seat_name) -> list[ScoreStep]:
        """Points `scores()` counts in a game not over that no event has scored yet
        (Strada Romana's contracts, counted from what each seat holds until the Score);
        none for a game whose every point is an event."""
        return []

    def news(self, events: Sequence[Event], names: SeatNamer = seat_name) -> list[str]:
        """Every sentence the table says about `events`, in their order: the scoring
        steps, and a game's public news that is not points (Strada Romana's coins paid).
        By default the steps alone."""
        return [step.sentence for step in self.score_steps(events, names)]

    def standings(self) -> list[tuple[int, int]]:
        """(seat, score) for every seat at the board; a solo game adds its automa's."""
        return list(enumerate(self.scores()))

    def winning_seats(self) -> list[int]:
        """`winner()`, or the automa's seat when a solo game's automa won."""
        return self.winner()

    def label(self, player: int, names: SeatNamer = seat_name) -> str:
        """A seat in a result: `names(player)`, or the automa's name for its seat."""
        return names(player)

    def tiebreak(self, names: SeatNamer = seat_name) -> str | None:
        """The rulebook's tie-break that decided the winner, as a sentence; None when
        the best score was not shared."""
        return None

    def result(self, names: SeatNamer = seat_name) -> str:
        """The end in one sentence: 'Seat 2 wins 220-180-150.', 'Strozzi (automa) wins
        245-43.', with the tie-break that decided it named."""
        if not self.is_over():
            return self.describe(names)
        table = self.standings()
        won = self.winning_seats()
        score = points_text([v for _, v in table])
        who = capital(joined([self.label(p, names) for p in won])) if won else "Nobody"
        if len(won) > 1:
            best = dict(table)[won[0]]
            sentence = f"{who} share the win with {best} ({score})."
        else:
            sentence = f"{who} wins {score}."
        reason = self.tiebreak(names)
        return f"{sentence} {reason}" if reason else sentence

    def in_setup(self) -> bool:
        """Whether the table is still being set up (the phase is one of `setup_phases`)."""
        return self.phase in self.setup_phases

    def _public_round(self) -> int | None:
        """The round in play, for the observation; None for a game without rounds."""
        return None

    # --- what an action showed ---------------------------------------------------
    def reveals(self, action: Action, events: Sequence[Event]) -> str | None:
        """Why `action`, just applied with `events`, can no longer be taken back because
        it showed a seat or the whole table something hidden until then; None when it
        showed nothing new. Only the engine knows what is hidden, so it says: a draw
        always shows what came up ("Chance is input"), and a seat's action shows
        something when one of its events is one the rules declare (`Rule.reveals`: a card
        discarded face up, a face-down deck looked through)."""
        if action.player == CHANCE:
            return DRAWN
        revealing = self.revealing
        for event in events:
            why = revealing.get(event.kind)
            if why is not None:
                return why
        return None

    # --- the read model -----------------------------------------------------------
    def observe(self, seat: int | None = None) -> Observation:
        """What `seat` may know now (None: the public table), as frozen named values."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.seats):
            raise ValueError(f"no seat {seat!r}: seats are 0-{self.seats - 1}")
        return self._observe(seat)

    def _observe(self, seat: int | None) -> Observation:
        """A game's observation; a game with secrets or a board of its own overrides it."""
        return Observation(**self._observed(seat))

    def _observed(self, seat: int | None) -> dict[str, Any]:
        """The fields every observation has, for a game's own observation class."""
        current = self.current_player()
        over = current is None
        return {
            "game": self.game.name,
            "players": self.players,
            "seats": self.seats,
            "seat": seat,
            "phase": self.phase,
            "setup": self.in_setup(),
            "round": self._public_round(),
            "current": current,
            "prompt": self.describe(),
            "over": over,
            "scores": None if self.secret_scores and not over else tuple(self.scores()),
            "winner": tuple(self.winner()) if over else (),
        }

    # --- the shared contract ----------------------------------------------------
    def is_over(self) -> bool:
        return self.current_player() is None

    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions of the current player, cached until the next `apply`."""
        legal = self._legal
        if legal is None:
            player = self.current_player()
            legal = () if player is None else tuple(Action(player, t) for t in self._legal_texts())
            self._legal = legal
        return legal

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The pending draw's outcomes with probabilities (empty unless CHANCE is to act)."""
        if self.current_player() != CHANCE:
            return []
        legal = self.legal_actions()
        weights = self.chance_weights() or [1.0] * len(legal)
        total = float(sum(weights))
        return [(a, w / total) for a, w in zip(legal, weights, strict=True)]

    def apply(self, action: Action | str) -> list[Event]:
        """Apply a legal action and return what happened; illegal input changes nothing."""
        if isinstance(action, str):
            action = self.parse_action(action)
        elif action not in self.legal_actions():
            self._reject(action.player, action.text)
        self._legal = None
        events = self._apply(action.text)
        self.history.append(action)
        return events

    def parse_action(self, text: str, player: int | None = None) -> Action:
        """The legal action whose notation is `text`, for `player` if given.

        Raises IllegalAction naming the rule when no legal action matches (GameOver,
        NotYourTurn or UnknownNotation where that is the reason), and for any input at all
        that is not a legal action: text from a card registry, a replay file or a terminal
        can hold anything (not a string, Unicode digits, a number of thousands of digits),
        and callers catch IllegalAction only.
        """
        if not isinstance(text, str):
            raise UnknownNotation(
                f"{_quote(repr(text))} is not an action: actions are written "
                f"in notation, like {self._example()}."
            )
        if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
            raise IllegalAction(
                f"{_quote(repr(player))} is not a seat: seats are numbered "
                f"0 to {self.players - 1} (and {CHANCE} for a draw)."
            )
        canon = normalise(text)
        if len(canon) > MAX_NOTATION:
            raise UnknownNotation(
                f"{_quote(canon)} is not an action: notation is a few words, "
                f"like {self._example()}."
            )
        current = self.current_player()
        if player is None or player == current:
            for action in self.legal_actions():
                if action.text == canon:
                    return action
        self._reject(current if player is None else player, canon)

    def refusal(self, text: str) -> str | None:
        """The game's `explain(text)`, or None when it has no reason or cannot give one.

        An explanation is only words for the table: a game's explain that trips over odd
        input (`int('²')`) must not turn a refused action into a crash.
        """
        try:
            return self.explain(text)
        except Exception:  # any failure falls back to the generic sentence
            return None

    def _example(self) -> str:
        legal = self.legal_actions()
        return f"'{legal[0].text}'" if legal else "'pass'"

    def _reject(self, player: int | None, text: str) -> NoReturn:
        current = self.current_player()
        if current is None:
            raise GameOver(f"The game is over; {_quote(text)} cannot be played.")
        if player != current:
            who = self.name(current) if current != CHANCE else "a card or tile draw"
            raise NotYourTurn(
                f"It is not {self.name(player if player is not None else current)}'s turn: "
                f"now it is {who}'s. {self.waiting_for()}"
            )
        reason = self.refusal(text)
        if not self.is_notation(text):
            raise UnknownNotation(
                reason or f"{_quote(text)} is not {self.game.title} notation (docs/notation.md)."
            )
        if reason is None:
            options = ", ".join(a.text for a in self.legal_actions()[:12])
            more = "" if len(self.legal_actions()) <= 12 else ", ..."
            reason = (
                f"{_quote(text)} is not possible now. {self.waiting_for()} "
                f"Possible: {options}{more}."
            )
        raise IllegalAction(reason)

    # --- persistence --------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data; `Game.state_from_dict` restores an identical state."""
        return {
            "game": self.game.name,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "data": self.data.digest,
            "history": [[a.player, a.text] for a in self.history],
            **self._fields(),
        }

    def _restore_common(self, d: Mapping[str, Any]) -> None:
        self.history = [Action(p, t) for p, t in d["history"]]
        self._load_fields(d)
        self._after_load()
        self._legal = None

    def clone(self) -> State:
        """An independent copy (generated from FIELDS; this generic one deep-copies)."""
        new = copy.copy(self)
        for key, value in self.__dict__.items():
            if key in ("data", "options"):
                continue
            new.__dict__[key] = copy.deepcopy(value)
        new._legal = self._legal
        return new

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.players}p after {len(self.history)} actions>"
