# Mykerinos: every target bootstraps .venv from plain python3 when needed.
# `make help` lists the targets (any rule with a `## comment`).

PY ?= python3
VENV = .venv
BIN = $(VENV)/bin
# What is in .venv: the game alone (make play), or the game and the test tools (make test).
PLAY_STAMP = $(VENV)/.installed-play
TEST_STAMP = $(VENV)/.installed-test
# The exact versions installed, written by `make lock` / `make upgrade`.
PLAY_LOCK = requirements/play.txt
TEST_LOCK = requirements/test.txt

# .venv is made without a pip of its own when python3's pip can install into it
# (`pip --python`, pip >= 22.3): ensurepip alone costs ~7 s of a first `make play`.
# A venv that has its own pip (older python3 pip, or a .venv made before) uses that.
PIP = sh -c 'if [ -x $(BIN)/pip ]; then exec $(BIN)/python -m pip "$$@"; \
	else exec $(PY) -m pip --python $(BIN)/python "$$@"; fi' pip
# --no-deps: the lock files hold every package, so pip resolves nothing; --no-compile: the
# modules used are compiled on first import instead of every module at install. The game and
# its packages go in one pip run: a second run cost ~3 s more of a first `make play`.
PIP_INSTALL = $(PIP) install --quiet --no-compile --no-deps
# Exits 0 when python3's pip can install into another interpreter's venv (--python).
PIP_CAN_TARGET = import pip, sys; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (22, 3))

# Lint only the folders that exist, so the Makefile works while the tree grows.
LINT_PATHS = $(wildcard core saves table tui tests bench requirements)
# What mypy checks: core, saves, table, tui, bench and requirements strict; tests with the
# relaxed settings of their [[tool.mypy.overrides]] in pyproject.toml.
TYPED_PATHS = $(wildcard core saves table tui bench requirements tests)
BENCH_SCRIPTS = $(sort $(wildcard bench/bench_*.py))
# pytest-xdist (plain `.venv/bin/pytest` still runs in one process).
# One worker more than there are cores: the UI tests wait on their apps and on real
# terminals now and then, and a third worker fills those gaps (2 cores: 65 s against 73 s).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
PYTEST = $(BIN)/pytest -q -n $(TEST_WORKERS)

.DEFAULT_GOAL := help
.PHONY: help play test test-slow lint ruff mypy bench lock upgrade clean distclean system-tools

help: ## Show this list of targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_.\/-]+:.*## / {printf "  \033[36m%-12s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(BIN)/python:
	@echo "Creating $(VENV) with $$($(PY) --version)…"
	@if $(PY) -c '$(PIP_CAN_TARGET)' 2>/dev/null; then \
		$(PY) -m venv --without-pip $(VENV); \
	else \
		$(PY) -m venv $(VENV); \
	fi

# Re-run whenever pyproject.toml or a lock file changes (new dependency, new pin).
CHANGED = pyproject.toml or a lock file changed
$(PLAY_STAMP): pyproject.toml $(PLAY_LOCK) | $(BIN)/python
	@$(PY) requirements/relock.py --check
	@echo "Installing the game into $(VENV) ($(if $(wildcard $@),$(CHANGED),first run only))…"
	@$(PIP_INSTALL) -r $(PLAY_LOCK) -e .
	@touch $@

# pip check: the whole set is consistent. compileall: every xdist worker and every test
# subprocess imports textual & co, so compile them once here, on every core, rather than at
# each start where PYTHONDONTWRITEBYTECODE is set (as on CI).
$(TEST_STAMP): $(PLAY_STAMP) $(TEST_LOCK)
	@$(MAKE) --no-print-directory system-tools
	@echo "Installing the test and lint tools into $(VENV) ($(if $(wildcard $@),$(CHANGED),first run only))…"
	@$(PIP_INSTALL) -r $(TEST_LOCK)
	@$(PIP) check
	@$(BIN)/python -m compileall -qq -j 0 $(VENV)/lib || true
	@touch $@

# The SSH door's tests drive the real OpenSSH client (ssh, ssh-keygen, sftp), the web door's
# Debian's Chromium (Playwright never downloads a browser here). Installed from the system's
# packages when absent and this is root (CI: about 35 s for chromium); otherwise say so.
SYSTEM_INSTALL = if command -v apt-get >/dev/null; then \
		apt-get install -y -qq $(1) >/dev/null 2>&1 || \
		{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $(1) >/dev/null 2>&1; }; \
	else false; fi
system-tools:
	@if ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then \
		echo "Installing openssh-client (the SSH door's tests use the real ssh client)…"; \
		if [ "$$(id -u)" = 0 ]; then $(call SYSTEM_INSTALL,openssh-client); fi; \
		command -v ssh >/dev/null || echo "make: install openssh-client for the SSH door's tests (they are skipped without it)"; \
	fi
	@if ! command -v chromium >/dev/null; then \
		echo "Installing chromium (the web door's tests drive a real browser)…"; \
		if [ "$$(id -u)" = 0 ]; then $(call SYSTEM_INSTALL,chromium); fi; \
		command -v chromium >/dev/null || echo "make: install chromium for the web door's tests (they are skipped without it)"; \
	fi

play: $(PLAY_STAMP) ## Play Mykerinos in this terminal (pass options with ARGS="...")
	@echo "Starting Mykerinos…"
	@$(BIN)/mykerinos $(ARGS)

test: lint ## Lint, type-check, then the fast tests on every core (pytest-xdist)
	$(PYTEST)

test-slow: $(TEST_STAMP) ## Only the slow tests: kill -9 and pty runs, whole games (fails if none ran)
	$(PYTEST) -m slow

lint: ruff mypy ## ruff check and format check, then mypy (strict; tests relaxed; not tui yet)

ruff: $(TEST_STAMP) ## Only ruff check and ruff format --check (a pre-commit hook)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)

mypy: $(TEST_STAMP) ## Only mypy (a pre-commit hook)
	$(BIN)/mypy $(TYPED_PATHS)

bench: $(PLAY_STAMP) ## Run every bench/bench_*.py script in turn; they print figures
	@if [ -z "$(BENCH_SCRIPTS)" ]; then echo "bench: no bench/bench_*.py scripts yet"; fi
	@set -e; for script in $(BENCH_SCRIPTS); do \
		echo "== $$script"; $(BIN)/python $$script; \
	done

lock: ## After editing dependencies in pyproject.toml: re-resolve, keeping the pins that fit
	$(PY) requirements/relock.py

upgrade: ## Newest versions pyproject.toml allows, resolved in a scratch venv: rewrites requirements/*.txt
	$(PY) requirements/relock.py --upgrade
	@echo "Next: git diff requirements/, then make test (snapshots depend on textual and rich)."

clean: ## Remove caches and build output (keeps .venv)
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis snapshot_report.html
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean ## Also remove .venv (the next make target rebuilds it)
	rm -rf $(VENV)
