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

$(BIN)/.installed: requirements.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(PIP) -r requirements.txt
	$(PIP) --no-deps -e .
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
