"""Cards at the table: which physical card, tile or token a scanned id stands for, and which
chance action it answers now.

The registry is a TOML file, one table per game, written by `tavola cards learn GAME`:

    # scanned id = card
    [strozzi]
    "04A1B2C3D4" = "draw 5 gold0 grain2 cloth2 scrolls0 token"  # a ship, by its face
    "04A1B2C3D5" = "reveal arts-2"   # one of the six arts-2 progress tokens

A *card* is written in the game's chance notation (docs/notation.md), keeping
only the words the physical piece carries: its verb and its own name. It answers
the legal chance action with the same text, or the one that starts with the same
verb and ends with the same words, so a Florence tile `tile influencers` answers
`tile 3 influencers` whichever location is being dealt. Anything else (an
unknown id, a card that is no legal outcome now, the same card read again within
the repeat window) is a `CardError` whose message is said at the table.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import engine
from engine.core import CHANCE, Action, CardFaces, DataError, State
from hw.tomlsource import ConfigError, TomlSource

from .userdata import user_override_path, write_owner_groups

REPEAT_S = 2.0


class CardError(ValueError):
    """A scan the table cannot use; the message says why, for the people at the table."""


def default_path() -> Path:
    """`$XDG_CONFIG_HOME/tavola/cards.toml`; the appliance sets `[scanner] cards`."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tavola" / "cards.toml"


@dataclass
class CardRegistry:
    """Scanned id -> card, per game; `save()` writes the file atomically."""

    path: Path | None = None
    games: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> CardRegistry:
        """The registry at `path` (empty if there is no file yet); ConfigError naming the line."""
        path = Path(path)
        if not path.exists():
            return cls(path)
        src = TomlSource.load(path)
        games: dict[str, dict[str, str]] = {}
        for game, table in src.data.items():
            if game not in engine.games():
                raise src.error((game,), f"is not a game (games: {', '.join(engine.games())})")
            if not isinstance(table, dict):
                raise src.error((game,), 'must be a table of "id" = "card"')
            for code, card in table.items():
                if not isinstance(card, str) or not card.split():
                    raise src.error(
                        (game, code), 'must be a card in notation, like "reveal arts-2"'
                    )
            games[game] = {code: " ".join(card.split()) for code, card in table.items()}
        return cls(path, games)

    def card(self, game: str, code: str) -> str | None:
        return self.games.get(game, {}).get(code)

    def cards(self, game: str) -> dict[str, str]:
        return dict(self.games.get(game, {}))

    def assign(self, game: str, code: str, card: str) -> None:
        self.games.setdefault(game, {})[code] = " ".join(card.split())

    def forget(self, game: str, code: str) -> None:
        self.games.get(game, {}).pop(code, None)

    def save(self) -> None:
        if self.path is None:
            raise ValueError("this registry has no file to save to")
        lines = ["# Tavola card registry: scanned id = card (tavola cards learn GAME)"]
        for game in sorted(self.games):
            lines += ["", f"[{game}]"]
            for code, card in sorted(self.games[game].items(), key=lambda kv: (kv[1], kv[0])):
                lines.append(f"{_string(code)} = {_string(card)}")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".cards-", suffix=".toml")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --- which cards a game has ----------------------------------------------------------------
def _cards_of(game: str) -> list[tuple[str, int]]:
    if game not in engine.games():
        return []
    g = engine.get(game)
    return g.card_catalogue(g.data())


def catalogue(game: str) -> list[tuple[str, int]]:
    """The cards a game's components carry, as (card notation, copies in the box): each game
    lists them itself (`Game.card_catalogue`), so a new game needs nothing here."""
    cards = _cards_of(game)
    if not cards:
        known = ", ".join(g for g in engine.games() if _cards_of(g))
        raise CardError(
            f"{game} has no card list yet (games with one: {known}); "
            "docs/cards.md says how to add it"
        )
    return cards


def demo_ids(game: str) -> dict[str, str]:
    """An invented id for every piece of `game` ("C001-2" is the second copy of the first
    card): a registry for demos, tests and benchmarks without real tags."""
    return {
        f"C{i:03d}-{k}": card
        for i, (card, copies) in enumerate(catalogue(game), start=1)
        for k in range(1, copies + 1)
    }


def answers(card: str, action: Action) -> bool:
    """Whether `card` answers chance action `action` (same text, or same verb and ending)."""
    c, a = card.split(), list(action.words)
    n = len(c)
    return c == a or (n >= 2 and len(a) > n and a[0] == c[0] and a[-(n - 1) :] == c[1:])


def match(state: State, card: str, *, describe: Callable[[], str] | None = None) -> Action:
    """The legal chance action `card` answers now; CardError with the reason if none.
    `describe` says what the game waits for in the table's words (its seat names)."""
    describe = describe or state.describe
    if state.current_player() != CHANCE:
        raise CardError(f"'{card}' was read, but no draw is due: {describe()}")
    found = [a for a in state.legal_actions() if answers(card, a)]
    if len(found) == 1:
        return found[0]
    if found:
        raise CardError(
            f"'{card}' could be {' or '.join(a.text for a in found)}; pick it with the buttons"
        )
    reason = state.refusal(card) or describe()
    raise CardError(f"'{card}' is not a possible draw now ({reason})")


class CardReader:
    """The table's side of the scanner: id -> card -> the chance action it answers now.

    A card read again within `repeat_s` of its last read (a tag left on the reader, a
    double scan) is refused, so one card never counts twice.
    """

    def __init__(self, registry: CardRegistry, *, repeat_s: float = REPEAT_S) -> None:
        self.registry = registry
        self.repeat_s = repeat_s
        self._last: dict[str, float] = {}

    def resolve(
        self,
        game: str,
        state: State,
        code: str,
        now: float,
        *,
        describe: Callable[[], str] | None = None,
    ) -> Action:
        last = self._last.get(code)
        self._last[code] = now
        card = self.registry.card(game, code)
        if last is not None and now - last < self.repeat_s:
            raise CardError(f"card {code}{f' ({card})' if card else ''} was just read; ignored")
        if card is None:
            raise CardError(
                f"card {code} is not in the {game} card list: pair it with "
                f"`tavola cards learn {game}`"
            )
        return match(state, card, describe=describe)


# --- cards entered by face (engine.core.faces) ---------------------------------------------
def is_face(faces: CardFaces, card: str) -> bool:
    return card.partition(" ")[0] == faces.verb


def in_words(faces: CardFaces | None, card: str) -> str:
    """'the 5-sail ship (2 grain, ...)' for a face, the card's notation in quotes otherwise."""
    if faces is not None and is_face(faces, card):
        try:
            return faces.words(faces.read(card))
        except ValueError:  # an older registry's numbered ship: say it as it is
            pass
    return f"'{card}'"


def tagged_faces(faces: CardFaces, registry: CardRegistry, game: str) -> list[str]:
    """The faces of the tags in the registry, one per tag (ids paired with a face)."""
    out = []
    for card in registry.cards(game).values():
        if is_face(faces, card):
            try:
                out.append(faces.read(card))
            except ValueError:
                continue  # `draw 7` from before faces: not a face, not part of the deck
    return out


def write_deck_when_complete(
    game: str, faces: CardFaces, entered: list[str], say: Callable[[str], None]
) -> Path | None:
    """All the cards entered by face are known: check them and write the owner's deck."""
    if len(entered) < faces.total:
        return None
    try:
        groups = faces.deck(entered)
    except DataError as e:
        say(f"The {faces.kind} entered are not a deck of the rulebook yet: {e}.")
        return None
    try:
        path = write_owner_groups(game, groups, source=f"entered with tavola cards learn {game}")
    except (DataError, OSError) as e:  # the owner's file is broken, or not writable
        say(f"Your deck could not be written to {user_override_path(game)}: {e}")
        return None
    say(
        f"All {faces.total} {faces.kind} are known; your deck is written to {path}: "
        "a table started from now on plays with it (restart one that is running)."
    )
    return path


__all__ = [
    "CardError",
    "CardReader",
    "CardRegistry",
    "ConfigError",
    "catalogue",
    "demo_ids",
    "in_words",
    "is_face",
    "match",
    "tagged_faces",
    "write_deck_when_complete",
]
