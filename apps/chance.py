"""Where the outcome of a physical draw comes from.

- `app`: the app shuffles and draws, so the table can use it as its deck; the
  lights and the terminal say what came up. The draw for step k of a game is
  seeded by (game seed, k), so a resumed game draws what it would have drawn.
- `pick`: somebody turned a real card over and picks it on the buttons among
  the outcomes still possible.
- `scanner`: a card reader supplies the outcome (firmware_bridge); until a
  card is read the table waits, and the buttons can still pick.
"""

from __future__ import annotations

from engine.core import Action, State, derive, draw_chance

SOURCES = ("app", "pick", "scanner")


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
