"""Words for sentences the table says: a count with its noun ("1 sail", "3 sails")."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for exactly one: "1 sail", "0 cards", "2 sails"."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
