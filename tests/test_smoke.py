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
