"""Engine-only commands: demo (bots, no hardware), selfplay, replay, diagram."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import engine
from engine.core import PLAYOUT_LIMIT, IllegalAction, State, derive, play_out
from hw.schema import Choice, Int, Invalid, Type, kind_of

from .. import args as types
from ..args import SEED


def _game_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=engine.games(), help="which game")


def bot_game(
    game: engine.Game, players: int, seed: int, options: dict[str, Any] | None = None
) -> State:
    """Play one game with uniformly random bots and app-drawn chance from `seed`."""
    state = game.new_state(players, seed=seed, options=options)
    play_bots(state)
    return state


def play_bots(state: State, limit: int = PLAYOUT_LIMIT) -> bool:
    """Random bots play `state` to the end, drawing from a stream of its seed. False when
    the game had not ended after `limit` actions (a rulebook may allow endless play)."""
    return play_out(state, derive(state.seed, "bots", state.game.name), limit=limit)


def option_value(text: str) -> Any:
    """A command-line option value: true/false, a number, or the text itself."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_options(args: argparse.Namespace) -> dict[str, Any]:
    """`--option KEY=VALUE` (repeatable) and `--difficulty NAME` as a game's options."""
    options: dict[str, Any] = {}
    for item in args.option or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"tavola: --option takes KEY=VALUE, not {item!r}")
        options[key.strip()] = option_value(value.strip())
    if args.difficulty:
        options["difficulty"] = args.difficulty
    return options


def bot_args(p: argparse.ArgumentParser, *, others: str) -> None:
    """`--bots N` and `--bot LEVEL`, the same on demo and sim."""
    from engine.bots import DEFAULT_LEVEL, LEVELS

    p.add_argument(
        "--bots",
        type=int,
        default=0,
        metavar="N",
        help=f"the last N seats are played by bots ({others}): the table says and lights "
        "each bot's move, a person carries it out and presses select (default 0)",
    )
    p.add_argument(
        "--bot",
        choices=LEVELS,
        default=DEFAULT_LEVEL,
        help=f"how the bots play (default {DEFAULT_LEVEL}; docs/bots.md)",
    )


def option_args(p: argparse.ArgumentParser) -> None:
    """`--option` and `--difficulty`, the same on selfplay, demo and sim."""
    p.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="a game option, e.g. scandal_entry=play or harder_time=true (repeatable)",
    )
    p.add_argument("--difficulty", help="the solo difficulty preset (Florence: easier, harder)")


def cmd_selfplay(args: argparse.Namespace) -> int:
    game = engine.get(args.game)
    players = game.min_players if args.players is None else args.players
    options = parse_options(args)
    try:
        game.resolve_options(players, options)
    except ValueError as exc:
        raise SystemExit(f"tavola selfplay: {exc}") from None
    actions = errors = unfinished = 0
    first_error = ""
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        state = game.new_state(players, seed=seed, options=options)
        try:
            unfinished += not play_bots(state, args.max_actions)
        except Exception as exc:  # an engine bug: count it, report the first, keep going
            errors += 1
            first_error = first_error or f"seed {seed}: {type(exc).__name__}: {exc}"
        actions += len(state.history)  # applied actions only, a failed game's too
    seconds = time.perf_counter() - start
    report: dict[str, Any] = {
        "game": game.name,
        "players": players,
        "options": options,
        "games": args.games,
        "actions": actions,
        "errors": errors,
        "unfinished": unfinished,
        "seconds": round(seconds, 4),
        "games_per_s": round(args.games / seconds, 2) if seconds else None,
        "us_per_action": round(seconds / actions * 1e6, 2) if actions else None,
    }
    if first_error:
        report["first_error"] = first_error
    print(json.dumps(report))
    return 1 if errors else 0


def load_record(path: Path) -> dict[str, Any]:
    """Read and check a recorded game; anything wrong is one line naming the field."""
    record = _read_record(path)
    missing = [k for k in ("game", "players", "actions") if k not in record]
    if missing:
        raise SystemExit(f"tavola replay: {path} lacks {', '.join(missing)}")
    _check_field(path, "game", Choice(engine.games()), record["game"])
    game = engine.get(record["game"])
    _check_field(path, "players", Int(lo=game.min_players, hi=game.max_players), record["players"])
    _check_field(path, "seed", SEED, record.get("seed", 0))
    if not isinstance(record.get("options", {}), dict):
        raise _bad(
            path,
            "options",
            f"must be an object of option names, got {kind_of(record['options'])}",
        )
    _check_actions(path, record["actions"])
    return record


def _read_record(path: Path) -> dict[str, Any]:
    """The file's JSON object; a file that cannot be read, or is not one, ends the command."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SystemExit(f"tavola replay: cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise SystemExit(
            f"tavola replay: {path} is not JSON: byte {exc.start} is not UTF-8 text"
        ) from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise SystemExit(f"tavola replay: {path} is not JSON: {exc}") from None
    if not isinstance(record, dict):
        raise SystemExit(
            f"tavola replay: {path} must hold a JSON object with game, players, "
            f"seed, options and actions, not {kind_of(record)}"
        )
    return record


def _bad(path: Path, field: str, message: str) -> SystemExit:
    return SystemExit(f"tavola replay: {path}: {field}: {message}")


def _check_field(path: Path, field: str, kind: Type, value: Any) -> None:
    try:
        kind.check(value)
    except Invalid as exc:
        raise _bad(path, field, str(exc)) from None


def _check_actions(path: Path, actions: Any) -> None:
    """A list whose items are notation strings or [seat, text] pairs."""
    if not isinstance(actions, list):
        raise _bad(
            path,
            "actions",
            f"must be a list of notation strings or [seat, text] pairs, got {kind_of(actions)}",
        )
    for n, item in enumerate(actions, 1):
        if isinstance(item, list) and len(item) == 2:
            continue
        if not isinstance(item, str):
            raise _bad(
                path,
                f"action {n}",
                f"must be a notation string or a [seat, text] pair, got "
                f"{kind_of(item)} {str(item)[:40]!r}",
            )


def cmd_replay(args: argparse.Namespace) -> int:
    record = load_record(Path(args.file))
    game = engine.get(record["game"])
    try:
        state = game.new_state(
            record["players"], seed=record.get("seed", 0), options=record.get("options")
        )
    except ValueError as exc:
        raise SystemExit(f"tavola replay: {args.file}: options: {exc}") from None
    for position, item in enumerate(record["actions"], 1):
        seat, text = (item[0], item[1]) if isinstance(item, list) else (None, item)
        try:
            state.apply(state.parse_action(text, player=seat))
        except IllegalAction as exc:
            print(
                json.dumps(
                    {
                        "ok": False,
                        "position": position,
                        "action": str(text)[:200],
                        "reason": str(exc),
                    }
                )
            )
            return 1
    summary = {
        "ok": True,
        "game": game.name,
        "players": state.players,
        "actions": len(state.history),
        "over": state.is_over(),
        "scores": state.scores(),
        "winner": state.winner() if state.is_over() else [],
    }
    print(json.dumps(summary))
    return 0


def diagram_markdown(game: engine.Game) -> str:
    return f"# {game.title} phases\n\n```mermaid\n{game.flow_diagram()}```\n"


def cmd_diagram(args: argparse.Namespace) -> int:
    game = engine.get(args.game)
    text = diagram_markdown(game)
    if args.write:
        path = Path("docs/flows") / f"{game.name}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    else:
        sys.stdout.write(text)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "selfplay",
        help="play many bot games; print one JSON line of figures",
        description="Plays N games with random bots and prints game, players, "
        "games, actions, errors, unfinished (games stopped at --max-actions), seconds, "
        "games_per_s, us_per_action. Exit status 1 if any game raised an error.",
    )
    _game_arg(p)
    p.add_argument("--games", type=types.count, default=100, help="how many games (default 100)")
    p.add_argument("--players", type=types.players, help="number of players (default: the minimum)")
    p.add_argument("--seed", type=types.seed, default=1, help="seed of the first game (default 1)")
    option_args(p)
    p.add_argument(
        "--max-actions",
        type=types.count,
        default=PLAYOUT_LIMIT,
        help=f"stop a game after this many actions and count it as unfinished (default "
        f"{PLAYOUT_LIMIT}; Strada Romana's rules allow endless play in a traffic jam)",
    )
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser(
        "replay",
        help="replay a recorded game and print its summary as JSON",
        description="FILE is JSON with game, players, seed, options and actions "
        "(notation strings, or [seat, text] pairs with 0-based seats"
        "). Prints the final summary, or the first illegal action "
        "with its position and reason (exit status 1).",
    )
    p.add_argument("file", help="the recorded game (JSON)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "diagram",
        help="print a game's phase machine as a Mermaid diagram",
        description="Generated from the game's transitions machine itself.",
    )
    _game_arg(p)
    p.add_argument("--write", action="store_true", help="write docs/flows/GAME.md")
    p.set_defaults(func=cmd_diagram)
