import subprocess
import sys


def test_home_page_lists_the_library(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Deck library" in response.data


def test_unknown_deck_is_a_404_with_a_message(client):
    response = client.get("/decks/no-such-deck")
    assert response.status_code == 404
    assert b"There is no deck" in response.data


def test_pure_packages_do_not_import_flask():
    code = "import sys, app.decks, app.engine; bad = [m for m in sys.modules if m.split('.')[0] in ('flask', 'flask_sqlalchemy', 'sqlalchemy')]; print(bad); sys.exit(1 if bad else 0)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_authors_serve_serves_the_library(tmp_path):
    import os
    import socket
    import time
    import urllib.request
    from pathlib import Path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "AUTHORS_INSTANCE_PATH": str(tmp_path / "instance")}
    server = subprocess.Popen([str(Path(sys.executable).parent / "authors"), "serve", "--port", str(port)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    page = response.read().decode()
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise AssertionError(server.stdout.read1().decode() if server.stdout else "no output") from None
                time.sleep(0.2)
        assert "Authors (1861)" in page
        assert (tmp_path / "instance" / "authors.sqlite3").exists()
    finally:
        server.terminate()
        server.wait(timeout=10)
