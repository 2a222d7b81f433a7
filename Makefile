# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run lint test test-fast test-postgres serve bench printables clean i18n-extract i18n-update i18n-compile

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# make run PORT=5001: another port, when 5000 is taken
run: $(STAMP) i18n-compile
	$(BIN)/authors serve --class --port $(or $(PORT),5000)

# Production serving (granian); needs SECRET_KEY, and DATABASE_URL for PostgreSQL.
serve: $(STAMP)
	$(BIN)/authors serve --prod --host $${HOST:-0.0.0.0} --port $${PORT:-8000}

# axe-core (npm) for the browser tests' accessibility checks; without npm those checks are skipped.
AXE_DIR := tests/e2e/axe
AXE_STAMP := $(AXE_DIR)/node_modules/.installed
$(AXE_STAMP): $(AXE_DIR)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --prefix $(AXE_DIR) --no-audit --no-fund && touch $@; \
	else echo "npm not found: the accessibility checks (axe-core) of tests/e2e will be skipped"; fi

# Ruff on all the Python; mypy --strict on app/engine, app/decks, app/store, app/services and app/db.py
# (pyproject.toml: [tool.ruff], [tool.mypy]).
lint: $(STAMP)
	$(BIN)/ruff check app tests bench
	$(BIN)/mypy

test: lint $(STAMP) i18n-compile $(AXE_STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# All but the slow tier (browsers, real servers, the wheel, the benchmark scripts: tests/conftest.py)
test-fast: lint $(STAMP) i18n-compile
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

# The database tests again on PostgreSQL (127.0.0.1:5432, database test, as on these machines).
TEST_POSTGRES_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/test
test-postgres: $(STAMP) i18n-compile $(AXE_STAMP)
	AUTHORS_TEST_DATABASE_URL=$(TEST_POSTGRES_URL) $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/engine_speed.py

clean:
	rm -rf $(VENV) build *.egg-info $(AXE_DIR)/node_modules

printables: $(STAMP)
	$(BIN)/python -m app.printing.printables

# Translations (Flask-Babel): extract the English messages, merge them into each catalog, compile.
I18N := app/translations
LOCALES := ru fr pt it de es
i18n-extract: $(STAMP)
	mkdir -p $(I18N)
	$(BIN)/pybabel extract -F babel.cfg -k _l -k lazy_gettext -k N_ -k N_plural:1,2 -k IllegalMove:2 --no-location --no-wrap \
		--sort-output --project "Authors Classroom" -o $(I18N)/messages.pot app

i18n-update: i18n-extract
	for lang in $(LOCALES); do \
		if [ -f $(I18N)/$$lang/LC_MESSAGES/messages.po ]; then \
			$(BIN)/pybabel update --no-fuzzy-matching --no-wrap -i $(I18N)/messages.pot -d $(I18N) -l $$lang; \
		else $(BIN)/pybabel init -i $(I18N)/messages.pot -d $(I18N) -l $$lang; fi; done

i18n-compile: $(STAMP)
	$(BIN)/pybabel -q compile -d $(I18N)
