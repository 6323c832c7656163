"""Run every benchmark module `bench/bench_*.py` in one process and print its figures.

Each module has `run() -> list[str]`; running them in one process gives ratios
measured in one run on one machine. `python -m bench strozzi` runs the modules
whose name contains "strozzi".
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import bench


def main(argv: list[str]) -> int:
    wanted = argv[1:]
    names = sorted(
        m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_")
    )
    names = [n for n in names if not wanted or any(w in n for w in wanted)]
    for name in names:
        start = time.perf_counter()
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name[len('bench_') :]}", flush=True)
        for line in module.run():
            print(f"  {line}", flush=True)
        print(f"  ({time.perf_counter() - start:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
