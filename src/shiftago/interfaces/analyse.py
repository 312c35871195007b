"""``shiftago analyse``: a bot's judgement of a position, or a review of a whole game.

A translation layer only: the bot (:mod:`shiftago.engine.levels`) judges a position with
:meth:`~shiftago.engine.bot.Bot.analyse`, and :func:`shiftago.engine.review.iter_review`
judges each action of a record and marks the mistakes; this module reads the argument
and writes what they found as text or as one JSON document.

Every value is from the point of view of the seat to act in the position judged (for a
record: the seat that played the action), in the bot's ``value_unit``, which the output
states. With 3-4 players a bot that gives one value per seat
(:attr:`~shiftago.engine.bot.RankedAction.seat_values`) has them shown; otherwise only
the mover's value is shown, and the output says so.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, TextIO

from shiftago.core import COLOURS, Game, Rules, ShiftagoError, State
from shiftago.engine import warm_up as warm_up_searches
from shiftago.engine.bot import Bot, Limits, RankedAction, format_value
from shiftago.engine.levels import bot_for_level, level_name
from shiftago.engine.review import BLUNDER, INACCURACY, MARKS, MISTAKE, PlyReview, iter_review
from shiftago.formats.record import (
    Note,
    Record,
    Variation,
    format_record,
    turn_numbers,
)
from shiftago.formats.record_json import record_to_json
from shiftago.formats.record_notes import MARKS as NAG_OF_MARK
from shiftago.formats.source import SourceError, load_source
from shiftago.formats.text_board import render_text, use_color
from shiftago.interfaces.shared.catalogues import N_, _, decimal_value, ngettext
from shiftago.interfaces.shared.game_words import (
    actions,
    colour_name,
    describe_outcome,
    error_words,
    game_kind,
    game_of_file,
    record_result,
)

#: How the output names the point of view of its values.
POINT_OF_VIEW = "mover"
#: The heading of the annotated record in the text output, in the terminal's language.
ANNOTATED_HEADING = N_("the game with its marks and values:")
#: The comments of the annotated record, which a person reads: its opening comment,
#: and the comment of an action the bot left out of its analysis. The text output says
#: them and the values in the terminal's language (a record's syntax, headers and
#: actions stay as they are); the JSON document keeps them in English, as the rest of
#: it.
ANNOTATED_COMMENT = N_("%(about)s. Each value is for the seat that acted; unit: %(unit)s")
NOT_JUDGED = N_("not judged by the bot")
#: The line that says which bot judged and with which limits (:func:`_about_line`):
#: translated in the text output (the annotated record's comment too), in English in
#: the JSON document's record.
ABOUT_LEVEL = N_("level %(level)d (%(name)s), seed %(seed)d")
ABOUT_DEPTH = N_("depth %(n)d")
ABOUT_NODES = N_("nodes %(n)d")
ABOUT_MOVETIME = N_("movetime %(ms)d ms")
#: The value units of the bots the levels play (their ``value_unit``), for the
#: catalogues: :func:`unit_text` shows them in the terminal's language, and a unit not
#: here as the bot gives it. A test keeps this in step with the bots.
UNIT_MESSAGES: Final = (
    N_(
        "centi-units: heuristic within +-999; 10000-n wins and n-10000 loses after n "
        "more actions; 0 a draw"
    ),
    N_(
        "the mover's mean reward in [0,1] (win 1, loss 0, a draw 1/k to each of its k "
        "winners); proven: 1 a win, 0 a loss, 1/k a draw"
    ),
    N_(
        "points: +1000 wins at once, -1000 lets the next player win at once, "
        "otherwise the points the action scores or sets up"
    ),
)
#: The columns of the ranked actions: "line of play" rather than "line", a word the
#: catalogues already have for a line of marbles.
RANK_COLUMNS: Final = (N_("rank"), N_("action"), N_("value"), N_("line of play"))


class AnalyseError(ValueError):
    """Input that cannot be analysed; the message says what is wrong."""


@dataclass(frozen=True)
class Settings:
    """What to analyse with: the level and its seed, the limits, and how much to show."""

    level: int
    limits: Limits
    seed: int = 0
    top: int | None = None
    threshold: float | None = None  # None: the bot's own mistake_threshold
    game_number: int = 1


def analyse(
    target: str,
    out: TextIO,
    settings: Settings,
    *,
    as_json: bool = False,
    stdin: TextIO | None = None,
) -> None:
    """Analyse the position or record that ``target`` names and write the result to
    ``out``; raises :class:`AnalyseError` for input that cannot be analysed."""
    try:
        name, loaded = load_source(target, stdin)
    except SourceError as e:
        raise AnalyseError(error_words(e)) from None
    try:
        level_bot = bot_for_level(settings.level, settings.seed)
    except ValueError as e:
        raise AnalyseError(error_words(e)) from None
    if isinstance(loaded, State):
        rules = loaded.rules
    else:  # the game asked for (a wrong number is reported below)
        chosen = min(max(settings.game_number, 1), len(loaded)) - 1
        rules = loaded[chosen].rules if loaded else Rules()
    bot = level_bot.for_rules(rules)
    if settings.threshold is None:
        settings = dataclasses.replace(settings, threshold=bot.mistake_threshold)
    if isinstance(loaded, State):
        if settings.game_number != 1:
            message = _("%(name)s holds a position, not a game %(number)d")
            raise AnalyseError(message % {"name": name, "number": settings.game_number})
        if loaded.outcome is not None:
            message = _("the game is over: %(result)s; nothing to analyse")
            raise AnalyseError(message % {"result": describe_outcome(loaded.outcome)})
        _warm_up(level_bot, loaded, settings.limits)
        ranked = level_bot.analyse(loaded, settings.limits)  # the level's budget for the game
        if as_json:
            _write_json(out, position_document(loaded, ranked, bot, settings))
        else:
            write_position(out, loaded, ranked, bot, settings)
        return
    if not 1 <= settings.game_number <= len(loaded):
        # English says "game(s)" for every number; the plural forms let a language do better
        message = ngettext(
            "%(name)s holds %(n)d game(s), not a game %(number)d",
            "%(name)s holds %(n)d game(s), not a game %(number)d",
            len(loaded),
        )
        values = {"name": name, "n": len(loaded), "number": settings.game_number}
        raise AnalyseError(message % values)
    record = loaded[settings.game_number - 1]
    try:
        game = record.to_game()
    except ShiftagoError as e:
        raise AnalyseError(f"{name}: {error_words(e)}") from None
    if game.history:
        _warm_up(level_bot, game.states[0], settings.limits)
    reviews = iter_review(
        level_bot, zip(game.states, game.history, strict=False), settings.limits, settings.threshold
    )
    if as_json:
        _write_json(out, record_document(name, record, list(reviews), bot, settings))
    else:
        write_record(out, name, record, game, reviews, bot, settings, len(loaded))


def _warm_up(bot: Bot, state: State, limits: Limits) -> None:
    """Before a timed analysis, compile the searches and make the bot's tables with a
    one-node search of ``state``, as the engine does before a timed ``go``: else the
    first position's time goes to loading the compiled code (a depth-1 answer)."""
    if not limits.timed:
        return
    warm_up_searches()
    bot.analyse(state, Limits(depth=1, nodes=1, threads=limits.threads, hash_mib=limits.hash_mib))


# --- positions ----------------------------------------------------------------------
def position_document(
    state: State, ranked: list[RankedAction], bot: Bot, settings: Settings
) -> dict[str, Any]:
    """The JSON document of a position's analysis."""
    best = ranked[0]
    shown = ranked if settings.top is None else ranked[: settings.top]
    return {
        "kind": "position",
        "position": state.position(),
        "to_act": COLOURS[state.turn],
        "phase": state.phase.value,
        **_about(bot, settings),
        "evaluation": _number(best.value),
        "seat_values": _seat_values(best),
        "pv": [str(a) for a in best.pv],
        "legal": len(ranked),
        "ranked": [_ranked_entry(r) for r in shown],
    }


def write_position(
    out: TextIO, state: State, ranked: list[RankedAction], bot: Bot, settings: Settings
) -> None:
    """A position's analysis as text: the board, the evaluation, the ranked actions."""
    best = ranked[0]
    out.write(render_text(state, color=use_color(out)) + "\n")
    out.write(_("position: %(position)s") % {"position": state.position()} + "\n")
    out.write(_about_line(bot, settings) + "\n")
    out.write(_("unit: %(unit)s") % {"unit": unit_text(bot.value_unit)} + "\n")
    evaluation = _("evaluation: %(value)s for %(colour)s (the best action's value)")
    out.write(evaluation % {"value": _signed(best.value), "colour": colour_name(state.turn)})
    out.write("\n")
    per_seat = _per_seat_line(state, best)
    if per_seat is not None:
        out.write(per_seat + "\n")
    out.write(_("best line: %(line)s") % {"line": " ".join(str(a) for a in best.pv)} + "\n\n")
    shown = ranked if settings.top is None else ranked[: settings.top]
    rank_word, action_word, value_word, line_word = (_(word) for word in RANK_COLUMNS)
    ranks = max(4, len(rank_word))
    names = max(8, len(action_word))
    width = max(5, len(value_word), *(len(_signed(r.value)) for r in shown))
    header = f"{rank_word:>{ranks}}  {action_word:<{names}} {value_word:>{width}}  {line_word}"
    out.write(header + "\n")
    for rank, entry in enumerate(shown, 1):
        line = " ".join(str(a) for a in entry.pv)
        value = _signed(entry.value)
        out.write(f"{rank:>{ranks}}  {entry.action!s:<{names}} {value:>{width}}  {line}\n")
    if len(shown) < len(ranked):
        left = len(ranked) - len(shown)
        # the plural follows the actions left out; English says "legal actions" either way
        # (there are at least two)
        message = ngettext(
            "(%(n)d more of %(total)d legal actions not shown)",
            "(%(n)d more of %(total)d legal actions not shown)",
            left,
        )
        out.write(message % {"n": left, "total": len(ranked)} + "\n")


# --- records --------------------------------------------------------------------------
def record_document(
    name: str, record: Record, reviews: list[PlyReview], bot: Bot, settings: Settings
) -> dict[str, Any]:
    """The JSON document of a game's review: the settings, then one entry per action."""
    turns = turn_numbers(record.actions)
    return {
        "kind": "record",
        "source": name,
        "game": settings.game_number,
        "variant": record.rules.variant.value,
        "players": record.rules.players,
        **_about(bot, settings),
        "threshold": _number(_threshold(settings)),
        "marks": MARKS,
        "plies": [_ply_entry(r, turns[r.number - 1]) for r in reviews],
        "result": record.result,
        "record": record_to_json(annotated_record(record, reviews, bot, settings)),
    }


def annotated_record(
    record: Record,
    reviews: list[PlyReview],
    bot: Bot,
    settings: Settings,
    *,
    translated: bool = False,
) -> Record:
    """The record with the review written into it, as PGN annotates a game: each
    action's mark (``??``, ``?``, ``?!`` as numeric annotations), its value as a comment
    and, where the bot found better, the best line as a variation with its value. What
    the record already said about an action is kept before what the review adds.

    ``translated``: the comments in the terminal's language, the values in its digits
    (``+0,358`` in German); else in English (the JSON document)."""
    if translated:
        say: Callable[[str], str] = _
        digits: Callable[[float], str] = decimal_value
        unit = unit_text(bot.value_unit)
    else:
        say, digits, unit = N_, format_value, bot.value_unit
    about = _about_line(bot, settings, say)
    opening = say(ANNOTATED_COMMENT) % {"unit": unit, "about": about}
    not_judged = say(NOT_JUDGED)
    old = record.notes or (Note(),) * len(record.actions)
    notes = list(old)
    game = record.new_game()
    for review in reviews:
        index = review.number - 1
        note = old[index]
        nags = tuple(n for n in note.nags if n not in NAG_OF_MARK.values())
        if review.mark:
            nags = (NAG_OF_MARK[review.mark], *nags)
        played = review.played
        comment = not_judged if played is None else _signed(played.value, digits)
        variations = note.variations
        best = _best_line(game, review, digits)
        if best is not None:
            variations = (*variations, best)
        words = " ".join(w for w in (note.comment, comment) if w)
        notes[index] = Note(nags, words, variations)
        game.play(review.action)
    words = " ".join(w for w in (record.comment, opening) if w)
    return dataclasses.replace(record, comment=words, notes=tuple(notes))


def _best_line(game: Game, review: PlyReview, digits: Callable[[float], str]) -> Variation | None:
    """The bot's best line where it is not the action played, if it can be played, its
    value in ``digits``."""
    if review.is_best:
        return None
    line = review.best.pv or (review.best.action,)
    twin = game.copy()
    try:
        for action in line:
            twin.play(action)
    except ShiftagoError:
        return None
    notes = (Note(comment=_signed(review.best.value, digits)),)
    return Variation(tuple(twin.history[len(game.history) :]), notes)


def write_record(
    out: TextIO,
    name: str,
    record: Record,
    game: Game,
    reviews: Iterator[PlyReview],
    bot: Bot,
    settings: Settings,
    games: int,
) -> None:
    """A game's review as text, one line per action as soon as it is judged."""
    rules = game.rules
    if games > 1:
        out.write(game_of_file(name, games, settings.game_number) + "\n")
    count = len(game.history)
    first = next(reviews, None)
    out.write(f"{name}: {game_kind(rules)}, {actions(count)}\n")
    out.write(_about_line(bot, settings) + "\n")
    out.write(_("unit: %(unit)s") % {"unit": unit_text(bot.value_unit)} + "\n")
    if rules.players > 2 and (first is None or first.best.seat_values is None):
        out.write(
            _(
                "values: from the point of view of the seat that acted (only the mover's: "
                "this bot gives no value per seat)"
            )
            + "\n"
        )
    else:
        out.write(_("values: from the point of view of the seat that acted") + "\n")
    threshold = _threshold(settings)
    marks_line = _(
        "marks: ?? blunder (a proven result thrown away: a loss where the position was not "
        "lost, or a win missed), ? mistake (worse than the best action by more than "
        "%(threshold)s), ?! inaccuracy (by more than %(half)s)"
    )
    values = {"threshold": decimal_value(threshold), "half": decimal_value(threshold / 2)}
    out.write(marks_line % values + "\n\n")
    counts: dict[tuple[int, str], int] = {}
    judged = []
    for review in itertools.chain(() if first is None else (first,), reviews):
        judged.append(review)
        out.write(_ply_line(review) + "\n")
        out.flush()
        if review.mark:
            key = (review.seat, review.mark)
            counts[key] = counts.get(key, 0) + 1
    out.write(f"\n{record_result(record, game)}\n")
    for seat in range(rules.players):
        out.write(_marks_line(seat, counts) + "\n")
    annotated = annotated_record(record, judged, bot, settings, translated=True)
    out.write(f"\n{_(ANNOTATED_HEADING)}\n\n{format_record(annotated)}\n")


def _marks_line(seat: int, counts: dict[tuple[int, str], int]) -> str:
    """How many actions of ``seat`` got each mark: ``orange: 1 blunder, 0 mistakes, 0
    inaccuracies``."""
    blunders = counts.get((seat, BLUNDER), 0)
    mistakes = counts.get((seat, MISTAKE), 0)
    inaccuracies = counts.get((seat, INACCURACY), 0)
    return _("%(colour)s: %(blunders)s, %(mistakes)s, %(inaccuracies)s") % {
        "colour": colour_name(seat),
        "blunders": ngettext("%(n)d blunder", "%(n)d blunders", blunders) % {"n": blunders},
        "mistakes": ngettext("%(n)d mistake", "%(n)d mistakes", mistakes) % {"n": mistakes},
        "inaccuracies": ngettext("%(n)d inaccuracy", "%(n)d inaccuracies", inaccuracies)
        % {"n": inaccuracies},
    }


def _ply_line(review: PlyReview) -> str:
    # the colour's column is as wide as the longest name, and at least as in English
    width = max(6, *(len(colour_name(seat)) for seat in range(len(COLOURS))))
    head = f"{review.number:>3}. {colour_name(review.seat):<{width}} {review.action!s:<8}"
    if review.played is None:
        words = _("(not judged by the bot) best %(action)s") % {"action": review.best.action}
        return f"{head} {'':>7}      {words}"
    text = f"{head} {_signed(review.played.value):>7} {review.mark:<3}"
    if review.played.seat_values is not None:
        text += f" [{_seat_values_text(review.played)}]"
    if not review.is_best:
        best = _("best %(action)s (%(value)s): %(line)s") % {
            "action": review.best.action,
            "value": _signed(review.best.value),
            "line": " ".join(str(a) for a in review.best.pv),
        }
        text += f" {best}"
    return text.rstrip()


def _ply_entry(review: PlyReview, turn: int) -> dict[str, Any]:
    played = review.played
    return {
        "number": review.number,
        "turn": turn,
        "seat": COLOURS[review.seat],
        "position": review.state.position(),
        "action": str(review.action),
        "value": None if played is None else _number(played.value),
        "seat_values": None if played is None else _seat_values(played),
        "pv": None if played is None else [str(a) for a in played.pv],
        "best": str(review.best.action),
        "best_value": _number(review.best.value),
        "best_pv": [str(a) for a in review.best.pv],
        "loss": None if review.loss is None else _number(review.loss),
        "mark": review.mark,
        "mark_name": MARKS.get(review.mark),
    }


# --- shared pieces ----------------------------------------------------------------------
def _threshold(settings: Settings) -> float:
    assert settings.threshold is not None, "analyse() sets the bot's threshold"
    return settings.threshold


def _about(bot: Bot, settings: Settings) -> dict[str, Any]:
    limits = settings.limits
    return {
        "level": settings.level,
        "level_name": level_name(settings.level),
        "bot": bot.name,
        "seed": settings.seed,
        "limits": {
            "depth": limits.depth,
            "nodes": limits.nodes,
            "movetime_ms": limits.movetime_ms,
        },
        "unit": bot.value_unit,
        "point_of_view": POINT_OF_VIEW,
    }


def unit_text(unit: str) -> str:
    """A bot's value unit in the terminal's language where the catalogues have it
    (:data:`UNIT_MESSAGES`), else as the bot gives it."""
    return _(unit) if unit in UNIT_MESSAGES else unit


def _about_line(bot: Bot, settings: Settings, words: Callable[[str], str] = _) -> str:
    """``level 5 (club), seed 0, depth 2``, in the terminal's language (``words``:
    ``N_``, the English msgid, for the JSON document's record)."""
    limits = settings.limits
    parts = [
        words(ABOUT_LEVEL)
        % {
            "level": settings.level,
            "name": words(level_name(settings.level)),
            "seed": settings.seed,
        }
    ]
    if limits.depth is not None:
        parts.append(words(ABOUT_DEPTH) % {"n": limits.depth})
    if limits.nodes is not None:
        parts.append(words(ABOUT_NODES) % {"n": limits.nodes})
    if limits.movetime_ms is not None:
        parts.append(words(ABOUT_MOVETIME) % {"ms": limits.movetime_ms})
    return ", ".join(parts)


def _per_seat_line(state: State, best: RankedAction) -> str | None:
    if best.seat_values is not None:
        return _("per seat: %(values)s") % {"values": _seat_values_text(best)}
    if state.players > 2:
        return _("per seat: not given by this bot; the value above is the mover's only")
    return None


def _seat_values_text(entry: RankedAction) -> str:
    values = entry.seat_values or ()
    return ", ".join(f"{COLOURS[seat]} {_signed(v)}" for seat, v in enumerate(values))


def _ranked_entry(entry: RankedAction) -> dict[str, Any]:
    return {
        "action": str(entry.action),
        "value": _number(entry.value),
        "pv": [str(a) for a in entry.pv],
        "seat_values": _seat_values(entry),
    }


def _seat_values(entry: RankedAction) -> list[int | float] | None:
    values = entry.seat_values
    return None if values is None else [_number(v) for v in values]


def _number(value: float) -> int | float:
    """A value for JSON: an integer where it is one, else rounded to three places."""
    return int(value) if float(value).is_integer() else round(float(value), 3)


def _signed(value: float, digits: Callable[[float], str] = decimal_value) -> str:
    """A value with a plus before a gain: for a person in the language's digits, in the
    JSON document's record (``digits=format_value``) the same in every language."""
    text = digits(value)
    return text if value <= 0 else "+" + text


def _write_json(out: TextIO, document: dict[str, Any]) -> None:
    out.write(json.dumps(document, indent=2) + "\n")
