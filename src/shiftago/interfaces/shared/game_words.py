"""The words the terminal programs (``shiftago play``, ``shiftago show``) say about a
game, in the terminal's language (:func:`shiftago.interfaces.shared.catalogues._`): the
colours, the result, the status under the board, the scoring options. The notation
(``L3``, ``xc3-g3``), the colour letters and the commands a player types stay as they
are in every language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from shiftago.core import COLOURS, Phase, Rules, State, Variant, cell_name
from shiftago.core.errors import TranslatableError
from shiftago.core.game import Game
from shiftago.core.outcome import Outcome
from shiftago.formats.record import UNFINISHED, Record
from shiftago.formats.source import os_reason
from shiftago.interfaces.shared.catalogues import N_, _, ngettext

#: The colours' names, by seat (core.COLOUR_NAMES, marked for the catalogues).
COLOUR_WORDS: Final = (N_("orange"), N_("green"), N_("blue"), N_("white"))
#: Why a game ended, by the outcome's reason.
REASONS: Final = {
    "line": N_("line"),
    "points": N_("points"),
    "board full": N_("board full"),
    "no marbles": N_("no marbles"),
    "action limit": N_("action limit"),
    # a record's terminations that leave several winners (3-4 players)
    "time forfeit": N_("on time"),
    "time": N_("on time"),
    "resignation": N_("by resignation"),
    "agreement": N_("by agreement"),
}
#: How a winner won, by the outcome's reason: the end checks that points decide say
#: what ended the game after "on points" (docs/cli.md).
WON: Final = {
    "line": N_("%(colour)s wins with a line"),
    "points": N_("%(colour)s wins by reaching 10 points"),
    "board full": N_("%(colour)s wins on points (the board is full)"),
    "no marbles": N_("%(colour)s wins on points (the player to move has no marble left)"),
    "action limit": N_("%(colour)s wins on points (the action limit is reached)"),
}
VARIANT_WORDS: Final = {
    Variant.EXPRESS: N_("Express"),
    Variant.EXPERT: N_("Expert"),
    Variant.EXTREME: N_("Extreme"),
}


def colour_name(seat: int) -> str:
    return _(COLOUR_WORDS[seat])


def error_words(error: BaseException) -> str:
    """What ``error`` says, in the terminal's language: a core or format error's English
    template and its fields through the catalogues (:meth:`TranslatableError.words`), the
    colours by their names here; any other error as it is."""
    if isinstance(error, TranslatableError):
        return error.words(_, colour_name)
    if isinstance(error, OSError):  # the system's refusal, in the reader's words
        reason = os_reason(error)
        return reason.words(_, colour_name) if isinstance(reason, TranslatableError) else reason
    return str(error)


def skipped_turns(before: Sequence[int], after: Sequence[int], seat: int) -> list[str]:
    """The turns a handicap skipped, from the skips left ``before`` to ``after``, in the
    order of play from ``seat``, the first the turn came to (each seat with skips left
    uses one when its turn comes, RULES.md section 6): a sentence each."""
    left = list(before)
    said = []
    while sum(left) > sum(after):
        if left[seat] > after[seat]:
            left[seat] -= 1
            more = left[seat]
            sentence = (
                ngettext(
                    "%(colour)s skips a turn (handicap, %(left)d more to come)",
                    "%(colour)s skips a turn (handicap, %(left)d more to come)",
                    more,
                )
                if more
                else _("%(colour)s skips a turn (handicap, the last one)")
            )
            said.append(sentence % {"colour": colour_name(seat), "left": more})
        seat = (seat + 1) % len(left)
    return said


def opening_skipped_turns(game: Game) -> list[str]:
    """The turns a new game's handicaps skipped before its first action (the first
    seat's among them), a sentence each; none once the game has begun."""
    if game.history or game.first is None:
        return []
    start = game.start
    return skipped_turns(start.rules.handicap, start.skips, game.first)


def reason_words(reason: str) -> str:
    return _(REASONS[reason]) if reason in REASONS else reason


def listing(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: the last two joined by the language's word."""
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def points(n: int) -> str:
    return ngettext("%(n)d point", "%(n)d points", n) % {"n": n}


def actions(n: int) -> str:
    return ngettext("%(n)d action", "%(n)d actions", n) % {"n": n}


def variant_name(variant: Variant) -> str:
    """The variant's name in the terminal's language."""
    return _(VARIANT_WORDS[variant])


def game_kind(rules: Rules) -> str:
    """``Express, 2 players``: the variant and the number of players."""
    return _("%(variant)s, %(n)d players") % {
        "variant": variant_name(rules.variant),
        "n": rules.players,
    }


def handicap_words(rules: Rules) -> str | None:
    """A game's handicap, which seats skip how many turns (``handicap: green skips 2
    turns and blue skips 1 turn``); None for a game without one."""
    if not any(rules.handicap):
        return None
    seats = [
        ngettext("%(colour)s skips %(n)d turn", "%(colour)s skips %(n)d turns", turns)
        % {"colour": colour_name(seat), "n": turns}
        for seat, turns in enumerate(rules.handicap)
        if turns
    ]
    return _("handicap: %(seats)s") % {"seats": listing(seats)}


def game_of_file(name: str, games: int, number: int) -> str:
    """Which game of a record file that holds several is shown."""
    said = _("%(name)s holds %(n)d games; this is game %(number)d.")
    return said % {"name": name, "n": games, "number": number}


def describe_outcome(outcome: Outcome) -> str:
    """The result in words: ``orange wins with a line``, ``draw between orange and
    green (board full)``."""
    return _winners_said(outcome.winners, outcome.players, outcome.reason.value, WON)


def _winners_said(winners: tuple[int, ...], players: int, reason: str, won: dict[str, str]) -> str:
    """Who won and why: a sole winner by ``won``'s phrase for ``reason`` (else the reason
    as it is), a draw of all or of some seats with the reason's words."""
    if len(winners) == 1:
        colour = colour_name(winners[0])
        if reason in won:
            return _(won[reason]) % {"colour": colour}
        return _("%(colour)s wins (%(reason)s)") % {"colour": colour, "reason": reason}
    if len(winners) == players:
        return _("the game is a draw (%(reason)s)") % {"reason": reason_words(reason)}
    names = listing([colour_name(s) for s in winners])
    return _("draw between %(names)s (%(reason)s)") % {
        "names": names,
        "reason": reason_words(reason),
    }


#: How a winner won by a termination (a record's Termination header; others are said
#: as they are written).
WON_BY_TERMINATION: Final = {
    "resignation": N_("%(colour)s wins by resignation"),
    "time forfeit": N_("%(colour)s wins on time"),
    "time": N_("%(colour)s wins on time"),  # the web app's records before 8 December 2026
}
#: A game ended without a result, by its termination.
NO_RESULT: Final = {"aborted": N_("no result (the game was aborted)")}


def record_result(record: Record, game: Game) -> str:
    """The result of a record in words (``formats.record.result_words`` in the
    terminal's language): the rules' outcome, else the result its termination gave
    (``orange wins by resignation``), else that it is not over."""
    if game.outcome is not None:
        return describe_outcome(game.outcome)
    why = record.termination
    if why is None:
        return _("the game is not over")
    result = record.result
    if result in (UNFINISHED, ""):
        if why in NO_RESULT:
            return _(NO_RESULT[why])
        return _("no result (%(reason)s)") % {"reason": why}
    seats = tuple(COLOURS.index(letter) for letter in result.split("="))
    return _winners_said(seats, record.rules.players, why, WON_BY_TERMINATION)


def describe_options(state: State) -> list[str]:
    """The scoring options of the score phase, one line each."""
    lines = [_("%(colour)s must score one line:") % {"colour": colour_name(state.turn)}]
    for option in state.scoring_options():
        line = option.line
        ends = f"{cell_name(line.cells[0])}-{cell_name(line.cells[-1])}"
        values = {
            "ends": ends,
            "length": line.length,
            "points": points(option.points),
            "removed": " ".join(cell_name(c) for c in option.removed),
        }
        # with 3-4 players the end that stays is the choice (the terminal app said it,
        # the line game did not: an Italian walk)
        if state.rules.players > 2:
            values["keep"] = cell_name(option.action.keep)
            template = _(
                "line %(ends)s (%(length)s), %(points)s, keeps %(keep)s, removes %(removed)s"
            )
        else:
            template = _("line %(ends)s (%(length)s), %(points)s, removes %(removed)s")
        lines.append(f"  {option.action!s:<8} {template % values}")
    return lines


#: The line under the board at the end, by the outcome's reason: a whole sentence
#: each, whose only brackets are the winners' letters ("vince arancione (o) (fila)"
#: read two brackets in a row: an Italian walk).
WON_HEAD: Final = {
    "line": N_("%(variant)s, %(n)d players: game over, %(who)s wins with a line"),
    "points": N_("%(variant)s, %(n)d players: game over, %(who)s wins by reaching 10 points"),
    "board full": N_(
        "%(variant)s, %(n)d players: game over, the board is full: %(who)s wins on points"
    ),
    "no marbles": N_(
        "%(variant)s, %(n)d players: game over, the player to move has no marble left: "
        "%(who)s wins on points"
    ),
    "action limit": N_(
        "%(variant)s, %(n)d players: game over, the action limit is reached: %(who)s wins on points"
    ),
}
#: A shared result at the end, by the reason (a line or 10 points has one winner, the
#: mover).
DRAWN_HEAD: Final = {
    "board full": N_(
        "%(variant)s, %(n)d players: game over, the board is full: a draw between %(who)s"
    ),
    "no marbles": N_(
        "%(variant)s, %(n)d players: game over, the player to move has no marble left: a "
        "draw between %(who)s"
    ),
    "action limit": N_(
        "%(variant)s, %(n)d players: game over, the action limit is reached: a draw between %(who)s"
    ),
}


def _seat(seat: int) -> str:
    return f"{colour_name(seat)} ({COLOURS[seat]})"


def _per_seat(label: str, values: tuple[int, ...], width: int) -> str:
    """One row of the seats' numbers, its label padded to ``width`` (the longest of the
    rows' labels in the language) so that the columns line up."""
    cells = "  ".join(f"{COLOURS[s]} {v:>2}" for s, v in enumerate(values))
    return f"{label:<{width}}  {cells}"


def status(state: State) -> str:
    """Two to four short lines under the board: who acts (or the result), supplies,
    points, skips (formats.text_board's status, in the terminal's language)."""
    rules = state.rules
    values = {"variant": variant_name(rules.variant), "n": rules.players}
    if state.phase is Phase.OVER and state.outcome is not None:
        outcome = state.outcome
        reason = outcome.reason.value
        if outcome.is_draw:
            head = _(DRAWN_HEAD[reason])
            values["who"] = listing([_seat(s) for s in outcome.winners])
        else:
            head = _(WON_HEAD[reason])
            values["who"] = _seat(outcome.winners[0])
    elif state.phase is Phase.SCORE:
        head = _("%(variant)s, %(n)d players: %(who)s must score a line")
        values["who"] = _seat(state.turn)
    else:
        head = _("%(variant)s, %(n)d players: %(who)s to insert")
        values["who"] = _seat(state.turn)
    rows = [(_("supply"), state.supplies)]
    if rules.variant is not Variant.EXPRESS:
        rows.append((_("points"), state.scores))
    if any(state.skips):
        rows.append((_("skips"), state.skips))
    width = max(6, *(len(label) for label, _numbers in rows))
    return "\n".join([head % values, *(_per_seat(label, n, width) for label, n in rows)])
