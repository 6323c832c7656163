"""One registration per game (DESIGN.md: "Adding a game = a new engine/<game>/, a view in
apps/, a layout file; nothing else changes"; docs/table.md, "Adding a game").

Every engine game is at the table through exactly one `TableGame` (apps/games/<game>.py)
with all its parts, every lookup of a part reads it, and no other module keeps a table of
games: no dict keyed by a game's name, no test of a game's name, no module found by
formatting a game's name into a path. The last check reads the source, so it fails when
someone adds such a table back; `test_the_check_finds_each_kind_of_table` shows it would.
"""

from __future__ import annotations

import ast
import dataclasses
import pkgutil
import types
from pathlib import Path, PurePosixPath

import pytest

import apps
import apps.games
import apps.views
import apps.web.boards
import engine
from apps import screen
from apps.games import TableGame, table_game, table_games
from apps.views import View, has_view, view_for
from apps.web import board
from hw.layout import Layout

ROOT = Path(apps.__file__).resolve().parent.parent
GAMES = frozenset(engine.games())
SCANNED = ("apps", "engine", "hw", "firmware_bridge")
"""The code a game must not be registered in twice (tests, docs and bench may name games:
a benchmark's choice of games is not a registration)."""
PER_GAME_FOLDERS = ("apps/games", "apps/views", "apps/web/boards")
"""Where a module named after a game holds that game's own app-side code."""
FINDERS = ("engine/__init__.py", "apps/games/__init__.py")
"""The two registries: the only modules that find a module by a game's name."""


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_engine_game_has_one_table_registration_with_all_its_parts(name: str) -> None:
    game = table_game(name)
    assert isinstance(game, TableGame)
    assert game.name == name
    assert isinstance(game.view, View) and type(game.view) is not View
    assert callable(game.board.draw) and callable(game.board.holdings)
    assert callable(game.sheet)
    layout = Layout.load(game.layout)
    assert {e.split(".")[0] for e in layout.elements} == {name, "seat"}


def test_the_registry_holds_the_engine_games_and_nothing_else() -> None:
    assert list(table_games()) == engine.games()
    modules = {m.name for m in pkgutil.iter_modules(apps.games.__path__)}
    assert modules == set(GAMES), "a module in apps/games/ that is no engine game"


def test_each_view_and_board_module_belongs_to_one_registration() -> None:
    """A view or board drawing no registration names would be a game half-registered."""
    views = [type(g.view).__module__ for g in table_games().values()]
    boards = [g.board.__name__ for g in table_games().values()]  # type: ignore[attr-defined]
    shipped_views = {f"apps.views.{m.name}" for m in pkgutil.iter_modules(apps.views.__path__)} - {
        "apps.views.base"
    }
    shipped_boards = {
        f"apps.web.boards.{m.name}" for m in pkgutil.iter_modules(apps.web.boards.__path__)
    }
    assert sorted(views) == sorted(shipped_views)
    assert sorted(boards) == sorted(shipped_boards)


def test_the_lookups_read_the_registration(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change a game's registration and every lookup follows it."""
    name = engine.games()[0]
    other = types.SimpleNamespace(draw=None, holdings=None)
    view = View()
    layout = table_game(engine.games()[1]).layout
    changed = dataclasses.replace(table_game(name), view=view, board=other, layout=layout)
    registry = table_games()
    assert isinstance(registry, dict)
    monkeypatch.setitem(registry, name, changed)
    assert view_for(name) is view and has_view(name)
    assert board._board(name) is other
    app = types.SimpleNamespace(view=view, game_name=name)
    assert set(screen.app_layout(app).elements) == set(Layout.load(layout).elements)  # type: ignore[arg-type]


def test_a_game_not_at_the_table_is_refused_by_every_lookup() -> None:
    assert not has_view("chess")
    for lookup, words in ((view_for, "table view"), (board._board, "board drawing")):
        with pytest.raises(KeyError, match=f"no {words} for 'chess' yet"):
            lookup("chess")
    with pytest.raises(KeyError, match="no table for 'chess' yet"):
        table_game("chess")


# --- no second table of games -----------------------------------------------------------
def _names_a_game(node: ast.AST | None) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in GAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_game(e) for e in node.elts)
    return False


def tables_of_games(source: str, path: str) -> list[str]:
    """Each place in `source` (the module at `path`, relative to the repository) that
    registers or tells games apart by name, as `path:line: what`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        what = None
        if isinstance(node, ast.Dict) and any(_names_a_game(k) for k in node.keys):
            what = "a dict keyed by a game's name"
        elif isinstance(node, ast.Compare) and any(
            _names_a_game(x) for x in (node.left, *node.comparators)
        ):
            what = "a test of a game's name"
        elif isinstance(node, ast.MatchValue) and _names_a_game(node.value):
            what = "a case of a game's name"
        elif isinstance(node, ast.Subscript) and _names_a_game(node.slice):
            what = "a lookup by a game's name"
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if any(k.arg in GAMES for k in node.keywords):
                what = "a game's name as a keyword"
            elif called == "TableGame" and PurePosixPath(path).parent.as_posix() != "apps/games":
                what = "a TableGame outside apps/games/"
            elif (
                called == "import_module"
                and path not in FINDERS
                and any(isinstance(a, (ast.JoinedStr, ast.BinOp)) for a in node.args)
            ):
                what = "a module found by a name formatted into its path"
        if what:
            found.append(f"{path}:{getattr(node, 'lineno', '?')}: {what}")
    return found


def _per_game(path: PurePosixPath) -> bool:
    """A module of one game: its engine package, its registration, its view, its board."""
    if path.parts[0] == "engine" and path.parts[1] in GAMES:
        return True
    return path.stem in GAMES and path.parent.as_posix() in PER_GAME_FOLDERS


def test_no_module_outside_a_game_keeps_a_table_of_games() -> None:
    found: list[str] = []
    scanned = 0
    for top in SCANNED:
        for file in sorted((ROOT / top).rglob("*.py")):
            path = PurePosixPath(file.relative_to(ROOT).as_posix())
            if _per_game(path):
                continue
            scanned += 1
            found += tables_of_games(file.read_text(encoding="utf-8"), str(path))
    assert scanned > 100
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        'SHEETS = {"strozzi": strozzi_sheet, "florence": florence_sheet}',
        'HORIZONS: dict[str, int] = {"florence": 30, "strada_romana": 20}',
        'def f(game):\n    if game == "florence":\n        return 1',
        'def f(game):\n    return game in ("strozzi", "florence")',
        'def f(game):\n    match game:\n        case "strada_romana":\n            return 1',
        'EVALUATIONS["strozzi"] = evaluate',
        "EVALUATIONS = dict(strozzi=evaluate)",
        'import importlib\nV = importlib.import_module(f"apps.views.{game}")',
        'T = TableGame("strozzi", view, board, sheet, layout)',
    ],
)
def test_the_check_finds_each_kind_of_table(source: str) -> None:
    assert len(tables_of_games(source, "apps/screen.py")) == 1
