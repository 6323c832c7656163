"""lgpio's FIFO directory: set before lgpio is imported, only where the working one is read-only.

The real failure (`import lgpio` in a directory the user cannot write) is shown on the
emulated Pi (tests/system: `tavola doctor` as the tavola user from /root); here the
choice of directory, with the writability check injected (the suite runs as root).
"""

from __future__ import annotations

import os
from pathlib import Path

from hw.pi import lgpio_workdir


def test_a_writable_working_directory_or_a_set_lg_wd_is_left_alone(tmp_path: Path) -> None:
    env: dict[str, str] = {}
    assert lgpio_workdir(env, writable=lambda p: True) is None and env == {}
    env = {"LG_WD": "/somewhere"}
    assert lgpio_workdir(env, writable=lambda p: False) is None
    assert env == {"LG_WD": "/somewhere"}


def test_a_read_only_working_directory_gets_the_services_or_a_private_one(tmp_path: Path) -> None:
    cwd = os.getcwd()
    run = str(tmp_path / "run")
    env = {"RUNTIME_DIRECTORY": f"{run}:/other", "STATE_DIRECTORY": "/var/lib/tavola"}
    assert lgpio_workdir(env, writable=lambda p: p != cwd) == run
    assert env["LG_WD"] == run
    env = {}
    chosen = lgpio_workdir(env, writable=lambda p: p not in (cwd,))
    assert chosen is not None and env["LG_WD"] == chosen
    assert Path(chosen).is_dir() and Path(chosen).name.startswith("tavola-lgpio-")
    Path(chosen).rmdir()
