"""A strip that keeps every frame it is shown: for tests, `tavola doctor` and benchmarks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hw.backends import Backend
from hw.strip import ByteStrip, decode

if TYPE_CHECKING:
    from hw.config import StripConfig


class MockStrip(ByteStrip):
    """Records each pushed frame as wire bytes (`raw_frames`) and logical pixels (`frames`)."""

    def __init__(self, n: int, *, order: str = "RGB", keep: int | None = None) -> None:
        super().__init__(n, order=order)
        self.raw_frames: list[bytes] = []
        self.keep = keep  # keep only the last `keep` frames (benchmarks push thousands)
        self.closed = False

    @property
    def frames(self) -> list[list[tuple[int, ...]]]:
        return [decode(raw, self.order, self.n) for raw in self.raw_frames]

    @property
    def last(self) -> list[tuple[int, ...]] | None:
        return decode(self.raw_frames[-1], self.order, self.n) if self.raw_frames else None

    def _send(self, data: bytes) -> None:
        self.raw_frames.append(data)
        if self.keep is not None and len(self.raw_frames) > self.keep:
            del self.raw_frames[: -self.keep]

    def close(self) -> None:
        super().close()
        self.closed = True


def _open(config: StripConfig, **overrides: Any) -> MockStrip:
    return MockStrip(config.count, order=config.order, **overrides)


BACKEND = Backend("mock", open=_open)
