"""The Strozzi table: city tracks, ships per port, face-up tokens, the ship in play, flags.

Money is hidden until the end (engine.strozzi.HIDDEN): nothing here reads it.
"""

from __future__ import annotations

from engine.core import Action, Event, State
from engine.strozzi import StrozziState

from .base import OFF, Colour, Frame, View, ViewContext, dim

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
    game = "strozzi"
    layout_name = "strozzi.toml"
    palette = (
        ("red", (255, 0, 0)),
        ("green", (0, 200, 0)),
        ("blue", (0, 0, 255)),
        ("yellow", (255, 190, 0)),
        ("purple", (150, 0, 255)),
        ("orange", (255, 80, 0)),
    )

    def render(self, state: State, ctx: ViewContext) -> Frame:
        assert isinstance(state, StrozziState)
        r = state.rules
        frame: Frame = {}
        colours = ctx.colours
        for c, city in enumerate(r.cities):
            pos, stamp = state.pos[c], state.stamp[c]
            spaces: dict[int, list[int]] = {}
            for seat in sorted(range(state.players), key=lambda s: stamp[s]):
                spaces.setdefault(pos[seat], []).append(seat)
            for space in range(r.last_space + 1):
                seats = spaces.get(space, [])
                frame[f"strozzi.track.{city}.{space}"] = [colours[s] for s in seats] + [OFF] * (
                    SLOTS - len(seats)
                )
        for p, port in enumerate(r.ports):
            queue = state.ports[p]
            for slot in range(SLOTS):
                frame[f"strozzi.port.{port}.{slot + 1}"] = (
                    colours[queue[slot][1]] if slot < len(queue) else OFF
                )
        for i in range(3):
            token = state.face_up[i] if i < len(state.face_up) else None
            if token is None:
                frame[f"strozzi.token.{i + 1}"] = OFF
            else:
                colour = CATEGORY[token.split("-")[0]]
                frame[f"strozzi.token.{i + 1}"] = (
                    colour if r.token_value[token] == 2 else dim(colour, 0.4)
                )
        ship = r.ships.get(state.ship)
        bar: list[Colour] = [OFF] * SAIL_LEDS
        if ship is not None:
            for i in range(min(ship.sails, SAIL_LEDS)):
                bar[i] = SAIL
            plus = state.flag == "plus" or state.taker_flag == "plus"
            if plus and ship.sails < SAIL_LEDS:
                bar[ship.sails] = PLUS_SAIL
        frame["strozzi.ship.sails"] = bar
        for player in range(state.players):
            left = state.flags[player]
            frame[f"seat.{ctx.seat_of(player)}.flags"] = [
                FLAG[f] if f in left else OFF for f in r.flags
            ]
        return frame

    def setup_frame(self, state: State, ctx: ViewContext) -> Frame:
        """Markers on the start spaces and the face-up tokens; nothing else lit."""
        frame = self.render(state, ctx)
        keep = ("strozzi.track.", "strozzi.token.", "seat.")
        return {k: v for k, v in frame.items() if k.startswith(keep)}

    def describe_chance(self, state: State, action: Action) -> str:
        assert isinstance(state, StrozziState)
        verb, _, arg = action.text.partition(" ")
        if verb == "draw":
            ship = state.rules.ships[int(arg)]
            goods = ", ".join(
                f"{n} {port.capitalize()}"
                for port, n in zip(state.rules.ports, ship.goods, strict=True)
                if n
            )
            extras = [f"goods {goods}" if goods else "no goods"]
            if ship.scrolls:
                extras.append(f"{ship.scrolls} scroll{'s' if ship.scrolls > 1 else ''}")
            if ship.token:
                extras.append("a progress token")
            return f"Ship {ship.id} comes up: {ship.sails} sails, {', '.join(extras)}."
        return f"Progress token {arg} is turned face up."

    def chance_actor(self, state: State) -> int | None:
        assert isinstance(state, StrozziState)
        if state.phase == "draw":
            return state.active
        return None

    def seat_active(self, state: State, player: int) -> bool:
        assert isinstance(state, StrozziState)
        return bool(state.flags[player])

    def scoring_steps(self, state: State, events: list[Event], ctx: ViewContext) -> list[Frame]:
        """One frame per scoring ship or marker, in the order the rulebook scores them.

        Amounts are money, which stays hidden: the sequence shows who scored where.
        """
        assert isinstance(state, StrozziState)
        steps: list[Frame] = []
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


VIEW = StrozziView()
