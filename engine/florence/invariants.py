"""What must hold in every Florence position; the conformance suite checks it after every
action of its random games. Each function returns the broken invariants in words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .society import RANK
from .strozzi import BLUE, COLOUR_WORDS, ORANGE
from .tables import RANKS

if TYPE_CHECKING:
    from .rules import FlorenceState


def broken(state: FlorenceState) -> list[str]:
    """Broken invariants: conserved pieces, time 0..12, queues in order and within size."""
    t = state.tables
    out: list[str] = []
    if not 0 <= state.round <= t.rounds:
        out.append(f"round {state.round} out of 0..{t.rounds}")
    out += _queues(state)
    out += _family(state)
    for s in range(state.seats):
        out += _seat(state, s)
    out += _table(state)
    out += _decks(state)
    if state.solo is not None:
        out += _solo(state)
    return out


def _queues(state: FlorenceState) -> list[str]:
    out = []
    for loc, q in enumerate(state.queues):
        if len(q) > state.cap[loc]:
            out.append(f"location {loc + 1} holds {len(q)} > {state.cap[loc]} family members")
        if any(RANK[q[i]] < RANK[q[i + 1]] for i in range(len(q) - 1)):
            out.append(f"queue at location {loc + 1} is out of seniority order")
    return out


def _family(state: FlorenceState) -> list[str]:
    """Every family member is on a player board, on the board (or in transit), or exiled."""
    t = state.tables
    colours = len(state.colours)
    on_board = [0] * (4 * colours)
    for q in state.queues:
        for code in q:
            on_board[code] += 1
    if state.travel is not None and state.travel.queue_index < 0:
        on_board[state.travel.piece] += 1
    out = []
    for c in range(colours):
        for r in (1, 2, 3):
            k = c * 4 + r
            if min(state.supply[k], state.exiled[k]) < 0 or (
                state.supply[k] + on_board[k] + state.exiled[k] != t.family[r]
            ):
                out.append(f"colour {c + 1}: {RANKS[r]}s not conserved")
    return out


def _seat(state: FlorenceState, s: int) -> list[str]:
    t = state.tables
    out = []
    if not 0 <= state.time[s] <= t.time_max:
        out.append(f"seat {s + 1}: time {state.time[s]} out of 0..{t.time_max}")
    if state.vp[s] < 0:
        out.append(f"seat {s + 1}: negative VP")
    if len(state.hands[s]) > t.hand_limit:
        out.append(f"seat {s + 1}: more than {t.hand_limit} scandal cards")
    return out + _components(state, s)


def _components(state: FlorenceState, s: int) -> list[str]:
    """Brag markers, guards and gifts: on the board or left, as many as the seat's colours
    came with (the solo automa plays two colours' components)."""
    t = state.tables
    sets = state.colours.count(s)
    out = []
    markers = sum(spots.count(s) for spots in state.slots)
    if state.markers_left[s] < 0 or state.markers_left[s] + markers != t.brag_markers * sets:
        out.append(f"seat {s + 1}: brag markers not conserved")
    guards = _guards_out(state, s)
    if state.guards_left[s] < 0 or state.guards_left[s] + guards != t.guards * sets:
        out.append(f"seat {s + 1}: guards not conserved")
    if state.gifts_left[s] < 0 or state.gifts_left[s] + sum(state.given[s]) > t.gifts * sets:
        out.append(f"seat {s + 1}: more gifts than the 6 of a colour")
    return out


def _guards_out(state: FlorenceState, s: int) -> int:
    """Guards of `s`'s colours on the board's shields."""
    colours = state.colours
    stacks = (*state.escorts, *state.spies, *state.bouncers)
    return sum(1 for stack in stacks for c in stack if colours[c] == s)


def _table(state: FlorenceState) -> list[str]:
    out = []
    for loc, spots in enumerate(state.slots):
        seats = [x for x in spots if x >= 0]
        if len(set(seats)) != len(seats):
            out.append(f"location {loc + 1}: a player has two brag markers on one tile")
    rings = [r for r in state.rings if r >= 0]
    if len(set(rings)) != len(rings):
        out.append("two pass rings on one location")
    if sum(state.passed) != state.npassed:
        out.append("pass count differs from passed players")
    return out


def _decks(state: FlorenceState) -> list[str]:
    """Each Noble's cards are in its pile, on its discards or in hands."""
    out = []
    for noble in range(len(state.tables.nobles)):
        out += _deck(state, noble)
    return out


def _deck(state: FlorenceState, noble: int) -> list[str]:
    t = state.tables
    name = t.nobles[noble]
    deck = t.deck(noble)
    held = sum(_held(state, hand, noble) for hand in state.hands)
    out = []
    if state.deck_left[noble] + sum(state.discard[i] for i in deck) + held != t.copies * 4:
        out.append(f"{name}'s scandal cards not conserved")
    if state.draw_mode and sum(state.deck[i] for i in deck) != state.deck_left[noble]:
        out.append(f"{name}'s draw pile count differs from its cards")
    if any(state.discard[i] > t.copies for i in deck):
        out.append(f"{name}: more copies of a card revealed than exist")
    return out


def _held(state: FlorenceState, hand: tuple[str, ...], noble: int) -> int:
    """Cards of `noble`'s deck in a hand, named or (play mode) by the Noble's name."""
    t = state.tables
    name = t.nobles[noble]
    return sum(1 for c in hand if c == name or (c in t.card_index and t.card(c).noble == noble))


def _solo(state: FlorenceState) -> list[str]:
    """Strozzi's deck, brag tokens and pending steps."""
    solo = state.solo
    assert solo is not None
    automa = state.automa
    out = []
    if solo.top & ~solo.deck or solo.top_left > solo.top.bit_count():
        out.append("Strozzi's cards kept on top are not in his deck")
    if solo.aside & solo.deck or solo.aside.bit_count() > 1:
        out.append("Strozzi's card set aside is also in his deck")
    out += _marks(state)
    if state.hands[automa]:
        out.append("Strozzi holds scandal cards")
    if (solo.asks or solo.agenda) and state.turn != automa:
        out.append("Strozzi has steps pending outside his turn")
    return out


def _marks(state: FlorenceState) -> list[str]:
    """His brag tokens: a colour on every spot of his, none elsewhere, six of each."""
    solo = state.solo
    assert solo is not None
    out = []
    for loc, (spots, marks) in enumerate(zip(state.slots, solo.marks, strict=True)):
        for k, (seat, mark) in enumerate(zip(spots, marks, strict=True)):
            if (seat == state.automa) != (mark >= 0):
                out.append(
                    f"brag spot {loc * 3 + k}: Strozzi's token without its colour, or the reverse"
                )
    for colour in (ORANGE, BLUE):
        if sum(marks.count(colour) for marks in solo.marks) > state.tables.brag_markers:
            out.append(f"Strozzi has more {COLOUR_WORDS[colour]} brag tokens out than 6")
    return out
