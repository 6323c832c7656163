"""`tavola data`: a game's component data, where each value comes from, and the check an
owner makes once with the components in hand.

    tavola data strozzi                 every value group and its provenance
    tavola data strozzi --template      an override file to start from
    tavola data check strozzi           ask each provisional value; write the answers
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine
from engine.core import DataError, DataUnreadable, Game

from .. import datacheck
from ..userdata import present, user_override_path

USAGE = (
    "tavola data GAME [--provisional] [--template] [--override FILE]\n"
    "       tavola data check GAME [--override FILE]"
)
DESCRIPTION = """\
Lists every value group of a game's component data and whether it comes from the
rulebook, is derived, public, provisional, or the owner's (an override file).

`tavola data check GAME` asks each provisional value, with the components in hand, and
writes the answers to the owner's file (provenance = "owner"); `--template` prints an
override file with every group, to edit by hand. The file is read and checked (file:line
and key) whenever the game starts."""


def _fail(message: str) -> int:
    print(f"tavola data: {message}", file=sys.stderr)
    return 1


def cmd_data(args: argparse.Namespace) -> int:
    if args.game == "check":
        if args.check_game is None:
            return _fail(f"which game? `tavola data check GAME` ({', '.join(engine.games())})")
        return cmd_check(args)
    if args.check_game is not None:
        return _fail(f"one game at a time: `tavola data {args.game}` or `tavola data check GAME`")
    game = engine.get(args.game)
    if args.template:
        sys.stdout.write(datacheck.template(game.name))
        return 0
    override = Path(args.override) if args.override else None
    try:
        data = game.load_data(override) if override else game.data()
    except DataError as exc:
        return _fail(str(exc))
    _print_groups(game, data, provisional_only=args.provisional)
    _print_left(game, data, override or user_override_path(game.name))
    return 0


def _print_groups(game: Game[Any], data: Any, *, provisional_only: bool) -> None:
    """Where each group's values come from (the owner's file, a rulebook, a guess)."""
    groups = list(data.groups.values())
    if provisional_only:
        groups = [g for g in groups if g.unchecked()]
    width = max((len(g.name) for g in data.groups.values()), default=10)
    print(f"{game.title} component data ({data.origin}, digest {data.digest})")
    for group in groups:
        print(f"  {group.name:<{width}}  {group.provenance:<11}  {group.source}")


def _print_left(game: Game[Any], data: Any, path: Path) -> None:
    """The values still to check with the components in hand, and how."""
    left = data.unchecked()
    if left:
        names = ", ".join(f"[{g.name}] {k}" for g, k in left)
        print(
            f"{len(left)} values are provisional ({names}): check them with the components "
            f"in hand, `tavola data check {game.name}`; the answers go to {path} (its tables "
            f"replace these key by key; `tavola data {game.name} --template` shows the form)"
        )
    else:
        print(f"No value is provisional: every guess was checked ({path}).")


def cmd_check(args: argparse.Namespace) -> int:
    game = engine.get(args.check_game)
    path = Path(args.override) if args.override else user_override_path(game.name)
    try:
        data = game.load_data(present(path))
    except DataUnreadable as exc:  # its remedy is in the message: one line
        return _fail(f"{exc}; nothing was asked")
    except DataError as exc:
        return _fail(f"{exc}\n(fix or move the file, then run the check again)")
    return walk(game.name, data, path, ask=input, say=print)


def walk(
    game: str,
    data: Any,
    path: Path,
    *,
    ask: Callable[[str], str],
    say: Callable[[str], None],
) -> int:
    """Ask every provisional value of `game`; each group is written as soon as its last
    key is answered, so stopping halfway keeps what was answered."""
    title = engine.get(game).title
    todo = datacheck.questions(game, data)
    if not todo:
        say(f"{title}: nothing to check; every provisional value is your copy's ({path}).")
        return 0
    say(
        f"{title}: {len(todo)} values are provisional guesses. Have the components at hand.\n"
        "For each: Enter if your copy shows the value given, or type what it shows (as in the "
        "file: 12, [3, 4, 4], { 4 = 5 }); s skips it (it stays a guess), ? says where the guess "
        f"comes from, q stops. Answers are written to {path}."
    )
    answers: dict[tuple[str, str], Any] = {}
    saved = skipped = 0

    def write(group: str) -> None:
        nonlocal saved
        try:
            datacheck.save(game, answers, path=path)
        except (DataError, OSError) as exc:
            say(
                f"Not written: {exc}. Those answers of [{group}] were not kept; "
                "run the check again to answer them."
            )
        else:
            saved += len(answers)
            say(f"Written to {path}: [{group}] {', '.join(k for _, k in answers)}.")
        answers.clear()

    for n, q in enumerate(todo, 1):
        value = _ask_one(q, n, len(todo), ask, say)
        if value is _STOP:
            if answers:
                write(q.group)  # what was answered of this group is kept
            break
        if value is _SKIP:
            skipped += 1
        else:
            answers[(q.group, q.key)] = value
        if (n == len(todo) or todo[n].group != q.group) and answers:
            write(q.group)
    say(_summary(game, path, saved, skipped))
    return 0


def _summary(game: str, path: Path, saved: int, skipped: int) -> str:
    """What the check wrote, and what is left a guess (read back from the file)."""
    written = present(path)
    left = len(datacheck.questions(game, engine.get(game).load_data(written) if written else None))
    return f"{saved} values written; {left} still provisional" + (
        f" ({skipped} skipped)." if skipped else "."
    )


_STOP, _SKIP = object(), object()


def _ask_one(
    q: datacheck.Question, n: int, total: int, ask: Callable[[str], str], say: Callable[[str], None]
) -> Any:
    say(f"\n{n}/{total} {q.label}: {q.text}")
    say(f"  shipped guess: {q.shown()}")
    while True:
        try:
            answer = ask("  your copy> ").strip()
        except EOFError:
            return _STOP
        if answer.lower() == "q":
            return _STOP
        if answer.lower() == "s":
            return _SKIP
        if answer == "?":
            say(f"  {q.source}")
            continue
        if not answer:
            return q.current
        try:
            return datacheck.parse(q, answer)
        except datacheck.AnswerError as exc:
            say(f"  {exc}. Try again (Enter keeps the guess, s skips).")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "data",
        help="component data: provenance, the component check, a template",
        usage=USAGE,
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  tavola data strozzi --provisional\n  tavola data check florence\n"
        "  tavola data strada_romana --template > my-board.toml",
    )
    p.add_argument(
        "game",
        choices=[*engine.games(), "check"],
        metavar="GAME|check",
        help=f"which game ({', '.join(engine.games())}), or check",
    )
    p.add_argument(
        "check_game",
        nargs="?",
        choices=engine.games(),
        metavar="GAME",
        help="with check: the game to check",
    )
    p.add_argument(
        "--provisional", action="store_true", help="list only groups with provisional values"
    )
    p.add_argument("--template", action="store_true", help="print an override file to start from")
    p.add_argument(
        "--override",
        metavar="FILE",
        help="read (and with check, write) this file instead of the owner's",
    )
    p.set_defaults(func=cmd_data)
