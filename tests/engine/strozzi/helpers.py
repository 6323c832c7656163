"""Small drivers for Strozzi scenarios, spelled in notation like the journal."""

from __future__ import annotations

from engine.strozzi import GAME, StrozziState

START_TOKENS = ("arts-1-venice", "sciences-2", "architecture-2")


def started(players: int, first: int = 0, tokens: tuple[str, ...] = START_TOKENS) -> StrozziState:
    """A game after setup: three tokens face up, the first ship not yet drawn."""
    state = GAME.new_state(players, seed=0, options={"first": first})
    for token in tokens:
        state.apply(f"reveal {token}")
    assert state.phase == "draw"
    return state


def play(state: StrozziState, *texts: str) -> list:
    events = []
    for text in texts:
        events.extend(state.apply(text))
    return events


def take(state: StrozziState, ship: str, flag: str, port: str, token: str | None = None) -> None:
    """The active player draws the ship showing face `ship`, flags it, nobody seizes it,
    it goes to `port`."""
    play(state, f"draw {ship}", f"flag {flag}")
    while state.phase == "pirates":
        state.apply("pass")
    state.apply(f"port {port}")
    if state.phase == "token":
        state.apply(f"token {token or state.face_up[0]}")
    if state.phase == "reveal":
        state.apply(f"reveal {next(t for t, c in state.pile.items() if c)}")


def city(state: StrozziState, name: str) -> int:
    return state.rules.cities.index(name)
