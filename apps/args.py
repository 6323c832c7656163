"""Command-line values checked by the config schema's own types (hw.schema), so a flag
and a config key refuse the same value with the same words, in one line."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, NoReturn

from hw.schema import Int, Number, argument

#: a seed is a whole number that fits the journal's SQLite INTEGER
SEED = Int(lo=0, hi=2**63 - 1)

seed = argument(SEED)
count = argument(Int(lo=1, hi=10_000_000))
players = argument(Int())  # each game then says how many it takes
lines = argument(Int(lo=1, hi=1000))
baud = argument(Int(lo=1200, hi=4_000_000))
probability = argument(Number(lo=0, hi=1))
seconds = argument(Number(lo=0, hi=3600))
positive_seconds = argument(Number(above=0, hi=3600))


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line that names the flag and points to --help."""

    def error(self, message: str) -> NoReturn:
        message = re.sub(r"'([^'\n]{40})[^'\n]+'", r"'\1...'", " ".join(message.split()))
        print(f"{self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            print(message.rstrip("\n"), file=sys.stderr)
        raise SystemExit(status)


def fail(command: str, message: Any) -> int:
    """One line on stderr, exit status 2: what every command does with a bad input."""
    print(
        f"tavola {command}: {message}".replace("tavola tavola", "tavola").rstrip(), file=sys.stderr
    )
    return 2
