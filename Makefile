# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-postgres serve bench printables clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/authors serve

# Production serving (gunicorn); needs SECRET_KEY, and DATABASE_URL for PostgreSQL.
serve: $(STAMP)
	$(BIN)/authors serve --prod --host $${HOST:-0.0.0.0} --port $${PORT:-8000}

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The database tests again on PostgreSQL (127.0.0.1:5432, database test, as on these machines).
TEST_POSTGRES_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/test
test-postgres: $(STAMP)
	AUTHORS_TEST_DATABASE_URL=$(TEST_POSTGRES_URL) $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/engine_speed.py

clean:
	rm -rf $(VENV) build *.egg-info

printables: $(STAMP)
	$(BIN)/python -m app.printing.printables
