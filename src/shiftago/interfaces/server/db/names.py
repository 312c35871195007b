"""A name's folded form (its *key*): what two names that look alike have in common.

The key is the Unicode confusables skeleton of UTS #39 ("Unicode Security Mechanisms",
section 4), as ICU's spoof checker computes it (PyICU), between two case foldings: the
skeleton maps each character to the prototype it is confused with (``0`` to ``O``,
``1`` and ``I`` to ``l``, ``rn`` to ``m``, Cyrillic a (U+0430) to Latin ``a``, full-width
letters to plain ones), and folding case before and after makes ``Ann``, ``ANN`` and
``ann`` with a Cyrillic a one key. Two names with one key are taken as one name: an account's
key is stored beside it (``accounts.name_key``, indexed), so a lookalike of an existing
account is one query, and a guest's name is compared with the accounts' by its key.

Pairs that the skeleton does not fold (``g`` and ``q``, ``c`` and ``e``) stay apart:
they are different letters in every font the pages use, and folding them by a table of
our own would refuse names that nobody confuses (docs/security.md, "Names").
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Final

import icu

#: The longest text whose key is computed (names are far shorter; this bounds the work).
MAX_FOLDED: Final = 200

_checker = icu.SpoofChecker()


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """The folded form of ``name``: the UTS #39 skeleton of its case folding, folded again
    (the skeleton's prototypes are sometimes capitals, as ``O`` for ``0``)."""
    text = unicodedata.normalize("NFKC", name[:MAX_FOLDED].strip()).casefold()
    skeleton = _checker.getSkeleton(0, text)
    return unicodedata.normalize("NFKC", skeleton).casefold()


__all__ = ["MAX_FOLDED", "name_key"]
