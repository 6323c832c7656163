"""Strozzi's Cards: the ten solo cards of "Solo Mode", one step per card action.

A card turned over (`solo N`) is paid by `card`, which puts the card's action in front
of his agenda; each action below is a step of `solo.STEPS`, with the card's words in
its docstring. Each returns the step in words (empty when it only planned further
steps) for the table, which shows one step at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event

from .society import COLOUR, RANK, ev, free, has_member, piece, promoted
from .strozzi import (
    BLUE,
    BRAG_TIMES,
    COLOUR_WORDS,
    DRAW,
    EASIER_BRAG_TIMES,
    GIOVANNI_KEEP,
    GUARD_VP,
    ORANGE,
    PARTY_VP,
    CardStep,
    Coloured,
    Turned,
    Unit,
    a,
    brag_at,
    brag_colour,
    destinations,
    nobles_abc,
    on_board,
    ordinal,
    piece_words,
    place_guard,
    place_piece,
    promote,
    solo_of,
    strozzi_pass,
    third,
    tokens_left,
)
from .tables import CONTESSINA, COSIMO, DEBUTANT, DONNA, GIOVANNI, RANKS

if TYPE_CHECKING:
    from .rules import FlorenceState


def _below_kept(kept: int) -> str:
    """Where a card shuffled back goes while cards kept on top at Cleanup are still to come."""
    if kept <= 0:
        return ""
    return f", below the {kept} card{'s' if kept > 1 else ''} still kept on top"


def card(state: FlorenceState, item: Turned, events: list[Event]) -> str:
    """Strozzi's Cards: 'Draw a card from his deck, and discard into a face-up pile. Each
    has a time cost (2-3). When drawn, reduce his time accordingly before resolving. If it
    costs more time than he has, he loses all his time, and resolves it anyway.'"""
    t = state.tables
    solo = solo_of(state)
    automa = state.automa
    n = item.card
    bit = 1 << (n - 1)
    solo.deck &= ~bit
    if solo.top_left:
        solo.top_left -= 1
        solo.top = solo.top & ~bit if solo.top_left else 0
    solo.revealed += 1
    action = t.solo_actions[n - 1]
    if action == "party" and solo.revealed == 1:
        # "If this is the 1st card Strozzi reveals in a round, don't resolve it. Draw a new
        # card, and shuffle this one back into the draw deck." The new card comes first (the
        # next kept card, if any is left), so it is never card 6; card 6 then goes back into
        # the deck below the cards still kept on top.
        solo.aside = bit
        solo.agenda.insert(0, DRAW)
        events.append(ev("solo_card", player=automa, card=n, action=action, time=0, returned=True))
        return (
            f"Card {n}, Time to Party, is his first card this round: draw a new card, then "
            f"shuffle card {n} back into his deck{_below_kept(solo.top_left - 1)}."
        )
    lead = f"Card {n}: "
    if solo.aside:
        back = solo.aside.bit_length()
        solo.deck |= solo.aside
        solo.aside = 0
        lead = f"Shuffle card {back} back into his deck{_below_kept(solo.top_left)}. {lead}"
    paid = min(t.solo_cost[n - 1], state.time[automa])
    state.time[automa] -= paid
    events.append(ev("solo_card", player=automa, card=n, action=action, time=paid, returned=False))
    lead += f"Strozzi pays {paid} time ({state.time[automa]} left). "
    solo.agenda.insert(0, CardStep(action, n, lead))
    return ""


# --- Cards 1-5: Deploy ---------------------------------------------------------------------
def deploy_places(state: FlorenceState, letter: int) -> list[tuple[int, int]]:
    """(Noble whose action applies, location) in the order a deploy card tries them: Noble
    `letter`'s destination, the next ones 'cycling from C to A', then 'trace the Noble
    movement arrows back along a path from Noble A's destination'."""
    t = state.tables
    abc = nobles_abc(state)
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    for k in range(3):
        noble, loc = abc[(letter + k) % 3]
        if loc not in seen:
            out.append((noble, loc))
            seen.add(loc)
    own = abc[letter][0]
    at = abc[0][1]
    for _ in range(t.locations - 1):
        at = t.route_prev[at]
        if at not in seen:
            out.append((own, at))
            seen.add(at)
    return out


def deploy(state: FlorenceState, item: CardStep | Coloured, events: list[Event]) -> str:
    """Cards 1-5: 'Perform the action from those below on the Location, according to whose
    destination it is. Cosimo: Deploy 1 Debutant (of the indicated colour), and advance it ...
    Contessina: Deploy 1 Donna of the indicated colour. Giovanni: Deploy 2 Debutants (1
    orange, 1 blue.)'"""
    t = state.tables
    solo = solo_of(state)
    n, lead = item.card, item.lead
    letter = t.solo_noble[n - 1]
    found = next(((nb, loc) for nb, loc in deploy_places(state, letter) if free(state, loc)), None)
    if found is None:
        return lead + "No location has room: Strozzi deploys nothing."
    noble, loc = found
    if noble == GIOVANNI:
        solo.agenda[0:0] = [
            Unit("unit", DEBUTANT, ORANGE, 0, loc, letter, lead),
            Unit("unit", DEBUTANT, BLUE, 0, loc, letter, ""),
        ]
        return ""
    colour = t.solo_colour[n - 1] or _fewer(state, item)
    if not colour:  # "In a tie, you choose."
        solo.agenda.insert(0, item)
        solo.asks = "colour"
        solo.say = (
            f"{lead}Card {n}: Strozzi has as many orange as blue pieces on the board: "
            f"you choose the colour."
        )
        return ""
    rank = DEBUTANT if noble == COSIMO else DONNA
    solo.agenda.insert(0, Unit("unit", rank, colour, int(noble == COSIMO), loc, letter, lead))
    return ""


def _fewer(state: FlorenceState, item: CardStep | Coloured) -> int:
    """Card 5: 'place whichever colour Strozzi has fewer pieces of on the board. In a tie,
    you choose' (0: the tie is still to be decided)."""
    orange, blue = on_board(state, ORANGE), on_board(state, BLUE)
    if orange != blue:
        return ORANGE if orange < blue else BLUE
    return item.colour if isinstance(item, Coloured) else 0


def unit(state: FlorenceState, item: Unit, events: list[Event]) -> str:
    """One piece deployed; a full location passes it on along the same order of places."""
    code = piece(item.colour, item.rank)
    what = piece_words(item.colour, item.rank)
    lead = item.lead
    if not state.supply[code]:
        recalled = recall(state, item.colour, events)
        if not recalled:
            return lead + f"Strozzi has no {what} left and none to take back: nothing is deployed."
        solo_of(state).agenda.insert(0, item._replace(lead=""))
        return lead + f"Strozzi has no {what} left: {recalled}"
    loc = item.loc
    if not free(state, loc):
        places = [p for _, p in deploy_places(state, item.letter)]
        later = [p for p in places[places.index(loc) + 1 :] if free(state, p)]
        if not later:
            return lead + f"No location has room for his {what}: nothing is deployed."
        loc = later[0]
    pos = place_piece(state, loc, code, bool(item.front))
    events.append(
        ev(
            "deployed",
            player=state.automa,
            location=loc + 1,
            position=pos + 1,
            rank=RANKS[item.rank],
            colour=COLOUR_WORDS[item.colour],
        )
    )
    return (
        lead + f"Strozzi deploys {a(what)} on location {loc + 1}, {ordinal(pos + 1)} in the queue."
    )


def recall(state: FlorenceState, colour: int, events: list[Event]) -> str:
    """The piece shortage: 'If Strozzi wants to deploy a piece of which he has none left:
    Move all deployed Family Members of that colour that aren't on a Noble Destination back
    to his supply. Place as indicated. If no Family Members can be removed this way, do
    nothing.' Returns what was done, in words ('' if nothing)."""
    keep = set(destinations(state))
    where = []
    for loc, q in enumerate(state.queues):
        if loc in keep:
            continue
        mine = [c for c in q if COLOUR[c] == colour]
        if mine:
            q[:] = [c for c in q if COLOUR[c] != colour]
            for c in mine:
                state.supply[c] += 1
            where.append(loc + 1)
    if not where:
        return ""
    events.append(
        ev("strozzi_recalled", player=state.automa, colour=COLOUR_WORDS[colour], locations=where)
    )
    places = ", ".join(map(str, where))
    return (
        f"his {COLOUR_WORDS[colour]} family members on location(s) {places} go back to his board."
    )


# --- Card 6: Time to Party -----------------------------------------------------------------
def party(state: FlorenceState, item: CardStep, events: list[Event]) -> str:
    """Card 6: 'Strozzi spends all his time, then Passes. ... If it is Giovanni's round, he
    will spend all time except 3, before passing.'"""
    automa = state.automa
    keep = GIOVANNI_KEEP if state.active_noble() == GIOVANNI else 0
    remaining = state.time[automa]  # harder: "2 VP per remaining Time when he resolves Card 6"
    spent = max(0, remaining - keep)
    state.time[automa] -= spent
    vp = PARTY_VP * remaining if solo_of(state).tune.harder_party else 0
    state.vp[automa] += vp
    events.append(ev("strozzi_party", player=automa, time=spent, vp=vp))
    text = f"Time to Party: Strozzi spends {spent} time"
    text += f" and scores {vp} VP. " if vp else ". "
    return item.lead + text + strozzi_pass(state, events)


# --- Card 7: A Friend of Mine --------------------------------------------------------------
def friend(state: FlorenceState, item: CardStep, events: list[Event]) -> str:
    """Card 7: 'Promote a Debutant (either colour) to a Donna on Noble A's Destination, if
    possible. Otherwise, do the same on Noble B or C's Destination. If there's a Donna present
    ..., no Debutant present, and / or no more available Donna pieces, promote the Donna to a
    Maestro instead. ... If there are no Family Members on any of the Destinations, perform a
    Brag action (below) instead.'"""
    lead = item.lead
    dests = destinations(state)
    found = _promotable(state, dests, supplied=True)
    if found is not None:
        return lead + promote(state, *found, events)
    if not any(has_member(state, state.automa, loc) for loc in dests):
        solo_of(state).agenda.insert(0, Coloured("brag", item.card, lead, brag_colour(state)))
        return ""
    wanted = _promotable(state, dests, supplied=False)
    if wanted is not None:  # "See the rule in the boxout above in case of a piece shortage."
        code = state.queues[wanted[0]][wanted[1]]
        recalled = recall(state, COLOUR[code], events)
        if recalled:
            solo_of(state).agenda.insert(0, CardStep("friend", item.card, ""))
            missing = piece_words(COLOUR[code], RANK[code] + 1)
            return lead + f"Strozzi has no {missing} left: {recalled}"
    return lead + "A Friend of Mine: Strozzi has no piece he can promote; nothing happens."


def _promotable(state: FlorenceState, dests: list[int], supplied: bool) -> tuple[int, int] | None:
    """(location, queue index) of the first of his Debutants, then Donnas, at each
    destination in turn (`supplied`: only one whose next rank he has left)."""
    owner = state.owner
    automa = state.automa
    for loc in dests:
        for rank in (DEBUTANT, DONNA):
            for i, code in enumerate(state.queues[loc]):
                if (
                    owner[code] == automa
                    and RANK[code] == rank
                    and (not supplied or state.supply[promoted(code)])
                ):
                    return loc, i
    return None


# --- Cards 8 & 9: Brag ---------------------------------------------------------------------
def brag(state: FlorenceState, item: CardStep | Coloured, events: list[Event]) -> str:
    """Cards 8 & 9: 'Strozzi performs a Brag on the 1st Location after Noble A's current
    position (following Noble arrows).' VP shown on the tile twice / three / four times, the
    token on the lowest / middle / highest space; 'He doesn't need to meet the condition, or
    have a piece there. If he can't Brag because the spot is occupied, move along the Noble
    Movement arrows until you find a Location with a Brag he can use.'"""
    t = state.tables
    lead = item.lead
    colour = item.colour if isinstance(item, Coloured) else t.solo_colour[item.card - 1]
    if not tokens_left(state, colour):
        colour = ORANGE + BLUE - colour  # that colour's six tokens are out: the other one
        if not tokens_left(state, colour):
            return lead + "Strozzi has no brag token left: no brag."
    spot = third(state)
    times = (EASIER_BRAG_TIMES if solo_of(state).tune.easier_brags else BRAG_TIMES)[spot]
    loc = _brag_location(state, spot)
    if loc < 0:
        return lead + "Every brag tile has his token or that space taken: no brag."
    return lead + brag_at(state, loc, spot, colour, times, events)


def _brag_location(state: FlorenceState, spot: int) -> int:
    """The first tile after Noble A's carriage, along the arrows, with `spot` free and no
    token of his (-1: none)."""
    t = state.tables
    automa = state.automa
    loc = t.route_next[state.carriage[state.active_noble()]]
    for _ in range(t.locations):
        spots = state.slots[loc]
        if state.tiles[loc] >= 0 and spots[spot] < 0 and automa not in spots:
            return loc
        loc = t.route_next[loc]
    return -1


# --- Card 10: Deploy a Guard ---------------------------------------------------------------
def guard(state: FlorenceState, item: CardStep, events: list[Event]) -> str:
    """Card 10: 'Strozzi deploys a Guard on a shield of Noble B, at Noble B's Destination (or
    just before it, if it's Cosimo). If the spot is taken, trace a path back along the Noble
    arrows until you find a Location where a Guard can be placed. If no such spots exist, or
    it's round 9, give Strozzi 2 VP instead.'"""
    automa = state.automa
    noble, dest = nobles_abc(state)[1]
    spot = None
    if state.round < state.tables.rounds and state.guards_left[automa]:
        spot = _shield(state, noble, dest)
    if spot is None:
        state.vp[automa] += GUARD_VP
        events.append(ev("strozzi_vp", player=automa, vp=GUARD_VP, reason="guard"))
        return item.lead + f"Strozzi places no guard and scores {GUARD_VP} VP instead."
    return item.lead + place_guard(state, noble, spot, events)


def _shield(state: FlorenceState, noble: int, dest: int) -> int | None:
    """The first free shield of `noble` tracing back from `dest`: a road (Cosimo: the one a
    Noble arrives by) or a location; None if every one is taken."""
    t = state.tables
    at = dest
    for _ in range(t.locations):
        prev = t.route_prev[at]
        if noble == COSIMO:
            road = t.road(prev, at)
            if road is not None and not state.escorts[road]:  # the park path has no shield
                return road
        elif not (state.spies if noble == CONTESSINA else state.bouncers)[at]:
            return at
        at = prev
    return None
