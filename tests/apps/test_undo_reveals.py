"""Undo never takes back information already seen: every action that shows a seat or the
table something hidden locks undo, in every game, at the real table driven by its buttons.

The engine says what an action reveals (`State.reveals`); the table's undo asks it
(`apps.table.session.lock`). Each test first takes back an ordinary move of the same
kind of decision, so a table that refused every undo would fail it too, then makes the
revealing move, presses undo and hears why it stays (docs/table.md lists these moves).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import engine
from apps.sim import ButtonBot
from apps.table import TableApp
from apps.views import view_for
from engine.core import CHANCE, DRAWN, Action, State, derive, random_action
from tests.apps.test_undo_and_presses import play_until

Wanted = Callable[[State], Action | None]

DECK_SEEN = "the wagon tile deck has been looked through"
TILE_FACE_UP = "the wagon tile is face up for everyone"
DISCARDED = "the card lies face up on its Noble's discard pile"
PLAYED = "the scandal card was played face up"
INTO_A_HAND = "a scandal card has been drawn into a hand"


# --- driving the table ----------------------------------------------------------------
def app_of(bot: ButtonBot) -> TableApp:
    return bot.table.app


def person_to_act(app: TableApp) -> bool:
    """A person's decision is on the buttons: no draw held or due, no bot's move."""
    session, state = app.session, app.state
    if app.mode != "playing" or session is None or session.held or state is None:
        return False
    player = state.current_player()
    return player is not None and player >= 0 and session.bot_to_act() is None


def reach(bot: ButtonBot, players: int, wanted: Wanted) -> Action:
    """Random presses until a person's decision offers the action `wanted` picks."""
    play_until(bot, players, lambda app: person_to_act(app) and wanted(app.state) is not None)
    action = wanted(app_of(bot).state)
    assert action is not None
    return action


def verb(*verbs: str, phase: str | None = None) -> Wanted:
    """The first legal action starting with one of `verbs` (in `phase` if given)."""

    def wanted(state: State) -> Action | None:
        if phase is not None and state.phase != phase:
            return None
        return next((a for a in state.legal_actions() if a.words[0] in verbs), None)

    return wanted


def act(bot: ButtonBot, action: Action) -> int:
    """The action's seat walks its menu to it and selects; its place in the history."""
    app = app_of(bot)
    at = len(app.state.history)
    seat = app.players[action.player]
    for command in bot.presses_for(seat, action):
        bot.command(seat, command)
    assert app.state.history[at] == action
    return at


def ordinary(app: TableApp) -> Action:
    """A move of the seat to act that shows nothing hidden, scores nothing and ends
    nothing (tried on a copy of the state): the kind of move undo must still take back."""
    session = app.session
    assert session is not None
    for action in app.state.legal_actions():
        trial = app.state.clone()
        events = trial.apply(action)
        if not (
            trial.reveals(action, events) or session.view.is_scoring(events) or trial.is_over()
        ):
            return action
    raise AssertionError("no ordinary move to compare with")


def undone(bot: ButtonBot, action: Action) -> None:
    """Undo takes `action`, the last action, back: the seat may choose again."""
    app = app_of(bot)
    history = app.state.history
    assert history[-1] == action
    count = len(history)
    bot.press("table", "undo")
    assert len(app.state.history) == count - 1 and action in app.state.legal_actions()


def snapshot(app: TableApp) -> str:
    return json.dumps(app.state.to_dict(), sort_keys=True)


def kept(bot: ButtonBot, said: list[str], action: Action, why: str) -> None:
    """Undo refuses to take `action`, the last action, back, and the table says why."""
    app = app_of(bot)
    assert app.state.history[-1] == action
    frozen = snapshot(app)
    shown = app.session.shown(action)
    bot.press("table", "undo")
    assert snapshot(app) == frozen
    assert said[-1] == f"'{shown}' cannot be undone: {why}."


def ordinary_then(bot: ButtonBot, players: int, wanted: Wanted) -> Action:
    """At the first decision offering `wanted`'s move, an ordinary move is made and undone
    (undo works there), and the revealing move is made: returned, the last action."""
    action = reach(bot, players, wanted)
    plain = ordinary(app_of(bot))
    act(bot, plain)
    undone(bot, plain)
    act(bot, action)
    return action


def seated(make_table: Any, players: int, **kw: Any) -> ButtonBot:
    """A mocked table of the `make_table` fixture (tests/apps/conftest.py), its buttons'
    player."""
    _table, _clock, bot = make_table(players, **kw)
    return bot


# --- Strada Romana --------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [{}, {"wagon_tiles": "when_taken"}, {"named_tiles": "1,2"}],
    ids=["at_end", "when_taken", "named_tiles"],
)
def test_strada_romana_a_wagon_tile_taken_cannot_be_undone(
    make_table: Any, options: dict[str, object]
) -> None:
    """b) Choose a "Wagon Tile": 'players pick the "wagon tiles" deck up and choose one of
    them; then, the deck is put back into its place.' The seat has seen the deck, whenever
    its tile's wagon is entered; a pass ('he takes one coin and his turn is finished') is
    taken back until the next seat acts. (Naming the tile taken: test_undo_and_presses.py.)"""
    bot = seated(make_table, 2, seed=4, game="strada_romana", options=options)
    tile = ordinary_then(bot, 2, verb("tile"))
    kept(bot, make_table.said, tile, DECK_SEEN)


def test_strada_romana_a_wagon_tile_revealed_at_the_end_cannot_be_undone(
    make_table: Any,
) -> None:
    """Wagon Tiles: 'When the game ends, all players reveal the "wagon tiles" they own.' A
    tile turned face up stays revealed, the first as much as the last (which scores the
    game); a pass earlier in the game is taken back."""
    bot = seated(make_table, 2, seed=5, game="strada_romana")
    plain = reach(bot, 2, verb("pass"))
    act(bot, plain)
    undone(bot, plain)

    def first_reveal(s: State) -> Action | None:
        held = sum(len(h) for h in s.wagon_tiles)  # type: ignore[attr-defined]
        return verb("wagon", phase="reveal")(s) if held >= 2 else None

    reveal = reach(bot, 2, first_reveal)
    act(bot, reveal)
    assert not app_of(bot).state.is_over()  # more tiles to reveal: nothing scored yet
    kept(bot, make_table.said, reveal, TILE_FACE_UP)


# --- Florence ---------------------------------------------------------------------------
@pytest.mark.parametrize("phase", ["actions", "hand_limit", "queue_scoring", "final_discards"])
def test_florence_a_discard_at_any_decision_cannot_be_undone(make_table: Any, phase: str) -> None:
    """Trading Scandals for Time: 'At any time, without using an action, you may discard 1
    Scandal to gain 1 time.' The card goes face up onto its Noble's discard pile ('form a
    discard pile for each Noble'): every seat has seen it, at its turn, at a full hand, at
    Giovanni's offers or after round 9. An ordinary choice at the same decision (a move,
    keep, decline, done) is taken back. Cards are entered at the buttons, so the draw a
    discard makes room for waits and the discard is the last action."""
    bot = seated(make_table, 2, seed=5, game="florence", chance="pick")
    discard = ordinary_then(bot, 2, verb("discard", phase=phase))
    kept(bot, make_table.said, discard, DISCARDED)


def test_florence_playing_a_scandal_cannot_be_undone(make_table: Any) -> None:
    """Play a Scandal: 'Play 1 Scandal card, pay the time cost on it (if any) and perform
    the action on it ... When cards are played, form a discard pile for each Noble.' The
    card is face up; a move instead is taken back."""
    bot = seated(make_table, 2, seed=5, game="florence")
    scandal = ordinary_then(bot, 2, verb("scandal", phase="actions"))
    kept(bot, make_table.said, scandal, PLAYED)


def test_florence_a_pass_that_draws_a_scandal_card_into_a_hand_cannot_be_undone(
    make_table: Any,
) -> None:
    """Brag Scoring: 'Whoever has performed the best Brag on the location the Noble has
    just entered ... draws 1 card from the Active Noble's Scandal deck'. With
    `scandal_entry = "play"` nothing is entered, but the seat has the card in hand: the
    last pass that sends the Noble off cannot be taken back (a move instead can)."""
    bot = seated(
        make_table, 2, seed=5, game="florence", chance="pick", options={"scandal_entry": "play"}
    )

    def drawing_pass(state: State) -> Action | None:
        """The last pass of the round, when it earns a seat a scandal card."""
        passing = verb("pass", phase="actions")(state)
        if passing is None or len(passing.words) > 1:  # a ring is placed: not the last
            return None
        trial = state.clone()
        events = trial.apply(passing)
        return passing if any(e.kind == "scandal_gained" for e in events) else None

    last_pass = ordinary_then(bot, 2, drawing_pass)
    app = app_of(bot)
    assert app.mode == "scoring"  # the Noble's route is shown; select skips it
    bot.command(app.players[0], "select")
    assert app.mode == "playing" and app.state.current_player() in (CHANCE, 0, 1)
    kept(bot, make_table.said, last_pass, INTO_A_HAND)


def test_florence_solo_strozzis_card_turned_over_cannot_be_undone(make_table: Any) -> None:
    """Solo Mode, Perform Actions: 'When it is Strozzi's turn: If he has 1 or more time:
    Draw a card from his deck, and discard into a face-up pile.' The human's move before
    it is taken back while the card waits for the next press; the card turned over is
    not."""
    bot = seated(make_table, 1, seed=2, game="florence")
    app = app_of(bot)

    def before_his_card(a: TableApp) -> bool:
        h = a.state.history
        return bool(
            a.session.held
            and h[-1].player == 0
            and all(x.words[0] == "solo" for x in a.state.legal_actions())
        )

    play_until(bot, 1, before_his_card)
    mine = app.state.history[-1]
    undone(bot, mine)
    act(bot, mine)
    bot.command("1", "next")  # any press turns his card over
    card = app.state.history[-1]
    assert card.player == CHANCE and card.words[0] == "solo"
    kept(bot, make_table.said, card, DRAWN)


# --- Strozzi ----------------------------------------------------------------------------
def test_strozzi_a_progress_token_turned_up_cannot_be_undone(make_table: Any) -> None:
    """Placing the Ship Card: 'When a player obtains a progress token, he draws the first
    token from the pile to replace the one he took and places it face up next to the two
    remaining progress tokens.' The token taken is taken back until the new one is turned
    up; the one turned up is not."""
    bot = seated(make_table, 4, seed=7, chance="pick")
    token = reach(bot, 4, verb("token", phase="token"))
    act(bot, token)
    undone(bot, token)
    act(bot, token)
    app = app_of(bot)
    assert app.state.current_player() == CHANCE and app.state.phase == "reveal"
    # the new token is entered at the buttons; the next ship then waits for its entry
    play_until(bot, 4, lambda a: a.state.history[-1].words[0] == "reveal")
    kept(bot, make_table.said, app.state.history[-1], DRAWN)


# --- a resumed game ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "players", "wanted", "why"),
    [
        ("strada_romana", 2, verb("tile"), DECK_SEEN),
        ("florence", 2, verb("discard", phase="actions"), DISCARDED),
    ],
    ids=["strada_romana-tile", "florence-discard"],
)
def test_a_resumed_table_keeps_what_was_revealed_locked(
    make_table: Any, game: str, players: int, wanted: Wanted, why: str
) -> None:
    """A power cut right after a revealing move: the table started again on its journal
    (`Session.resumed`, every lock worked out again from the replay) refuses the same
    undo for the same reason."""
    bot = seated(make_table, players, seed=5, game=game, chance="pick")
    action = reach(bot, players, wanted)
    act(bot, action)
    app = app_of(bot)
    locks = (app.session.locked, app.session.why_locked, app.session.held)
    assert locks[:2] == (len(app.state.history), why)
    again = seated(make_table, players, seed=5, game=game, chance="pick")
    resumed = app_of(again).session
    assert resumed is not app.session
    assert (resumed.locked, resumed.why_locked, resumed.held) == locks
    kept(again, make_table.said, action, why)


# --- the log's masks agree with the engine ----------------------------------------------
@pytest.mark.parametrize("name", engine.games())
def test_every_action_the_log_masks_is_one_the_engine_says_reveals(name: str) -> None:
    """A view masks an action in the log (`public_text`) because its text names a secret
    (a scandal card drawn, a wagon tile named): undo, which asks the engine only, must
    lock each of them. Random games of every option set the conformance suite plays."""
    game, view = engine.get(name), view_for(name)
    masked = 0
    for k, options in enumerate(game.conformance_options or ({},)):
        state = game.new_state(game.max_players, seed=k, options=options)
        rng = derive(k, "masked", name)
        while not state.is_over():
            action = random_action(state, rng)
            events = state.apply(action)
            if view.public_text(state, action) != action.text:
                masked += 1
                assert state.reveals(action, events) is not None, action
    assert masked or name == "strozzi"  # Strozzi's log masks nothing
