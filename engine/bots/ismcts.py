"""Single-observer information-set Monte Carlo tree search, determinized.

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (2012), SO-ISMCTS:
one tree for the searching seat, whose nodes are sequences of actions. Each iteration

1. samples a determinization of the position, consistent with what the seat may know
   (`Game.determinize`: other seats' secrets redealt from what is still possible);
2. descends the tree: at a chance node the outcome is drawn by its weights
   (`chance_weights`); at a seat's node UCB1 chooses among the children whose action is
   legal in this determinization, counting for each how often it was available
   (`avail`) rather than how often its parent was visited;
3. adds one child, plays the game out at random (`fast_play_out`) to its end, to the
   game's horizon (`Game.horizon`: the playout is judged by the game's evaluation,
   `Game.evaluate_seats`, as the greedy bot judges a move), or to `playout_limit`
   actions (Strada Romana's endless jam: such a playout is counted in
   `SearchStats.capped` and judged by the scores as they stand), and
4. credits each node with the share of the win of the seat that moved into it.

The decision is the most visited action at the root (of equally visited ones, the
best on average). The budget is a number of
iterations, and, with a clock the caller passes in (the engine reads no clock), seconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core import CHANCE, Action, State, draw_chance, fast_play_out

from .base import Trail, outcome
from .greedy import evaluate, judge

ALIKE = 2
"""Actions of one value kept in a shortlist (`IsmctsBot.shortlist`)."""
EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1] (sqrt(2)/2, a common choice)."""


@dataclass(frozen=True)
class Budget:
    """How long a decision may search: `playouts` iterations, and at most `seconds` by
    `clock` when both are given (the first bound reached ends the search)."""

    playouts: int = 48
    seconds: float | None = None
    clock: Callable[[], float] | None = None

    def __post_init__(self) -> None:
        if self.playouts < 1:
            raise ValueError(f"a search needs at least 1 playout, not {self.playouts}")
        if self.seconds is not None and (self.clock is None or self.seconds <= 0):
            raise ValueError("a budget in seconds needs a positive number and a clock")


@dataclass
class SearchStats:
    """What the searches of one bot did, added up: for benchmarks and reports."""

    decisions: int = 0
    iterations: int = 0
    capped: int = 0
    """Playouts stopped at `playout_limit` before the game ended."""
    judged: int = 0
    """Playouts stopped at the bot's `horizon` and judged by the game's evaluation."""
    actions: int = 0
    """Actions applied in descents and playouts."""


class _Node:
    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the action leading here (CHANCE for a draw)
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


@dataclass
class IsmctsBot:
    """The top of the ladder (see the module's docstring)."""

    budget: Budget = field(default_factory=Budget)
    playout_limit: int = 2_000
    cut: bool = True
    """Cut playouts at the game's `horizon` (`Game.horizon`: how many actions after the
    tree a playout goes on before it is judged by the game's evaluation,
    `engine.bots.greedy.judge`). False: every playout to its end, to measure what the cut
    costs."""
    exploration: float = EXPLORATION
    stats: SearchStats = field(default_factory=SearchStats)
    name: str = "ismcts"
    repeats: bool = False
    """False: the bot does not go back to a position the game has been in (`Trail`)."""
    trail: Trail = field(default_factory=Trail)
    shortlist: bool = True
    """Search only the game's `Game.shortlist` best root actions by its evaluation one
    step ahead (`engine.bots.greedy.evaluate`), where it sets one; False: all of them."""

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        self.stats.decisions += 1
        if self.repeats:
            return self._search(state, seat, rng, state.legal_actions())
        legal = self.trail.fresh(state, seat)
        return self.trail.chosen(state, seat, self._search(state, seat, rng, legal))

    def _search(
        self, state: State, seat: int, rng: random.Random, legal: tuple[Action, ...]
    ) -> Action:
        """The most visited of `legal` (the root's actions: a search never tries one
        the trail refused)."""
        if len(legal) == 1:
            return legal[0]
        keep = state.game.shortlist if self.shortlist else None
        if keep is not None and len(legal) > keep:
            legal = self._shortlisted(state, seat, rng, legal, keep)
        allowed = frozenset(a.text for a in legal)
        root = _Node(seat)
        budget = self.budget
        clock = budget.clock if budget.seconds is not None else None
        start = clock() if clock is not None else 0.0
        for _ in range(budget.playouts):
            self._iterate(state, seat, root, rng, allowed)
            self.stats.iterations += 1
            if clock is not None and clock() - start >= budget.seconds:  # type: ignore[operator]
                break

        def rank(action: Action) -> tuple[int, float]:
            child = root.children.get(action.text)
            return (-1, 0.0) if child is None else (child.visits, child.reward / child.visits)

        return max(legal, key=rank)  # the most visited; of those, the best on average

    @staticmethod
    def _shortlisted(
        state: State, seat: int, rng: random.Random, legal: tuple[Action, ...], keep: int
    ) -> tuple[Action, ...]:
        """The `keep` actions of `legal` the evaluation likes best one step ahead, on one
        determinization, in the legal order; of actions it values alike (a pass ring's
        nine places) only `ALIKE` are kept, the first in the legal order."""
        world = state.game.determinize(state, seat, rng)
        values = []
        for action in legal:
            after = world.clone()
            after.apply(action)
            values.append(evaluate(after, seat))
        ranked: list[int] = []
        alike: dict[float, int] = {}
        for i in sorted(range(len(legal)), key=lambda i: -values[i]):
            if alike.get(values[i], 0) < ALIKE:
                alike[values[i]] = alike.get(values[i], 0) + 1
                ranked.append(i)
        return tuple(legal[i] for i in sorted(ranked[:keep]))

    def _iterate(
        self, state: State, seat: int, root: _Node, rng: random.Random, allowed: frozenset[str]
    ) -> None:
        world = state.game.determinize(state, seat, rng)
        node = root
        path = [root]
        steps = 0
        expanded = False
        while not expanded and not world.is_over() and steps < self.playout_limit:
            player = world.current_player()
            assert player is not None
            if player == CHANCE:
                action = draw_chance(world, rng)
                child = node.children.get(action.text)
                if child is None:
                    child = node.children[action.text] = _Node(CHANCE)
            else:
                legal = world.legal_actions()
                if node is root:
                    legal = tuple(a for a in legal if a.text in allowed) or legal
                action, child, expanded = self._select(legal, node, player, rng)
            world.apply(action)
            steps += 1
            node = child
            path.append(node)
        if steps < self.playout_limit:  # the fast path: the same random games, cheaper
            before = len(world.history)
            limit = self.playout_limit - steps
            horizon = world.game.horizon if self.cut else None
            if horizon is not None:
                limit = min(limit, horizon)
            fast_play_out(world, rng, limit=limit)
            steps += len(world.history) - before
        if world.is_over():
            shares = outcome(world)
        elif steps >= self.playout_limit:
            self.stats.capped += 1
            shares = outcome(world)
        else:
            self.stats.judged += 1
            shares = judge(world, seat)
        self.stats.actions += steps
        for visited in path:
            visited.visits += 1
            if visited.player >= 0:
                visited.reward += shares[visited.player]

    def _select(
        self, legal: tuple[Action, ...], node: _Node, player: int, rng: random.Random
    ) -> tuple[Action, _Node, bool]:
        """(action, its node, whether the node is new): an untried action first, else
        UCB1 over the children available in this determinization."""
        children = node.children
        untried = [a for a in legal if a.text not in children]
        if untried:
            for a in legal:
                if a.text in children:
                    children[a.text].avail += 1
            action = untried[rng.randrange(len(untried))]
            child = children[action.text] = _Node(player)
            return action, child, True
        best: Action | None = None
        top = -math.inf
        c = self.exploration
        for a in legal:
            child = children[a.text]
            child.avail += 1
            value = child.reward / child.visits + c * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if value > top:
                best, top = a, value
        assert best is not None
        return best, children[best.text], False
