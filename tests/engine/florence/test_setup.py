"""Setup, the component data the rulebook gives, and the free debutants before round 1."""

from __future__ import annotations

import pytest

from engine.core import CHANCE, IllegalAction
from engine.florence.tables import tables_for

from .helpers import DATA, GAME, new_game, play, queue, seat_of, snapshot

T = tables_for(DATA)


def test_every_data_group_has_provenance_and_a_source() -> None:
    """Every value group says where its values come from (DESIGN: component data)."""
    for group in DATA.groups.values():
        assert group.provenance in ("rulebook", "derived", "public", "provisional")
        assert group.source.strip()
    provisional = {g.name for g in DATA.provisional()}
    assert {"queue_blockers", "dial", "brag_slots", "schemes", "scheme_vp"} <= provisional


def test_values_the_rulebook_gives() -> None:
    """'Each player sets the Time dial on their player board to 12, and places ... 5 Debutants,
    3 Donnas, 1 Maestro'; 'x6 Guards', 'x6 Brag Markers'; 'You start with 3' gifts;
    'You can hold up to 5 Scandals at once'; 'The board has 9 Locations'; '7 spaces'."""
    assert T.family == (0, 5, 3, 1)
    assert (T.guards, T.brag_markers, T.gifts, T.gifts_at_start) == (6, 6, 6, 3)
    assert (T.time_at_start, T.time_max, T.hand_limit) == (12, 12, 5)
    assert (T.locations, T.spaces, T.rounds) == (9, 7, 9)
    costs = {k: T.cost[k] for k in ("move", "rush", "brag", "dispatch", "promote", "gift")}
    assert costs == {"move": 1, "rush": 3, "brag": 1, "dispatch": 4, "promote": 5, "gift": 2}
    # "This is 2 Gifts in round 3, and 1 in round 6."
    assert T.gifts_gained == {3: 2, 6: 1}
    # "Each Noble moves 3 times per game: first Cosimo, then Contessina, then Giovanni."
    assert [T.nobles[T.active_noble(r)] for r in range(1, 10)] == [
        "cosimo", "contessina", "giovanni"
    ] * 3  # fmt: skip


def test_values_the_examples_give() -> None:
    """Round 1: Prime Position 1 VP and Cosimo 11/7/4/2; round 2 Contessina 13, 9;
    round 3 Giovanni 20 VP for 4 time, 12 VP for 2 time; Street Cred '7 - 12', '13+'."""
    assert T.prime[0] == 1
    assert T.queue_vp[1][:4] == (11, 7, 4, 2)
    assert T.queue_vp[2][:2] == (13, 9)
    assert T.giovanni[3][:2] == ((20, 4), (12, 2))
    street = T.tiles[T.tile_index["street-cred"]]
    assert street.labels == ("0-6", "7-12", "13+")
    eyes = T.tiles[T.tile_index["eyes-everywhere"]]
    assert eyes.labels[:2] == ("0-6", "7-12")


def test_board_rows_columns_and_roads() -> None:
    """'if this Brag is on Location 7, 8, or 9' (a row); 'on Location 1, 4, or 7' (a column);
    'all roads except the diagonal path through the park in the top left'."""
    assert len(T.roads) == 12
    assert {tuple(x + 1 for x in r) for r in T.roads} >= {(1, 2), (4, 7), (8, 9), (3, 6)}
    assert (0, 4) in T.nobles_only and (0, 4) not in T.road_index


def test_noble_route_of_the_rulebook_examples() -> None:
    """'Cosimo starts on Location 7 and will end on location 2. Cosimo starts by moving to
    location 4, then location 1. He then comes back to location 5, then proceeds to location 2'."""
    assert [x + 1 for x in T.path(6, 1)] == [4, 1, 5, 2]
    # The gameplay example: from the carriage on 1 to 6 "via" 5, 2, 3.
    assert [x + 1 for x in T.path(0, 5)] == [5, 2, 3, 6]
    # One cycle through every location: 8 steps reach the location before the start.
    before = T.route_next.index(0)
    assert sorted([0, *T.path(0, before)]) == list(range(9))


@pytest.mark.parametrize(("players", "spaces"), [(2, 4), (3, 5), (4, 7), (5, 7)])
def test_queue_blockers_cover_spaces_numbered_above_the_player_count(
    players: int, spaces: int
) -> None:
    """'At each location, cover the spots that show a number higher than the number of
    players with Queue Blocker tokens.' (If there are 3 or fewer players.)"""
    state = GAME.new_state(players, data=DATA)
    assert state.cap == (spaces,) * 9


def test_setup_draws_are_chance_actions() -> None:
    """'Shuffle the Brag tiles and deal 1 face-up (randomly) onto each location'; 'Draw 3
    random Location tokens, then randomly place 1 Noble Carriage on each'."""
    state = GAME.new_state(3, data=DATA)
    assert state.current_player() == CHANCE
    assert len(state.legal_actions()) == 9
    assert state.legal_actions()[0].text == "tile 1 influencers"
    for loc in range(1, 9):
        assert state.legal_actions()[0].text.startswith(f"tile {loc} ")
        state.apply(state.legal_actions()[0])
    # The last tile has nowhere else to go: it is placed without asking.
    assert -1 not in state.tiles
    assert state.legal_actions()[0].text.startswith("carriage cosimo ")


def test_carriage_locations_are_the_last_three_location_tokens() -> None:
    """'Shuffle these 3 Location tokens and place them in a face-down pile. Shuffle the
    remaining 6 tokens separately, and place them face-down on top'."""
    state = GAME.new_state(3, data=DATA)
    for _ in range(8):
        state.apply(state.legal_actions()[0])
    play(state, "carriage cosimo 2", "carriage contessina 5", "carriage giovanni 9")
    options = [a.text for a in state.legal_actions()]
    assert options == [f"token location {x}" for x in (1, 3, 4, 6, 7, 8)]


def test_the_first_dial_slot_shows_12_and_two_time_tokens_are_dealt() -> None:
    """'Deal 2 Time tokens and 3 Location tokens ... Do not place a Time Token covering the
    first slot with a '12' printed on it.'"""
    state = new_game(3, times=(9, 2))
    assert state.dial_time[:3] == [12, 9, 2] and state.dial_time[3:] == [0] * 6
    assert state.dial_loc[:3] == [5, 3, 1] and state.dial_loc[3:] == [-1] * 6
    assert [state.destination(n) for n in range(3)] == [5, 3, 1]


def test_a_random_player_gets_the_first_player_marker() -> None:
    """'Give a random player the 1st player marker.'"""
    state = GAME.new_state(4, data=DATA)
    while state.phase == "setup" and state._chance_step()[0] != "first":
        state.apply(state.legal_actions()[0])
    assert [a.text for a in state.legal_actions()] == ["first 1", "first 2", "first 3", "first 4"]
    state.apply("first 3")
    assert state.first == 2 and state.phase == "placement"


def test_players_start_with_time_pieces_gifts_markers_and_guards() -> None:
    """'Each player sets the Time dial on their player board to 12'; 3 Gifts, 6 Brag Markers,
    6 Guards; 5 Debutants, 3 Donnas, 1 Maestro on the player board."""
    state = new_game(4)
    assert state.time == [12] * 4
    assert state.gifts_left == [3] * 4 and state.markers_left == [6] * 4
    assert state.guards_left == [6] * 4
    assert state.supply[4:8] == [0, 5, 3, 1]


def test_free_debutants_are_placed_from_the_last_player_counter_clockwise() -> None:
    """'from the last player (to the right of the 1st) going counter-clockwise, each player
    places a Debutant from their player board on any Location that does not already have
    a Family Member placed there.'"""
    state = new_game(4, first=2)
    assert [seat_of(state)] == [0]  # seat 1 is to the right of seat 2
    play(state, "place 5")
    assert seat_of(state) == 3
    assert "place 5" not in [a.text for a in state.legal_actions()]
    with pytest.raises(IllegalAction):
        state.apply("place 5")
    play(state, "place 1", "place 9")
    assert seat_of(state) == 1
    play(state, "place 2")
    assert state.phase == "actions" and state.round == 1 and seat_of(state) == 1
    assert queue(state, 5) == ["1:debutant"] and state.supply[1] == 4
    assert state.time == [12] * 4  # the free debutants cost nothing


def test_data_digest_guards_restoring_with_other_data() -> None:
    state = new_game(2)
    d = state.to_dict()
    d["data"] = "0000"
    with pytest.raises(ValueError, match="other component data"):
        GAME.state_from_dict(d, data=DATA)
    assert snapshot(GAME.state_from_dict(state.to_dict(), data=DATA)) == snapshot(state)
