"""Strada Romana at the table: its LED view, its board on the phone page, its terminal
sheet and its default LED layout."""

from ..screen import strada_sheet
from ..views.strada_romana import VIEW
from ..web.boards import strada_romana as board
from . import TableGame, shipped_layout

TABLE_GAME = TableGame(
    name="strada_romana",
    view=VIEW,
    board=board,
    sheet=strada_sheet,
    layout=shipped_layout("strada_romana.toml"),
)
