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
# --no-compile: pip compiles one file at a time; compileall below does it on every core, once.
RUNTIME := $(PIP) --no-compile
endif
ARGS ?=

.PHONY: run test test-instances

# Compiled once after the install (compileall on every core, ~7 s here): a container that sets
# PYTHONDONTWRITEBYTECODE, as many CI images do, would otherwise compile every import on every
# command (`evals scenarios --names`: 0.36 s of CPU instead of 0.19).
$(BIN)/.installed: requirements.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(RUNTIME) -r requirements.txt
	$(RUNTIME) --no-deps -e .
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib
	touch $@

# The tests start hundreds of interpreters (sandboxed pytest runs, `python -m evals` steps of the
# workflows), each with -B or PYTHONDONTWRITEBYTECODE, so none writes the bytecode it compiles: without
# it precompiled, every one compiles pytest, pydantic and the rest from source again (a sandboxed pytest
# run took 2.4 s of CPU instead of 0.7). Compiled once here: what the test tools added to the venv.
$(BIN)/.dev-installed: $(BIN)/.installed requirements-dev.txt
	$(PIP) -r requirements-dev.txt
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib
	touch $@

run: $(BIN)/.installed
	$(BIN)/python -m compileall -q -j 0 evals
	$(BIN)/evals run $(ARGS)

test: $(BIN)/.dev-installed
	$(BIN)/python -m compileall -q -j 0 evals
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto --dist loadgroup

# The four more drawn instances of every parameterised task (tests marked `instances`): about half
# of the suite's time, so `make test` keeps instance 0 and one drawn instance and the scheduled CI
# runs these.
test-instances: $(BIN)/.dev-installed
	$(BIN)/python -m compileall -q -j 0 evals
	$(BIN)/python -m pytest -q -n auto --dist loadgroup -m instances
