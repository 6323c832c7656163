"""The `tavola` command.

Each subcommand lives in its own module with a `register(subparsers)` function
that adds its parser and sets `func`. This file names the commands, their
modules and one line of help each, so that `tavola --help` (and any one
command) imports no command module it does not run: the journal's sqlite3,
the hardware backends and the serial links load only for the commands that
use them. `tests/apps/test_cli.py` checks both the imports and that these
lines agree with the modules' own parsers.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("apps.commands.table_cmds", "bots play a whole game by pressing mocked seat buttons"),
    "run": ("apps.commands.table_cmds", "the appliance: run the table from a config file"),
    "history": (
        "apps.commands.table_cmds",
        "finished games with their scores; one game's breakdown and log",
    ),
    "journal": (
        "apps.commands.journal_cmds",
        "check the game journal; restore it from its backups",
    ),
    "sim": ("apps.commands.sim_cmd", "a virtual table in the terminal, keys for seat buttons"),
    "selfplay": (
        "apps.commands.engine_cmds",
        "play many bot games; print one JSON line of figures",
    ),
    "replay": ("apps.commands.engine_cmds", "replay a recorded game and print its summary as JSON"),
    "diagram": ("apps.commands.engine_cmds", "print a game's phase machine as a Mermaid diagram"),
    "data": (
        "apps.commands.data_cmd",
        "component data: provenance, the component check, a template",
    ),
    "doctor": (
        "apps.commands.doctor",
        "hardware self-test: board, buttons, [mcu], LED segments, [scanner]",
    ),
    "cards": ("apps.commands.cards_cmd", "pair scanned cards with the game's cards; list them"),
}
"""command -> (the module that registers it, its line in `tavola --help`), in help order."""

COMMAND_MODULES = tuple(dict.fromkeys(module for module, _ in COMMANDS.values()))

EPILOG = """\
examples:
  tavola sim strozzi --seats 4                 a virtual table in the terminal: play it
  tavola demo strozzi --players 4 --seed 1     bots play a whole game
  tavola selfplay strozzi --games 100          many games, one JSON line of figures
  tavola replay game.json                      check a recorded game
  tavola data strozzi                          which component data is provisional
  tavola data check strozzi                    check it with the components in hand
  tavola journal check                         the game journal, its backups, any problem
"""


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command (argv None), or of the command `argv` names.

    With `argv`, only the module of the command it names is imported; every other command
    is a stub with its help line, so `tavola --help` lists them all and a misspelt command
    is still refused with the list of choices.
    """
    from .args import Parser

    parser = Parser(
        prog="tavola",
        description="Tavola: a Raspberry Pi companion for physical board games.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = COMMAND_MODULES if argv is None else _module_of(argv)
    for name, (module, text) in COMMANDS.items():  # in help order: a module's are adjacent
        if module not in wanted:
            sub.add_parser(name, help=text, add_help=False)
        elif name not in sub.choices:
            importlib.import_module(module).register(sub)
    return parser


def _module_of(argv: Sequence[str]) -> tuple[str, ...]:
    """The module of the command `argv` names (none for `tavola --help` or a typo)."""
    command = next((word for word in argv if not word.startswith("-")), None)
    return (COMMANDS[command][0],) if command in COMMANDS else ()


_SHIPPED_WILL_DO = frozenset({"cmd_demo", "cmd_selfplay", "cmd_diagram"})
"""Commands where bots alone play: an owner's data file that cannot be read is said and
the shipped data used. Where people play or an answer is written (run, sim, cards, the
component check) it stops the command, as the wrong components would stay unnoticed."""


def _check_data(args: argparse.Namespace) -> None:
    """The owner's data file of the game a command names, read and checked before anything
    starts (DataError: file:line and key); `tavola data` itself reports it its own way."""
    import engine
    from engine.core import DataUnreadable

    game = getattr(args, "game", None)
    if args.func.__module__ == "apps.commands.data_cmd" or game not in engine.games():
        return
    try:
        engine.get(game).data()
    except DataUnreadable as exc:
        if args.func.__name__ not in _SHIPPED_WILL_DO:
            raise SystemExit(f"tavola: {exc}; nothing was started") from None
        print(f"tavola: warning: {exc}; going on with the shipped data", file=sys.stderr)
        engine.get(game).use_data_file(None)


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from apps.userdata import use_owner_data
    from engine.core import DataError

    use_owner_data()  # an owner's corrections to component data apply to every command
    try:
        _check_data(args)
        return int(args.func(args) or 0)
    except SystemExit as exc:
        if isinstance(exc.code, str):  # a command's one-line refusal
            print(exc.code, file=sys.stderr)
            return 2
        raise
    except DataError as exc:  # an owner's data file the game refuses: file:line and key
        print(f"tavola: {exc}", file=sys.stderr)
        print(
            "tavola: correct the file (`tavola data GAME --template` shows the form), "
            "or move it away to play with the shipped data",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
