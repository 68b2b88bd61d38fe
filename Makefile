# Mykerinos: every target bootstraps .venv from plain python3 when needed.
# `make help` lists the targets (any rule with a `## comment`).

PY ?= python3
VENV = .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed

# Lint only the folders that exist, so the Makefile works while the tree grows.
LINT_PATHS = $(wildcard core saves table tui tests bench)
TYPED_PATHS = $(wildcard core saves table)
BENCH_SCRIPTS = $(sort $(wildcard bench/bench_*.py))

.DEFAULT_GOAL := help
.PHONY: help play test test-slow lint bench clean distclean

help: ## Show this list of targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_.\/-]+:.*## / {printf "  \033[36m%-12s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# Re-run whenever pyproject.toml changes (new dependency, new pin).
$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

play: $(STAMP) ## Play Mykerinos in this terminal (pass options with ARGS="...")
	$(BIN)/mykerinos $(ARGS)

test: lint ## Lint, type-check, then run the test suite (slow tests excluded)
	$(BIN)/pytest -q

test-slow: $(STAMP) ## Run only the slow tests (long conformance runs, kill -9 of the app)
	$(BIN)/pytest -q -m slow

lint: $(STAMP) ## ruff check and format check, then strict mypy on core and saves
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)
	@if [ -n "$(TYPED_PATHS)" ]; then \
		echo "$(BIN)/mypy $(TYPED_PATHS)"; $(BIN)/mypy $(TYPED_PATHS); \
	else echo "mypy: no core/ or saves/ yet, nothing to type-check"; fi

bench: $(STAMP) ## Run every bench/bench_*.py script in turn; they print figures
	@if [ -z "$(BENCH_SCRIPTS)" ]; then echo "bench: no bench/bench_*.py scripts yet"; fi
	@set -e; for script in $(BENCH_SCRIPTS); do \
		echo "== $$script"; $(BIN)/python $$script; \
	done

clean: ## Remove caches and build output (keeps .venv)
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis snapshot_report.html
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean ## Also remove .venv (the next make target rebuilds it)
	rm -rf $(VENV)
