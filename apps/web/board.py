"""Each game's board as SVG, drawn from the public read model (`State.observe()`) and the
LED colours the table shows now, for the phone page.

Only public information reaches the drawing: it takes an `Observation` for the whole
table (`observe(None)`), never a State, so a secret has no way in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from engine.core.observation import Observation

from ..views.base import Colour, ElementFrame


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the page draws it: its player index, name and colour."""

    player: int
    name: str
    colour: Colour
    colour_name: str


def board_svg(
    obs: Observation,
    frame: ElementFrame,
    seats: Sequence[SeatInfo],
    last: str | None = None,
) -> str:
    """The board of `obs.game` as one `<svg>` element; `frame` holds the LED colours now
    (a preview lit while a seat chooses shows on the drawing), `last` the last action's
    public text, highlighted."""
    lines = [obs.game, obs.prompt, *(f"{s.name} ({s.colour_name})" for s in seats)]
    if last:
        lines.append(f"last: {last}")
    texts = "".join(
        f'<text x="8" y="{20 + 18 * i}">{escape(t)}</text>' for i, t in enumerate(lines)
    )
    height = 30 + 18 * len(lines)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 {height}" '
        f'class="board board-{escape(obs.game)}" role="img">{texts}</svg>'
    )
