"""`tavola cards`: pair physical cards with the game's cards, and list the pairs.

    tavola cards learn strozzi --config /etc/tavola/tavola.toml   # the configured scanner
    tavola cards learn strozzi --device /dev/ttyUSB0 --kind rdm6300
    tavola cards learn strozzi --device /dev/input/by-id/usb-X-event-kbd --kind hid
    tavola cards learn strozzi --keyboard        # a scanner that types (USB keyboard mode)
    tavola cards list strozzi

`learn` waits for a scan, lists the game's cards with the number of each, and
asks which card it was (a number or its notation); the pair is saved at once,
so stopping halfway loses nothing.
"""

from __future__ import annotations

import argparse
import queue
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import engine
from engine.core import counted
from firmware_bridge.config import HID_LAYOUTS
from hw.tomlsource import ConfigError

from .. import args as types
from ..cards import CardError, CardRegistry, catalogue, default_path

DEFAULT_CONFIG = Path("/etc/tavola/tavola.toml")
COLUMNS = 3


def _fail(message: str) -> int:
    print(f"tavola cards: {message}", file=sys.stderr)
    return 2


def _usb(text: str) -> str:
    """--usb checked when parsed: a bad id is one line, not a failure inside the link."""
    from firmware_bridge.ports import DeviceSpec

    try:
        DeviceSpec.parse_usb(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _registry_path(args: argparse.Namespace) -> Path:
    if args.cards:
        return Path(args.cards)
    if args.config:
        from .. import runtime

        scanner = runtime.load(args.config).bridge.scanner
        if scanner is not None and scanner.cards is not None:
            return scanner.cards
    return default_path()


def left_to_pair(cards: list[tuple[str, int]], paired: dict[str, str]) -> dict[str, int]:
    """card -> copies not yet paired with an id."""
    left = dict(cards)
    for card in paired.values():
        if card in left:
            left[card] -= 1
    return left


def learn(
    game: str,
    registry: CardRegistry,
    codes: Iterable[str],
    ask: Callable[[str], str],
    say: Callable[[str], None],
    *,
    count: int | None = None,
) -> int:
    """Pair each scanned id with the card a person names; returns how many were paired."""
    cards = catalogue(game)
    names = [card for card, _ in cards]
    paired = 0
    say(f"{engine.get(game).title}: {len(cards)} kinds of card. Scan a card.")
    for code in codes:
        before = registry.card(game, code)
        left = left_to_pair(cards, registry.cards(game))
        say(f"Scanned {code}" + (f", now paired with '{before}'." if before else "."))
        say(_listing(names, left))
        card = _choose(names, ask)
        if card is None:
            break
        if card == "":
            say("Skipped.")
            continue
        registry.assign(game, code, card)
        registry.save()
        paired += 1
        remaining = sum(max(n, 0) for n in left_to_pair(cards, registry.cards(game)).values())
        say(f"{code} = {card}. {remaining} cards left to pair. Scan the next card.")
        if count is not None and paired >= count:
            break
    return paired


def _listing(names: list[str], left: dict[str, int]) -> str:
    cells = [
        f"{i:>3}) {name}" + (f" x{left[name]}" if left[name] > 1 else "")
        for i, name in enumerate(names, start=1)
        if left[name] > 0
    ]
    width = max((len(c) for c in cells), default=0) + 2
    rows = [cells[i : i + COLUMNS] for i in range(0, len(cells), COLUMNS)]
    return "\n".join("".join(c.ljust(width) for c in row).rstrip() for row in rows) or (
        "(every card is paired; choosing one pairs another copy)"
    )


def _choose(names: list[str], ask: Callable[[str], str]) -> str | None:
    """The card named by number or notation; "" to skip; None to stop."""
    while True:
        try:
            answer = " ".join(
                ask("Which card is it? (number or notation, Enter skips, q quits) ").split()
            )
        except EOFError:
            return None
        if answer.lower() in ("q", "quit"):
            return None
        if not answer:
            return ""
        if answer.isdigit() and 1 <= int(answer) <= len(names):
            return names[int(answer) - 1]
        if answer.lower() in names:
            return answer.lower()
        print(
            f"'{answer}' is neither a number 1-{len(names)} nor a card of the list.",
            file=sys.stderr,
        )


def _keyboard_codes(ask: Callable[[str], str]) -> Iterator[str]:
    while True:
        try:
            code = ask("Scan: ").strip()
        except EOFError:
            return
        if code:
            yield code


def _device_codes(args: argparse.Namespace, say: Callable[[str], None]) -> Iterator[str]:
    """Card ids from the configured scanner, or from --device; link messages said as they come."""
    from firmware_bridge.events import CardEvent, LinkEvent
    from firmware_bridge.mcu import McuLink
    from firmware_bridge.ports import DeviceSpec
    from firmware_bridge.scanner import open_scanner

    from .. import runtime

    events: queue.Queue[object] = queue.Queue()
    link: object
    if args.device or args.usb:
        device = DeviceSpec(path=args.device) if args.device else DeviceSpec.parse_usb(args.usb)
        if args.kind == "mcu":
            link = McuLink(device, emit=events.put).start()
        else:
            link = open_scanner(
                args.kind, device, emit=events.put, baud=args.baud, layout=args.layout
            )
    else:
        bridge = runtime.load(args.config or DEFAULT_CONFIG).bridge
        sc = bridge.scanner
        if sc is None:
            raise ConfigError(
                f"{args.config or DEFAULT_CONFIG}: no [scanner] table: give --device, or --keyboard"
            )
        if sc.kind == "mcu":
            assert bridge.mcu is not None
            link = McuLink(bridge.mcu.device, emit=events.put, baud=bridge.mcu.baud).start()
        else:
            assert sc.device is not None
            link = open_scanner(
                sc.kind,
                sc.device,
                emit=events.put,
                baud=sc.baud,
                layout=sc.layout,
            )
    try:
        while True:
            ev = events.get()
            if isinstance(ev, CardEvent):
                yield ev.code
            elif isinstance(ev, LinkEvent):
                say(ev.message)
    finally:
        link.close()  # type: ignore[attr-defined]


def cmd_learn(args: argparse.Namespace) -> int:
    try:
        registry = CardRegistry.load(_registry_path(args))
        catalogue(args.game)
    except (ConfigError, CardError) as e:
        return _fail(str(e))

    def say(text: str) -> None:
        print(text, flush=True)

    codes = _keyboard_codes(input) if args.keyboard else _device_codes(args, say)
    try:
        paired = learn(args.game, registry, codes, input, say, count=args.count)
    except ConfigError as e:
        return _fail(str(e))
    finally:
        close = getattr(codes, "close", None)
        if close is not None:
            close()
    say(f"{counted(paired, 'card')} paired; the registry is {registry.path}.")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    try:
        path = _registry_path(args)
        registry = CardRegistry.load(path)
        cards = catalogue(args.game)
    except (ConfigError, CardError) as e:
        return _fail(str(e))
    paired = registry.cards(args.game)
    ids: dict[str, list[str]] = {}
    for code, card in sorted(paired.items()):
        ids.setdefault(card, []).append(code)
    done = sum(min(len(ids.get(card, [])), n) for card, n in cards)
    total = sum(n for _, n in cards)
    print(f"{engine.get(args.game).title}: {done} of {total} cards paired ({path})")
    width = max(len(card) for card, _ in cards)
    for card, n in cards:
        codes = ids.pop(card, [])
        copies = f" ({len(codes)} of {n})" if n > 1 else ""
        print(f"  {card:<{width}}  {', '.join(codes) or '-'}{copies}")
    for card, codes in ids.items():
        print(f"  not a card of the list: {', '.join(codes)} = '{card}'")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cards",
        help="pair scanned cards with the game's cards; list them",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cards_sub = p.add_subparsers(dest="cards_command", metavar="COMMAND", required=True)

    def common(q: argparse.ArgumentParser) -> None:
        q.add_argument("game", choices=engine.games(), help="which game")
        q.add_argument(
            "--cards",
            metavar="FILE",
            help=f"the card registry (default: [scanner] cards, or {default_path()})",
        )
        q.add_argument("--config", metavar="FILE", help="the table's config file")

    q = cards_sub.add_parser("learn", help="scan each card and say which it is")
    common(q)
    q.add_argument(
        "--keyboard",
        action="store_true",
        help="read ids typed on stdin (a keyboard-mode scanner at this terminal)",
    )
    q.add_argument("--device", metavar="PATH", help="the scanner's device, e.g. /dev/ttyUSB0")
    q.add_argument(
        "--usb", metavar="VID:PID", type=_usb, help="the scanner's USB id, e.g. 1a86:7523"
    )
    q.add_argument(
        "--kind",
        choices=("barcode", "rdm6300", "hid", "mcu"),
        default="barcode",
        help="what --device or --usb is (default barcode; hid: a USB keyboard-mode "
        "scanner, grabbed so its keystrokes reach no console)",
    )
    q.add_argument(
        "--layout",
        choices=HID_LAYOUTS,
        default="us",
        help="--kind hid: the keyboard layout the scanner emulates (default us)",
    )
    q.add_argument("--baud", type=types.baud, default=9600, help="serial speed (default 9600)")
    q.add_argument("--count", type=types.count, metavar="N", help="stop after pairing N cards")
    q.set_defaults(func=cmd_learn)

    q = cards_sub.add_parser("list", help="the game's cards and the ids paired with them")
    common(q)
    q.set_defaults(func=cmd_list)
