"""Wiring: one config file -> buttons, strip, pipeline, layout, journal and the table app.

The config is one TOML file. `hw` reads its own tables (seats, table buttons,
buttons, strip, pipeline); the app's settings live in `[app]`:

    [app]
    game = "strozzi"        # skip the game menu (optional)
    chance = "app"          # app | pick | scanner: who supplies draws
    journal = "/var/lib/tavola/tavola.db"   # default: the XDG data directory
    seed = 7                # fix the app's draws (optional; default: a secret random seed)

    [app.layouts]
    strozzi = "/etc/tavola/strozzi-layout.toml"  # default: the layout shipped with the view

    [app.options]
    scandal_entry = "play"  # options of the games (each game gets the ones it declares)

`[web]` turns on the phone page (apps/web/config.py, docs/phone.md).

The whole file is checked at start-up against one schema (hw.schema): hw's,
firmware_bridge's, the app's and the web page's tables, and the options the games declare.

The main loop sleeps in `queue.get(timeout)` until a button event arrives or the
next animation frame is due; an idle table with no prompt blocks indefinitely.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import engine
from engine.bots import LEVELS
from engine.core import DataError, DataUnreadable, Option
from firmware_bridge.config import TABLES as BRIDGE_TABLES
from firmware_bridge.config import BridgeConfig, ScannerConfig, parse_bridge
from firmware_bridge.events import CardEvent, LinkEvent
from hw.backends import open_strip
from hw.buttons import Buttons
from hw.config import TABLES as HW_TABLES
from hw.config import HwConfig, StripConfig, parse_config
from hw.events import InputEvent
from hw.layout import Layout
from hw.pipeline import Pipeline
from hw.recovery import DEVICE_BACKENDS, RecoveringStrip
from hw.schema import (
    Bool,
    Choice,
    Custom,
    FilePath,
    Invalid,
    Key,
    Section,
    Table,
    did_you_mean,
)
from hw.strip import Strip
from hw.tomlsource import ConfigError, TomlSource

from .args import SEED
from .chance import SOURCES, ChanceSource
from .compositor import Compositor
from .games import table_games
from .journal import Journal, JournalError, default_path
from .names import NAME, name_problem
from .peripherals import Peripherals
from .table import TableApp, TableSeat
from .web.config import WEB, WebConfig

log = logging.getLogger("tavola")

_GAMES = tuple(engine.games())


def _option_value(value: Any) -> Any:
    if not isinstance(value, str | int | float | bool):
        raise ValueError(f"must be a string, a number or true/false, got {value!r}")
    return value


_OPTION_VALUE = Custom("a string, a number or true/false", _option_value)
APP = Table(
    Key("game", Choice(_GAMES), None, "skip the game menu"),
    Key("chance", Choice(SOURCES), None, "who supplies the draws"),
    Key("journal", FilePath(example="/var/lib/tavola/tavola.db"), None, "the game journal"),
    Key("seed", SEED, None, "fix the app's draws"),
    Key(
        "layouts", Table(*(Key(g, FilePath(), None) for g in _GAMES)), {}, "a layout file per game"
    ),
    Key(
        "options",
        Table(rest=_OPTION_VALUE, rest_name="game option"),
        {},
        "the games' options (docs/table.md)",
    ),
    Key(
        "names",
        Table(rest=NAME, rest_name="seat"),
        {},
        "the player's name at each seat, said in every sentence",
    ),
    Key(
        "component_check",
        Bool(),
        True,
        "offer the component check before the first game of a title (docs/components.md)",
    ),
    Key(
        "bots",
        Table(rest=Choice(LEVELS), rest_name="seat"),
        {},
        "seats a bot takes at each seating, and how it plays (docs/bots.md)",
    ),
)
#: every table of the config file, by the layer that reads it
TABLES: dict[str, Any] = {**HW_TABLES, **BRIDGE_TABLES, "app": APP, "web": WEB}
STOP = InputEvent("", "stop", "release", 0.0)
WAKE = InputEvent("", "wake", "release", 0.0)  # no seat: the table ignores it


@dataclass
class AppSettings:
    game: str | None = None
    chance: str = "app"
    journal: Path = field(default_factory=default_path)
    seed: int | None = None
    layouts: dict[str, Path] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    component_check: bool = True
    bots: dict[str, str] = field(default_factory=dict)


@dataclass
class Config:
    hw: HwConfig
    app: AppSettings
    source: str
    bridge: BridgeConfig = field(default_factory=BridgeConfig)  # [scanner], [mcu]
    web: WebConfig = field(default_factory=WebConfig)  # [web]: the phone page
    at: dict[tuple[str, ...], str] = field(default_factory=dict)
    """'FILE:LINE: key' of the keys a start-up check may blame ([app] journal, [strip]
    count): what is only found when the table starts is then said at its line too."""


def load(path: str | Path) -> Config:
    """Read and check the whole config file; errors name the file, line and key."""
    src = TomlSource.load(path)
    return parse(src)


def parse_text(text: str, *, name: str = "<config>") -> Config:
    return parse(TomlSource.parse(text, name=name))


def parse(src: TomlSource) -> Config:
    """Check the whole file against the schema of every layer, then what spans tables."""
    _check_tables(src)
    hw = parse_config(src.data, source=src.name, text=src.text)
    raw = APP.read(src, ("app",), src.data.get("app", {}))
    settings = _settings(raw)
    if hw.strip is None:
        raise src.error(("strip",), 'missing: say which LEDs to drive, e.g. backend = "mock"')
    _check_players(src, hw, settings.game)
    check_options(raw["options"], [settings.game] if settings.game else list(_GAMES))
    seat_names = [seat.name for seat in hw.seats if seat.kind != "table"]
    _check_names(src, settings.names, seat_names)
    _check_bots(src, settings, seat_names)
    bridge = parse_bridge(src)
    if bridge.scanner is not None and raw["chance"] is None:
        settings.chance = "scanner"  # a [scanner] table means the cards are scanned
    if settings.chance == "scanner" and bridge.scanner is None:
        bridge = replace(bridge, scanner=ScannerConfig())  # /dev/tavola-scanner, barcode
    w = WEB.read(src, ("web",), src.data.get("web", {}))
    web = WebConfig(enabled=w["enabled"], address=w["address"], port=w["port"])
    check_phone_seats(src, hw, web)
    _check_colours(src, hw)
    _check_layouts(src, settings)
    _check_registry(src, bridge)
    blamed: tuple[tuple[str, ...], ...] = (("app", "journal"), ("strip", "count"))
    at = {
        key: str(src.error(key, "")).removesuffix(": ")
        for key in blamed
        if key[1] in src.data.get(key[0], {})
    }
    return Config(hw=hw, app=settings, source=src.name, bridge=bridge, web=web, at=at)


def _check_colours(src: TomlSource, hw: HwConfig) -> None:
    """Two seats given one colour: a copied seat table, and lights nobody can tell apart."""
    taken: dict[tuple[int, ...], str] = {}
    for seat in hw.seats:
        if seat.colour is None:
            continue
        rgb = tuple(seat.colour)
        if rgb in taken:
            other = taken[rgb]
            line = src.line_of(("seats", other, "colour"))
            raise src.error(
                ("seats", seat.name, "colour"),
                f"seat {other} has this colour already{f' (line {line})' if line else ''}: "
                "give each seat its own",
            )
        taken[rgb] = seat.name


def _check_layouts(src: TomlSource, settings: AppSettings) -> None:
    """Every layout file the config names is read now, the fixed game's or not: a missing
    or broken one is said at its key, not found on the day the menu offers its game."""
    for game, path in settings.layouts.items():
        try:
            Layout.load(path)
        except ConfigError as exc:
            raise src.error(("app", "layouts", game), str(exc)) from None


def _check_registry(src: TomlSource, bridge: BridgeConfig) -> None:
    """A card registry the config names must read (a missing one is an empty registry that
    `tavola cards learn` fills): its fault is said at `[scanner] cards`."""
    from .cards import CardError, CardRegistry

    scanner = bridge.scanner
    if scanner is None or scanner.cards is None or not Path(scanner.cards).exists():
        return
    try:
        CardRegistry.load(scanner.cards)
    except (ConfigError, CardError) as exc:
        raise src.error(("scanner", "cards"), str(exc)) from None


def _check_tables(src: TomlSource) -> None:
    """A misspelt table would otherwise be ignored silently."""
    for name in src.data:
        if name not in TABLES:
            raise src.error(
                (name,),
                f"unknown table{did_you_mean(name, list(TABLES))} (known: {', '.join(TABLES)})",
            )


def _settings(raw: Mapping[str, Any]) -> AppSettings:
    """`[app]` as read by the schema; unset keys keep the dataclass defaults."""
    settings = AppSettings(
        game=raw["game"],
        seed=raw["seed"],
        layouts={g: p for g, p in raw["layouts"].items() if p is not None},
        options=dict(raw["options"]),
        names=dict(raw["names"]),
        component_check=raw["component_check"],
        bots=dict(raw["bots"]),
    )
    if raw["chance"] is not None:
        settings.chance = raw["chance"]
    if raw["journal"] is not None:
        settings.journal = raw["journal"]
    return settings


def _check_players(src: TomlSource, hw: HwConfig, game_name: str | None) -> None:
    """Enough player seats for any game, and for the fixed game if there is one."""
    players = sum(1 for seat in hw.seats if seat.kind != "table")
    if not players:
        raise src.error(("seats",), "missing: declare at least one seat with its buttons")
    if game_name is None:
        return
    game = engine.get(game_name)
    if players < game.min_players:
        raise src.error(
            ("seats",),
            f"{game.title} needs at least {game.min_players} "
            f"players; {players} seat(s) are declared",
        )


def _no_seat(
    src: TomlSource, path: tuple[str, ...], seat: str, seat_names: list[str]
) -> ConfigError:
    return src.error(path, f"no seat {seat!r} in [seats] (seats: {', '.join(seat_names)})")


def _check_names(src: TomlSource, names: Mapping[str, str], seat_names: list[str]) -> None:
    """Each name belongs to a declared seat and is told apart from the names before it."""
    earlier: dict[str, str] = {}
    for seat, name in names.items():
        if seat not in seat_names:
            raise _no_seat(src, ("app", "names", seat), seat, seat_names)
        why = name_problem(name, seat, earlier)
        if why is not None:
            raise src.error(("app", "names", seat), why)
        earlier[seat] = name


def _check_bots(src: TomlSource, settings: AppSettings, seat_names: list[str]) -> None:
    """Bots sit at declared seats, and no more of them than the fixed game allows."""
    for seat in settings.bots:
        if seat not in seat_names:
            raise _no_seat(src, ("app", "bots", seat), seat, seat_names)
    if settings.game is not None and len(settings.bots) > engine.get(settings.game).max_players:
        game = engine.get(settings.game)
        raise src.error(("app", "bots"), f"{game.title} is for at most {game.max_players} players")


def check_phone_seats(src: TomlSource, hw: HwConfig, web: WebConfig) -> None:
    """A `kind = "phone"` seat is played only from a paired phone: it needs the phone page,
    and a button at the table whose hold confirms the pairing (docs/phone.md)."""
    phones = [s for s in hw.seats if s.kind == "phone"]
    if not phones:
        return
    first = phones[0].name
    if not web.enabled:
        raise src.error(
            ("seats", first, "kind"),
            f"seat {first!r} is played from a phone, but the phone page is off: add "
            '[web] enabled = true, or give the seat buttons (kind = "three" or "one")',
        )
    if not _has_pairing_button(hw):
        raise src.error(
            ("seats", first, "kind"),
            "a phone pairs only by a hold of a button at the table, and this table has none: "
            "add [table] menu = <GPIO>, or a seat with buttons",
        )


def _has_pairing_button(hw: HwConfig) -> bool:
    """A table menu button, or any seat with buttons, can be held to confirm a pairing."""
    menu = any(b.button == "menu" for s in hw.seats if s.kind == "table" for b in s.buttons)
    return menu or any(s.kind in ("three", "one") for s in hw.seats)


def check_options(options: Section, games: list[str]) -> None:
    """Each `[app.options]` key must be an option a game offered here declares, with a value
    it allows; checked at start-up, so a game never fails to start at the table."""
    declared = {g: {o.name: o for o in engine.get(g).options} for g in games}
    names = sorted({n for opts in declared.values() for n in opts})
    for name, value in options.items():
        _check_option(options, name, value, declared, names)
    for g in games:
        _check_resolves(options, g, declared[g])


def _check_option(
    options: Section,
    name: str,
    value: Any,
    declared: Mapping[str, Mapping[str, Option]],
    names: list[str],
) -> None:
    """One `[app.options]` key: some game here declares it, and each allows the value."""
    games = list(declared)
    owners = [g for g in games if name in declared[g]]
    if not owners:
        raise options.err(name, _unknown_option(name, games, names))
    for g in owners:
        _check_option_value(options, name, value, g, declared[g][name])


def _check_resolves(options: Section, g: str, declared: Mapping[str, Option]) -> None:
    """The game's own check of its options together (an option may rule out another)."""
    mine = {k: v for k, v in options.items() if k in declared}
    game = engine.get(g)
    try:
        game.resolve_options(game.min_players, mine)
    except ValueError as exc:
        raise options.err(None, f"{game.title}: {exc}") from None


def _unknown_option(name: str, games: list[str], names: list[str]) -> str:
    which = f"{engine.get(games[0]).title} has" if len(games) == 1 else "none of the games has"
    return (
        f"{which} no such option{did_you_mean(name, names)} (options: {', '.join(names) or 'none'})"
    )


def _check_option_value(options: Section, name: str, value: Any, g: str, option: Option) -> None:
    """A value outside the option's choices names the game and what the option does."""
    if option.choices is None:
        return
    try:
        Choice(option.choices).check(value)
    except Invalid as exc:
        raise options.err(name, f"{exc} ({engine.get(g).title}: {option.help})") from None


class PipelineOutput:
    """The table's `Output`: the layout's one strip through the colour pipeline."""

    def __init__(self, pipelines: Mapping[str, Pipeline]) -> None:
        self.pipelines = dict(pipelines)

    def show(self, frames: Mapping[str, bytes | bytearray]) -> None:
        for name, frame in frames.items():
            pipeline = self.pipelines.get(name)
            if pipeline is not None:
                pipeline.show(frame)

    def due_in(self) -> float | None:
        dues = [d for p in self.pipelines.values() if (d := p.due_in()) is not None]
        return min(dues) if dues else None

    def flush(self) -> None:
        for p in self.pipelines.values():
            p.flush()


class Appliance:
    """Everything the appliance runs, built from one config; `run()` is the main loop.
    (hw.schema.Table is a table of config keys, not this.)"""

    def __init__(
        self,
        config: Config,
        *,
        clock: Callable[[], float] = time.monotonic,
        strip: Strip | None = None,
        pin_factory: Any = None,
        button_thread: bool = True,
        say: Callable[[str], None] | None = None,
        journal_path: Path | None = None,
        thinking: str = "process",
    ) -> None:
        self.config = config
        hw = config.hw
        assert hw.strip is not None
        self.clock = clock
        # SimpleQueue: its put() is reentrant, so the signal handlers' stop() and wake() can
        # never deadlock on a lock the main loop's get() holds (a Queue's can)
        self.events: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.layouts = self._fitting(config, self._layouts(config), hw.strip.count)
        lobby = next(iter(self.layouts.values()))
        strip_name = lobby.default_strip
        self.peripherals = Peripherals(
            config.bridge, emit=self.events.put, strip=hw.strip, clock=clock
        )
        self.strip = strip or self.peripherals.strip(hw.strip) or self._open_strip(hw.strip)
        self.pipeline = Pipeline.from_config(
            self.strip, hw.pipeline, segments=hw.strip.segments, clock=clock
        )
        self.output = PipelineOutput({strip_name: self.pipeline})
        self.buttons = Buttons(
            hw, clock=clock, events=self.events, thread=button_thread, pin_factory=pin_factory
        )
        try:
            self.journal = Journal(journal_path or config.app.journal)
        except JournalError as exc:  # said at the key that names it, when the file does
            where = config.at.get(("app", "journal"))
            if journal_path is not None or where is None:
                raise
            raise JournalError(f"{where}: {exc}") from None
        if self.journal.report is not None and say is not None:  # found at open, and kept
            say(self.journal.report[:1].upper() + self.journal.report[1:] + ".")
        compositors = {
            name: Compositor(layout, {layout.default_strip: hw.strip.count})
            for name, layout in self.layouts.items()
        }
        compositors["lobby"] = Compositor(lobby, {strip_name: hw.strip.count})
        seats = [
            TableSeat(s.name, one_button=s.kind == "one", phone=s.kind == "phone")
            for s in hw.seats
            if s.kind != "table"
        ]
        self.app = TableApp(
            seats=seats,
            journal=self.journal,
            output=self.output,
            clock=clock,
            chance=ChanceSource(config.app.chance),
            game=config.app.game,
            seed=config.app.seed,
            options=config.app.options,
            say=say,
            compositors=compositors,
            cards=self.peripherals.cards,
            games=self._with_data(config, self._seatable(config, list(self.layouts))),
            names=config.app.names,
            component_check=config.app.component_check,
            bots=config.app.bots,
            thinking=thinking,
        )
        self._stop = threading.Event()
        # Parts beside the buttons (the phone page): `taps` see each event first and may
        # take it (True: the table does not), `handlers` take the events of their type,
        # `watchers` run on this thread after every render, to publish what changed.
        self.taps: list[Callable[[Any], bool]] = []
        self.handlers: dict[type, Callable[[Any], None]] = {}
        self.watchers: list[Callable[[], object]] = []

    def _open_strip(self, config: StripConfig) -> Strip:
        """The configured strip; one with a device is kept alive (hw.recovery): a write
        error is said once, the game goes on, and the board comes back with the device."""
        if config.backend not in DEVICE_BACKENDS:
            return open_strip(config)
        return RecoveringStrip.from_config(config, report=self._strip_report)

    def _strip_report(self, kind: str, message: str) -> None:
        """From the strip's keeper thread: onto the queue, said at the table like a link's."""
        self.events.put(LinkEvent("LED strip", kind, message, self.clock()))  # type: ignore[arg-type]

    @staticmethod
    def _fitting(config: Config, layouts: dict[str, Layout], count: int) -> dict[str, Layout]:
        """The games whose layout fits the strip. A table set to one game must fit it; a
        table that offers the game menu offers the games its strip can show."""
        fitting: dict[str, Layout] = {}
        problems: list[str] = []
        for name, layout in layouts.items():
            try:
                layout.check_fits({layout.default_strip: count})
            except ConfigError as exc:
                where = config.at.get(("strip", "count"), f"{config.source}: [strip] count")
                problems.append(f"{exc} (config {where})")
            else:
                fitting[name] = layout
        if (config.app.game is not None and problems) or not fitting:
            raise ConfigError(problems[0])
        for problem in problems:
            log.warning("game left out of the menu: %s", problem)
        return fitting

    @staticmethod
    def _seatable(config: Config, games: list[str]) -> list[str]:
        """The games the declared seats can play (parse() refuses a fixed game they cannot)."""
        seats = sum(1 for s in config.hw.seats if s.kind != "table")
        fit = [g for g in games if engine.get(g).min_players <= seats]
        for g in games:
            if g not in fit:
                log.warning(
                    "game left out of the menu: %s needs %d players, %d seat(s) are "
                    "declared (config %s)",
                    engine.get(g).title,
                    engine.get(g).min_players,
                    seats,
                    config.source,
                )
        if not fit:
            raise ConfigError(f"{config.source}: no game can be played with {seats} seat(s)")
        return fit

    @staticmethod
    def _with_data(config: Config, games: list[str]) -> list[str]:
        """The games whose component data loads: an owner's data file the game refuses
        (file:line and key) stops a fixed game from starting, and leaves a game out of a
        menu of several, said in the log either way. A file that cannot be read at all
        stops the table: the service is misinstalled, and a menu silently short of a game
        (or playing it with the shipped guesses) would hide that."""
        fit = []
        for g in games:
            try:
                engine.get(g).data()
            except DataUnreadable as exc:  # the service's permissions: not a menu choice
                raise ConfigError(f"{exc}; the table was not started") from None
            except DataError as exc:
                if config.app.game:
                    raise ConfigError(f"{exc} (the component data of [app] game)") from None
                log.warning("game left out of the menu: %s", exc)
            else:
                fit.append(g)
        if not fit:
            raise ConfigError(f"{config.source}: no game's component data loads (see above)")
        return fit

    @staticmethod
    def _layouts(config: Config) -> dict[str, Layout]:
        names = [config.app.game] if config.app.game else engine.games()
        layouts: dict[str, Layout] = {}
        for name in names:
            game = table_games().get(name)
            if game is None:
                continue
            path = config.app.layouts.get(name) or game.layout
            layouts[name] = Layout.load(path)
        if not layouts:
            raise ConfigError(f"{config.source}: no game with a table view to play")
        return layouts

    def stop(self) -> None:
        """Ask the main loop to end (safe from a signal handler or another thread)."""
        self._stop.set()
        self.events.put(STOP)

    def wake(self) -> None:
        """Make the main loop go round once (safe from a signal handler)."""
        self.events.put(WAKE)

    @classmethod
    def check(cls, config: Config) -> None:
        """What start-up checks beyond the file, without opening any device: a layout per
        game that fits the strip, a game the seats can play (ConfigError otherwise)."""
        assert config.hw.strip is not None
        layouts = cls._fitting(config, cls._layouts(config), config.hw.strip.count)
        cls._with_data(config, cls._seatable(config, list(layouts)))

    def reload(self, config: Config) -> list[str]:
        """Apply what can change while running (pipeline settings, the players' names);
        list what needs a restart."""
        hw, old = config.hw, self.config.hw
        p = hw.pipeline
        self.pipeline.set_brightness(p.brightness)
        self.pipeline.set_budget(p.budget_ma)
        self.pipeline.fps = p.fps
        for segment in self.pipeline.segments:
            self.pipeline.set_dimming(segment, p.dimming.get(segment, 1.0))
        restart = [
            name
            for name, a, b in (
                ("[strip]", hw.strip, old.strip),
                ("seats and buttons", hw.seats, old.seats),
                ("[app]", replace(config.app, names={}), replace(self.config.app, names={})),
            )
            if a != b
        ]
        self.app.names = dict(config.app.names)  # read afresh by every sentence
        self.config = replace(
            self.config,
            hw=replace(old, pipeline=p),
            app=replace(self.config.app, names=dict(config.app.names)),
        )
        return restart

    def step(self, timeout: float | None) -> bool:
        """Wait for one event (or the timeout) and handle it; False once stopped."""
        try:
            ev = self.events.get(timeout=timeout)
        except queue.Empty:
            return not self._stop.is_set()
        if ev is STOP or self._stop.is_set():
            return False
        self.dispatch(ev)
        # handle everything already queued before rendering once
        while True:
            try:
                ev = self.events.get_nowait()
            except queue.Empty:
                break
            if ev is STOP:
                return False
            self.dispatch(ev)
        return True

    def watch(self) -> None:
        """Tell the watchers the table may have changed (after each render)."""
        for watcher in self.watchers:
            watcher()

    def dispatch(self, ev: Any) -> None:
        """One queued event to the app: a button, a card read, a device coming or going,
        a command from a paired phone."""
        if any(tap(ev) for tap in self.taps):
            return
        handler = self.handlers.get(type(ev))
        if handler is not None:
            handler(ev)
        elif isinstance(ev, CardEvent):
            self.app.handle_card(ev.code, ev.time)
        elif isinstance(ev, LinkEvent):
            self.app.say(ev.message)
        else:
            self.app.handle(ev)

    def run(
        self,
        *,
        ready: Callable[[], None] | None = None,
        heartbeat: Callable[[], None] | None = None,
        heartbeat_s: float | None = None,
        each_loop: Callable[[], None] | None = None,
    ) -> None:
        """The main loop: start (or resume), then handle events and render until stopped.

        `each_loop` runs on this thread before every wait (config reloads asked for by a
        signal handler happen there, never inside the handler).
        """
        self.app.start()
        self.app.tick()
        if ready is not None:
            ready()
        last_beat = self.clock()
        while not self._stop.is_set():
            if each_loop is not None:
                each_loop()
            timeout = self.app.tick()
            self.watch()
            if heartbeat is not None and heartbeat_s:
                now = self.clock()
                if now - last_beat >= heartbeat_s:
                    heartbeat()
                    last_beat = now
                left = heartbeat_s - (now - last_beat)
                timeout = left if timeout is None else min(timeout, left)
            if not self.step(timeout):
                break

    def close(self) -> None:
        """Lights off, buttons released, journal closed: the orderly end."""
        try:
            self.app.close()
            self.pipeline.blank()
            self.strip.close()
        finally:
            self.buttons.close()
            self.peripherals.close()
            self.journal.close()
