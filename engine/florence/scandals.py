"""Play a Scandal, and the twelve Scandal Cards of the back cover, one unit per card.

Each card holds its grammar (`scandal CARD ...`), the texts it offers while held, its
effect and its refusal, with the card's words in its docstring. `PlayAScandal` is the
action: it offers the cards in hand, pays (or gains) the time printed on the card,
and hands the rest to the card. The cards' notation names are the data's
(`[scandals]` in data.toml).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.core import Event, in_phases, revealing

from .actions import BRAG, DISPATCH, GIVE_A_GIFT, PROMOTE, RUSH, Action, Brag, GiveAGift, Move
from .hand import playable_cards, reveal
from .society import (
    RANK,
    cost_refusal,
    enter,
    ev,
    free,
    full_refusal,
    location,
    mine,
    piece,
    piece_index,
    piece_word,
    promoted,
    replaced,
)
from .structure import GAIN_TIME, PERFORM_ACTIONS
from .tables import DEBUTANT, NOBLES, RANKS

if TYPE_CHECKING:
    from .rules import FlorenceState


class ScandalCard:
    """One ability of a Noble's deck: 'Play 1 Scandal card, pay the time cost on it (if
    any) and perform the action on it.'"""

    name: ClassVar[str] = ""
    """The card's word in notation (`scandal NAME ...`)."""
    heading: ClassVar[str] = ""
    """The card's line on the back cover, as printed."""

    def cost(self, state: FlorenceState) -> int:
        return state.tables.card(self.name).cost

    def texts(self, state: FlorenceState, s: int) -> list[str]:
        """The legal texts of playing this card, held by seat `s`."""
        if state.time[s] < self.cost(state):
            return []
        return self.offers(state, s)

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        return []

    def play(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        """Pay (or gain) the card's time, then its effect; True while it goes on (a
        journey, step by step)."""
        cost = self.cost(state)
        if cost >= 0:
            state.time[s] -= cost
        else:
            GAIN_TIME.gain(state, s, -cost)
        return self.effect(state, s, args, events)

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        raise NotImplementedError

    def refuse(self, state: FlorenceState, s: int, args: list[str]) -> str | None:
        """Why playing this card with `args` is not possible for `s` (it holds the card)."""
        cost = self.cost(state)
        if cost > state.time[s]:
            return cost_refusal(f"The {self.name} scandal", cost, state.time[s])
        return self.refusal(state, s, args)

    def refusal(self, state: FlorenceState, s: int, args: list[str]) -> str | None:
        return None


# --- Cosimo (Figlisto) -------------------------------------------------------------------
class FiglistoGuard(ScandalCard):
    """'Figlisto, -2: Place a Guard anywhere on the board, even if another player's Guard
    is already there. You may place any of the 3 Guard types. The existing Guard's effect
    is unchanged.' (ruling 20: any shield without a guard of one's own)"""

    name = "guard"
    heading = "Figlisto, -2: Place a Guard anywhere on the board"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        if not state.guards_left[s]:
            return []
        return [
            f"scandal guard {g}"
            for noble in NOBLES
            for g in GiveAGift.guard_texts(state, s, noble, True)
        ]

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        GiveAGift.place_guard(state, s, args, events)
        return False


class FiglistoCarry(ScandalCard):
    """'Figlisto, -2: Move 1 of your deployed Family Members to any Location (any number
    of spaces away.) Ignores Escorts.' (ruling 21: to another location with room)"""

    name = "carry"
    heading = "Figlisto, -2: Move 1 of your deployed Family Members to any Location"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        t = state.tables
        ln = t.loc_names
        queues = state.queues
        cap = state.cap
        out = []
        for loc, i, code in mine(state, s):
            head = f"scandal carry {ln[loc]} {piece_word(code, i)} "
            for d in range(t.locations):
                if d != loc and len(queues[d]) < cap[d]:
                    out.append(head + ln[d])
        return out

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        loc = int(args[0]) - 1
        code = state.queues[loc].pop(piece_index(args[1]))
        Move.relocate(state, s, loc, code, int(args[2]) - 1, events, False)
        return False

    def refusal(self, state: FlorenceState, s: int, args: list[str]) -> str | None:
        if len(args) != 3:
            return None
        b = location(state, args[2])
        if b is not None and not free(state, b):
            return full_refusal(state, b)
        return None


class FiglistoJourney(ScandalCard):
    """'Figlisto, -3: Move 1-2 of your Family Members 1-3 spaces each.' (ruling 22: steps
    along roads, Escorts pay, a full location may be crossed but not stopped on; `stop`
    ends the journey after any step)"""

    name = "journey"
    heading = "Figlisto, -3: Move 1-2 of your Family Members 1-3 spaces each"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        return RUSH.first_steps(state, s, "scandal journey", 2)

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        RUSH.start(state, s, "journey", args, events)
        return True

    def refusal(self, state: FlorenceState, s: int, args: list[str]) -> str | None:
        if len(args) != 3:
            return None
        return Move.path_refusal(state, s, ["journey", *args], "journey", 0)


class FiglistoDeploy(ScandalCard):
    """'Figlisto, -2: Deploy a Debutant at any Location where you already have a Donna or
    a Maestro.'"""

    name = "deploy"
    heading = "Figlisto, -2: Deploy a Debutant"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        if not state.supply[piece(state.colour(s), DEBUTANT)]:
            return []
        ln = state.tables.loc_names
        owner = state.owner
        cap = state.cap
        return [
            f"scandal deploy {ln[loc]}"
            for loc, q in enumerate(state.queues)
            if len(q) < cap[loc] and any(owner[c] == s and RANK[c] > DEBUTANT for c in q)
        ]

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        DISPATCH.deploy(state, s, int(args[0]) - 1, events, "deployed")
        return False

    def refusal(self, state: FlorenceState, s: int, args: list[str]) -> str | None:
        if len(args) != 1:
            return None
        loc = location(state, args[0])
        if loc is None:
            return None
        if not free(state, loc):
            return full_refusal(state, loc)
        return "Deploy a Debutant only where you already have a Donna or a Maestro."


# --- Contessina (Carissima) ----------------------------------------------------------------
class CarissimaGift(ScandalCard):
    """'Carissima, -2*: Gift a Gift to any Noble, regardless of Location. Pay the normal
    cost (2 + 1 per Gift you've given the Noble.) You do not need to share a Location
    with their Carriage to do this.'"""

    name = "gift"
    heading = "Carissima, -2*: Gift a Gift to any Noble, regardless of Location"

    def texts(self, state: FlorenceState, s: int) -> list[str]:
        if not state.gifts_left[s]:
            return []
        time = state.time[s]
        cost = self.cost(state)
        given = state.given[s]
        out = []
        for noble in NOBLES:
            if time >= cost + given[noble]:
                out += GiveAGift.gift_texts(state, s, noble, "scandal gift")
        return out

    def play(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        """The gift's own cost is paid: 'Pay the normal cost'."""
        GIVE_A_GIFT.give(state, s, state.tables.nobles.index(args[0]), args[1:], events)
        return False

    def refuse(self, state: FlorenceState, s: int, args: list[str]) -> str | None:
        return GiveAGift.gift_refusal(state, s, ["gift", *args], anywhere=True)


class CarissimaUsurp(ScandalCard):
    """'Carissima, -3: Swap 1 of your Family Members with a lower-ranked piece at an
    orthogonally-adjacent Location. The replaced piece joins the queue as if they moved
    there.' (ruling 23: anyone's piece, both join as arrivals, no Escorts)"""

    name = "usurp"
    heading = "Carissima, -3: Swap 1 of your Family Members with a lower-ranked piece"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        t = state.tables
        ln = t.loc_names
        queues = state.queues
        out = []
        for loc, i, code in mine(state, s):
            r = RANK[code]
            head = f"scandal usurp {ln[loc]} {piece_word(code, i)} "
            for d, _ in t.neighbours[loc]:
                for j, other in enumerate(queues[d]):
                    if RANK[other] < r:
                        out.append(f"{head}{ln[d]} {piece_word(other, j)}")
        return out

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        a, b = int(args[0]) - 1, int(args[2]) - 1
        own = state.queues[a].pop(piece_index(args[1]))
        theirs = state.queues[b].pop(piece_index(args[3]))
        enter(state, b, own)
        enter(state, a, theirs)
        events.append(ev("swapped", player=s, origin=a + 1, to=b + 1, other=state.owner[theirs]))
        return False


class CarissimaPromote(ScandalCard):
    """'Carissima, -3: Promote a Debutant to a Donna.'"""

    name = "promote"
    heading = "Carissima, -3: Promote a Debutant to a Donna"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        ln = state.tables.loc_names
        supply = state.supply
        return [
            f"scandal promote {ln[loc]} {piece_word(code, i)}"
            for loc, i, code in mine(state, s)
            if RANK[code] == DEBUTANT and supply[promoted(code)]
        ]

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        PROMOTE.promote(state, s, int(args[0]) - 1, piece_index(args[1]), events)
        return False


class CarissimaAdvance(ScandalCard):
    """'Carissima, -2: Move 1 of your Family Members as far ahead in their queue as they
    can while respecting Seniority.' (ruling 24: offered only when it passes another
    player's piece of its rank)"""

    name = "advance"
    heading = "Carissima, -2: Move 1 of your Family Members as far ahead in their queue"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        ln = state.tables.loc_names
        owner = state.owner
        out = []
        for loc, i, code in mine(state, s):
            q = state.queues[loc]
            r = RANK[code]
            j = i - 1
            while j >= 0 and RANK[q[j]] == r and owner[q[j]] == s:
                j -= 1
            if j >= 0 and RANK[q[j]] == r:
                out.append(f"scandal advance {ln[loc]} {piece_word(code, i)}")
        return out

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        loc = int(args[0]) - 1
        code = state.queues[loc].pop(piece_index(args[1]))
        j = enter(state, loc, code, ahead=True)
        events.append(ev("advanced", player=s, location=loc + 1, position=j + 1))
        return False

    def refusal(self, state: FlorenceState, s: int, args: list[str]) -> str | None:
        if len(args) != 2:
            return None
        return (
            "That piece cannot get further ahead: 'as far ahead in their queue as they can "
            "while respecting Seniority' would pass no other player's piece of its rank."
        )


# --- Giovanni (Messere) -------------------------------------------------------------------
class MessereRecall(ScandalCard):
    """'Messere, -2: Remove 1 of your Brag tokens from the board, and put it back in your
    area. You do not lose the VP you gained when you completed the Brag.'"""

    name = "recall"
    heading = "Messere, -2: Remove 1 of your Brag tokens from the board"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        ln = state.tables.loc_names
        return [f"scandal recall {ln[loc]}" for loc, spots in enumerate(state.slots) if s in spots]

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        loc = int(args[0]) - 1
        spots = state.slots[loc]
        state.slots[loc] = replaced(spots, spots.index(s), -1)
        state.markers_left[s] += 1
        events.append(ev("brag_recalled", player=s, location=loc + 1))
        return False


class MessereReorder(ScandalCard):
    """'Messere, -2: Swap any 2 Family Members in a queue, respecting Seniority rules.'
    (ruling 9: two pieces of one rank, not identical)"""

    name = "reorder"
    heading = "Messere, -2: Swap any 2 Family Members in a queue"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        ln = state.tables.loc_names
        out = []
        for loc, q in enumerate(state.queues):
            for i, a in enumerate(q):
                for j in range(i + 1, len(q)):
                    b = q[j]
                    if RANK[a] != RANK[b]:
                        break
                    if a != b:
                        out.append(
                            f"scandal reorder {ln[loc]} {piece_word(a, i)} {piece_word(b, j)}"
                        )
        return out

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        q = state.queues[int(args[0]) - 1]
        i, j = piece_index(args[1]), piece_index(args[2])
        q[i], q[j] = q[j], q[i]
        events.append(ev("reordered", player=s, location=int(args[0]), positions=[i + 1, j + 1]))
        return False

    def refusal(self, state: FlorenceState, s: int, args: list[str]) -> str | None:
        if len(args) != 3:
            return None
        return (
            "Swap two pieces of the same rank ('respecting Seniority rules') and different "
            "colours in one queue: swapping identical pieces would change nothing."
        )


class MessereExile(ScandalCard):
    """'Messere, +3: Permanently remove 1 of your Family Members from the board. Note that
    this card gains you 3 time, instead of costing time. You may not redeploy the Family
    Member, so do not return them to your player board.'"""

    name = "exile"
    heading = "Messere, +3: Permanently remove 1 of your Family Members from the board"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        ln = state.tables.loc_names
        return [f"scandal exile {ln[loc]} {piece_word(code, i)}" for loc, i, code in mine(state, s)]

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        loc = int(args[0]) - 1
        code = state.queues[loc].pop(piece_index(args[1]))
        state.exiled[code] += 1
        events.append(ev("exiled", player=s, location=loc + 1, rank=RANKS[RANK[code]]))
        return False


class MessereBrag(ScandalCard):
    """'Messere, -1: Perform any Brag on the board, regardless of Location. You do not need
    a Family Member present. There must still be an available spot.' (ruling 16: the card
    leaves the hand before Scandalous counts it)"""

    name = "brag"
    heading = "Messere, -1: Perform any Brag on the board, regardless of Location"

    def offers(self, state: FlorenceState, s: int) -> list[str]:
        if not state.markers_left[s]:
            return []
        return Brag.brag_texts(state, s, "scandal brag", anywhere=True)

    def effect(self, state: FlorenceState, s: int, args: list[str], events: list[Event]) -> bool:
        BRAG.brag(state, s, int(args[0]) - 1, events)
        return False

    def refusal(self, state: FlorenceState, s: int, args: list[str]) -> str | None:
        return Brag.brag_refusal(state, s, ["brag", *args], anywhere=True)


CARDS: dict[str, ScandalCard] = {
    card.name: card
    for card in (
        FiglistoGuard(),
        FiglistoCarry(),
        FiglistoJourney(),
        FiglistoDeploy(),
        CarissimaGift(),
        CarissimaUsurp(),
        CarissimaPromote(),
        CarissimaAdvance(),
        MessereRecall(),
        MessereReorder(),
        MessereExile(),
        MessereBrag(),
    )
}
"""Every scandal card by its notation name."""


class PlayAScandal(Action):
    """'Play a Scandal (? time): Play 1 Scandal card, pay the time cost on it (if any) and
    perform the action on it. This counts as your 1 allowed action. When cards are played,
    form a discard pile for each Noble.'"""

    heading = "Play a Scandal"
    verb = "scandal"
    plays = in_phases(actions=("scandal",), moving=("stop",))
    # the card played leaves the hand face up onto its Noble's discard pile
    reveals = revealing(scandal_played="the scandal card was played face up")

    def texts(self, state: FlorenceState) -> list[str]:
        s = state.turn
        if state.phase == "moving":
            tr = state.travel
            assert tr is not None
            return ["stop"] if tr.kind == "journey" and tr.queue_index >= 0 else []
        if state.passed[s]:
            return []
        out: list[str] = []
        for card in playable_cards(state, s):
            out += CARDS[card].texts(state, s)
        return out

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        if verb == "stop":
            RUSH.finish(state, s, events)
            return
        card, *args = arg.split()
        t = state.tables
        reveal(state, s, card)
        events.append(ev("scandal_played", player=s, card=card, noble=t.nobles[t.card(card).noble]))
        if not CARDS[card].play(state, s, args, events):
            PERFORM_ACTIONS.end_turn(state, s, events)

    def refuse(self, state: FlorenceState, verb: str, arg: str) -> str | None:
        if verb == "stop":
            return None
        return super().refuse(state, verb, arg)

    def refusal(self, state: FlorenceState, seat: int, words: list[str]) -> str | None:
        t = state.tables
        if len(words) < 2 or words[1] not in t.card_index:
            return f"Name the scandal card: {', '.join(t.card_index)}."
        card = words[1]
        if card not in playable_cards(state, seat):
            return f"You hold no '{card}' scandal card."
        return CARDS[card].refuse(state, seat, words[2:])


PLAY_A_SCANDAL = PlayAScandal()
