"""Presses per decision: how many button presses a seat's decision takes at the table.

The bot demos (`apps.sim.ButtonBot`, what `tavola demo` runs) play whole games on a mocked
table, reaching each chosen action the way a person does: from where the cursor is shown,
the shorter way round with previous / next, then select. Each seat action in the journal
is one decision (an automa step's `ok` too); the presses since the one before count for
it, including the press that draws a held card. The bots choose uniformly among the
legal actions, so deep menus (Florence's location, piece, target) weigh more than they
would with people, who choose the move they want.

Two figures per game: presses per action (each seat action of the journal), and per menu
choice (one level of the menu: the moves and the select that ends it), the first being
what the table means to keep at a median of 2 or fewer. Figures only, nothing asserted.

A third figure says what any menu could do with these choices: with three buttons, at
most 1 action is one press away and 3 more are two presses away (previous, next or
select, then select), so a decision among N equally likely actions takes 2 presses or
fewer with a chance of at most min(1, 4/N). Its mean over the decisions of the games is
the largest share of them that any menu on three buttons could finish in 2 presses; below
50%, a median of 2 is out of reach for these bots (multi-player Florence: its location,
piece and target choices give tens of legal actions per decision).

Last, Strozzi with `chance = "pick"`: the presses a ship entry takes when the seat enters
the card the app turned up by its face (sails, then the words that still differ), with the
shipped deck's faces and with `ships = "any"` (every face a card can show).
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config
from engine.core import CHANCE, State

GAMES = [("strozzi", 4), ("strada_romana", 3), ("florence", 3), ("florence", 1)]
SEEDS = range(1, 6)


def presses_per_decision(
    game: str,
    players: int,
    seed: int,
    tmp: Path,
    choices: list[int] | None = None,
    reachable: list[int] | None = None,
) -> list[int]:
    """The presses each seat action of one bot game took, in the order they were made;
    `choices` gets the presses of each menu level (the moves and the select that ends it),
    `reachable` the number of legal actions of each decision."""
    clock = ManualClock()
    config = demo_config(game, players, journal=tmp / f"{game}-{players}-{seed}.db", seed=seed)
    table = Appliance(config, clock=clock, button_thread=False, say=lambda _t: None)
    counts: list[int] = []
    marks = {"decisions": 0, "presses": 0}

    def seat_actions() -> int:
        state = table.app.state
        return 0 if state is None else sum(a.player != CHANCE for a in state.history)

    def on_press() -> None:
        if table.app.mode not in ("playing", "setup"):
            marks["presses"] = bot.presses
            return
        now = seat_actions()
        if now > marks["decisions"]:
            counts.append(bot.presses - marks["presses"])
            counts.extend([0] * (now - marks["decisions"] - 1))
            marks["decisions"], marks["presses"] = now, bot.presses

    bot = ButtonBot(table, clock, seed, on_press=on_press)
    command, level = bot.command, [0]

    def counted(seat: str, what: str) -> None:
        if choices is not None and table.app.mode in ("playing", "setup"):
            level[0] += 1
            if what == "select":
                choices.append(level[0])
                level[0] = 0
        command(seat, what)

    bot.command = counted  # type: ignore[method-assign]
    try:
        table.app.start()
        table.app.tick()
        bot.play(players)
        if reachable is not None and table.app.state is not None:
            reachable.extend(choice_counts(table.app.state))
    finally:
        table.close()
    return counts


def choice_counts(state: State) -> list[int]:
    """How many legal actions each seat decision of `state`'s game had, replayed."""
    fresh = state.game.new_state(
        state.players, seed=state.seed, options=state.options, data=state.data
    )
    counts = []
    for action in state.history:
        if action.player != CHANCE:
            counts.append(len(fresh.legal_actions()))
        fresh.apply(action)
    return counts


def run() -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory(prefix="tavola-bench-") as tmp_name:
        tmp = Path(tmp_name)
        for game, players in GAMES:
            levels: list[list[int]] = [[] for _ in SEEDS]
            widths: list[int] = []
            games = [
                presses_per_decision(game, players, seed, tmp, levels[i], widths)
                for i, seed in enumerate(SEEDS)
            ]
            lines.append(_figures(f"{game} {players} seat(s): presses per action", games))
            lines.append(_figures("    ... per menu choice (one level: moves + select)", levels))
            best = statistics.mean(min(1.0, 4 / n) for n in widths)
            lines.append(
                f"    ... any 3-button menu: at most {best:.0%} of these decisions in <= 2 "
                f"presses (median {statistics.median(widths):g} legal actions per decision)"
            )
        lines += _ship_lines(tmp)
    return lines


def ship_entries(seed: int, tmp: Path, ships: str) -> list[int]:
    """The presses each Strozzi ship entry took with `chance = "pick"`: the seat walks the
    face's words (sails, then what still differs) to the card the app's deck turned up."""
    clock = ManualClock()
    config = demo_config(
        "strozzi",
        4,
        journal=tmp / f"pick-{ships}-{seed}.db",
        seed=seed,
        chance="pick",
        options={"ships": ships},
    )
    table = Appliance(config, clock=clock, button_thread=False, say=lambda _t: None)
    bot = ButtonBot(table, clock, seed)
    try:
        table.app.start()
        table.app.tick()
        bot.play(4)
    finally:
        table.close()
    return [n for text, n in bot.entered if text.startswith("draw ")]


def _ship_lines(tmp: Path) -> list[str]:
    lines = []
    for ships, what in (("deck", "the shipped deck's faces"), ("any", 'ships = "any"')):
        games = [ship_entries(seed, tmp, ships) for seed in SEEDS]
        lines.append(_figures(f"strozzi 4 seats, pick: presses per ship entered, {what}", games))
    return lines


def _figures(what: str, games: list[list[int]]) -> str:
    medians = [statistics.median(g) for g in games if g]
    every = [n for g in games for n in g]
    p90 = sorted(every)[int(0.9 * (len(every) - 1))]
    return (
        f"{what}: median per game {', '.join(f'{m:g}' for m in medians)} (worst "
        f"{max(medians):g}); mean {statistics.mean(every):.2f}, p90 {p90} over "
        f"{len(every)} in {len(games)} bot games"
    )
