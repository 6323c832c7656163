"""Component data: the road graph with provenance, and what is derived from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import DataError, GameData
from engine.strada_romana import GAME, board_for

from .helpers import arrange, play, started


def names(board, squares) -> set[str]:
    return {board.square_names[s] for s in squares}


def test_every_value_group_has_provenance_and_the_open_questions_are_provisional() -> None:
    data = GAME.data()
    assert all(
        g.provenance in ("rulebook", "derived", "public", "provisional")
        for g in data.groups.values()
    )
    assert all(g.source.strip() for g in data.groups.values())
    assert {g.name for g in data.provisional()} == {
        "areas",
        "single_square",
        "finish",
        "diagonals",
    }


def test_the_road_has_31_squares_in_three_parts_of_five_columns() -> None:
    """'The route is divided into three big parts (black-gray-black squares) with 2 areas
    each'; the public graph has 31 squares, columns 1 to 3 squares tall, 14 markets."""
    b = board_for(GAME.data())
    assert b.road == 31 and len(b.columns) == 15
    assert {len(c) for c in b.columns} == {1, 2, 3}
    assert [sum(1 for p in b.part if p == k) for k in range(3)] == [11, 9, 11]
    assert len(b.market_square) == 14 and len(b.area_names) == 6
    assert [len(s) for s in b.start] == [5, 5]


def parallel_data(tmp_path: Path, extra: str = "") -> GameData:
    override = tmp_path / "strada_romana.toml"
    override.write_text(f'[diagonals]\nrule = "parallel"\n{extra}', encoding="utf-8")
    return GAME.load_data(override=override)


def test_sideways_and_diagonal_neighbours_are_derived_from_the_columns_and_links(
    tmp_path: Path,
) -> None:
    """Sideways: within a column, in 3-square columns only to or from the middle square.
    Diagonal (rule "parallel"): between two parallel 2-square columns that have only
    straight links."""
    b = board_for(parallel_data(tmp_path))
    ix = b.square_index
    assert names(b, b.sideways[ix["113"]]) == {"111", "112"}
    assert names(b, b.sideways[ix["111"]]) == {"113"}
    assert not b.sideways[ix["241"]]
    rome = {b.square_names[s]: names(b, t) for s, t in enumerate(b.diagonal[0]) if t}
    assert rome == {
        "141": {"152"},
        "142": {"151"},
        "221": {"232"},
        "222": {"231"},
        "321": {"332"},
        "322": {"331"},
    }
    portus = {b.square_names[s]: names(b, t) for s, t in enumerate(b.diagonal[1]) if t}
    assert portus["152"] == {"141"} and len(portus) == 6


def test_areas_of_top_middle_bottom_and_the_single_square() -> None:
    b = board_for(GAME.data())
    ix = b.square_index
    area = {b.square_names[s]: {b.area_names[a] for a in b.areas_at[s]} for s in range(b.road)}
    assert (area["111"], area["113"], area["112"]) == ({"I"}, {"I", "II"}, {"II"})
    assert area["241"] == {"III", "IV"}  # provisional: treated like a middle square
    assert b.market_at[ix["241"]] == -1


def test_an_owner_corrects_the_single_square_in_an_override_file(tmp_path: Path) -> None:
    override = tmp_path / "strada_romana.toml"
    override.write_text('[single_square]\nside = "top"\n', encoding="utf-8")
    data = GAME.load_data(override=override)
    assert data["single_square"].provenance == "override"
    state = arrange(started(4, data=data), wagons={"ballio": "231"})
    play(state, "step ballio 241", "stop")
    assert {a.text for a in state.legal_actions() if a.text.startswith("collect")} == {
        "collect tile top"
    }


def test_bad_board_data_names_the_key(tmp_path: Path) -> None:
    override = tmp_path / "strada_romana.toml"
    override.write_text('[diagonals]\nrule = "everywhere"\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"\[diagonals\] rule"):
        board_for(GAME.load_data(override=override))
    override.write_text("[links]\nportus_to_rome = [[111, 131]]\n", encoding="utf-8")
    with pytest.raises(DataError, match="does not lead to the next column"):
        board_for(GAME.load_data(override=override))


def test_the_shipped_diagonals_reach_every_unlinked_square_of_the_next_column() -> None:
    """Rule "unlinked" (shipped): 'he can move the wagons diagonally' reaches any square of
    the next column that no line joins: 18 pairs each way, none of them a linked step."""
    b = board_for(GAME.data())
    ix = b.square_index
    rome = {b.square_names[s]: names(b, t) for s, t in enumerate(b.diagonal[0]) if t}
    assert sum(len(t) for t in rome.values()) == 18
    assert rome["122"] == {"131"} and rome["212"] == {"221"} and rome["141"] == {"152"}
    for square, targets in rome.items():
        assert not targets & names(b, b.straight[0][ix[square]])


def test_an_owner_lists_the_diagonals_of_their_board(tmp_path: Path) -> None:
    """Rule "listed": the parallel crossings and the pairs the owner named, nothing else;
    a pair a line already joins is refused with the squares named."""
    b = board_for(parallel_data(tmp_path, "pairs = [[212, 221]]\n"))
    assert not b.diagonal[0][b.square_index["212"]]  # "parallel" leaves the list aside
    listed = tmp_path / "listed.toml"
    listed.write_text('[diagonals]\nrule = "listed"\npairs = [[221, 212]]\n', encoding="utf-8")
    b = board_for(GAME.load_data(override=listed))
    ix = b.square_index
    rome = {b.square_names[s]: names(b, t) for s, t in enumerate(b.diagonal[0]) if t}
    assert rome["212"] == {"221"} and "122" not in rome and len(rome) == 7
    assert names(b, b.diagonal[1][ix["221"]]) == {"212"}  # and back towards Portus
    listed.write_text('[diagonals]\nrule = "listed"\npairs = [[113, 122]]\n', encoding="utf-8")
    with pytest.raises(DataError, match="113 - 122 are not unlinked"):
        GAME.load_data(override=listed)
