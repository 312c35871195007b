"""The texts beside the board: the seats and whose turn it is, the engine's lines, and
the record of the game with its review marks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text

from shiftago.core import Action, Phase, State, Variant
from shiftago.engine.bot import Progress
from shiftago.interfaces.shared.catalogues import _, decimal_value, ngettext, whole_number
from shiftago.interfaces.tui.board import INK, LETTERS, MARBLE
from shiftago.interfaces.tui.match import Match
from shiftago.interfaces.tui.words import colour, result, seat_label, sentence


def heading(state: State) -> str:
    """The variant and players, then who acts or the result."""
    rules = state.rules
    variant = {
        Variant.EXPRESS: _("Express"),
        Variant.EXPERT: _("Expert"),
        Variant.EXTREME: _("Extreme"),
    }[rules.variant]
    kind = ngettext("%(variant)s, %(n)s player", "%(variant)s, %(n)s players", rules.players) % {
        "variant": variant,
        "n": rules.players,
    }
    if state.phase is Phase.OVER and state.outcome is not None:
        return kind + "\n" + _("Game over: %(result)s") % {"result": result(state.outcome)}
    who = {"colour": colour(state.turn)}
    if state.phase is Phase.SCORE:
        return kind + "\n" + sentence(_("%(colour)s must score a line.") % who)
    return kind + "\n" + sentence(_("%(colour)s to push a marble in.") % who)


def match_heading(match: Match, state: State, replay_at: int | None) -> str:
    """The heading of the match shown at ``state``: a game lost on time and who won it,
    a tournament's champion or its next game, the replay's step."""
    text = heading(state)
    if match.flagged is not None and replay_at is None:
        text = text.split("\n")[0] + "\n" + flag_words(match.flagged, match.winners or ())
    if match.champion is not None:
        text += "\n" + sentence(
            _("%(colour)s wins the tournament.") % {"colour": colour(match.champion)}
        )
    elif match.next_game_ready:
        text += "\n" + _("F8 starts the tournament's next game.")
    if replay_at is not None:
        text += "\n" + _("Replay: action %(at)s of %(n)s (left and right step, Escape leaves).") % {
            "at": replay_at,
            "n": len(match.game.history),
        }
    return text


def flag_words(flagged: int, winners: Sequence[int]) -> str:
    """Who won when ``flagged``'s time ran out: the other seat, or with 3-4 players the
    others, who share the game (RULES.md)."""
    values = {"colour": colour(flagged)}
    if len(winners) == 1:
        return _("Game over: %(colour)s's time has run out; %(winner)s wins.") % {
            **values,
            "winner": colour(winners[0]),
        }
    return _("Game over: %(colour)s's time has run out; the others share the game.") % values


def seats(
    state: State,
    levels: Mapping[int, int],
    thinking: bool,
    clocks: Mapping[int, str] | None = None,
    wins: Sequence[int] | None = None,
    flagged: int | None = None,
    names: Mapping[int, str] | None = None,
) -> Text:
    """One line per seat: its marble and letter (with ``names``' name of a person),
    supply, points, skips; the turn marked (none once the game is over, also by
    ``flagged``'s clock), and each clock's face in a timed game."""
    out = Text()
    expert = state.rules.variant is not Variant.EXPRESS
    over = state.phase is Phase.OVER or flagged is not None
    for seat in range(state.players):
        turn = seat == state.turn and not over
        out.append("▶ " if turn else "  ", "bold yellow")
        letter = LETTERS[seat]
        out.append(f" {letter} ", f"bold {INK[seat]} on {MARBLE[seat]}")
        name = (names or {}).get(seat)
        out.append(" " + seat_label(seat, levels.get(seat), name), "bold" if turn else "")
        if clocks is not None:
            out.append("  " + clocks[seat], "bold reverse" if turn else "")
        figures = [
            ngettext("%(n)s marble left", "%(n)s marbles left", state.supplies[seat])
            % {"n": state.supplies[seat]}
        ]
        if expert:
            figures.append(
                ngettext("%(n)s point", "%(n)s points", state.scores[seat])
                % {"n": state.scores[seat]}
            )
        if wins is not None:
            figures.append(
                ngettext("%(n)s game won", "%(n)s games won", wins[seat]) % {"n": wins[seat]}
            )
        if state.skips[seat]:
            figures.append(
                ngettext("%(n)s turn to skip", "%(n)s turns to skip", state.skips[seat])
                % {"n": state.skips[seat]}
            )
        out.append("\n     " + ", ".join(figures), "grey70")
        if turn and thinking:
            out.append("\n     " + _("thinking..."), "italic")
        if seat < state.players - 1:
            out.append("\n")
    return out


def engine_lines(progress: Progress | None, wanted: int = 3, over: bool = False) -> str:
    """The engine's best lines at its last depth, best first; before its first depth
    that it thinks, or with ``over`` that the game has no action left to look at."""
    if over:
        return _("No action to look at: the game is over.")
    if progress is None:
        return _("The engine is thinking...")
    head = _("Engine, depth %(depth)s, %(nodes)s nodes") % {
        "depth": progress.depth,
        "nodes": whole_number(progress.nodes),
    }
    rows = [head]
    for number, line in enumerate(progress.lines[:wanted], 1):
        moves = " ".join(str(a) for a in (line.pv or (line.action,)))
        rows.append(f"{number}. {decimal_value(line.value):>7}  {moves}")
    return "\n".join(rows)


def record_text(
    states: Sequence[State], history: Sequence[Action], marks: Mapping[int, str], at: int | None
) -> Text:
    """The actions played, numbered, with the review's marks; ``at`` (a replay's
    position: actions shown) highlights the last action shown."""
    out = Text()
    for number, action in enumerate(history, 1):
        seat = states[number - 1].turn
        piece = f"{number}.{LETTERS[seat]} {action}{marks.get(number, '')}"
        style = "reverse" if at is not None and number == at else ""
        out.append(piece, style)
        out.append("  ")
    if not history:
        out.append(_("No action played yet."), "grey70")
    return out
