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
        "area_names",
        "column_c4",
        "finish",
        "diagonals",
    }
    assert [f"[{g.name}] {k}" for g, k in data.unchecked()] == [
        "[column_c4] joined",
        "[diagonals] rule",
        "[diagonals] pairs",
        "[area_names] names",
        "[finish] squares_per_side",
    ]


def test_the_markets_are_the_14_squares_both_public_boards_agree_on() -> None:
    """'Place one cube at random on each market-place along the Roman road': 14, beside
    the same squares in both fan implementations (and 14 cubes at set-up in a review)."""
    data = GAME.data()
    b = board_for(data)
    assert data["markets"].provenance == "public"
    assert "rrrovalle/strada-romana" in data["markets"].source
    assert "TazzSoni/StradaRomana" in data["markets"].source
    squares = "112 121 132 151 152 221 232 251 312 321 322 331 351 352"
    assert names(b, b.market_square) == set(squares.split(" "))


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
    """'If on a top square, the player can only take a top "ware" tile. If on a middle
    square, the player can choose a top or a bottom "ware" tile.' Square 241 is a middle
    square (public): it borders both of part B's areas."""
    data = GAME.data()
    b = board_for(data)
    ix = b.square_index
    area = {b.square_names[s]: {b.area_names[a] for a in b.areas_at[s]} for s in range(b.road)}
    assert (area["111"], area["113"], area["112"]) == ({"I"}, {"I", "II"}, {"II"})
    assert area["241"] == {"III", "IV"}
    assert b.market_at[ix["241"]] == -1
    assert data["single_square"].provenance == "public"  # no longer a guess
    assert "rrrovalle/strada-romana" in data["single_square"].source


def test_each_part_has_one_area_above_and_one_below_the_road() -> None:
    """'The route is divided into three big parts ... with 2 areas each' (rulebook): one
    above and one below the road per part (public); only their numbers are a guess."""
    data = GAME.data()
    assert data["areas"].provenance == "public"
    assert data["areas"].values == {
        "parts": ["A", "A", "B", "B", "C", "C"],
        "sides": ["top", "bottom", "top", "bottom", "top", "bottom"],
    }
    assert data["area_names"].provenance == "provisional"
    assert data["area_names"]["names"] == ["I", "II", "III", "IV", "V", "VI"]


def test_an_owner_file_written_before_the_areas_were_split_still_loads(tmp_path: Path) -> None:
    """An owner who checked [areas] names before they moved to [area_names] keeps them."""
    override = tmp_path / "strada_romana.toml"
    override.write_text(
        '[areas]\nprovenance = "owner"\nnames = ["II", "I", "IV", "III", "VI", "V"]\n'
        'parts = ["A", "A", "B", "B", "C", "C"]\n',
        encoding="utf-8",
    )
    data = GAME.load_data(override=override)
    assert data["area_names"]["names"] == ["II", "I", "IV", "III", "VI", "V"]
    assert data["area_names"].provenance == "owner"
    assert "[area_names] names" not in [f"[{g.name}] {k}" for g, k in data.unchecked()]
    assert board_for(data).area_names[0] == "II"


def lines(b, square: str) -> set[str]:
    """The squares a line joins `square` to, towards Rome ("rome": it arrives)."""
    return {b.name(t) for t in b.straight[0][b.square_index[square]]}


def test_part_c_column_4_as_shipped_and_as_the_other_public_board_draws_it(
    tmp_path: Path,
) -> None:
    """The two public boards disagree on part C column 4: shipped, 342 has four lines
    (TazzSoni/StradaRomana); with joined = "top", 341 has them (rrrovalle/strada-romana).
    Either way the rest of the road is the same."""
    shipped = board_for(GAME.data())
    assert (lines(shipped, "331"), lines(shipped, "332")) == ({"341", "342"}, {"342"})
    assert (lines(shipped, "341"), lines(shipped, "342")) == ({"351"}, {"351", "352"})
    override = tmp_path / "strada_romana.toml"
    override.write_text('[column_c4]\njoined = "top"\n', encoding="utf-8")
    other = board_for(GAME.load_data(override=override))
    assert (lines(other, "331"), lines(other, "332")) == ({"341"}, {"341", "342"})
    assert (lines(other, "341"), lines(other, "342")) == ({"351", "352"}, {"352"})
    assert names(other, other.straight[1][other.square_index["341"]]) == {"331", "332"}
    for square in shipped.square_names[: shipped.road]:
        if square[:2] not in ("33", "34"):
            assert lines(shipped, square) == lines(other, square)
    override.write_text('[column_c4]\njoined = "middle"\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"\[column_c4\] joined"):
        board_for(GAME.load_data(override=override))


def test_the_extra_move_example_has_its_one_wagon_paths_under_either_reading(
    tmp_path: Path,
) -> None:
    """'a player who pays 3 coins (extra move) can move: 1 straight, 1 diagonal, another
    straight and finally the fourth (extra) move diagonal.' Part C column 4 does not decide
    it: one wagon has 19 such paths under either reading (ruling 9)."""

    def paths(b) -> int:
        n, road = 0, b.road
        for h in (0, 1):
            for s in range(road):
                for a in (x for x in b.straight[h][s] if x < road):
                    for d in b.diagonal[h][a]:
                        for c in (x for x in b.straight[h][d] if x < road):
                            n += len(b.diagonal[h][c])
        return n

    override = tmp_path / "strada_romana.toml"
    override.write_text('[column_c4]\njoined = "top"\n', encoding="utf-8")
    assert paths(board_for(GAME.data())) == 19
    assert paths(board_for(GAME.load_data(override=override))) == 19


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
