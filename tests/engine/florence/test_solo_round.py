"""A whole solo round at the table, every Strozzi step checked against the "Solo Mode" text.

Board: Cosimo's carriage on 1, Contessina's on 7, Giovanni's on 9; destinations 6 (round 1,
Cosimo), 4 (round 2, Contessina), 2 (round 3, Giovanni); Street Cred on location 5. The
human confirms each of Strozzi's steps (`ok`), as at a real table.
"""

from __future__ import annotations

from engine.core import CHANCE
from engine.florence.solo import ALL_CARDS

from .helpers import DATA, play
from .solo_helpers import HUMAN, STROZZI, pieces, solo_game, steps, texts


def test_a_scripted_solo_round() -> None:
    state = solo_game(tiles={5: "street-cred"}, confirm=True, place=None)
    t = state.tables
    # Setup: "Give yourself the start player marker."
    assert state.first == HUMAN
    # "Strozzi starts with 3 Guards (either colour) on the board: 1 on the Cosimo shield
    # immediately after his carriage's location (if Location 1, put it between Location 1 &
    # 2), 1 on the Contessina shield on the Brag tile at Contessina's destination, and 1 on
    # the Giovanni shield on Giovanni's destination."
    assert state.escorts[t.road_index[(0, 1)]] == (1,)  # orange, on the road 1-2
    assert state.spies[3] == (2,)  # blue, Contessina's destination 4
    assert state.bouncers[1] == (1,)  # orange, Giovanni's destination 2
    # "As the 2nd player, Strozzi deploys his Debutants before you: 1 Orange Debutant on
    # Cosimo's destination and 1 Blue Debutant at Giovanni's destination."
    assert pieces(state, 6) == ["orange:debutant"] and pieces(state, 2) == ["blue:debutant"]
    assert state.schemes == [-1, -1] and not state.kind(STROZZI).has_scheme(state, STROZZI)
    assert "place 6" not in texts(state) and "place 2" not in texts(state)
    play(state, "place 5")

    # Gain Time: "In the 1st Gain Time phase, Strozzi gets 6 time."
    assert state.round == 1 and state.time == [12, 6]
    assert state.current_player() == HUMAN and state.turn == HUMAN

    play(state, "dispatch 2")
    assert pieces(state, 2) == ["blue:debutant", "you:debutant"]

    # "If he has 1 or more time: Draw a card from his deck" - a chance action.
    assert state.current_player() == CHANCE
    assert texts(state) == [f"solo {n}" for n in range(1, 11)]
    # Card 6: "If this is the 1st card Strozzi reveals in a round, don't resolve it. Draw a
    # new card, and shuffle this one back into the draw deck." The new card is drawn first.
    events = play(state, "solo 6")
    assert steps(events) == [
        "Card 6, Time to Party, is his first card this round: draw a new card, then shuffle "
        "card 6 back into his deck."
    ]
    assert state.time[STROZZI] == 6 and not state.passed[STROZZI]
    play(state, "ok")
    assert state.current_player() == CHANCE and "solo 6" not in texts(state)

    # Card 5 refers to Noble C, Giovanni: "Deploy 2 Debutants (1 orange, 1 blue.)" Each card
    # "has a time cost (2-3). When drawn, reduce his time accordingly before resolving."
    # His orange Bouncer on 2: "it advances as far ahead in the queue as possible".
    events = play(state, "solo 5")
    assert state.time[STROZZI] == 3
    assert steps(events) == [
        "Shuffle card 6 back into his deck. Card 5: Strozzi pays 3 time (3 left). Strozzi "
        "deploys an orange Debutant on location 2, 1st in the queue."
    ]
    assert state.current_player() == HUMAN and texts(state) == ["ok"]
    events = play(state, "ok")
    assert steps(events) == ["Strozzi deploys a blue Debutant on location 2, 4th in the queue."]
    play(state, "ok")
    assert pieces(state, 2) == ["orange:debutant", "blue:debutant", "you:debutant", "blue:debutant"]

    play(state, "move 5 debutant1 4")
    # Cards 8 & 9: "Strozzi performs a Brag on the 1st Location after Noble A's current
    # position (following Noble arrows). In rounds 1-3, he gains the VP shown on the Brag
    # Tile twice, and puts a Brag token of the indicated colour on the lowest space. He
    # doesn't need to meet the condition, or have a piece there."
    events = play(state, "solo 8")  # Cosimo is on 1; the arrows go on to 5 (Street Cred, 3)
    assert steps(events) == [
        "Card 8: Strozzi pays 2 time (1 left). Strozzi brags on location 5 (street-cred): "
        "3 x 2 = 6 VP, his orange token on the 0-6 space."
    ]
    assert state.vp[STROZZI] == 6 and state.slots[4][0] == STROZZI
    play(state, "ok", "dispatch 6")
    assert pieces(state, 6) == ["orange:debutant", "you:debutant"]

    # Card 10 costs 2 and he has 1: "If it costs more time than he has, he loses all his time,
    # and resolves it anyway." "Strozzi deploys a Guard on a shield of Noble B, at Noble B's
    # Destination" - Contessina's shield at 4 holds his spy: "If the spot is taken, trace a
    # path back along the Noble arrows" - the arrows reach 4 from 7.
    events = play(state, "solo 10")
    assert state.time[STROZZI] == 0
    assert steps(events) == [
        "Card 10: Strozzi pays 1 time (0 left). Strozzi places a blue guard as Contessina's "
        "spy at location 7."
    ]  # 4 orange and 5 blue guards left: the colour with more
    assert state.spies[6] == (2,)
    play(state, "ok", "move 4 debutant1 5")

    # "If he has 0 time and hasn't passed: He Passes, placing his ring on the 1st Destination
    # (from Noble A to C) where he has no Family Member in Prime Position and can swap pieces
    # with you. If no such Location exists, look for any destination where he could swap
    # pieces with you." 6 and 2 have his debutant in Prime Position; only on 2 is one of his
    # pieces right behind one of yours.
    # The pass needs no card: it is done, waiting for the ok.
    assert state.current_player() == HUMAN and texts(state) == ["ok"]
    assert state.passed[STROZZI] and state.rings[STROZZI] == 1
    assert state.time[STROZZI] == 0  # the 1st passer's 2 time is a harder adjustment for him
    assert "Strozzi passes and puts his ring on location 2." in state.describe()
    play(state, "ok", "move 5 debutant1 4")

    # "If he has already passed: He swaps the furthest behind of his pieces at the location of
    # his ring 1 space ahead (if it is behind a piece of your colour)."
    assert texts(state) == ["ok"]
    assert pieces(state, 2) == ["orange:debutant", "blue:debutant", "blue:debutant", "you:debutant"]
    play(state, "ok", "move 4 debutant1 5")
    # "If he couldn't place his ring, or he has made all possible swaps, he scores 1 / 2 / 3
    # VP in rounds 1-3 / 4-6 / 7-9."
    assert state.vp[STROZZI] == 7 and "he scores 1 VP" in state.describe()
    play(state, "ok")
    assert state.time[HUMAN] == 0 and texts(state) == ["pass"]

    # Noble Movement: Cosimo 1 -> 5 -> 2 -> 3 -> 6. "Strozzi gains Prime Position VPs as
    # normal": on 2 and 6 (1 VP each); you on 5. His brag on 5 earns no scandal card: the
    # best brag's owner draws one "as long as they have a Family Member present there".
    events = play(state, "pass")
    assert [e["player"] for e in events if e.kind == "prime_position"] == [HUMAN, STROZZI, STROZZI]
    assert not [e for e in events if e.kind.startswith("scandal") or e.kind == "strozzi_scandal"]
    # Queue scoring, Cosimo, round 1 (11, 7, 4, 2): "Strozzi scores Cossimo and Contessina
    # normally." Queue 6: his orange debutant, then yours.
    queue_vp = {e["player"]: e["vp"] for e in events if e.kind == "queue_scored"}
    assert queue_vp == {STROZZI: 11, HUMAN: 7}
    assert state.vp == [1 + 7, 6 + 1 + 2 + 11]

    # Cleanup: "Put aside the top 3 cards of Strozzi's deck, shuffle his discard pile together
    # with the rest of the cards in his deck, and place the 3 cards you put aside back on top."
    assert state.phase == "cleanup"
    not_drawn = ALL_CARDS & ~(1 << 4) & ~(1 << 7) & ~(1 << 9)  # 5, 8 and 10 were drawn
    assert state.solo.top == not_drawn and state.solo.top_left == 3
    assert state.solo.deck == ALL_CARDS
    play(state, "token time 2", "token location 8")
    # "Pass the 1st player marker to the next player": Strozzi opens round 2, with "the same
    # as you, but never less than 4" time: the token says 9.
    assert state.round == 2 and state.first == STROZZI and state.time[STROZZI] == 9
    assert state.current_player() == CHANCE
    # the next three draws come from the cards kept on top
    assert texts(state) == ["solo 1", "solo 2", "solo 3", "solo 4", "solo 6", "solo 7", "solo 9"]
    assert DATA.digest == state.data.digest
