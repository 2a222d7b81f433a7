"""The deck folder is the teachers' too: a valid deck dropped into it (decks/, or the folder
AUTHORS_DECKS_DIR names) is in the library on the next start, and a broken one is reported as the server
starts, with file:line:col, and left out, never stopping the server."""
from __future__ import annotations

import shutil

from .server_support import ROOT, Browser, Server
from .test_cli_decks import GOOD, write


def test_a_server_starts_with_a_new_deck_and_reports_a_broken_one(tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    shutil.copy(ROOT / "decks" / "standard-52.yaml", folder)
    write(folder / "painters.yaml", GOOD.format(id="painters"))
    broken = write(folder / "broken.yaml", GOOD.format(id="broken").replace("title: The Magpie", "titel: The Magpie"))
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "instance", workers=1, threads=2,
                    env={"AUTHORS_DECKS_DIR": str(folder)}).start()
    try:
        status, catalog = Browser(server.port).json("GET", "/api/catalog")
        assert status == 200
        ids = {deck["id"] for deck in catalog["decks"]}
        assert {"painters", "standard-52"} <= ids and "broken" not in ids
    finally:
        server.stop()
    log = server.log.read_text(errors="replace")
    assert f'{broken}:11:9: unknown key "titel" (did you mean "title"?)' in log, log[-2000:]
    assert log.count("Left out of the deck library") == 1  # once, as it starts: not once per worker
