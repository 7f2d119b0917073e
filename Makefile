# The two commands of the README. `make run` creates .venv with what running needs (requirements.txt)
# and this project (editable, so `.venv/bin/evals` and `.venv/bin/python -m evals` work from any
# folder), then runs the default suite. `make test` adds the test and lint tools
# (requirements-dev.txt) on first use, then lints, type-checks and runs the tests.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# uv, when it is on PATH, installs the same pins in seconds; else pip. The venv is always Python's own
# (with pip in it), so everything else that calls `python -m pip` works either way.
UV ?= $(shell command -v uv 2>/dev/null)
ifneq ($(UV),)
PIP := $(UV) pip install --quiet --python $(BIN)/python
RUNTIME := $(PIP)
else
PIP := $(BIN)/pip install --quiet --disable-pip-version-check
# --no-compile: Python compiles what a command imports when it first runs, a fraction of what pip
# would compile up front (a third of the install's time and of .venv's size). uv never precompiles.
RUNTIME := $(PIP) --no-compile
endif
ARGS ?=

.PHONY: run test

$(BIN)/.installed: requirements.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(RUNTIME) -r requirements.txt
	$(RUNTIME) --no-deps -e .
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
