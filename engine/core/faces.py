"""Cards entered by what is printed on them.

Where a game's cards are known only as provisional guesses (the rulebook lost its
pictures), the table cannot ask for "card 7": the person holding the card reads its face.
A game that enters such cards by face gives the app a `CardFaces` (`Game.card_faces`):
how to read a face typed in a short form, the face in words for a sentence, and the
owner's deck as the value groups of an override file, checked against the rulebook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class CardFaces(Protocol):
    """The cards of one kind that are entered by their face (Strozzi's ship cards)."""

    verb: str
    """The chance verb of these cards: a face `f` is the card `f"{verb} {f}"`."""
    kind: str
    """What the cards are called, plural ('ship cards')."""
    total: int
    """How many of them the box holds (the rulebook's count)."""
    help: str
    """How a face is typed, in a line or two with an example."""
    group: str
    """The value group of the game's data that holds the deck (its provenance says whether
    the deck is still the shipped guess)."""
    open_options: Mapping[str, Any]
    """Game options under which any face the rulebook allows can be entered: what a table
    whose people enter the cards uses while the deck is still the shipped guess, so the
    card that came up can always be entered."""

    def read(self, text: str) -> str:
        """The face in notation of a face typed in full or short form (with or without
        the verb); ValueError with a sentence saying what is wrong."""
        ...

    def words(self, face: str) -> str:
        """The face in words for a sentence ('the 5-sail ship (2 grain, ...)')."""
        ...

    def deck(self, faces: Sequence[str]) -> Mapping[str, Mapping[str, Any]]:
        """The owner's deck of `faces` (one per card) as override value groups; DataError
        naming what differs from the rulebook (how many cards, what a card may show)."""
        ...
