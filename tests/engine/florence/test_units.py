"""One home per rule: every verb of Florence's notation belongs to one unit of the rulebook,
which offers its texts, carries it out and explains its refusal (docs/rules-index.md)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.core import derive, random_action
from engine.florence import RULEBOOK
from engine.florence.rules import HOME
from engine.florence.scandals import CARDS, ScandalCard
from engine.florence.tables import tables_for

from .helpers import DATA, GAME

INDEX = Path(__file__).parents[3] / "docs" / "rules-index.md"


def test_every_verb_has_one_home_and_every_home_is_a_rulebook_unit() -> None:
    """A verb belongs to one unit; the one verb two headings share is the dial's `token`,
    drawn at Setup and at each Cleanup, its grammar and effect in one place (setup.py)."""
    assert set(HOME) == set(RULEBOOK.verbs)
    assert len(RULEBOOK.verbs) == 26
    owners: dict[str, set[str]] = {}
    for rule in RULEBOOK.rules:
        for verbs in rule.plays.values():
            for verb in verbs:
                owners.setdefault(verb, set()).add(type(rule).__name__)
    shared = {verb: names for verb, names in owners.items() if len(names) > 1}
    assert shared == {"token": {"Setup", "Cleanup"}}
    for verb, rule in HOME.items():
        assert rule in RULEBOOK.rules and type(rule).__name__ in owners[verb]


def test_each_unit_offers_only_its_own_verbs_over_random_games() -> None:
    """The legal texts of a phase are the units' texts, each unit offering only the verbs
    it owns there: no text is made in one place and carried out in another."""
    for players, options in ((1, {}), (3, {"scandal_entry": "play"}), (4, {})):
        for seed in range(3):
            state = GAME.new_state(players, seed=seed, options=options, data=DATA)
            rng = derive(seed, "units")
            while not state.is_over():
                if not state.strozzis_turn():  # his turns are his unit's alone
                    made = []
                    for rule in RULEBOOK.rules:
                        texts = list(rule.texts(state)) if state.phase in rule.plays else []
                        owned = rule.plays.get(state.phase, ())
                        assert all(t.split()[0] in owned for t in texts), type(rule).__name__
                        made += texts
                    assert made == [a.text for a in state.legal_actions()]
                state.apply(random_action(state, rng))


def test_every_scandal_card_is_one_unit_listed_under_its_printed_line() -> None:
    names = [c.name for c in tables_for(DATA).cards]
    assert sorted(names) == sorted(CARDS)
    rows = dict(
        (m["symbol"], m["heading"])
        for m in re.finditer(
            r"^\|\s*(?P<heading>[^|`]+?)\s*\|\s*`(?P<symbol>[\w.]+)`\s*\|\s*$",
            INDEX.read_text(encoding="utf-8"),
            re.M,
        )
    )
    for card in CARDS.values():
        assert isinstance(card, ScandalCard)
        symbol = f"engine.florence.scandals.{type(card).__name__}"
        assert rows.get(symbol) == card.heading, symbol
        assert card.heading and card.heading.split(",")[0] in ("Figlisto", "Carissima", "Messere")
        assert f"'{card.heading}" in " ".join((type(card).__doc__ or "").split())
