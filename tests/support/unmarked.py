"""Finding words a page shows that are not in the catalogues (issue 50): the pages are
served with the pseudo catalogue (``scripts/catalogues.py pseudo``: every message is
⟦its English⟧), and whatever word stands outside the brackets is unmarked.

Used by the template scan (tests/server/test_unmarked_words.py) and the browser's
(tests/e2e/test_unmarked_words_e2e.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

from shiftago.interfaces.shared.catalogues import LANGUAGES, PSEUDO_CLOSE, PSEUDO_OPEN
from support.scripts import script_module

#: Words that stay as they are in every language: the game's name, the languages' own
#: names in the picker. Notation, numbers and symbols have no word and pass anyway.
ALLOWED: frozenset[str] = frozenset(
    {"Shiftago", "English", "Deutsch", "español", "italiano", "français", "Nederlands"}
)
#: The attributes a person reads (a button's ``value`` too).
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
#: A marked message, however nested (a sentence's placeholder may hold another).
_MARKED = re.compile(
    re.escape(PSEUDO_OPEN) + r"[^" + PSEUDO_OPEN + PSEUDO_CLOSE + r"]*" + re.escape(PSEUDO_CLOSE)
)
#: A word: two letters or more; notation (``L3``, ``xa1-e1``, ``e4``) is letters and digits
#: together and is not one.
_WORD = re.compile(r"(?<![\w-])[^\W\d_]{2,}(?![\w-])")
#: A push from the top or the bottom (``Tc``, ``Ba``: RULES.md's notation), two letters
#: that are no word.
_COLUMN_PUSH = re.compile(r"(?<![\w-])[TB][a-g](?![\w-])")
#: A record's header line (``[Variant "express"]``): records are the same in every
#: language.
_RECORD_HEADER = re.compile(r'\[[A-Z]\w* "[^"]*"\]')


def catalogues_script() -> ModuleType:
    """``scripts/catalogues.py`` as a module: the tests build the pseudo catalogue with the
    very code a translator runs."""
    return script_module("catalogues")


def build_pseudo(folder: Path) -> Path:
    """The pseudo catalogue (German) of the code as it is now, in ``folder``."""
    catalogues_script().pseudo(folder)
    assert (folder / "de/LC_MESSAGES/shiftago.po").exists()
    assert set(LANGUAGES) >= {"de"}
    return folder


def unmarked(text: str) -> list[str]:
    """The words of ``text`` outside ⟦ ⟧, but the allowed ones."""
    previous = None
    while previous != text:  # nested marks: the innermost first
        previous, text = text, _MARKED.sub(" ", text)
    text = _COLUMN_PUSH.sub(" ", _RECORD_HEADER.sub(" ", text))
    return [word for word in _WORD.findall(text) if word not in ALLOWED]


#: Elements inside a sentence: a message may hold them (``<code>L3</code>``), so their
#: text and the text around them are read as one.
INLINE = frozenset({"a", "abbr", "b", "code", "em", "i", "kbd", "span", "strong", "sub", "sup"})


class _Texts(HTMLParser):
    """The texts a person reads in a page: its text nodes (not scripts' or styles'),
    joined across inline elements, and the attributes above."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._hidden = 0
        self._run: list[str] = []

    def _flush(self) -> None:
        text = " ".join(" ".join(self._run).split())
        if text:
            self.texts.append(text)
        self._run = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in INLINE:
            self._flush()
        if tag in ("script", "style", "template"):
            self._hidden += 1
        given = dict(attrs)
        for name in READ_ATTRIBUTES:
            if given.get(name):
                self.texts.append(f"[{name}] {given[name]}")
        kind = (given.get("type") or "").lower()
        if given.get("value") and (tag == "button" or kind in ("button", "submit", "reset")):
            self.texts.append(f"[value] {given['value']}")

    def handle_endtag(self, tag: str) -> None:
        if tag not in INLINE:
            self._flush()
        if tag in ("script", "style", "template") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self._run.append(data)


def texts_of(html: str) -> list[str]:
    """What a person reads of ``html``, a text or attribute at a time."""
    parser = _Texts()
    parser.feed(html)
    parser.close()
    parser._flush()
    return parser.texts


def offending(html: str) -> list[str]:
    """The texts of ``html`` that hold a word outside ⟦ ⟧."""
    return [
        text
        for text in texts_of(html)
        if unmarked(text.split("] ", 1)[-1] if text.startswith("[") else text)
    ]


#: What a person reads of the page in the browser: its visible text, a line at a time,
#: and the attributes above of every element (a button's ``value`` too).
READ_IN_BROWSER = """() => {
  const texts = document.body.innerText.split("\\n").map((t) => t.trim()).filter(Boolean);
  for (const node of document.querySelectorAll("*")) {
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const value = node.getAttribute(name);
      if (value && value.trim()) texts.push(`[${name}] ${value.trim()}`);
    }
    const kind = (node.getAttribute("type") || "").toLowerCase();
    if (node.value && (node.tagName === "BUTTON" || ["button", "submit", "reset"].includes(kind)))
      texts.push(`[value] ${node.value}`);
  }
  texts.push(`[document.title] ${document.title}`);
  return texts;
}"""
#: A position string (``express 2 7/7/... o insert 22,22 0,0 0,0``): the same in every
#: language, as a record is.
POSITION = re.compile(
    r"\b(?:express|expert|extreme) [2-4] [0-9a-z/]+ [ogbw] \w+ [\d,]+ [\d,]+ [\d,]+"
)


def offending_texts(texts: list[str], allowed: frozenset[str] = frozenset()) -> list[str]:
    """The texts (as :data:`READ_IN_BROWSER` gives them) with a word outside ⟦ ⟧ that is
    neither allowed here (player names) nor in :data:`ALLOWED`."""
    found = []
    for text in texts:
        body = text.split("] ", 1)[-1] if text.startswith("[") else text
        if [word for word in unmarked(POSITION.sub(" ", body)) if word not in allowed]:
            found.append(text)
    return sorted(set(found), key=found.index)
