"""Words for the table: what a Florence state waits for, why input was refused,
and the invariants the conformance suite checks.

Kept apart from the rules so the hot path stays small; none of this runs while
a legal action is applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import seat_name

from . import solo
from .rules import SEAT_PHASES
from .tables import DEBUTANT, MAESTRO, RANK_OF, RANKS

if TYPE_CHECKING:
    from .rules import FlorenceState

SEAT_VERBS = (
    "place", "pass", "bonus", "move", "rush", "step", "stop", "brag", "dispatch", "promote",
    "gift", "scandal", "discard", "keep", "claim", "decline", "done", "ok", "choose",
)  # fmt: skip
CHANCE_VERBS = ("tile", "carriage", "token", "first", "draw", "scheme", "solo")
ACTION_VERBS = ("pass", "move", "rush", "brag", "dispatch", "promote", "gift", "scandal")


def _who(seat: int) -> str:
    return seat_name(seat).capitalize()


def describe(state: FlorenceState) -> str:
    """A sentence about what the state waits for."""
    t = state.tables
    phase = state.phase
    if phase == "over":
        if state.automa >= 0:
            you, him = state.vp[0], state.vp[state.automa]
            result = "you win" if state.winner() else "Strozzi wins"
            return f"The game is over: you have {you} VP, Strozzi {him}; {result}."
        return "The game is over."
    if state.automa >= 0 and state.turn == state.automa and phase in SEAT_PHASES:
        return _describe_strozzi(state)
    if phase in ("setup", "cleanup", "noble_movement", "schemes"):
        kind, detail = state._chance_step()
        if kind == "tile":
            return f"Deal a brag tile face up onto location {detail + 1}."
        if kind == "carriage":
            return f"Place {t.nobles[detail].capitalize()}'s carriage on a random location."
        if kind == "location":
            return f"Draw the location token for round {detail + 1}."
        if kind == "time":
            return f"Draw the time token for round {detail + 1}."
        if kind == "first":
            return "Give a random player the 1st player marker."
        if kind == "draw":
            seat = state.pending[0]
            deck = f"{t.nobles[detail].capitalize()}'s deck"
            if seat == state.automa:
                return f"Strozzi earned a scandal card: discard the top card of {deck}; name it."
            return f"{_who(seat)} draws a scandal card from {deck}."
        return f"Reveal {seat_name(detail)}'s scheme card."
    seat = state.turn
    if phase == "placement":
        return f"{_who(seat)} places a free debutant on a location with no family member."
    if phase == "actions":
        if state.passed[seat]:
            return f"{_who(seat)} has passed and picks a bonus: time, VP or a swap at the ring."
        return f"{_who(seat)} takes an action ({state.time[seat]} time left)."
    if phase == "moving":
        travel = state.travel
        assert travel is not None
        what = "rush" if travel[0] == "rush" else "journey"
        return f"{_who(seat)} continues the {what}: the next step."
    if phase == "hand_limit":
        noble = t.nobles[state.active_noble()].capitalize()
        return (
            f"{_who(seat)} holds {t.hand_limit} scandal cards, the limit, and earns one from "
            f"{noble}'s deck: discard a card first (1 time) to take it, or keep your hand and "
            f"gain 1 time instead."
        )
    if phase == "queue_scoring":
        vp, cost = t.giovanni[state.round][state.gio_award]
        return (
            f"{_who(seat)} may pay {cost} time to Giovanni for award {state.gio_award + 1} "
            f"({vp} VP), or decline."
        )
    return f"{_who(seat)} may trade scandal cards for time before the final scoring."


def _describe_strozzi(state: FlorenceState) -> str:
    if state.asks == "ok":
        return f"{state.solo_say} Move his pieces at the table, then confirm with ok."
    if state.asks == "colour":
        return state.solo_say + " Say 'choose orange' or 'choose blue'."
    return "Strozzi's turn: turn over the next card of his solo deck."


def _explain_solo(state: FlorenceState, verb: str, words: list[str]) -> str | None:
    """Refusals that concern Strozzi's turn or the solo verbs."""
    waiting = state.turn == state.automa and state.phase in SEAT_PHASES
    if waiting and state.asks == "ok":
        return f"Strozzi's step waits for your ok first. {_describe_strozzi(state)}"
    if waiting and state.asks == "colour":
        return "Card 5 is a tie: 'In a tie, you choose.' Say 'choose orange' or 'choose blue'."
    if waiting:
        if verb == "solo" and len(words) == 2:
            pool = solo.draw_pool(state)
            if words[1].isdigit() and 1 <= int(words[1]) <= solo.CARDS:
                if state.solo_aside >> (int(words[1]) - 1) & 1:
                    return (
                        f"Card {words[1]} was his first card this round: 'Draw a new card, and "
                        f"shuffle this one back into the draw deck': the new card comes first."
                    )
                if state.solo_top_left and state.solo_deck >> (int(words[1]) - 1) & 1:
                    return (
                        f"Card {words[1]} is in Strozzi's deck but not among the "
                        f"{state.solo_top_left} card(s) kept on top at the last cleanup."
                    )
                return f"Card {words[1]} is on Strozzi's discard pile, not in his deck."
            return f"Strozzi's cards are numbered 1-{solo.CARDS}." if pool else None
        return f"It is Strozzi's turn. {_describe_strozzi(state)}"
    if verb in ("ok", "choose", "solo"):
        return f"'{verb}' belongs to Strozzi's turn in a solo game. {describe(state)}"
    return None


def _loc(t_names: tuple[str, ...], word: str) -> int | None:
    return t_names.index(word) if word in t_names else None


def _full(state: FlorenceState, loc: int) -> str:
    cap = state.cap[loc]
    why = f"Location {loc + 1} is full: a queue holds at most {cap} family members"
    if cap < state.tables.spaces:
        why += f" with {state.players} players (the other spaces are covered by queue blockers)"
    elif cap == 7:
        why += ", so an eighth cannot join"
    return why + "."


def _cost(what: str, cost: int, have: int) -> str:
    return f"{what} costs {cost} time and you have {have}: you cannot pay time you do not have."


def _piece(state: FlorenceState, seat: int, loc: int, word: str, own: bool = True) -> str | None:
    """Why `word` names no suitable piece at `loc`, or None when it does."""
    head = word.rstrip("0123456789")
    if head not in RANK_OF or head == word:
        return (
            f"'{word}' is not a family member: name it by rank and queue position, "
            f"like debutant3 or donna1."
        )
    idx = int(word[len(head) :]) - 1
    q = state.queues[loc]
    if not 0 <= idx < len(q) or q[idx] & 3 != RANK_OF[head]:
        return f"There is no {head} in position {idx + 1} at location {loc + 1}."
    if own and state.owner[q[idx]] != seat:
        return f"The {head} in position {idx + 1} at location {loc + 1} is not yours."
    return None


def _move_reason(
    state: FlorenceState, seat: int, words: list[str], what: str, cost: int
) -> str | None:
    t = state.tables
    if len(words) != 4:
        return (
            f"A {what} names a location, a family member and where it goes, "
            f"like '{what} 5 debutant2 6'."
        )
    a, b = _loc(t.loc_names, words[1]), _loc(t.loc_names, words[3])
    if a is None or b is None:
        return f"Locations are numbered 1-{t.locations}."
    if cost and state.time[seat] < cost:
        return _cost(f"A {what.capitalize()}", cost, state.time[seat])
    if what != "step":
        why = _piece(state, seat, a, words[2])
        if why:
            return why
    pair = (a, b) if a < b else (b, a)
    if pair in t.nobles_only:
        return (
            f"Only Nobles use the diagonal path between {pair[0] + 1} and {pair[1] + 1} through "
            f"the park: family members move along roads with a shield."
        )
    if pair not in t.road_index:
        return (
            f"Location {b + 1} is not orthogonally adjacent to {a + 1}: a move follows one road "
            f"with a shield to the next location."
        )
    if all(d != b for d, _ in state.nbrs[a]):
        return (
            f"Strozzi has a guard on the road {pair[0] + 1}-{pair[1] + 1}: you cannot move "
            f"along paths where Strozzi has a Guard (harder solo game)."
        )
    if not state._free(b):
        if what == "move":
            return _full(state, b) + " If a location has no empty spaces, you may not Move there."
        return _full(state, b) + " A piece may pass through a full location but not stop there."
    return None


def _brag_reason(state: FlorenceState, seat: int, words: list[str], anywhere: bool) -> str | None:
    t = state.tables
    if len(words) != 3:
        return "A brag names the location of the tile and the spot, like 'brag 5 7-12'."
    loc = _loc(t.loc_names, words[1])
    if loc is None:
        return f"Locations are numbered 1-{t.locations}."
    if not anywhere and state.time[seat] < t.cost["brag"]:
        return _cost("A Brag", t.cost["brag"], state.time[seat])
    if not anywhere and not state.has_member(seat, loc):
        return (
            f"You may only Brag with 1 or more Family Members on location {loc + 1}, "
            f"the Brag tile's location."
        )
    if not state.markers_left[seat]:
        return "You have no Brag marker left: you must have at least 1 Brag marker."
    if seat in state.slots[loc * 3 : loc * 3 + 3]:
        return f"You already have a marker on the brag at location {loc + 1}."
    tile = t.tiles[state.tiles[loc]]
    vp = state.brag_vp(seat, loc, played=1 if anywhere else 0)
    spot = state.brag_spot(loc, vp)
    if spot < 0:
        return (
            f"Your brag on location {loc + 1} scores {vp} VP and every spot up to its range is "
            f"taken: if there are no such spots, you may not choose to take this action."
        )
    label = tile.labels[spot]
    if words[2] != label:
        if words[2] in tile.labels and state.slots[loc * 3 + tile.labels.index(words[2])] >= 0:
            return (
                f"The {words[2]} spot on location {loc + 1} is taken. Your brag scores {vp} VP, "
                f"so its marker goes on the {label} spot (the next lowest empty spot)."
            )
        return (
            f"Your brag on location {loc + 1} scores {vp} VP: its marker goes on the {label} spot."
        )
    return None


def _gift_reason(state: FlorenceState, seat: int, words: list[str], anywhere: bool) -> str | None:
    t = state.tables
    if len(words) < 2 or words[1] not in t.nobles:
        return f"Gifts go to a Noble: {', '.join(t.nobles)}."
    noble = t.nobles.index(words[1])
    if not state.gifts_left[seat]:
        return "You have no Gift left: if you've already placed all your gifts, you can't give one."
    given = state.given[seat * 3 + noble]
    cost = t.cost["gift"] + given
    if state.time[seat] < cost:
        return _cost(f"Gift number {given + 1} to {words[1].capitalize()}", cost, state.time[seat])
    carriage = state.carriage[noble]
    if not anywhere and not state.has_member(seat, carriage):
        return (
            f"You must have a Family Member at the location of {words[1].capitalize()}'s "
            f"carriage (location {carriage + 1}) to give a gift to that Noble."
        )
    if len(words) == 4:
        kind = t.guard_kinds[noble]
        if words[2] != kind:
            return f"{words[1].capitalize()}'s shields take a guard as {kind}."
        return (
            "That shield is not free: the guard goes onto 1 unoccupied shield "
            "of the Noble's colour."
        )
    return None


def explain(state: FlorenceState, text: str) -> str | None:
    """Why `text` is not allowed now, naming the rule; None for the generic message."""
    words = text.split()
    if not words:
        return "Say what to do: an action starts with a verb such as move, brag or pass."
    verb = words[0]
    t = state.tables
    if verb not in SEAT_VERBS and verb not in CHANCE_VERBS:
        return f"'{verb}' is not Florence notation: see docs/notation.md, section Florence."
    phase = state.phase
    seat = state.turn
    if verb in ("ok", "choose", "solo") or (
        state.automa >= 0 and seat == state.automa and phase in SEAT_PHASES
    ):
        return _explain_solo(state, verb, words)
    if verb in CHANCE_VERBS:
        if verb == "draw" and phase == "noble_movement":
            noble = t.nobles[state.active_noble()]
            card = words[2] if len(words) == 3 else "?"
            if len(words) != 3 or words[1] != noble:
                return f"The card is drawn from the active Noble's deck: 'draw {noble} CARD'."
            if card not in t.card_index or t.cards[t.card_index[card]].noble != t.nobles.index(
                noble
            ):
                return f"'{card}' is not one of {noble.capitalize()}'s scandal cards."
            return f"No '{card}' card is left in {noble.capitalize()}'s draw pile."
        return None
    if phase == "actions" and verb in ACTION_VERBS and state.passed[seat]:
        return "Once you have passed, you cannot perform more actions this round: pick a bonus."
    if verb == "bonus" and (phase != "actions" or not state.passed[seat]):
        return "A bonus is picked when your turn comes again after you have passed."
    if verb in ACTION_VERBS and phase != "actions":
        return f"'{verb}' is an action of the Perform Actions phase. {describe(state)}"
    if verb == "keep" and phase != "hand_limit":
        return (
            f"'keep' answers the hand limit: 'You can hold up to {t.hand_limit} Scandals at "
            f"once. For each Scandal gained over your limit, instead gain 1 time.'"
        )
    if verb in ("claim", "decline") and phase != "queue_scoring":
        return "Only Giovanni's queue scoring is claimed or declined."
    if verb == "claim":
        vp, cost = t.giovanni[state.round][state.gio_award]
        return _cost(f"Giovanni's award {state.gio_award + 1} ({vp} VP)", cost, state.time[seat])
    if verb == "discard":
        if len(words) == 2 and words[1] in t.card_index:
            return f"You hold no '{words[1]}' scandal card that could be discarded."
        return "Discard names a scandal card in your hand, like 'discard journey'."
    if verb == "pass":
        last = state.npassed == state.seats - 1
        if last and len(words) > 1:
            return "The last player to pass places no ring: the round's actions end at once."
        if not last and len(words) == 1:
            return "Passing places your ring on a location: say which, like 'pass 6'."
        loc = _loc(t.loc_names, words[1]) if len(words) == 2 else None
        if loc is not None and loc in state.rings:
            owner = state.rings.index(loc)
            return (
                f"{_who(owner)}'s ring is on location {loc + 1}: you cannot place your ring "
                f"where someone has placed theirs."
            )
        return None
    if verb in ("move", "rush", "step"):
        if verb == "step" and phase != "moving":
            return "'step' continues a Rush or a journey already under way."
        cost = {"move": t.cost["move"], "rush": t.cost["rush"]}.get(verb, 0)
        return _move_reason(state, seat, words, verb, cost)
    if verb == "dispatch":
        if state.time[seat] < t.cost["dispatch"]:
            return _cost("Dispatch", t.cost["dispatch"], state.time[seat])
        if not state.supply[state.colour(seat) * 4 + DEBUTANT]:
            return "All your Debutants are on the main board: you may not Dispatch."
        loc = _loc(t.loc_names, words[1]) if len(words) == 2 else None
        if loc is not None and not state._free(loc):
            return _full(state, loc)
        return None
    if verb == "promote":
        if state.time[seat] < t.cost["promote"]:
            return _cost("Promote", t.cost["promote"], state.time[seat])
        return _promote_reason(state, seat, words[1:])
    if verb == "brag":
        return _brag_reason(state, seat, words, anywhere=False)
    if verb == "gift":
        return _gift_reason(state, seat, words, anywhere=False)
    if verb == "scandal":
        return _scandal_reason(state, seat, words)
    return None


def _promote_reason(state: FlorenceState, seat: int, args: list[str]) -> str | None:
    t = state.tables
    if len(args) != 2 or _loc(t.loc_names, args[0]) is None:
        return "Promote names a location and your piece there, like 'promote 6 debutant3'."
    loc = t.loc_names.index(args[0])
    why = _piece(state, seat, loc, args[1])
    if why:
        return why
    rank = RANK_OF[args[1].rstrip("0123456789")]
    if rank == MAESTRO:
        return "A Maestro is the highest rank: it cannot be promoted."
    idx = int(args[1][len(RANKS[rank]) :]) - 1
    if not state.supply[state.queues[loc][idx] + 1]:
        return f"You have no {RANKS[rank + 1]} left on your player board."
    return None


def _scandal_reason(state: FlorenceState, seat: int, words: list[str]) -> str | None:
    t = state.tables
    if len(words) < 2 or words[1] not in t.card_index:
        return f"Name the scandal card: {', '.join(t.card_index)}."
    card = words[1]
    if card not in state._playable_cards(seat):
        return f"You hold no '{card}' scandal card."
    info = t.cards[t.card_index[card]]
    if card == "gift":
        return _gift_reason(state, seat, words[1:], anywhere=True)
    if info.cost > state.time[seat]:
        return _cost(f"The {card} scandal", info.cost, state.time[seat])
    args = words[2:]
    if card in ("carry", "journey") and len(args) == 3:
        b = _loc(t.loc_names, args[2])
        if b is not None and not state._free(b) and card == "carry":
            return _full(state, b)
        if card == "journey":
            return _move_reason(state, seat, ["journey", *args], "journey", 0)
    if card == "deploy" and len(args) == 1:
        loc = _loc(t.loc_names, args[0])
        if loc is not None and not state._free(loc):
            return _full(state, loc)
        if loc is not None:
            return "Deploy a Debutant only where you already have a Donna or a Maestro."
    if card == "brag":
        return _brag_reason(state, seat, ["brag", *args], anywhere=True)
    if card == "advance" and len(args) == 2:
        return (
            "That piece cannot get further ahead: 'as far ahead in their queue as they can "
            "while respecting Seniority' would pass no other player's piece of its rank."
        )
    if card == "reorder" and len(args) == 3:
        return (
            "Swap two pieces of the same rank ('respecting Seniority rules') and different "
            "colours in one queue: swapping identical pieces would change nothing."
        )
    return None


def invariants(state: FlorenceState) -> list[str]:
    """Broken invariants: conserved pieces, time 0..12, queues in order and within size."""
    t = state.tables
    n = state.seats
    broken: list[str] = []
    if not 0 <= state.round <= t.rounds:
        broken.append(f"round {state.round} out of 0..{t.rounds}")
    colours = len(state.colours)
    on_board = [0] * (4 * colours)
    for loc, q in enumerate(state.queues):
        for code in q:
            on_board[code] += 1
        if len(q) > state.cap[loc]:
            broken.append(f"location {loc + 1} holds {len(q)} > {state.cap[loc]} family members")
        if any((q[i] & 3) < (q[i + 1] & 3) for i in range(len(q) - 1)):
            broken.append(f"queue at location {loc + 1} is out of seniority order")
    if state.travel is not None and state.travel[2] < 0:
        on_board[state.travel[3]] += 1
    for c in range(colours):
        for r in (1, 2, 3):
            k = c * 4 + r
            if min(state.supply[k], state.exiled[k]) < 0 or (
                state.supply[k] + on_board[k] + state.exiled[k] != t.family[r]
            ):
                broken.append(f"colour {c + 1}: {RANKS[r]}s not conserved")
    guards = [0] * n
    for group in (state.escorts, state.spies, state.bouncers):
        for stack in group:
            for c in stack:
                guards[state.colours[c]] += 1
    for s in range(n):
        sets = state.colours.count(s)  # the solo automa plays two colours' components
        if not 0 <= state.time[s] <= t.time_max:
            broken.append(f"seat {s + 1}: time {state.time[s]} out of 0..{t.time_max}")
        if state.vp[s] < 0:
            broken.append(f"seat {s + 1}: negative VP")
        markers = sum(1 for x in state.slots if x == s)
        if state.markers_left[s] < 0 or state.markers_left[s] + markers != t.brag_markers * sets:
            broken.append(f"seat {s + 1}: brag markers not conserved")
        if state.guards_left[s] < 0 or state.guards_left[s] + guards[s] != t.guards * sets:
            broken.append(f"seat {s + 1}: guards not conserved")
        given = sum(state.given[s * 3 : s * 3 + 3])
        if state.gifts_left[s] < 0 or state.gifts_left[s] + given > t.gifts * sets:
            broken.append(f"seat {s + 1}: more gifts than the 6 of a colour")
        if len(state.hands[s]) > t.hand_limit:
            broken.append(f"seat {s + 1}: more than {t.hand_limit} scandal cards")
    for loc in range(t.locations):
        spot = state.slots[loc * 3 : loc * 3 + 3]
        seats = [x for x in spot if x >= 0]
        if len(set(seats)) != len(seats):
            broken.append(f"location {loc + 1}: a player has two brag markers on one tile")
    rings = [r for r in state.rings if r >= 0]
    if len(set(rings)) != len(rings):
        broken.append("two pass rings on one location")
    if sum(state.passed) != state.npassed:
        broken.append("pass count differs from passed players")
    per_deck = t.copies * 4
    for noble, name in enumerate(t.nobles):
        base = noble * 4
        in_hands = sum(
            1
            for hand in state.hands
            for c in hand
            if c == name or (c in t.card_index and t.card_index[c] // 4 == noble)
        )
        discarded = sum(state.discard[base : base + 4])
        if state.deck_left[noble] + discarded + in_hands != per_deck:
            broken.append(f"{name}'s scandal cards not conserved")
        if state.draw_mode and sum(state.deck[base : base + 4]) != state.deck_left[noble]:
            broken.append(f"{name}'s draw pile count differs from its cards")
        if any(state.discard[i] > t.copies for i in range(base, base + 4)):
            broken.append(f"{name}: more copies of a card revealed than exist")
    if state.automa >= 0:
        broken += _solo_invariants(state)
    return broken


def _solo_invariants(state: FlorenceState) -> list[str]:
    """Strozzi's deck, brag tokens and pending steps."""
    a = state.automa
    broken = []
    if state.solo_top & ~state.solo_deck or state.solo_top_left > state.solo_top.bit_count():
        broken.append("Strozzi's cards kept on top are not in his deck")
    if state.solo_aside & state.solo_deck or state.solo_aside.bit_count() > 1:
        broken.append("Strozzi's card set aside is also in his deck")
    for k, seat in enumerate(state.slots):
        if (seat == a) != (state.solo_marks[k] >= 0):
            broken.append(f"brag spot {k}: Strozzi's token without its colour, or the reverse")
    for colour in (solo.ORANGE, solo.BLUE):
        if state.solo_marks.count(colour) > state.tables.brag_markers:
            broken.append(f"Strozzi has more {solo.COLOUR_WORDS[colour]} brag tokens out than 6")
    if state.hands[a]:
        broken.append("Strozzi holds scandal cards")
    if (state.asks or state.agenda) and state.turn != a:
        broken.append("Strozzi has steps pending outside his turn")
    return broken
