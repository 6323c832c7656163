"""Setup and Before the First Round: the draws that lay out the board, and one free
Debutant each.

Every random step of the setup is a chance action, asked in the order of
docs/florence-rulings.md, ruling 2: brag tiles onto locations 1 to 9, the carriages,
the location tokens of rounds 1-3, the time tokens of rounds 2-3, the first player.
A draw with one possible outcome is placed without asking the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, Rule, in_phases

from .flow import FLOW
from .society import enter, ev, piece
from .tables import DEBUTANT

if TYPE_CHECKING:
    from .rules import FlorenceState

Draws = list[tuple[str, float]]
"""A pending draw's outcomes: (notation, weight)."""


def place_forced(
    state: FlorenceState, rule: Rule[FlorenceState], draws: Draws, events: list[Event]
) -> bool:
    """A draw with one possible outcome is placed without asking: True when one was."""
    if len(draws) != 1:
        return False
    verb, _, arg = draws[0][0].partition(" ")
    rule.apply(state, verb, arg, events)
    return True


def location_draws(state: FlorenceState, rnd: int) -> Draws:
    """The location token of round `rnd + 1`: 'Shuffle these 3 Location tokens and place
    them in a face-down pile. Shuffle the remaining 6 tokens separately, and place them
    face-down on top' (ruling 3: rounds 7-9 get the carriages' locations)."""
    t = state.tables
    used = set(state.dial_loc)
    if rnd >= t.rounds - len(state.bottom):
        pool = state.bottom
    else:
        pool = [loc for loc in range(t.locations) if loc not in state.bottom]
    return [(f"token location {t.loc_names[loc]}", 1.0) for loc in pool if loc not in used]


def time_draws(state: FlorenceState) -> Draws:
    """A time token: 'Shuffle all Time tokens, then place them together in a face-down
    pile', weighted by the tokens of each value left (ruling 4)."""
    t = state.tables
    used = list(state.dial_time[1:])
    out = []
    for v in sorted(set(t.time_tokens)):
        left = t.time_tokens.count(v) - used.count(v)
        if left > 0:
            out.append((f"token time {v}", float(left)))
    return out


def chance_step(state: FlorenceState) -> tuple[str, int]:
    """What the setup draws next: (kind, detail): a tile for a location, a Noble's
    carriage, the location or time token of a round (0-based), or the first player."""
    for loc, tile in enumerate(state.tiles):
        if tile < 0:
            return "tile", loc
    for noble, loc in enumerate(state.carriage):
        if loc < 0:
            return "carriage", noble
    for rnd in range(3):
        if state.dial_loc[rnd] < 0:
            return "location", rnd
    for rnd in range(1, 3):
        if not state.dial_time[rnd]:
            return "time", rnd
    return "first", 0


class Setup(Rule["FlorenceState"]):
    """'Shuffle the Brag tiles and deal 1 face-up (randomly) onto each location on the
    main board. ... Draw 3 random Location tokens, then randomly place 1 Noble Carriage on
    each corresponding spot on the board. ... Deal 2 Time tokens and 3 Location tokens
    face-up onto the visible corresponding spots on the Noble Dial.'

    The pieces, time dials and queue blockers of the other steps are laid out by
    `FlorenceState.__init__` (and `Tables.capacity`)."""

    heading = "Setup"
    plays = in_phases(setup=("tile", "carriage", "token"))

    def texts(self, state: FlorenceState) -> list[str]:
        return [text for text, _ in self.draws(state)]

    def draws(self, state: FlorenceState) -> Draws:
        kind, detail = chance_step(state)
        t = state.tables
        if kind == "tile":
            used = set(state.tiles)
            loc = t.loc_names[detail]
            return [
                (f"tile {loc} {tile.name}", 1.0) for i, tile in enumerate(t.tiles) if i not in used
            ]
        if kind == "carriage":
            taken = set(state.carriage)
            name = t.nobles[detail]
            return [
                (f"carriage {name} {t.loc_names[loc]}", 1.0)
                for loc in range(t.locations)
                if loc not in taken
            ]
        if kind == "location":
            return location_draws(state, detail)
        if kind == "time":
            return time_draws(state)
        return []

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        t = state.tables
        what, _, value = arg.partition(" ")
        if verb == "tile":
            loc = int(what) - 1
            state.tiles[loc] = t.tile_index[value]
            events.append(ev("tile_dealt", location=loc + 1, tile=value))
        elif verb == "carriage":
            noble = t.nobles.index(what)
            loc = int(value) - 1
            state.carriage[noble] = loc
            state.bottom.append(loc)
            events.append(ev("carriage_placed", noble=what, location=loc + 1))
        else:
            place_token(state, chance_step(state)[1], what, int(value), events)

    def prompt(self, state: FlorenceState) -> str:
        kind, detail = chance_step(state)
        if kind == "first":
            return BEFORE_THE_FIRST_ROUND.prompt(state)
        if kind == "tile":
            return f"Deal a brag tile face up onto location {detail + 1}."
        if kind == "carriage":
            return (
                f"Place {state.tables.nobles[detail].capitalize()}'s carriage on a random location."
            )
        return token_prompt(kind, detail)

    def advance(self, state: FlorenceState, events: list[Event]) -> bool:
        """The setup's automatic steps; True when a draw is awaited."""
        if state.first >= 0:
            FLOW.fire(state, "dealt")
            state.placed = 0
            state.turn = (state.first - 1) % state.seats
            return False
        step = chance_step(state)[0]
        rule: Rule[FlorenceState] = BEFORE_THE_FIRST_ROUND if step == "first" else self
        draws = BEFORE_THE_FIRST_ROUND.draws(state) if step == "first" else self.draws(state)
        return not place_forced(state, rule, draws, events)


def place_token(state: FlorenceState, rnd: int, kind: str, value: int, events: list[Event]) -> None:
    """A time or location token goes face up onto the dial slot of round `rnd + 1`."""
    if kind == "time":
        state.dial_time[rnd] = value
    else:
        state.dial_loc[rnd] = value - 1
    events.append(ev("token_placed", round=rnd + 1, token=kind, value=value))


def token_prompt(kind: str, rnd: int) -> str:
    what = "location" if kind == "location" else "time"
    return f"Draw the {what} token for round {rnd + 1}."


class BeforeTheFirstRound(Rule["FlorenceState"]):
    """'Give a random player the 1st player marker. Then, from the last player (to the
    right of the 1st) going counter-clockwise, each player places a Debutant from their
    player board on any Location that does not already have a Family Member placed
    there.'"""

    heading = "Before the First Round"
    plays = in_phases(setup=("first",), placement=("place",))

    def texts(self, state: FlorenceState) -> list[str]:
        if state.phase == "setup":
            return [text for text, _ in self.draws(state)]
        ln = state.tables.loc_names
        return [f"place {ln[loc]}" for loc, q in enumerate(state.queues) if not q]

    def draws(self, state: FlorenceState) -> Draws:
        if chance_step(state)[0] != "first":
            return []
        return [(f"first {s + 1}", 1.0) for s in range(state.players)]

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        if verb == "first":
            state.first = int(arg) - 1
            events.append(ev("first_player", player=state.first))
            return
        s = state.turn
        loc = int(arg) - 1
        code = piece(state.colour(s), DEBUTANT)
        state.supply[code] -= 1
        enter(state, loc, code)
        events.append(ev("placed", player=s, location=loc + 1))
        state.placed += 1
        state.turn = (s - 1) % state.seats

    def prompt(self, state: FlorenceState) -> str:
        if state.phase == "setup":
            return "Give a random player the 1st player marker."
        return (
            f"{state.who(state.turn)} places a free debutant on a location with no family member."
        )

    @staticmethod
    def done(state: FlorenceState) -> bool:
        """Every seat has placed its free Debutant."""
        return state.placed >= state.seats


SETUP = Setup()
BEFORE_THE_FIRST_ROUND = BeforeTheFirstRound()
