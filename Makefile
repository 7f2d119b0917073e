# The two commands of the README. `make run` creates .venv with what running needs (requirements.txt)
# and this project (editable, so `.venv/bin/evals` and `.venv/bin/python -m evals` work from any
# folder), then runs the default suite. `make test` adds the test and lint tools
# (requirements-dev.txt) on first use, then lints, type-checks and runs the tests.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/pip install --quiet --disable-pip-version-check
ARGS ?=

.PHONY: run test

# --no-compile: Python compiles what a command imports when it first runs, a fraction of what pip
# would compile up front (a third of the install's time and of .venv's size).
$(BIN)/.installed: requirements.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(PIP) --no-compile -r requirements.txt
	$(PIP) --no-compile --no-deps -e .
	touch $@

$(BIN)/.dev-installed: $(BIN)/.installed requirements-dev.txt
	$(PIP) -r requirements-dev.txt
	touch $@

run: $(BIN)/.installed
	$(BIN)/evals run $(ARGS)

test: $(BIN)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto --dist loadscope
