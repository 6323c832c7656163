"""Scandal Cards: drawing them, holding them, the hand limit, and the Nobles' piles.

A hand is a tuple of card names. With `scandal_entry = "play"` a card drawn is not
named: the hand holds the Noble's name in its place until the card is played or
discarded (docs/florence-rulings.md, ruling 6). `deck` counts each card kind still
in its Noble's draw pile (draw mode), `deck_left` the cards of each pile, `discard`
each kind on its Noble's face-up discard pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, Rule, in_phases, revealing

from .flow import FLOW

if TYPE_CHECKING:
    from .rules import FlorenceState


def playable_cards(state: FlorenceState, seat: int) -> list[str]:
    """Names of the scandal cards `seat` may reveal from its hand, once each."""
    hand = state.hands[seat]
    if not hand:
        return []
    t = state.tables
    if state.draw_mode:
        return sorted(set(hand), key=t.card_index.__getitem__)
    out = [c for c in t.card_index if c in hand]
    for noble, name in enumerate(t.nobles):
        if name in hand:
            for i in t.deck(noble):
                card = t.cards[i].name
                if card not in out and state.discard[i] < t.copies:
                    out.append(card)
    return out


def reveal(state: FlorenceState, seat: int, card: str) -> None:
    """A card leaves the hand face up onto its Noble's discard pile."""
    t = state.tables
    i = t.card_index[card]
    hand = list(state.hands[seat])
    hand.remove(card if card in hand else t.nobles[t.cards[i].noble])
    state.hands[seat] = tuple(hand)
    state.discard[i] += 1


def top_card_weight(state: FlorenceState, card: int) -> int:
    """Copies of `card` the top of its Noble's pile may be: those in the draw pile (draw
    mode); in play mode, for the automa's discard, those not yet seen on the discards."""
    if state.draw_mode:
        return state.deck[card]
    return state.tables.copies - state.discard[card]


class ScandalCards(Rule["FlorenceState"]):
    """'You can hold up to 5 Scandals at once. For each Scandal gained over your limit,
    instead gain 1 time. Scandal cards are gained by having the highest Brag on each
    location visited during the Noble Movement phase (and from Contessina's spies ...)
    When gaining Scandals this way, they are always taken from the pile of the active
    Noble.' and (Play a Scandal) 'When a Noble's Scandal deck empties, shuffle the
    discard to replace it.'

    The card drawn is a chance action (`draw NOBLE CARD`); a seat at its limit decides
    first (`keep`, or a discard: docs/florence-rulings.md, ruling 19)."""

    heading = "Scandal Cards"
    plays = in_phases(noble_movement=("draw",), hand_limit=("keep",))
    # a card taken without a draw to enter (scandal_entry = "play", or a pile left with
    # one kind) is still a card a seat has drawn and seen; Strozzi's goes face up
    reveals = revealing(
        scandal_gained="a scandal card has been drawn into a hand",
        scandal_discarded_by_automa="Strozzi's scandal card lies face up on the discards",
    )

    def texts(self, state: FlorenceState) -> list[str]:
        if state.phase == "hand_limit":  # "keep" first: declining takes one press
            return ["keep"]
        return [text for text, _ in self.draws(state)]

    def draws(self, state: FlorenceState) -> list[tuple[str, float]]:
        """The cards the top of the active Noble's pile may be, weighted by copies."""
        t = state.tables
        noble = state.active_noble()
        name = t.nobles[noble]
        weights = [(i, top_card_weight(state, i)) for i in t.deck(noble)]
        return [(f"draw {name} {t.cards[i].name}", float(w)) for i, w in weights if w > 0]

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        if verb == "draw":
            self.take(state, state.pending.pop(0), state.tables.card_index[arg.split()[1]], events)
            return
        # "For each Scandal gained over your limit, instead gain 1 time."
        s = state.turn
        state.pending.pop(0)
        gained = state.gain_time(s, state.tables.cost["hand_overflow_time"])
        events.append(Event("scandal_over_limit", {"player": s, "time": gained}))
        FLOW.fire(state, "limit_decided")

    def refuse(self, state: FlorenceState, verb: str, arg: str) -> str | None:
        t = state.tables
        if verb == "keep":
            if state.phase == "hand_limit":
                return None
            return (
                f"'keep' answers the hand limit: 'You can hold up to {t.hand_limit} Scandals at "
                f"once. For each Scandal gained over your limit, instead gain 1 time.'"
            )
        if state.phase != "noble_movement":
            return None
        noble = t.nobles[state.active_noble()]
        words = arg.split()
        if len(words) != 2 or words[0] != noble:
            return f"The card is drawn from the active Noble's deck: 'draw {noble} CARD'."
        card = words[1]
        if card not in t.card_index or t.card(card).noble != t.nobles.index(noble):
            return f"'{card}' is not one of {noble.capitalize()}'s scandal cards."
        return f"No '{card}' card is left in {noble.capitalize()}'s draw pile."

    def prompt(self, state: FlorenceState) -> str:
        t = state.tables
        if state.phase == "hand_limit":
            noble = t.nobles[state.active_noble()].capitalize()
            return (
                f"{state.who(state.turn)} holds {t.hand_limit} scandal cards, the limit, and "
                f"earns one from {noble}'s deck: discard a card first (1 time) to take it, or "
                f"keep your hand and gain 1 time instead."
            )
        seat = state.pending[0]
        deck = f"{t.nobles[state.active_noble()].capitalize()}'s deck"
        if seat == state.automa:
            return f"Strozzi earned a scandal card: discard the top card of {deck}; name it."
        return f"{state.who(seat)} draws a scandal card from {deck}."

    # --- cards earned during the Noble Movement -------------------------------------
    def give(self, state: FlorenceState, noble: int, events: list[Event]) -> bool:
        """Hand out the cards owed at the location entered; True while a draw or a seat's
        decision is awaited."""
        while state.pending:
            if self._give_next(state, noble, events):
                return True
        return False

    def _give_next(self, state: FlorenceState, noble: int, events: list[Event]) -> bool:
        """The first seat owed a card gets it, or decides first; True when input is due."""
        s = state.pending[0]
        if not state.kind(s).takes_scandal(state, s, noble, events):
            state.pending.pop(0)
            return False
        automa = s == state.automa  # his card goes to the discards: its name is asked
        if not automa and self._at_limit(state, s, noble, events):
            return True
        if not state.deck_left[noble] and not self._refill(state, s, noble, events):
            return False
        if not state.draw_mode and not automa:
            self._take_unnamed(state, s, noble, events)
            return False
        return not self._take_forced(state, noble, events)

    def _take_forced(self, state: FlorenceState, noble: int, events: list[Event]) -> bool:
        """A card that can only be one kind is taken without asking: True when it was."""
        kinds = [i for i in state.tables.deck(noble) if top_card_weight(state, i)]
        if len(kinds) != 1:
            return False
        self.take(state, state.pending.pop(0), kinds[0], events)
        return True

    @staticmethod
    def _at_limit(state: FlorenceState, s: int, noble: int, events: list[Event]) -> bool:
        """'You can hold up to 5 Scandals at once' and 'At any time, without using an
        action, you may discard 1 Scandal to gain 1 time': a seat at its limit decides
        whether to make room first (hand_limit) or take the time instead."""
        if len(state.hands[s]) < state.tables.hand_limit:
            return False
        state.turn = s
        FLOW.fire(state, "over_limit")
        events.append(Event("scandal_limit", {"player": s, "noble": state.tables.nobles[noble]}))
        return True

    def _refill(self, state: FlorenceState, seat: int, noble: int, events: list[Event]) -> bool:
        """An empty pile takes its discards; False when there is nothing to draw at all."""
        self.reshuffle(state, noble)
        if state.deck_left[noble]:
            return True
        state.pending.pop(0)
        events.append(
            Event("scandal_deck_empty", {"player": seat, "noble": state.tables.nobles[noble]})
        )
        return False

    def _take_unnamed(
        self, state: FlorenceState, seat: int, noble: int, events: list[Event]
    ) -> None:
        """Play mode: the card goes to the hand unnamed (its Noble's name stands for it)."""
        name = state.tables.nobles[noble]
        state.pending.pop(0)
        state.deck_left[noble] -= 1
        state.hands[seat] = (*state.hands[seat], name)
        events.append(Event("scandal_gained", {"player": seat, "noble": name, "card": None}))
        if not state.deck_left[noble]:
            self.reshuffle(state, noble)

    def take(self, state: FlorenceState, seat: int, card: int, events: list[Event]) -> None:
        """A drawn card goes to the hand (the automa's to the discards); the pile refills
        from the discards."""
        t = state.tables
        if state.draw_mode:
            state.deck[card] -= 1
        noble = t.cards[card].noble
        state.deck_left[noble] -= 1
        name = t.cards[card].name
        if seat == state.automa:  # "discard the top card from the corresponding Noble"
            state.discard[card] += 1
            events.append(
                Event("scandal_discarded_by_automa", {"noble": t.nobles[noble], "card": name})
            )
        else:
            state.hands[seat] = (*state.hands[seat], name)
            events.append(
                Event("scandal_gained", {"player": seat, "noble": t.nobles[noble], "card": name})
            )
        if not state.deck_left[noble]:
            self.reshuffle(state, noble)

    @staticmethod
    def reshuffle(state: FlorenceState, noble: int) -> None:
        """'When a Noble's Scandal deck empties, shuffle the discard to replace it.'"""
        total = 0
        for i in state.tables.deck(noble):
            if state.draw_mode:
                state.deck[i] += state.discard[i]
            total += state.discard[i]
            state.discard[i] = 0
        state.deck_left[noble] += total


SCANDAL_CARDS = ScandalCards()
