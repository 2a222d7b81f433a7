"""`pip install .` (not editable) gives a working `authors`: the wheel carries everything the app reads
at run time (built-in decks, rules pages, compiled translations, migrations, templates, static files).

The wheel is built from a copy of the sources as a fresh clone has them (no compiled .mo, no build/),
without build isolation and without an index (nothing is downloaded), and installed into a new virtual
environment outside the checkout. That environment finds the dependencies in this interpreter's
site-packages through a .pth file, but imports `app` from the wheel only: this interpreter's editable
install of the project is a .pth hook that a directory added by a .pth line never runs.
"""
from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from io import BytesIO
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# What the build reads: the package and the project's description (pyproject.toml names README.md).
SOURCES = ("app", "decks", "pyproject.toml", "setup.py", "README.md")
# What a fresh clone lacks, or a build leaves behind.
NOT_IN_A_CLONE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", "*.egg-info", "build", "dist")
CATALOGS = ("fr", "it", "pt", "ru")


def _check_build_tools() -> None:
    try:
        from importlib.metadata import version

        major = int(version("setuptools").split(".")[0])
        import babel  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - any reason means the same: the test extras are missing
        pytest.fail(f"building the wheel needs setuptools>=77 and babel beside pytest ({exc}); "
                    "install the test extras: pip install -e '.[test]' (make test does)")
    if major < 77:
        pytest.fail(f"building the wheel needs setuptools>=77, this interpreter has {version('setuptools')}; "
                    "install the test extras: pip install -e '.[test]' (make test does)")


def _run(*args: str | Path, cwd: Path, env: dict | None = None, timeout: float = 120,
         text: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=text,
                            timeout=timeout)
    assert result.returncode == 0, (args, result.stdout[-2000:], result.stderr[-3000:])
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    _check_build_tools()
    work = tmp_path_factory.mktemp("packaging")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=NOT_IN_A_CLONE)
        else:
            shutil.copy2(ROOT / name, source / name)
    assert not list(source.glob("app/translations/*/LC_MESSAGES/*.mo"))

    wheels = work / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
         "--wheel-dir", wheels, source, cwd=work)
    (wheel,) = wheels.glob("authors_classroom-*.whl")

    env_dir = work / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                        cwd=work).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()}
    (purelib / "dependencies.pth").write_text("".join(f"{path}\n" for path in sorted(ours) if Path(path).is_dir()))
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "--quiet", wheel,
         cwd=work)

    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("AUTHORS_", "PYTHON", "FLASK_", "DATABASE_URL", "SECRET_KEY"))}
    outside = work / "elsewhere"  # a folder that is neither the checkout nor a parent of it
    outside.mkdir()
    return {"wheel": wheel, "python": python, "authors": env_dir / "bin" / "authors", "env": env, "cwd": outside,
            "work": work}


def test_the_wheel_carries_what_the_app_reads_at_run_time(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    assert "app/decks/builtin/authors-1861.yaml" in names and "app/decks/builtin/standard-52.yaml" in names
    for language in CATALOGS:
        assert f"app/translations/{language}/LC_MESSAGES/messages.mo" in names, language  # compiled by the build
        assert f"app/translations/{language}/LC_MESSAGES/messages.po" in names, language  # printing reads these
    assert {"app/rules/content/standard.en.md", "app/rules/content/classic.fr.md"} <= names
    assert {"app/migrations/env.py", "app/migrations/alembic.ini", "app/migrations/script.py.mako"} <= names
    assert any(name.startswith("app/migrations/versions/0001") for name in names)
    assert {"app/templates/base.html", "app/static/site.css", "app/static/js/play.js"} <= names
    assert not [name for name in names if "__pycache__" in name or name.startswith(("tests/", "bench/"))]


def test_the_installed_package_is_the_wheel_not_the_checkout(installed):
    where = _run(installed["python"], "-c", "import app; print(app.__file__)", cwd=installed["cwd"],
                 env=installed["env"]).stdout.strip()
    assert Path(where).is_relative_to(installed["python"].parents[1]), where
    assert not Path(where).is_relative_to(ROOT), where


def test_the_installed_command_lists_and_prints_the_built_in_decks(installed):
    run = {"cwd": installed["cwd"], "env": installed["env"]}
    listed = _run(installed["authors"], "decks", "list", **run).stdout
    assert "authors-1861" in listed and "standard-52" in listed and "literature-48" in listed
    pdf = _run(installed["authors"], "print", "authors-1861", "-o", "-", text=False, **run).stdout
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    # printing reads the catalogs too: a French score pad is a "Feuille de score"
    import pdfplumber

    pad = _run(installed["authors"], "print", "--scorepad", "--lang", "fr", "-o", "-", text=False, **run).stdout
    with pdfplumber.open(BytesIO(pad)) as document:
        assert "Feuille de score" in document.pages[0].extract_text()
    assert not list(installed["cwd"].iterdir()), "printing to stdout leaves no file behind"
    # the fonts come from the system (or AUTHORS_PRINT_FONT): without one, a sentence that says what to do
    missing = subprocess.run([str(installed["authors"]), "print", "authors-1861", "-o", "-"], capture_output=True,
                             text=True, cwd=installed["cwd"], timeout=60,
                             env={**installed["env"], "AUTHORS_PRINT_FONT": str(installed["work"] / "none.ttf")})
    assert missing.returncode == 1 and missing.stdout == "" and missing.stderr.count("\n") == 1, missing.stderr
    assert "none.ttf" in missing.stderr and "fonts-dejavu-core" in missing.stderr


def test_the_installed_app_serves_pages_in_every_language(installed):
    instance = installed["work"] / "instance"
    code = (
        "from app import create_app\n"
        "app = create_app()\n"
        "client = app.test_client()\n"
        "for path in ('/', '/rules', '/rules/standard', '/static/site.css'):\n"
        "    answer = client.get(path)\n"
        "    assert answer.status_code == 200, (path, answer.status_code)\n"
        "page = client.get('/rules?lang=fr').get_data(as_text=True)\n"
        "assert 'Règles' in page, page[:500]\n"
        "page = client.get('/?lang=ru').get_data(as_text=True)\n"
        "assert 'Правила' in page, page[:500]\n"
        "print(app.instance_path)\n"
    )
    out = _run(installed["python"], "-c", code, cwd=installed["cwd"],
               env={**installed["env"], "AUTHORS_INSTANCE_PATH": str(instance)}).stdout
    assert out.strip() == str(instance)
    assert (instance / "authors.sqlite3").is_file()  # the migrations in the wheel made the database
