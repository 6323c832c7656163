"""The committed phase diagrams are generated from the machines themselves and current."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from apps.commands.engine_cmds import diagram_markdown

DOCS = Path(__file__).resolve().parents[2] / "docs" / "flows"


@pytest.mark.parametrize("name", engine.games())
def test_committed_diagram_is_current(name: str) -> None:
    game = engine.get(name)
    committed = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    assert committed == diagram_markdown(game), f"run: tavola diagram {name} --write"


def test_diagram_has_every_phase_and_transition() -> None:
    from engine.strozzi.rules import PHASES, TRANSITIONS

    text = engine.get("strozzi").flow_diagram()
    assert text.startswith("stateDiagram-v2")
    for phase in PHASES:
        assert f'state "{phase}" as {phase}' in text
    for t in TRANSITIONS:
        sources = t["source"] if isinstance(t["source"], list) else [t["source"]]
        for source in sources:
            assert f"{source} --> {t['dest']}: {t['trigger']}" in text
