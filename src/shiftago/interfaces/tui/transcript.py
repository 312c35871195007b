"""The app's log: what it has said, wrapped at the pane's width whenever that changes.

Textual's RichLog wraps a line once, when it is written; the app's pane narrows and
widens with the terminal, so the log keeps its texts and writes them again at a new
width (a long French line cut at 43 columns on an 80-column screen reads across the
pane again at 160).

Lines break between words, and a file's path is a word: it moves whole to the next
line. A path longer than the whole pane (the autosave's, under a long home folder, on
80 columns) starts a line of its own and breaks only after its separators, never inside
a name, where Rich cut it wherever the pane ended ("last-ga / me.txt": an Italian
family).
"""

from __future__ import annotations

import re
from typing import Final, Self

from rich.console import RenderableType
from textual import events
from textual.widgets import RichLog

#: A path's pieces: each name with the separator after it.
_PATH_PIECE: Final = re.compile(r"[^/\\]*[/\\]|[^/\\]+")


def keep_paths(text: str, width: int) -> str:
    """``text`` with each word longer than ``width`` that holds a path's separator put
    on a line of its own and broken into lines after its separators (``/home/ann/`` and
    ``last-game.txt.``), none longer than ``width`` where its names allow; the rest of
    the text is left to the log's wrapping, which breaks between words."""
    lines = []
    for line in text.split("\n"):
        words = line.split(" ")
        for i, word in enumerate(words):
            if len(word) > width and ("/" in word or "\\" in word):
                words[i] = "\n" + "\n".join(_pieces(word, width))
        lines.append(" ".join(words))
    return "\n".join(lines)


def _pieces(path: str, width: int) -> list[str]:
    """``path`` as lines of at most ``width``, broken only after a separator (a single
    name longer than ``width`` is a line of its own, longer)."""
    lines = [""]
    for piece in _PATH_PIECE.findall(path):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append(piece)
        else:
            lines[-1] += piece
    return lines


class Transcript(RichLog):
    """A RichLog of plain texts that wraps them again when its width changes."""

    def __init__(self, texts: list[str], **kwargs: object) -> None:
        """``texts``: every text the log has said, in order, kept by its owner (the app's
        transcript, which outlives the screen); the log writes each as it is added."""
        super().__init__(wrap=True, markup=False, min_width=20, **kwargs)  # type: ignore[arg-type]
        self.texts = texts
        self._wrapped_at = 0
        #: The width the texts are written at: the last resize's (0 before the first).
        self._width = 0

    def write(
        self,
        content: RenderableType | object,
        width: int | None = None,
        expand: bool = False,
        shrink: bool = True,
        scroll_end: bool | None = None,
        animate: bool = False,
    ) -> Self:
        """Write ``content``; a text with its long paths kept whole (:func:`keep_paths`)
        once the width is known (a text written before waits for it, as RichLog's do)."""
        at = width or self._width
        if isinstance(content, str) and at > 0:
            content = keep_paths(content, at)
        return super().write(content, width, expand, shrink, scroll_end, animate)

    def on_resize(self, event: events.Resize) -> None:
        # the region is not yet the new one here: the new size less the scroll bar
        width = event.size.width - self.styles.scrollbar_size_vertical
        self._width = max(width, 0)
        super().on_resize(event)  # writes the texts said before the size was known
        if self._wrapped_at and width > 0 and width != self._wrapped_at:
            self.clear()
            for text in self.texts:
                self.write(text, width=width)
            self.scroll_end(animate=False)
        self._wrapped_at = width
