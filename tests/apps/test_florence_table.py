"""Florence on the table: whole games by button presses, the view, the layout, the menus."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

import engine
from apps import cli
from apps.games import table_game
from apps.menu import DONE
from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config
from apps.table import SCORING_STEP
from apps.views import view_for
from apps.views.base import OFF, ViewContext
from apps.views.florence import HIGHLIGHT, NOBLE_COLOURS, vp_gains
from engine.core import CHANCE, Action
from engine.florence import FlorenceState
from hw.layout import Layout
from tests.apps.test_table import assert_journal_replays, journal_actions
from tests.engine.florence.helpers import new_game, pass_round, play

VIEW = view_for("florence")
GAME = engine.get("florence")
BLUE_C, ORANGE_C, PURPLE_C = (0, 60, 255), (255, 90, 0), (160, 0, 255)
CTX = ViewContext(colours=(BLUE_C, ORANGE_C, PURPLE_C, (0, 200, 0), (200, 200, 200)))
BLUE, ORANGE, PURPLE = 0, 1, 2
MENU_WIDTH = 12


def ctx_for(players: int) -> ViewContext:
    return ViewContext(colours=CTX.colours[:players])


# --- whole games on a mocked table ---------------------------------------------------------
@pytest.fixture
def make_table(tmp_path: Path) -> Iterator:
    tables: list[Appliance] = []
    said: list[str] = []

    def make(
        players: int, seed: int, *, chance: str = "app", entry: str = "draw", noise: float = 0.0
    ) -> tuple[Appliance, ButtonBot]:
        config = demo_config(
            "florence", players, journal=tmp_path / "journal.db", seed=seed, chance=chance
        )
        config.app.options = {"scandal_entry": entry}
        clock = ManualClock()
        table = Appliance(config, clock=clock, button_thread=False, say=said.append)
        tables.append(table)
        table.app.start()
        table.app.tick()
        return table, ButtonBot(table, clock, seed, noise=noise)

    make.said = said  # type: ignore[attr-defined]
    yield make
    for table in tables:
        table.close()


@pytest.mark.parametrize(
    ("players", "seed", "chance", "entry", "noise"),
    [(2, 4, "app", "draw", 0.0), (3, 1, "pick", "draw", 0.2), (5, 7, "app", "play", 0.0)],
)
def test_a_whole_game_by_button_presses_scores_as_the_engine(
    make_table, tmp_path: Path, players: int, seed: int, chance: str, entry: str, noise: float
) -> None:
    table, bot = make_table(players, seed, chance=chance, entry=entry, noise=noise)
    assert bot.play(players)
    assert_journal_replays(table, tmp_path / "journal.db")
    assert table.app.state.options["scandal_entry"] == entry
    assert any("Game over" in line for line in make_table.said)
    actions = journal_actions(tmp_path / "journal.db")
    # a scandal card drawn into a hand is never named in a line of the log; only the
    # receiving seat's own prompt names it while that seat picks it ('... [journey]')
    draws = [text for player, text in actions if player == CHANCE and text.startswith("draw ")]
    if entry == "draw":
        assert draws, "the game should have drawn scandal cards"
    for text in draws:
        assert not any(text in line for line in make_table.said)
    if chance == "app" and draws:
        assert any("(a secret card)" in line for line in make_table.said)


def test_the_demo_plays_to_the_end_and_repeats_byte_for_byte(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outputs = []
    for _ in range(2):
        assert cli.main(["demo", "florence", "--players", "3", "--seed", "1"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert "Game over." in outputs[0] and "\nwinner: seat" in outputs[0]


def test_the_table_plays_the_nobles_route_step_by_step(make_table) -> None:
    table, bot = make_table(3, 2, entry="play")
    app = table.app
    while app.mode != "scoring":
        bot.advance(3)
    assert app.state is not None and app.state.phase in ("cleanup", "queue_scoring")
    steps = app.scoring
    route = [carriage_at(f, 0) for f in steps if any(".carriage" in k for k in f)]
    cosimo = app.state.carriage[0] + 1
    assert len(route) >= 2 and route[-1] == [cosimo]
    for k, step in enumerate(steps):
        shown = app.frame(app.scoring_start + (k + 0.5) * SCORING_STEP)
        assert {name: shown[name] for name in step} == step
    arrows = app.state.tables.route_next  # one frame per location entered, along the arrows
    assert all(arrows[a[0] - 1] + 1 == b[0] for a, b in pairwise(route))


def test_a_full_hand_decides_at_its_seat_and_one_press_keeps_it(make_table, tmp_path) -> None:
    """'You can hold up to 5 Scandals at once. For each Scandal gained over your limit,
    instead gain 1 time' - and 'At any time ... you may discard 1 Scandal to gain 1 time': a
    seat at 5 earning a card is asked at its own buttons; one press of select keeps the hand
    (1 time), other seats' presses are refused."""
    table, bot = make_table(2, 5)
    app = table.app
    while app.state is None or app.state.phase != "hand_limit":
        assert app.mode != "over", "no hand reached 5 cards in this game"
        bot.advance(2)
    state = app.state
    player = state.turn
    seat = app.players[player]
    other = next(s for s in app.players if s != seat)
    assert app._waiting_seat() == seat and len(state.hands[player]) == 5
    assert "holds 5 scandal cards, the limit" in make_table.said[-2]  # then its cursor
    time, history = state.time[player], len(state.history)
    bot.command(other, "select")
    assert len(state.history) == history and "turn" in make_table.said[-1]
    bot.command(seat, "select")  # the menu starts on keep
    assert state.history[history].text == "keep" and state.history[history].player == player
    assert state.time[player] == min(12, time + 1) and len(state.hands[player]) == 5
    assert "keep" in [text for p, text in journal_actions(tmp_path / "journal.db") if p == player]


# --- the view ---------------------------------------------------------------------------
def gameplay_example(mode: str = "draw", *, bonus: bool = True) -> FlorenceState:
    """The rulebook's three-player example (tests/engine/florence/test_golden.py) up to
    Blue's last pass (or Purple's bonus before it): Cosimo then goes 1 -> 5 -> 2 -> 3 -> 6."""
    state = new_game(
        3, tiles={5: "street-cred"}, carriages=(1, 7, 9), destinations=(6, 4, 8), mode=mode
    )
    play(state, "place 6", "place 5", "place 1")
    play(state, "gift cosimo escort 4-5", "dispatch 6", "dispatch 6")
    play(state, "gift cosimo escort 5-6", "dispatch 5", "promote 6 debutant3")
    play(state, "move 1 debutant1 2", "brag 5 7-12", "pass 6", "dispatch 3", "pass 5")
    if bonus:
        play(state, "bonus time")
    return state


def test_queues_show_seat_colours_in_order_and_rank_by_lit_leds() -> None:
    """'they queue in order of seniority (Maestros, Donnas, then Debutants)'."""
    black, orange = 0, 1
    state = new_game(2, carriages=(1, 7, 9), destinations=(6, 5, 8))
    play(state, "place 3", "place 5", "promote 5 debutant1", "dispatch 5", "dispatch 5")
    frame = VIEW.render(state, ctx_for(2))
    c = ctx_for(2).colours
    assert frame["florence.location.5.queue.1"] == [c[black], c[black], OFF]  # donna
    assert frame["florence.location.5.queue.2"] == [c[orange], OFF, OFF]  # debutant
    assert frame["florence.location.5.queue.3"] == [c[black], OFF, OFF]
    assert frame["florence.location.5.queue.4"] == [OFF, OFF, OFF]
    pass_round(state)  # the rulebook's Contessina example: a maestro next round
    play(state, "token time 7", "token location 2")
    play(state, "pass 1", "promote 5 donna1", "bonus time", "promote 5 debutant3")
    frame = VIEW.render(state, ctx_for(2))
    assert frame["florence.location.5.queue.1"] == [c[black]] * 3  # maestro
    assert frame["florence.location.5.queue.2"] == [c[black], c[black], OFF]  # donna
    assert frame["florence.location.5.queue.3"] == [c[orange], OFF, OFF]
    # an empty Prime Position is marked so the front of each queue can be found
    assert frame["florence.location.9.queue.1"][0] == OFF != frame["florence.location.9.queue.1"][1]


def test_guards_brags_rings_nobles_time_and_score_are_lit() -> None:
    state = gameplay_example()
    frame = VIEW.render(state, CTX)
    assert frame["florence.road.4-5.escort"] == [BLUE_C, BLUE_C]
    assert frame["florence.road.5-6.escort"] == [BLUE_C, BLUE_C]
    assert frame["florence.road.1-2.escort"] == [OFF, OFF]
    assert frame["florence.location.5.brag.2"] == ORANGE_C  # Street Cred, 7-12
    assert frame["florence.location.5.brag.1"] == frame["florence.location.5.brag.3"] == OFF
    assert frame["florence.location.6.ring"] == PURPLE_C
    assert frame["florence.location.5.ring"] == ORANGE_C
    cosimo, contessina, giovanni = NOBLE_COLOURS
    assert frame["florence.location.1.carriage"] == [cosimo, OFF, OFF]
    assert frame["florence.location.7.carriage"] == [OFF, contessina, OFF]
    assert frame["florence.location.9.carriage"] == [OFF, OFF, giovanni]
    assert frame["florence.location.6.destination"][0] == cosimo  # moving this round
    assert frame["florence.location.4.destination"][1] not in (OFF, contessina)  # dimmed
    assert frame["florence.round.1"] == cosimo and frame["florence.round.2"] != contessina
    assert state.time == [2, 3, 6]
    assert frame["seat.1.time"] == [BLUE_C] * 2 + [OFF] * 10
    assert frame["seat.3.time"] == [PURPLE_C] * 6 + [OFF] * 6
    assert frame["seat.1.first"] != OFF == frame["seat.2.first"]
    assert state.vp == [0, 9, 0]
    assert frame["florence.score.9"] == [ORANGE_C, ORANGE_C]
    assert frame["florence.score.0"] == [BLUE_C, PURPLE_C]
    state.vp = [0, 9, 109]
    frame = VIEW.render(state, CTX)
    assert frame["florence.score.9"][:2] == [ORANGE_C, PURPLE_C]
    assert frame["seat.3.hundreds"] == [PURPLE_C, OFF] and frame["seat.2.hundreds"] == [OFF, OFF]


def test_schemes_and_scandal_hands_are_never_shown() -> None:
    """Schemes are 'kept a secret'; scandal cards are held in hand: the public observation
    has no field for either (engine/florence/observation.py)."""
    state = gameplay_example()
    events = state.apply("pass")
    events += state.apply("draw cosimo journey")
    frames = (
        VIEW.render(state, CTX),
        VIEW.setup_frame(state, CTX),
        VIEW.scoring_steps(state, events, CTX),
    )
    state.hands = [("guard", "carry"), ("deploy",), ("journey", "journey", "guard", "carry")]
    state.schemes = [0, 3, 5]
    assert (
        VIEW.render(state, CTX),
        VIEW.setup_frame(state, CTX),
        VIEW.scoring_steps(state, events, CTX),
    ) == frames


def carriage_at(frame: dict, noble: int) -> list[int]:
    return [
        loc
        for loc in range(1, 10)
        if frame.get(f"florence.location.{loc}.carriage", [OFF] * 3)[noble] != OFF
    ]


def test_scoring_steps_follow_the_nobles_route_then_the_queue() -> None:
    """'Cosimo moves to Location 6 via: 5 (Orange: Prime Position and a Scandal card for their
    Brag), 2, 3 (Blue), 6 (Purple)'; then Purple 11 + 7 and Orange 4 at location 6."""
    state = gameplay_example(mode="play")
    events = state.apply("pass")
    assert VIEW.is_scoring(events)
    steps = VIEW.scoring_steps(state, events, CTX)
    assert [carriage_at(f, 0) for f in steps[:4]] == [[5], [2], [3], [6]]
    at5, at2, at3, at6 = steps[:4]
    assert at5["florence.location.5.queue.1"] == [HIGHLIGHT, OFF, OFF]
    assert at5["seat.2.status"] == ORANGE_C
    assert at5["florence.location.5.brag.2"] == HIGHLIGHT  # the best brag earns the card
    assert at5["florence.score.10"] == [ORANGE_C, ORANGE_C]  # 9 + 1 for Prime Position
    assert at2["seat.1.status"] == BLUE_C == at3["seat.1.status"]
    assert at6["florence.location.6.queue.1"] == [HIGHLIGHT, HIGHLIGHT, OFF]  # Purple's donna
    assert at6["seat.3.status"] == PURPLE_C
    queue = steps[4:]
    assert len(queue) == 3
    for position, (frame, who) in enumerate(
        zip(queue, ("seat.3.status", "seat.3.status", "seat.2.status"), strict=True), start=1
    ):
        assert frame[f"florence.location.6.queue.{position}"][0] == HIGHLIGHT
        assert who in frame
    assert state.vp == [2, 14, 19]
    assert queue[-1]["florence.score.19"] == [PURPLE_C, PURPLE_C]
    assert queue[-1]["florence.score.14"] == [ORANGE_C, ORANGE_C]


def test_a_scandal_draw_splits_the_route_where_the_card_is_drawn() -> None:
    state = gameplay_example(mode="draw")
    first = state.apply("pass")
    steps = VIEW.scoring_steps(state, first, CTX)
    assert [carriage_at(f, 0) for f in steps] == [[5]]
    assert "florence.location.5.brag.2" not in steps[0]  # the card is not drawn yet
    assert VIEW.chance_actor(state) == ORANGE
    then = state.apply("draw cosimo journey")
    steps = VIEW.scoring_steps(state, then, CTX)
    assert [carriage_at(f, 0) for f in steps[:4]] == [[5], [2], [3], [6]]
    assert steps[0]["florence.location.5.brag.2"] == HIGHLIGHT
    assert steps[0]["seat.2.status"] == ORANGE_C
    assert not VIEW.is_scoring(state.apply("token time 7"))


def test_describe_chance_names_each_draw_but_never_a_secret_card() -> None:
    state = GAME.new_state(3, seed=2)
    said = []
    while state.phase == "setup":
        action = state.legal_actions()[0]
        said.append(VIEW.describe_chance(state, action))
        assert VIEW.chance_actor(state) is None
        assert VIEW.public_text(state, action) == action.text
        state.apply(action)
    assert said[0].startswith("Brag tile ") and said[0].endswith("face up on location 1.")
    assert any(s.startswith("Cosimo's carriage starts on location") for s in said)
    assert any("for round 1: Cosimo's destination." in s for s in said)
    assert any(s.startswith("Time token") and "for round 2." in s for s in said)
    assert said[-1].startswith("The 1st player marker goes to seat ")
    state = gameplay_example()
    state.apply("pass")
    draw = Action(CHANCE, "draw cosimo journey")
    text = VIEW.describe_chance(state, draw)
    assert "Seat 2 draws" in text and "Cosimo" in text and "journey" not in text
    assert "journey" not in VIEW.public_text(state, draw)
    tile = Action(CHANCE, "tile 3 life-of-the-party")
    assert "Life of the Party" in VIEW.describe_chance(state, tile)


def test_scheme_reveals_are_described_and_asked_at_their_seat() -> None:
    state = GAME.new_state(2, seed=3)
    rng = random.Random(3)
    while state.phase != "schemes":
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert VIEW.chance_actor(state) == 0
    text = VIEW.describe_chance(state, Action(CHANCE, "scheme corners"))
    assert text == "Seat 1 reveals the scheme Corners: locations 1, 3, 7, 9."
    state.apply("scheme corners")
    assert VIEW.chance_actor(state) == 1


def test_strozzis_scheme_reveal_names_him() -> None:
    """Harder solo: 'In setup, give Strozzi a face-down Scheme to score at the end': his
    card is revealed after yours, and the table says it is his (not a 'Player 0')."""
    state = GAME.new_state(1, seed=5, options={"harder_scheme": True, "confirm_automa": False})
    rng = random.Random(5)
    while state.phase != "schemes":
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert VIEW.chance_actor(state) == 0
    state.apply("scheme corners")
    assert state.phase == "schemes" and VIEW.chance_actor(state) is None  # he has no seat
    text = VIEW.describe_chance(state, Action(CHANCE, "scheme cross"))
    assert text == "Strozzi reveals the scheme Cross: locations 2, 4, 6, 8."


def test_while_choosing_the_named_location_piece_or_noble_is_lit() -> None:
    """Verb, location, piece: the queue, then the queue space, light before the target."""
    state = gameplay_example()  # Blue to act: debutants on 2 and 3
    white = [HIGHLIGHT, OFF, OFF]
    assert VIEW.hint(state, ("move", "2"), CTX) == {"florence.location.2.queue.1": white}
    three = VIEW.hint(state, ("promote", "6"), CTX)
    assert three == {
        "florence.location.6.queue.1": [HIGHLIGHT, HIGHLIGHT, OFF],
        "florence.location.6.queue.2": white,
        "florence.location.6.queue.3": white,
    }
    assert VIEW.hint(state, ("move", "6", "debutant3"), CTX) == {
        "florence.location.6.queue.3": white
    }
    assert VIEW.hint(state, ("gift", "cosimo"), CTX) == {
        "florence.location.1.carriage": [HIGHLIGHT, OFF, OFF]
    }
    assert VIEW.hint(state, ("pass",), CTX) == {}
    purple = gameplay_example(bonus=False)  # Purple's bonus: the ring is on 6
    assert VIEW.hint(purple, ("bonus", "swap", "donna1"), CTX) == {
        "florence.location.6.queue.1": [HIGHLIGHT, HIGHLIGHT, OFF]
    }


def test_a_seat_that_has_passed_is_shown_inactive() -> None:
    state = gameplay_example()
    assert [VIEW.seat_active(state, p) for p in range(3)] == [True, False, False]


def test_setup_shows_where_the_queue_blockers_go() -> None:
    """'cover the spots that show a number higher than the number of players'."""
    three = VIEW.setup_frame(GAME.new_state(3, seed=1), ctx_for(3))
    four = VIEW.setup_frame(GAME.new_state(4, seed=1), ctx_for(4))
    for loc in range(1, 10):
        assert three[f"florence.location.{loc}.queue.5"] == [OFF] * 3
        for space in (6, 7):
            blocked = three[f"florence.location.{loc}.queue.{space}"]
            assert blocked[0] != OFF and blocked[0] == blocked[1] == blocked[2]
            assert four[f"florence.location.{loc}.queue.{space}"] == [OFF] * 3


def test_a_solo_game_shows_strozzis_orange_and_blue_pieces() -> None:
    """Solo: 'Give Strozzi a player board with all Orange and Blue Family Members'; he
    has no seat at the table, so his pieces, brags and score take those colours."""
    state = GAME.new_state(1, seed=4)
    rng = random.Random(4)
    while state.round < 3:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    ctx = ViewContext(colours=((0, 200, 0),), seats=("2",))
    frame = VIEW.render(state, ctx)
    seen = set()
    for loc, q in enumerate(state.queues):
        for i, code in enumerate(q):
            lit = frame[f"florence.location.{loc + 1}.queue.{i + 1}"][0]
            seen.add(lit)
            assert lit == {0: (0, 200, 0), 1: ORANGE_C, 2: BLUE_C}[code >> 2]
    assert {ORANGE_C, BLUE_C} <= seen
    assert "seat.2.time" in frame and not any(k.startswith("seat.1.") for k in frame)
    steps = VIEW.scoring_steps(state, state.apply(state.legal_actions()[0]), ctx)
    assert all(not k.startswith("seat.1.") for step in steps for k in step)


# --- the layout ------------------------------------------------------------------------
def test_the_layout_loads_fits_and_holds_every_element_the_view_lights() -> None:
    layout = Layout.load(table_game("florence").layout)
    assert list(layout.strips) == ["main"]
    layout.check_fits({"main": layout.strips["main"]})
    for seat in range(1, 7):
        assert f"seat.{seat}.status" in layout.names()
    lit: set[str] = set()
    for players in (2, 5):
        state = GAME.new_state(players, seed=players)
        rng = random.Random(players)
        for _ in range(80):
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        for seats in (("1", "2", "3", "4", "5"), ("2", "3", "4", "5", "6")):
            ctx = ViewContext(colours=CTX.colours[:players], seats=seats[:players])
            for frame in (VIEW.render(state, ctx), VIEW.setup_frame(state, ctx)):
                for name, value in frame.items():
                    assert name in layout.names(), name
                    if isinstance(value, list):
                        assert len(value) == len(layout.indices(name)), name
                lit.update(frame)
    unlit = set(layout.names()) - lit
    assert unlit == {f"seat.{s}.status" for s in range(1, 7)}  # the table's prompts


# --- menus and the score track's bookkeeping, over random games -----------------------------
def menu_levels(actions: tuple[Action, ...]) -> dict[tuple[str, ...], set[str]]:
    """Every level of the menu tree these actions make: prefix -> the words offered."""
    levels: dict[tuple[str, ...], set[str]] = {}
    for action in actions:
        words = action.words
        for k in range(len(words) + 1):
            levels.setdefault(words[:k], set()).add(words[k] if k < len(words) else DONE)
    return levels


@pytest.mark.parametrize("entry", ["draw", "play"])
def test_menus_stay_short_and_scoring_events_account_for_every_vp(entry: str) -> None:
    """Verb, location, piece, target: no level offers more than twelve words (the twelve
    roads for an escort are the widest). And the VP the events carry add up to the VP
    gained, so the scoring steps' score track ends where the board's does."""
    widest = 0
    for players in (2, 3, 4, 5):
        state = GAME.new_state(players, seed=players, options={"scandal_entry": entry})
        rng = random.Random(players)
        while not state.is_over():
            legal = state.legal_actions()
            for words in menu_levels(legal).values():
                widest = max(widest, len(words))
            before = list(state.vp)
            action = legal[rng.randrange(len(legal))]
            events = state.apply(action)
            gained = [0] * players
            for event in events:
                for player, vp in vp_gains(event, state.tables):
                    gained[player] += vp
            assert [b + g for b, g in zip(before, gained, strict=True)] == state.vp, action
    assert 9 <= widest <= MENU_WIDTH
