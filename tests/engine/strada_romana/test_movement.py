"""a) Moving the Wagons, Special Moves and Traffic Jam: each test quotes its rule."""

from __future__ import annotations

from engine.strada_romana import GAME, SpecialMove

from .helpers import arrange, legal, play, refused, started, steps

# Five wagons have arrived or stand still; only Demetrius (Rome-bound, 131) can move.
LONE = {
    "ballio": "111",
    "canopites": "113",
    "curculio": "112",
    "demetrius": "131",
    "herennius": "121",
    "maccus": "122",
    "persa": [None, "portus"],
    "plotus": [None, "portus"],
    "pseudolus": [None, "portus"],
}
ARRIVED = ["persa", "plotus", "pseudolus"]
# A traffic jam found in play: no wagon can take a plain step.
JAM = {
    "ballio": ["313", "portus"],
    "canopites": ["231", "rome"],
    "curculio": ["222", "rome"],
    "demetrius": ["232", "rome"],
    "hamilcar": ["251", "portus"],
    "herennius": ["221", "rome"],
    "maccus": ["252", "portus"],
    "persa": ["311", "portus"],
    "plotus": ["212", "rome"],
    "pseudolus": ["241", "portus"],
}


def test_first_move_from_any_start_square_to_any_first_square() -> None:
    """'the first move from the start can be performed by any wagon on any of the first
    squares (3 on the side of Portus and 2 on the side of Rome)'."""
    state = started(4)
    to_rome = {
        f"step {w} {s}"
        for w in ("ballio", "canopites", "curculio", "demetrius", "hamilcar")
        for s in ("111", "113", "112")
    }
    to_portus = {
        f"step {w} {s}"
        for w in ("herennius", "maccus", "persa", "plotus", "pseudolus")
        for s in ("351", "352")
    }
    assert steps(state) == to_rome | to_portus


def test_wagons_move_along_the_links_only_forward() -> None:
    """'Wagons can only move straight ahead or diagonally ... on the squares that link up.'
    and 'Wagons cannot go backwards.'"""
    state = arrange(started(4), wagons={"ballio": "121", "herennius": "141"})
    assert {t for t in steps(state) if "ballio" in t} == {"step ballio 131", "step ballio 132"}
    # heading to Portus, the links are used reversed: 141 is reached from 131 and 132
    assert {t for t in steps(state) if "herennius" in t} == {
        "step herennius 131",
        "step herennius 132",
    }
    refused(state, "step ballio 111", "Wagons never move backwards")


def test_blocked_by_any_wagon_in_front_regardless_of_direction() -> None:
    """'a wagon is blocked when it finds another wagon on the square in front of him
    (regardless of its direction)'."""
    state = arrange(started(4), wagons={"ballio": "141", "maccus": "151", "canopites": "132"})
    assert not any(t.startswith(("step ballio", "step maccus")) for t in steps(state))
    refused(state, "step ballio 151", "never be more than one wagon on a square")
    refused(state, "step canopites 141", "Ballio is on 141")  # a Rome-bound wagon blocks too


def test_a_turn_is_three_steps_split_over_wagons_and_not_fewer() -> None:
    """'Players must always move by 3 squares, unless traffic blocks their way.'"""
    state = started(4)
    state.apply("step ballio 111")
    assert state.phase == "moving" and legal(state) == {"step ballio 121", "stop"}
    state.apply("stop")
    assert "end" not in legal(state)  # 1 of 3 steps: another wagon must move
    play(state, "step canopites 113", "step canopites 122")
    assert state.phase == "stopped" and state.used == 3 and "end" in legal(state)


def test_fewer_steps_only_when_traffic_blocks() -> None:
    """'unless traffic blocks their way': here one step is all the traffic allows."""
    state = arrange(
        started(4),
        wagons={
            "ballio": ["231", "rome"],
            "canopites": ["211", "rome"],
            "curculio": ["142", "rome"],
            "demetrius": ["212", "portus"],
            "hamilcar": ["241", "portus"],
            "herennius": ["232", "portus"],
            "maccus": ["252", "portus"],
            "persa": ["221", "rome"],
            "plotus": ["251", "portus"],
            "pseudolus": ["222", "rome"],
        },
    )
    assert steps(state) == {"step curculio 152", "step demetrius 152"}
    state.apply("step curculio 152")  # now nothing can move: its move ends by itself
    assert state.phase == "stopped" and state.used == 1 and not steps(state)
    assert "end" in legal(state)
    state.apply("end")
    assert state.current_player() == 1


def test_a_move_must_keep_the_steps_the_traffic_allows() -> None:
    """'Players must always move by 3 squares': stopping Demetrius after one step would
    leave no wagon able to move, so only going on is allowed."""
    state = arrange(started(4), wagons=LONE, arrived=ARRIVED)
    assert steps(state) == {"step demetrius 141"}
    state.apply("step demetrius 141")
    assert legal(state) == {"step demetrius 151"}
    refused(state, "stop", "Players must always move by 3 squares")
    play(state, "step demetrius 151", "step demetrius 211")
    assert state.used == 3 and state.phase == "stopped"


def test_each_wagon_moves_once_per_turn_and_never_back_to_a_square() -> None:
    """Rulings 3 and 4: a wagon's steps are taken together ('move one wagon by 2 squares
    ... and another wagon by 1 square'), and 'without changing direction'."""
    state = arrange(started(4), wagons={"ballio": "141"}, coins={0: 1})
    play(state, "buy sideways", "step ballio 142")
    refused(state, "step ballio 141", "does not go back to 141")
    refused(state, "step canopites 111", "Ballio is moving: end its move with 'stop'")
    play(state, "stop")
    refused(state, "step ballio 152", "Ballio has already moved this turn")


def test_sideways_needs_the_sideways_move() -> None:
    """'Wagons cannot go sideways unless of Special Moves.' 'Sideways move: A player pays
    1 coin. During his turn, he can move the wagons sideways.'"""
    state = arrange(started(4), wagons={"ballio": "141"}, coins={0: 1})
    refused(state, "step ballio 142", "cannot go sideways unless of Special Moves")
    play(state, "buy sideways")
    assert state.coins[0] == 0 and "step ballio 142" in steps(state)
    refused(state, "step ballio 152", "buy diagonal")


def test_diagonal_move_includes_sideways() -> None:
    """'Diagonal move: A player pays 2 coins. During his turn, he can move the wagons
    diagonally and sideways.'"""
    state = arrange(started(4), wagons={"ballio": "141"}, coins={0: 2})
    refused(state, "step ballio 152", "Special Move: buy diagonal")
    play(state, "buy diagonal")
    assert {"step ballio 151", "step ballio 152", "step ballio 142"} <= steps(state)


def test_special_moves_are_bought_at_the_beginning_of_the_turn() -> None:
    """'At the beginning of their turn, players can use their coins to buy special
    features'."""
    state = arrange(started(4), coins={0: 3})
    state.apply("step ballio 111")
    refused(state, "buy sideways", "bought at the beginning of the turn")


def test_stacking_passes_through_but_never_ends_on_an_occupied_square() -> None:
    """'Stacking: A player pays 4 coins. A wagon can pass through an occupied square, but at
    the end of its move only one wagon can stay on each square.'"""
    state = arrange(started(4), wagons={"ballio": "141", "maccus": "151"}, coins={0: 4})
    play(state, "buy stacking", "step ballio 151")
    assert "stop" not in legal(state)
    refused(state, "stop", "only one wagon can stay on each square")
    play(state, "step ballio 211", "stop")
    d = state.to_dict()["wagons"]
    assert d["ballio"][0] == "211" and d["maccus"][0] == "151"
    assert not state.invariants()


def test_stacking_refused_without_a_free_square_within_reach() -> None:
    """'at the end of its move only one wagon can stay on each square': with one step
    left, Ballio could not get past Maccus."""
    state = arrange(started(4), wagons={"ballio": "141", "maccus": "151"}, coins={0: 4})
    play(state, "buy stacking", "step canopites 111", "step canopites 121")
    play(state, "step canopites 131", "stop")
    assert state.used == 3
    refused(state, "step ballio 151", "may pass through 151, but")


def test_a_traffic_jam_offers_what_solves_it_a_tile_or_a_pass() -> None:
    """'If the wagons are blocked, a traffic jam is formed. A player can buy a special move
    to solve the jam. ... If the player cannot or does not want to pay to move, he can
    choose a wagon tile, or pass, taking a coin.'"""
    state = arrange(started(4), wagons=JAM)
    assert legal(state) == {"tile", "pass"}
    state = arrange(started(4), wagons=JAM, coins={0: 4})
    # "each special move includes all the benefits of the cheaper ones": the diagonal and
    # the extra move solve this jam as the sideways move does, so each may be bought
    assert legal(state) == {
        "buy sideways",
        "buy diagonal",
        "buy extra",
        "buy stacking",
        "tile",
        "pass",
    }
    state = arrange(started(4), wagons=JAM, coins={0: 2})
    assert legal(state) == {"buy sideways", "buy diagonal", "tile", "pass"}
    refused(state, "buy extra", "costs 3 coins")


def test_in_a_jam_any_special_move_it_can_pay_for_may_be_bought() -> None:
    """'A player can buy a special move to solve the jam' - the dearer ones too: bought in
    this jam, the extra move takes the same steps as the sideways move, and four of them."""
    state = arrange(started(4), wagons=JAM, coins={0: 3})
    play(state, "buy extra")
    assert state.coins[0] == 0 and state.special is SpecialMove.EXTRA
    assert steps(state) >= {"step ballio 312", "step plotus 211"}


def test_after_buying_in_a_jam_the_three_moves_are_made_if_possible() -> None:
    """'If possible, he must make his three moves as usual.'"""
    state = arrange(started(4), wagons=JAM, coins={0: 1})
    play(state, "buy sideways")
    assert steps(state) == {"step ballio 312", "step plotus 211"}
    state.apply("step ballio 312")  # from 312 Maccus blocks the way: the move ends
    assert state.phase == "stopped" and state.used == 1 and "end" not in legal(state)
    assert steps(state) == {"step persa 313", "step plotus 211"}  # Ballio made room
    play(state, "step plotus 211", "step persa 313")
    assert state.used == 3 and state.phase == "stopped"


def test_arrivals_are_numbered_and_the_fourth_ends_the_game() -> None:
    """'The game ends immediately ... when the fourth wagon reaches its destination (place
    the first 4 arrived wagons on the squares numbered from 1 to 4, regardless of the
    destination).'"""
    state = arrange(started(4), wagons={"ballio": "341", **{k: LONE[k] for k in ARRIVED}})
    state = arrange(state, arrived=ARRIVED)
    events = play(state, "step ballio 351", "step ballio rome")
    arrived = [e for e in events if e.kind == "wagon_arrived"]
    assert arrived[0]["order"] == 4 and arrived[0]["at"] == "rome"
    assert state.is_over() and state.ended == "arrivals"
    assert state.to_dict()["arrived"] == [*ARRIVED, "ballio"]


def test_special_move_covers_every_wagon_moved_in_the_turn() -> None:
    """'each special move includes all the benefits of the cheaper ones, and can be used for
    all the wagons moved during a single turn.'"""
    state = arrange(started(4), wagons={"ballio": "141", "canopites": "221"}, coins={0: 2})
    play(state, "buy diagonal", "step ballio 152", "stop", "step canopites 232")
    d = state.to_dict()["wagons"]
    assert (d["ballio"][0], d["canopites"][0]) == ("152", "232")


def test_new_game_is_not_changed_by_a_refusal() -> None:
    state = GAME.new_state(2)
    refused(state, "step ballio 111", "not possible now")
