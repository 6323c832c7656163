"""hw.tomledit: a few keys changed in a TOML file's text, every other byte kept."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hw.tomledit import EditError, edit, toml_value

SHIPPED = Path(__file__).resolve().parents[2] / "systemd" / "tavola.toml"

FILE = """\
# the owner's notes
title = "table"   # a root key

[pipeline]
brightness = 0.6   # evenings: 0.3
"budget_ma" = 3000
notes = '''
brightness = 9
'''
fps = [
  60, # at most
]

[app]
names.1 = "Anna"    # dotted: [app.names] built inside [app]
game = "strozzi"

[app.options]
first = 1
"""


def test_a_value_changes_and_its_comment_stays() -> None:
    out = edit(FILE, {("pipeline", "brightness"): 0.3})
    assert out == FILE.replace("brightness = 0.6   #", "brightness = 0.3   #")


def test_quoted_keys_and_values_across_lines_are_found_where_they_are() -> None:
    out = edit(FILE, {("pipeline", "budget_ma"): 2500, ("pipeline", "fps"): 30})
    assert '"budget_ma" = 2500\n' in out
    assert "fps = 30\n\n[app]" in out
    assert "notes = '''\nbrightness = 9\n'''" in out  # the string that looks like a key
    assert tomllib.loads(out)["pipeline"]["notes"] == "brightness = 9\n"


def test_a_new_key_goes_after_its_tables_last_key() -> None:
    out = edit(FILE, {("app", "options", "difficulty"): "harder", ("app", "chance"): "pick"})
    assert out.endswith('[app.options]\nfirst = 1\ndifficulty = "harder"\n')
    assert 'game = "strozzi"\nchance = "pick"\n\n[app.options]' in out


def test_a_key_of_a_dotted_table_is_added_beside_its_siblings() -> None:
    out = edit(FILE, {("app", "names", "2"): "Ben"})
    assert 'names.1 = "Anna"    # dotted: [app.names] built inside [app]\nnames.2 = "Ben"\n' in out


def test_a_table_not_yet_written_is_added_at_the_end() -> None:
    out = edit(FILE.rstrip("\n"), {("seats", "1", "colour"): "#ff0000"})
    assert out.endswith('first = 1\n\n[seats.1]\ncolour = "#ff0000"\n')


def test_none_removes_the_line_and_only_it() -> None:
    out = edit(FILE, {("app", "game"): None, ("app", "seed"): None})
    assert out == FILE.replace('game = "strozzi"\n', "")


def test_a_key_inside_an_inline_table_is_refused_with_where_it_is() -> None:
    text = "[app]\noptions = { first = 1 }\n"
    with pytest.raises(EditError, match=r"line 2: app\.options is written as one value"):
        edit(text, {("app", "options", "first"): 2})


def test_crlf_and_no_final_newline_are_kept() -> None:
    text = "[pipeline]\r\nbrightness = 0.6\r\ngamma = 2.2"
    assert edit(text, {("pipeline", "brightness"): 1}) == text.replace("0.6", "1")
    added = edit(text, {("pipeline", "fps"): 30, ("app", "game"): "florence"})
    assert added == text + '\r\nfps = 30\r\n\r\n[app]\r\ngame = "florence"\r\n'


def test_the_shipped_config_changes_in_its_lines_only() -> None:
    text = SHIPPED.read_text()
    out = edit(text, {("pipeline", "budget_ma"): 2000, ("app", "game"): "florence"})
    old, new = text.splitlines(), out.splitlines()
    assert len(old) == len(new)
    differ = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert [b for _, b in differ] == [
        "budget_ma = 2000         # 80 % of a 5 V 5 A supply, minus 1 A for the Pi "
        "(docs/wiring.md)",
        'game = "florence"         # remove to choose the game at the table',
    ]


def test_invalid_toml_is_not_edited() -> None:
    with pytest.raises(EditError, match="not valid TOML"):
        edit("[app\n", {("app", "game"): "x"})


SCALARS = (
    st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.booleans()
)


@given(SCALARS)
def test_any_value_written_reads_back_as_itself(value: object) -> None:
    out = edit(FILE, {("pipeline", "brightness"): value, ("app", "names", "3"): value})
    data = tomllib.loads(out)
    assert data["pipeline"]["brightness"] == value
    assert data["app"]["names"]["3"] == value
    assert toml_value(value) in out


KEYS = [
    ("pipeline", "brightness"),
    ("pipeline", "budget_ma"),
    ("pipeline", "fps"),
    ("app", "game"),
    ("app", "chance"),
    ("app", "names", "1"),
    ("app", "names", "2"),
    ("app", "options", "first"),
    ("app", "options", "difficulty"),
    ("seats", "1", "colour"),
    ("seats", "6", "colour"),
    ("strip", "segments", "seat.1"),
]


@given(st.dictionaries(st.sampled_from(KEYS), st.none() | SCALARS, max_size=6))
def test_any_changes_to_the_shipped_file_keep_every_other_line(changes: dict) -> None:
    """Whatever is set or removed, the file's other lines stay, in their order."""
    text = SHIPPED.read_text()
    out = edit(text, changes)
    kept = iter(out.splitlines())
    touched = {k[-1] for k in changes}
    for line in text.splitlines():
        if line.split("=")[0].strip() in touched:
            continue
        assert any(line == other for other in kept), line
