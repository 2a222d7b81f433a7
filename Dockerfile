# Authors Classroom for a school's server: the app, served by `authors serve --prod` (granian, one worker
# per core). compose.yaml runs it beside PostgreSQL; docs/operations.md says how to run it and what to set.
FROM python:3.11-slim

WORKDIR /srv/authors
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY app ./app
COPY decks ./decks
RUN pip install --no-cache-dir . && rm -rf /srv/authors/app /srv/authors/decks \
    && useradd --system --home-dir /var/lib/authors --create-home authors

# The instance folder (uploads, and the secret key made on first start) is the container's volume.
ENV AUTHORS_INSTANCE_PATH=/var/lib/authors \
    SECRET_KEY_FILE=/var/lib/authors/secret_key \
    PYTHONUNBUFFERED=1
VOLUME /var/lib/authors
USER authors
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
# Migrates the database once, then starts the workers (DATABASE_URL names PostgreSQL; without it, SQLite
# in the volume).
ENTRYPOINT ["authors", "serve", "--prod", "--host", "0.0.0.0", "--port", "8000"]
