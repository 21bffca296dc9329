# Two commands: `make run` (embedded service on http://127.0.0.1:8000) and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

# The test suite runs on the machine's PostgreSQL and Redis unless told otherwise. Redis database
# 15 keeps test keys away from a development cache on database 0.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/hindsight
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15

.PHONY: run test install install-dev migrate clean

$(VENV)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.dev: $(VENV)/.runtime
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

install: $(VENV)/.runtime

install-dev: $(VENV)/.dev

migrate: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_lessons
	$(PY) manage.py ensure_admin

run: migrate
	@echo "Hindsight on http://$(HOST):$(PORT)/  (admin: /admin/, API docs: /api/v1/docs)"
	$(PY) manage.py runserver --noreload $(HOST):$(PORT)

test: install-dev
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
		$(PY) -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) var *.egg-info
