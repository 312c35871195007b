"""Matches between bots and external engines: schedules, results, ratings, statistics.

:func:`run_match` plays a :class:`MatchConfig` and returns a :class:`MatchResult`;
``shiftago arena`` is its command line (docs/cli.md). The pieces, one per module:
participant specs and the bot registry (:mod:`.participants`), external STP engines
(:mod:`.external`), time controls and clocks (:mod:`.clock`), the schedule of openings
and seatings (:mod:`.schedule`), opening books (:mod:`.book`), playing one game
(:mod:`.games`), the resumable results file (:mod:`.results`), statistics as pure
functions (:mod:`.stats`), OpenSkill ratings (:mod:`.ratings`), the standings
(:mod:`.standings`) and the crosstable (:mod:`.crosstable`); the tables people read
are the interfaces' (``interfaces/arena_report.py``).
Settings that cannot make a match raise a :class:`MatchSetupError` (:mod:`.errors`).
"""

from shiftago.match.clock import TimeControl, TimeControlError
from shiftago.match.errors import MatchSetupError
from shiftago.match.external import (
    EngineCrash,
    EngineError,
    EngineIllegalAnswer,
    EngineOptionError,
    EngineProtocolError,
    EngineTimeout,
    ExternalEngine,
)
from shiftago.match.games import GameResult
from shiftago.match.participants import BOTS, Participant, parse_participant, register_bot
from shiftago.match.runner import MatchConfig, MatchResult, run_match
from shiftago.match.standings import SprtSettings, Standings

__all__ = [
    "BOTS",
    "EngineCrash",
    "EngineError",
    "EngineIllegalAnswer",
    "EngineOptionError",
    "EngineProtocolError",
    "EngineTimeout",
    "ExternalEngine",
    "GameResult",
    "MatchConfig",
    "MatchResult",
    "MatchSetupError",
    "Participant",
    "SprtSettings",
    "Standings",
    "TimeControl",
    "TimeControlError",
    "parse_participant",
    "register_bot",
    "run_match",
]
