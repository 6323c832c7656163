"""The flow of a Florence game, as in the rulebook's "Game Structure": its phases and the
changes between them, declared as data and built into one machine at import."""

from __future__ import annotations

from engine.core import Flow

PHASES = [
    "setup",  # Setup: brag tiles, carriages, the Noble dial's tokens, the 1st player marker
    "placement",  # Before the First Round: one free Debutant each, last player first
    "gain_time",  # 1. Gain Time
    "actions",  # 2. Perform Actions, until all players have passed
    "moving",  # a Rush (or a scandal journey) between its steps
    "noble_movement",  # 3. Noble Movement: Prime Position VP, brag and spy scandals
    "hand_limit",  # Scandal Cards: a seat holding 5 may discard one first, or gain 1 time
    "queue_scoring",  # 4. Queue Scoring (Giovanni's claims are decided here)
    "cleanup",  # 5. Cleanup: new Time and Location tokens on the dial
    "final_discards",  # Game End: a last chance to trade scandals for time
    "schemes",  # Game End: scheme cards revealed and scored
    "over",  # Declare the Winner
]

TRANSITIONS = [
    {"trigger": "dealt", "source": "setup", "dest": "placement"},
    {"trigger": "placed", "source": "placement", "dest": "gain_time"},
    {"trigger": "time_gained", "source": "gain_time", "dest": "actions"},
    {"trigger": "travel", "source": "actions", "dest": "moving"},
    {"trigger": "arrived", "source": "moving", "dest": "actions"},
    {"trigger": "all_passed", "source": "actions", "dest": "noble_movement"},
    {"trigger": "over_limit", "source": "noble_movement", "dest": "hand_limit"},
    {"trigger": "limit_decided", "source": "hand_limit", "dest": "noble_movement"},
    {"trigger": "noble_arrived", "source": "noble_movement", "dest": "queue_scoring"},
    {"trigger": "scored", "source": "queue_scoring", "dest": "cleanup"},
    {"trigger": "next_round", "source": "cleanup", "dest": "gain_time"},
    {"trigger": "last_round_scored", "source": "queue_scoring", "dest": "final_discards"},
    {"trigger": "discards_done", "source": "final_discards", "dest": "schemes"},
    {"trigger": "schemes_revealed", "source": "schemes", "dest": "over"},
]

FLOW = Flow("Florence", PHASES, TRANSITIONS, initial="setup")

SEAT_PHASES = frozenset(
    {"placement", "actions", "moving", "hand_limit", "queue_scoring", "final_discards"}
)
"""Phases in which a seat decides (the others wait for a draw, or the game is over)."""
ARRIVED = frozenset({"queue_scoring", "cleanup", "final_discards", "schemes", "over"})
"""Phases after the active Noble has arrived at its destination this round."""
