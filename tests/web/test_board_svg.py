"""The board drawings of the phone page: what a person reads and sees on each game's SVG.

Positions come from seeded play on the engine alone; the LED colours from the game's own
view (`render`, its `hint`, and the table's generic preview: the candidate applied to a
clone, what changed lit white), so drawing and LEDs are checked against each other.
Geometry is read back from the parsed SVG: "the wagon is on square 141" means its label
lies inside the box that holds the label 141, as a person would see it.

The last test renders every board in Debian's Chromium through Playwright: no console
errors, a drawing with a size, labels at least 11 px tall at 360 px wide, and a
screenshot of each (docs/phone/board-<game>.png when TAVOLA_SCREENSHOTS names that
folder: `TAVOLA_SCREENSHOTS=docs/phone pytest tests/web/test_board_svg.py -k browser`).
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import engine
from apps.games import table_game
from apps.views import view_for
from apps.views.base import WHITE, ElementFrame, ViewContext
from apps.views.strada_romana import WAGON
from apps.web.board import SeatInfo, board_svg
from engine.core import CHANCE, Action, State, counted
from engine.core.rng import random_action
from engine.strada_romana import StradaRomanaEndObservation

from .appliance import CHROMIUM
from .appliance import browser as launch

NS = "{http://www.w3.org/2000/svg}"
GAMES = ("strozzi", "florence", "strada_romana")


def hex_colour(c: tuple[int, int, int]) -> str:
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


# --- positions and drawings --------------------------------------------------------------
def new(game: str, players: int = 3, seed: int = 1, **options: object) -> State:
    return engine.get(game).new_state(players, seed=seed, options=dict(options))


def play(state: State, steps: int, seed: int = 1) -> str | None:
    """Random legal actions; the last one's public text."""
    rng = random.Random(seed)
    view = view_for(state.observe().game)
    last = None
    for _ in range(steps):
        if state.is_over():
            break
        action = random_action(state, rng)
        state.apply(action)
        last = view.public_text(state, action)
    return last


def play_until(state: State, done: Callable[[State], bool], seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(5000):
        if done(state):
            return
        assert not state.is_over(), "the position looked for never came up"
        state.apply(random_action(state, rng))
    raise AssertionError("the position looked for never came up")


def context(state: State) -> tuple[ViewContext, list[SeatInfo]]:
    obs = state.observe()
    palette = view_for(obs.game).palette_for(obs.players)[: obs.players]
    ctx = ViewContext(
        colours=tuple(c for _, c in palette), seats=tuple(str(i + 1) for i in range(obs.players))
    )
    seats = [SeatInfo(i, f"Player {i + 1}", c, name) for i, (name, c) in enumerate(palette)]
    return ctx, seats


def lit(state: State, extra: ElementFrame | None = None) -> ElementFrame:
    """The board's LEDs as the view lights them, with `extra` over them (a preview)."""
    ctx, _ = context(state)
    frame = view_for(state.observe().game).render(state, ctx)
    frame.update(extra or {})
    return frame


def preview(state: State, text: str) -> ElementFrame:
    """The table's generic candidate preview (apps.table.render): what `text` would change,
    in its blink phase, white."""
    ctx, _ = context(state)
    view = view_for(state.observe().game)
    trial = state.clone()
    trial.apply(_action(trial, text))
    before, after = view.render(state, ctx), view.render(trial, ctx)
    return {
        k: [WHITE if c != (0, 0, 0) else c for c in v] if isinstance(v, list) else WHITE
        for k, v in after.items()
        if before.get(k) != v
    }


def _action(state: State, text: str) -> Action:
    return next(a for a in state.legal_actions() if a.text == text)


def draw(state: State, frame: ElementFrame | None = None, last: str | None = None) -> str:
    _, seats = context(state)
    return board_svg(state.observe(), lit(state) if frame is None else frame, seats, last)


# --- reading the SVG back ----------------------------------------------------------------
def tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def _f(el: ET.Element, key: str) -> float:
    return float(el.get(key, "0"))


def rects(root: ET.Element) -> Iterator[tuple[float, float, float, float]]:
    for r in root.iter(f"{NS}rect"):
        if r.get("x") is not None:
            yield _f(r, "x"), _f(r, "y"), _f(r, "width"), _f(r, "height")


def where(root: ET.Element, label: str, size: str | None = None) -> tuple[float, float]:
    """The point a label is read at (just above its baseline)."""
    found = [
        t
        for t in root.iter(f"{NS}text")
        if t.text == label and (size is None or t.get("font-size") == size)
    ]
    assert found, f"no label {label!r} on the drawing"
    return _f(found[0], "x") + 2, _f(found[0], "y") - 3


def box_of(root: ET.Element, label: str, size: str | None = None) -> tuple[float, ...]:
    """The smallest box drawn around a label: the square, port or location it names."""
    x, y = where(root, label, size)
    around = [r for r in rects(root) if r[0] <= x <= r[0] + r[2] and r[1] <= y <= r[1] + r[3]]
    around = [r for r in around if r[2] < 300]  # not the page or a whole panel
    assert around, f"nothing is drawn around {label!r}"
    return min(around, key=lambda r: r[2] * r[3])


def inside(point: tuple[float, float], box: tuple[float, ...]) -> bool:
    x, y = point
    return box[0] <= x <= box[0] + box[2] and box[1] <= y <= box[1] + box[3]


def led_fills(root: ET.Element, element: str) -> list[str]:
    """The colours drawn for a layout element's LEDs (empty: none lit)."""
    for g in root.iter(f"{NS}g"):
        if g.get("data-el") == element:
            return [r.get("fill", "") for r in g.iter(f"{NS}rect")]
    return []


def led_box(root: ET.Element, element: str) -> tuple[float, float]:
    for g in root.iter(f"{NS}g"):
        if g.get("data-el") == element:
            r = next(g.iter(f"{NS}rect"))
            return _f(r, "x") + 0.5, _f(r, "y") + 0.5
    raise AssertionError(f"{element} is not lit on the drawing")


def circles_in(root: ET.Element, box: tuple[float, ...], fill: str) -> int:
    return sum(
        1
        for c in root.iter(f"{NS}circle")
        if c.get("fill") == fill and inside((_f(c, "cx"), _f(c, "cy")), box)
    )


# --- every game ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_valid_readable_small_and_without_scripts(game: str) -> None:
    state = new(game)
    last = play(state, 80)
    svg = draw(state, last=last)
    root = tree(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox", "").split()[2] == "360", "drawn for a 360 px wide phone"
    default = root.get("font-size", "0")  # what a text without its own size inherits
    sizes = [float(t.get("font-size", default)) for t in root.iter(f"{NS}text")]
    assert sizes and min(sizes) >= 11
    assert "<script" not in svg.lower() and not re.search(r"\son\w+=", svg)
    assert len(svg.encode()) < 48_000, f"{game}: {len(svg.encode())} bytes"


@pytest.mark.parametrize("game", GAMES)
def test_every_layout_element_has_its_place(game: str) -> None:
    """Each LED element of the game's layout is drawn where the board shows it: light them
    all and every one appears (seats: those of the players seated)."""
    state = new(game)
    play(state, 40)
    layout = tomllib.loads(table_game(game).layout.read_text())["elements"]
    names = [".".join(k) for k in _keys(layout)]
    players = state.observe().players
    wanted = [n for n in names if not n.startswith("seat.") or int(n.split(".")[1]) <= players]
    if game == "strozzi":  # the strip has 16 spaces per track; a board uses 0..last_space
        last = state.rules.last_space
        wanted = [
            n
            for n in wanted
            if not n.startswith("strozzi.track.") or int(n.rsplit(".", 1)[1]) <= last
        ]
    frame: ElementFrame = {n: (1, 2, 3) for n in wanted}
    root = tree(draw(state, frame))
    missing = [n for n in wanted if "#010203" not in led_fills(root, n)]
    assert not missing, f"not drawn: {missing[:10]}"


def _keys(table: dict, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for k, v in table.items():
        if isinstance(v, dict) and not {"start", "end"} <= v.keys():
            yield from _keys(v, (*prefix, k))
        else:
            yield (*prefix, k)


@pytest.mark.parametrize("game", GAMES)
def test_turn_ringed_names_escaped_last_shown(game: str) -> None:
    state = new(game)
    play_until(state, lambda s: s.current_player() == CHANCE)
    _, seats = context(state)
    rings = [r.get("stroke-width") for r in tree(draw(state)).iter(f"{NS}rect")]
    assert "3" not in rings, "a draw is nobody's turn"
    last = play(state, 1)
    play_until(state, lambda s: s.current_player() not in (CHANCE, None))
    obs = state.observe()
    seats[0] = SeatInfo(0, 'Ann <b>&"', seats[0].colour, "x")
    svg = board_svg(obs, lit(state), seats, last)
    root = tree(svg)
    assert any(t.startswith('Ann <b>&"') for t in texts(root))
    assert f"Last: {last}" in texts(root)
    turn = obs.current
    assert turn is not None and turn != CHANCE and turn >= 0
    ring = [r for r in root.iter(f"{NS}rect") if r.get("class") == f"seat seat-{turn}"]
    assert ring and ring[0].get("stroke") == hex_colour(seats[turn].colour)
    assert ring[0].get("stroke-width") == "3"
    others = [r for r in root.iter(f"{NS}rect") if (r.get("class") or "").startswith("seat ")]
    assert sum(r.get("stroke-width") == "3" for r in others) == 1


@pytest.mark.parametrize("game", GAMES)
def test_whole_games_draw_at_every_player_count(game: str) -> None:
    """From the first setup draw to the end, fewest and most players: every drawing
    parses and shows every seat."""
    g = engine.get(game)
    for players in sorted({g.min_players, g.max_players}):
        state = new(game, players, seed=players)
        rng = random.Random(players)
        view = view_for(game)
        for n in range(3000):
            if n % 15 == 0 or state.is_over():
                _, seats = context(state)
                root = tree(board_svg(state.observe(), lit(state), seats))
                rows = [
                    r for r in root.iter(f"{NS}rect") if (r.get("class") or "").startswith("seat ")
                ]
                assert len(rows) == state.observe().seats
            if state.is_over():
                break
            action = random_action(state, rng)
            state.apply(action)
            view.public_text(state, action)
        assert state.is_over()


def test_florence_solo_automa_has_a_row() -> None:
    state = new("florence", 1)
    play_until(state, lambda s: s.observe().round == 2)
    words = " ".join(texts(tree(draw(state))))
    vp = state.observe().boards[1].vp
    assert f"Strozzi (automa) {vp} VP" in words


def test_unknown_game_is_one_clear_error() -> None:
    obs = dataclasses.replace(new("strozzi").observe(), game="chess")
    with pytest.raises(KeyError, match="no board drawing for 'chess' yet"):
        board_svg(obs, {}, [])


# --- Strozzi -------------------------------------------------------------------------------
def test_strozzi_labels() -> None:
    state = new("strozzi", 4)
    root = tree(draw(state))
    words = texts(root)
    for port in ("Venice", "Rome", "Naples"):
        assert port in words
    for city in ("Venice", "Rome", "Naples", "Florence"):
        assert words.count(city) >= 1
    for space in range(state.rules.last_space + 1):
        assert words.count(str(space)) >= 4, f"space {space} on each of the four tracks"


def test_strozzi_ship_goes_to_its_port() -> None:
    state = new("strozzi", 3)
    play_until(state, lambda s: "port naples" in [a.text for a in s.legal_actions()])
    before = tree(draw(state))
    port = box_of(before, "Naples", "13")
    ship = state.observe().ship
    assert ship is not None
    label = counted(ship.sails, "sail")
    assert not any(t == label and inside(where(before, t), port) for t in texts(before))
    board = preview(state, "port naples")
    shown = tree(draw(state, lit(state, board)))
    lit_slots = [e for e in board if e.startswith("strozzi.port.naples.")]
    assert lit_slots, "the preview lights a slot in Naples"
    assert all(inside(led_box(shown, e), port) for e in lit_slots)
    assert "#ffffff" in led_fills(shown, lit_slots[0])
    state.apply(_action(state, "port naples"))
    after = tree(draw(state, last="port naples"))
    port = box_of(after, "Naples", "13")
    mine = [t for t in texts(after) if t == label]
    assert mine and inside(where(after, mine[0]), port)


def test_strozzi_markers_move_on_their_track() -> None:
    state = new("strozzi", 3)
    obs = state.observe()
    colours = [hex_colour(c) for c in context(state)[0].colours]
    root = tree(draw(state))
    start = box_of(root, "0")  # Venice's start space comes first
    assert circles_in(root, start, colours[0]) == 1
    play_until(state, lambda s: s.observe().tracks[0].positions != obs.tracks[0].positions)
    moved = state.observe().tracks[0]
    seat = next(s for s in range(3) if moved.positions[s] != 0)
    root = tree(draw(state))
    track_cells = [
        r for r in rects(root) if r[2] < 23 and r[3] == 44
    ]  # the 64 spaces, Venice's first
    cell = track_cells[moved.positions[seat]]
    assert circles_in(root, cell, colours[seat]) == 1
    assert circles_in(root, track_cells[0], colours[seat]) == 0


def test_strozzi_money_never_shown_until_revealed() -> None:
    """'Players may keep the amount of their money secret': mid-game, no seat's money is
    on the drawing, even handed a seat's own observation; at the end it is revealed."""
    state = new("strozzi", 3)
    play_until(state, lambda s: s.observe().round == 2 and min(s.money) > 0)
    _, seats = context(state)
    public = board_svg(state.observe(), lit(state), seats)
    for seat in range(3):
        own = state.observe(seat)
        assert own.money > 0
        assert board_svg(own, lit(state), seats) == public
    seat_rows = [t for t in texts(tree(public)) if t.startswith("Flags")]
    assert len(seat_rows) == 3 and not any("Money" in t for t in seat_rows)
    assert "money" not in public.lower()
    play_until(state, State.is_over)
    final = texts(tree(draw(state)))
    for seat in range(3):
        assert any(f"Money: {state.money[seat]}." in t for t in final)


# --- Florence ------------------------------------------------------------------------------
def test_florence_labels() -> None:
    state = new("florence", 3)
    play(state, 25)
    root = tree(draw(state))
    words = texts(root)
    for loc in range(1, 10):
        box = box_of(root, str(loc), "15")
        assert box[2] > 100, "each location is a cell of the 3x3 grid"
    for r in range(1, 10):
        assert f"R{r}" in words
    obs = state.observe()
    for location in obs.locations:
        if location.tile is not None:
            assert any(location.tile.name.split("-")[0].capitalize() in w for w in words)


def test_florence_piece_placed_in_its_queue_and_preview_lit() -> None:
    state = new("florence", 3)
    play_until(state, lambda s: any(a.text == "place 5" for a in s.legal_actions()))
    seat = state.current_player()
    colour = hex_colour(context(state)[0].colours[seat])
    root = tree(draw(state))
    cell = box_of(root, "5", "15")
    before = circles_in(root, cell, colour)
    board = preview(state, "place 5")
    shown = tree(draw(state, lit(state, board)))
    queue = [e for e in board if e.startswith("florence.location.5.queue.")]
    assert queue and all(inside(led_box(shown, e), cell) for e in queue)
    assert "#ffffff" in led_fills(shown, queue[0])
    state.apply(_action(state, "place 5"))
    root = tree(draw(state, last="place 5"))
    assert circles_in(root, box_of(root, "5", "15"), colour) == before + 1
    outlined = [r for r in root.iter(f"{NS}rect") if r.get("class") == "last"]
    assert outlined and inside((_f(outlined[0], "x") + 5, _f(outlined[0], "y") + 5), cell)


def test_florence_hint_lights_the_queue_chosen() -> None:
    state = new("florence", 3)
    play_until(state, lambda s: any(a.text.startswith("promote 5 ") for a in s.legal_actions()))
    ctx, _ = context(state)
    hint = view_for("florence").hint(state, ("promote", "5"), ctx)
    assert hint
    root = tree(draw(state, lit(state, hint)))
    cell = box_of(root, "5", "15")
    for element in hint:
        assert "#ffffff" in led_fills(root, element)
        assert inside(led_box(root, element), cell)


def test_florence_scandal_card_stays_secret() -> None:
    """Two games alike but for the scandal card drawn into a hand draw the same board;
    the hand's size is shown, and the seat's own observation (which holds the card)
    draws the same board too."""
    state = new("florence", 3)
    play_until(
        state,
        lambda s: len([a for a in s.legal_actions() if a.text.startswith("draw ")]) > 1,
    )
    view = view_for("florence")
    seat = state.observe().pending[0]
    held = state.observe().boards[seat].hand_size
    drawings = set()
    for action in state.legal_actions()[:2]:
        trial = state.clone()
        trial.apply(action)
        svg = draw(trial, last=view.public_text(trial, action))
        assert action.text not in svg
        own = trial.observe(seat)
        assert action.text.split()[2] in " ".join(own.hand)
        _, seats = context(trial)
        assert board_svg(own, lit(trial), seats, view.public_text(trial, action)) == svg
        drawings.add(svg)
    assert len(drawings) == 1
    words = " ".join(texts(tree(drawings.pop())))
    assert f"{held + 1} scandal card" in words


# --- Strada Romana -------------------------------------------------------------------------
def test_strada_labels() -> None:
    state = new("strada_romana", 3)
    root = tree(draw(state))
    words = texts(root)
    board = state.observe().board
    for square in board.square_names:
        assert words.count(square) == 1, f"square {square}"
    for area in board.area_names:
        assert area in words
    for k in range(1, 5):
        assert str(k) in words
    assert "Portus" in words and "Roma" in words


def _stepping(state: State) -> bool:
    return any(a.text.startswith("step ") for a in state.legal_actions())


def test_strada_wagon_moves_and_reach_is_lit() -> None:
    state = new("strada_romana", 3)
    play_until(state, _stepping)
    step = next(a for a in state.legal_actions() if a.text.startswith("step "))
    _, wagon, square = step.text.split()
    ctx, _ = context(state)
    hint = view_for("strada_romana").hint(state, ("step", wagon), ctx)
    root = tree(draw(state, lit(state, hint)))
    target = box_of(root, square)
    element = f"strada_romana.square.{square}"
    assert hex_colour(WAGON[wagon]) in led_fills(root, element), "its reach, in its colour"
    assert inside(led_box(root, element), target)
    name = wagon.capitalize()
    labels = [t for t in texts(root) if name.startswith(t) and len(t) >= 4]
    assert labels and not inside(where(root, labels[0]), target)
    state.apply(step)
    root = tree(draw(state, last=step.text))
    target = box_of(root, square)
    labels = [t for t in texts(root) if name.startswith(t) and len(t) >= 4]
    assert labels and inside(where(root, labels[0]), target)
    outlined = [r for r in root.iter(f"{NS}rect") if r.get("class") == "last"]
    middle = [(_f(r, "x") + _f(r, "width") / 2, _f(r, "y") + _f(r, "height") / 2) for r in outlined]
    assert len(outlined) == 2, "the square reached and the wagon"
    assert all(inside(m, target) for m in middle)


def test_strada_wagon_heading_drawn() -> None:
    state = new("strada_romana", 3)
    play_until(state, _stepping)
    root = tree(draw(state))
    obs = state.observe()
    for wagon in obs.wagons:
        if wagon.square is None:
            continue
        box = box_of(root, wagon.square)
        tri = [
            p
            for p in root.iter(f"{NS}polygon")
            if inside(tuple(map(float, p.get("points", "").split()[0].split(","))), box)
        ]
        assert len(tri) == 1
        ys = [float(pt.split(",")[1]) for pt in tri[0].get("points", "").split()]
        points_down = ys[2] > ys[0]
        assert points_down == (wagon.heading == "rome"), wagon


def test_strada_wagon_tile_stays_secret() -> None:
    """Two games alike but for the wagon tile a seat took draw the same board, and no
    seat's holdings name a wagon; at the end the tiles are revealed."""
    state = new("strada_romana", 3, wagon_tiles="when_taken")
    play_until(
        state,
        lambda s: len([a for a in s.legal_actions() if a.text.startswith("wagon ")]) > 1,
    )
    view = view_for("strada_romana")
    seat = state.current_player()
    drawings = set()
    choices = [a for a in state.legal_actions() if a.text.startswith("wagon ")][:2]
    for action in choices:
        trial = state.clone()
        trial.apply(action)
        assert action.text.split()[1] in (trial.observe(seat).own_wagon_tiles or ())
        svg = draw(trial, last=view.public_text(trial, action))
        words = " ".join(texts(tree(svg)))
        tiles = trial.observe().holdings[seat].wagon_tiles
        assert f"{tiles} wagon tile{'s' if tiles != 1 else ''}, face down" in words
        drawings.add(svg)
    assert len(drawings) == 1
    play_until(state, State.is_over)
    obs = state.observe()
    assert isinstance(obs, StradaRomanaEndObservation)
    words = " ".join(texts(tree(draw(state))))
    assert any(obs.revealed)
    for held in obs.revealed:
        named = ", ".join(w.capitalize() for w in held if w)
        if named:  # a seat that took no tile has none to show
            assert f"wagon tiles: {named}." in words


# --- in a real browser ---------------------------------------------------------------------


def showcase(game: str) -> str:
    """A position worth a screenshot: mid-game, with a preview lit."""
    if game == "strada_romana":
        state = new(game, 3)
        play_until(state, _stepping)
        last = play(state, 7, seed=3)
        ctx, _ = context(state)
        steps = [a.text.split() for a in state.legal_actions() if a.text.startswith("step ")]
        hint = view_for(game).hint(state, ("step", steps[0][1]), ctx) if steps else {}
        return draw(state, lit(state, hint), last=last)
    state = new(game, 3)
    last = play(state, 90 if game == "florence" else 40)
    return draw(state, last=last)


def test_boards_in_chromium(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium: bash scripts/system-deps.sh"
    out = Path(os.environ.get("TAVOLA_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2)
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            for game in GAMES:
                svg = showcase(game)
                page.set_content(
                    '<!doctype html><meta name="viewport" content="width=device-width">'
                    f'<body style="margin:0">{svg}</body>'
                )
                size = page.eval_on_selector(
                    "svg",
                    "s => { const r = s.getBoundingClientRect(); return [r.width, r.height] }",
                )
                assert size[0] == 360 and size[1] > 500, (game, size)
                smallest = page.eval_on_selector_all(
                    "svg text",
                    "ts => Math.min(...ts.map(t => parseFloat(getComputedStyle(t).fontSize)"
                    " * t.getScreenCTM().a))",
                )
                assert smallest >= 11, (game, smallest)
                shot = out / f"board-{game}.png"
                page.locator("svg").screenshot(path=str(shot))
                assert shot.stat().st_size > 10_000
            assert errors == []
        finally:
            browser.close()
