"""Default LED layouts, one per game table."""
