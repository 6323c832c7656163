"""One home per rule: a game's rules as units named after the rulebook's headings.

A `Rule` is one heading of the rulebook. It owns the verbs of the notation that the
heading governs, in the phases where they are played, and holds for them, side by
side: the grammar (its verbs and arguments), the legal texts, the effect and the
refusal that explains an impossible input. Its docstring quotes the rulebook. A
`Rulebook` is the game's list of rules; it dispatches by phase and verb, and refuses
at import a verb that two rules claim in one phase, so a rule cannot grow a second
home. docs/rules-index.md maps every heading to its unit, and a test keeps the two
in step.

    class RejectedShips(Rule["StrozziState"]):
        '''"If the player whose turn it is does not want the ship, he must say so."'''

        heading = "Rejected Ships"
        plays = in_phases(decide=("pass",), offer=("flag", "pass"))

        def texts(self, state): ...
        def apply(self, state, verb, arg, events): ...
        def refuse(self, state, verb, arg): ...

    RULEBOOK = Rulebook("Strozzi", [Setup(), ..., RejectedShips(), ...])

A heading without actions of its own (scoring, the end of a round) is a `Rule` with
no `plays`, holding the functions the other rules call.

Three things a rulebook may need beyond that. A claim may name a verb's first word too
("collect cube"), so two headings share a verb and the longer claim wins; an input that
matches no form of such a verb is explained by the first rule claiming one. A rule may
also explain its verbs in phases where they are never possible (`refuses`: a special
move "bought at the beginning of the turn", asked for after the first step). And
`Rulebook(..., offers=...)` lists, for a phase, the rules in the order their actions are
offered, where a menu lists them otherwise than the rulebook's headings.

A rule whose action shows a seat or the table something hidden until then (a card
discarded face up, a deck looked through) names the events that say so in `reveals`,
with the reason in words; `Rulebook.revealing` gathers them for `State.reveals`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar, Generic, Protocol, TypeVar

from .action import Event

DISPATCH_KEPT = 50_000
"""(phase, text) pairs whose owning rule `Rulebook.apply` remembers (a game's notation
in one phase is a few thousand texts at most)."""


class _Phased(Protocol):
    phase: str


S = TypeVar("S", bound=_Phased)


def in_phases(**verbs: tuple[str, ...]) -> Mapping[str, tuple[str, ...]]:
    """A rule's `plays`: phase name -> the verbs it owns there (read-only)."""
    return MappingProxyType(verbs)


def revealing(**why: str) -> Mapping[str, str]:
    """A rule's `reveals`: event kind -> why the action that caused it cannot be taken
    back (read-only)."""
    return MappingProxyType(why)


class Rule(Generic[S]):
    """One rulebook heading and the actions it governs (see the module docstring)."""

    heading: ClassVar[str] = ""
    """The rulebook's heading, word for word."""
    plays: ClassVar[Mapping[str, tuple[str, ...]]] = in_phases()
    """phase -> the verbs this rule owns in that phase ("collect cube": the verb and its
    first word)."""
    refuses: ClassVar[Mapping[str, tuple[str, ...]]] = in_phases()
    """phase -> verbs of this rule it explains in a phase where they are never possible;
    only `refuse` is asked for them there."""
    reveals: ClassVar[Mapping[str, str]] = revealing()
    """Event kind -> why an action that caused it can no longer be taken back: the events
    by which this rule shows a seat, or the whole table, something hidden until then (a
    card discarded face up, a face-down deck looked through). Only the rules know what is
    hidden, so they say it; `State.reveals` reads them (the table's undo asks it)."""

    def texts(self, state: S) -> Sequence[str]:
        """The legal texts of this rule's verbs in the state's phase."""
        return ()

    def apply(self, state: S, verb: str, arg: str, events: list[Event]) -> None:
        """Carry out a legal action of this rule (`arg`: the words after the verb)."""
        raise NotImplementedError(f"{type(self).__name__} plays no {verb!r}")

    def refuse(self, state: S, verb: str, arg: str) -> str | None:
        """Why this rule does not allow `verb arg` now; None for the generic message."""
        return None


class Rulebook(Generic[S]):
    """A game's rules, dispatched by the state's phase and the action's first word."""

    def __init__(
        self,
        title: str,
        rules: Sequence[Rule[S]],
        *,
        offers: Mapping[str, Sequence[Rule[S]]] | None = None,
    ) -> None:
        self.title = title
        self.rules = tuple(rules)
        owner: dict[str, dict[str, Rule[S]]] = {}
        forms: dict[str, dict[str, Rule[S]]] = {}
        in_phase: dict[str, list[Rule[S]]] = {}
        verbs: dict[str, None] = {}
        for rule in self.rules:
            for phase, played in rule.plays.items():
                in_phase.setdefault(phase, []).append(rule)
                self._claim(owner, forms, rule, phase, played)
                verbs.update((verb.partition(" ")[0], None) for verb in played)
            for phase, refused in rule.refuses.items():
                self._claim(owner, forms, rule, phase, refused)
        for phase, listed in (offers or {}).items():
            in_phase[phase] = self._offered(phase, listed, in_phase.get(phase, []))
        self._owner = owner
        self._forms = forms
        self._compound = frozenset(head for by_verb in forms.values() for head in by_verb)
        self._in_phase = {phase: tuple(rules) for phase, rules in in_phase.items()}
        self._listers = {phase: self._lister(rules) for phase, rules in self._in_phase.items()}
        self._dispatch: dict[tuple[str, str], tuple[Rule[S] | None, str, str]] = {}
        self.verbs = tuple(verbs)
        self._verbs = frozenset(verbs)
        self.revealing = self._revealing()

    def _revealing(self) -> Mapping[str, str]:
        """Every rule's `reveals` in one mapping; an event kind two rules declare would
        have two reasons, so it is refused like a verb with two homes."""
        why: dict[str, str] = {}
        for rule in self.rules:
            for kind, reason in rule.reveals.items():
                if kind in why:
                    raise ValueError(f"{self.title}: event '{kind}' is declared revealing twice")
                why[kind] = reason
        return MappingProxyType(why)

    def _claim(
        self,
        owner: dict[str, dict[str, Rule[S]]],
        forms: dict[str, dict[str, Rule[S]]],
        rule: Rule[S],
        phase: str,
        verbs: tuple[str, ...],
    ) -> None:
        """`rule` owns `verbs` in `phase`; a verb claimed twice there has two homes."""
        for verb in verbs:
            other = owner.setdefault(phase, {}).get(verb)
            if other is not None:
                raise ValueError(
                    f"{self.title}: '{verb}' in phase {phase} has two homes: "
                    f"{type(other).__name__} and {type(rule).__name__}"
                )
            owner[phase][verb] = rule
            head, _, kind = verb.partition(" ")
            if kind:
                forms.setdefault(phase, {}).setdefault(head, rule)

    def _offered(
        self, phase: str, listed: Sequence[Rule[S]], playing: list[Rule[S]]
    ) -> list[Rule[S]]:
        """The rules playing in `phase` in the order `offers` lists them, the rest after."""
        stray = [type(r).__name__ for r in listed if r not in playing]
        if stray:
            raise ValueError(f"{self.title}: {', '.join(stray)} play nothing in phase {phase}")
        return [*listed, *(r for r in playing if r not in listed)]

    def rule(self, heading: str) -> Rule[S]:
        """The rule of a heading (KeyError for a heading the game does not have)."""
        for rule in self.rules:
            if rule.heading == heading:
                return rule
        raise KeyError(heading)

    def texts(self, state: S) -> Sequence[str]:
        """Every legal text in the state's phase, rule by rule in the rulebook's order."""
        lister = self._listers.get(state.phase)
        return [] if lister is None else lister(state)

    @staticmethod
    def _lister(rules: tuple[Rule[S], ...]) -> Callable[[S], Sequence[str]]:
        """The legal texts of a phase whose `rules` play in it: one rule's own, or theirs
        joined in order (looked up once, as `texts` is asked at every action)."""
        if len(rules) == 1:
            return rules[0].texts

        def joined(state: S) -> Sequence[str]:
            out: list[str] = []
            for rule in rules:
                out += rule.texts(state)
            return out

        return joined

    def apply(self, state: S, text: str, events: list[Event] | None = None) -> list[Event]:
        """Carry out a legal action: the rule owning its verb in this phase does it. Its
        events are appended to `events` (a new list if None), which is returned."""
        key = (state.phase, text)
        owned = self._dispatch.get(key)
        if owned is None:  # each (phase, text) is parsed once: a search applies it again
            if len(self._dispatch) >= DISPATCH_KEPT:
                self._dispatch.clear()
            owned = self._dispatch[key] = self._owner_of(*key)
        rule, verb, arg = owned
        assert rule is not None, f"no rule plays {text!r} in phase {state.phase}"
        if events is None:
            events = []
        rule.apply(state, verb, arg, events)
        return events

    def _owner_of(self, phase: str, text: str) -> tuple[Rule[S] | None, str, str]:
        """The rule owning `text` in `phase` (the longer claim first), its verb as claimed
        and the words after it."""
        verb, _, arg = text.partition(" ")
        owners = self._owner.get(phase, {})
        if verb in self._compound:
            kind, _, rest = arg.partition(" ")
            rule = owners.get(f"{verb} {kind}")
            if rule is not None:
                return rule, f"{verb} {kind}", rest
        return owners.get(verb), verb, arg

    def is_notation(self, text: str) -> bool:
        """Whether `text` starts with a verb of this game's notation."""
        verb = text.partition(" ")[0]
        return verb in self._verbs

    def explain(self, state: S, text: str, describe: str) -> str | None:
        """Why `text` is not possible now: not notation, another phase's verb, or the
        owning rule's own refusal (`describe`: the state's sentence, for context). None
        when the owning rule has nothing to add: the generic message lists what is."""
        if not self.is_notation(text):
            listed = ", ".join(self.verbs[:-1])
            return (
                f"'{text}' is not {self.title} notation: actions start with "
                f"{listed} or {self.verbs[-1]}."
            )
        rule, verb, arg = self._owner_of(state.phase, text)
        if rule is None:  # no form of the verb matches: the first rule claiming one says why
            rule = self._forms.get(state.phase, {}).get(verb)
        if rule is None:
            return f"'{text}' is not possible now. {describe}"
        return rule.refuse(state, verb, arg)
