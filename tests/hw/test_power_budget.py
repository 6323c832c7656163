"""The shipped configs' power budget follows docs/wiring.md's own rule: `budget_ma` is
80 % of the supply's rating minus what the Pi draws from it. The rule's figure is read
from the doc and each config's supply from the comment on its `budget_ma` line, so a
change of either that leaves the other behind fails here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(
    [
        ROOT / "systemd" / "tavola.toml",
        ROOT / "hw" / "demo_table.toml",
        *(ROOT / "examples").glob("*.toml"),
    ]
)
AMPS = r"(\d+(?:\.\d+)?) A"


def rule_percent() -> float:
    """The rule as docs/wiring.md words it: `budget_ma` about N % of the supply's rating,
    minus what the Pi draws from the same supply."""
    text = " ".join((ROOT / "docs" / "wiring.md").read_text().split())
    m = re.search(
        r"choose `budget_ma` about (\d+) % of the supply's rating, minus what the "
        r"Pi draws from the same supply",
        text,
    )
    assert m, "docs/wiring.md no longer states the budget rule"
    return float(m.group(1)) / 100


def budget_for(supply_a: float, pi_a: float) -> float:
    return rule_percent() * supply_a * 1000 - pi_a * 1000


def test_the_docs_own_example_follows_its_rule() -> None:
    text = " ".join((ROOT / "docs" / "wiring.md").read_text().split())
    m = re.search(
        rf"A 5 V {AMPS} supply feeding both the strip and a Pi 4 \(count {AMPS} "
        r"for it\).*?`budget_ma = (\d+)`",
        text,
    )
    assert m, "the worked example is gone from docs/wiring.md"
    assert float(m.group(3)) == budget_for(float(m.group(1)), float(m.group(2)))
    table = re.search(r"With `budget_ma = (\d+)` \|", text)
    assert table and table.group(1) == m.group(3)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_shipped_config_follows_the_rule(path: Path) -> None:
    budget = tomllib.loads(path.read_text())["pipeline"]["budget_ma"]
    (line,) = [ln for ln in path.read_text().splitlines() if ln.startswith("budget_ma")]
    supply = re.search(rf"{AMPS} supply", line)
    pi = re.search(rf"{AMPS} (?:left )?for the Pi", line)
    assert supply and pi, f"{path.name}: the budget's comment names no supply and Pi: {line}"
    assert budget == budget_for(float(supply.group(1)), float(pi.group(1))), line
