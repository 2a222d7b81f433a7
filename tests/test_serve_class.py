"""`make run` (`authors serve --class`) serves the class on the local network with granian: it prints
the address phones open, with its QR code, and join links name that address, not this computer alone.
A real server on a free port (every interface: the machine's own network address answers too)."""
from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from app import cli, lan

from .server_support import AUTHORS, ROOT, Browser, free_port


def test_the_class_banner_names_the_address_and_draws_its_qr_code():
    banner = cli.class_banner("http://192.168.1.20:5000", reachable=True)
    assert "students open http://192.168.1.20:5000" in banner and "Ctrl+C" in banner
    assert sum(line.count("█") for line in banner.splitlines()) > 200  # a QR code in block characters
    alone = cli.class_banner("http://127.0.0.1:5000", reachable=False)
    assert "No network found" in alone and "█" not in alone


@pytest.mark.skipif(not lan.lan_addresses(), reason="this machine has no network address other than loopback")
def test_a_table_opened_on_the_class_server_links_to_the_network_address(tmp_path):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("PUBLIC_URL", "SERVER_NAME", "SECRET_KEY",
                                                                          "ALLOW_SIGNUP", "DATABASE_URL")}
    env.update(AUTHORS_INSTANCE_PATH=str(tmp_path / "instance"), PYTHONPATH=str(ROOT))
    log = open(tmp_path / "server.log", "wb")
    process = subprocess.Popen([str(AUTHORS), "serve", "--class", "--port", str(port), "--workers", "1"], env=env,
                               cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        address = lan.lan_addresses()[0]
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if Browser(port, host=address).request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail((tmp_path / "server.log").read_text()[-2000:])
        printed = (tmp_path / "server.log").read_text()
        assert f"students open http://{address}:{port}" in printed and "█" in printed
        assert (tmp_path / "instance" / "secret_key").exists()  # made once, kept for the next lesson
        teacher = Browser(port, host=address).sign_up("Ms Class")  # sign-up is open for the first teacher
        code = teacher.open_table({"seats": [{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}]})
        status, state = teacher.json("GET", f"/api/tables/{code}")
        assert status == 200 and state["join_url"] == f"http://{address}:{port}/j/{code}"
        second = Browser(port, host=address).request("POST", "/signup", form={
            "name": "Mr Second", "password": "a long classroom password", "repeat": "a long classroom password"})
        assert second[0] == 403  # the others come with an invitation
        _, headers, _ = Browser(port, host=address).request("GET", "/api/csrf-token")
        cookie = next(value for name, value in headers.items() if name.lower() == "set-cookie")
        assert "session=" in cookie and "secure" not in cookie.lower()  # plain HTTP on the school network
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(15)
        log.close()


def test_sign_up_first_lets_the_first_teacher_in_and_invites_the_others(app):
    app.config["ALLOW_SIGNUP"] = "first"
    form = {"password": "a long classroom password", "repeat": "a long classroom password"}
    first = app.test_client().post("/signup", data={"name": "Ms First", **form})
    assert first.status_code == 303
    second = app.test_client().post("/signup", data={"name": "Mr Second", **form})
    assert second.status_code == 403 and "invitation" in second.get_data(as_text=True)


def test_make_run_takes_another_port():
    """`make run PORT=5001` serves the class on that port (5000 when none is named)."""
    for args, port in (([], "5000"), (["PORT=5001"], "5001")):
        done = subprocess.run(["make", "-n", "run", *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
                              env={k: v for k, v in os.environ.items() if k != "PORT"})
        assert done.returncode == 0, done.stderr
        served = [line for line in done.stdout.splitlines() if "authors serve" in line]
        assert served and served[-1].endswith(f"authors serve --class --port {port}"), done.stdout
