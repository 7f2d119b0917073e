# The two commands of the README. Both create .venv, install requirements.txt and then this project
# (editable, so `.venv/bin/evals` and `.venv/bin/python -m evals` work from any folder) on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARGS ?=

.PHONY: run test

$(BIN)/.installed: requirements.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

run: $(BIN)/.installed
	$(BIN)/evals run $(ARGS)

test: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto --dist loadscope
