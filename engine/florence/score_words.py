"""Florence's scoring steps in words, and the tie-break that decided the winner.

Every VP a seat gains comes with an event (Noble Scoring's Prime Positions and queues,
brags, escorts, the VP bonus, Giovanni's awards, the solo automa's cards, the final time
and schemes); `steps` turns each into a `ScoreStep`, so `engine.core.breakdown` adds up
to the score track. VP are public on the score track, so every step is said.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core import Event, ScoreStep, SeatNamer, capital, joined

from .society import family_on_board

if TYPE_CHECKING:
    from .rules import FlorenceState

AUTOMA = "Strozzi (automa)"


def label(state: FlorenceState, player: int, names: SeatNamer) -> str:
    """A seat in a result: the table's name, or Palla Strozzi for the solo automa."""
    return AUTOMA if player == state.automa >= 0 else names(player)


def _step(state: FlorenceState, e: Event, names: SeatNamer) -> list[ScoreStep]:
    d = e.data
    if "player" not in d:
        return []
    p = d["player"]
    who = capital(label(state, p, names))
    kind = e.kind
    if kind == "prime_position":
        return [
            ScoreStep(
                p,
                d["vp"],
                "Prime Positions",
                f"{who} holds the Prime Position at location {d['location']}: {d['vp']} VP.",
            )
        ]
    if kind == "queue_scored":
        return [
            ScoreStep(
                p,
                d["vp"],
                "queues",
                f"{who} is {_ordinal(d['position'])} in the queue at location "
                f"{d.get('location', '?')}: {d['vp']} VP.",
            )
        ]
    if kind == "brag":
        return [
            ScoreStep(
                p,
                d["vp"],
                "brags",
                f"{who} brags on location {d['location']} ({d['tile']}): {d['vp']} VP.",
            )
        ]
    if kind == "escort" and d.get("vp"):
        owner = d["owner"]
        road = d["road"]
        whose = capital(label(state, owner, names))
        text = (
            f"{whose}'s Escort on road {road} scores {d['vp']} VP."
            if owner == p
            else f"{whose}'s Escort on road {road} scores {d['vp']} VP as "
            f"{label(state, p, names)} passes."
        )
        return [ScoreStep(owner, d["vp"], "escorts", text)]
    if kind == "bonus" and d.get("bonus") == "vp":
        vp = d.get("vp", 0)
        return [ScoreStep(p, vp, "bonus", f"{who} takes the VP bonus: {vp} VP.")]
    if kind == "giovanni_claimed" and d.get("vp"):
        return [
            ScoreStep(
                p, d["vp"], "Giovanni", f"{who} claims Giovanni's award {d['award']}: {d['vp']} VP."
            )
        ]
    if kind == "strozzi_party" and d.get("vp"):
        return [ScoreStep(p, d["vp"], "party", f"{who} throws a party: {d['vp']} VP.")]
    if kind == "strozzi_vp" and d.get("vp"):
        return [ScoreStep(p, d["vp"], "guards", f"{who} scores for a guard: {d['vp']} VP.")]
    if kind == "final_score":
        time_vp, scheme = d["time_vp"], d["scheme_vp"]
        return [
            ScoreStep(p, time_vp, "time", f"{who} scores {time_vp} VP for remaining time."),
            ScoreStep(
                p,
                scheme,
                "scheme",
                f"{who}'s scheme card scores {scheme} VP."
                if scheme
                else f"{who}'s scheme card scores nothing.",
            ),
        ][: 1 if p == state.automa and not scheme else 2]  # an automa holds no scheme
    return []


def steps(state: FlorenceState, events: Sequence[Event], names: SeatNamer) -> list[ScoreStep]:
    return [step for e in events for step in _step(state, e, names)]


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def tiebreak(state: FlorenceState, names: SeatNamer) -> str | None:
    """'In the case of a tie, the player with the most Family Members on the main board
    wins. If a tie persists, the player who has given the most Gifts wins. If a tie still
    persists, players rejoice in their shared victory!' Solo: 'If you have more VP than
    Strozzi, you win!'"""
    vp = state.vp
    if state.automa >= 0:
        if vp[0] != vp[state.automa]:
            return None
        return (
            f"{capital(names(0))} and {AUTOMA} have {vp[0]} VP each: a solo player must "
            f"have more VP than Strozzi to win."
        )
    best = max(vp[: state.players])
    tied = [s for s in range(state.players) if vp[s] == best]
    if len(tied) < 2:
        return None
    all_tied = f"{capital(joined([names(s) for s in tied]))} have {best} VP each"
    family = {s: family_on_board(state, s) for s in tied}
    gifts = {s: sum(state.given[s]) for s in tied}
    tied.sort(key=lambda s: (family[s], gifts[s]), reverse=True)
    won, other = tied[0], tied[1]
    if family[won] > family[other]:
        return (
            f"{all_tied}; {names(won)} wins the tie with more Family Members on the "
            f"main board ({family[won]} against {family[other]})."
        )
    if gifts[won] > gifts[other]:
        return (
            f"{all_tied} and {family[won]} Family Members on the main board; "
            f"{names(won)} wins the tie with more Gifts given ({gifts[won]} against "
            f"{gifts[other]})."
        )
    sharing = [s for s in tied if (family[s], gifts[s]) == (family[won], gifts[won])]
    return (
        f"{all_tied}, {family[won]} Family Members on the main board and "
        f"{gifts[won]} Gifts given: {joined([names(s) for s in sharing])} share the "
        f"victory."
    )
