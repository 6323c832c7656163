"""Choosing an action with a few buttons: the legal actions as a tree of notation words.

`flag pirate`, `flag plus`, `pass` make the first level `flag | pass`; choosing
`flag` opens `pirate | plus`. A level with a single word that does not finish
an action is entered automatically, so a seat never presses select for a
choice it does not have; and a word that leads to a single action stands for
it (`collect cube 121` is chosen at `cube`, no level of one word follows). Where
an action ends at a level while others go on, the level offers `DONE` for it.

`DONE` is written so that no notation word can be it (words never hold parentheses):
a game's own `ok` (Florence's confirmation of an automa step) is then one press, not
`ok` followed by an end marker that looked the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Action

DONE = "(done)"
BACK = "back"


class Menu:
    """A cursor over one seat's legal actions."""

    def __init__(self, actions: Sequence[Action], *, with_back: bool = False) -> None:
        if not actions:
            raise ValueError("a menu needs at least one action")
        self.actions = list(actions)
        self.with_back = with_back
        self.prefix: tuple[str, ...] = ()
        self.index = 0
        self._descend()
        self.top = self.prefix  # the first level with a real choice

    # --- the current level ---------------------------------------------------------
    def _under(self, prefix: tuple[str, ...]) -> list[Action]:
        k = len(prefix)
        return [a for a in self.actions if a.words[:k] == prefix]

    def _options_at(self, prefix: tuple[str, ...]) -> list[str]:
        k = len(prefix)
        words: dict[str, None] = {}
        for action in self._under(prefix):
            w = action.words
            words[w[k] if len(w) > k else DONE] = None
        return list(words)

    def options(self) -> list[str]:
        """The words offered at this level (plus `back` below the top for one-button seats)."""
        opts = self._options_at(self.prefix)
        if self.with_back and self.prefix != self.top:
            opts.append(BACK)
        return opts

    def _descend(self) -> None:
        """Enter single-word levels that do not yet finish an action."""
        while True:
            opts = self._options_at(self.prefix)
            if len(opts) != 1 or opts[0] == DONE:
                break
            if self._complete((*self.prefix, opts[0])) is not None:
                break
            self.prefix += (opts[0],)
        self.index = 0

    def _complete(self, words: tuple[str, ...]) -> Action | None:
        for action in self.actions:
            if action.words == words:
                return action
        return None

    @property
    def current(self) -> str:
        return self.options()[self.index]

    def candidates(self) -> list[Action]:
        """Every action the cursor's word leads to (one, when it completes an action)."""
        word = self.current
        if word == BACK:
            return []
        if word == DONE:
            return [a for a in self.actions if a.words == self.prefix]
        return self._under((*self.prefix, word))

    def candidate(self) -> Action | None:
        """The action under the cursor: the one its word finishes, or else the only one it
        leads to, so a choice with nothing left to choose is previewed and confirmed at
        once rather than opening a level of one word."""
        word = self.current
        if word == BACK:
            return None
        if word == DONE:
            return self._complete(self.prefix)
        action = self._complete((*self.prefix, word))
        if action is None:
            under = self._under((*self.prefix, word))
            if len(under) == 1:
                action = under[0]
        return action

    # --- moving --------------------------------------------------------------------
    def next(self) -> None:
        self.index = (self.index + 1) % len(self.options())

    def previous(self) -> None:
        self.index = (self.index - 1) % len(self.options())

    def back(self) -> bool:
        """Up one level; False at the top (nothing to go back to)."""
        if self.prefix == self.top:
            return False
        parent = self.prefix[:-1]
        while parent != self.top and len(self._options_at(parent)) == 1:
            parent = parent[:-1]
        word = self.prefix[len(parent)]
        self.prefix = parent
        self.index = self.options().index(word)
        return True

    def select(self) -> Action | None:
        """Choose the cursor's word: returns the action when that completes one, else descends."""
        word = self.current
        if word == BACK:
            self.back()
            return None
        action = self.candidate()
        if action is not None and (word == DONE or len(self.candidates()) == 1):
            return action
        self.prefix += (word,)
        self._descend()
        return None

    def path(self) -> str:
        """What the seat has chosen so far and where the cursor is, for the terminal (with
        the rest of the action when the cursor's word leads to only one)."""
        word = self.current
        action = self.candidate()
        if action is not None and word != DONE:
            word = " ".join(action.words[len(self.prefix) :])
        return " ".join([*self.prefix, f"[{word}]"])
