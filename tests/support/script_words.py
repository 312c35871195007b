"""A static scan of the pages' scripts for words a person reads that are not said
through ``t()``/``tn()`` of ``static/i18n.js`` (issue 50).

A small tokenizer finds the scripts' string and template literals (comments and regular
expressions skipped) with what encloses each: the calls it is an argument of and the
code before it in its expression. A literal is unmarked when it is not inside a ``t``
or ``tn`` call and either stands where a person reads it (``text:``, ``title:``,
``"aria-label":``, ``placeholder:``, ``alt:``, ``label:``, ``.textContent =``,
``.title =``, ``document.title =``, ``setAttribute("aria-label", ...)``, ``say(``,
``alert(``, ``confirm(``...) and holds a word, or reads as English on its own (a
capitalised word, or a sentence of lower-case words that ends as sentences do)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: Literals that are data, not words: the keyboard's key names, the game's name, the
#: header and value names of HTTP, the variants' identifiers the API takes, the names
#: the server gives a seat that has none (compared, then shown translated).
ALLOWED: frozenset[str] = frozenset(
    {
        "Shiftago", "Enter", "Escape", "Tab", "Home", "End", "Backspace", "Delete",
        "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown",
        "Content-Type", "If-None-Match", "ETag", "X-CSRF-Token",
        "NotAllowedError", "AbortError", "TimeoutError", "Intl", "Infinity", "NaN",
        "Guest", "Computer",
    }
)  # fmt: skip
#: The calls whose arguments are a person's words.
SAYING_CALLS = frozenset({"alert", "confirm", "prompt", "say", "announce", "notice", "setStatus"})
#: The attributes a person reads.
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "aria-description")
_ATTR = "|".join(re.escape(a) for a in READ_ATTRIBUTES)
#: The code before a literal (in its expression) that makes it a person's words.
_PLACES = re.compile(
    r"(?:^|[\s{,])(?:text|label|title|placeholder|alt|[\"'](?:" + _ATTR + r")[\"'])\s*:"
    r"|(?:\.textContent|\.innerText|\.title|\.placeholder|\.alt|\.ariaLabel)\s*=(?!=)"
)
_SET_READ = re.compile(r"\s*[\"'](?:" + _ATTR + r")[\"']\s*,")
_WORD = re.compile(r"[^\W\d_]{2,}")
#: English on its own: a capitalised word (not an identifier such as ``ArrowLeft``),
#: or lower-case words with spaces ending as a sentence does.
_CAPITALISED = re.compile(r"^\W*[A-Z][a-z']+(?:\W|$)")
_SENTENCE = re.compile(r"^\W*[a-z]+(?: [\w',\u2019-]+)+[.…:?!]\s*$")
#: English glued between values: ``${a} and ${b}``.
_GLUE = re.compile(r"\{\}\s+[a-z]{2,}(?:\s+[a-z]+)*\s+\{\}")
#: A literal compared, not shown: ``x === "granted"``.
_COMPARED_BEFORE = re.compile(r"[=!]==?\s*$")
_COMPARED_AFTER = re.compile(r"^\s*[=!]==?")
_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}
_KEYWORDS_BEFORE_REGEX = ("return", "typeof", "case", "of", "in", "yield", "await")


@dataclass(frozen=True)
class Literal:
    """A string or template literal: its line, its text (a template's ``${}`` as
    ``{}``), the calls it is inside (innermost last), the code before it in its
    expression and just after it, and which argument of its call it is part of."""

    line: int
    text: str
    calls: tuple[str, ...]
    before: str
    after: str
    argument: int
    #: the arguments of the innermost call before the literal
    arguments: str


def _name_before(source: str, at: int) -> str:
    found = re.search(r"([\w$.]+)\s*$", source[max(0, at - 80) : at])
    if not found:
        return ""
    name = found.group(1)
    # the developer's console is not a person's page
    return "console" if name.startswith("console.") else name.split(".")[-1]


def literals(source: str) -> list[Literal]:
    """Every literal of ``source`` with its context."""
    found: list[Literal] = []
    #: open brackets: (kind, call name, opened at, current expression's start, argument)
    stack: list[tuple[str, str, int, int, int]] = [("{", "", 0, 0, 0)]
    i, n = 0, len(source)
    last = ""  # the last significant character or word, to tell a regex from a division
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        if source.startswith("/*", i):
            i = source.find("*/", i + 2)
            i = n if i < 0 else i + 2
            continue
        if c == "/" and (last in _REGEX_BEFORE or last in _KEYWORDS_BEFORE_REGEX):
            i = _skip_regex(source, i)
            last = "x"
            continue
        if c in "\"'`":
            start = i
            i, text = _read_literal(source, i)
            _, _, opened, expr, argument = stack[-1]
            names = tuple(name for k, name, *_ in stack if k == "(")
            line = source.count("\n", 0, start) + 1
            after, before, arguments = source[i : i + 12], source[expr:start], source[opened:start]
            found.append(Literal(line, text, names, before, after, argument, arguments))
            last = "x"
            continue
        if c in "([{":
            name = _name_before(source, i) if c == "(" else ""
            stack.append((c, name, i + 1, i + 1, 0))
        elif c in ")]}" and len(stack) > 1:
            stack.pop()
            if c == "}" and stack[-1][0] == "{":
                # a block ends a statement: what follows is not the statement before it
                # (a `.textContent =` that closed an if-block took the next line's literal)
                kind, name, opened, _, argument = stack[-1]
                stack[-1] = (kind, name, opened, i + 1, argument)
        elif c in ",;":
            kind, name, opened, _, argument = stack[-1]
            stack[-1] = (kind, name, opened, i + 1, argument + (c == ","))
        if c.isalnum() or c in "_$":
            word = re.match(r"[\w$]+", source[i:])
            assert word is not None
            last = word.group(0)
            i += len(last)
            continue
        if not c.isspace():
            last = c
        i += 1
    return found


def _skip_regex(source: str, i: int) -> int:
    i += 1
    in_class = False
    while i < len(source) and source[i] != "\n":
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            i += 1
            while i < len(source) and source[i].isalpha():
                i += 1
            return i
        i += 1
    return i


def _read_literal(source: str, i: int) -> tuple[int, str]:
    """The end of the literal at ``i`` and its text (a template's ``${...}`` as ``{}``)."""
    quote = source[i]
    i += 1
    text: list[str] = []
    while i < len(source):
        c = source[i]
        if c == "\\":
            text.append(source[i + 1 : i + 2])
            i += 2
            continue
        if c == quote:
            return i + 1, "".join(text)
        if quote == "`" and source.startswith("${", i):
            depth, i = 1, i + 2
            while i < len(source) and depth:
                if source[i] in "\"'`":
                    i, _ = _read_literal(source, i)
                    continue
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                i += 1
            text.append("{}")
            continue
        text.append(c)
        i += 1
    return i, "".join(text)


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.replace("{}", " ")) if w not in ALLOWED]


def is_unmarked(literal: Literal) -> bool:
    """Whether ``literal`` is words a person reads, not said through ``t``/``tn``."""
    if {"t", "tn", "console"} & set(literal.calls) or literal.text.strip() in ALLOWED:
        return False
    if not _words(literal.text):
        return False
    if _COMPARED_BEFORE.search(literal.before) or _COMPARED_AFTER.match(literal.after):
        return False
    calls = literal.calls
    if calls and calls[-1].endswith("Error"):  # a programmer's error: the page says its own
        return False
    if calls and calls[-1] in SAYING_CALLS:
        return literal.argument == 0
    if calls and calls[-1] == "setAttribute":
        return literal.argument == 1 and bool(_SET_READ.match(literal.arguments))
    if _PLACES.search(literal.before):
        return True
    if calls and calls[-1] in ("querySelector", "querySelectorAll", "getElementById", "import"):
        return False
    if _GLUE.search(literal.text):
        return True
    text = literal.text.replace("{}", "x")
    return bool(_CAPITALISED.match(text) or _SENTENCE.match(text))


def unmarked_in(source: str) -> list[str]:
    """The unmarked literals of a script, ``line: text`` each."""
    return [f"{lit.line}: {lit.text}" for lit in literals(source) if is_unmarked(lit)]


def scan(folder: Path) -> dict[str, list[str]]:
    """Each script under ``folder`` (``board/x.js`` by its path) and what it leaves
    unmarked."""
    return {
        path.relative_to(folder).as_posix(): unmarked_in(path.read_text(encoding="utf-8"))
        for path in sorted(folder.rglob("*.js"))
    }
