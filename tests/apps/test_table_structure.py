"""The table's shape: its modules import one another without a cycle, the front ends
read it only through `status()` and act only through `command()`, and apps/ stays
readable (radon's cyclomatic complexity).

Why: the terminal, the phone page and the LEDs each used to work out whose turn it is
from the table's internals and disagreed (solo Florence crashed the terminal, the phone
confirmed a choice nobody made). These checks fail when somebody reads the internals
again.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "apps" / "table"
# the front ends: everything in apps/ that is not the table package itself
FRONT_ENDS = [
    p for p in (ROOT / "apps").rglob("*.py") if TABLE not in p.parents and p.parent.name != "table"
]
# the table's parts a front end must not reach into (status() and command() are the way)
INTERNALS = {"session", "lobby", "renderer", "menus", "seating", "table_log"}


def table_imports() -> dict[str, set[str]]:
    """module -> the apps/table modules it imports (TYPE_CHECKING imports included)."""
    graph: dict[str, set[str]] = {}
    for path in TABLE.glob("*.py"):
        if path.stem == "__init__":
            continue
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                deps.add(node.module.split(".")[0])
        graph[path.stem] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        for dep in sorted(graph.get(node, ())):
            if dep in path:
                found.append([*path[path.index(dep) :], dep])
            elif len(path) < len(graph):
                visit(dep, [*path, dep])

    for module in graph:
        visit(module, [module])
    return found


def test_the_table_modules_import_one_another_without_a_cycle() -> None:
    graph = table_imports()
    assert {"app", "session", "lobby", "render", "status", "ports"} <= set(graph)
    assert cycles(graph) == []
    # the check sees a cycle when there is one
    assert cycles({**graph, "ports": {"app"}})


def reads_of_internals(path: Path) -> list[str]:
    """`app.session`, `app.mode == ...`, `app._x` and the like in a front end's source."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Attribute):
            continue
        base = node.value
        owner = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
        if owner not in ("app", "table_app"):
            continue
        if node.attr in INTERNALS or node.attr.startswith("_") or node.attr == "mode":
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {owner}.{node.attr}")
    return found


def test_front_ends_read_the_table_only_through_its_status() -> None:
    """No mode string and no private member of the table read outside apps/table."""
    found = [line for path in FRONT_ENDS for line in reads_of_internals(path)]
    assert found == []


def test_the_internals_check_finds_a_read(tmp_path: Path) -> None:
    source = tmp_path / "front.py"
    source.write_text(
        "def f(app):\n    if app.mode == 'playing':\n        return app.session.state\n"
    )
    assert [r.split(" ")[1] for r in reads_of_internals_at(source, tmp_path)] == [
        "app.mode",
        "app.session",
    ]


def reads_of_internals_at(path: Path, root: Path) -> list[str]:
    global ROOT
    saved, ROOT = ROOT, root
    try:
        return sorted(reads_of_internals(path))
    finally:
        ROOT = saved


def test_few_blocks_of_apps_are_complex() -> None:
    """radon: at most 6% of the blocks in apps/ over cyclomatic complexity 10."""
    out = subprocess.run(
        [sys.executable, "-m", "radon", "cc", "-j", str(ROOT / "apps")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    blocks = [b for bs in json.loads(out).values() if isinstance(bs, list) for b in bs]
    over = sorted((b["complexity"], b["name"]) for b in blocks if b["complexity"] > 10)
    assert len(blocks) > 500
    assert len(over) / len(blocks) <= 0.06, f"{len(over)} of {len(blocks)}: {over[-10:]}"
