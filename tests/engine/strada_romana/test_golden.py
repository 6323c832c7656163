"""The rulebook's worked examples as golden tests (shared research: rulebook-examples)."""

from __future__ import annotations

from pathlib import Path

from engine.strada_romana import GAME

from .helpers import arrange, play, started


def give(state, seat: int, cubes: dict[str, int], tiles: dict[str, int]):
    """The seat holds these cubes and ware tiles, taken out of the bag (all else conserved)."""
    d = state.to_dict()
    bag = d["bag"]
    for colour, n in cubes.items():
        d["cubes"][seat][colour] += n
        bag["cubes"][colour] -= n
    for colour, n in tiles.items():
        d["tiles"][seat][colour] += n
        bag["tiles"][colour] -= n
    return arrange(state, cubes=d["cubes"], tiles=d["tiles"], bag=bag)


def test_scoring_example_eighteen_points() -> None:
    """'Stipulated contracts: 2 yellow contracts, 4 green contracts, 1 red contract, 2 blue
    contracts, 1 white contract. Uncompleted contracts: 1 brown cube, 1 green "ware" tile.
    Score: 5 colours ... x maximum number: 4 green contracts = 20. However he loses 2
    Points ... 20 - 2 = 18 points'."""
    contracts = {"yellow": 2, "green": 4, "red": 1, "blue": 2, "white": 1}
    state = give(
        started(4),
        0,
        cubes={**contracts, "brown": 1},
        tiles={**contracts, "green": 5},
    )
    assert not state.invariants()
    assert state.contract_points(0) == 18
    assert state.scores()[0] == 18


def test_wagon_tile_example_two_points() -> None:
    """'a player has two "wagon tiles". At the end of the game, only one of them has
    arrived. The player scores 2 points: 3 for the wagon that arrived, and -1 for the one
    still on the road.'"""
    state = arrange(
        started(4, options={"wagon_tiles": "when_taken"}),
        wagons={w: [None, "portus"] for w in ("persa", "plotus", "pseudolus")} | {"ballio": "351"},
        arrived=["persa", "plotus", "pseudolus"],
        wagon_tiles=[["ballio", "maccus"], [], [], []],
    )
    state.apply("step ballio rome")  # the fourth arrival ends the game
    assert state.is_over()
    assert state.wagon_points(0) == 2 and state.scores()[0] == 2


def test_three_steps_split_two_and_one() -> None:
    """'move one wagon by 2 squares towards Rome and another wagon by 1 square towards
    Ostia-Portus'."""
    state = started(4)
    events = play(state, "step ballio 111", "step ballio 121", "stop", "step herennius 351")
    moved = [(e["wagon"], e["to"]) for e in events if e.kind == "wagon_moved"]
    assert moved == [("ballio", "111"), ("ballio", "121"), ("herennius", "351")]
    assert state.used == 3 and state.phase == "stopped"  # at 351: a market and area V
    state.apply("end")
    assert state.current_player() == 1 and state.used == 0


def test_three_wagons_one_square_each() -> None:
    """'or move three wagons by 1 square.'"""
    state = started(4)
    play(state, "step ballio 111", "stop", "step canopites 113", "stop", "step herennius 352")
    d = state.to_dict()["wagons"]
    assert [d[w][0] for w in ("ballio", "canopites", "herennius")] == ["111", "113", "352"]
    assert state.used == 3


def test_extra_move_straight_diagonal_straight_diagonal() -> None:
    """'a player who pays 3 coins (extra move) can move: 1 straight, 1 diagonal, another
    straight and finally the fourth (extra) move diagonal. He would not have used the option
    to go sideways.' With the shipped diagonals (rule "unlinked") one wagon does all four."""
    state = arrange(started(4), wagons={"ballio": "131"}, coins={0: 3})
    play(state, "buy extra", "step ballio 141", "step ballio 152", "step ballio 212")
    state.apply("step ballio 221")  # 212 -> 221: no line links them, a diagonal
    assert state.to_dict()["wagons"]["ballio"][0] == "221"
    assert state.used == 4 and state.coins[0] == 0


def test_extra_move_example_shared_by_two_wagons_on_a_parallel_board(tmp_path: Path) -> None:
    """On a board whose only special diagonals cross parallel 2-square columns
    ([diagonals] rule = "parallel"), no road has two of them two columns apart: the four
    steps are shared by two wagons, as 'can be used for all the wagons moved during a
    single turn' allows (ruling 9); one wagon cannot make the second diagonal."""
    override = tmp_path / "strada_romana.toml"
    override.write_text('[diagonals]\nrule = "parallel"\n', encoding="utf-8")
    data = GAME.load_data(override=override)
    state = arrange(
        started(4, data=data), wagons={"ballio": "131", "canopites": "211"}, coins={0: 3}
    )
    play(state, "buy extra", "step ballio 141", "step ballio 152", "stop")
    play(state, "step canopites 221", "step canopites 232")  # the fourth step
    d = state.to_dict()["wagons"]
    assert (d["ballio"][0], d["canopites"][0]) == ("152", "232")
    assert state.used == 4 and state.coins[0] == 0
    one = arrange(started(4, data=data), wagons={"ballio": "131"}, coins={0: 3})
    play(one, "buy extra", "step ballio 141", "step ballio 152", "step ballio 212")
    assert "step ballio 221" not in [a.text for a in one.legal_actions()]
