"""The match's errors about what a person gave it: participants, books, settings.

:class:`MatchSetupError` is a :class:`~shiftago.core.errors.TranslatableError`, so an
interface says it in its reader's language (``shiftago arena`` does). The clocks' own
error is :class:`~shiftago.match.clock.TimeControlError`; what an external engine
answered is an :class:`~shiftago.match.external.EngineError`.
"""

from __future__ import annotations

from shiftago.core.errors import TranslatableError


class MatchSetupError(TranslatableError):
    """Settings of a match that cannot be played: a participant's spec, an opening book,
    the number of games or players, the SPRT's hypotheses, and the like."""
