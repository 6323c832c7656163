"""Strozzi's ship cards entered by what is printed on them (engine.core.faces).

A face in notation is `5 gold0 grain2 cloth2 scrolls0 token`: sails, each port's good
with its count in port order, scrolls, and `token` or `no-token`, every word present. A
person with the card in hand may type less: `5 g0 r2 c2 s0 t`, or `5 grain2 cloth2
token` with every absent word 0 (no token). The letters are the first letter of each
good not taken by an earlier good (gold g, grain r, cloth c), s for scrolls, t for the
progress-token symbol; a port's name stands for its good.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from engine.core import DataError, typed_digits

from .rules import GOODS_SHOWN, NO_TOKEN, SAILS, SCROLLS, TOKEN, Rules, _ships


def _letters(goods: Sequence[str]) -> list[str]:
    """One letter per good: its first letter not taken by an earlier good, nor s or t."""
    taken = {"s", "t"}
    letters = []
    for good in goods:
        letter = next((c for c in good if c not in taken), good)
        taken.add(letter)
        letters.append(letter)
    return letters


class ShipFaces:
    """The 29 ship cards, entered by face: the `CardFaces` of Strozzi."""

    verb = "draw"
    kind = "ship cards"
    group = "ships"
    open_options: Mapping[str, Any] = MappingProxyType({"ships": "any"})

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.total = rules.cards
        letters = _letters(rules.goods)
        self._names: dict[str, int] = {}
        for i, (port, good, letter) in enumerate(
            zip(rules.ports, rules.goods, letters, strict=True)
        ):
            for name in (good, port, letter):
                self._names.setdefault(name, i)
        short = " ".join(f"{letter}2" for letter in letters)
        legend = ", ".join(f"{c} {g}" for c, g in zip(letters, rules.goods, strict=True))
        full = " ".join(f"{good}<n>" for good in rules.goods)
        self.help = (
            f"sails (1-8), then the goods, scrolls and token it shows: in full, "
            f"`<sails> {full} scrolls<n> {TOKEN}|{NO_TOKEN}`, or short, like "
            f"`5 {short} s1 t` ({legend}, "
            f"s scrolls, t the progress-token symbol); a word left out is 0, or no token"
        )

    def read(self, text: str) -> str:
        words = text.lower().replace(",", " ").split()
        if words and words[0] == self.verb:
            words = words[1:]
        if not words:
            raise ValueError(f"no face given: type {self._example()}")
        sails: int | None = None
        goods: list[int | None] = [None] * len(self.rules.ports)
        scrolls: int | None = None
        token: bool | None = None
        for word in words:
            if typed_digits(word):
                raise ValueError(f"'{word}': write the numbers with the digits 0-9")
            if word.isascii() and word.isdecimal():
                if sails is not None:
                    raise ValueError(f"two sail counts ({sails} and {word}): a card shows one")
                sails = self._count(word, SAILS, "sails")
            elif word in (TOKEN, "t", NO_TOKEN, "nt", "-"):
                if token is not None:
                    raise ValueError("the progress-token symbol is given twice")
                token = word in (TOKEN, "t")
            else:
                name = word.rstrip("0123456789")
                number = word[len(name) :]
                if not number:
                    raise ValueError(f"'{word}' has no count: write it like {name}2")
                if name in ("s", "scroll", "scrolls"):
                    if scrolls is not None:
                        raise ValueError("the scrolls are given twice")
                    scrolls = self._count(number, SCROLLS, "scrolls")
                elif name in self._names:
                    port = self._names[name]
                    good = self.rules.goods[port]
                    if goods[port] is not None:
                        raise ValueError(f"the {good} is given twice")
                    goods[port] = self._count(number, GOODS_SHOWN, good)
                else:
                    known = ", ".join(self.rules.goods)
                    raise ValueError(
                        f"'{word}' is not on a ship card: the goods are {known}, then "
                        f"scrolls and token (like {self._example()})"
                    )
        if sails is None:
            raise ValueError(f"how many sails? A face starts with them, like {self._example()}")
        ship = self.rules.every_face[
            " ".join(
                [
                    str(sails),
                    *(f"{g}{n or 0}" for g, n in zip(self.rules.goods, goods, strict=True)),
                    f"scrolls{scrolls or 0}",
                    TOKEN if token else NO_TOKEN,
                ]
            )
        ]
        return ship.face

    @staticmethod
    def _count(text: str, allowed: range, what: str) -> int:
        n = int(text)
        if n not in allowed:
            raise ValueError(f"{n} {what}: a card shows {allowed.start}-{allowed.stop - 1} {what}")
        return n

    def _example(self) -> str:
        letters = _letters(self.rules.goods)
        return f"'5 {letters[0]}0 {letters[1]}2 {letters[2]}2 s0 t'"

    def words(self, face: str) -> str:
        return f"the {self.rules.words(self.rules.ship(face))}"

    def deck(self, faces: Sequence[str]) -> Mapping[str, Mapping[str, Any]]:
        rules = self.rules
        cards = []
        for face in faces:
            ship = rules.ship(face)
            shown = {p: n for p, n in zip(rules.ports, ship.goods, strict=True) if n}
            cards.append(
                {"sails": ship.sails, "goods": shown, "scrolls": ship.scrolls, "token": ship.token}
            )
        if len(cards) != rules.cards:
            raise DataError(
                f"{len(cards)} ship cards were entered; the rulebook's deck has {rules.cards}"
            )
        _ships({"cards": cards}, "ships", rules.ports, rules.goods)  # the data's own checks
        return {"ships": {"cards": cards}}
