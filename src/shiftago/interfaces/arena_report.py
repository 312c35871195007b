"""What ``shiftago arena`` prints for people, in the terminal's language: the line
about the match, the standings table with its notes (forfeits, the Elo of two
participants, the SPRT) and the crosstable.

The numbers come from :mod:`shiftago.match` (:class:`~shiftago.match.Standings`,
:class:`~shiftago.match.crosstable.Crosstable`); programs take them as JSON
(``--json``), people as these tables, from the same values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from shiftago.interfaces.shared.catalogues import _, ngettext
from shiftago.interfaces.shared.game_words import variant_name
from shiftago.match.crosstable import Crosstable, PairScore
from shiftago.match.runner import MatchResult
from shiftago.match.standings import Forfeit, HeadToHead, SprtStatus, Standing, Standings

#: How many forfeits the table's notes list (the results file has every one).
LISTED_FORFEITS: Final = 5


def summary(outcome: MatchResult) -> str:
    """One line: what was played, how much of it now, and whether the SPRT stopped it."""
    c = outcome.config
    game = ngettext("%(variant)s, %(n)d player", "%(variant)s, %(n)d players", c.players) % {
        "variant": variant_name(c.variant),
        "n": c.players,
    }
    if c.clock is not None:
        game = _("%(game)s, clock %(clock)s") % {"game": game, "clock": c.clock}
    if c.book is not None:
        openings = ngettext(
            "%(n)d opening from %(book)s", "%(n)d openings from %(book)s", outcome.openings
        ) % {"n": outcome.openings, "book": c.book.name}
    else:
        actions = ngettext("%(n)d random action", "%(n)d random actions", c.opening_plies) % {
            "n": c.opening_plies
        }
        openings = ngettext(
            "%(n)d opening of %(actions)s", "%(n)d openings of %(actions)s", outcome.openings
        ) % {"n": outcome.openings, "actions": actions}
    text = ngettext(
        "%(game)s: %(games)d of %(scheduled)d game (%(openings)s, seed %(seed)d); "
        "%(played)d played now",
        "%(game)s: %(games)d of %(scheduled)d games (%(openings)s, seed %(seed)d); "
        "%(played)d played now",
        outcome.scheduled,
    ) % {
        "game": game,
        "games": len(outcome.games),
        "scheduled": outcome.scheduled,
        "openings": openings,
        "seed": c.seed,
        "played": outcome.played,
    }
    if outcome.resumed:
        text += _(", %(n)d from %(results)s") % {"n": outcome.resumed, "results": c.results}
    if outcome.stopped_early:
        text += _("; stopped early by the SPRT")
    return text


def tables(outcome: MatchResult) -> str:
    """The standings, and the crosstable with three or more participants."""
    text = format_standings(outcome.standings)
    if len(outcome.participants) >= 3:
        text += "\n\n" + format_crosstable(outcome.crosstable)
    return text


def format_standings(standings: Standings, *, ratings: bool | None = None) -> str:
    """The table, best first, then the forfeits (what went wrong in the games lost by a
    crash, an error or the clock), the wins by adjudication, the Elo line (two
    participants) and the SPRT line.

    ``ratings`` shows the OpenSkill columns; by default when the match has more than
    two participants or more than two players. The losses on time have a column of
    their own when the games had a clock or someone lost on time.
    """
    rows = list(standings.rows)
    if ratings is None:
        ratings = len(rows) > 2 or standings.players > 2
    if ratings:
        rows.sort(key=lambda r: r.rating.ordinal, reverse=True)
    else:
        rows.sort(key=lambda r: r.score, reverse=True)
    fair = _percent(standings.fair_share)
    score_title = (
        _("score") if standings.players == 2 else _("score (fair %(fair)s)") % {"fair": fair}
    )
    on_time = standings.timed or any(r.time_losses for r in rows)
    header = [_("rank"), _("participant"), _("games"), _("wins"), _("draws"), _("losses")]
    header += [_("lost on time")] if on_time else []
    header += [score_title, _("ms/move")]
    if ratings:
        header += [_("ordinal"), "mu", "sigma"]
    table = [header]
    for rank, row in enumerate(rows, 1):
        table.append(_cells(rank, row, ratings, on_time))
    lines = _aligned(table, left=1)
    if standings.forfeits:
        lines += ["", *format_forfeits(standings.forfeits)]
    adjudicated = [row for row in rows if row.adjudicated]
    if adjudicated:
        count = sum(row.adjudicated for row in adjudicated)
        who = ", ".join(f"{row.name} {row.adjudicated}" for row in adjudicated)
        words = ngettext(
            "won by adjudication (a win the winner's search proved): %(n)d game (%(who)s)",
            "won by adjudication (a win the winner's search proved): %(n)d games (%(who)s)",
            count,
        )
        lines += ["", words % {"n": count, "who": who}]
    if standings.head_to_head is not None:
        lines += ["", format_head_to_head(standings.head_to_head)]
    if standings.sprt is not None:
        lines.append(format_sprt(standings.sprt))
    return "\n".join(lines)


def format_forfeits(forfeits: Sequence[Forfeit]) -> list[str]:
    """A heading and one line per forfeit, the first :data:`LISTED_FORFEITS` of them:
    who lost, how, the engine's words and the game's record file."""
    count = len(forfeits)
    if count <= LISTED_FORFEITS:
        heading = ngettext(
            "lost by a forfeit: %(n)d game (each in the results file):",
            "lost by a forfeit: %(n)d games (each in the results file):",
            count,
        ) % {"n": count}
    else:
        heading = ngettext(
            "lost by a forfeit: %(n)d game, the first %(listed)d (each in the results file):",
            "lost by a forfeit: %(n)d games, the first %(listed)d (each in the results file):",
            count,
        ) % {"n": count, "listed": LISTED_FORFEITS}
    lines = [heading]
    for f in forfeits[:LISTED_FORFEITS]:
        where = f" ({f.record_file})" if f.record_file else ""
        detail = f.detail or _("no detail")
        lines.append(f"  {f.name}, {f.termination}: {detail}{where}")
    return lines


def format_head_to_head(h2h: HeadToHead) -> str:
    """``A vs B: +190.8 Elo (95%: +53.8 to +432.1), score 75.0%, ...``."""
    e = h2h.estimate
    if h2h.model == "pentanomial":
        counts = " ".join(map(str, h2h.pentanomial))
        basis = ngettext(
            "pentanomial over %(n)d game pair [%(counts)s]",
            "pentanomial over %(n)d game pairs [%(counts)s]",
            h2h.pairs,
        ) % {"n": h2h.pairs, "counts": counts}
    else:
        basis = _("per game (fewer than 2 complete pairs)")
    if math.isinf(e.elo):  # a clean sweep: every interval around it is infinite too
        winner = h2h.first if e.elo > 0 else h2h.second
        spread = _("every point to %(name)s: no interval") % {"name": winner}
    elif e.stderr == 0:  # no spread to measure: the normal interval would be a point
        spread = _("every result alike: no interval")
    else:
        spread = _("95%%: %(low)s to %(high)s") % {"low": _elo(e.low), "high": _elo(e.high)}
    return _("%(first)s vs %(second)s: %(elo)s Elo (%(spread)s), score %(score)s, %(basis)s") % {
        "first": h2h.first,
        "second": h2h.second,
        "elo": _elo(e.elo),
        "spread": spread,
        "score": _percent(e.score),
        "basis": basis,
    }


def format_sprt(status: SprtStatus) -> str:
    """``SPRT elo0=0 elo1=10 ...: LLR 1.23 (bounds -2.94, 2.94) ...: H1 accepted``."""
    s = status.settings
    if status.verdict == "H1":
        verdict = _("H1 accepted (the first participant is at least %(elo)s Elo stronger)") % {
            "elo": f"{s.elo1:g}"
        }
    elif status.verdict == "H0":
        verdict = _("H0 accepted (the first participant is at most %(elo)s Elo stronger)") % {
            "elo": f"{s.elo0:g}"
        }
    else:
        verdict = _("no verdict yet")
    settings = f"SPRT elo0={s.elo0:g} elo1={s.elo1:g} alpha={s.alpha:g} beta={s.beta:g}"
    return ngettext(
        "%(settings)s: LLR %(llr)s (bounds %(lower)s, %(upper)s) after %(pairs)d pair: %(verdict)s",
        "%(settings)s: LLR %(llr)s (bounds %(lower)s, %(upper)s) after %(pairs)d pairs: "
        "%(verdict)s",
        status.pairs,
    ) % {
        "settings": settings,
        "llr": f"{status.llr:.2f}",
        "lower": f"{status.lower:.2f}",
        "upper": f"{status.upper:.2f}",
        "pairs": status.pairs,
        "verdict": verdict,
    }


def format_crosstable(table: Crosstable) -> str:
    """Two matrices, the row against the column: ``W-D-L`` with the row's points, then
    its Elo with the half-width of the 95% interval."""
    n = len(table.names)
    scores = [["-" if i == j else _wdl(table.cell(i, j)) for j in range(n)] for i in range(n)]
    elos = [["-" if i == j else _elo_cell(table.cell(i, j)) for j in range(n)] for i in range(n)]
    total = [
        f"{sum(table.cell(i, j).points for j in range(n) if j != i):g}/"
        f"{sum(table.cell(i, j).games for j in range(n) if j != i)}"
        for i in range(n)
    ]
    names = list(table.names)
    score_rows = [["", *names, _("points")]]
    score_rows += [[*row_of, total[i]] for i, row_of in enumerate(_rows(names, scores))]
    elo_rows = [["", *names], *_rows(names, elos)]
    return "\n".join(
        [
            _("crosstable, row against column: wins-draws-losses (points)"),
            *_aligned(score_rows, left=0),
            "",
            _("Elo of row against column, ± half the 95% interval"),
            *_aligned(elo_rows, left=0),
        ]
    )


def _rows(names: list[str], rows: list[list[str]]) -> list[list[str]]:
    return [[name, *row] for name, row in zip(names, rows, strict=True)]


def _cells(rank: int, row: Standing, ratings: bool, on_time: bool) -> list[str]:
    ms = row.ms_per_move
    cells = [str(rank), row.name, str(row.games), str(row.wins), str(row.draws), str(row.losses)]
    cells += [str(row.time_losses)] if on_time else []
    cells += [_percent(row.score) if row.games else "-", "-" if ms is None else f"{ms:.1f}"]
    if ratings:
        r = row.rating
        cells += [f"{r.ordinal:.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}"]
    return cells


def _aligned(table: list[list[str]], *, left: int) -> list[str]:
    """The rows of ``table`` in columns two spaces apart: column ``left`` flush left,
    the others flush right."""
    widths = [max(len(line[k]) for line in table) for k in range(len(table[0]))]
    return [
        "  ".join(
            cell.ljust(width) if k == left else cell.rjust(width)
            for k, (cell, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in table
    ]


def _wdl(cell: PairScore) -> str:
    return f"{cell.wins}-{cell.draws}-{cell.losses} ({cell.points:g})"


def _elo_cell(cell: PairScore) -> str:
    e = cell.elo
    if e is None:
        return _("no games")
    if math.isinf(e.elo):
        return "+inf" if e.elo > 0 else "-inf"
    centre = "+0" if round(e.elo) == 0 else f"{e.elo:+.0f}"  # never -0
    if e.stderr == 0:  # every result alike: no interval, rather than a false ±0
        return centre
    if math.isinf(e.low) or math.isinf(e.high):
        return f"{centre} ±inf"
    return f"{centre} ±{(e.high - e.low) / 2:.0f}"


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _elo(value: float) -> str:
    """``+12.3``; ``+0.0`` for an even score (never ``-0.0``)."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    text = f"{value:+.1f}"
    return "+0.0" if text == "-0.0" else text
