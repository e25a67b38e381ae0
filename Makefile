PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP_RUN): $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e ".[retrieval]"
	touch $@

$(STAMP_TEST): $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e ".[test]"
	touch $@

run: $(STAMP_RUN)
	$(BIN)/rulerewrite demo

lint: $(STAMP_TEST)
	$(BIN)/ruff check rulerewrite tests benchmarks
	$(BIN)/ruff format --check rulerewrite tests benchmarks
	$(BIN)/mypy

test: $(STAMP_TEST) lint
	$(BIN)/python -m pytest

bench: $(STAMP_TEST)
	$(BIN)/python benchmarks/bench_rewrite.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
