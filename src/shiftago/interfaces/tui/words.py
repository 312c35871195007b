"""The game's words in the player's language: colours, results, scoring choices. Each
sentence is one catalogue message, so that a translator sees it whole."""

from __future__ import annotations

from shiftago.core import Action, Game, Insertion, Outcome, ScoringOption, State, cell_name
from shiftago.core.outcome import EndReason
from shiftago.interfaces.shared.catalogues import _, ngettext
from shiftago.interfaces.shared.game_words import opening_skipped_turns, skipped_turns


def colour(seat: int) -> str:
    """A seat's colour as a word (its letter stays beside it on the board)."""
    names = (_("orange"), _("green"), _("blue"), _("white"))
    return names[seat]


def sentence(text: str) -> str:
    """``text`` with its first letter in upper case: a sentence that begins with a
    colour's name, which the catalogues give as it reads inside a sentence ("naranja
    juega L3." reads "Naranja juega L3.")."""
    return text[:1].upper() + text[1:]


def seat_label(seat: int, level: int | None, name: str | None = None) -> str:
    """A seat as the side panel names it, at the start of its line: its colour, and the
    computer's level; a person's name from a loaded record before the colour."""
    if level is None and name:
        return _("%(name)s (%(colour)s)") % {"name": name, "colour": colour(seat)}
    if level is None:
        return sentence(colour(seat))
    return sentence(
        _("%(colour)s (computer, level %(level)s)") % {"colour": colour(seat), "level": level}
    )


def result(outcome: Outcome) -> str:
    """The result as one sentence."""
    if outcome.winner is not None:
        who = {"colour": colour(outcome.winner)}
        by_reason = {
            EndReason.LINE: _("%(colour)s wins with a line."),
            EndReason.POINTS: _("%(colour)s wins by reaching 10 points."),
            EndReason.BOARD_FULL: _("%(colour)s wins on points: the board is full."),
            EndReason.NO_MARBLES: _("%(colour)s wins on points: a player has no marble left."),
            EndReason.ACTION_LIMIT: _("%(colour)s wins on points: the action limit is reached."),
        }
        return sentence(by_reason[outcome.reason] % who)
    if len(outcome.winners) == outcome.players:
        return _("The game is a draw.")
    names = ", ".join(colour(s) for s in outcome.winners)
    return _("A draw between %(colours)s.") % {"colours": names}


def option_text(option: ScoringOption, players: int) -> str:
    """A scoring option in the list of choices: its line, points and what comes off."""
    line = option.line.cells
    values = {
        "action": str(option.action),
        "start": cell_name(line[0]),
        "end": cell_name(line[-1]),
        "removed": " ".join(cell_name(c) for c in option.removed),
        "points": ngettext("%(n)s point", "%(n)s points", option.points) % {"n": option.points},
    }
    if players > 2:
        values["keep"] = cell_name(option.action.keep)
        return (
            _("%(action)s: line %(start)s-%(end)s, %(points)s, keeps %(keep)s, removes %(removed)s")
            % values
        )
    return _("%(action)s: line %(start)s-%(end)s, %(points)s, removes %(removed)s") % values


def opening_skips(game: Game) -> list[str]:
    """The turns a new game's handicaps skipped before its first action, a sentence
    each, as ``shiftago play`` says them (an Italian walk read only "1 turn to skip" for
    seats given 2); none once the game has begun."""
    return [f"{sentence(words)}." for words in opening_skipped_turns(game)]


def action_words(before: State, after: State, action: Action) -> str:
    """What the log says of an action: who pushed where, or scored what, and the turns
    a handicap skipped after it."""
    mover = before.turn
    who = {"colour": colour(mover), "action": str(action)}
    skipped = skipped_turns(before.skips, after.skips, (mover + 1) % len(after.skips))
    after_it = "".join(f" {sentence(words)}." for words in skipped)
    if isinstance(action, Insertion):
        return sentence(_("%(colour)s plays %(action)s.") % who) + after_it
    gained = after.scores[mover] - before.scores[mover]
    said = ngettext(
        "%(colour)s scores %(action)s: %(n)s point.",
        "%(colour)s scores %(action)s: %(n)s points.",
        gained,
    )
    return sentence(said % {**who, "n": gained}) + after_it
