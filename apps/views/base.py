"""What a game view is: a pure function from a state to `{element: colour}`.

The compositor adds what every game shares (turn prompts, candidate
highlights, error flashes) and the layout turns element names into LEDs. A
value is one colour for the whole element, or a list of colours for its LEDs
in order (stacked markers on one track space).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import Action, Event, SeatNamer, State, seat_name

Colour = tuple[int, int, int]
ElementFrame = dict[str, Colour | list[Colour]]
"""Board element name -> its colour, or its LEDs' colours in order (the layout maps names
to LEDs). Not hw.pipeline.Frame (a strip's pixels) nor firmware_bridge's protocol Frame."""

OFF: Colour = (0, 0, 0)
WHITE: Colour = (255, 255, 255)


def dim(colour: Colour, factor: float) -> Colour:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


@dataclass(frozen=True)
class ViewContext:
    """Table facts a view needs: each player's colour and the seat names they sit at."""

    colours: tuple[Colour, ...]
    seats: tuple[str, ...] = ()
    names: tuple[str, ...] = field(default=())

    def seat_of(self, player: int) -> str:
        return self.seats[player] if self.seats else str(player + 1)


class View:
    """Base class of the per-game views; every method is pure (no clocks, no I/O)."""

    palette: tuple[tuple[str, Colour], ...] = ()
    """Seat colours offered at seating, in order: (name, colour)."""
    observes_only: bool = False
    """True for a view that reads nothing of a state but `observe()`: the table then hands
    it the state of a frame as one observation shared by every method it calls
    (apps.table.render.Seen); tests/apps/test_read_model.py holds it to that."""

    def palette_for(self, players: int) -> tuple[tuple[str, Colour], ...]:
        """The colours of a game of `players` (a solo game may reserve the automa's)."""
        return self.palette

    def render(self, state: State, ctx: ViewContext) -> ElementFrame:
        """The board as it should look now; hidden information never appears."""
        raise NotImplementedError

    def setup_frame(self, state: State, ctx: ViewContext) -> ElementFrame:
        """What to put where before play starts; by default the board itself."""
        return self.render(state, ctx)

    def hint(self, state: State, words: tuple[str, ...], ctx: ViewContext) -> ElementFrame:
        """What to light while the cursor is on a choice that is not yet an action (a
        wagon before its square): `words` are the choices so far and the cursor's word.
        The table overlays it; complete actions get the generic candidate preview."""
        return {}

    def candidate_hint(self, state: State, action: Action, ctx: ViewContext) -> ElementFrame:
        """What to light beside the generic preview while the cursor is on a complete
        action whose effect the board cannot show (naming a wagon tile at the reveal lights
        that wagon). Never light a secret: this is the whole table's board."""
        return {}

    def describe_chance(self, state: State, action: Action, names: SeatNamer = seat_name) -> str:
        """A sentence for the terminal when the app draws for the table; a player in it is
        named by `names`, the table's seat names."""
        return f"Drawn: {action.text}"

    def public_text(self, state: State, action: Action) -> str:
        """An applied action as the whole table may read it in the log. A game whose
        notation names hidden information (a card drawn into a hand) masks it here."""
        return action.text

    def chance_actor(self, state: State) -> int | None:
        """The player who performs the pending draw, so a pick is asked at that seat."""
        return None

    def scoring_steps(
        self, state: State, events: list[Event], ctx: ViewContext
    ) -> list[ElementFrame]:
        """A light sequence for a round's scoring: one overlay frame per award."""
        return []

    def is_scoring(self, events: list[Event]) -> bool:
        """Whether these events end a round (the table then shows the scoring)."""
        return any(e.kind in ("round_scored", "game_over") for e in events)

    def in_setup(self, state: State) -> bool:
        """Whether the table is still being set up (draws for the start position run
        before the board is laid out); the game says so in its observation."""
        return state.observe().setup

    def seat_active(self, state: State, player: int) -> bool:
        """False for a seat that can no longer act this round (it is shown dimmed)."""
        return True
