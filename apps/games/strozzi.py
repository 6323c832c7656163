"""Strozzi at the table: its LED view, its board on the phone page, its terminal sheet and
its default LED layout."""

from ..screen import strozzi_sheet
from ..views.strozzi import VIEW
from ..web.boards import strozzi as board
from . import TableGame, shipped_layout

TABLE_GAME = TableGame(
    name="strozzi",
    view=VIEW,
    board=board,
    sheet=strozzi_sheet,
    layout=shipped_layout("strozzi.toml"),
)
