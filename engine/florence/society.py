"""Game Concepts and the Rules of Society: family members, queues and who controls them.

A family member is packed in one int, its piece code: `colour * 4 + rank` (rank 1
debutant, 2 donna, 3 maestro). A queue is a list of piece codes, Prime Position first,
always in seniority order (docs/florence-rulings.md, ruling 9). Read a code with the
named helpers below (`RANK[code]`, `COLOUR[code]`, `piece`, `promoted`); a piece is
named in notation by rank and queue position (`debutant3`, ruling 8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, Rule

from .tables import RANK_OF, RANKS

if TYPE_CHECKING:
    from .rules import FlorenceState

COLOURS = 8  # piece codes are precomputed for up to this many colours
MAX_QUEUE = 9  # piece words are precomputed for queues of up to this many spaces

RANK: tuple[int, ...] = tuple(code & 3 for code in range(4 * COLOURS))
"""RANK[code]: the rank of a piece code (DEBUTANT, DONNA, MAESTRO)."""
COLOUR: tuple[int, ...] = tuple(code >> 2 for code in range(4 * COLOURS))
"""COLOUR[code]: the colour of a piece code (its owner is `state.owner[code]`)."""

# "debutant3": the piece of that rank in queue position 3 (positions 1-based).
PIECE_WORDS = tuple(
    tuple(f"{RANKS[r]}{i + 1}" for i in range(MAX_QUEUE)) if r else () for r in range(4)
)


def piece(colour: int, rank: int) -> int:
    """Family Members: 'Each player has 5 Debutants, 3 Donnas and 1 Maestro': the piece
    code of a family member of `colour` and `rank`."""
    return colour * 4 + rank


def promoted(code: int) -> int:
    """The piece that replaces `code` when it is promoted: same colour, the next rank
    ('They can be replaced with a Donna via the Promote action. A Maestro replaces a
    Donna in the same way')."""
    return code + 1


def piece_word(code: int, idx: int) -> str:
    """The notation of the piece `code` at queue index `idx`: 'donna2'."""
    return PIECE_WORDS[RANK[code]][idx]


def piece_index(word: str) -> int:
    """Queue index named by a legal piece word ('donna2' -> 1; a bare rank, in transit -> -1)."""
    tail = word.lstrip("abcdefghijklmnopqrstuvwxyz")
    return int(tail) - 1 if tail else -1


def parse_piece(word: str) -> tuple[int, int] | None:
    """'donna2' -> (rank 2, index 1); a bare rank word -> (rank, -1), the piece in transit."""
    head = word.rstrip("0123456789")
    rank = RANK_OF.get(head)
    if rank is None:
        return None
    tail = word[len(head) :]
    return rank, (int(tail) - 1 if tail else -1)


def piece_refusal(
    state: FlorenceState, seat: int, loc: int, word: str, own: bool = True
) -> str | None:
    """Why `word` names no suitable piece at `loc` (of `seat`'s, if `own`), or None."""
    head = word.rstrip("0123456789")
    if head not in RANK_OF or head == word:
        return (
            f"'{word}' is not a family member: name it by rank and queue position, "
            f"like debutant3 or donna1."
        )
    idx = int(word[len(head) :]) - 1
    q = state.queues[loc]
    if not 0 <= idx < len(q) or RANK[q[idx]] != RANK_OF[head]:
        return f"There is no {head} in position {idx + 1} at location {loc + 1}."
    if own and state.owner[q[idx]] != seat:
        return f"The {head} in position {idx + 1} at location {loc + 1} is not yours."
    return None


# --- where family members are -----------------------------------------------------------
def own_pieces(state: FlorenceState, seat: int) -> list[tuple[int, int, int]]:
    """(location, queue index, piece code) of every family member of `seat` on the board."""
    out = []
    owner = state.owner
    for loc, q in enumerate(state.queues):
        for i, code in enumerate(q):
            if owner[code] == seat:
                out.append((loc, i, code))
    return out


def mine(state: FlorenceState, seat: int) -> list[tuple[int, int, int]]:
    """`own_pieces` of the seat in turn, computed once per position (every action's legal
    texts ask for it): remembered with the seat and the number of actions applied."""
    memo = state.pieces_memo
    moves = len(state.history)
    if memo is None or memo[0] != seat or memo[1] != moves:
        memo = state.pieces_memo = (seat, moves, own_pieces(state, seat))
    return memo[2]


def counts(state: FlorenceState, seat: int) -> list[int]:
    """How many family members `seat` has at each location."""
    owner = state.owner
    return [sum(1 for c in q if owner[c] == seat) for q in state.queues]


def family_on_board(state: FlorenceState, seat: int) -> int:
    owner = state.owner
    return sum(1 for q in state.queues for c in q if owner[c] == seat)


def has_member(state: FlorenceState, seat: int, loc: int) -> bool:
    owner = state.owner
    return any(owner[c] == seat for c in state.queues[loc])


def free(state: FlorenceState, loc: int) -> bool:
    """Whether the queue at `loc` has an empty space (queue blockers cover the rest)."""
    return len(state.queues[loc]) < state.cap[loc]


def full_refusal(state: FlorenceState, loc: int) -> str:
    """Why a family member cannot join the full queue at `loc`."""
    cap = state.cap[loc]
    why = f"Location {loc + 1} is full: a queue holds at most {cap} family members"
    if cap < state.tables.spaces:
        why += f" with {state.players} players (the other spaces are covered by queue blockers)"
    elif cap == 7:
        why += ", so an eighth cannot join"
    return why + "."


class RulesOfSociety(Rule["FlorenceState"]):
    """'Priority: The 1st Family Member on a location is placed on Prime Position.
    Latecomers join the end of the queue. When someone leaves, anyone who was behind them
    move up to fill the space, in order. Seniority: When Family Members of different
    ranks share a location, they queue in order of seniority (Maestros, Donnas, then
    Debutants.) ... the piece joins the queue behind equal or higher ranking pieces who
    arrived earlier. Control: A player with the most Family Members on a location
    controls it. Ties are broken in favor of the player with the highest Priority in the
    queue. ... When Family Members are Promoted, adjust their position immediately.'"""

    heading = "Rules of Society"

    @staticmethod
    def enter(state: FlorenceState, loc: int, code: int, ahead: bool = False) -> int:
        """A family member joins a queue: behind equal or higher ranks who came earlier,
        or, with its owner's Bouncer there (or `ahead`), ahead of every piece of equal or
        lower rank. Returns its queue index."""
        q = state.queues[loc]
        r = RANK[code]
        i = 0
        n = len(q)
        if ahead or COLOUR[code] in state.bouncers[loc]:  # a Bouncer of the same colour
            while i < n and RANK[q[i]] > r:
                i += 1
        else:
            while i < n and RANK[q[i]] >= r:
                i += 1
        q.insert(i, code)
        return i

    @staticmethod
    def ranking(state: FlorenceState, loc: int) -> list[int]:
        """Players present by number of family members, ties to the better placed piece."""
        count: dict[int, int] = {}
        best: dict[int, int] = {}
        owner = state.owner
        for i, code in enumerate(state.queues[loc]):
            s = owner[code]
            count[s] = count.get(s, 0) + 1
            best.setdefault(s, i)
        return sorted(count, key=lambda s: (-count[s], best[s]))

    @classmethod
    def controller(cls, state: FlorenceState, loc: int) -> int:
        """The player who controls `loc` (-1: nobody is there)."""
        order = cls.ranking(state, loc)
        return order[0] if order else -1


SOCIETY = RulesOfSociety()
enter = RulesOfSociety.enter


def cost_refusal(what: str, cost: int, have: int) -> str:
    """'each player performs exactly 1 action ... and pays the indicated amount of time':
    why an action that costs more time than the seat has is refused."""
    return f"{what} costs {cost} time and you have {have}: you cannot pay time you do not have."


def ev(kind: str, **data: object) -> Event:
    """An event with plain values, for views to animate and logs to print."""
    return Event(kind, data)


def location(state: FlorenceState, word: str) -> int | None:
    """The location a word names (1-based in notation), None if it names none."""
    names = state.tables.loc_names
    return names.index(word) if word in names else None


def replaced(items: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """`items` with item `i` replaced (brag spots and gifts per Noble are tuples)."""
    return (*items[:i], value, *items[i + 1 :])
