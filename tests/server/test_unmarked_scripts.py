"""No page script shows a word the catalogues lack (issue 50): a static scan of
``web/static/**/*.js`` for literals a person reads that are not ``t()``/``tn()``
arguments (tests/support/script_words.py). The scripts still English are exactly those
languages.UNCONVERTED names: the list cannot lie, and once it is empty no script has an
unmarked word."""

from __future__ import annotations

from pathlib import Path

from shiftago.interfaces.server.languages import UNCONVERTED
from support.script_words import scan, unmarked_in

STATIC = Path(__file__).resolve().parents[2] / "src/shiftago/interfaces/server/web/static"


def test_each_place_a_person_reads_is_seen() -> None:
    sample = """
    import { t, tn } from "./i18n.js";
    const WORDS = { accept: "Accept", done: t("Done") };
    box.textContent = ok ? "Copied" : t("Copy failed");
    el("button", { class: "small primary", text: "Resign", "data-testid": "resign" });
    el("input", { placeholder: "your name", "aria-label": t("Your name"), title: `Play ${a}` });
    node.setAttribute("aria-label", "Shiftago board");
    node.setAttribute("data-kind", "plain words");
    announcer.say("It is your turn.", "info");
    if (answer === "granted") note.title = tn("{n} game", "{n} games", n);
    const list = `${a} and ${b}`;
    const path = `/api/games/${id}/ratings`;
    // A comment says "Never mind" here.
    const pattern = /Not a word/g;
    throw new RangeError("The start position cannot be deleted.");
    """
    assert unmarked_in(sample) == [
        "3: Accept",
        "4: Copied",
        "5: Resign",
        "6: your name",
        "6: Play {}",
        "7: Shiftago board",
        "9: It is your turn.",
        "11: {} and {}",
    ]  # a thrown error is a programmer's: the page catches it and says its own words


def test_a_marked_script_has_no_finding() -> None:
    marked = """
    const WORDS = { accept: () => t("Accept"), n: (n) => tn("{n} game", "{n} games", n) };
    box.textContent = ok ? t("Copied") : t("Copy failed: {why}", { why: "later" });
    el("div", { class: "hint small", id: "result-text", "data-testid": "result" });
    document.querySelector("[data-testid=language-picker]");
    if (event.key === "Enter" || event.key === "ArrowLeft") go();
    console.warn("The socket closed: reconnecting.");
    if (ok) {
      box.textContent = answered;
    }
    node.dataset.state = "true";
    """
    assert unmarked_in(marked) == []  # a block's end ends its last statement


def test_the_converted_scripts_have_no_unmarked_word() -> None:
    found = scan(STATIC)
    for name in ("leaderboard.js", "header.js", "prefs.js", "errors.js", "i18n.js"):
        assert found[name] == [], name


def covers(entry: str, name: str) -> bool:
    """Whether the UNCONVERTED ``entry`` names the script ``name`` (``static/board/``
    names a folder)."""
    return entry == f"static/{name}" or (entry.endswith("/") and f"static/{name}".startswith(entry))


def test_the_converted_scripts_have_none_and_unconverted_names_the_rest() -> None:
    """A script with unmarked words is named by UNCONVERTED, and a script UNCONVERTED
    names has some: converting a script and leaving it listed, or listing one with no
    words, fails here."""
    found = scan(STATIC)
    left = {
        name: words
        for name, words in found.items()
        if words and not any(covers(entry, name) for entry in UNCONVERTED)
    }
    assert left == {}
    english = {name for name, words in found.items() if words}
    listed = {entry for entry in UNCONVERTED if entry.startswith("static/")}
    named = {
        entry
        for entry in listed
        if any(
            entry == f"static/{n}" or (entry.endswith("/") and f"static/{n}".startswith(entry))
            for n in english
        )
    }
    assert named == listed
