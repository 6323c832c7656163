"""Press -> frame at the table while a bot thinks, by where the bot thinks (apps.thinker).

The presses of bench_table's figure (next / previous at the seat to act in running
Strozzi games, from the mocked pin to the frame handed to the strip), timed with no
bot thinking and while a Florence 4p ISMCTS bot (the table's budget) decides without a
pause in a worker thread of the same process or in the worker process the table uses.
The three are interleaved in rounds on the same games, so the machine's load falls on
each alike. Before the thinker, the search ran on the table's loop: a press made during
a decision waited for the rest of it, so the last line times those decisions on the
loop's thread (inline). Figures only; nothing here asserts a time.

    python -m bench thinking
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from pathlib import Path

import engine
from apps.thinker import Ask, Thinker, make_thinker
from bench.bench_table import press_to_frame
from engine.core import CHANCE, derive, draw_chance

ROUNDS = 4
PRESSES = 400
"""Timed presses per kind and round."""
KINDS = (None, "thread", "process")


def florence_asks(count: int = 12) -> list[Ask]:
    """ISMCTS decisions of a random Florence 4p game, a few actions apart."""
    state = engine.get("florence").new_state(4, seed=11)
    rng = derive(11, "thinking")
    asks: list[Ask] = []
    while len(asks) < count and not state.is_over():
        player = state.current_player()
        assert player is not None
        if player == CHANCE:
            state.apply(draw_chance(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < 0.3:
            asks.append(Ask.of(state, player, "ismcts"))
        state.apply(legal[rng.randrange(len(legal))])
    return asks


class Busy:
    """Keeps a thinker deciding: each answer is followed at once by the next ask."""

    def __init__(self, thinker: Thinker, asks: list[Ask]) -> None:
        self.thinker, self.asks = thinker, asks
        self.number = self.decisions = 0
        self.ask_next()

    def ask_next(self) -> None:
        ask = self.asks[self.number % len(self.asks)]
        self.number += 1
        self.thinker.ask(Ask(**{**ask.__dict__, "number": self.number}))

    def __call__(self) -> None:
        if self.thinker.poll() is not None:
            self.decisions += 1
            self.ask_next()


def run() -> list[str]:
    asks = florence_asks()
    samples: dict[str | None, list[tuple[float, float]]] = {k: [] for k in KINDS}
    decisions: dict[str | None, int] = {k: 0 for k in KINDS}
    with tempfile.TemporaryDirectory(prefix="tavola-bench-") as tmp_name:
        tmp = Path(tmp_name)
        for r in range(ROUNDS):
            for kind in KINDS:
                busy = None
                thinker = make_thinker(kind) if kind is not None else None
                if thinker is not None:
                    busy = Busy(thinker, asks)
                    thinker.wait(60)  # the worker is up and has replayed the game
                    busy.ask_next()
                try:
                    p50, p99, _n, _cpu = press_to_frame(
                        tmp / f"{kind}-{r}", PRESSES, seed=100 + 10 * r, between=busy
                    )
                finally:
                    if thinker is not None:
                        thinker.close()
                samples[kind].append((p50, p99))
                decisions[kind] += busy.decisions if busy is not None else 0
    lines = []
    for kind in KINDS:
        p50s = sorted(p for p, _ in samples[kind])
        p99s = sorted(p for _, p in samples[kind])
        what = "no bot thinking" if kind is None else f"a bot thinking in a {kind}"
        lines.append(
            f"press -> frame, {what}: p50 {p50s[len(p50s) // 2] * 1e3:.2f} ms, p99 "
            f"{p99s[len(p99s) // 2] * 1e3:.2f} ms (median of {ROUNDS} rounds of {PRESSES} "
            f"presses; p99 range {p99s[0] * 1e3:.2f}-{p99s[-1] * 1e3:.2f} ms)"
            + (f"; {decisions[kind]} decisions meanwhile" if kind is not None else "")
        )
    inline = make_thinker("inline")
    seconds = []
    for ask in asks:
        start = time.perf_counter()
        inline.ask(ask)
        seconds.append(time.perf_counter() - start)
    lines.append(
        f"a bot thinking on the table's loop (inline): a press waits for the rest of the "
        f"decision; decisions took p50 {statistics.median(seconds) * 1e3:.0f} ms, max "
        f"{max(seconds) * 1e3:.0f} ms ({len(seconds)} decisions)"
    )
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    lines.append(f"peak RSS of a bot worker process: {worker:.0f} MB")
    return lines
