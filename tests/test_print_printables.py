"""printables/ holds exactly what `make printables` makes today, byte for byte."""
import pytest

from app.printing import printables


def recorded_toolchain() -> str | None:
    readme = printables.PRINTABLES_DIR / "README.md"
    if not readme.is_file():
        return None
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith(printables.TOOLCHAIN_PREFIX):
            return line[len(printables.TOOLCHAIN_PREFIX):]
    return None


def test_printables_are_up_to_date(tmp_path):
    recorded = recorded_toolchain()
    assert recorded, "printables/README.md is missing or has no toolchain line: run `make printables`"
    if recorded != printables.toolchain():
        pytest.skip(f"printables/ was built with {recorded}; this machine has {printables.toolchain()}, "
                    "so its bytes cannot match (a different reportlab or font file)")
    printables.build(tmp_path)
    built = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    kept = {path.name: path.read_bytes() for path in printables.PRINTABLES_DIR.iterdir() if path.is_file()}
    assert sorted(kept) == sorted(built), "printables/ has other files than `make printables` makes"
    stale = [name for name in built if built[name] != kept[name]]
    assert not stale, f"out of date (run `make printables`): {', '.join(stale)}"


def test_every_builtin_deck_has_a4_and_letter_printables():
    from app.decks import builtin_decks

    names = set(printables.builds())
    for deck_id in builtin_decks():
        assert {f"{deck_id}-a4.pdf", f"{deck_id}-letter.pdf"} <= names
