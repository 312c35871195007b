"""The terminal app's footer: every key it names is on a 100-column screen in every
language, English's on 80 columns, and between a tournament's games the next game's
key comes early enough to stay on an 80-column screen."""

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


def test_every_key_of_the_footer_is_on_the_screen_in_every_language() -> None:
    found = footer_keys(100, False, *LANGUAGES)
    expected = ["ctrl+q", "f1", "f2", "f3", "f4", "f5", "ctrl+z", "f7"]
    for lang in LANGUAGES:
        assert [key for key, _ in found[lang]] == expected, lang
        assert all(inside for _, inside in found[lang]), (lang, found[lang])
    assert all(inside for _, inside in footer_keys(80, False, "en")["en"])


def test_the_next_games_key_comes_early_between_a_tournaments_games() -> None:
    [(keys)] = footer_keys(80, True, "de").values()
    assert [key for key, _ in keys][:3] == ["ctrl+q", "f1", "f8"]
    assert all(inside for _, inside in keys[:3])
