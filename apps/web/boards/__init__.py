"""One module per game's board drawing: `apps.web.boards.<game>` provides `draw` and
`holdings` (and, where the game needs them, `other_seat` and `UNPLACED_VERBS`); the
game's registration (apps/games/<game>.py) names it, and `apps.web.board.board_svg` finds
it there by the observation's game name."""
