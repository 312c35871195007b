"""An error message fit to show a person or a program on one line.

Messages quote the input they refuse, and input can be anything: a pasted page, control
bytes, text that is not UTF-8. :func:`one_line` keeps the words and drops the rest.
"""

from __future__ import annotations

import re
from typing import Final

#: The longest word kept whole (a long file path fits): a longer one, such as a pasted
#: line quoted back, is cut.
LONGEST_WORD: Final = 200
#: The longest message kept whole: one that quotes many words of its input (arguments
#: to a command that takes none, say) is cut.
LONGEST_LINE: Final = 1_000
#: The no-break spaces a language's typography puts in its messages (French before
#: ``:``): Python counts them as not printable, but they are shown and kept as they are.
KEPT_SPACES: Final = frozenset("\u00a0\u202f")
#: Whitespace other than those: a run of it is one space.
_BREAKING_SPACE: Final = re.compile("[^\\S\u00a0\u202f]+")


def one_line(text: str) -> str:
    """``text`` on one readable line: whitespace runs as one space, characters that
    cannot be shown as ``?``, each word of more than :data:`LONGEST_WORD` characters
    cut to that length with an ellipsis, and the line cut so to :data:`LONGEST_LINE`.

    >>> said = one_line("'" + "x" * 300 + "' is not\\tan action\\x00")
    >>> said == "'" + "x" * 198 + "… is not an action?"
    True
    >>> len(one_line("undo takes no arguments, got " + "L " * 100_000))
    1000
    >>> one_line("pas une action\u202f: les actions") == "pas une action\u202f: les actions"
    True
    """
    shown = "".join(
        ch if ch.isprintable() or ch in KEPT_SPACES else "?" for ch in text.replace("\t", " ")
    )
    pieces = _BREAKING_SPACE.split(shown.strip())
    words = [w if len(w) <= LONGEST_WORD else w[: LONGEST_WORD - 1] + "…" for w in pieces if w]
    line = " ".join(words) or "error"
    return line if len(line) <= LONGEST_LINE else line[: LONGEST_LINE - 1] + "…"
