"""Errors a player or a data file can cause.

Every message is a sentence meant for the table, not for a developer: the app
shows it on the terminal and flashes the seat that caused it.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An input the rules do not allow now; the state is unchanged afterwards."""


class DataError(ValueError):
    """A component-data file is malformed; the message names the file and the key."""
