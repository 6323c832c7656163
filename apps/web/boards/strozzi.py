"""Strozzi's board: the ship in play, the three ports with their ships, the face-up
progress tokens and the four city tracks with their markers.

Drawn from `StrozziObservation`, which has no field for money: the only amounts shown
are the revealed totals once the game is over (`obs.scores`). Element names are those
of apps/layouts/strozzi.toml (and apps/views/strozzi.py, which lights them).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import counted
from engine.core.observation import Observation
from engine.strozzi import StrozziObservation
from engine.strozzi.observation import Track

from ...views.base import Colour
from ...views.strozzi import CATEGORY, SAIL_LEDS, SLOTS, cargo
from ..svg import FAINT, INK, WIDTH, Canvas, hex_colour, text_colour

FLAG_WORD = {"pirate": "pirate", "plus": "+1", "goods": "goods"}
CELL = (WIDTH - 8) / 16
SLOT_H = 18.0
BONUS_FILL = "#f1d98a"


def _obs(obs: Observation) -> StrozziObservation:
    assert isinstance(obs, StrozziObservation)
    return obs


def _token_words(name: str) -> str:
    """'arts-1-venice' -> 'arts 1 (Venice)'."""
    parts = name.split("-")
    words = f"{parts[0]} {parts[1]}" if len(parts) > 1 else name
    return f"{words} ({parts[2].capitalize()})" if len(parts) > 2 else words


def draw(obs: Observation, c: Canvas, colour: Sequence[Colour]) -> None:
    o = _obs(obs)
    _ship(o, c, colour)
    _ports(o, c, colour)
    _tokens(o, c)
    for track in o.tracks:
        _track(o, track, c, colour)


def _ship(o: StrozziObservation, c: Canvas, colour: Sequence[Colour]) -> None:
    """The ship card face up in play: sails, goods, scrolls, token; the flag on it."""
    top = c.y
    c.rect(4, top, WIDTH - 8, 52, "#fff", stroke=FAINT, rx=5)
    ship = o.ship
    if ship is None:
        c.text(
            12, top + 18, f"No ship in play - {counted(o.deck_left, 'ship card')} left this round"
        )
    else:
        c.text(
            12,
            top + 17,
            f"In play: the {ship.sails}-sail ship",
            13,
            font_weight="bold",
        )
        c.text(12, top + 32, cargo(o.rules, ship))
        c.spot("draw", 4, top, WIDTH - 8, 52)  # outlined when it has just come up
    flagged = o.flag_on_ship
    if flagged is not None:
        c.circle(WIDTH - 120, top + 43, 5, hex_colour(colour[flagged.seat]), stroke=INK)
        c.text(WIDTH - 110, top + 47, f"{FLAG_WORD.get(flagged.flag, flagged.flag)} flag")
    c.text(12, top + 47, "sails", fill=FAINT)
    c.place("strozzi.ship.sails", 46, top + 39, 9.0 * SAIL_LEDS, 8)
    c.y = top + 60


def _ports(o: StrozziObservation, c: Canvas, colour: Sequence[Colour]) -> None:
    """Each port's ships this round, fastest at the top."""
    top = c.y
    w = (WIDTH - 16) / 3
    for k, port in enumerate(o.ports):
        x = 4 + k * (w + 4)
        c.rect(x, top, w, 24 + SLOTS * SLOT_H, "#fff", stroke=FAINT, rx=5)
        c.text(x + 6, top + 16, port.name.capitalize(), 13, font_weight="bold")
        c.spot(port.name, x, top, w, 24 + SLOTS * SLOT_H)
        for slot in range(SLOTS):
            y = top + 22 + slot * SLOT_H
            if slot < len(port.ships):
                entry = port.ships[slot]
                fill = colour[entry.seat]
                c.rect(x + 4, y, w - 20, SLOT_H - 2, hex_colour(fill), rx=3)
                c.text(
                    x + 8,
                    y + 12,
                    counted(entry.speed, "sail"),  # a slot is narrow: the card is above
                    fill=text_colour(fill),
                )
            else:
                c.text(x + 8, y + 12, f"{slot + 1}", fill=FAINT)
            c.place(f"strozzi.port.{port.name}.{slot + 1}", x + w - 13, y + 4, 8, 8)
    c.y = top + 30 + SLOTS * SLOT_H


def _tokens(o: StrozziObservation, c: Canvas) -> None:
    """The progress tokens face up, in their category's colour."""
    top = c.y
    c.text(8, top + 12, f"Progress tokens face up ({o.pile} face down)", font_weight="bold")
    w = (WIDTH - 16) / 3
    for i in range(3):
        x = 4 + i * (w + 4)
        y = top + 18
        if i < len(o.face_up):
            token = o.face_up[i]
            fill = CATEGORY.get(token.category, (200, 200, 200))
            c.rect(x, y, w, 34, hex_colour(fill), rx=4, fill_opacity=0.35)
            c.text(x + 6, y + 14, _token_words(token.name).split(" (")[0], font_weight="bold")
            if token.port:
                c.text(x + 6, y + 28, token.port.capitalize())
            c.spot(token.name, x, y, w, 34)
        else:
            c.rect(x, y, w, 34, "none", stroke=FAINT, rx=4, stroke_dasharray="3 3")
        c.place(f"strozzi.token.{i + 1}", x + w - 13, y + 4, 8, 8)
    c.y = top + 60


def _track(o: StrozziObservation, track: Track, c: Canvas, colour: Sequence[Colour]) -> None:
    """A city's track: spaces 0 to the last, bonus spaces shaded, the markers on each
    space left to right (up to six, in two columns of three)."""
    top, city = c.y, track.city
    bonus = ", ".join(map(str, sorted(o.rules.bonus)))
    c.text(8, top + 12, city.capitalize(), 13, font_weight="bold")
    c.text(80, top + 12, f"bonus spaces {bonus}", fill=FAINT)
    y = top + 16
    for space in range(o.rules.last_space + 1):
        x = 4 + space * CELL
        fill = BONUS_FILL if space in o.rules.bonus else "#fff"
        c.rect(x, y, CELL - 1, 44, fill, stroke=FAINT, stroke_width=0.5)
        c.text(x + CELL / 2, y + 12, str(space), text_anchor="middle")
        for k, seat in enumerate(track.on(space)):
            cx = x + 6 + (k % 2) * 9
            cy = y + 19 + (k // 2) * 7
            c.circle(cx, cy, 3.4, hex_colour(colour[seat]), stroke=INK, stroke_width=0.5)
        c.place(f"strozzi.track.{city}.{space}", x + 1, y + 38, CELL - 3, 4)
    c.y = y + 50


def holdings(obs: Observation, seat: int) -> str:
    """Flags left this round and progress tokens taken; money only once revealed."""
    o = _obs(obs)
    flags = ", ".join(FLAG_WORD.get(f, f) for f in o.flags[seat]) or "none"
    tokens = ", ".join(_token_words(t.name) for t in o.tokens[seat]) or "none"
    words = f"Flags: {flags}. Tokens: {tokens}."
    if o.over and o.scores is not None:
        words += f" Money: {o.scores[seat]}."
    return words
