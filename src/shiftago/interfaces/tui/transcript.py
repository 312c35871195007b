"""The app's log: what it has said, wrapped at the pane's width whenever that changes.

Textual's RichLog wraps a line once, when it is written; the app's pane narrows and
widens with the terminal, so the log keeps its texts and writes them again at a new
width (a long French line cut at 43 columns on an 80-column screen reads across the
pane again at 160).
"""

from __future__ import annotations

from textual import events
from textual.widgets import RichLog


class Transcript(RichLog):
    """A RichLog of plain texts that wraps them again when its width changes."""

    def __init__(self, texts: list[str], **kwargs: object) -> None:
        """``texts``: every text the log has said, in order, kept by its owner (the app's
        transcript, which outlives the screen); the log writes each as it is added."""
        super().__init__(wrap=True, markup=False, min_width=20, **kwargs)  # type: ignore[arg-type]
        self.texts = texts
        self._wrapped_at = 0

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        # the region is not yet the new one here: the new size less the scroll bar
        width = event.size.width - self.styles.scrollbar_size_vertical
        if self._wrapped_at and width > 0 and width != self._wrapped_at:
            self.clear()
            for text in self.texts:
                self.write(text, width=width)
            self.scroll_end(animate=False)
        self._wrapped_at = width
