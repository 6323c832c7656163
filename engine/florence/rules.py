"""Florence: the rules of the rulebook, for 2-5 players, and solo against an automa.

`FlorenceState` is the facade: it holds the position (its fields declared once in
`FIELDS`), says whose turn it is, and hands every action to the rulebook's unit for it.
The units follow the rulebook's chapters, one module each:

- tables.py: Components;  society.py: Game Concepts, Rules of Society;
- setup.py: Setup, Before the First Round;  structure.py: Game Structure, Gain Time,
  Perform Actions, Cleanup;  flow.py: the phase machine;
- actions.py: Actions (Pass, Move, Rush, Brag, Dispatch, Promote, Give a Gift, Trading
  Scandals for Time);  scandals.py: Play a Scandal and the twelve cards;
  hand.py: Scandal Cards (drawing, the hand limit);
- nobles.py: The Nobles, Noble Movement, Queue Scoring;  end.py: Game End;
- solo.py, strozzi.py, solo_cards.py: Solo Mode;  observation.py: the read model.

docs/rules-index.md lists every heading's unit. Seats are numbered clockwise (seat i+1
is to the left of seat i). Locations are 0-based here and 1-based in notation. A family
member is a piece code `colour * 4 + rank` (society.py); each location's queue is a list
of them, Prime Position first, always in seniority order. A colour belongs to a seat
(`colours[colour]`): one each in a multiplayer game, two for the solo automa. A solo
game (`players == 1`) has a second seat for the automa, Palla Strozzi: per-seat lists
run over `seats`, while scores() and winner() list the players. Interpretations of
ambiguous rules: docs/florence-rulings.md. Notation: docs/notation.md, section Florence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from engine.core import (
    CHANCE,
    LISTS,
    SCALAR,
    SCALARS,
    TUPLES,
    Codec,
    Event,
    Field,
    Fields,
    Game,
    GameData,
    Observation,
    Option,
    Rule,
    Rulebook,
    ScoreStep,
    SeatNamer,
    State,
    Stored,
    optional,
    redeal,
    seat_name,
    tuples,
)

from . import evaluation, invariants, observation, score_words, solo
from .actions import (
    BRAG,
    DISPATCH,
    GIVE_A_GIFT,
    MOVE,
    PASS,
    PROMOTE,
    RUSH,
    TRADING,
    Brag,
    Travel,
)
from .end import (
    DECLARE_THE_WINNER,
    GAME_END,
    SCORE_SCHEMES,
    SCORE_TIME,
    FinalScore,
)
from .flow import FLOW, PHASES, SEAT_PHASES, TRANSITIONS
from .hand import SCANDAL_CARDS
from .nobles import NOBLE_MOVEMENT, QUEUE_SCORING, destination
from .scandals import PLAY_A_SCANDAL
from .seats import SEAT_KINDS, SeatKind
from .setup import BEFORE_THE_FIRST_ROUND, SETUP, chance_step
from .society import (
    SOCIETY,
    RulesOfSociety,
    enter,
    family_on_board,
    free,
    has_member,
    own_pieces,
    piece,
)
from .solo import STROZZIS_TURN
from .strozzi import SoloState
from .structure import CLEANUP, GAIN_TIME, GAME_STRUCTURE, PERFORM_ACTIONS
from .tables import DEBUTANT, DONNA, MAESTRO, NOBLES, SPOTS, Tables, tables_for

__all__ = [
    "FLOW",
    "PHASES",
    "RULEBOOK",
    "TRANSITIONS",
    "FlorenceGame",
    "FlorenceState",
]

SCANDAL_ENTRY = ("draw", "play")
NO_SPOTS = (-1,) * SPOTS
SOLO_VERBS = ("ok", "choose", "solo")

RULEBOOK: Rulebook[FlorenceState] = Rulebook(
    "Florence",
    [
        GAME_STRUCTURE,
        SETUP,
        BEFORE_THE_FIRST_ROUND,
        SOCIETY,
        GAIN_TIME,
        PERFORM_ACTIONS,
        SCANDAL_CARDS,  # 'keep' comes first at the hand limit: declining takes one press
        TRADING,  # discards come first at every decision, as they always were offered
        PASS,
        MOVE,
        RUSH,
        BRAG,
        DISPATCH,
        PROMOTE,
        GIVE_A_GIFT,
        PLAY_A_SCANDAL,
        NOBLE_MOVEMENT,
        QUEUE_SCORING,
        CLEANUP,
        GAME_END,
        SCORE_TIME,
        SCORE_SCHEMES,
        DECLARE_THE_WINNER,
        STROZZIS_TURN,
    ],
)
"""Every unit of the rules; the order is the order of legal actions in each phase (seeds,
bots and recorded games depend on it)."""

HOME: Mapping[str, Rule[Any]] = {
    verb: rule
    for rule in reversed(RULEBOOK.rules)
    for verbs in rule.plays.values()
    for verb in verbs
}
"""The unit that explains a refused verb in any phase (each verb has one home)."""

DRAWS: Mapping[str, tuple[Any, ...]] = {
    "setup": (SETUP, BEFORE_THE_FIRST_ROUND),
    "cleanup": (CLEANUP,),
    "noble_movement": (SCANDAL_CARDS,),
    "schemes": (SCORE_SCHEMES,),
}
"""The units whose draws the table makes in each chance phase, in the order of their texts."""

PROMPTS: Mapping[str, Any] = {
    "setup": SETUP.prompt,
    "placement": BEFORE_THE_FIRST_ROUND.prompt,
    "gain_time": GAME_END.prompt,  # never waited in: the round starts at once
    "actions": PERFORM_ACTIONS.prompt,
    "moving": RUSH.prompt,
    "noble_movement": SCANDAL_CARDS.prompt,
    "hand_limit": SCANDAL_CARDS.prompt,
    "queue_scoring": QUEUE_SCORING.prompt,
    "cleanup": CLEANUP.prompt,
    "final_discards": GAME_END.prompt,
    "schemes": SCORE_SCHEMES.prompt,
    "over": DECLARE_THE_WINNER.prompt,
}
"""What the table waits for, phase by phase: the unit of that phase says it."""


def _flat(chunk: int) -> Codec:
    """Tuples of `chunk` values per entry, stored as one flat list (as they always were)."""

    def load(v: list[int]) -> list[tuple[int, ...]]:
        return [tuple(v[i : i + chunk]) for i in range(0, len(v), chunk)]

    return Codec(dump=lambda v: [x for t in v for x in t], load=load, copy=list.copy)


def _copy_solo(solo_state: SoloState | None) -> SoloState | None:
    return None if solo_state is None else solo_state.copy()


class FlorenceState(State):
    """A Florence position: the facade over the rulebook's units (module docstring)."""

    revealing = RULEBOOK.revealing

    FIELDS = Fields(
        phase=SCALAR,
        round=SCALAR,
        first=SCALAR,
        turn=SCALAR,
        npassed=SCALAR,
        placed=SCALAR,
        gio_award=SCALAR,
        kinds=SCALARS,
        colours=SCALARS,
        time=SCALARS,
        vp=SCALARS,
        supply=SCALARS,  # by piece code: family members on the player boards
        exiled=SCALARS,  # by piece code: removed from the game by a scandal
        gifts_left=SCALARS,
        given=_flat(len(NOBLES)),  # given[seat][noble]: gifts given
        guards_left=SCALARS,
        markers_left=SCALARS,
        tiles=SCALARS,
        slots=_flat(SPOTS),  # slots[location][spot]: the seat whose brag marker is there
        carriage=SCALARS,
        bottom=SCALARS,  # the three carriage locations: the last three location tokens
        dial_time=SCALARS,
        dial_loc=SCALARS,
        rings=SCALARS,
        passed=SCALARS,
        deck=SCALARS,  # by card id: copies in each draw pile (draw mode)
        deck_left=SCALARS,
        discard=SCALARS,
        schemes=SCALARS,
        path=SCALARS,  # locations the active Noble has still to enter
        pending=SCALARS,  # seats owed a scandal card at the current location
        gio_order=SCALARS,
        gio_done=SCALARS,
        escorts=TUPLES,  # per road: the colours of its guards
        spies=TUPLES,
        bouncers=TUPLES,
        hands=TUPLES,
        queues=LISTS,
        travel=optional(of=Travel),
        final=tuples(of=FinalScore),  # per seat after the game: time VP, scheme VP
        solo=Field(Codec(dump=_copy_solo, load=_copy_solo, copy=_copy_solo), saved=False),
        solo_record=Stored(dump=solo.dump, load=solo.load, merge=True),
    )

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        t = self.tables = tables_for(data)
        # Solo: the human is seat 1 (index 0) and Palla Strozzi, the automa, a second seat
        # that counts as a player for the board but not in `players`, scores() or winner().
        n = self.seats = players + 1 if players == 1 else players
        self.automa = players if players == 1 else -1
        self.cap = t.capacity(n)
        self.nbrs = t.neighbours  # roads a family member may take (solo: fewer, strozzi.py)
        self.draw_mode = options.get("scandal_entry", "draw") == "draw"
        self.phase = FLOW.initial
        self.round = 0
        self.first = -1
        self.turn = -1
        self.kinds = ["player"] * n
        self.colours = list(range(n))  # the seat owning each colour
        self.owner = self.owners()  # piece code -> seat (derived from colours)
        self.time = [t.time_at_start] * n
        self.vp = [0] * n
        self.supply = [0] * (4 * n)
        self.exiled = [0] * (4 * n)
        for c in range(n):
            for r in (DEBUTANT, DONNA, MAESTRO):
                self.supply[piece(c, r)] = t.family[r]
        self.gifts_left = [t.gifts_at_start] * n
        self.given: list[tuple[int, ...]] = [(0,) * len(NOBLES)] * n
        self.guards_left = [t.guards] * n
        self.markers_left = [t.brag_markers] * n
        self.queues: list[list[int]] = [[] for _ in range(t.locations)]
        self.tiles = [-1] * t.locations
        self.slots: list[tuple[int, ...]] = [NO_SPOTS] * t.locations
        self.escorts: list[tuple[int, ...]] = [()] * len(t.roads)
        self.spies: list[tuple[int, ...]] = [()] * t.locations
        self.bouncers: list[tuple[int, ...]] = [()] * t.locations
        self.carriage = [-1, -1, -1]
        self.bottom: list[int] = []
        self.dial_time = [0] * t.rounds
        self.dial_time[0] = t.first_round_time
        self.dial_loc = [-1] * t.rounds
        self.rings = [-1] * n
        self.passed = [False] * n
        self.npassed = 0
        self.hands: list[tuple[str, ...]] = [()] * n
        self.deck = [t.copies] * len(t.cards)
        self.deck_left = [t.copies * sum(1 for c in t.cards if c.noble == k) for k in NOBLES]
        self.discard = [0] * len(t.cards)
        self.schemes = [-1] * n
        self.placed = 0
        self.travel: Travel | None = None
        self.path: list[int] = []
        self.pending: list[int] = []
        self.gio_order: list[int] = []
        self.gio_award = 0
        self.gio_done: list[int] = []
        self.final: list[FinalScore] = []
        self.solo: SoloState | None = solo.seat_strozzi(self) if self.automa >= 0 else None
        self.pieces_memo: tuple[int, int, list[tuple[int, int, int]]] | None = None  # mine()

    def _after_load(self) -> None:
        self.owner = self.owners()

    def _begin(self) -> None:
        GAME_STRUCTURE.advance(self, [])

    # --- small helpers the units share -------------------------------------------------
    def kind(self, seat: int) -> SeatKind:
        return SEAT_KINDS[self.kinds[seat]]

    def owners(self) -> list[int]:
        """Piece code -> the seat owning it (each colour has four codes)."""
        return [seat for seat in self.colours for _ in range(4)]

    def colour(self, seat: int) -> int:
        """The colour a seat's new pieces and guards take (its first colour)."""
        return self.colours.index(seat)

    def active_noble(self) -> int:
        return self.tables.active_noble(self.round)

    def destination(self, noble: int) -> int:
        return destination(self, noble)

    def gain_time(self, seat: int, amount: int) -> int:
        """Add time up to the cap (Gain Time); returns what was really gained."""
        return GAIN_TIME.gain(self, seat, amount)

    def strozzis_turn(self) -> bool:
        """Whether the solo automa's turn is what the table waits for."""
        return self.automa >= 0 and self.turn == self.automa and self.phase in SEAT_PHASES

    # --- the board, for tests and tools (the units use society.py) --------------------------
    def _enter(self, loc: int, code: int) -> int:
        return enter(self, loc, code)

    def _free(self, loc: int) -> bool:
        return free(self, loc)

    def own_pieces(self, seat: int) -> list[tuple[int, int, int]]:
        return own_pieces(self, seat)

    def family_on_board(self, seat: int) -> int:
        return family_on_board(self, seat)

    def has_member(self, seat: int, loc: int) -> bool:
        return has_member(self, seat, loc)

    def ranking(self, loc: int) -> list[int]:
        return RulesOfSociety.ranking(self, loc)

    def controller(self, loc: int) -> int:
        return RulesOfSociety.controller(self, loc)

    def brag_vp(
        self, seat: int, tile_loc: int, counts: list[int] | None = None, played: int = 0
    ) -> int:
        return Brag.vp(self, seat, tile_loc, counts, played)

    def brag_spot(self, loc: int, vp: int) -> int:
        return Brag.spot(self, loc, vp)

    def scheme_count(self, seat: int) -> int:
        return SCORE_SCHEMES.count(self, seat)

    def scheme_vp(self, seat: int) -> int:
        return SCORE_SCHEMES.vp(self, seat)

    def _chance_step(self) -> tuple[str, int]:
        """What the table draws next: (kind, detail)."""
        phase = self.phase
        if phase == "setup":
            return chance_step(self)
        if phase == "cleanup":
            return CLEANUP.slot(self)
        if phase == "noble_movement":
            return "draw", self.active_noble()
        if phase == "schemes":
            return "scheme", SCORE_SCHEMES.next_seat(self)
        raise AssertionError(f"no chance step in phase {phase}")  # pragma: no cover

    # --- whose turn, and the rulebook -------------------------------------------------------
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
        return RULEBOOK.texts(self)

    def _apply(self, text: str) -> list[Event]:
        if self.phase in SEAT_PHASES:
            events: list[Event] = []
            SEAT_KINDS[self.kinds[self.turn]].apply(self, self.turn, text, events)
        else:
            events = RULEBOOK.apply(self, text)
        GAME_STRUCTURE.advance(self, events)
        return events

    def decision_texts(self, seat: int) -> Sequence[str]:
        """What the seat in turn may do: every unit of the phase, in the rulebook's order."""
        self.pieces_memo = None
        return RULEBOOK.texts(self)

    def apply_decision(self, seat: int, text: str, events: list[Event]) -> None:
        RULEBOOK.apply(self, text, events)

    def chance_weights(self) -> Sequence[float] | None:
        if self.current_player() != CHANCE:
            return None
        if self.phase in SEAT_PHASES:  # a seat whose decisions are card draws
            return SEAT_KINDS[self.kinds[self.turn]].weights(self, self.turn)
        return [w for rule in DRAWS[self.phase] for _, w in rule.draws(self)]

    # --- results ----------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """VP of the players at the table (solo: the human only; Strozzi's are `vp[1]`)."""
        return self.vp[: self.players]

    def winner(self) -> list[int]:
        return DECLARE_THE_WINNER.winner(self)

    # --- scores in words (score_words.py) ----------------------------------------------------
    def standings(self) -> list[tuple[int, int]]:
        """Every seat at the board with its VP, the solo automa's included."""
        return list(enumerate(self.vp[: self.seats]))

    def winning_seats(self) -> list[int]:
        won = self.winner()
        return won if won or self.automa < 0 else [self.automa]

    def label(self, player: int, names: SeatNamer = seat_name) -> str:
        return score_words.label(self, player, names)

    def tiebreak(self, names: SeatNamer = seat_name) -> str | None:
        return score_words.tiebreak(self, names) if self.is_over() else None

    def score_steps(self, events: Sequence[Event], names: SeatNamer = seat_name) -> list[ScoreStep]:
        return score_words.steps(self, events, names)

    # --- words for the table ----------------------------------------------------------------
    def describe(self, names: SeatNamer = seat_name) -> str:
        """The prompt, naming seats by `names` (the prompts reach it through `who`/`name`)."""
        with self.naming(names):
            if self.strozzis_turn():
                return STROZZIS_TURN.prompt(self)
            prompt: str = PROMPTS[self.phase](self)
            return prompt

    def explain(self, text: str) -> str | None:
        """Why `text` is not allowed now: the unit that owns its verb says, naming the rule."""
        words = text.split()
        if not words:
            return "Say what to do: an action starts with a verb such as move, brag or pass."
        verb, arg = words[0], " ".join(words[1:])
        if verb not in HOME:
            return f"'{verb}' is not Florence notation: see docs/notation.md, section Florence."
        if verb in SOLO_VERBS or self.strozzis_turn():
            return STROZZIS_TURN.refuse(self, verb, arg)
        return HOME[verb].refuse(self, verb, arg)

    def is_notation(self, text: str) -> bool:
        return RULEBOOK.is_notation(text)

    def invariants(self) -> list[str]:
        return invariants.broken(self)

    # --- the read model ---------------------------------------------------------------------
    def _public_round(self) -> int | None:
        return self.round

    def _observe(self, seat: int | None) -> Observation:
        return observation.observe(self, seat)


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

    hidden = ("hands", "deck")

    def resample(self, state: FlorenceState, seat: int, rng: Any) -> None:
        """Other seats' scandal cards are secret; which Noble's pile each came from is
        public. Each Noble's unseen cards (its draw pile and the others' cards from it) are
        redealt: every other hand keeps its size and the pile of each card. Schemes are
        entered only at the end, in the open, so they need nothing; in play mode a hand
        holds Nobles' names, which everyone knows."""
        if not state.draw_mode:
            return
        t = state.tables
        others = [s for s in range(state.seats) if s != seat]
        for noble in range(len(t.nobles)):
            kinds = set(t.deck(noble))
            pool = [i for i in kinds for _ in range(state.deck[i])]
            slots = []
            for other in others:
                held = [t.card_index[c] for c in state.hands[other] if c in t.card_index]
                mine = [i for i in held if i in kinds]
                pool += mine
                slots.append(len(mine))
            if not any(slots):
                continue
            dealt, left = redeal(slots, pool, rng)
            for i in kinds:
                state.deck[i] = left.count(i)
            for other, count in zip(others, slots, strict=True):
                cards = iter(dealt[:count])
                dealt = dealt[count:]
                state.hands[other] = tuple(
                    t.cards[next(cards)].name
                    if c in t.card_index and t.card_index[c] in kinds
                    else c
                    for c in state.hands[other]
                )

    horizon = 0
    """A search judges each new node by the evaluation at once, with no random playout
    after it: random seats waste time on moves that score nothing, so a playout made
    the seat that stopped acting (passing, then taking bonuses) look ahead, and the bot
    passed nearly every round. The evaluation counts the queue scoring to come
    (engine.florence.evaluation), so the tree itself looks ahead (docs/bots.md)."""

    shortlist = 8
    """A turn offers ~40 actions (nine places for a pass ring alone): with 48 playouts
    each had one or two, and the choice among them was noise."""

    margin = 30.0
    """A clear lead in expected VP (final scores run to 150-250 at 3 players)."""

    def evaluate_seats(self, obs: Observation, seat: int) -> list[float]:
        """For the bots: each seat's expected VP as the table stands, the queue scoring to
        come included (engine.florence.evaluation)."""
        return evaluation.evaluate(cast(observation.FlorenceObservation, obs))

    def resolve_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Solo difficulty switches not given follow the `difficulty` preset; all are recorded,
        so a replay needs no preset to reproduce them."""
        return solo.resolve_difficulty(super().resolve_options(players, options), options or {})

    def card_catalogue(self, data: GameData) -> list[tuple[str, int]]:
        """Scandal cards, schemes, brag tiles, the dial's time and location tokens, solo cards."""
        t: Tables = tables_for(data)
        scandals = [(f"draw {t.nobles[c.noble]} {c.name}", t.copies) for c in t.cards]
        schemes = [(f"scheme {name}", 1) for name in t.schemes]
        tiles = [(f"tile {tile.name}", 1) for tile in t.tiles]
        time = [(f"token time {n}", 1) for n in t.time_tokens]
        places = [(f"token location {n}", 1) for n in range(1, t.locations + 1)]
        solo_cards = [(f"solo {n}", 1) for n in range(1, len(t.solo_actions) + 1)]
        return scandals + schemes + tiles + time + places + solo_cards
