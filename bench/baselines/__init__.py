"""Purposeful players, one per game, written from each rulebook's scoring: the
opponents the table's bot is measured against besides random seats (bench_bots).

Each plays a plan a person new to the game would follow after reading the rules (go
where the next scoring is, take what completes a contract, win the race to a port),
reading only what its seat may know: its observation, its legal actions, and
determinizations of the position (never another seat's secret). They share no code with
the bots' evaluations (`Game.evaluate_seats`), so a gain against them is not the bot
agreeing with itself.
"""

from __future__ import annotations

from engine.bots import Bot

from .florence import FlorencePlanner
from .strada_romana import ContractTrader
from .strozzi import PortRacer

PURPOSEFUL: dict[str, type[Bot]] = {
    "florence": FlorencePlanner,
    "strada_romana": ContractTrader,
    "strozzi": PortRacer,
}
"""The purposeful player of each game, by the game's name."""

__all__ = ["PURPOSEFUL", "ContractTrader", "FlorencePlanner", "PortRacer"]
