"""The Florence table: queues, Nobles, guards, brags, time bars and the score track.

Scheme cards and scandal hands are hidden (engine.florence.HIDDEN): nothing here
reads them, not even the size of a hand. What each light means: docs/table.md,
section Florence on the table; the element names are apps/layouts/florence.toml's.

A queue space has three LEDs and shows its family member by how many are lit:
one for a debutant, two for a donna, three for a maestro. Counting lights reads
the same under any brightness, gamma or current limit, where shades would not.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Action, Event, State
from engine.florence import FlorenceState
from engine.florence.rules import parse_piece
from engine.florence.tables import Tables

from .base import OFF, Colour, Frame, View, ViewContext, dim

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


def _florence(state: State) -> FlorenceState:
    assert isinstance(state, FlorenceState)
    return state


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


def _seat(s: FlorenceState, seat: int, ctx: ViewContext) -> Colour:
    """A seat's colour at the table; the automa's is his first colour, Orange."""
    if seat < len(ctx.colours):
        return ctx.colours[seat]
    return AUTOMA_COLOURS.get(s.colours.index(seat), MANY)


def _pips(colour: Colour, rank: int) -> list[Colour]:
    return [colour] * rank + [OFF] * (PIPS - rank)


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


SCORING_EVENTS = frozenset(
    {"noble_moved", "prime_position", "queue_scored", "giovanni_claimed", "final_score"}
)


class FlorenceView(View):
    game = "florence"
    layout_name = "florence.toml"
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

    # --- the board -------------------------------------------------------------------
    def render(self, state: State, ctx: ViewContext) -> Frame:
        s = _florence(state)
        t = s.tables
        colours = ctx.colours
        frame: Frame = {}
        upcoming = t.active_noble(max(s.round, 1))
        destinations = [s.destination(n) for n in range(len(t.nobles))]
        for loc in range(t.locations):
            name = f"florence.location.{t.loc_names[loc]}"
            q = s.queues[loc]
            for i in range(t.spaces):
                if i < len(q):
                    code = q[i]
                    pips = _pips(self._colour(s, code >> 2, ctx), code & 3)
                elif i == 0:
                    pips = [OFF, PRIME_HINT, OFF]
                else:
                    pips = [OFF] * PIPS
                frame[f"{name}.queue.{i + 1}"] = pips
            ring = [_seat(s, p, ctx) for p, at in enumerate(s.rings) if at == loc]
            frame[f"{name}.ring"] = ring[0] if ring else OFF
            for k in range(3):
                seat = s.slots[loc * 3 + k]
                frame[f"{name}.brag.{k + 1}"] = _seat(s, seat, ctx) if seat >= 0 else OFF
            frame[f"{name}.spy"] = self._guards(s, s.spies[loc], ctx)
            frame[f"{name}.bouncer"] = self._guards(s, s.bouncers[loc], ctx)
            frame[f"{name}.carriage"] = self._carriages(loc, s.carriage)
            frame[f"{name}.destination"] = [
                (NOBLE_COLOURS[n] if n == upcoming else dim(NOBLE_COLOURS[n], NEXT_NOBLE))
                if destinations[n] == loc
                else OFF
                for n in range(len(t.nobles))
            ]
        for road, guards in enumerate(s.escorts):
            frame[f"florence.road.{t.road_names[road]}.escort"] = self._guards(s, guards, ctx)
        for rnd in range(1, t.rounds + 1):
            colour = NOBLE_COLOURS[t.active_noble(rnd)]
            frame[f"florence.round.{rnd}"] = (
                OFF if rnd < s.round else colour if rnd == s.round else dim(colour, LATER_ROUND)
            )
        frame.update(self._track(s, s.vp, ctx))
        for player in range(s.players):
            seat = f"seat.{ctx.seat_of(player)}"
            colour = colours[player]
            time = s.time[player]
            frame[f"{seat}.time"] = [colour] * time + [OFF] * (TIME_LEDS - time)
            frame[f"{seat}.first"] = FIRST if s.first == player else OFF
        return frame

    def _guards(self, s: FlorenceState, guards: Sequence[int], ctx: ViewContext) -> list[Colour]:
        """A shield's guards (by colour, each owned by a seat), in the order they came."""
        return _stack([self._colour(s, c, ctx) for c in guards], STACK)

    @staticmethod
    def _colour(s: FlorenceState, colour: int, ctx: ViewContext) -> Colour:
        """A piece colour: its seat's at the table, or the automa's Orange or Blue."""
        seat = s.colours[colour]
        if seat < len(ctx.colours):
            return ctx.colours[seat]
        return AUTOMA_COLOURS.get(colour, MANY)

    @staticmethod
    def _carriages(loc: int, where: Sequence[int]) -> list[Colour]:
        return [NOBLE_COLOURS[n] if at == loc else OFF for n, at in enumerate(where)]

    def _track(self, s: FlorenceState, vp: Sequence[int], ctx: ViewContext) -> Frame:
        """Score markers on spaces 0-99 and, at each seat, the +100/+200 token."""
        frame: Frame = {}
        spaces: dict[int, list[Colour]] = {}
        for player, points in enumerate(vp):
            colour = _seat(s, player, ctx)
            spaces.setdefault(points % TRACK, []).append(colour)
            if player >= len(ctx.colours):
                continue  # the automa has no seat at the table
            frame[f"seat.{ctx.seat_of(player)}.hundreds"] = [
                colour if points >= 100 * (k + 1) else OFF for k in range(2)
            ]
        for space in range(TRACK):
            frame[f"florence.score.{space}"] = _stack(spaces.get(space, []), STACK)
        return frame

    def setup_frame(self, state: State, ctx: ViewContext) -> Frame:
        """The board to lay out, with the queue spaces to cover with blockers in dim red."""
        s = _florence(state)
        frame = self.render(s, ctx)
        for loc, cap in enumerate(s.cap):
            for i in range(cap, s.tables.spaces):
                frame[f"florence.location.{s.tables.loc_names[loc]}.queue.{i + 1}"] = [
                    BLOCKER
                ] * PIPS
        return frame

    def hint(self, state: State, words: tuple[str, ...], ctx: ViewContext) -> Frame:
        """While a seat is still choosing: the family member it has named (or is on) lit
        white in its queue space; a location it is on, that location's queue; a Noble,
        that Noble's carriage. A piece without a location is at the pass ring's."""
        s = _florence(state)
        t = s.tables
        frame: Frame = {}
        loc = s.rings[s.turn] if 0 <= s.turn < s.players else -1
        for word in words:
            if word in t.loc_names:
                loc = t.loc_names.index(word)
            elif word in t.nobles:
                noble = t.nobles.index(word)
                at = s.carriage[noble]
                if at >= 0:
                    name = f"florence.location.{t.loc_names[at]}.carriage"
                    frame[name] = [HIGHLIGHT if n == noble else OFF for n in range(len(t.nobles))]
            else:
                piece = parse_piece(word)
                if piece is not None and piece[1] >= 0 and loc >= 0:
                    self._highlight(s, loc, [piece[1]], frame)
        if words and words[-1] in t.loc_names:
            self._highlight(s, loc, range(len(s.queues[loc])), frame)
        return frame

    def seat_active(self, state: State, player: int) -> bool:
        """A seat that has passed only takes bonuses until the round ends."""
        return not _florence(state).passed[player]

    # --- draws -------------------------------------------------------------------------
    def describe_chance(self, state: State, action: Action) -> str:
        """What came up; a scandal card drawn into a hand is never named."""
        s = _florence(state)
        t = s.tables
        words = action.text.split()
        verb = words[0]
        if verb == "tile":
            return f"Brag tile {_title(words[2])} goes face up on location {words[1]}."
        if verb == "carriage":
            return f"{words[1].capitalize()}'s carriage starts on location {words[2]}."
        if verb == "token":
            if words[1] == "location":
                rnd = s.dial_loc.index(-1) + 1
                noble = t.nobles[t.active_noble(rnd)].capitalize()
                return f"Location token {words[2]} for round {rnd}: {noble}'s destination."
            rnd = s.dial_time.index(0) + 1
            return f"Time token {words[2]} for round {rnd}."
        if verb == "first":
            return f"The 1st player marker goes to player {words[1]}."
        if verb == "draw":
            seat = s.pending[0] + 1 if s.pending else "?"
            noble = words[1]
            return (
                f"Player {seat} draws a scandal card from {noble.capitalize()}'s deck "
                f"({DECKS.get(noble, noble)}); it stays secret."
            )
        if verb == "scheme":
            seat = self._scheme_seat(s)
            locs = ", ".join(
                t.loc_names[loc] for loc in sorted(t.scheme_locs[t.schemes.index(words[1])])
            )
            return f"Player {seat + 1} reveals the scheme {_title(words[1])}: locations {locs}."
        return f"Drawn: {action.text}"

    def public_text(self, state: State, action: Action) -> str:
        """A scandal card drawn into a hand is logged without its name."""
        words = action.words
        if words and words[0] == "draw" and len(words) == 3:
            return f"draw {words[1]} (a secret card)"
        return action.text

    def chance_actor(self, state: State) -> int | None:
        """The seat receiving a scandal card, or revealing its scheme, enters it."""
        s = _florence(state)
        if s.phase == "noble_movement" and s.pending:
            return s.pending[0]
        if s.phase == "schemes":
            seat = self._scheme_seat(s)
            return seat if seat >= 0 else None
        return None

    @staticmethod
    def _scheme_seat(s: FlorenceState) -> int:
        """The next seat to reveal its scheme: seats in order, those without a card skipped.
        Only whether a card was entered is read, never which."""
        for seat in range(s.players):
            if s.schemes[seat] < 0 and s.kind(seat).has_scheme(s, seat):
                return seat
        return -1

    # --- scoring -------------------------------------------------------------------------
    def is_scoring(self, events: list[Event]) -> bool:
        """The Noble moved or someone scored a round's VP: the table shows the steps."""
        return any(e.kind in SCORING_EVENTS for e in events)

    def scoring_steps(self, state: State, events: list[Event], ctx: ViewContext) -> list[Frame]:
        """One frame per location the Noble enters (the carriage there, the Prime Position
        and scandal recipients in white, their seats lit), then one per queue award.

        The score track runs along: each frame shows the VP reached at that step.
        Scandal cards received are shown by recipient only, never by name.
        """
        s = _florence(state)
        t = s.tables
        gains = [vp_gains(e, t) for e in events]
        vp = list(s.vp)
        for gain in gains:
            for player, points in gain:
                vp[player] -= points
        rnd = next((e["round"] for e in events if e.kind == "round_ended"), s.round)
        noble = t.active_noble(max(rnd, 1))
        loc = self._noble_start(s, noble, events)
        steps: list[Frame] = []
        current: Frame | None = None  # the frame of the location the Noble is at
        for event, gain in zip(events, gains, strict=True):
            for player, points in gain:
                vp[player] += points
            kind = event.kind
            if kind == "noble_moved":
                loc = event["to"] - 1
                current = target = self._noble_frame(s, noble, loc)
                steps.append(current)
            elif kind in ("prime_position", "scandal_gained", "scandal_over_limit"):
                if current is None:  # a draw finishes the location entered before
                    current = self._noble_frame(s, noble, loc)
                    steps.append(current)
                target = current
                if kind == "prime_position":
                    self._highlight(s, loc, [0], target)
                else:
                    self._scandal_source(s, loc, event["player"], target)
            elif kind in ("queue_scored", "giovanni_claimed", "final_score"):
                current = None
                target = {}
                where = s.carriage[noble]
                if kind == "queue_scored":
                    self._highlight(s, where, [event["position"] - 1], target)
                elif kind == "giovanni_claimed":
                    mine = [
                        i for i, c in enumerate(s.queues[where]) if s.owner[c] == event["player"]
                    ]
                    self._highlight(s, where, mine, target)
                steps.append(target)
            else:
                continue
            if "player" in event.data and event["player"] < len(ctx.colours):
                player = event["player"]
                target[f"seat.{ctx.seat_of(player)}.status"] = ctx.colours[player]
            target.update(self._track(s, vp, ctx))
        return steps

    def _highlight(self, s: FlorenceState, loc: int, spaces: Sequence[int], frame: Frame) -> None:
        """Queue spaces that score, lit white with their rank's pips."""
        q = s.queues[loc]
        for i in spaces:
            if 0 <= i < len(q):
                frame[f"florence.location.{s.tables.loc_names[loc]}.queue.{i + 1}"] = _pips(
                    HIGHLIGHT, q[i] & 3
                )

    def _noble_start(self, s: FlorenceState, noble: int, events: list[Event]) -> int:
        """Where the Noble stood before these events: one step back along the route from
        the first location they enter, or where its carriage is now."""
        first = next((e["to"] - 1 for e in events if e.kind == "noble_moved"), None)
        if first is None:
            return s.carriage[noble]
        return s.tables.route_next.index(first)

    def _noble_frame(self, s: FlorenceState, noble: int, loc: int) -> Frame:
        """The carriages with the moving Noble's at `loc` (the board shows it further on)."""
        where = list(s.carriage)
        where[noble] = loc
        names = s.tables.loc_names
        return {
            f"florence.location.{names[i]}.carriage": self._carriages(i, where)
            for i in range(s.tables.locations)
        }

    def _scandal_source(self, s: FlorenceState, loc: int, player: int, frame: Frame) -> None:
        """Light what earned `player` a card at `loc`: the best brag marker, a spy."""
        name = f"florence.location.{s.tables.loc_names[loc]}"
        for k in (2, 1, 0):
            best = s.slots[loc * 3 + k]
            if best >= 0:
                if best == player:
                    frame[f"{name}.brag.{k + 1}"] = HIGHLIGHT
                break
        spies = s.spies[loc]
        if any(s.colours[c] == player for c in spies):
            frame[f"{name}.spy"] = [HIGHLIGHT] * STACK


VIEW = FlorenceView()
