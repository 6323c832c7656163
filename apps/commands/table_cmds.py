"""Table commands: run (the appliance), demo (bots on mocked buttons), sim, history."""

from __future__ import annotations

import argparse
import datetime
import json
import logging
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engine
from engine.core import Game
from hw.tomlsource import ConfigError

from .. import args as types
from .. import runtime
from ..journal import GameRecord, Journal, JournalError, default_path
from ..record import exported, game_log, replay, seat_namer
from .engine_cmds import bot_args, option_args, parse_options

if TYPE_CHECKING:
    from ..sim import ManualClock


def _fail(message: str) -> int:
    print(f"tavola: {message}", file=sys.stderr)
    return 2


def cmd_demo(args: argparse.Namespace) -> int:
    from ..sim import ManualClock, demo_config

    game = engine.get(args.game)
    players = game.min_players if args.players is None else args.players
    problem = _demo_problem(game, players, args.bots)
    if problem is not None:
        return _fail(problem)
    options = parse_options(args)
    try:
        game.resolve_options(players, options)
    except ValueError as exc:
        return _fail(f"demo: {exc}")
    out = sys.stdout

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    with tempfile.TemporaryDirectory(prefix="tavola-demo-") as tmp:
        config = demo_config(
            game.name,
            players,
            journal=_demo_journal(args, Path(tmp)),
            seed=args.seed,
            strip=args.strip,
            chance=args.chance,
            options=options,
            bots=args.bots,
            bot=args.bot,
        )
        clock = ManualClock()
        try:
            table = runtime.Appliance(config, clock=clock, button_thread=False, say=say)
        except (ConfigError, JournalError) as exc:
            return _fail(str(exc))
        try:
            return _play_demo(table, clock, game, players, args, say)
        finally:
            table.close()


def _remedy(args: argparse.Namespace) -> str:
    """What to do about a journal that refused the demo's write."""
    if args.db:
        return "free space on its disk or choose another --db"
    return "free space on its disk"


def _demo_problem(game: Game[Any], players: int, bots: int) -> str | None:
    """Why --players or --bots cannot seat this game, if they cannot."""
    if not game.min_players <= players <= game.max_players:
        return (
            f"--players: {game.title} is for {game.min_players}-{game.max_players} "
            f"players, not {players}"
        )
    if not 0 <= bots <= players:
        return f"--bots: {bots} bots for {players} players"
    return None


def _demo_journal(args: argparse.Namespace, tmp: Path) -> Path:
    """--db, else with --keep the usual journal, else one thrown away after the demo."""
    if args.db:
        return Path(args.db)
    return default_path() if args.keep else tmp / "demo.db"


DEMO_PATIENCE_S = 10.0  # how long a demo waits for a refusing journal to accept writes


def _journal_gave_up(table: runtime.Appliance, since: dict[str, float]) -> bool:
    """Whether the demo should stop: its journal has refused writes for DEMO_PATIENCE_S.
    Until then the bots wait (half a second a step, no busy loop) while the table
    retries, so a disk freed meanwhile loses nothing; a disk nobody frees ends the demo
    with one line instead of a refused press, and a line, per step for ever."""
    if table.app.journal_refusal is None:
        since.clear()
        return False
    now = time.monotonic()
    first = since.setdefault("at", now)
    time.sleep(0.5)
    return now - first > DEMO_PATIENCE_S


def _play_demo(
    table: runtime.Appliance,
    clock: ManualClock,
    game: Game[Any],
    players: int,
    args: argparse.Namespace,
    say: Callable[[str], None],
) -> int:
    """A bot presses the buttons until the game ends; 1 if it never does, SystemExit (one
    line) when the journal refuses a write."""
    from ..sim import ButtonBot, final_lines, strip_of

    plural = "s" if args.bots > 1 else ""
    bots = f" ({args.bots} played by the {args.bot} bot{plural})" if args.bots else ""
    say(f"{game.title} on a mocked table: {players} players{bots}, seed {args.seed}")
    table.app.start()
    table.app.tick()
    pace = (lambda: time.sleep(args.pace)) if args.pace > 0 else None
    bot = ButtonBot(table, clock, args.seed, noise=args.noise, on_press=pace)
    if not bot.play(players, stop=partial(_journal_gave_up, table, {})):
        refusal = table.app.journal_refusal
        if refusal is not None:  # said once the table is closed: the last line, exit 2
            raise SystemExit(f"tavola demo: stopped, {refusal}; {_remedy(args)}")
        say(f"Stopped after {bot.presses} button presses: the game had not ended.")
        return 1
    for line in final_lines(table):
        say(line)
    strip = strip_of(table)
    frames = len(strip.raw_frames) if strip is not None else table.pipeline.pushed
    say(f"{bot.presses} button presses, {frames} frames sent to the strip")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """The appliance: READY=1 when the table is live, WATCHDOG=1 from the main loop,
    SIGTERM -> lights off, journal closed, exit 0; SIGHUP -> reload the config.
    With `[web] enabled = true` the phone page is served too (docs/phone.md)."""
    from ..service import Notifier, setup_logging

    setup_logging(logging.DEBUG if args.verbose else logging.INFO)
    log = logging.getLogger("tavola")
    page = None
    try:
        config = runtime.load(args.config)
        if config.web.enabled:
            page = _phone_page(config)
        # with the phone page, the table's sentences go to the service's log too
        table = runtime.Appliance(config, say=partial(log.info, "%s") if page else None)
        if page is not None:
            page.attach(table)
            try:
                page.start()
            except OSError as exc:
                table.close()
                log.error(
                    "cannot serve the phone page on %s port %d: %s (config %s: [web])",
                    config.web.address,
                    config.web.port,
                    exc.strerror or exc,
                    config.source,
                )
                return 2
    except (ConfigError, JournalError) as exc:
        log.error("%s", exc)
        return 2
    except Exception as exc:  # a backend that cannot start names its fix in the message
        log.error("cannot start the table: %s", exc)
        return 1
    notifier = Notifier.from_env()
    reload_asked = False

    def on_stop(signum: int, frame: object) -> None:
        table.stop()

    def on_hup(signum: int, frame: object) -> None:
        nonlocal reload_asked
        reload_asked = True
        table.wake()

    def maybe_reload() -> None:
        nonlocal reload_asked
        if not reload_asked:
            return
        reload_asked = False
        notifier.reloading()
        try:
            restart = table.reload(runtime.load(args.config))
        except ConfigError as exc:
            log.error("config not reloaded, keeping the running one: %s", exc)
        else:
            log.info("config reloaded from %s", args.config)
            if restart:
                log.warning("changes to %s take effect after a restart", ", ".join(restart))
        notifier.ready()

    def ready() -> None:
        notifier.ready()
        log.info("Table ready (%s).", config.source)

    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    signal.signal(signal.SIGHUP, on_hup)
    try:
        table.run(
            ready=ready,
            heartbeat=notifier.watchdog,
            heartbeat_s=notifier.watchdog_interval,
            each_loop=maybe_reload,
        )
    finally:
        notifier.stopping()
        if page is not None:
            page.stop()
        table.close()
        notifier.close()
        log.info("Table stopped; lights off, journal closed.")
    return 0


def _phone_page(config: runtime.Config):  # type: ignore[no-untyped-def]
    """The phone page's server, or ConfigError naming the missing package."""
    try:
        from ..web.server import PhonePage
    except ImportError as exc:
        raise ConfigError(
            f"{config.source}: [web] enabled = true needs aiohttp ({exc}): "
            "pip install 'tavola[web]', or apt install python3-aiohttp"
        ) from None
    return PhonePage(config.web, journal=config.app.journal, config_path=Path(config.source))


def cmd_history(args: argparse.Namespace) -> int:
    """Read the journal without writing a byte (a wrong --db must never be changed)."""
    path = Path(args.db) if args.db else default_path()
    if args.export and args.game is None:
        return _fail("history: --export needs a game: tavola history GAME --export FILE")
    if not path.exists():
        print(f"no journal at {path} yet: no games played")
        return 0 if args.game is None else 2
    try:
        journal = Journal(path, readonly=True)
    except JournalError as exc:
        return _fail(str(exc))
    try:
        if journal.report is not None:
            print(f"tavola: {journal.report}", file=sys.stderr)
        if args.game is not None:
            return _one_game(journal, args.game, args.export)
        _list_games(journal, args.limit)
    finally:
        journal.close()
    return 0


def _list_games(journal: Journal, limit: int) -> None:
    games = journal.history(limit=limit)
    if not games:
        print("no finished games yet")
    for g in games:
        print(_history_line(journal, g))


def _history_line(journal: Journal, g: GameRecord) -> str:
    """`#3 2026-12-01 13:00 Florence: seat 1 43, Strozzi (automa) 269; Strozzi (automa)
    wins 269-43.` The result is the engine's, from the game replayed; a game the engine
    can no longer replay shows the scores the journal stored."""
    title = engine.get(g.game).title if g.game in engine.games() else g.game
    when = datetime.datetime.fromtimestamp(g.started).strftime("%Y-%m-%d %H:%M")
    names = seat_namer(g.seats)
    try:
        state = replay(journal.load(g.id))
    except (KeyError, ValueError, JournalError):
        scores = ", ".join(f"{names(p)} {v}" for p, v in enumerate(g.scores or []))
        winners = ", ".join(names(p) for p in g.winner or []) or "the game's automa"
        return f"#{g.id} {when} {title}: {scores}; winner {winners}"
    scores = ", ".join(f"{state.label(p, names)} {v}" for p, v in state.standings())
    return f"#{g.id} {when} {title}: {scores}; {state.result(names)}"


def _one_game(journal: Journal, game_id: int, export: str | None) -> int:
    """One game's log and breakdown, or (--export) the file `tavola replay` reads."""
    try:
        record = journal.load(game_id)
    except JournalError as exc:
        return _fail(f"history: {exc} (tavola history lists the games)")
    if record.game not in engine.games():
        return _fail(
            f"history: game #{game_id} is {record.game!r}, a game this version does not know"
        )
    try:
        state = replay(record)
    except ValueError as exc:
        return _fail(f"history: {exc}")
    if export is not None:
        text = json.dumps(exported(state), indent=1) + "\n"
        if export == "-":
            sys.stdout.write(text)
            return 0
        target = Path(export)
        try:
            with target.open("x", encoding="utf-8") as f:  # never over a file of the user's
                f.write(text)
        except FileExistsError:
            return _fail(f"history: {target} exists; choose a new file name (nothing written)")
        except OSError as exc:
            return _fail(f"history: cannot write {target}: {exc.strerror}")
        print(
            f"wrote game #{game_id} ({len(state.history)} actions) to {target}; "
            f"check it with: tavola replay {target}"
        )
        return 0
    title = engine.get(record.game).title
    when = datetime.datetime.fromtimestamp(record.started).strftime("%Y-%m-%d %H:%M")
    print(
        f"#{record.id} {when} {title}, {record.players} players, seed {record.seed}, "
        f"{record.status}"
    )
    for line in game_log(record):
        print(line)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="bots play a whole game by pressing mocked seat buttons",
        description="Bots play a whole game through the real input path: they press mocked "
        "GPIO buttons, the table's menus, journal and lights run as on a Pi. The same seed "
        "prints the same output byte for byte.",
    )
    p.add_argument("game", choices=engine.games(), help="which game")
    p.add_argument("--players", type=types.players, help="number of players (default: the minimum)")
    p.add_argument("--seed", type=types.seed, default=1, help="seed for bots and draws (default 1)")
    p.add_argument(
        "--strip",
        choices=("mock", "terminal"),
        default="mock",
        help="where frames go: a recording strip (default) or the terminal",
    )
    p.add_argument(
        "--chance",
        choices=("app", "pick"),
        default="app",
        help="the app draws (default) or the players pick what came up",
    )
    p.add_argument(
        "--db", help="journal file; an unfinished game in it is resumed (default: a temporary file)"
    )
    p.add_argument(
        "--keep",
        action="store_true",
        help=f"keep the game in the user journal for `history` ({default_path()})",
    )
    p.add_argument(
        "--noise",
        type=types.probability,
        default=0.0,
        help="probability of an out-of-turn press before each decision",
    )
    p.add_argument(
        "--pace",
        type=types.seconds,
        default=0.0,
        help="real seconds to wait after each press (to watch, or to crash-test)",
    )
    bot_args(p, others="the others press at random")
    option_args(p)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser(
        "run",
        help="the appliance: run the table from a config file",
        description="Runs the table from a TOML config (seats, table buttons, strip, pipeline, "
        '[app]). With backend = "terminal" or "mock" it runs without a Pi. With [web] '
        "enabled = true it also serves the phone page (docs/phone.md).",
    )
    p.add_argument("--config", required=True, help="the config file, e.g. /etc/tavola/tavola.toml")
    p.add_argument("--verbose", action="store_true", help="log debug messages too")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser(
        "history",
        help="finished games with their scores; one game's breakdown and log",
        description="Lists finished games from the journal, newest first, with the result "
        "(the tie-break that decided it, a solo automa's win). With GAME (the number "
        "before the date): that game's log, each scoring step as a sentence, and each "
        "seat's breakdown; with --export FILE the file `tavola replay` reads.",
    )
    p.add_argument(
        "game",
        nargs="?",
        type=types.count,
        metavar="GAME",
        help="a game's number from the list: show its log and breakdown",
    )
    p.add_argument("--db", help=f"journal file (default {default_path()})")
    p.add_argument("--limit", type=types.count, default=20, help="how many games (default 20)")
    p.add_argument(
        "--export",
        metavar="FILE",
        help="with GAME: write it as the JSON file `tavola replay` reads "
        "(never over an existing file; - for standard output)",
    )
    p.set_defaults(func=cmd_history)
