"""What a player types at ``shiftago play`` besides actions: the commands, in English
and in the language's own words (an Italian family typed "aiuto" and was told it is no
action), yes and no, and the help that lists them filled to the terminal's width.

A command's word in the language is a catalogue message. It is taken only where it
cannot be mistaken for anything else typed here: one word, no action of the notation
(RULES.md section 8: ``L3``, ``tc``, ``xc3-g3``), no other command's word, no answer to a
yes/no question. The English words stay in every language.
"""

from __future__ import annotations

import shutil
import textwrap
import unicodedata
from dataclasses import dataclass
from typing import Final

from shiftago.core import Action, ShiftagoError
from shiftago.interfaces.shared.catalogues import N_, _

#: The widest a paragraph is filled to, on a wider terminal too: longer lines are hard
#: to read.
WRAP_WIDTH: Final = 100


@dataclass(frozen=True)
class Command:
    """A command: its English words (the first names it), its word in the language (a
    msgid), what it does (a msgid), and whether a file name follows it."""

    english: tuple[str, ...]
    word: str
    about: str
    takes_file: bool = False

    @property
    def name(self) -> str:
        return self.english[0]


LEGAL = Command(("legal",), N_("command word: legal"), N_("list the legal actions"))
UNDO = Command(
    ("undo",),
    N_("command word: undo"),
    N_("take back the last action (against the computer: back to your last turn)"),
)
SAVE = Command(
    ("save",),
    N_("command word: save"),
    N_("write the game record to %(file)s (the rest of the line)"),
    takes_file=True,
)
BOARD = Command(("board", "show"), N_("command word: board"), N_("show the board again"))
POSITION = Command(("position",), N_("command word: position"), N_("print the position string"))
RULES = Command(
    ("rules",),
    N_("command word: rules"),
    N_("how to play: a turn, and how each variant is won"),
)
HELP = Command(("help", "?", "h"), N_("command word: help"), N_("this text"))
QUIT = Command(
    ("quit", "exit", "q"),
    N_("command word: quit"),
    N_("leave (the game stays saved and can be resumed)"),
)
#: In the order the help lists them.
COMMANDS: Final = (LEGAL, UNDO, SAVE, BOARD, POSITION, RULES, HELP, QUIT)

#: The help's rows for the actions, before the commands.
ACTION_ROWS: Final = (
    ("L3 R3 Tc Bc", N_("insert a marble: side L, R, T or B, then the rank or file of the lane")),
    ("xc3-g3", N_("score the line from c3 to g3 (with 3-4 players c3 is the end that stays)")),
)


def plain(word: str) -> str:
    """``word`` in lower case without its accents: "sí" is "si", "règles" "regles"."""
    parts = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(ch for ch in parts if not unicodedata.combining(ch))


def yes_or_no(word: str) -> bool | None:
    """Whether ``word`` answers yes (True) or no (False): y, yes, n, no, or the language's
    own words (oui, ja, sí...) and their first letters where those differ; else None."""
    yes, no = plain(_("yes")), plain(_("no"))
    yes_words, no_words = {"y", "yes", yes}, {"n", "no", no}
    if yes[:1] != no[:1]:
        yes_words.add(yes[:1])
        no_words.add(no[:1])
    said = plain(word)
    if said in yes_words and said not in no_words:
        return True
    if said in no_words and said not in yes_words:
        return False
    return None


def yes_no_letters() -> tuple[str, str]:
    """The first letters of the language's words for yes and no ("j", "n" in German),
    which the answers take beside y and n."""
    yes, no = plain(_("yes"))[:1], plain(_("no"))[:1]
    if not yes or not no or yes == no:
        yes, no = "y", "n"
    return yes, no


def yes_no_hint(default: bool) -> str:
    """The hint after a yes/no question (" [J/n] " in German), the default's letter in
    upper case."""
    yes, no = yes_no_letters()
    return f" [{yes.upper()}/{no}] " if default else f" [{yes}/{no.upper()}] "


def yes_no_again() -> str:
    """What a question says to an answer that is neither, by the letters its hint shows."""
    yes, no = yes_no_letters()
    return _("Please answer %(yes)s or %(no)s.") % {"yes": yes, "no": no}


def is_action(text: str) -> bool:
    """Whether ``text`` reads as an action of the notation (``L3``, ``xc3-g3``)."""
    try:
        Action.parse(text)
    except ShiftagoError:
        return False
    return True


def language_words() -> dict[str, Command]:
    """The commands' words in the terminal's language, plain (:func:`plain`), each taken
    only where it is one word that no action, English command word or yes/no answer
    reads as, and that no other command's word in the language repeats; none in
    English."""
    english = {word: command for command in COMMANDS for word in command.english}
    said: dict[str, list[Command]] = {}
    for command in COMMANDS:
        word = plain(_(command.word))
        if word and word != plain(command.word):  # translated
            said.setdefault(word, []).append(command)
    return {
        word: commands[0]
        for word, commands in said.items()
        if len(commands) == 1
        and len(word.split()) == 1
        and english.get(word, commands[0]) is commands[0]
        and not is_action(word)
        and yes_or_no(word) is None
    }


def command_of(word: str) -> Command | None:
    """The command ``word`` names, in English or in the terminal's language; None for
    any other word (an action, or a mistake)."""
    said = plain(word)
    for command in COMMANDS:
        if said in command.english:
            return command
    return language_words().get(said)


def word_of(command: Command) -> str:
    """How the help and the hints name ``command``: its word in the language, where the
    language has one that :func:`language_words` takes, else its English word."""
    word = _(command.word).strip().lower()
    return word if language_words().get(plain(word)) is command else command.name


def usage(command: Command, space: str = " ") -> str:
    """``command`` as typed, with ``FILE`` (in the language) after it where it takes one
    (``space`` between: a no-break space keeps them on one line of a filled paragraph)."""
    word = word_of(command)
    return f"{word}{space}{_('FILE')}" if command.takes_file else word


def text_width() -> int:
    """The width text is filled to: the terminal's, less a column (a line that fills the
    last column breaks on some terminals), at most :data:`WRAP_WIDTH`; 80 columns where
    the output is no terminal and ``COLUMNS`` does not say."""
    columns = shutil.get_terminal_size(fallback=(80, 24)).columns
    return max(40, min(WRAP_WIDTH, columns - 1))


def fill(text: str, width: int) -> str:
    """``text``'s paragraphs (blank lines between) filled to ``width``; notation and
    paths are never broken."""
    return "\n\n".join(
        textwrap.fill(paragraph, width, break_long_words=False, break_on_hyphens=False)
        for paragraph in text.split("\n\n")
    )


def help_text(width: int) -> str:
    """The ``help`` command's text: the actions and the commands in the language's
    words, a row each, filled to ``width`` under their descriptions' column; then, where
    the language has its own words, that the English ones work too."""
    rows = [(key, _(about)) for key, about in ACTION_ROWS]
    for command in COMMANDS:
        about = _(command.about)
        rows.append((usage(command), about % {"file": _("FILE")} if command.takes_file else about))
    column = max(len(key) for key, _about in rows) + 4
    lines = [textwrap.fill(_("Type an action or a command (case does not matter):"), width)]
    for key, about in rows:
        lines.append(
            textwrap.fill(
                about,
                width,
                initial_indent="  " + key.ljust(column),
                subsequent_indent=" " * (2 + column),
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    if any(word_of(command) != command.name for command in COMMANDS):
        english = ", ".join(command.name for command in COMMANDS)
        lines.append(fill(_("The English words work too: %(words)s.") % {"words": english}, width))
    return "\n".join(lines)
