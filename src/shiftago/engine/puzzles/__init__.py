"""Puzzles: positions where one first action forces the goal, proven by exact search.

:mod:`.prover` is the compiled AND/OR search; :mod:`.solving` proves positions, plays
the defence and judges attempts; :mod:`.puzzle` is a puzzle and its line of text;
:mod:`.harvest` finds candidate positions in games and :mod:`.generate` turns them
into a set of puzzles. docs/puzzles.md.
"""

from __future__ import annotations

from shiftago.engine import compiled_cache  # noqa: F401  (before any compiled module)
