"""What several test modules share: how to run the installed `tavola` command."""

from __future__ import annotations

import sys
from pathlib import Path

#: the console script of this environment (the venv's bin/tavola)
SCRIPT = Path(sys.executable).with_name("tavola")
#: the command line that runs tavola as a user does, or through the module when not installed
TAVOLA = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "apps.cli"]
