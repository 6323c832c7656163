"""`tavola cards`: pair physical cards with the game's cards, and list the pairs.

    tavola cards learn strozzi --config /etc/tavola/tavola.toml   # the configured scanner
    tavola cards learn strozzi --device /dev/ttyUSB0 --kind rdm6300
    tavola cards learn strozzi --device /dev/input/by-id/usb-X-event-kbd --kind hid
    tavola cards learn strozzi --keyboard        # a scanner that types (USB keyboard mode)
    tavola cards learn strozzi --faces           # no scanner: type the 29 ship cards once
    tavola cards list strozzi

`learn` waits for a scan, lists the game's named cards (Strozzi's progress
tokens) with the number of each, and asks which card it was: a number, its
notation, or for a card entered by what is printed on it (a Strozzi ship) its
face. A ship's face is its sails, then the goods, scrolls and progress-token
symbol it shows, in full (`5 gold0 grain2 cloth2 scrolls0 token`) or short
(`5 g0 r2 c2 s0 t`, or `5 grain2 cloth2 token`: a word left out is 0, or no
token; g gold, r grain, c cloth, s scrolls, t token). Each pair is saved at
once, so stopping halfway loses nothing. Once all 29 ship cards have a tag, or
with --faces once all 29 faces are typed, they are checked against the
rulebook and written as the owner's deck (`[ships]` of the owner's data file,
`tavola data strozzi` says where); tables started from then on play with it.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import engine
from engine.core import CardFaces, DataError, counted, typed_digits, whole_number
from firmware_bridge.config import HID_LAYOUTS
from hw.tomlsource import ConfigError

from .. import args as types
from ..cards import (
    CardError,
    CardRegistry,
    catalogue,
    default_path,
    in_words,
    is_face,
    tagged_faces,
    write_deck_when_complete,
)

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


@dataclass
class _Pairing:
    """What `learn` pairs ids with: the game's cards named from a list (`cards`, with their
    copies) and, if it has them, the cards entered by what they show (`faces`)."""

    game: str
    registry: CardRegistry
    cards: list[tuple[str, int]]
    faces: CardFaces | None

    @property
    def names(self) -> list[str]:
        return [card for card, _ in self.cards]

    def prompt(self, code: str, say: Callable[[str], None]) -> None:
        """What the scanned id is paired with now, and the cards still to pair."""
        faces = self.faces
        before = self.registry.card(self.game, code)
        left = left_to_pair(self.cards, self.registry.cards(self.game))
        said = f", now paired with {in_words(faces, before)}." if before else "."
        say(f"Scanned {code}{said}")
        say(_listing(self.names, left))
        if faces is not None:
            say(f"Or type the face of one of the {faces.kind}: {faces.help}.")

    def pair(self, code: str, card: str, say: Callable[[str], None]) -> None:
        """Keep the pairing at once; the deck is written once every face has a tag."""
        faces = self.faces
        self.registry.assign(self.game, code, card)
        self.registry.save()
        say(
            f"{code} = {in_words(faces, card)}. {counted(self.remaining(), 'card')} left to "
            "pair. Scan the next card."
        )
        if faces is not None and is_face(faces, card):
            write_deck_when_complete(
                self.game, faces, tagged_faces(faces, self.registry, self.game), say
            )

    def remaining(self) -> int:
        left = left_to_pair(self.cards, self.registry.cards(self.game))
        remaining = sum(max(n, 0) for n in left.values())
        if self.faces is not None:
            tagged = tagged_faces(self.faces, self.registry, self.game)
            remaining += max(self.faces.total - len(tagged), 0)
        return remaining


def learn(
    game: str,
    registry: CardRegistry,
    codes: Iterable[str],
    ask: Callable[[str], str],
    say: Callable[[str], None],
    *,
    count: int | None = None,
) -> int:
    """Pair each scanned id with the card a person names; returns how many were paired.
    Once every card entered by face has a tag, they are written as the owner's deck."""
    g = engine.get(game)
    faces = g.card_faces(g.data())
    cards = [c for c in catalogue(game) if faces is None or not is_face(faces, c[0])]
    pairing = _Pairing(game, registry, cards, faces)
    kinds = f"{engine.get(game).title}: {counted(len(cards), 'kind')} of card"
    if faces is not None:
        kinds += f", and {faces.total} {faces.kind} entered by what they show"
    say(f"{kinds}. Scan a card.")
    paired = 0
    for code in codes:
        pairing.prompt(code, say)
        card = _choose(pairing.names, ask, faces)
        if card is None:
            break
        if card == "":
            say("Skipped.")
            continue
        pairing.pair(code, card, say)
        paired += 1
        if count is not None and paired >= count:
            break
    return paired


def learn_faces(
    game: str, faces: CardFaces, draft: Path, ask: Callable[[str], str], say: Callable[[str], None]
) -> Path | None:
    """Enter every card of `faces` once, without a scanner; each answer is kept in `draft`
    at once (stopping halfway loses nothing), the deck is written when all are in."""
    entered = [line for line in _read_draft(draft, faces) if line]
    say(
        f"Enter your {faces.total} {faces.kind} once, in any order, each by what it shows: "
        f"{faces.help}. 'undo' takes back the last one, q stops (what is entered is kept)."
    )
    if entered:
        say(f"{len(entered)} of {faces.total} were entered before ({draft}); going on from there.")
    while len(entered) < faces.total:
        try:
            answer = " ".join(ask(f"Card {len(entered) + 1} of {faces.total}: ").split())
        except EOFError:
            return None
        if answer.lower() in ("q", "quit"):
            say(f"Stopped: {len(entered)} of {faces.total} entered, kept in {draft}.")
            return None
        _enter_face(answer, entered, faces, draft, say)
    path = write_deck_when_complete(game, faces, entered, say)
    if path is not None:
        draft.unlink(missing_ok=True)
    return path


def _enter_face(
    answer: str, entered: list[str], faces: CardFaces, draft: Path, say: Callable[[str], None]
) -> None:
    """One answer of `learn_faces`: a face is added, 'undo' takes back the last one; the
    draft is saved after either. Blank is asked again; anything else is said to be wrong."""
    if not answer:
        return
    if answer.lower() == "undo":
        if entered:
            say(f"Taken back: {faces.words(entered.pop())}.")
            _save_draft(draft, entered)
        return
    try:
        face = faces.read(answer)
    except ValueError as e:
        say(f"'{answer}': {e}.")
        return
    entered.append(face)
    _save_draft(draft, entered)
    say(f"{len(entered)}: {faces.words(face)}.")


def _read_draft(draft: Path, faces: CardFaces) -> list[str]:
    try:
        lines = draft.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    out = []
    for line in lines:
        try:
            out.append(faces.read(line))
        except ValueError:
            continue  # a line damaged by hand: that card is asked again
    return out


def _save_draft(draft: Path, entered: list[str]) -> None:
    """The faces entered so far, one a line, written atomically (a power cut keeps them)."""
    draft.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=draft.parent, prefix=f".{draft.name}-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(f"{face}\n" for face in entered))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, draft)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _listing(names: list[str], left: dict[str, int]) -> str:
    cells = [
        f"{i:>3}) {name}" + (f" x{left[name]}" if left[name] > 1 else "")
        for i, name in enumerate(names, start=1)
        if left[name] > 0
    ]
    width = max((len(c) for c in cells), default=0) + 2
    rows = [cells[i : i + COLUMNS] for i in range(0, len(cells), COLUMNS)]
    return "\n".join("".join(c.ljust(width) for c in row).rstrip() for row in rows) or (
        "(every named card is paired; choosing one pairs another copy)"
    )


def _choose(names: list[str], ask: Callable[[str], str], faces: CardFaces | None) -> str | None:
    """The card named by number, notation or face; "" to skip; None to stop."""
    what = "number, notation or face" if faces is not None else "number or notation"
    while True:
        try:
            answer = " ".join(ask(f"Which card is it? ({what}, Enter skips, q quits) ").split())
        except EOFError:
            return None
        if answer.lower() in ("q", "quit"):
            return None
        if not answer:
            return ""
        if typed_digits(answer):
            print(f"'{answer}': type the numbers with the digits 0-9.", file=sys.stderr)
            continue
        named = _listed(answer, names)
        if named is not None:
            return named
        if faces is not None:
            try:
                return f"{faces.verb} {faces.read(answer)}"
            except ValueError as e:
                print(f"'{answer}': {e}.", file=sys.stderr)
                continue
        print(
            f"'{answer}' is neither a number 1-{len(names)} nor a card of the list.",
            file=sys.stderr,
        )


def _listed(answer: str, names: list[str]) -> str | None:
    """A card of the list, by its number or its notation."""
    number = whole_number(answer)
    if number is not None and 1 <= number <= len(names):
        return names[number - 1]  # a lone number is the list's: a face says more
    if answer.lower() in names:
        return answer.lower()
    return None


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

    events: queue.Queue[object] = queue.Queue()
    link = _card_link(args, events.put)
    try:
        while True:
            ev = events.get()
            if isinstance(ev, CardEvent):
                yield ev.code
            elif isinstance(ev, LinkEvent):
                say(ev.message)
    finally:
        link.close()  # type: ignore[attr-defined]


def _card_link(args: argparse.Namespace, emit: Callable[[object], None]) -> object:
    """A started link reading cards: the device --device or --usb names, else the config's."""
    from firmware_bridge.mcu import McuLink
    from firmware_bridge.ports import DeviceSpec
    from firmware_bridge.scanner import open_scanner

    if not (args.device or args.usb):
        return _configured_card_link(args, emit)
    device = DeviceSpec(path=args.device) if args.device else DeviceSpec.parse_usb(args.usb)
    if args.kind == "mcu":
        return McuLink(device, emit=emit).start()
    return open_scanner(args.kind, device, emit=emit, baud=args.baud, layout=args.layout)


def _configured_card_link(args: argparse.Namespace, emit: Callable[[object], None]) -> object:
    """The link of the config's [scanner]: the scanner itself, or the [mcu] board's."""
    from firmware_bridge.mcu import McuLink
    from firmware_bridge.scanner import open_scanner

    from .. import runtime

    bridge = runtime.load(args.config or DEFAULT_CONFIG).bridge
    sc = bridge.scanner
    if sc is None:
        raise ConfigError(
            f"{args.config or DEFAULT_CONFIG}: no [scanner] table: give --device, or --keyboard"
        )
    if sc.kind == "mcu":
        assert bridge.mcu is not None
        return McuLink(bridge.mcu.device, emit=emit, baud=bridge.mcu.baud).start()
    assert sc.device is not None
    return open_scanner(
        sc.kind,
        sc.device,
        emit=emit,
        baud=sc.baud,
        layout=sc.layout,
    )


def cmd_learn(args: argparse.Namespace) -> int:
    if args.faces:
        return _cmd_faces(args.game)
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


def _cmd_faces(game: str) -> int:
    """`learn --faces`: every card entered by face typed once, no scanner, no registry."""
    from ..userdata import user_override_path

    g = engine.get(game)
    faces = g.card_faces(g.data())
    if faces is None:
        return _fail(f"{g.title} has no cards entered by what is printed on them")
    override = user_override_path(game)
    draft = override.with_name(f"{game}-faces.txt")
    try:
        written = learn_faces(game, faces, draft, input, lambda t: print(t, flush=True))
    except KeyboardInterrupt:
        print(f"\nStopped; what was entered is kept in {draft}.")
        return 0
    except (OSError, DataError) as e:
        return _fail(f"the faces entered are kept in {draft}, but: {e}")
    complete = written is None and len(_read_draft(draft, faces)) >= faces.total
    return 1 if complete else 0  # all typed but not a deck of the rulebook: say so in $?


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
    q.add_argument(
        "--faces",
        action="store_true",
        help="no scanner: type each card that is entered by what it shows once (Strozzi's "
        "29 ship cards: '5 g0 r2 c2 s0 t', or '5 grain2 cloth2 token'), written as your "
        "deck when all are in; stopping keeps what is typed for the next run",
    )
    q.set_defaults(func=cmd_learn)

    q = cards_sub.add_parser("list", help="the game's cards and the ids paired with them")
    common(q)
    q.set_defaults(func=cmd_list)
