"""Strada Romana: the rules of the rulebook, for 2-5 players, one unit per heading.

A turn is a few small actions so that seat buttons can enter it: `buy` a special move
(optional, first), then `step WAGON SQUARE` once per square, `stop` to end a wagon's
move, `collect ...` where it stopped, and `end` when steps are optional. Each heading of
the rulebook is one `engine.core.Rule`, holding the grammar, legal texts, effect and
refusal of the actions it governs, in the module of its chapter:

- setup.py: Game Setup, Starting Coins
- movement.py: Playing the Game, a) Moving the Wagons, The Wagons (the must-move search)
- goods.py: Wagon's Position and "Ware" Tiles, Taking "Ware" Tiles, Taking Cubes
- payouts.py: Contracts, c) Pass (coins changed into victory points)
- special_moves.py: Special Moves, Traffic Jam
- wagon_tiles.py: b) Choose a "Wagon Tile", Wagon Tiles
- scoring.py: Game End, Score (score_words.py says each scoring step and the tie-break)

This module binds them into `RULEBOOK` in the rulebook's order (docs/rules-index.md lists
them) and holds the state, the facade the rest of Tavola uses; flow.py has the phases,
record.py the record's format. A wagon tile is chosen by the player who takes it ("pick
the 'wagon tiles' deck up and choose one of them"), so its identity is that seat's own
input, never a draw: entered when taken (option `wagon_tiles = "when_taken"`) or when
revealed at the end. The engine keeps it; the public observation has no field for it
before the end (observation.py). Interpretations of ambiguous rules are listed in
docs/strada-romana-rulings.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from engine.core import (
    CHANCE,
    LISTS,
    SCALAR,
    SCALARS,
    Event,
    Field,
    Fields,
    Game,
    GameData,
    Observation,
    Option,
    Rulebook,
    ScoreStep,
    SeatNamer,
    State,
    Stored,
    redeal,
    seat_name,
)

from . import evaluation, record, score_words
from .board import (
    ARRIVED,
    TO_ROME,
    UNPLACED,
    SpecialMove,
    arrivals_by_heading,
    board_for,
    occupancy,
)
from .flow import FLOW, MOVE_PHASES, PHASES, SETUP_PHASES, TRANSITIONS
from .goods import TAKING_CUBES, TAKING_WARES, WAGONS_POSITION
from .movement import MOVING, PLAYING, THE_WAGONS
from .payouts import CONTRACTS, PASS
from .scoring import GAME_END, SCORE
from .setup import GAME_SETUP, STARTING_COINS
from .special_moves import SPECIAL_MOVES, TRAFFIC_JAM
from .wagon_tiles import CHOOSING, UNKNOWN, WAGON_TILES

if TYPE_CHECKING:  # the observation builds on these rules
    from .observation import StradaRomanaObservation

__all__ = ["FLOW", "PHASES", "RULEBOOK", "TRANSITIONS", "StradaRomanaGame", "StradaRomanaState"]

RULEBOOK: Rulebook[StradaRomanaState] = Rulebook(
    "Strada Romana",
    [
        GAME_SETUP,
        STARTING_COINS,
        PLAYING,
        MOVING,
        THE_WAGONS,
        WAGONS_POSITION,
        TAKING_WARES,
        TAKING_CUBES,
        CONTRACTS,
        SPECIAL_MOVES,
        TRAFFIC_JAM,
        CHOOSING,
        PASS,
        GAME_END,
        SCORE,
        WAGON_TILES,
    ],
    # the menus: special moves 'at the beginning of their turn', then a move, a tile or a
    # pass; after a wagon's move, its goods first, then the next wagon or the end
    offers={
        "turn": (SPECIAL_MOVES, MOVING, CHOOSING, PASS),
        "stopped": (TAKING_CUBES, TAKING_WARES, MOVING),
    },
)

PROMPTS = {
    **dict.fromkeys(SETUP_PHASES, GAME_SETUP.prompt),
    "turn": PLAYING.prompt,
    "special": SPECIAL_MOVES.prompt,
    "moving": MOVING.prompt,
    "stopped": MOVING.prompt,
    "wagon_tile": CHOOSING.prompt,
    "reveal": WAGON_TILES.prompt,
}
"""What each phase waits for, in words (the refill's depends on what is drawn)."""


# --- the state ---------------------------------------------------------------------------
class StradaRomanaState(State):
    """A Strada Romana position: small integer lists, so clone and legal moves stay cheap.

    Wagon positions are square indices of `Board` (or UNPLACED / ARRIVED). While a
    wagon moves it is lifted off `occ`, so a stacking move may pass over others. The
    record names wagons, squares and colours (`FIELDS`).
    """

    FIELDS = Fields(
        phase=SCALAR,
        cursor=SCALAR,
        first=SCALAR,
        seat=SCALAR,
        turn=SCALAR,
        last=SCALARS,
        wagons=Stored(record.dump_wagons, record.load_wagons),
        arrived=Stored(record.dump_arrived, record.load_arrived, copy=SCALARS),
        markets=Stored(record.dump_markets, record.load_markets),
        areas=Stored(record.dump_areas, record.load_areas),
        bag=Stored(record.dump_bag, record.load_bag),
        coins=SCALARS,
        vp=SCALARS,
        cubes=Stored(record.dump_cubes, record.load_cubes, copy=LISTS),
        tiles=Stored(record.dump_tiles, record.load_tiles, copy=LISTS),
        wagon_tiles=Stored(record.dump_wagon_tiles, record.load_wagon_tiles, copy=LISTS),
        move=Stored(record.dump_move, record.load_move),
        refill=Stored(record.dump_refill, record.load_refill),
        ended=SCALAR,
        # stored above by name, copied as they are:
        pos=Field(SCALARS, saved=False),
        head=Field(SCALARS, saved=False),
        occ=Field(SCALARS, saved=False),
        finished=Field(SCALARS, saved=False),
        market=Field(SCALARS, saved=False),
        area=Field(SCALARS, saved=False),
        bag_cubes=Field(SCALARS, saved=False),
        bag_tiles=Field(SCALARS, saved=False),
    )
    setup_phases = SETUP_PHASES
    revealing = RULEBOOK.revealing

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        b = self.board = board_for(data)
        n, colours, wagons = players, len(b.colours), len(b.wagons)
        self.phase = FLOW.initial
        self.cursor = 0  # which start square, area or market the setup draw is for
        self.first = -1
        self.seat = 0
        self.turn = 0
        self.last = [-1] * n  # turn number of each seat's latest turn (tie-break)
        self.pos = [UNPLACED] * wagons
        self.head = [TO_ROME] * wagons
        self.occ = [-1] * b.finish
        self.arrived: list[int] = []
        self.finished = [0, 0]  # arrivals per heading
        self.market = [-1] * len(b.market_square)
        self.area = [-1] * len(b.area_names)
        self.bag_cubes = [b.cubes_each] * colours
        self.bag_tiles = [b.tiles_each] * colours
        self.coins = [0] * n
        self.vp = [0] * n
        self.cubes = [[0] * colours for _ in range(n)]
        self.tiles = [[0] * colours for _ in range(n)]
        self.wagon_tiles: list[list[int]] = [[] for _ in range(n)]  # wagon index or UNKNOWN
        self.special = SpecialMove.NONE  # bought this turn
        self.used = 0  # steps taken this turn
        self.moved = 0  # bit mask of wagons that moved this turn
        self.mover = -1  # the wagon moving now
        self.trail = 0  # squares of its column the mover has left (it does not go back)
        self.stop_at = -1  # where the last wagon ended its move (collecting)
        self.took = 0  # goods collected this turn
        self.refill_kind = ""  # "cube" or "ware" while a refill is drawn
        self.refill_at = -1  # market or area index
        self.ended = ""  # why the game ended: "arrivals" or "victory points"
        self._texts: Sequence[str] | None = None  # legal texts computed while applying
        self._first: list[tuple[int, int]] | None = None  # first steps of this position

    def _after_load(self) -> None:
        self.finished = arrivals_by_heading(self.arrived, self.head)
        self.occ = occupancy(self.board, self.pos, self.mover)
        self._texts = self._first = None

    # --- whose turn, and what may be done -----------------------------------------------
    def current_player(self) -> int | None:
        phase = self.phase
        if phase in MOVE_PHASES or phase == "wagon_tile":
            return self.seat
        if phase == "reveal":
            return WAGON_TILES.unrevealed(self).seat
        if phase == "over":
            return None
        return CHANCE

    def _legal_texts(self) -> Sequence[str]:
        texts = self._texts
        return texts if texts is not None else RULEBOOK.texts(self)

    def _apply(self, text: str) -> list[Event]:
        self._texts = self._first = None
        return RULEBOOK.apply(self, text)

    def chance_weights(self) -> Sequence[float] | None:
        phase = self.phase
        if phase == "cubes" or (phase == "refill" and self.refill_kind == "cube"):
            return [float(k) for k in self.bag_cubes if k]
        if phase == "refill":
            return [float(k) for k in self.bag_tiles if k]
        return None

    # --- results ---------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return SCORE.total(self)

    def winner(self) -> list[int]:
        return SCORE.winner(self)

    # --- scores in words (score_words.py) ---------------------------------------------------
    def score_steps(self, events: Sequence[Event], names: SeatNamer = seat_name) -> list[ScoreStep]:
        return score_words.steps(self, events, names)

    def standing_steps(self, names: SeatNamer = seat_name) -> list[ScoreStep]:
        return [] if self.is_over() else score_words.standing(self, names)

    def news(self, events: Sequence[Event], names: SeatNamer = seat_name) -> list[str]:
        return score_words.news(self, events, names)

    def tiebreak(self, names: SeatNamer = seat_name) -> str | None:
        return score_words.tiebreak(self, names) if self.is_over() else None

    def contract_points(self, seat: int) -> int:
        return SCORE.contract_points(self, seat)

    def wagon_points(self, seat: int) -> int:
        return WAGON_TILES.points(self, seat)

    # --- words for the table ---------------------------------------------------------------
    def describe(self, names: SeatNamer = seat_name) -> str:
        """The prompt, naming seats by `names` (the prompts reach it through `who`)."""
        with self.naming(names):
            if self.phase == "refill":
                rule = TAKING_CUBES if self.refill_kind == "cube" else TAKING_WARES
                return rule.prompt(self)
            prompt = PROMPTS.get(self.phase)
            return prompt(self) if prompt is not None else "The game is over."

    def explain(self, text: str) -> str | None:
        if not text.split():
            return "That is an empty action. " + self.waiting_for()
        return RULEBOOK.explain(self, text, self.waiting_for())

    def is_notation(self, text: str) -> bool:
        return RULEBOOK.is_notation(text)

    # --- the read model --------------------------------------------------------------------
    def _observe(self, seat: int | None) -> Observation:
        from .observation import observe  # the observation builds on these rules

        return observe(self, seat)

    # --- invariants ------------------------------------------------------------------------
    def invariants(self) -> list[str]:
        return [
            *self._goods_invariants(),
            *self._coin_invariants(),
            *self._wagon_invariants(),
            *self._arrival_invariants(),
            *self._tile_invariants(),
            *self._move_invariants(),
        ]

    def _goods_invariants(self) -> list[str]:
        b = self.board
        broken = []
        for c in range(len(b.colours)):
            cubes = self.bag_cubes[c] + self.market.count(c) + sum(p[c] for p in self.cubes)
            if cubes != b.cubes_each:
                broken.append(f"{b.colours[c]} cubes not conserved ({cubes})")
            tiles = self.bag_tiles[c] + self.area.count(c) + sum(p[c] for p in self.tiles)
            if tiles != b.tiles_each:
                broken.append(f"{b.colours[c]} ware tiles not conserved ({tiles})")
        if any(k < 0 for k in self.bag_cubes + self.bag_tiles):
            broken.append("a bag count is negative")
        return broken

    def _coin_invariants(self) -> list[str]:
        b = self.board
        broken = []
        # 0-4 coins in play; the payout that gave out the 20th victory point is kept whole
        most = b.coins_total if self.ended == "victory points" else b.coins_per_vp - 1
        if any(not 0 <= c <= most for c in self.coins):
            broken.append(f"coins out of 0..{most}: {self.coins}")
        if sum(self.coins) > b.coins_total or sum(self.vp) > b.vp_tokens or min(self.vp) < 0:
            broken.append("more coins or victory points out than the box holds")
        return broken

    def _wagon_invariants(self) -> list[str]:
        wagons = self.board.wagons
        resting = {w: sq for w, sq in enumerate(self.pos) if sq >= 0 and w != self.mover}
        broken = ["two wagons on one square"] if len(set(resting.values())) != len(resting) else []
        broken += [
            f"{wagons[w]} is not where the board says"
            for w, sq in resting.items()
            if self.occ[sq] != w
        ]
        if sum(1 for o in self.occ if o >= 0) != len(resting):
            broken.append("the board shows a wagon that is not there")
        return broken

    def _arrival_invariants(self) -> list[str]:
        b = self.board
        broken = []
        placed = sum(1 for sq in self.pos if sq >= 0)
        if self.phase != "wagons" and placed + len(self.arrived) != len(b.wagons):
            broken.append("wagons lost")
        if (
            len(self.arrived) > b.arrivals
            or self.pos.count(ARRIVED) != len(self.arrived)
            or sum(self.finished) != len(self.arrived)
        ):
            broken.append("arrivals out of step")
        return broken

    def _tile_invariants(self) -> list[str]:
        b = self.board
        broken = []
        held = [len(h) for h in self.wagon_tiles]
        if max(held) > b.max_wagon_tiles or sum(held) > b.deck:
            broken.append("more wagon tiles held than allowed")
        known = [w for h in self.wagon_tiles for w in h if w != UNKNOWN]
        if len(set(known)) != len(known):
            broken.append("one wagon tile held twice")
        return broken

    def _move_invariants(self) -> list[str]:
        broken = []
        moving = self.phase == "moving"
        if (
            self.used > self.board.allowance(self.special)
            or moving != (self.mover >= 0)
            or moving != bool(self.trail)
        ):
            broken.append("the move in progress is inconsistent")
        if (
            moving
            and self.occ[self.pos[self.mover]] >= 0
            and not self.special.includes(SpecialMove.STACKING)
        ):
            broken.append("a wagon passes over another without stacking")
        if self.phase == "over" and not self.ended:
            broken.append("the game is over without a reason")
        return broken


class StradaRomanaGame(Game[StradaRomanaState]):
    name = "strada_romana"
    title = "Strada Romana"
    state_class = StradaRomanaState
    flow = FLOW
    min_players = 2
    max_players = 5
    options = (
        Option(
            "first",
            "random",
            "the starting player: 'random' asks for a draw as the rulebook says; "
            "a seat index when the table has chosen",
            choices=("random", 0, 1, 2, 3, 4),
            seat=True,
        ),
        Option(
            "wagon_tiles",
            "at_end",
            "when wagon tile identities are entered: 'when_taken' (scanned as taken) "
            "or 'at_end' (revealed at the end)",
            choices=("at_end", "when_taken"),
        ),
        Option(
            "named_tiles",
            "",
            "seats (from 1, with commas) that name each wagon tile as they take it "
            "whatever `wagon_tiles` says: the seats whose tiles the app keeps (a bot's)",
            seats=True,
        ),
    )
    kept_secrets = "named_tiles"
    conformance_options = (
        {},
        {"wagon_tiles": "when_taken"},
        {"first": 1},
        {"first": 0, "wagon_tiles": "when_taken"},
        {"named_tiles": "2"},
    )

    hidden = ("wagon_tiles",)

    horizon = 20
    """About two rounds of turns at 3 players (its actions are single steps): its slow
    random games, played to the end, kept a search below 48 playouts in 0.2 s
    (docs/bots.md)."""

    margin = 4.0
    """A clear lead in points (final scores run to 10-25)."""

    def evaluate_seats(self, obs: Observation, seat: int) -> list[float]:
        """For the bots: each seat's score as the rulebook counts it at the end, what is
        still open valued by what it may become (engine.strada_romana.evaluation)."""
        return evaluation.evaluate(cast("StradaRomanaObservation", obs))

    def resample(self, state: StradaRomanaState, seat: int, rng: Any) -> None:
        """Other seats' wagon tiles are face down until the reveal (how many each holds is
        public): the named ones are redealt from the wagons `seat` does not hold, one tile
        per wagon; a tile not named yet (UNKNOWN) is unknown to the engine too. While the
        seat itself picks from the deck it sees the tiles left, so then only the others'
        tiles are shuffled among them. (What a seat saw in the deck earlier is not
        remembered: a determinization may give others tiles it knows were in the deck.)"""
        if state.phase in ("reveal", "over"):
            return
        mine = set(state.wagon_tiles[seat])
        others = [s for s in range(state.players) if s != seat]
        slots = [sum(1 for w in state.wagon_tiles[s] if w != UNKNOWN) for s in others]
        if not any(slots):
            return
        if state.phase == "wagon_tile" and state.current_player() == seat:
            # the seat holds the deck to name its tile: it sees which tiles are left, so
            # only who holds which of the others' is unknown
            pool = [w for s in others for w in state.wagon_tiles[s] if w != UNKNOWN]
        else:
            pool = [w for w in range(len(state.board.wagons)) if w not in mine]
        dealt = iter(redeal(slots, pool, rng)[0])
        for other in others:
            state.wagon_tiles[other] = [
                w if w == UNKNOWN else next(dealt) for w in state.wagon_tiles[other]
            ]

    def card_catalogue(self, data: GameData) -> list[tuple[str, int]]:
        """Ware tiles and wagon tiles; cubes come out of a bag and are picked on the buttons."""
        b = board_for(data)
        ware = [(f"draw ware {colour}", b.tiles_each) for colour in b.colours]
        wagons = [(f"wagon {name}", 1) for name in b.wagons]
        return ware + wagons
