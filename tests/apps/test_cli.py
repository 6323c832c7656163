"""`tavola` imports a command's module only when that command runs.

`tavola --help` on the Pi should answer at once and never touch the journal's
sqlite3, the LED backends or the serial links; an engine-only command
(`tavola data`, `tavola diagram`) loads the engine and nothing of the table.
Each check runs the real CLI in a fresh interpreter and reads its `sys.modules`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from apps.cli import COMMANDS, build_parser

PROBE = """
import contextlib, io, json, sys
from apps.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main({argv!r})
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""

TABLE_ONLY = (
    "sqlite3",
    "serial",
    "gpiozero",
    "apps.journal",
    "apps.runtime",
    "apps.table",
    "hw.backends",
    "hw.buttons",
    "firmware_bridge",
)
"""What only the table's commands (run, demo, sim, doctor, journal, cards) need."""


def imported(argv: list[str]) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(argv=argv)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return set(json.loads(out.stdout.splitlines()[-1]))


@pytest.mark.parametrize(
    "argv", [["--help"], [], ["diagram", "strozzi"], ["data", "strozzi"], ["bogus"]]
)
def test_a_command_imports_only_what_it_runs(argv: list[str]) -> None:
    modules = imported(argv)
    loaded = sorted(m for m in modules if m.split(".")[0] in TABLE_ONLY or m in TABLE_ONLY)
    assert loaded == [], f"tavola {' '.join(argv)} imported {loaded}"
    assert not any(m.startswith("apps.commands.") for m in modules if argv[:1] == ["--help"])


def test_the_table_command_still_loads_its_module() -> None:
    """The probe can see an import: `tavola history --help` loads the journal."""
    assert "apps.journal" in imported(["history", "--help"])


def _listed(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    """(command, help line) as `tavola --help` lists them, in order."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(a.dest, a.help) for a in sub._choices_actions]


def test_the_help_lines_are_the_commands_own() -> None:
    """`tavola --help` lists every command, in order, with the line its own parser declares."""
    table = [(name, text) for name, (_, text) in COMMANDS.items()]
    assert _listed(build_parser()) == table
    assert _listed(build_parser(["--help"])) == table
    assert _listed(build_parser(["history"])) == table
