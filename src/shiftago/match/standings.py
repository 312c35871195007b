"""The standings of a match: per participant counts, score, losses on time, time per
move, ratings.

With exactly two participants, the first is measured against the second: its Elo
difference with a 95% interval from the pentanomial model (the standard error of the
mean score of the complete game pairs; per game while fewer than two pairs are
complete), and, when asked for, the SPRT on the same pairs. With more participants, or
three and four players, an OpenSkill rating list (:mod:`.ratings`) ranks them, and the
score is read against the fair share ``1/players``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shiftago.match.errors import MatchSetupError
from shiftago.match.games import ADJUDICATION, GameResult
from shiftago.match.participants import Participant
from shiftago.match.ratings import Rating, rate
from shiftago.match.stats import (
    EloEstimate,
    Verdict,
    elo_estimate,
    fair_share,
    pentanomial,
    sprt_bounds,
    sprt_llr,
    sprt_verdict,
)


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses (Elo of the first participant over the second) and error rates."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise MatchSetupError(
                "the SPRT needs elo0 < elo1, not {elo0}, {elo1}", elo0=self.elo0, elo1=self.elo1
            )
        sprt_bounds(self.alpha, self.beta)  # checks them


@dataclass(frozen=True)
class SprtStatus:
    """Where the SPRT stands: the LLR, its bounds, and the verdict if there is one."""

    settings: SprtSettings
    llr: float
    lower: float
    upper: float
    verdict: Verdict | None
    pairs: int


@dataclass(frozen=True)
class Standing:
    """One participant's line of the table; ``time_losses`` counts the ``losses`` that
    were on time (a clock run out, or an engine that did not answer in time)."""

    key: str
    name: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    moves: int
    think_s: float
    rating: Rating
    time_losses: int = 0
    #: The losses by a forfeit of any kind (``time_losses`` among them).
    forfeits: int = 0
    #: The wins by adjudication (``--adjudicate-win``): its own search's proofs.
    adjudicated: int = 0

    @property
    def score(self) -> float:
        """Points per game (0 before the first game)."""
        return self.points / self.games if self.games else 0.0

    @property
    def ms_per_move(self) -> float | None:
        """The average thinking time of one action, in milliseconds."""
        return 1000.0 * self.think_s / self.moves if self.moves else None


@dataclass(frozen=True)
class HeadToHead:
    """Two participants: the first one's Elo over the second, and how it was measured."""

    first: str
    second: str
    estimate: EloEstimate
    #: ``pentanomial`` (per game pair) or ``trinomial`` (per game).
    model: str
    pairs: int
    pentanomial: tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Forfeit:
    """A game a participant lost by a forfeit, not by the rules: what happened, in the
    results file's words (``termination``, ``detail``), and the game's record file."""

    name: str
    termination: str
    detail: str | None
    record_file: str | None


@dataclass(frozen=True)
class Standings:
    """Everything the final table shows; ``timed`` when the games had a clock;
    ``forfeits`` in the order the games were scheduled."""

    players: int
    games: int
    rows: tuple[Standing, ...]
    head_to_head: HeadToHead | None
    sprt: SprtStatus | None
    timed: bool = False
    forfeits: tuple[Forfeit, ...] = ()

    @property
    def fair_share(self) -> float:
        return fair_share(self.players)

    def to_json(self) -> dict[str, Any]:
        """A JSON-friendly form (infinite Elo values become None)."""
        h2h = self.head_to_head
        return {
            "games": self.games,
            "players": self.players,
            "fair_share": self.fair_share,
            "participants": [
                {
                    "key": r.key,
                    "name": r.name,
                    "games": r.games,
                    "wins": r.wins,
                    "draws": r.draws,
                    "losses": r.losses,
                    "time_losses": r.time_losses,
                    "forfeits": r.forfeits,
                    "adjudicated": r.adjudicated,
                    "points": r.points,
                    "score": r.score,
                    "moves": r.moves,
                    "ms_per_move": r.ms_per_move,
                    "mu": r.rating.mu,
                    "sigma": r.rating.sigma,
                    "ordinal": r.rating.ordinal,
                }
                for r in self.rows
            ],
            "elo": None
            if h2h is None
            else {
                "first": h2h.first,
                "second": h2h.second,
                "elo": _finite(h2h.estimate.elo),
                "low": _finite(h2h.estimate.low),
                "high": _finite(h2h.estimate.high),
                "score": h2h.estimate.score,
                "stderr": h2h.estimate.stderr,
                "model": h2h.model,
                "pairs": h2h.pairs,
                "pentanomial": list(h2h.pentanomial),
            },
            "forfeits": [
                {
                    "participant": f.name,
                    "termination": f.termination,
                    "detail": f.detail,
                    "record_file": f.record_file,
                }
                for f in self.forfeits
            ],
            "sprt": None
            if self.sprt is None
            else {
                "elo0": self.sprt.settings.elo0,
                "elo1": self.sprt.settings.elo1,
                "alpha": self.sprt.settings.alpha,
                "beta": self.sprt.settings.beta,
                "llr": self.sprt.llr,
                "lower": self.sprt.lower,
                "upper": self.sprt.upper,
                "verdict": self.sprt.verdict,
                "pairs": self.sprt.pairs,
            },
        }


def pair_scores(games: Sequence[GameResult], key: str, players: int) -> list[float]:
    """The mean score of ``key`` in each complete unit (an opening from every seat)."""
    units: dict[tuple[int, int], list[GameResult]] = defaultdict(list)
    for game in games:
        units[game.unit].append(game)
    scores = []
    for unit in sorted(units):
        played = units[unit]
        if len(played) == players:
            scores.append(sum(_points_of(g, key) for g in played) / players)
    return scores


def compute_standings(
    participants: Sequence[Participant],
    games: Sequence[GameResult],
    players: int,
    sprt: SprtSettings | None = None,
    *,
    timed: bool = False,
) -> Standings:
    """The standings after ``games`` (in schedule order); ``timed``: under a clock."""
    ratings = rate([p.key for p in participants], games)
    rows = []
    for p in participants:
        played = [(g, g.seats.index(p.key)) for g in games if p.key in g.seats]
        wins = sum(1 for g, seat in played if g.winners == (seat,))
        losses = sum(1 for g, seat in played if seat not in g.winners)
        rows.append(
            Standing(
                key=p.key,
                name=p.name,
                games=len(played),
                wins=wins,
                draws=len(played) - wins - losses,
                losses=losses,
                points=math.fsum(g.points[seat] for g, seat in played),
                moves=sum(g.moves[seat] for g, seat in played),
                think_s=math.fsum(g.think_s[seat] for g, seat in played),
                rating=ratings[p.key],
                time_losses=sum(1 for g, seat in played if g.lost_on_time == seat),
                forfeits=sum(1 for g, seat in played if g.forfeited_by == seat),
                adjudicated=sum(
                    1
                    for g, seat in played
                    if g.termination == ADJUDICATION and g.winners == (seat,)
                ),
            )
        )
    names = {p.key: p.name for p in participants}
    forfeits = tuple(
        Forfeit(names[g.seats[seat]], g.termination, g.detail, g.record_file)
        for g in games
        if g.termination is not None
        and (seat := g.forfeited_by) is not None
        and g.seats[seat] in names
    )
    h2h = status = None
    if len(participants) == 2 and games:
        first, second = participants
        pairs = pair_scores(games, first.key, players)
        score = rows[0].score
        if len(pairs) >= 2:
            estimate, model = elo_estimate(pairs, score=score), "pentanomial"
        else:
            per_game = [_points_of(g, first.key) for g in games]
            estimate, model = elo_estimate(per_game, score=score), "trinomial"
        h2h = HeadToHead(first.name, second.name, estimate, model, len(pairs), pentanomial(pairs))
        if sprt is not None:
            status = sprt_status(pairs, sprt)
    elif sprt is not None:
        status = sprt_status([], sprt)
    return Standings(players, len(games), tuple(rows), h2h, status, timed, forfeits)


def sprt_status(pairs: Sequence[float], settings: SprtSettings) -> SprtStatus:
    """The SPRT after these pair scores (of the first participant)."""
    llr = sprt_llr(pairs, settings.elo0, settings.elo1)
    lower, upper = sprt_bounds(settings.alpha, settings.beta)
    verdict = sprt_verdict(llr, settings.alpha, settings.beta)
    return SprtStatus(settings, llr, lower, upper, verdict, len(pairs))


def _points_of(game: GameResult, key: str) -> float:
    return game.points[game.seats.index(key)]


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None
