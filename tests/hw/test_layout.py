"""Layouts: names to LEDs, rendering, and every validation error with its line and element."""

from __future__ import annotations

from pathlib import Path

import pytest

from hw.layout import Layout, LayoutError
from tests.hw.conftest import HERE

TABLE = HERE / "layouts" / "test_table.toml"


@pytest.fixture
def table() -> Layout:
    return Layout.load(TABLE)


def test_single_leds_runs_reversed_runs_lists_and_strips(table: Layout) -> None:
    assert table.strips == {"main": 60, "rim": 12}
    assert table.indices("seat.2.status") == [("rim", 6)]
    assert table.indices("seat.1.dial") == [("rim", 1), ("rim", 3), ("rim", 5)]
    assert table.indices("strozzi.track.venice.2") == [("main", 11)]
    assert table.indices("strozzi.track.genoa") == [("main", i) for i in range(29, 19, -1)]
    assert table.indices("florence.location.5.queue.3") == [
        ("main", 42),
        ("main", 43),
        ("main", 44),
    ]


def test_a_group_name_lights_all_its_members_in_file_order(table: Layout) -> None:
    assert table.indices("strozzi.track.venice") == [("main", 10), ("main", 11), ("main", 12)]
    assert [i for _, i in table.indices("florence.location.5")] == [40, 41, 42, 43, 44]
    assert "strozzi.track" in table and "seat.9" not in table
    with pytest.raises(KeyError, match=r"no element 'seat\.9'"):
        table.indices("seat.9")


def test_render_makes_one_frame_per_strip(table: Layout) -> None:
    frames = table.render(
        {
            "strozzi.track.venice": (255, 0, 0),
            "seat.2.status": "#00ff00",
            "strozzi.track.venice.2": (0, 0, 255),
        }
    )
    main, rim = frames["main"], frames["rim"]
    assert len(main) == 60 and len(rim) == 12
    assert main[10] == (255, 0, 0) and main[11] == (0, 0, 255) and main[12] == (255, 0, 0)
    assert rim[6] == (0, 255, 0)
    assert sum(1 for c in main if c != (0, 0, 0)) == 3


def test_render_rejects_a_colour_out_of_range(table: Layout) -> None:
    with pytest.raises(ValueError, match=r"element 'seat.1.status': .*256 is out of range"):
        table.render({"seat.1.status": (0, 256, 0)})


def test_check_fits_against_the_configured_strips(table: Layout) -> None:
    table.check_fits({"main": 60, "rim": 20})
    with pytest.raises(LayoutError, match="strip 'main' has 50 LEDs but the layout needs 60"):
        table.check_fits({"main": 50, "rim": 12})
    with pytest.raises(LayoutError, match="strip 'rim' is not configured"):
        table.check_fits({"main": 60})


def bad(tmp_path: Path, body: str) -> str:
    p = tmp_path / "bad.toml"
    p.write_text("[strips]\nmain = 30\nrim = 5\n\n[elements]\n" + body)
    with pytest.raises(LayoutError) as e:
        Layout.load(p)
    msg = str(e.value)
    assert msg.startswith(f"{p}:"), msg
    return msg.removeprefix(f"{p}:")


def test_overlapping_indices(tmp_path: Path) -> None:
    msg = bad(tmp_path, "a.b = { start = 0, end = 9 }\nc = 5\n")
    assert msg.startswith(
        "7: elements.c: element 'c': LED 5 of strip 'main' is also used by 'a.b' (line 6)"
    ), msg


def test_overlap_on_another_strip_is_fine_but_not_on_the_same(tmp_path: Path) -> None:
    ok = tmp_path / "ok.toml"
    ok.write_text(
        "[strips]\nmain = 30\nrim = 5\n[elements]\na = 1\nb = { strip = 'rim', at = 1 }\n"
    )
    assert Layout.load(ok).indices("b") == [("rim", 1)]
    msg = bad(tmp_path, "a = { strip = 'rim', leds = [0, 1] }\nb = { strip = 'rim', at = 1 }\n")
    assert msg.startswith("7: elements.b: element 'b': LED 1 of strip 'rim'"), msg


def test_index_past_the_strip(tmp_path: Path) -> None:
    msg = bad(tmp_path, "x = 1\n\n[elements.track]\nlast = { start = 25, end = 30 }\n")
    assert msg.startswith(
        "9: elements.track.last: element 'track.last': LED 30 is past the "
        "end of strip 'main' (30 LEDs: 0-29)"
    ), msg


def test_duplicate_names(tmp_path: Path) -> None:
    msg = bad(tmp_path, "seat.1.status = 0\nseat.2.status = 1\nseat.1.status = 2\n")
    assert msg == "8: elements.seat.1.status: defined twice (first on line 6)", msg


def test_a_name_that_is_both_an_element_and_a_group(tmp_path: Path) -> None:
    msg = bad(tmp_path, "track = 0\ntrack.1 = 1\n")
    assert msg.startswith("7: elements.track.1: defined twice (first on line 6)"), msg


def test_unknown_keys(tmp_path: Path) -> None:
    msg = bad(tmp_path, "a = 1\nb = { start = 2, end = 4, colour = 'red' }\n")
    assert msg.startswith("7: elements.b.colour: element 'b': unknown key 'colour'"), msg
    p = tmp_path / "t.toml"
    p.write_text("[strips]\nmain = 3\n[elements]\na = 0\n\n[colours]\na = 1\n")
    with pytest.raises(LayoutError, match=r"t\.toml:6: colours: unknown table"):
        Layout.load(p)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("a = { strip = 'side', at = 1 }\n", "6: elements.a.strip: element 'a': no strip 'side'"),
        ("a = { start = 1 }\n", "6: elements.a: element 'a': give exactly one of"),
        ("a = { at = 1, leds = [2] }\n", "6: elements.a: element 'a': give exactly one of"),
        ("a = -1\n", "6: elements.a: element 'a': LED index must be 0 or more"),
        ("a = 'ten'\n", "6: elements.a: element 'a': must be an LED index"),
        ("a = { leds = [1, 1] }\n", "6: elements.a.leds: element 'a': lists an LED twice"),
        ("a = { leds = [] }\n", "6: elements.a.leds: element 'a': leds must be a non-empty"),
        ("a = { at = 1.5 }\n", "6: elements.a.at: element 'a': at must be an LED index"),
    ],
)
def test_malformed_elements(tmp_path: Path, body: str, words: str) -> None:
    msg = bad(tmp_path, body)
    assert msg.startswith(words), msg


def test_missing_tables_and_bad_counts(tmp_path: Path) -> None:
    with pytest.raises(LayoutError, match=r"<layout>: missing \[strips\]"):
        Layout.parse("[elements]\na = 1\n")
    with pytest.raises(LayoutError, match=r"<layout>:2: strips\.main: LED count"):
        Layout.parse("[strips]\nmain = 0\n[elements]\na = 1\n")
    with pytest.raises(LayoutError, match=r"missing \[elements\]"):
        Layout.parse("[strips]\nmain = 3\n")
    with pytest.raises(LayoutError, match="not valid TOML"):
        Layout.parse("[strips\n")
