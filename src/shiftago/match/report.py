"""The standings as text: the table ``shiftago arena`` prints at the end.

Kept apart from the numbers (:mod:`.standings`) so that programs take the JSON form
and people the table, from the same values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from shiftago.formats.words import counted
from shiftago.match.standings import Forfeit, HeadToHead, SprtStatus, Standing, Standings

#: How many forfeits the table's notes list (the results file has every one).
LISTED_FORFEITS: Final = 5


def format_standings(standings: Standings, *, ratings: bool | None = None) -> str:
    """The table, best first, then the forfeits (what went wrong in the games lost by a
    crash, an error or the clock), the Elo line (two participants) and the SPRT line.

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
    score_title = "score" if standings.players == 2 else f"score (fair {fair})"
    on_time = standings.timed or any(r.time_losses for r in rows)
    header = ["rank", "participant", "games", "wins", "draws", "losses"]
    header += ["lost on time"] if on_time else []
    header += [score_title, "ms/move"]
    if ratings:
        header += ["ordinal", "mu", "sigma"]
    table = [header]
    for rank, row in enumerate(rows, 1):
        table.append(_cells(rank, row, ratings, on_time))
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = []
    for line in table:
        cells = [
            cell.ljust(width) if i == 1 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    if standings.forfeits:
        lines += ["", *format_forfeits(standings.forfeits)]
    if standings.head_to_head is not None:
        lines += ["", format_head_to_head(standings.head_to_head)]
    if standings.sprt is not None:
        lines.append(format_sprt(standings.sprt))
    return "\n".join(lines)


def format_forfeits(forfeits: Sequence[Forfeit]) -> list[str]:
    """A heading and one line per forfeit, the first :data:`LISTED_FORFEITS` of them:
    who lost, how, the engine's words and the game's record file."""
    count = len(forfeits)
    shown = forfeits[:LISTED_FORFEITS]
    first = "" if count <= LISTED_FORFEITS else f", the first {LISTED_FORFEITS}"
    lines = [f"lost by a forfeit: {counted(count, 'game')}{first} (each in the results file):"]
    for f in shown:
        where = f" ({f.record_file})" if f.record_file else ""
        lines.append(f"  {f.name}, {f.termination}: {f.detail or 'no detail'}{where}")
    return lines


def format_head_to_head(h2h: HeadToHead) -> str:
    """``A vs B: +190.8 Elo (95%: +53.8 to +432.1), score 75.0%, ...``."""
    e = h2h.estimate
    if h2h.model == "pentanomial":
        counts = " ".join(map(str, h2h.pentanomial))
        basis = f"pentanomial over {h2h.pairs} game pairs [{counts}]"
    else:
        basis = "per game (fewer than 2 complete pairs)"
    if math.isinf(e.elo):  # a clean sweep: every interval around it is infinite too
        spread = f"every point to {h2h.first if e.elo > 0 else h2h.second}: no interval"
    else:
        spread = f"95%: {_elo(e.low)} to {_elo(e.high)}"
    return (
        f"{h2h.first} vs {h2h.second}: {_elo(e.elo)} Elo ({spread}), "
        f"score {_percent(e.score)}, {basis}"
    )


def format_sprt(status: SprtStatus) -> str:
    """``SPRT elo0=0 elo1=10 ...: LLR 1.23 (-2.94, 2.94): H1 accepted``."""
    s = status.settings
    verdict = {
        "H1": f"H1 accepted (the first participant is at least {s.elo1:g} Elo stronger)",
        "H0": f"H0 accepted (the first participant is at most {s.elo0:g} Elo stronger)",
        None: "no verdict yet",
    }[status.verdict]
    return (
        f"SPRT elo0={s.elo0:g} elo1={s.elo1:g} alpha={s.alpha:g} beta={s.beta:g}: "
        f"LLR {status.llr:.2f} (bounds {status.lower:.2f}, {status.upper:.2f}) "
        f"after {status.pairs} pairs: {verdict}"
    )


def _cells(rank: int, row: Standing, ratings: bool, on_time: bool) -> list[str]:
    ms = row.ms_per_move
    cells = [str(rank), row.name, str(row.games), str(row.wins), str(row.draws), str(row.losses)]
    cells += [str(row.time_losses)] if on_time else []
    cells += [_percent(row.score) if row.games else "-", "-" if ms is None else f"{ms:.1f}"]
    if ratings:
        r = row.rating
        cells += [f"{r.ordinal:.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}"]
    return cells


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _elo(value: float) -> str:
    """``+12.3``; ``+0.0`` for an even score (never ``-0.0``)."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    text = f"{value:+.1f}"
    return "+0.0" if text == "-0.0" else text
