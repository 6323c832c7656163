"""The component check: every provisional value of a game, asked of its owner with the
component in hand, the answers written to the owner's override file.

One list of questions (`questions`) serves every place that asks: `tavola data check
GAME` in a terminal, the table before the first game of a title, the phone page's
settings. Each question is one key of a provisional value group, worded by the game's
own data (`ask = { key = "..." }` in `data.toml`). An answer is a TOML value of the kind
the shipped value is (`parse`); "my copy shows this" confirms the shipped value. Answers
are saved group by group (`save`): each group is checked by the game (it must still be
playable) before the file is written, so a wrong answer is refused with the reason and
the file stays as it was.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine.core import DataError, GameData, Group, value_problem
from hw.tomledit import toml_value

from .userdata import write_owner_groups

GENERIC = "What does your copy show for {key}?"


class AnswerError(ValueError):
    """An answer that is not a value of the kind asked for; the message says what is."""


@dataclass(frozen=True)
class Question:
    """One provisional value: where it lives, what to ask, what is shipped."""

    game: str
    group: str
    key: str
    text: str
    current: Any
    source: str

    @property
    def label(self) -> str:
        return f"[{self.group}] {self.key}"

    def shown(self) -> str:
        """The shipped value as one writes it in the file."""
        return toml_value(self.current).replace("\n", " ").replace(",  ", ", ").replace("[ ", "[")


def questions(game: str, data: GameData | None = None) -> list[Question]:
    """Every value of `game` still provisional (not yet checked by the owner), in file order."""
    data = data or engine.get(game).data()
    out = []
    for group, key in data.unchecked():
        out.append(_question(game, group, key))
    return out


def _question(game: str, group: Group, key: str) -> Question:
    text = group.ask.get(key) or group.ask.get("*") or GENERIC.format(key=key)
    return Question(game, group.name, key, text, group.values[key], group.source)


def parse(question: Question, answer: str) -> Any:
    """The value `answer` (TOML, as in the file: 12, "both", [3, 4, 4], { 4 = 5 }) stands
    for; AnswerError saying what kind of value is wanted."""
    text = answer.strip()
    if not text:
        raise AnswerError("no answer given")
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        if text.replace("-", "").replace("_", "").isalnum() and isinstance(question.current, str):
            value = text  # a word for a text value needs no quotes
        elif not isinstance(question.current, str):
            why = value_problem(text, question.current)
            raise AnswerError(f"{question.key} {why}") from None
        else:
            raise AnswerError(f"{question.key} must be text, like {question.shown()}") from None
    why = value_problem(value, question.current)
    if why:
        raise AnswerError(f"{question.key} {why}")
    return value


def owned(game: str, data: GameData | None = None) -> list[Question]:
    """Every value `game`'s override file replaced (checked by the owner, or written by
    hand), in file order: `current` is the owner's value, so it can be asked again."""
    data = data or engine.get(game).data()
    out = []
    for group in data.groups.values():
        for key in group.values:
            if key in group.owned:
                out.append(_question(game, group, key))
    return out


def save(
    game: str,
    answers: Mapping[tuple[str, str], Any],
    *,
    path: Path | None = None,
    use: bool = True,
) -> Path:
    """Write `answers` ((group, key) -> value) as the owner's, one call for all of them:
    DataError (nothing written) if the game cannot be played with them. `use=False`:
    this process's next game does not switch to the file by itself (userdata)."""
    groups: dict[str, dict[str, Any]] = {}
    for (group, key), value in answers.items():
        groups.setdefault(group, {})[key] = value
    return write_owner_groups(game, groups, path=path, use=use)


def at_a_glance(question: Question) -> bool:
    """Whether the owner can confirm the value by looking at the component and pressing a
    button: a list of tables (a deck of cards, one table per card) is entered card by card
    instead (`tavola cards learn`), as its question says."""
    value = question.current
    return not (isinstance(value, list) and any(isinstance(v, dict) for v in value))


def words(value: Any) -> str:
    """A value as the table says it, not as the file writes it: `unlinked`, not
    `"unlinked"`; `3, 4, 4 for each of the 9`; `4: 5, 7: 10, 10: 15`; `none` for []."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        return _list_words(value)
    return str(value)


def _list_words(value: list[Any]) -> str:
    """A list of rows said once when they are all alike, else row by row."""
    if not value:
        return "none"
    if all(isinstance(v, list) for v in value):
        if len(value) > 1 and all(v == value[0] for v in value):
            return f"{words(value[0])} for each of the {len(value)}"
        return "; ".join(words(v) for v in value)
    return ", ".join(words(v) for v in value)


def template(game: str) -> str:
    """An override file to start from: every value group of `game` as the shipped data
    has it, commented out, with its provenance, source and questions. As it is, the file
    changes nothing; removing the "# " of a table's lines (not the "## " notes) and
    editing its values corrects it."""
    g = engine.get(game)
    data = g.load_data()
    lines = [
        f"## {g.title}: the owner's corrections to the shipped component data.",
        f"## Save as the file `tavola data {game}` names. Uncomment a table and the keys you",
        "## change (the others keep their shipped values); `tavola data check " + game + "`",
        '## asks each provisional value and writes it for you, with provenance = "owner".',
    ]
    for group in data.groups.values():
        lines += ["", f"## {group.name} ({group.provenance}): {_one_line(group.source)}"]
        lines.append(f"# [{group.name}]")
        if group.provenance == "provisional":
            lines.append('# provenance = "owner"')
        for key, value in group.values.items():
            question = group.ask.get(key) or group.ask.get("*")
            if question and group.provenance == "provisional":
                lines.append(f"## {key}: {_one_line(question)}")
            lines += [f"# {line}" for line in f"{_key(key)} = {toml_value(value)}".splitlines()]
    return "\n".join(lines) + "\n"


def _key(key: str) -> str:
    return key if key.replace("-", "").replace("_", "").isalnum() else json.dumps(key)


def _one_line(text: str) -> str:
    return " ".join(text.split())


__all__ = [
    "AnswerError",
    "DataError",
    "Question",
    "at_a_glance",
    "owned",
    "parse",
    "questions",
    "save",
    "template",
    "words",
]
