# Two commands do everything on a fresh machine with only python3:
#   make run    set up, then start the app (web; prints the address to open)
#   make test   set up (incl. Debian's chromium for the browser tests), then run every test
#   make phone-app  build the offline web app (build/phone-app), for any static web server
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8550

.PHONY: run test bench system-deps clean compiled phone-app

# requirements.lock is the one pinned set: the app's dependencies (all a phone installs) and
# pyproject's `server` extra (the web server, PostgreSQL) and `test` extra (tests, Babel,
# flet-cli); tests/native checks that they agree.
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

# The package's bytecode, as pip writes it for the installed libraries: where
# PYTHONDONTWRITEBYTECODE is set (as on these machines), Python would otherwise compile
# every module of the app again at each start (about 0.1 s of CPU, much of it while the
# browser loads the first screen).
# Only what changed is compiled.
compiled: $(STAMP)
	$(PY) -m compileall -q companion

run: compiled
	$(PY) -m companion run --host $(HOST) --port $(PORT)

# The offline web app: one static folder (build/phone-app) to put on any static web server.
# Needs the package registries once (the pinned Pyodide wheels are kept in build/).
phone-app: $(STAMP)
	$(PY) scripts/build_phone_app.py --out build/phone-app

system-deps:
	bash scripts/install-system-deps.sh

# mypy first (pyproject.toml's [tool.mypy]: the whole package, strict for the rules, the store
# and sharing, and the benchmarks), so a type error fails the run before the tests start.
# Browser tests run in their own pass: Playwright's sync API keeps an event loop running in
# its worker, which other tests that start their own loop must not share. A browser test
# runs once: its steps wait for what they need (tests/browser/phone.py), so a failure is real.
test: compiled system-deps
	$(PY) -m mypy
	$(PY) -m pytest -n 2 -m "not browser" $(PYTEST_ARGS)
	$(PY) -m pytest -n 2 -m browser $(PYTEST_ARGS)

bench: compiled
	$(PY) bench/rules_replay.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-output
