# Two commands: `make run` (embedded service on http://127.0.0.1:8000) and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

# The test suite runs on the machine's PostgreSQL and Redis unless told otherwise; where that
# PostgreSQL does not answer and CI is not set, on the embedded one (tests/pytest_env.py). Redis
# database 15 keeps test keys away from a development cache on database 0.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/hindsight
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15

.PHONY: run test lint install install-dev chromium migrate clean demo bench

$(VENV)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.dev: $(VENV)/.runtime client/pyproject.toml
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e '.[dev]'
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e 'client[mcp]'
	touch $@

install: $(VENV)/.runtime

install-dev: $(VENV)/.dev chromium

# The browser tests (tests/browser) drive Debian's Chromium through Playwright; Playwright's own
# browser download is not used. Installed with apt when missing: as root, or with sudo when it
# needs no password; otherwise stop and say what to do.
CHROMIUM := /usr/bin/chromium
APT_INSTALL := env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-liberation
chromium:
	@if [ -x $(CHROMIUM) ]; then exit 0; fi; \
	echo "Installing Chromium for the browser tests (apt-get install chromium)"; \
	if [ "$$(id -u)" = 0 ]; then \
		apt-get update -q && $(APT_INSTALL); \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
		sudo apt-get update -q && sudo $(APT_INSTALL); \
	else \
		echo "Chromium ($(CHROMIUM)) is needed by the browser tests: run 'apt-get install chromium' as root." >&2; \
		exit 1; \
	fi; \
	test -x $(CHROMIUM) || { echo "apt-get did not install $(CHROMIUM)" >&2; exit 1; }

# Without DATABASE_URL these start the embedded PostgreSQL under var/postgres (config.embedded):
# make run stops it when it stops; make migrate and make demo stop it if they started it.
migrate: install
	@$(PY) -m config.embedded

run: install
	@$(PY) -m config.embedded --serve $(HOST):$(PORT)

# Lint, format, types and dead code first (ruff and mypy configured in pyproject.toml; vulture's
# exceptions in tests/vulture_whitelist.py): a finding fails the run as a failing test does.
LINTED := config lessons outcomes failures answers alerts client
lint: install-dev
	$(VENV)/bin/ruff check $(LINTED)
	$(VENV)/bin/ruff format --check $(LINTED) tests bench demo manage.py conftest.py
	$(VENV)/bin/mypy config lessons outcomes failures answers alerts client/hindsight_client
	$(VENV)/bin/vulture $(LINTED) tests/vulture_whitelist.py --min-confidence 90 \
		--exclude '*/migrations/*'

test: lint
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
		$(PY) -m pytest $(PYTEST_ARGS)

# The demo fleet (demo/fleet.py) talks to the service on http://$(HOST):$(PORT) through the
# client, installed here (serving it there unless make run does already); the benchmarks'
# writers make their event ids with it.
$(VENV)/.client: $(VENV)/.runtime client/pyproject.toml
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e client
	touch $@

demo: install $(VENV)/.client
	@$(PY) -m config.embedded $(PY) demo/fleet.py --host $(HOST) --port $(PORT)

# The issue's benchmark table (bench/suite.py): its own database on the machine's PostgreSQL and
# Redis, generated on the first run. Options through BENCH_ARGS, e.g. BENCH_ARGS="--requests 300".
bench: install $(VENV)/.client $(VENV)-runtime/.runtime
	$(PY) bench/suite.py --server-python $(VENV)-runtime/bin/python $(BENCH_ARGS)

# The server make bench measures runs with the runtime packages only, as in production: the
# development ones (pytest's Pygments, the OTLP exporter's requests) are imported by Django REST
# framework when present, and would count in a worker's memory.
$(VENV)-runtime/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)-runtime
	$(VENV)-runtime/bin/pip install --quiet --disable-pip-version-check -e .
	touch $@

clean:
	rm -rf $(VENV) $(VENV)-runtime var *.egg-info
