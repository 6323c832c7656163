"""The colour pipeline: each stage, the limiter's promise on random frames, pushing rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hw.backends.mock import MockStrip
from hw.config import parse_config_text
from hw.pipeline import Pipeline, gamma_table, wire_time_s
from tests.hw.conftest import FakeClock


def pipe(n: int = 4, order: str = "RGB", **kw: object) -> tuple[Pipeline, MockStrip]:
    strip = MockStrip(n, order=order)
    kw.setdefault("fps", None)
    return Pipeline(strip, **kw), strip  # type: ignore[arg-type]


def test_full_white_at_full_brightness_passes_through() -> None:
    p, strip = pipe(2)
    p.show([(255, 255, 255), (0, 0, 0)])
    assert strip.last == [(255, 255, 255), (0, 0, 0)]


def test_gamma_2_2_darkens_the_middle() -> None:
    p, strip = pipe(1)
    p.show([(128, 64, 255)])
    assert strip.last == [(56, 12, 255)]  # 255 * (128/255)^2.2 = 55.7; (64/255)^2.2 -> 12.2
    assert gamma_table(1.0, 2.2)[128] == 56


def test_brightness_applies_before_gamma() -> None:
    p, strip = pipe(1, brightness=0.5)
    p.show([(255, 255, 255)])
    assert strip.last == [(55, 55, 55)]  # 255 * 0.5^2.2 = 55.49, not 0.5 * 56


def test_gamma_1_is_linear() -> None:
    p, strip = pipe(1, gamma=1.0, brightness=0.5)
    p.show([(200, 100, 2)])
    assert strip.last == [(100, 50, 1)]


def test_segment_dimming_touches_only_its_segment() -> None:
    p, strip = pipe(4, gamma=1.0, segments={"seat.1": (1, 3)}, dimming={"seat.1": 0.5})
    p.show([(200, 200, 200)] * 4)
    assert strip.last == [(200,) * 3, (100,) * 3, (100,) * 3, (200,) * 3]
    p.set_dimming("seat.1", 1.0)
    p.show([(200, 200, 200)] * 4)
    assert strip.last == [(200,) * 3] * 4


def test_colour_order_grb_on_the_wire() -> None:
    p, strip = pipe(2, order="GRB", gamma=1.0)
    p.show([(1, 2, 3), (4, 5, 6)])
    assert strip.raw_frames[-1] == bytes([2, 1, 3, 5, 4, 6])
    assert strip.last == [(1, 2, 3), (4, 5, 6)]


def test_rgbw_white_extraction_and_order() -> None:
    p, strip = pipe(2, order="GRBW", gamma=1.0)
    p.show([(200, 150, 100), (10, 20, 30)])
    # white = min channel; the rest keeps the hue
    assert strip.last == [(100, 50, 0, 100), (0, 10, 20, 10)]
    assert strip.raw_frames[-1] == bytes([50, 100, 0, 100, 10, 0, 20, 10])


def test_limiter_scales_an_over_budget_frame_uniformly() -> None:
    # 10 LEDs full white: 10 x 60 mA + 10 x 1 mA idle = 610 mA; budget 310 mA
    p, strip = pipe(10, gamma=1.0, budget_ma=310)
    p.show([(255, 255, 255)] * 10)
    wire = strip.raw_frames[-1]
    assert p.milliamps(wire) <= 310
    assert p.milliamps(wire) > 300  # not needlessly dark
    assert len(set(wire)) == 1  # uniform
    assert p.limited == 1


def test_limiter_leaves_a_frame_within_budget_alone() -> None:
    p, strip = pipe(10, gamma=1.0, budget_ma=1000)
    p.show([(255, 255, 255)] * 10)
    assert set(strip.raw_frames[-1]) == {255}
    assert p.limited == 0


def test_a_budget_below_idle_current_is_refused() -> None:
    with pytest.raises(ValueError, match="idle current"):
        pipe(100, budget_ma=50)


frames = st.integers(1, 60).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
            min_size=n,
            max_size=n,
        ),
    )
)


@given(
    frames=frames,
    budget=st.floats(0.0, 4000.0),
    brightness=st.floats(0, 1),
    gamma=st.sampled_from([1.0, 1.8, 2.2, 2.8]),
    ma=st.floats(1, 60),
    idle=st.floats(0, 2),
    order=st.sampled_from(["RGB", "GRB", "GRBW", "RGBW"]),
    dim=st.floats(0, 1),
)
def test_limiter_never_exceeds_the_budget(
    frames: tuple[int, list[tuple[int, int, int]]],
    budget: float,
    brightness: float,
    gamma: float,
    ma: float,
    idle: float,
    order: str,
    dim: float,
) -> None:
    n, frame = frames
    budget_ma = n * idle + 1 + budget  # always above the idle current
    strip = MockStrip(n, order=order)
    p = Pipeline(
        strip,
        brightness=brightness,
        gamma=gamma,
        ma_per_channel=ma,
        idle_ma=idle,
        budget_ma=budget_ma,
        fps=None,
        segments={"s": (0, (n + 1) // 2)},
        dimming={"s": dim},
    )
    p.show(frame, force=True)
    wire = strip.raw_frames[-1]
    drawn = n * idle + sum(wire) * ma / 255
    assert drawn <= budget_ma + 1e-9
    assert p.milliamps(wire) == pytest.approx(drawn)


@given(frames=frames)
def test_without_a_limit_nothing_is_scaled(frames: tuple[int, list[tuple[int, int, int]]]) -> None:
    n, frame = frames
    p, strip = pipe(n, gamma=1.0)
    p.show(frame, force=True)
    assert strip.last == frame


def test_only_changed_frames_are_pushed() -> None:
    p, strip = pipe(2, gamma=1.0)
    assert p.show([(1, 2, 3), (4, 5, 6)])
    assert not p.show([(1, 2, 3), (4, 5, 6)])
    assert not p.show(bytes([1, 2, 3, 4, 5, 6]))  # same frame as bytes
    assert p.show([(1, 2, 3), (4, 5, 7)])
    assert len(strip.raw_frames) == 2


def test_frames_that_differ_only_below_gamma_resolution_are_not_pushed() -> None:
    p, strip = pipe(1)
    p.show([(1, 1, 1)])
    assert not p.show([(2, 2, 2)])  # both round to 0 after gamma 2.2
    assert len(strip.raw_frames) == 1


def test_a_settings_change_re_renders_the_same_frame() -> None:
    p, strip = pipe(1, gamma=1.0)
    p.show([(200, 200, 200)])
    p.set_brightness(0.5)
    assert p.show([(200, 200, 200)])
    assert strip.last == [(100, 100, 100)]


def test_the_frame_rate_cap_holds_the_latest_frame_until_due() -> None:
    clock = FakeClock(0.0)
    strip = MockStrip(1)
    p = Pipeline(strip, gamma=1.0, fps=10, clock=clock)
    assert p.show([(10, 0, 0)])
    clock.advance(0.05)
    assert not p.show([(20, 0, 0)])
    assert not p.show([(30, 0, 0)])
    assert p.due_in() == pytest.approx(0.05)
    assert not p.flush()
    clock.advance(0.05)
    assert p.flush()
    assert strip.last == [(30, 0, 0)]
    assert len(strip.raw_frames) == 2
    assert p.due_in() is None


@pytest.mark.parametrize(
    ("frame", "words"),
    [
        ([(1, 2, 3), (4, 5, 256)], "LED 1: colour (4, 5, 256)"),
        ([(1, 2, 3), (4, 5)], "LED 1: colour (4, 5)"),
        ([(1, 2, 3), (-1, 0, 0)], "LED 1"),
        ([(1, 2, 3), ("a", 0, 0)], "LED 1"),
        ([(1, 2, 3)], "frame has 1 colours, the strip has 2"),
        (b"\x00" * 5, "frame has 5 bytes, need 6"),
    ],
)
def test_bad_colours_are_named(frame: object, words: str) -> None:
    p, _ = pipe(2)
    with pytest.raises(ValueError) as e:
        p.show(frame)  # type: ignore[arg-type]
    assert words in str(e.value)


def test_from_config() -> None:
    cfg = parse_config_text(
        "[strip]\nbackend='mock'\ncount=10\n[strip.segments]\na=[0,4]\n"
        "[pipeline]\nbrightness=0.5\ngamma=1.0\nbudget_ma=1000\nfps=25\n"
        "[pipeline.dimming]\na=0.5\n"
    )
    assert cfg.strip is not None
    strip = MockStrip(cfg.strip.count)
    p = Pipeline.from_config(strip, cfg.pipeline, segments=cfg.strip.segments)
    assert (p.brightness, p.gamma, p.budget_ma, p.fps) == (0.5, 1.0, 1000, 25)
    p.show([(200, 200, 200)] * 10)
    assert strip.last is not None
    assert strip.last[0] == (50, 50, 50) and strip.last[9] == (100, 100, 100)


def test_wire_time() -> None:
    assert wire_time_s(300) == pytest.approx(0.00928)
