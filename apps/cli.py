"""The `tavola` command.

Each subcommand lives in its own module with a `register(subparsers)` function
that adds its parser and sets `func`; this file only lists the modules, so a
command's imports (gpiozero, serial, sqlite) load only when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMAND_MODULES = (
    "apps.commands.table_cmds",
    "apps.commands.journal_cmds",
    "apps.commands.sim_cmd",
    "apps.commands.engine_cmds",
    "apps.commands.doctor",
    "apps.commands.cards_cmd",
)

EPILOG = """\
examples:
  tavola demo strozzi --players 4 --seed 1     bots play a whole game
  tavola selfplay strozzi --games 100          many games, one JSON line of figures
  tavola replay game.json                      check a recorded game
  tavola data strozzi                          which component data is provisional
  tavola journal check                         the game journal, its backups, any problem
"""


def build_parser() -> argparse.ArgumentParser:
    from .args import Parser

    parser = Parser(
        prog="tavola",
        description="Tavola: a Raspberry Pi companion for physical board games.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from apps.userdata import use_owner_data

    use_owner_data()  # an owner's corrections to component data apply to every command
    try:
        return int(args.func(args) or 0)
    except SystemExit as exc:
        if isinstance(exc.code, str):  # a command's one-line refusal
            print(exc.code, file=sys.stderr)
            return 2
        raise
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
