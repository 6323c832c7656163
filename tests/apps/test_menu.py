"""Menus built from notation words: what a seat walks with previous / next / select."""

from __future__ import annotations

from apps.menu import BACK, DONE, Menu
from engine.core import Action


def acts(*texts: str) -> list[Action]:
    return [Action(0, t) for t in texts]


def test_first_level_groups_by_first_word_and_select_descends() -> None:
    menu = Menu(acts("flag pirate", "flag plus", "flag goods", "pass"))
    assert menu.options() == ["flag", "pass"]
    assert menu.select() is None and menu.prefix == ("flag",)
    assert menu.options() == ["pirate", "plus", "goods"]
    menu.next()
    assert menu.candidate() == Action(0, "flag plus")
    assert menu.select() == Action(0, "flag plus")


def test_single_choice_levels_are_entered_automatically() -> None:
    menu = Menu(acts("port rome", "port naples"))
    assert menu.prefix == ("port",) and menu.options() == ["rome", "naples"]
    assert menu.back() is False  # nothing above the first real choice


def test_a_lone_complete_action_is_not_confirmed_without_select() -> None:
    menu = Menu(acts("pass"))
    assert menu.options() == ["pass"] and menu.candidate() == Action(0, "pass")
    assert menu.select() == Action(0, "pass")


def test_back_returns_to_the_word_it_came_from() -> None:
    menu = Menu(acts("flag pirate", "flag plus", "pass"))
    menu.select()
    assert menu.back() is True
    assert menu.prefix == () and menu.current == "flag"


def test_previous_and_next_wrap() -> None:
    menu = Menu(acts("a", "b", "c"))
    menu.previous()
    assert menu.current == "c"
    menu.next()
    assert menu.current == "a"


def test_action_ending_where_others_continue_offers_done() -> None:
    menu = Menu(acts("stop", "step w1 12", "step w1 13"))
    menu.next()
    assert menu.select() is None and menu.prefix == ("step", "w1")
    menu2 = Menu(acts("collect", "collect cube 3"))
    assert menu2.select() is None
    assert menu2.options() == [DONE, "cube"]
    assert menu2.select() == Action(0, "collect")


def test_one_button_seats_get_a_back_entry_below_the_top() -> None:
    menu = Menu(acts("flag pirate", "flag plus", "pass"), with_back=True)
    assert BACK not in menu.options()
    menu.select()
    assert menu.options()[-1] == BACK
    menu.previous()
    assert menu.select() is None and menu.prefix == ()


def test_a_word_leading_to_a_single_action_stands_for_it() -> None:
    menu = Menu(acts("collect cube 121", "collect tile top", "collect tile bottom", "end"))
    assert menu.select() is None and menu.options() == ["cube", "tile"]
    assert menu.candidate() == Action(0, "collect cube 121")  # previewed before select
    assert menu.path() == "collect [cube 121]"
    menu.next()
    assert menu.candidate() is None and menu.path() == "collect [tile]"
    menu.previous()
    assert menu.select() == Action(0, "collect cube 121")  # no level of one word follows


def test_a_games_own_ok_is_one_press() -> None:
    """Florence solo: "after each of Strozzi's steps the human confirms it ('ok')"
    (engine/florence/solo.py). Confirming takes one select, not `ok` and then an end
    marker that read the same."""
    for verb in ("ok", "done"):
        menu = Menu(acts(verb))
        assert menu.options() == [verb]
        assert menu.select() == Action(0, verb)


def test_the_end_marker_is_no_notation_word() -> None:
    menu = Menu(acts("ok", "ok now"))
    assert menu.options() == ["ok"]
    assert menu.select() is None
    assert menu.options() == [DONE, "now"] and DONE != "ok"
    assert menu.select() == Action(0, "ok")
