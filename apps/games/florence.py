"""Florence at the table: its LED view, its board on the phone page, its terminal sheet and
its default LED layout."""

from ..screen import florence_sheet
from ..views.florence import VIEW
from ..web.boards import florence as board
from . import TableGame, shipped_layout

TABLE_GAME = TableGame(
    name="florence",
    view=VIEW,
    board=board,
    sheet=florence_sheet,
    layout=shipped_layout("florence.toml"),
)
