"""Errors a player or a data file can cause.

Every message is a sentence meant for the table, not for a developer: the app
shows it on the terminal and flashes the seat that caused it. The subclasses of
`IllegalAction` let a caller tell failures apart (a bot that sent another seat's
move, a typo that is no notation at all); each is still an `IllegalAction` and a
`ValueError`, so code that catches those keeps working.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An input the rules do not allow now; the state is unchanged afterwards.

    Raised as itself for notation of this game that is not possible now (another
    phase's action, a used flag, a full port)."""


class NotYourTurn(IllegalAction):
    """The input names (or comes from) a seat that is not the one to act."""


class UnknownNotation(IllegalAction):
    """The text is not this game's notation at all (no verb of its grammar)."""


class GameOver(IllegalAction):
    """The game has ended: no input is possible any more."""


class DataError(ValueError):
    """A component-data file is malformed; the message names the file and the key."""


class DataUnreadable(DataError):
    """An owner's data file exists but cannot be read (its permissions, a directory in its
    place): the remedy is the file's, not its contents, so the app may say so apart."""

    def __init__(self, path: object, exc: OSError) -> None:
        reason = (exc.strerror or str(exc)).lower()
        super().__init__(f"cannot read {path}: {reason}; fix its permissions or remove it")
        self.path = str(path)
