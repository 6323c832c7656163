"""A Strozzi player with a plan: fast ships where it has none, and its markers forward.

From the rulebook: at each port "the player with the ship positioned highest (fastest)
earns 15 points ... the second ... 10 ... the third ... 5"; "Each player may place only
one ship with his flag in each port during a round"; a ship's goods for a port move its
marker there ("the goods flag ... one further space"), and markers score 15/10/5 per
city; a "+1 flag" adds one to the ship's speed; a "pirate flag" takes a ship at once.

So, for the ship in play, this player works out the best port for it with each flag it
still has (where the ship would rank among the ships already there, and the goods,
scrolls and progress token it brings), and:

- takes it with the pirate flag when it would be the fastest at a port, or to take a
  good ship another seat has flagged;
- with the goods flag when the ship carries goods for that port, else with the +1 flag,
  when the ship is worth `WORTH` or more (anything, once the deck holds fewer than two
  ships for each flag still out: a flag unused at the round's end is a ship lost);
- otherwise lets it go. It places a ship at its best port, and takes the progress token
  of the category it is closest to leading (the 2-point tokens first).
"""

from __future__ import annotations

import random

from engine.core import Action, State
from engine.strozzi.observation import StrozziObservation

PLACES = (15, 10, 5)
"""Ship and marker points by place: 'earns 15 points ... 10 ... 5'."""
SPACE = 3.0
"""A marker space, in points: markers score 15/10/5 at every round's end."""
TOKEN = 6.0
"""A progress token: its 1-2 points at the end and its share of a 30/20/10 majority."""
WORTH = 9.0
"""The least a ship must be worth to spend a flag on it."""


def ship_worth(obs: StrozziObservation, seat: int, port: int, flag: str) -> float:
    """What the ship in play is worth to `seat` placed at `port` with `flag` (-1: it may
    not go there, having a ship there already this round)."""
    ship = obs.ship
    assert ship is not None
    entries = obs.ports[port].ships
    if any(e.seat == seat for e in entries):
        return -1.0
    speed = ship.sails + (flag == "plus")
    rank = sum(1 for e in entries if e.speed >= speed)  # equal speed: placed below
    value = PLACES[rank] if rank < len(PLACES) else 0.0
    value += SPACE * (ship.goods[port] + (flag == "goods"))
    value += SPACE * ship.scrolls + (TOKEN if ship.token else 0.0)
    return value


class PortRacer:
    """The purposeful Strozzi player (see the module's docstring)."""

    name = "purposeful"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = state.observe(seat)
        assert isinstance(obs, StrozziObservation)
        texts = {a.text: a for a in legal}
        ports = [p.name for p in obs.ports]
        if any(t.startswith("port ") for t in texts):
            flag = obs.flag_on_ship.flag if obs.flag_on_ship is not None else ""
            best = max(
                (t for t in texts if t.startswith("port ")),
                key=lambda t: ship_worth(obs, seat, ports.index(t.split()[1]), flag),
            )
            return texts[best]
        if any(t.startswith("token ") for t in texts):
            return texts[self._token(obs, seat, [t for t in texts if t.startswith("token ")])]
        if any(t.startswith("flag ") for t in texts) and obs.ship is not None:
            return texts[self._flag(obs, seat, texts)]
        return legal[rng.randrange(len(legal))]

    @staticmethod
    def _flag(obs: StrozziObservation, seat: int, texts: dict[str, Action]) -> str:
        """The flag to put on the ship in play, or the pass."""
        ports = range(len(obs.ports))

        def best(flag: str) -> float:
            return max(ship_worth(obs, seat, p, flag) for p in ports)

        other_flag = obs.flag_on_ship is not None and obs.flag_on_ship.seat != seat
        fastest = any(
            (ship_worth(obs, seat, p, "pirate") >= PLACES[0] and not obs.ports[p].ships)
            or ship_worth(obs, seat, p, "pirate") >= PLACES[0] + SPACE
            for p in ports
        )
        if "flag pirate" in texts and (fastest or (other_flag and best("pirate") >= WORTH)):
            return "flag pirate"
        flags_out = sum(len(f) for f in obs.flags)
        worth = WORTH if obs.deck_left > 2 * flags_out else 1.0  # few ships left: take one
        if "flag goods" in texts and obs.ship is not None and best("goods") >= worth:
            goods_port = max(ports, key=lambda p: ship_worth(obs, seat, p, "goods"))
            if obs.ship.goods[goods_port] > 0:
                return "flag goods"
        if "flag plus" in texts and best("plus") >= worth:
            return "flag plus"
        if "pass" in texts:
            return "pass"
        return next(iter(texts))

    @staticmethod
    def _token(obs: StrozziObservation, seat: int, options: list[str]) -> str:
        """The token of the category it is closest to leading, 2-point tokens first."""
        face = {t.name: t for t in obs.face_up}

        def held(s: int, category: str) -> int:
            return sum(t.value for t in obs.tokens[s] if t.category == category)

        def gap(name: str) -> tuple[int, int]:
            token = face.get(name.split(" ", 1)[1])
            if token is None:
                return (0, 0)
            others = (held(s, token.category) for s in range(obs.players) if s != seat)
            lead = max(others, default=0)
            return (token.value, -(lead - held(seat, token.category)))

        return max(options, key=gap)
