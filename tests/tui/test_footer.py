"""The terminal app's footer: every key it names is on a 100-column screen in every
language, and on 80 columns in English, Spanish, Italian and Dutch; on 80 columns the
most used stay in sight in German and French too (whose words are longer: F1 lists
them all), and between a tournament's games the next game's key comes early."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from shiftago.interfaces.shared.catalogues import LANGUAGES

SCRIPT = Path(__file__).parents[1] / "support" / "footer_keys.py"


def footer_keys(width: int, between: bool, *langs: str) -> dict[str, list[list[object]]]:
    """Each language's footer keys, each with whether it lies wholly on the screen."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(width), "1" if between else "0", *langs],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    found: dict[str, list[list[object]]] = json.loads(done.stdout)
    return found


#: The languages whose footer holds every key on 80 columns (Spanish's replay key,
#: "Repetición", went one column past it: it says "Repetir", as its neighbours say
#: "Cargar" and "Guardar").
WHOLE_ON_80 = ("en", "es", "it", "nl")


def test_every_key_of_the_footer_is_on_the_screen_in_every_language() -> None:
    """All of them on 100 columns, and on 80 in the languages of :data:`WHOLE_ON_80`;
    on 80 columns the others keep at least help, a new game, take-back, replay, the
    engine and load in sight."""
    expected = ["f1", "f2", "ctrl+z", "f7", "f5", "f3", "f4"]
    found = footer_keys(100, False, *LANGUAGES)
    for lang in LANGUAGES:
        assert [key for key, _ in found[lang]] == expected, lang
        assert all(inside for _, inside in found[lang]), (lang, found[lang])
    narrow = footer_keys(80, False, *LANGUAGES)
    for lang in WHOLE_ON_80:
        assert all(inside for _, inside in narrow[lang]), (lang, narrow[lang])
    for lang in LANGUAGES:
        assert all(inside for _, inside in narrow[lang][:6]), (lang, narrow[lang])


def test_the_next_games_key_comes_early_between_a_tournaments_games() -> None:
    [(keys)] = footer_keys(80, True, "de").values()
    assert [key for key, _ in keys][:2] == ["f1", "f8"]
    assert all(inside for _, inside in keys[:5])
