# The two commands a newcomer needs: `make demo` and `make test`; `make system-test`
# boots the emulated Pi (tests/system, docs/system-test.md).
# Both create .venv from pyproject.toml when it is missing or out of date.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test system-test bench lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tavola demo strozzi --players 4 --seed 1

test: $(STAMP)
	bash scripts/system-deps.sh
	bash scripts/micropython.sh
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto --dist loadfile --durations=25

system-test: $(STAMP)
	bash tests/system/run.sh

bench: $(STAMP)
	bash scripts/micropython.sh || echo "bench: no MicroPython; the firmware figures will say so"
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
