"""The bot protocol, the random bot, and how a finished (or stopped) game is scored."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol

from engine.core import CHANCE, PLAYOUT_LIMIT, Action, State, derive, draw_chance


class Bot(Protocol):
    """A seat player: the action `seat` takes in `state`, where it is `seat`'s turn.

    It may read `state.observe(seat)`, the legal actions (the mover knows its own
    choices) and determinizations of `state` for `seat`; nothing else of the state."""

    name: str

    def choose(self, state: State, seat: int, rng: random.Random) -> Action: ...


class RandomBot:
    """The bottom of the ladder: a uniformly random legal action."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]


class Trail:
    """The positions one game has been in, as the seat a bot plays sees them, and what
    the bot did in each, so it does not repeat itself (Strada Romana's jam: "Special
    Moves can be performed ... as many times as wished", so wagons can be shuffled
    sideways and back for ever).

    A position is the seat's observation (`state.observe(seat)`, in words: `repr`), so
    the trail knows nothing the seat may not: it never looks at where an action leads,
    which could depend on another seat's secret. Back in a position, the bot chooses
    among the actions it has taken there least often, so a loop is never played the
    same way twice and, once every way has been tried, the bot turns to what changes
    the game (a tile, a pass). A key holds every piece, coin and point, so a position
    after an irreversible change never matches one before it. A bot object plays one
    game at a time: a state with a shorter history than the last one noted starts a new
    game, and a new trail."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[str, int]] = {}
        self.length = -1
        self._here: dict[str, int] = {}

    def fresh(self, state: State, seat: int) -> tuple[Action, ...]:
        """The legal actions `seat` has taken least often in this position (all of them
        in a position it has not been in)."""
        if len(state.history) < self.length:
            self.seen.clear()
        self.length = len(state.history)
        key = repr(state.observe(seat))
        # a copy: `chosen` notes in it, and a trail from `GameTrails` shares the counts
        # of its positions with the one it keeps for the game's history
        here = self._here = self.seen[key] = dict(self.seen.get(key, ()))
        legal = state.legal_actions()
        if not here or len(legal) == 1:
            return legal
        times = [here.get(a.text, 0) for a in legal]
        least = min(times)
        return tuple(a for a, n in zip(legal, times, strict=True) if n == least)

    @classmethod
    def of_game(cls, state: State, seat: int) -> Trail:
        """The trail of `seat` in `state`'s game so far, rebuilt from its history: what a
        bot kept would have noted, whatever the bot object saw before (a table's bot after
        a restart or an undo decides as it would have). `GameTrails` gives the same trail
        without replaying the whole history at every decision."""
        return _Replayed(state, seat).trail_copy()

    def note(self, position: str, text: str) -> None:
        """Count `text` as taken once more in `position` (a key of `seen`)."""
        here = self.seen.setdefault(position, {})
        here[text] = here.get(text, 0) + 1

    def chosen(self, state: State, seat: int, action: Action) -> Action:
        """Note that `action` was taken in the position of the last `fresh`; returns it."""
        self._here[action.text] = self._here.get(action.text, 0) + 1
        return action


def outcome(state: State) -> list[float]:
    """Each seat's share of the win: 1 for a sole winner, 1/k for a win shared by k, 0 for
    the others (a solo game's automa included). A game stopped at a bound is judged by its
    scores as they stand: the best scores share the win, so a playout that never ends
    still tells a search something."""
    if state.is_over():
        return shares(state.winning_seats(), state.seats)
    return leaders_share(dict(state.standings()), state.seats)


def leaders_share(standing: Mapping[int, float], seats: int) -> list[float]:
    """`shares` of the seats with the best of `standing` (seat -> a score or a value)."""
    best = max(standing.values())
    return shares([s for s, v in standing.items() if v == best], seats)


def shares(won: Sequence[int], seats: int) -> list[float]:
    """1/k of the win to each of the k seats in `won`, 0 to the others (none won: all 0)."""
    share = 1.0 / len(won) if won else 0.0
    return [share if s in won else 0.0 for s in range(seats)]


def play_game(
    state: State,
    bots: Mapping[int, Bot] | Sequence[Bot],
    seed: int,
    *,
    limit: int = PLAYOUT_LIMIT,
) -> int:
    """Play `state` out with a bot at every seat, chance drawn by weight: the actions
    applied. Stops at `limit` actions (Strada Romana's endless jam), so it always ends;
    the caller tells a stopped game by `state.is_over()`."""
    table = dict(enumerate(bots)) if isinstance(bots, Sequence) else dict(bots)
    chance = derive(seed, "chance")
    streams = {seat: derive(seed, "bot", seat) for seat in table}
    for applied in range(limit):
        player = state.current_player()
        if player is None:
            return applied
        if player == CHANCE:
            action = draw_chance(state, chance)
        else:
            action = table[player].choose(state, player, streams[player])
        state.apply(action)
    return limit


class _Replayed:
    """A game's history replayed from its seed for one seat, with the seat's trail so far:
    extended by the actions played since, as long as the history it was built from is
    the start of the game's."""

    def __init__(self, state: State, seat: int) -> None:
        self.seat = seat
        self.game = _game_key(state)
        self.trail = Trail()
        self.history: list[Action] = []
        self.replay = state.game.new_state(
            state.players, seed=state.seed, options=state.options, data=state.data
        )
        self.extend(state)

    def follows(self, state: State, seat: int) -> bool:
        """Whether `state`'s history starts with the one replayed here, in the same game."""
        n = len(self.history)
        history = state.history
        return (
            seat == self.seat
            and len(history) >= n
            and self.game == _game_key(state)
            and history[:n] == self.history  # identical actions compare at C speed
        )

    def extend(self, state: State) -> None:
        """Replay the actions of `state`'s history played since (`follows` holds)."""
        replay, seat, note = self.replay, self.seat, self.trail.note
        for action in state.history[len(self.history) :]:
            if action.player == seat:
                note(repr(replay.observe(seat)), action.text)
            replay.apply(action)
            self.history.append(action)
        self.trail.length = len(self.history)

    def trail_copy(self) -> Trail:
        """The trail so far, for a bot to use: its own dict of positions (each position's
        counts are copied by `Trail.fresh` before a bot notes in them)."""
        trail = Trail()
        trail.seen = dict(self.trail.seen)
        trail.length = self.trail.length
        return trail


def _game_key(state: State) -> tuple[object, ...]:
    """What makes two states positions of one game: the title, seats, seed, options and
    component data."""
    options = tuple(sorted((k, repr(v)) for k, v in state.options.items()))
    return (state.game.name, state.players, state.seed, options, state.data.digest)


class GameTrails:
    """`Trail.of_game` without the whole history replayed at every decision: the replay
    of the last few (game, seat) asked is kept with the history it was built from and
    extended by the actions played since. A history that is not an extension of the kept
    one (an undo, another game) is replayed from the start, so the trail is always the
    one the game's history makes."""

    KEPT = 8
    """Replays kept (a table has at most a few bot seats)."""

    def __init__(self) -> None:
        self._replays: list[_Replayed] = []
        self.replayed = 0
        """Actions replayed so far, for tests and benchmarks: a game of n actions with a
        decision at each costs n, not n * n / 2."""

    def of_game(self, state: State, seat: int) -> Trail:
        """The trail of `seat` in `state`'s game so far (`Trail.of_game`'s)."""
        replays = self._replays
        for i, kept in enumerate(replays):
            if kept.follows(state, seat):
                replays.append(replays.pop(i))  # the most recently used last
                self.replayed += len(state.history) - len(kept.history)
                kept.extend(state)
                return kept.trail_copy()
        kept = _Replayed(state, seat)
        self.replayed += len(state.history)
        replays.append(kept)
        del replays[: -self.KEPT]
        return kept.trail_copy()
