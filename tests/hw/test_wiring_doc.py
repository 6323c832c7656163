"""The Python example in docs/wiring.md runs as written (on the mocked demo table)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

DOC = Path(__file__).parents[2] / "docs" / "wiring.md"


def test_the_python_example_runs(
    mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (code,) = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    monkeypatch.chdir(DOC.parents[1])
    exec(compile(code, str(DOC), "exec"), {})
    assert re.fullmatch(
        r"InputEvent\(seat='1', button='select', kind='press', time=[\d.]+\)\n",
        capsys.readouterr().out,
    )
