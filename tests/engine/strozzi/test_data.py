"""Strozzi's component data against the public sources: each port's goods, what a ship
card shows, and the values no public source settles (still provisional)."""

from __future__ import annotations

from engine.strozzi import GAME


def test_each_port_takes_the_goods_the_reviews_name() -> None:
    """'he moves his marker at that port forward one space for each goods symbol on the
    ship that matches the symbol shown at the port'; the example: 'two grain symbols' for
    Rome. Venice gold and Naples cloth: 'krukor med spannmål i Rom, tygbalar i Neapel och
    kistor med guldmynt i Venedig' (minaspeltips.se), with two more reviews agreeing."""
    data = GAME.data()
    rome, others = data["goods_rome"], data["goods_venice_naples"]
    assert rome.provenance == "rulebook" and rome["rome"] == "grain"
    assert "pot of grain" in rome.source  # a review's "pottery" is the same symbol
    assert others.provenance == "public"
    assert (others["venice"], others["naples"]) == ("gold", "cloth")
    assert "kistor med guldmynt i Venedig" in others.source
    assert "tygbalar i Neapel" in others.source
    assert "media-mania.de" in others.source
    assert GAME.new_state(3).rules.goods == ("gold", "grain", "cloth")


def test_a_card_may_show_no_goods_several_ports_or_several_of_one() -> None:
    """'possibly one or more goods, scrolls and progress tokens shown on it': a card can
    show no goods, goods of several ports, or several symbols of one port (reviews)."""
    faces = GAME.card_faces(GAME.data())
    assert faces.read("8 s1") == "8 gold0 grain0 cloth0 scrolls1 no-token"
    assert faces.read("2 g1 r1 c1") == "2 gold1 grain1 cloth1 scrolls0 no-token"
    assert faces.read("1 c3 t") == "1 gold0 grain0 cloth3 scrolls0 token"
    shown = [card["goods"] for card in GAME.data()["ships"]["cards"]]
    assert {} in shown and any(len(g) > 1 for g in shown)
    assert any(n > 1 for g in shown for n in g.values())


def test_what_no_public_source_settles_stays_provisional() -> None:
    """The 29 cards one by one, the 36 tokens' split and the bonus spaces' places are in
    no public source: the shipped values are guesses the owner checks. The card question
    names the symbols as the reviews describe them."""
    data = GAME.data()
    assert [f"[{g.name}] {k}" for g, k in data.unchecked()] == [
        "[track] last_space",
        "[track] bonus",
        "[progress_tokens] counts",
        "[ships] cards",
    ]
    ask = data["ships"].ask["cards"]
    assert "brown scrolls" in ask and "blue square" in ask and "grain pots" in ask
    assert "una pista di 10 caselle" in data["track"].source
