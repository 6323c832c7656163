"""The Strozzi table: city tracks, ships per port, face-up tokens, the ship in play, flags.

Everything here comes from the public observation (`state.observe()`), which has no
field for money: the secret cannot reach the board.
"""

from __future__ import annotations

from engine.core import Action, Event, SeatNamer, State, seat_name
from engine.strozzi import StrozziObservation
from engine.strozzi.rules import Rules, Ship

from .base import OFF, Colour, ElementFrame, View, ViewContext, dim

CATEGORY: dict[str, Colour] = {
    "arts": (220, 0, 140),
    "sciences": (0, 140, 255),
    "architecture": (255, 120, 0),
}
FLAG: dict[str, Colour] = {"pirate": (255, 0, 0), "plus": (0, 255, 0), "goods": (255, 200, 0)}
SAIL: Colour = (200, 200, 200)
PLUS_SAIL: Colour = (0, 255, 0)
SLOTS = 6
SAIL_LEDS = 9


class StrozziView(View):
    observes_only = True
    palette = (
        ("red", (255, 0, 0)),
        ("green", (0, 200, 0)),
        ("blue", (0, 0, 255)),
        ("yellow", (255, 190, 0)),
        ("purple", (150, 0, 255)),
        ("orange", (255, 80, 0)),
    )

    def render(self, state: State, ctx: ViewContext) -> ElementFrame:
        obs = _table(state)
        frame: ElementFrame = {}
        _tracks(obs, ctx.colours, frame)
        _ports(obs, ctx.colours, frame)
        _tokens(obs, frame)
        frame["strozzi.ship.sails"] = _sails(obs)
        for player, left in enumerate(obs.flags):
            frame[f"seat.{ctx.seat_of(player)}.flags"] = [
                FLAG[f] if f in left else OFF for f in obs.rules.flags
            ]
        return frame

    def setup_frame(self, state: State, ctx: ViewContext) -> ElementFrame:
        """Markers on the start spaces and the face-up tokens; nothing else lit."""
        frame = self.render(state, ctx)
        keep = ("strozzi.track.", "strozzi.token.", "seat.")
        return {k: v for k, v in frame.items() if k.startswith(keep)}

    def describe_chance(self, state: State, action: Action, names: SeatNamer = seat_name) -> str:
        verb, _, arg = action.text.partition(" ")
        if verb == "draw":
            rules = _table(state).rules
            return f"The {rules.words(rules.ship(arg))} comes up."
        return f"Progress token {arg} is turned face up."

    def chance_actor(self, state: State) -> int | None:
        obs = _table(state)
        return obs.active if obs.phase == "draw" else None

    def seat_active(self, state: State, player: int) -> bool:
        return bool(_table(state).flags[player])

    def scoring_steps(
        self, state: State, events: list[Event], ctx: ViewContext
    ) -> list[ElementFrame]:
        """One frame per scoring ship or marker, in the order the rulebook scores them.

        Amounts are money, which stays secret: the sequence shows who scored where.
        """
        steps: list[ElementFrame] = []
        for event in events:
            if event.kind != "award" or event["reason"] not in ("ship", "marker", "bonus"):
                continue
            player = event["player"]
            colour = ctx.colours[player]
            seat = f"seat.{ctx.seat_of(player)}.status"
            if event["reason"] == "ship":
                element = f"strozzi.port.{event['city']}.{event['rank']}"
            else:
                element = f"strozzi.track.{event['city']}.{event['space']}"
            steps.append({element: colour, seat: colour})
        return steps


def cargo(rules: Rules, ship: Ship) -> str:
    """What a ship card carries besides its sails, in words: '2 grain, 2 cloth, progress
    token' (the part of `Rules.words` in parentheses)."""
    return rules.words(ship).partition(" (")[2].removesuffix(")")


def _tracks(obs: StrozziObservation, colours: tuple[Colour, ...], frame: ElementFrame) -> None:
    """Each city's spaces: the markers on it, left to right, then dark slots."""
    for track in obs.tracks:
        for space in range(obs.rules.last_space + 1):
            seats = track.on(space)
            lit = [colours[s] for s in seats]
            frame[f"strozzi.track.{track.city}.{space}"] = lit + [OFF] * (SLOTS - len(seats))


def _ports(obs: StrozziObservation, colours: tuple[Colour, ...], frame: ElementFrame) -> None:
    """Each port's ships, fastest at slot 1, in their owners' colours."""
    for port in obs.ports:
        for slot in range(SLOTS):
            on = slot < len(port.ships)
            frame[f"strozzi.port.{port.name}.{slot + 1}"] = (
                colours[port.ships[slot].seat] if on else OFF
            )


def _tokens(obs: StrozziObservation, frame: ElementFrame) -> None:
    """The face-up progress tokens by category colour, a value-1 token dimmed."""
    for i in range(3):
        if i >= len(obs.face_up):
            frame[f"strozzi.token.{i + 1}"] = OFF
            continue
        token = obs.face_up[i]
        colour = CATEGORY[token.category]
        frame[f"strozzi.token.{i + 1}"] = colour if token.value == 2 else dim(colour, 0.4)


def _sails(obs: StrozziObservation) -> list[Colour]:
    """The ship in play's sails, with the +1 of a +1 flag lying on it in green."""
    bar: list[Colour] = [OFF] * SAIL_LEDS
    ship = obs.ship
    if ship is None:
        return bar
    for i in range(min(ship.sails, SAIL_LEDS)):
        bar[i] = SAIL
    flagged = obs.flag_on_ship
    if flagged is not None and flagged.flag == "plus" and ship.sails < SAIL_LEDS:
        bar[ship.sails] = PLUS_SAIL
    return bar


def _table(state: State) -> StrozziObservation:
    """The public table: all this view ever reads of a game."""
    obs = state.observe()
    assert isinstance(obs, StrozziObservation)
    return obs


VIEW = StrozziView()
