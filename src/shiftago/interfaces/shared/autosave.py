"""Where ``shiftago play`` and ``shiftago tui`` keep the game in progress, so that it
survives a lost session.

The files live in the user's data directory: ``$SHIFTAGO_HOME`` when that is set (tests
point it at a temporary directory), else ``$XDG_DATA_HOME/shiftago``, else
``~/.local/share/shiftago``. ``autosave.txt`` holds the unfinished game as a record; a
finished game removes it and leaves its record in ``last-game.txt``. A tournament of
``shiftago tui`` keeps its series beside it in ``tournament.json``
(:mod:`shiftago.interfaces.tui.series`).
"""

from __future__ import annotations

import os
import tempfile
from datetime import datetime
from pathlib import Path

from shiftago.formats.source import read_text

AUTOSAVE_NAME = "autosave.txt"
LAST_GAME_NAME = "last-game.txt"
SERIES_NAME = "tournament.json"


def data_dir() -> Path:
    """The directory of the autosave (not created here)."""
    home = os.environ.get("SHIFTAGO_HOME")
    if home:
        return Path(home).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "shiftago"


def write_atomically(path: Path, text: str, private: bool = True) -> None:
    """Write ``text`` to ``path`` so that a reader (or a kill) never sees half a file;
    readable by its owner only when ``private``, else as the umask says (an export)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if not private:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Autosave:
    """The autosave file of one data directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else data_dir()

    @property
    def path(self) -> Path:
        return self.directory / AUTOSAVE_NAME

    @property
    def last_game_path(self) -> Path:
        return self.directory / LAST_GAME_NAME

    @property
    def series_path(self) -> Path:
        return self.directory / SERIES_NAME

    def exists(self) -> bool:
        return self.path.is_file()

    def read_series(self) -> str | None:
        """The kept tournament's text, None when there is none (a :class:`SourceError`
        when it cannot be read)."""
        return read_text(self.series_path) if self.series_path.is_file() else None

    def save_series(self, text: str) -> None:
        write_atomically(self.series_path, text)

    def clear_series(self) -> None:
        self.series_path.unlink(missing_ok=True)

    def set_aside_series(self) -> Path:
        """Move the kept tournament to a file of its own beside it
        (``tournament-DATE.json``, numbered when taken) that nothing replaces; its path."""
        when = datetime.fromtimestamp(self.series_path.stat().st_mtime)
        kept = self._unused(f"tournament-{when:%Y%m%d-%H%M%S}", ".json")
        self.series_path.replace(kept)
        return kept

    def read(self) -> str:
        """The saved record's text (a :class:`SourceError` when it cannot be read)."""
        return read_text(self.path)

    def saved_at(self) -> datetime:
        """When the autosave was last written (local time)."""
        return datetime.fromtimestamp(self.path.stat().st_mtime)

    def save(self, text: str) -> None:
        write_atomically(self.path, text)

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)

    def set_aside_by_date(self) -> Path:
        """Move the autosave aside under the time it was saved (a game from ``--load``
        or ``--position`` takes its place); its path."""
        return self.set_aside(self.saved_at().strftime("%Y%m%d-%H%M%S"))

    def set_aside(self, suffix: str) -> Path:
        """Move the autosave to a file of its own beside it (``autosave-SUFFIX.txt``,
        numbered when taken) that nothing replaces; its path."""
        kept = self._unused(f"{self.path.stem}-{suffix}", self.path.suffix)
        self.path.replace(kept)
        if self.series_path.is_file():  # the tournament that game belongs to, beside it
            self.series_path.replace(kept.with_name(f"tournament-{kept.stem}.json"))
        return kept

    def _unused(self, stem: str, ext: str) -> Path:
        """``STEM.EXT`` beside the autosave, or ``STEM-2.EXT``, ``STEM-3.EXT``…: the first
        that is not taken."""
        kept = self.directory / f"{stem}{ext}"
        number = 1
        while kept.exists():
            number += 1
            kept = self.directory / f"{stem}-{number}{ext}"
        return kept

    def finish(self, text: str) -> Path:
        """A game ended: keep its record as the last game and drop the autosave."""
        write_atomically(self.last_game_path, text)
        self.clear()
        return self.last_game_path
