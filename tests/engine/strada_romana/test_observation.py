"""What the Strada Romana table shows (`observe()`), and what only a seat knows (`observe(seat)`).

'The "wagon tiles" are always kept face down (the other players may know how many each
player owns, but not which ones).' (b) Choose a "Wagon Tile") and 'When the game ends, all
players reveal the "wagon tiles" they own.' (Score: Wagon Tiles)
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.core import CHANCE, Observation, derive, random_action
from engine.strada_romana import (
    GAME,
    Draw,
    Holding,
    Market,
    SpecialMove,
    StradaRomanaEndObservation,
    StradaRomanaObservation,
    StradaRomanaSeatObservation,
    StradaRomanaState,
    Wagon,
)
from engine.strada_romana.wagon_tiles import UNKNOWN

from .helpers import arrange, play, started
from .test_movement import JAM


def fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def blanked(state: StradaRomanaState) -> StradaRomanaState:
    """The same position with every wagon tile's identity forgotten."""
    other = state.clone()
    other.wagon_tiles = [[UNKNOWN] * len(held) for held in state.wagon_tiles]
    return other


def test_the_public_table_has_no_field_that_could_name_a_wagon_tile() -> None:
    public = fields(StradaRomanaObservation) - fields(Observation)
    assert public == {
        "board", "wagons", "arrivals", "markets", "areas", "bag_cubes", "bag_tiles",
        "holdings", "deck", "move", "draw", "legal", "ended",
    }  # fmt: skip
    assert Holding._fields == ("coins", "victory_points", "cubes", "ware_tiles", "wagon_tiles")
    assert fields(StradaRomanaSeatObservation) - fields(StradaRomanaObservation) == {
        "own_wagon_tiles"
    }
    assert fields(StradaRomanaEndObservation) - fields(StradaRomanaObservation) == {"revealed"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_tiles_entered_as_taken_change_nothing_the_table_sees(players: int) -> None:
    """Over whole games with `wagon_tiles = "when_taken"`: before the end, forgetting which
    wagons the tiles name leaves the public observation as it was, while each seat's own
    observation names exactly its own tiles."""
    checked = 0
    for seed in range(2):
        state = GAME.new_state(players, seed=seed, options={"wagon_tiles": "when_taken"})
        rng = derive(seed, "observation", players)
        while not state.is_over() and state.phase != "reveal":
            if any(w != UNKNOWN for held in state.wagon_tiles for w in held):
                assert state.observe() == blanked(state).observe()
                for seat in range(players):
                    mine = state.observe(seat)
                    assert isinstance(mine, StradaRomanaSeatObservation) and mine.seat == seat
                    names = [state.board.wagons[w] for w in state.wagon_tiles[seat] if w >= 0]
                    assert [w for w in mine.own_wagon_tiles if w] == names
                checked += 1
            state.apply(random_action(state, rng))
    assert checked > 20


def test_how_many_tiles_each_seat_holds_is_public() -> None:
    state = started(4, options={"wagon_tiles": "when_taken"})
    play(state, "tile", "wagon maccus", "tile")
    table = state.observe()
    assert [h.wagon_tiles for h in table.holdings] == [1, 1, 0, 0]
    assert table.deck == 7
    assert table.legal == ()  # seat 2 names its tile: what is left would tell what is held
    assert state.observe(0).own_wagon_tiles == ("maccus",)
    assert state.observe(1).own_wagon_tiles == (None,)  # taken, not yet named
    assert table == blanked(state).observe()


def test_at_the_end_every_observer_sees_the_tiles_revealed() -> None:
    state = arrange(
        started(4, options={"wagon_tiles": "when_taken"}),
        wagons={w: [None, "portus"] for w in ("persa", "plotus", "pseudolus")} | {"ballio": "351"},
        arrived=["persa", "plotus", "pseudolus"],
        wagon_tiles=[["ballio", "maccus"], ["curculio"], [], []],
    )
    assert not isinstance(state.observe(), StradaRomanaEndObservation)
    state.apply("step ballio rome")
    end = state.observe()
    assert isinstance(end, StradaRomanaEndObservation) and end.over
    assert end.revealed == (("ballio", "maccus"), ("curculio",), (), ())
    assert end.ended == "arrivals" and end.arrivals == ("persa", "plotus", "pseudolus", "ballio")
    assert end.scores == tuple(state.scores()) and end.scores[0] == 2  # +3 - 1
    assert isinstance(state.observe(2), StradaRomanaEndObservation)


def test_during_the_reveal_a_tile_not_named_yet_is_none() -> None:
    state = arrange(
        started(4),
        wagons={w: [None, "portus"] for w in ("persa", "plotus", "pseudolus")} | {"ballio": "351"},
        arrived=["persa", "plotus", "pseudolus"],
        wagon_tiles=[[None, None], [None], [], []],
    )
    play(state, "step ballio rome", "wagon hamilcar")
    obs = state.observe()
    assert isinstance(obs, StradaRomanaEndObservation) and obs.phase == "reveal"
    assert obs.revealed == (("hamilcar", None), (None,), (), ())
    assert obs.current == 0 and "wagon hamilcar" not in obs.legal


def test_observations_are_frozen() -> None:
    obs = started(3).observe()
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.phase = "over"  # type: ignore[misc]
    with pytest.raises(TypeError):
        obs.board.square_index["111"] = 5  # type: ignore[index]


def test_the_road_the_goods_and_the_seats() -> None:
    state = started(4)
    play(state, "step ballio 112", "stop", "collect tile bottom")  # area II, red: 3 coins
    obs = state.observe()
    assert obs.wagon("ballio") == Wagon("ballio", "112", "rome", 0)
    assert obs.wagon("maccus") == Wagon("maccus", "r2", "portus", 0)
    assert obs.markets[0] == Market("112", "yellow")
    assert obs.areas[1].name == "II" and obs.areas[1].ware is None  # refilled next
    assert obs.holdings[0].coins == 3 and obs.holdings[0].ware_tiles[1] == 1
    assert obs.draw == Draw("ware", "II", refill=True) and obs.current == CHANCE
    assert sum(obs.bag_tiles) == 36 - 6 and obs.move is not None and obs.move.seat == 0
    assert obs.move.stopped_at == "112" and obs.move.took == ("tile",)


def test_the_move_names_the_special_move_and_its_allowance() -> None:
    """'Extra move: A player pays 3 coins. During his turn, he can move by 4 instead of 3.'"""
    state = arrange(started(4), wagons={"ballio": "141", "maccus": "151"}, coins={0: 4})
    move = state.observe().move
    assert move is not None and move.special is SpecialMove.NONE and move.allowance == 3
    play(state, "buy stacking", "step ballio 151")
    move = state.observe().move
    assert move is not None and move.special is SpecialMove.STACKING and move.allowance == 4
    assert (move.mover, move.over, move.steps, move.moved) == ("ballio", "maccus", 1, ("ballio",))
    assert state.observe().wagon("ballio").square == "151"
    b = state.board
    assert [b.allowance(m) for m in SpecialMove] == [3, 3, 3, 4, 4]
    assert SpecialMove.STACKING.includes(SpecialMove.EXTRA)
    assert not SpecialMove.DIAGONAL.includes(SpecialMove.EXTRA)


def test_setup_draws_say_what_they_fill() -> None:
    state = GAME.new_state(3)
    assert state.observe().draw == Draw("wagon", "p1", refill=False)
    play(state, *(f"place {w}" for w in GAME.data()["wagons"]["names"]))
    assert state.observe().draw == Draw("ware", "I", refill=False)
    assert state.observe().move is None and state.observe().setup


def reach_by_playing(state: StradaRomanaState, wagon: str) -> dict[str, int]:
    """Where `wagon` can get, found by playing its steps on clones, level by level: what
    the legal actions allow (the table's view did this before the read model)."""
    depth: dict[str, int] = {}
    frontier, level = [state], 1
    w = state.board.wagon_index[wagon]
    while frontier:
        following = []
        for here in frontier:
            for action in here.legal_actions():
                if action.words[0] != "step" or action.words[1] != wagon:
                    continue
                depth.setdefault(action.words[2], level)
                trial = here.clone()
                trial.apply(action)
                if trial.phase == "moving" and trial.mover == w:
                    following.append(trial)
        frontier, level = following, level + 1
    return depth


@pytest.mark.parametrize("players", [2, 4, 5])
def test_reach_from_the_observation_is_what_the_legal_actions_allow(players: int) -> None:
    checked = 0
    for seed in range(2):
        state = GAME.new_state(players, seed=seed)
        rng = derive(seed, "reach", players)
        while not state.is_over() and len(state.history) < 600:
            stepping = {a.words[1] for a in state.legal_actions() if a.words[0] == "step"}
            obs = state.observe()
            for wagon in state.board.wagons:
                want = reach_by_playing(state, wagon) if wagon in stepping else {}
                assert obs.reach(wagon) == want, (seed, len(state.history), wagon)
                checked += bool(want)
            state.apply(random_action(state, rng))
    assert checked > 300


def test_reach_in_a_traffic_jam_after_buying() -> None:
    """'If possible, he must make his three moves as usual.'"""
    state = arrange(started(4), wagons=JAM, coins={0: 1})
    assert state.observe().reach("ballio") == {}
    play(state, "buy sideways")
    assert state.observe().reach("ballio") == reach_by_playing(state, "ballio") == {"312": 1}
