#!/usr/bin/env python3
"""The site's catalogues (docs/translating.md): ``extract`` the template
(``src/shiftago/locale/shiftago.pot``) from the code, ``update`` every language's ``.po``
from it, ``check`` that each catalogue is complete. ``init LANG`` starts a new language.

    python scripts/catalogues.py extract    # pybabel extract, then update
    python scripts/catalogues.py check      # what each language lacks; exit 1 if any
    python scripts/catalogues.py pseudo DIR # a marked catalogue to find unmarked words

``pseudo DIR`` extracts the template into DIR and writes a German catalogue there whose
every message is its English text in ⟦brackets⟧: served with
``SHIFTAGO_LOCALE_DIR=DIR SHIFTAGO_PREVIEW_LANGUAGES=1`` and ``?lang=de``, any word on a
page outside brackets is one the catalogues do not have.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "shiftago" / "locale"
TEMPLATE = LOCALE / "shiftago.pot"
sys.path.insert(0, str(ROOT / "src"))
from shiftago.interfaces.shared.catalogues import KEYWORDS  # noqa: E402


def pybabel(*args: str) -> None:
    command = [str(Path(sys.executable).with_name("pybabel")), *args]
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=ROOT)


def extract(target: Path = TEMPLATE) -> None:
    pybabel(
        "extract", "-F", "babel.cfg", *KEYWORDS, "--no-location", "--sort-output",
        "--project", "shiftago", "--copyright-holder", "the Shiftago authors",
        "--msgid-bugs-address", "https://github.com/shiftago/shiftago/issues",
        "-o", str(target), "src",
    )  # fmt: skip


def update() -> None:
    pybabel(
        "update", "-i", str(TEMPLATE.relative_to(ROOT)), "-d", str(LOCALE.relative_to(ROOT)),
        "-D", "shiftago", "--no-fuzzy-matching", "--ignore-obsolete",
    )  # fmt: skip


def init(lang: str) -> None:
    pybabel(
        "init", "-i", str(TEMPLATE.relative_to(ROOT)), "-d", str(LOCALE.relative_to(ROOT)),
        "-D", "shiftago", "-l", lang,
    )  # fmt: skip


def check() -> int:
    """Say what each language lacks; 1 when any catalogue is incomplete."""
    from shiftago.interfaces.server.languages import UNCONVERTED, Catalogues

    catalogues = Catalogues(LOCALE, preview=True)
    gaps = 0
    for lang, lacks in catalogues.gaps.items():
        print(f"{lang}: {'complete' if not lacks else f'{len(lacks)} missing'}")
        for line in lacks:
            print(f"  {line}")
        gaps += len(lacks)
    if UNCONVERTED:
        print(f"{len(UNCONVERTED)} templates and scripts still English (languages.UNCONVERTED)")
    return 1 if gaps else 0


def pseudo(folder: Path, lang: str = "de") -> None:
    """The template in ``folder`` and a catalogue of ``lang`` marking every message."""
    from shiftago.interfaces.shared.catalogues import write_pseudo

    folder.mkdir(parents=True, exist_ok=True)
    template = (folder / "shiftago.pot").resolve()
    extract(template)
    print(f"wrote {write_pseudo(template, folder, lang)}")


def main(argv: list[str]) -> int:
    match argv:
        case ["extract"]:
            extract()
            update()
        case ["update"]:
            update()
        case ["init", lang]:
            init(lang)
        case ["check"]:
            return check()
        case ["pseudo", folder]:
            pseudo(Path(folder))
        case _:
            print(__doc__, file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
