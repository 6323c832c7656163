"""The rulebook's worked example (Anna, Scott, Todd, Heather, James), action by action.

Reconstruction in shared research (rulebook-examples): Anna's ship shows two grain (Rome)
and two Naples goods and a progress-token symbol, no Venice goods: the card of
`[ships_example]`, one card of the shipped deck, entered by its face.
"""

from __future__ import annotations

from .helpers import city, play, started

ANNA, SCOTT, TODD, HEATHER, JAMES = range(5)


def before_the_example():
    """Legal play that reaches the example's position: Anna has used her +1 flag in Naples
    and her goods flag in Rome ('She decides to use her "+1 flag" to place a ship in Naples and
    her "goods flag" to place a ship in Rome'), and James took the last ship, so Anna is active.
    """
    state = started(5, first=ANNA)
    play(
        state,
        "draw 4 gold0 grain1 cloth1 scrolls0 no-token",
        "flag plus",
        "pass",
        "pass",
        "pass",
        "pass",
        "port naples",
    )
    play(
        state,
        "draw 1 gold2 grain1 cloth0 scrolls0 no-token",
        "pass",
        "pass",
        "pass",
        "pass",
        "flag goods",
        "port rome",
    )
    play(
        state, "draw 8 gold0 grain0 cloth0 scrolls1 no-token", "flag pirate", "port venice"
    )  # Scott uses his pirate flag
    play(
        state,
        "draw 2 gold0 grain2 cloth1 scrolls1 no-token",
        "pass",
        "pass",
        "flag plus",
        "pass",
        "port venice",
    )  # James takes it
    assert state.phase == "draw" and state.active == ANNA
    assert state.flags[ANNA] == ["pirate"]
    return state


def test_annas_example() -> None:
    """The rulebook's Example, 'Anna is the active player ...', played action by action."""
    state = before_the_example()
    assert "5 gold0 grain2 cloth2 scrolls0 token" in state.rules.ships
    # "She draws the first card from the ship pile ... it is not interesting, so she rejects it."
    play(state, "draw 5 gold0 grain2 cloth2 scrolls0 token", "pass")
    # "Scott is next and has not yet placed ships in Rome. So he places his "goods flag""
    assert state.current_player() == SCOTT
    play(state, "flag goods")
    # "Todd is next and, like Anna, is not interested."
    assert state.phase == "pirates" and state.current_player() == TODD
    play(state, "pass")
    # "Heather ... places her "pirate flag" on it, claiming it. Scott takes back his goods flag."
    assert state.current_player() == HEATHER
    events = play(state, "flag pirate")
    assert state.phase == "place" and state.taker == HEATHER
    assert "goods" in state.flags[SCOTT]
    returned = [e.data for e in events if e.kind == "flag_returned"]
    assert returned == [{"player": SCOTT, "flag": "goods"}]
    # "James is last, but can do nothing against Heather's "pirate flag.""  (he is not asked)
    naples, venice = city(state, "naples"), city(state, "venice")
    venice_before = state.pos[venice][HEATHER]
    # "Heather places the card near Naples ... and moves her marker on the Naples space forward
    # two positions."
    play(state, "port naples")
    assert state.pos[naples][HEATHER] == 2
    assert HEATHER in [entry[1] for entry in state.ports[naples]]
    # "Heather now chooses the arts progress token ... Since it shows the Venice symbol, she
    # moves her marker in Venice forward one space"
    assert state.phase == "token"
    play(state, "token arts-1-venice")
    assert state.pos[venice][HEATHER] == venice_before + 1
    assert state.tokens[HEATHER] == ["arts-1-venice"]
    # "She then ends her turn by drawing a new token from the progress token pile"
    assert state.phase == "reveal"
    play(state, "reveal architecture-1-naples")
    assert len(state.face_up) == 3
    # "James (the player to her left) now becomes the new active player"
    assert state.phase == "draw" and state.active == JAMES
