"""Strada Romana on the table: whole games by button presses, the view, the hint, the layout."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import engine
from apps import cli
from apps.games import table_game
from apps.menu import DONE, Menu
from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config
from apps.views import view_for
from apps.views.base import OFF, WHITE, ViewContext, dim
from apps.views.strada_romana import (
    ARRIVED_TILE,
    AWAY,
    COIN,
    CUBE,
    LATER,
    ROAD_TILE,
    TRAIL,
    WAGON,
)
from engine.core import CHANCE, derive, random_action
from engine.strada_romana import SpecialMove, StradaRomanaState
from engine.strada_romana.board import TO_ROME
from hw.layout import Layout
from tests.apps.test_table import journal_actions

VIEW = view_for("strada_romana")
GAME = engine.get("strada_romana")
COLOURS = tuple(colour for _, colour in VIEW.palette)
SQ = "strada_romana.square."


def ctx_for(players: int) -> ViewContext:
    return ViewContext(colours=COLOURS[:players])


def playout(
    players: int, seed: int, until: Callable[[StradaRomanaState], bool], **options: object
) -> StradaRomanaState:
    """Random legal play from a new game until `until` holds (reproducible by seed)."""
    state = GAME.new_state(players, seed=seed, options=options)
    k = 0
    while not until(state):
        assert not state.is_over(), "the game ended before the position was reached"
        state.apply(random_action(state, derive(seed, "test", k)))
        k += 1
    return state


def first_turn(players: int = 3, seed: int = 1) -> StradaRomanaState:
    return playout(players, seed, lambda s: s.phase == "turn")


# --- whole games on a mocked table ---------------------------------------------------------
@pytest.fixture
def make_table(tmp_path: Path) -> Iterator:
    tables: list[Appliance] = []
    said: list[str] = []

    def make(
        players: int,
        seed: int,
        *,
        chance: str = "app",
        one_button: int = 0,
        options: dict[str, object] | None = None,
    ) -> tuple[Appliance, ButtonBot]:
        config = demo_config(
            "strada_romana",
            players,
            journal=tmp_path / "journal.db",
            seed=seed,
            chance=chance,
            one_button=one_button,
        )
        config.app.options = dict(options or {})
        clock = ManualClock()
        table = Appliance(config, clock=clock, button_thread=False, say=said.append)
        tables.append(table)
        table.app.start()
        table.app.tick()
        return table, ButtonBot(table, clock, seed)

    make.said = said  # type: ignore[attr-defined]
    yield make
    for table in tables:
        table.close()


def seated(make_table, players: int = 3, seed: int = 1) -> tuple[Appliance, ButtonBot]:
    """A table past seating and setup, waiting for the first turn's first press."""
    table, bot = make_table(players, seed)
    app = table.app
    while app.mode != "playing":
        bot.advance(players)
    return table, bot


@pytest.mark.parametrize(
    ("players", "seed", "chance", "one_button", "options"),
    [
        (2, 3, "app", 0, {}),
        (3, 1, "app", 0, {"wagon_tiles": "when_taken"}),
        (5, 7, "pick", 2, {}),
    ],
)
def test_a_whole_game_by_button_presses_scores_as_the_engine(
    make_table,
    tmp_path: Path,
    players: int,
    seed: int,
    chance: str,
    one_button: int,
    options: dict[str, object],
) -> None:
    table, bot = make_table(players, seed, chance=chance, one_button=one_button, options=options)
    assert bot.play(players)
    app = table.app
    assert app.mode == "over" and app.state is not None and app.state.is_over()
    # the journal alone, replayed by the bare engine, gives the same scores and winner
    actions = journal_actions(tmp_path / "journal.db")
    replay = GAME.new_state(players, seed=seed, options=options)
    for player, text in actions:
        replay.apply(replay.parse_action(text, player=player))
    assert replay.is_over()
    assert replay.scores() == app.state.scores() and replay.winner() == app.state.winner()
    record = table.journal.history(1)[0]
    assert record.status == "finished" and record.scores == replay.scores()
    assert any("Game over" in line for line in make_table.said)
    assert sum(1 for p, _ in actions if p == CHANCE) > 30  # the setup alone draws 32 times
    # 'players pick the "wagon tiles" deck up and choose one of them': the holder enters it
    entered = [(p, text) for p, text in actions if text.startswith("wagon ")]
    assert entered and all(p != CHANCE for p, _ in entered)
    if options.get("wagon_tiles") == "when_taken":
        # a wagon tile entered as it is taken is never named in the game's log
        log = [line for line in make_table.said if line.startswith("#")]
        for _, text in entered:
            assert not any(line.endswith(text) for line in log), text
        assert any(line.endswith("wagon (a face-down tile)") for line in log)


def test_at_the_reveal_the_holder_names_each_tile_and_the_wagon_lights(make_table) -> None:
    """'When the game ends, all players reveal the "wagon tiles" they own': with the default
    chance = "app" the table draws no tile; the holder's seat is asked, its candidate wagon
    lights white on the board, and its own presses name the tile."""
    table, bot = make_table(3, 2)
    app = table.app
    while app.state is None or app.state.phase != "reveal":
        assert app.mode != "over", "nobody held a wagon tile"
        bot.advance(3)
    state = app.state
    holder = state.current_player()
    seat = app.players[holder]
    assert app._waiting_seat() == seat and "reveals wagon tile" in make_table.said[-2]
    history = len(state.history)
    other = next(s for s in app.players if s != seat)
    bot.command(other, "select")  # not that seat's tile: refused, nothing entered
    assert len(state.history) == history
    bot.command(seat, "next")
    menu = app.menus[seat]
    wagon = menu.candidate().words[1]
    b = state.board
    w = b.wagon_index[wagon]
    element = (
        f"{SQ}{b.square_names[state.pos[w]]}"
        if state.pos[w] >= 0
        else f"strada_romana.arrival.{state.arrived.index(w) + 1}"
    )
    lit = [app.frame(bot.clock.now + k * 0.05).get(element) for k in range(12)]
    assert [WHITE, WHITE] in lit
    bot.command(seat, "select")
    assert state.history[history].text == f"wagon {wagon}"
    assert state.history[history].player == holder


def test_a_journal_that_recorded_wagon_tiles_as_draws_still_resumes(
    make_table, tmp_path: Path
) -> None:
    """Journals from before wagon tiles were the holder's choice recorded `wagon NAME` as a
    draw (player -1): a restarted table still resumes such a game exactly."""
    table, bot = make_table(3, 1, options={"wagon_tiles": "when_taken"})
    app = table.app
    while not any(a.text.startswith("wagon ") for a in (app.state.history if app.state else [])):
        bot.advance(3)
    before = json.dumps(app.state.to_dict(), sort_keys=True)
    table.close()
    db = sqlite3.connect(tmp_path / "journal.db")
    with db:
        changed = db.execute("UPDATE actions SET player = -1 WHERE text LIKE 'wagon %'").rowcount
    db.close()
    assert changed >= 1
    again, _bot = make_table(3, 1, options={"wagon_tiles": "when_taken"})
    assert again.app.mode == "playing" and again.app.state is not None
    assert json.dumps(again.app.state.to_dict(), sort_keys=True) == before


def test_the_demo_plays_to_the_end_and_repeats_byte_for_byte(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outputs = []
    for _ in range(2):
        assert cli.main(["demo", "strada_romana", "--players", "3", "--seed", "1"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("Strada Romana on a mocked table: 3 players, seed 1")
    assert "Game over." in outputs[0] and "\nwinner: seat" in outputs[0]


def test_the_setup_draws_run_in_setup_then_the_board_is_laid_out(make_table) -> None:
    table, bot = make_table(3, 2)
    app = table.app
    while app.mode != "setup":
        bot.advance(3)
    # the app drew the whole setup; the table now waits for the board to be laid out
    assert app.state is not None and app.state.phase == "turn" and not app._in_setup()
    frame = app.frame(app.clock())
    for name in ("p1", "p5", "r1", "r5"):
        assert frame[SQ + name] != [OFF, OFF]
    assert "strada_romana.steps" not in frame and "strada_romana.special" not in frame
    bot.command("1", "select")
    assert app.mode == "playing"


# --- the hint: what a wagon under the cursor can reach --------------------------------------
def test_the_wagon_under_the_cursor_lights_the_squares_it_can_reach(make_table) -> None:
    table, bot = seated(make_table)
    app = table.app
    state = app.state
    assert isinstance(state, StradaRomanaState) and state.phase == "turn"
    seat = app._waiting_seat()
    assert seat is not None
    menu = app._menu_for(seat)
    while menu.current != "step":
        bot.command(seat, "next")
        menu = app.menus[seat]
    bot.command(seat, "select")  # step: the wagons are offered, none chosen yet
    menu = app.menus[seat]
    b = state.board
    seen = []
    for _ in range(len(menu.options())):
        wagon = menu.current
        frame = app.frame(app.clock())
        w = b.wagon_index[wagon]
        colour = WAGON[wagon]
        # the wagon itself in white; at the first turn every wagon is on a start square
        assert frame[SQ + b.square_names[state.pos[w]]] == [WHITE, WHITE]
        first = {a.words[2] for a in state.legal_actions() if a.words[:2] == ("step", wagon)}
        lit = {k[len(SQ) :]: v for k, v in frame.items() if k.startswith(SQ) and v[0] == v[1]}
        assert {s for s, v in lit.items() if v == [colour, colour]} == first
        later = {s for s, v in lit.items() if v == [dim(colour, LATER)] * 2}
        if state.head[w] == TO_ROME:  # from Portus: 111/113/112, then 121/122, then 131/132
            assert first == {"111", "113", "112"} and later == {"121", "122", "131", "132"}
        else:  # from Rome: 351/352, then 341/342, then 331/332
            assert first == {"351", "352"} and later == {"341", "342", "331", "332"}
        seen.append(wagon)
        bot.command(seat, "next")
        menu = app.menus[seat]
    assert sorted(seen) == sorted(b.wagons)  # every wagon can make the first move
    # back at the top, the cursor on `step` lights every wagon that can move
    bot.command(seat, "back")
    assert app.menus[seat].prefix == () and app.menus[seat].current == "step"
    frame = app.frame(app.clock())
    for w, sq in enumerate(state.pos):
        assert frame[SQ + b.square_names[sq]] == [WHITE, WHITE], b.wagons[w]
    assert len(state.history) == 32  # only the setup draws: choosing applied nothing


def test_a_moving_wagon_shows_its_remaining_reach_from_the_top_level(make_table) -> None:
    table, bot = seated(make_table, seed=1)
    app = table.app
    state = app.state
    assert isinstance(state, StradaRomanaState)
    seat = app._waiting_seat()
    step = next(
        a
        for a in state.legal_actions()
        if a.words[:2] == ("step", "ballio") and a.words[2] in ("111", "351")
    )
    for command in bot.presses_for(seat, step):
        bot.command(seat, command)
    assert state.phase == "moving" and state.mover == state.board.wagon_index["ballio"]
    hint = VIEW.hint(state, ("step",), app.ctx)
    here = state.board.square_names[state.pos[state.mover]]
    assert hint[SQ + here] == [WHITE, WHITE]
    nxt = {a.words[2] for a in state.legal_actions() if a.words[0] == "step"}
    assert {k[len(SQ) :] for k, v in hint.items() if v == [WAGON["ballio"]] * 2} == nxt


def test_collect_keeps_only_the_goods_it_can_take_lit() -> None:
    state = playout(
        3,
        4,
        lambda s: s.phase == "stopped" and any(a.words[0] == "collect" for a in s.legal_actions()),
    )
    b = state.board
    offered = [a for a in state.legal_actions() if a.words[0] == "collect"]
    hint = VIEW.hint(state, ("collect",), ctx_for(3))
    full = VIEW.render(state, ctx_for(3))
    kept = {k for k, v in hint.items() if v == full[k]}
    want = set()
    for a in offered:
        if a.words[1] == "cube":
            want.add(f"strada_romana.market.{a.words[2]}")
        else:
            area = next(x for x in b.areas_at[state.stop_at] if b.area_side[x] == a.words[2])
            want.add(f"strada_romana.area.{b.area_names[area]}")
    assert kept == want
    assert all(hint[k] == dim(full[k], AWAY) for k in hint if k not in want)


def test_views_without_a_hint_light_nothing_for_a_partial_choice() -> None:
    strozzi = view_for("strozzi")
    state = engine.get("strozzi").new_state(3)
    assert strozzi.hint(state, ("flag",), ctx_for(3)) == {}
    assert VIEW.hint(first_turn(), (), ctx_for(3)) == {}
    assert VIEW.hint(first_turn(), ("pass",), ctx_for(3)) == {}


# --- the board -----------------------------------------------------------------------------
def test_wagons_show_their_colour_with_the_leading_led_towards_their_destination() -> None:
    state = playout(4, 5, lambda s: len(s.history) >= 120 and s.phase == "turn")
    b = state.board
    frame = VIEW.render(state, ctx_for(4))
    on_road = 0
    for sq in range(b.finish):
        leds = frame[SQ + b.square_names[sq]]
        w = state.occ[sq]
        if w < 0:
            assert leds == [OFF, OFF]
            continue
        colour = WAGON[b.wagons[w]]
        rear = dim(colour, TRAIL)
        # the first LED is on the Portus side: a Rome-bound wagon leads with the second
        assert leds == ([rear, colour] if state.head[w] == TO_ROME else [colour, rear])
        on_road += sq < b.road
    assert on_road >= 2
    headings = {state.head[w] for w, sq in enumerate(state.pos) if 0 <= sq < b.road}
    assert headings == {0, 1}, "the position should have wagons going both ways"


def test_markets_and_areas_show_cube_and_ware_colours_and_empty_ones_are_dark() -> None:
    state = playout(3, 6, lambda s: s.phase == "refill" and s.refill_kind == "cube")
    b = state.board
    frame = VIEW.render(state, ctx_for(3))
    for m, sq in enumerate(b.market_square):
        c = state.market[m]
        want = CUBE[b.colours[c]] if c >= 0 else OFF
        assert frame[f"strada_romana.market.{b.square_names[sq]}"] == want
    emptied = b.square_names[b.market_square[state.refill_at]]
    assert frame[f"strada_romana.market.{emptied}"] == OFF  # taken, not yet refilled
    for a, area in enumerate(b.area_names):
        assert frame[f"strada_romana.area.{area}"] == CUBE[b.colours[state.area[a]]]
    assert len(set(CUBE.values())) == len(CUBE) == len(b.colours)


def test_arrived_wagons_fill_the_numbered_squares_in_arrival_order() -> None:
    state = playout(2, 8, lambda s: len(s.arrived) >= 2)
    b = state.board
    frame = VIEW.render(state, ctx_for(2))
    for k in range(b.arrivals):
        leds = frame[f"strada_romana.arrival.{k + 1}"]
        if k >= len(state.arrived):
            assert leds == [OFF, OFF]
            continue
        w = state.arrived[k]
        colour = WAGON[b.wagons[w]]
        rear = dim(colour, TRAIL)
        assert leds == ([rear, colour] if state.head[w] == TO_ROME else [colour, rear])
        assert state.pos[w] < 0  # off the road: only the arrival square shows it


def test_the_turn_lights_show_the_special_move_and_the_steps_taken() -> None:
    state = playout(3, 2, lambda s: s.phase == "moving" and s.special.includes(SpecialMove.EXTRA))
    ctx = ctx_for(3)
    colour = ctx.colours[state.seat]
    frame = VIEW.render(state, ctx)
    bought = int(state.special)  # the cheaper moves it includes light too
    assert frame["strada_romana.special"] == [colour] * bought + [OFF] * (4 - bought)
    steps = frame["strada_romana.steps"]
    assert steps[: state.used] == [colour] * state.used
    assert steps[state.used :] == [dim(WHITE, LATER)] * (4 - state.used)  # extra: four


def test_coins_and_the_number_of_wagon_tiles_are_shown_per_seat() -> None:
    state = playout(3, 3, lambda s: s.phase == "turn" and any(s.wagon_tiles) and any(s.coins))
    ctx = ViewContext(colours=COLOURS[:3], seats=("4", "6", "2"))
    frame = VIEW.render(state, ctx)
    for player, seat in enumerate(ctx.seats):
        coins = state.coins[player]
        assert frame[f"seat.{seat}.coins"] == [COIN] * coins + [OFF] * (4 - coins)
        held = len(state.wagon_tiles[player])
        assert frame[f"seat.{seat}.wagon_tiles"] == [COLOURS[player]] * held + [OFF] * (3 - held)


def test_wagon_tiles_are_never_rendered_before_the_end() -> None:
    """'The wagon tiles are always kept face down ... not which ones.'"""
    seed, players = 9, 3
    state = GAME.new_state(players, seed=seed, options={"wagon_tiles": "when_taken"})
    ctx = ctx_for(players)
    k = 0
    checked = 0
    while not state.is_over():
        if any(w >= 0 for held in state.wagon_tiles for w in held):
            other = state.clone()
            other.wagon_tiles = [[-1] * len(held) for held in state.wagon_tiles]
            assert VIEW.render(state, ctx) == VIEW.render(other, ctx)
            assert VIEW.setup_frame(state, ctx) == VIEW.setup_frame(other, ctx)
            checked += 1
        state.apply(random_action(state, derive(seed, "hidden", k)))
        k += 1
    assert checked > 10
    # revealed at the end: each held tile, green if its wagon arrived, red if not
    frame = VIEW.render(state, ctx)
    arrived = set(state.arrived)
    for player in range(players):
        held = state.wagon_tiles[player]
        want = [ARRIVED_TILE if w in arrived else ROAD_TILE for w in held]
        assert frame[f"seat.{player + 1}.wagon_tiles"] == want + [OFF] * (3 - len(held))


# --- draws ---------------------------------------------------------------------------------
def describe_all(state: StradaRomanaState) -> list[str]:
    return [VIEW.describe_chance(state, a) for a in state.legal_actions()]


def test_every_draw_is_described_in_words() -> None:
    state = GAME.new_state(3, seed=1)
    assert describe_all(state)[0] == (
        "Ballio stands on start square p1 (Portus side, heading to Rome)."
    )
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    assert describe_all(state)[0].endswith("start square r1 (Roma side, heading to Portus).")
    state = playout(3, 1, lambda s: s.phase == "wares")
    assert describe_all(state)[0] == "The yellow ware tile goes on area I (top)."
    state = playout(3, 1, lambda s: s.phase == "cubes")
    assert describe_all(state)[1] == "A red cube goes on the market at 112."
    state = playout(3, 1, lambda s: s.phase == "wagon_tiles")
    assert describe_all(state) == [
        "One wagon tile goes back into the box, unseen; 9 stay in the deck."
    ]
    state = playout(3, 1, lambda s: s.phase == "first_player")
    assert describe_all(state)[1] == "Drawn at random: seat 2 is the starting player."
    # the table's names for its players, and the coins as the game's news once drawn
    start = state.legal_actions()[1]
    assert VIEW.describe_chance(state, start, {0: "Ada", 1: "Bruno", 2: "Carla"}.__getitem__) == (
        "Drawn at random: Bruno is the starting player."
    )
    assert state.news(state.apply(start)) == [
        "Seat 2 starts. Starting coins, clockwise: seat 2 0, seat 3 1, seat 1 2."
    ]
    for kind in ("cube", "ware"):
        state = playout(3, 1, lambda s, k=kind: s.phase == "refill" and s.refill_kind == k)
        b = state.board
        colour = state.legal_actions()[0].words[2]
        if kind == "cube":
            square = b.square_names[b.market_square[state.refill_at]]
            where = f"a {colour} cube for the market at {square}"
        else:
            where = f"a {colour} ware tile for area {b.area_names[state.refill_at]}"
        assert describe_all(state)[0] == f"From the bag: {where}."


def test_a_wagon_tile_is_named_only_when_revealed_at_the_end() -> None:
    """'players pick the "wagon tiles" deck up and choose one of them'; 'The "wagon tiles" are
    always kept face down (the other players may know how many each player owns, but not
    which ones)': the chooser enters the tile; no candidate changes the board differently,
    and the log names it only once revealed."""
    taken = playout(3, 3, lambda s: s.phase == "wagon_tile", wagon_tiles="when_taken")
    assert taken.current_player() == taken.seat and VIEW.chance_actor(taken) is None
    frames = set()
    for action in taken.legal_actions():
        after = taken.clone()
        after.apply(action)
        assert VIEW.public_text(after, action) == "wagon (a face-down tile)"
        assert action.words[1] not in after.describe().lower()
        frames.add(json.dumps(VIEW.render(after, ctx_for(3)), sort_keys=True))
    assert len(frames) == 1  # whichever tile was chosen, the board looks the same
    reveal = playout(3, 3, lambda s: s.phase == "reveal")
    holder = reveal.current_player()
    assert holder is not None and holder >= 0 and -1 in reveal.wagon_tiles[holder]
    action = reveal.legal_actions()[0]
    after = reveal.clone()
    after.apply(action)
    assert VIEW.public_text(after, action) == action.text


def test_the_seat_that_emptied_a_market_draws_its_refill_and_setup_is_anybodys() -> None:
    refill = playout(4, 2, lambda s: s.phase == "refill")
    assert VIEW.chance_actor(refill) == refill.seat
    state = GAME.new_state(3, seed=1)
    phases = set()
    while state.phase != "turn":
        assert VIEW.in_setup(state) and VIEW.chance_actor(state) is None
        phases.add(state.phase)
        state.apply(random_action(state, derive(1, "setup", len(state.history))))
    assert phases == {"wagons", "wares", "cubes", "wagon_tiles", "first_player"}
    assert not VIEW.in_setup(state) and not VIEW.in_setup(refill)


# --- menus ---------------------------------------------------------------------------------
def test_menus_stay_short_and_never_stop_at_a_single_forced_word() -> None:
    """Over random positions: at most three words, at most ten options on a level, and a
    level of one word only where it is the seat's only action (a move it must confirm)."""
    for players, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state = GAME.new_state(players, seed=seed)
        k = 0
        while not state.is_over() and k < 150:
            legal = state.legal_actions()
            for target in legal:
                assert len(target.words) <= 3
                menu = Menu(legal)
                while True:
                    options = menu.options()
                    assert len(options) <= 10
                    assert len(options) > 1 or len(legal) == 1, (state.phase, menu.path())
                    depth = len(menu.prefix)
                    want = target.words[depth] if len(target.words) > depth else DONE
                    while menu.current != want:
                        menu.next()
                    chosen = menu.select()
                    if chosen is not None:
                        assert chosen == target
                        break
            state.apply(random_action(state, derive(seed, "menus", k)))
            k += 1


# --- the layout ----------------------------------------------------------------------------
def test_the_layout_loads_fits_the_tables_and_has_every_element_the_view_lights() -> None:
    layout = Layout.load(table_game("strada_romana").layout)
    assert layout.strips == {"main": 172}
    layout.check_fits({"main": 300})  # hw/demo_table.toml
    layout.check_fits({"main": 438})  # the Strozzi table (systemd/tavola.toml)
    board = GAME.new_state(2).board
    for name in board.square_names:
        assert len(layout.indices(SQ + name)) == 2
    for seat in range(1, 7):
        for part, leds in (("status", 1), ("coins", 4), ("wagon_tiles", 3)):
            assert len(layout.indices(f"seat.{seat}.{part}")) == leds
    # every element a whole game lights exists, with one colour per LED where a list is given
    players, seed = 5, 11
    ctx = ViewContext(colours=COLOURS, seats=("1", "2", "3", "5", "6"))
    state = GAME.new_state(players, seed=seed)
    lit: set[str] = set()
    k = 0
    while True:
        frames = [VIEW.render(state, ctx), VIEW.setup_frame(state, ctx)]
        if state.current_player() not in (None, CHANCE):
            legal = state.legal_actions()
            for words in {a.words[:1] for a in legal} | {a.words[:2] for a in legal}:
                frames.append(VIEW.hint(state, words, ctx))
        for frame in frames:
            for name, value in frame.items():
                lit.add(name)
                if isinstance(value, list):
                    assert len(value) == len(layout.indices(name)), name
        if state.is_over():
            break
        state.apply(random_action(state, derive(seed, "layout", k)))
        k += 1
    missing = sorted(name for name in lit if name not in layout.elements)
    assert not missing
    # all but seat 4 (empty here) and the status LEDs, which the table lights
    unused = [n for n in layout.names() if n not in lit and not n.startswith("seat.4.")]
    assert unused == [f"seat.{s}.status" for s in (1, 2, 3, 5, 6)]
