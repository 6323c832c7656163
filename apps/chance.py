"""Where the outcome of a physical draw comes from.

- `app`: the app shuffles and draws, so the table can use it as its deck; the
  lights and the terminal say what came up. The draw for step k of a game is
  seeded by (game seed, k), so a resumed game draws what it would have drawn.
  That makes the seed the key to every draw still to come and every hidden card
  already dealt: unless the config fixes one, it is `fresh_seed()`, 63 bits from
  the operating system's random source, never anything a player could guess.
- `pick`: somebody turned a real card over and picks it on the buttons among
  the outcomes still possible.
- `scanner`: a card reader supplies the outcome (firmware_bridge); until a
  card is read the table waits, and the buttons can still pick.
"""

from __future__ import annotations

import secrets

from engine.core import Action, State, derive, draw_chance

SOURCES = ("app", "pick", "scanner")
SEED_BITS = 63  # the journal's SQLite INTEGER holds 0 .. 2**63 - 1 (apps.args.SEED)


def fresh_seed() -> int:
    """A new game's seed when the config fixes none. From `secrets` (the OS's random
    source), full width: a seed taken from the clock is found again by anyone who saw
    the game start, who then replays the app's draws and the bots' choices and knows
    every seat's hand, tiles and money from the public page alone."""
    return secrets.randbits(SEED_BITS)


class ChanceSource:
    """Decides how the table resolves a CHANCE step."""

    def __init__(self, kind: str = "app") -> None:
        if kind not in SOURCES:
            raise ValueError(f"chance source must be one of {', '.join(SOURCES)} (got {kind!r})")
        self.kind = kind

    @property
    def automatic(self) -> bool:
        """True when the app itself supplies the outcome without waiting for anyone."""
        return self.kind == "app"

    def draw(self, state: State) -> Action:
        """The app's draw for the pending chance step, reproducible from the game's seed."""
        rng = derive(state.seed, "table-chance", len(state.history))
        return draw_chance(state, rng)
