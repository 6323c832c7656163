"""Game End: last discards, remaining time, scheme cards and the winner."""

from __future__ import annotations

from engine.core import CHANCE

from .helpers import holding, pass_round, play, seat_of


def texts(state: object) -> list[str]:
    return [a.text for a in state.legal_actions()]  # type: ignore[attr-defined]


def to_round_9(state: object) -> None:
    while state.round < 9 or state.phase != "actions":  # type: ignore[attr-defined]
        if state.phase == "actions":  # type: ignore[attr-defined]
            pass_round(state)  # type: ignore[arg-type]
        elif state.phase == "queue_scoring":  # type: ignore[attr-defined]
            play(state, "decline")  # type: ignore[arg-type]
        else:
            play(state, texts(state)[0])  # type: ignore[arg-type]


def finished_game() -> object:
    """Seat 1 ends with family members on 5, 1, 2 and 4 and a Figlisto card in hand."""
    state = holding("carry", players=2)
    play(state, "dispatch 1", "pass 9", "dispatch 2", "bonus time", "pass")
    to_round_9(state)
    assert seat_of(state) == 1  # the marker went round: seat 2 opens round 9
    play(state, "pass 9", "dispatch 4", "bonus time", "pass")
    while state.phase in ("noble_movement", "queue_scoring"):
        play(state, "decline" if state.phase == "queue_scoring" else texts(state)[0])
    return state


def test_last_discards_then_schemes_are_revealed_and_scored() -> None:
    """'At any time, without using an action, you may discard 1 Scandal to gain 1 time';
    'Each player scores 1 VP for every 2 Time they have remaining ... rounded down';
    'If the player has 4 or more Family Members across those locations, they score the
    corresponding VPs ... If you have fewer than 4 ... you score nothing.'"""
    state = finished_game()
    assert state.phase == "final_discards" and seat_of(state) == 0
    assert state.hands[0] == ("carry", "gift", "recall", "gift", "recall")
    assert texts(state) == ["discard carry", "discard gift", "discard recall", "done"]
    time = state.time[0]
    play(state, "discard carry")
    assert state.time[0] == time + 1 and seat_of(state) == 0
    play(state, "done")
    # Seat 2 holds no card: the scheme cards are revealed (entered) seat by seat.
    assert state.phase == "schemes" and state.current_player() == CHANCE
    assert len(texts(state)) == 6
    vp = list(state.vp)
    play(state, "scheme north-west")
    assert "scheme north-west" not in texts(state)
    events = play(state, "scheme corners")
    assert state.is_over() and state.current_player() is None
    assert state.scheme_count(0) == 4 and state.scheme_count(1) == 0
    assert state.final == [(state.time[0] // 2, 10), (state.time[1] // 2, 0)]
    assert state.vp == [vp[0] + state.time[0] // 2 + 10, vp[1] + state.time[1] // 2]
    assert [e.kind for e in events][-1] == "game_over"


def test_winner_most_vp_then_family_members_then_gifts_else_shared() -> None:
    """'In the case of a tie, the player with the most Family Members on the main board wins. If
    a tie persists, the player who has given the most Gifts wins. If a tie still persists,
    players rejoice in their shared victory!' (ties set up by hand on a finished game)"""
    state = finished_game()
    play(state, "done", "scheme corners", "scheme cross")  # no one scores a scheme
    assert state.is_over()
    on_board = [state.family_on_board(s) for s in (0, 1)]
    assert on_board == [4, 1]
    state.vp = [50, 49]
    assert state.winner() == [0]
    state.vp = [49, 50]
    assert state.winner() == [1]
    state.vp = [50, 50]
    assert state.winner() == [0]  # more family members on the board
    state.queues[4].remove(0 * 4 + 1)
    state.queues[0].remove(0 * 4 + 1)
    state.queues[1].remove(0 * 4 + 1)
    assert state.family_on_board(0) == state.family_on_board(1) == 1
    state.given[1] = (1, 0, 0)
    assert state.winner() == [1]  # then more gifts given
    state.given[1] = (0, 0, 0)
    assert state.winner() == [0, 1]  # shared victory
