"""The Florence table: queues, Nobles, guards, brags, time bars and the score track.

Everything here comes from the public observation (`state.observe()`), which has no
field for a scheme card or a card in hand, only how many cards a seat holds: the
secrets cannot reach the board. What each light means: docs/table.md, section
Florence on the table; the element names are apps/layouts/florence.toml's.

A queue space has three LEDs and shows its family member by how many are lit:
one for a debutant, two for a donna, three for a maestro. Counting lights reads
the same under any brightness, gamma or current limit, where shades would not.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Action, Event, SeatNamer, State, capital, seat_name
from engine.florence import FlorenceObservation, Location
from engine.florence.society import parse_piece
from engine.florence.tables import Tables

from .base import OFF, Colour, ElementFrame, View, ViewContext, dim

NOBLE_COLOURS: tuple[Colour, ...] = (
    (255, 170, 0),  # Cosimo: gold
    (255, 0, 90),  # Contessina: rose
    (0, 170, 255),  # Giovanni: sky blue (his shields are blue on the board)
)
PIPS = 3  # LEDs per queue space
STACK = 2  # LEDs per guard shield and per score-track space
TIME_LEDS = 12
TRACK = 100  # score-track spaces 0-99; hundreds are shown at the seat (the +100 token)
HIGHLIGHT: Colour = (255, 255, 255)
MANY: Colour = (255, 255, 255)  # a shield or track space holding more than it has LEDs
PRIME_HINT: Colour = (60, 60, 60)  # an empty Prime Position
BLOCKER: Colour = (90, 0, 0)  # setup: spaces to cover with queue blockers
FIRST: Colour = (255, 200, 120)
NEXT_NOBLE = 0.3  # destination markers of the Nobles not moving this round
LATER_ROUND = 0.12  # round-dial segments still to come

DECKS = {"cosimo": "Figlisto", "contessina": "Carissima", "giovanni": "Messere"}
# Solo: Palla Strozzi, the automa, is a seat the table does not seat; he plays the
# Orange (colour 1) and Blue (colour 2) pieces.
AUTOMA_COLOURS: dict[int, Colour] = {1: (255, 90, 0), 2: (0, 60, 255)}
SCORING_EVENTS = frozenset(
    {"noble_moved", "prime_position", "queue_scored", "giovanni_claimed", "final_score"}
)


def _table(state: State) -> FlorenceObservation:
    """The public table: all this view ever reads of a game."""
    obs = state.observe()
    assert isinstance(obs, FlorenceObservation)
    return obs


def _title(word: str) -> str:
    """'life-of-the-party' -> 'Life of the Party', as printed on the tile."""
    parts = word.split("-")
    return " ".join(p if i and p in ("of", "the") else p.capitalize() for i, p in enumerate(parts))


def _stack(colours: Sequence[Colour], leds: int) -> list[Colour]:
    """Colours on an element of `leds` LEDs; more than fit: the last LED turns white."""
    if not colours:
        return [OFF] * leds
    if len(colours) == 1:
        return [colours[0]] * leds
    if len(colours) > leds:
        return [*colours[: leds - 1], MANY]
    return [*colours, *[OFF] * (leds - len(colours))]


def _seat(obs: FlorenceObservation, seat: int, ctx: ViewContext) -> Colour:
    """A seat's colour at the table; the automa's is his first colour, Orange."""
    if seat < len(ctx.colours):
        return ctx.colours[seat]
    return AUTOMA_COLOURS.get(obs.seat_colour(seat), MANY)


def _colour(obs: FlorenceObservation, colour: int, ctx: ViewContext) -> Colour:
    """A piece colour: its seat's at the table, or the automa's Orange or Blue."""
    seat = obs.colours[colour]
    if seat < len(ctx.colours):
        return ctx.colours[seat]
    return AUTOMA_COLOURS.get(colour, MANY)


def _pips(colour: Colour, rank: int) -> list[Colour]:
    return [colour] * rank + [OFF] * (PIPS - rank)


def _guards(obs: FlorenceObservation, guards: Sequence[int], ctx: ViewContext) -> list[Colour]:
    """A shield's guards (by colour, each owned by a seat), in the order they came."""
    return _stack([_colour(obs, c, ctx) for c in guards], STACK)


def _carriages(loc: int, where: Sequence[int]) -> list[Colour]:
    return [NOBLE_COLOURS[n] if at == loc else OFF for n, at in enumerate(where)]


def vp_gains(event: Event, tables: Tables) -> list[tuple[int, int]]:
    """(player, VP) that an event adds: lets the scoring steps run the score track."""
    kind = event.kind
    if kind in ("prime_position", "queue_scored", "giovanni_claimed", "brag"):
        return [(event["player"], event["vp"])]
    if kind == "escort" and "vp" in event.data:
        return [(event["owner"], event["vp"])]
    if kind == "bonus" and event["bonus"] == "vp":
        return [(event["player"], tables.cost["bonus_vp"])]
    if kind == "final_score":
        return [(event["player"], event["time_vp"] + event["scheme_vp"])]
    return []


# --- the board ------------------------------------------------------------------------------
def _locations(obs: FlorenceObservation, ctx: ViewContext, frame: ElementFrame) -> None:
    """Each location's queue, ring, brag spots, spy and bouncer shields, carriages and
    destination markers."""
    carriages = [n.carriage for n in obs.nobles]
    for i, location in enumerate(obs.locations):
        name = f"florence.location.{location.name}"
        _queue(obs, location, ctx, frame)
        frame[f"{name}.ring"] = OFF if location.ring is None else _seat(obs, location.ring, ctx)
        for k, seat in enumerate(location.brags):
            frame[f"{name}.brag.{k + 1}"] = _seat(obs, seat, ctx) if seat >= 0 else OFF
        frame[f"{name}.spy"] = _guards(obs, location.spies, ctx)
        frame[f"{name}.bouncer"] = _guards(obs, location.bouncers, ctx)
        frame[f"{name}.carriage"] = _carriages(i, carriages)
        frame[f"{name}.destination"] = _destinations(obs, i)


def _queue(
    obs: FlorenceObservation, location: Location, ctx: ViewContext, frame: ElementFrame
) -> None:
    """A queue's spaces: each family member's pips, an empty Prime Position marked."""
    name = f"florence.location.{location.name}"
    queue = location.queue
    for k in range(obs.tables.spaces):
        if k < len(queue):
            pips = _pips(_colour(obs, queue[k].colour, ctx), queue[k].rank)
        elif k == 0:
            pips = [OFF, PRIME_HINT, OFF]
        else:
            pips = [OFF] * PIPS
        frame[f"{name}.queue.{k + 1}"] = pips


def _destinations(obs: FlorenceObservation, loc: int) -> list[Colour]:
    """The destination markers at `loc`: the moving Noble's bright, the others dimmed."""
    return [
        (NOBLE_COLOURS[n] if n == obs.active_noble else dim(NOBLE_COLOURS[n], NEXT_NOBLE))
        if noble.destination == loc
        else OFF
        for n, noble in enumerate(obs.nobles)
    ]


def _dial(obs: FlorenceObservation, frame: ElementFrame) -> None:
    """The round dial: past rounds dark, this one in its Noble's colour, later ones dim."""
    t = obs.tables
    rnd = obs.round or 0
    for r in range(1, t.rounds + 1):
        colour = NOBLE_COLOURS[t.active_noble(r)]
        frame[f"florence.round.{r}"] = (
            OFF if r < rnd else colour if r == rnd else dim(colour, LATER_ROUND)
        )


def _track(obs: FlorenceObservation, vp: Sequence[int], ctx: ViewContext) -> ElementFrame:
    """Score markers on spaces 0-99 and, at each seat, the +100/+200 token."""
    frame: ElementFrame = {}
    spaces: dict[int, list[Colour]] = {}
    for player, points in enumerate(vp):
        colour = _seat(obs, player, ctx)
        spaces.setdefault(points % TRACK, []).append(colour)
        if player >= len(ctx.colours):
            continue  # the automa has no seat at the table
        frame[f"seat.{ctx.seat_of(player)}.hundreds"] = [
            colour if points >= 100 * (k + 1) else OFF for k in range(2)
        ]
    for space in range(TRACK):
        frame[f"florence.score.{space}"] = _stack(spaces.get(space, []), STACK)
    return frame


def _before(obs: FlorenceObservation, gains: list[list[tuple[int, int]]]) -> list[int]:
    """Each seat's VP before these events' gains: the score track runs on from there."""
    vp = [b.vp for b in obs.boards]
    for gain in gains:
        for player, points in gain:
            vp[player] -= points
    return vp


def _highlight(
    obs: FlorenceObservation, loc: int, spaces: Sequence[int], frame: ElementFrame
) -> None:
    """Queue spaces that score, lit white with their rank's pips."""
    location = obs.locations[loc]
    for i in spaces:
        if 0 <= i < len(location.queue):
            frame[f"florence.location.{location.name}.queue.{i + 1}"] = _pips(
                HIGHLIGHT, location.queue[i].rank
            )


class FlorenceView(View):
    observes_only = True
    palette = (
        ("blue", (0, 60, 255)),
        ("orange", (255, 90, 0)),
        ("purple", (160, 0, 255)),
        ("green", (0, 200, 0)),
        ("black", (200, 200, 200)),  # black pieces, lit white
        ("red", (255, 0, 0)),  # a sixth seat colour for the lobby only
    )

    def palette_for(self, players: int) -> tuple[tuple[str, Colour], ...]:
        """Solo: Strozzi plays Orange and Blue, so the human takes the first other colour."""
        if players == 1:
            return tuple(c for c in self.palette if c[0] not in ("orange", "blue"))
        return self.palette

    def render(self, state: State, ctx: ViewContext) -> ElementFrame:
        obs = _table(state)
        frame: ElementFrame = {}
        _locations(obs, ctx, frame)
        for road in obs.roads:
            frame[f"florence.road.{road.name}.escort"] = _guards(obs, road.escorts, ctx)
        _dial(obs, frame)
        frame.update(_track(obs, [b.vp for b in obs.boards], ctx))
        for player in range(obs.players):
            seat = f"seat.{ctx.seat_of(player)}"
            colour = ctx.colours[player]
            time = obs.boards[player].time
            frame[f"{seat}.time"] = [colour] * time + [OFF] * (TIME_LEDS - time)
            frame[f"{seat}.first"] = FIRST if obs.first == player else OFF
        return frame

    def setup_frame(self, state: State, ctx: ViewContext) -> ElementFrame:
        """The board to lay out, with the queue spaces to cover with blockers in dim red."""
        obs = _table(state)
        frame = self.render(state, ctx)
        for location in obs.locations:
            for i in range(location.capacity, obs.tables.spaces):
                frame[f"florence.location.{location.name}.queue.{i + 1}"] = [BLOCKER] * PIPS
        return frame

    def hint(self, state: State, words: tuple[str, ...], ctx: ViewContext) -> ElementFrame:
        """While a seat is still choosing: the family member it has named (or is on) lit
        white in its queue space; a location it is on, that location's queue; a Noble,
        that Noble's carriage. A piece without a location is at the pass ring's."""
        obs = _table(state)
        t = obs.tables
        frame: ElementFrame = {}
        loc = self._ring(obs)
        for word in words:
            if word in t.loc_names:
                loc = t.loc_names.index(word)
            elif word in t.nobles:
                self._carriage_hint(obs, t.nobles.index(word), frame)
            else:
                piece = parse_piece(word)
                if piece is not None and piece[1] >= 0 and loc >= 0:
                    _highlight(obs, loc, [piece[1]], frame)
        if words and words[-1] in t.loc_names:
            _highlight(obs, loc, range(len(obs.locations[loc].queue)), frame)
        return frame

    @staticmethod
    def _ring(obs: FlorenceObservation) -> int:
        """Where the pass ring of the seat deciding now is (-1: none)."""
        turn = obs.turn
        if turn is None or turn >= obs.players:
            return -1
        return next((i for i, at in enumerate(obs.locations) if at.ring == turn), -1)

    @staticmethod
    def _carriage_hint(obs: FlorenceObservation, noble: int, frame: ElementFrame) -> None:
        at = obs.nobles[noble].carriage
        if at >= 0:
            name = f"florence.location.{obs.tables.loc_names[at]}.carriage"
            frame[name] = [HIGHLIGHT if n == noble else OFF for n in range(len(obs.nobles))]

    def seat_active(self, state: State, player: int) -> bool:
        """A seat that has passed only takes bonuses until the round ends."""
        return not _table(state).boards[player].passed

    # --- draws -------------------------------------------------------------------------
    def describe_chance(self, state: State, action: Action, names: SeatNamer = seat_name) -> str:
        """What came up; a scandal card drawn into a hand is never named. Players are
        named by `names`, the table's seat names."""
        obs = _table(state)
        t = obs.tables
        words = action.text.split()
        verb = words[0]
        if verb == "tile":
            return f"Brag tile {_title(words[2])} goes face up on location {words[1]}."
        if verb == "carriage":
            return f"{words[1].capitalize()}'s carriage starts on location {words[2]}."
        if verb == "token":
            return self._token_text(obs, words)
        if verb == "first":
            return f"The 1st player marker goes to {names(int(words[1]) - 1)}."
        if verb == "draw":
            who = capital(names(obs.pending[0])) if obs.pending else "A player"
            noble = words[1]
            return (
                f"{who} draws a scandal card from {noble.capitalize()}'s deck "
                f"({DECKS.get(noble, noble)}); it stays secret."
            )
        if verb == "scheme":
            locs = ", ".join(
                t.loc_names[loc] for loc in sorted(t.scheme_locs[t.schemes.index(words[1])])
            )
            who = self._revealer(obs, names)
            return f"{who} reveals the scheme {_title(words[1])}: locations {locs}."
        return f"Drawn: {action.text}"

    @staticmethod
    def _token_text(obs: FlorenceObservation, words: list[str]) -> str:
        t = obs.tables
        if words[1] == "location":
            rnd = obs.dial_locations.index(-1) + 1
            noble = t.nobles[t.active_noble(rnd)].capitalize()
            return f"Location token {words[2]} for round {rnd}: {noble}'s destination."
        rnd = obs.dial_time.index(0) + 1
        return f"Time token {words[2]} for round {rnd}."

    @staticmethod
    def _revealer(obs: FlorenceObservation, names: SeatNamer) -> str:
        """Who reveals the scheme now: a player, or (harder solo) Strozzi."""
        seat = obs.scheme_seat
        if seat is not None and seat == obs.automa:
            return "Strozzi"
        return capital(names(seat)) if seat is not None else "A player"

    def public_text(self, state: State, action: Action) -> str:
        """A scandal card drawn into a hand is logged without its name."""
        words = action.words
        if words and words[0] == "draw" and len(words) == 3:
            return f"draw {words[1]} (a secret card)"
        return action.text

    def chance_actor(self, state: State) -> int | None:
        """The seat receiving a scandal card, or revealing its scheme, enters it."""
        obs = _table(state)
        if obs.phase == "noble_movement" and obs.pending:
            return obs.pending[0]
        if obs.phase == "schemes":
            seat = obs.scheme_seat
            return seat if seat is not None and seat < obs.players else None
        return None

    # --- scoring -------------------------------------------------------------------------
    def is_scoring(self, events: list[Event]) -> bool:
        """The Noble moved or someone scored a round's VP: the table shows the steps."""
        return any(e.kind in SCORING_EVENTS for e in events)

    def scoring_steps(
        self, state: State, events: list[Event], ctx: ViewContext
    ) -> list[ElementFrame]:
        """One frame per location the Noble enters (the carriage there, the Prime Position
        and scandal recipients in white, their seats lit), then one per queue award.

        The score track runs along: each frame shows the VP reached at that step.
        Scandal cards received are shown by recipient only, never by name.
        """
        obs = _table(state)
        t = obs.tables
        gains = [vp_gains(e, t) for e in events]
        vp = _before(obs, gains)
        rnd = next((e["round"] for e in events if e.kind == "round_ended"), obs.round)
        route = _Route(obs, t.active_noble(max(rnd or 0, 1)), events)
        for event, gain in zip(events, gains, strict=True):
            for player, points in gain:
                vp[player] += points
            target = route.step(event)
            if target is None:
                continue
            if "player" in event.data and event["player"] < len(ctx.colours):
                player = event["player"]
                target[f"seat.{ctx.seat_of(player)}.status"] = ctx.colours[player]
            target.update(_track(obs, vp, ctx))
        return route.steps


class _Route:
    """The frames of a Noble's route and its queue scoring, built event by event."""

    def __init__(self, obs: FlorenceObservation, noble: int, events: list[Event]) -> None:
        self.obs = obs
        self.noble = noble
        self.loc = self._start(events)
        self.steps: list[ElementFrame] = []
        self.current: ElementFrame | None = None  # the frame of the location the Noble is at

    def _start(self, events: list[Event]) -> int:
        """Where the Noble stood before these events: one step back along the route from
        the first location they enter, or where its carriage is now."""
        first = next((e["to"] - 1 for e in events if e.kind == "noble_moved"), None)
        if first is None:
            return self.obs.nobles[self.noble].carriage
        return self.obs.tables.route_next.index(first)

    def step(self, event: Event) -> ElementFrame | None:
        """The frame an event lights (None: it lights nothing)."""
        kind = event.kind
        if kind == "noble_moved":
            self.loc = event["to"] - 1
            self.current = self._noble_frame()
            self.steps.append(self.current)
            return self.current
        if kind in ("prime_position", "scandal_gained", "scandal_over_limit"):
            return self._at_location(event)
        if kind in ("queue_scored", "giovanni_claimed", "final_score"):
            return self._award(event)
        return None

    def _at_location(self, event: Event) -> ElementFrame:
        if self.current is None:  # a draw finishes the location entered before
            self.current = self._noble_frame()
            self.steps.append(self.current)
        target = self.current
        if event.kind == "prime_position":
            _highlight(self.obs, self.loc, [0], target)
        else:
            self._scandal_source(event["player"], target)
        return target

    def _award(self, event: Event) -> ElementFrame:
        self.current = None
        target: ElementFrame = {}
        where = self.obs.nobles[self.noble].carriage
        if event.kind == "queue_scored":
            _highlight(self.obs, where, [event["position"] - 1], target)
        elif event.kind == "giovanni_claimed":
            queue = self.obs.locations[where].queue
            mine = [i for i, p in enumerate(queue) if p.seat == event["player"]]
            _highlight(self.obs, where, mine, target)
        self.steps.append(target)
        return target

    def _noble_frame(self) -> ElementFrame:
        """The carriages with the moving Noble's at its location (the board shows it
        further on)."""
        where = [n.carriage for n in self.obs.nobles]
        where[self.noble] = self.loc
        names = self.obs.tables.loc_names
        return {
            f"florence.location.{names[i]}.carriage": _carriages(i, where)
            for i in range(self.obs.tables.locations)
        }

    def _scandal_source(self, player: int, frame: ElementFrame) -> None:
        """Light what earned `player` a card here: the best brag marker, a spy."""
        location = self.obs.locations[self.loc]
        name = f"florence.location.{location.name}"
        for k in (2, 1, 0):
            best = location.brags[k]
            if best >= 0:
                if best == player:
                    frame[f"{name}.brag.{k + 1}"] = HIGHLIGHT
                break
        if any(self.obs.colours[c] == player for c in location.spies):
            frame[f"{name}.spy"] = [HIGHLIGHT] * STACK


VIEW = FlorenceView()
