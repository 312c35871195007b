"""Knowledge in the tree: which children an expansion of the MCTS makes (3-4 players).

With ``guard`` the search expands a node (not the root) of 3-4 player Express in the
insertion phase with fewer children, so that no iteration is spent on an action that
loses at once:

* when the seat to act can make its line of four, only the insertions that make it (a
  win at once; the solver proves the node at the first visit);
* else only the insertions after which the next seat to act could not make its line
  with one insertion ("anti-decisive" moves, Teytaud and Teytaud 2010), where the mover
  has some: the others lose to any next seat that takes its win, whether the threat was
  there before or the mover's push makes it.

When no action of the mover stops the next seat's win, the node is lost to that seat
(it takes its win at once, as every seat does here): the expansion says so, and the
solver proves the node at once instead of proving each of its children (about two
visits each) first. So a threat that nobody can stop in time is found a few plies
sooner.

The tests cost one expansion each, not one playout action each (the blocking playouts
of :mod:`shiftago.engine.kernel.policy` pay them at every action and lose at equal
time: ``docs/strength.md``, "Blocking playouts"). Only the next seat is looked at: a
win of a seat further on is the business of the seats between, whose own expansions
block it. The root keeps every action, so that an analysis lists them all; the solver
proves its losing ones after a few iterations each, since their children are guarded.

In 3-4 player Expert and Extreme a win at once is a scoring that brings the mover to
the winning points (:data:`~shiftago.engine.kernel.tables.WIN_POINTS`), and the same
guard holds with that win (:func:`points_guarded_children`): in the scoring phase only
the scorings that win, where some do; in the insertion phase only the insertions that
make a line worth the points the mover lacks, where some do; else no insertion after
which the next seat could make, with one insertion, a line worth the points it lacks.
An insertion that makes the mover a scoring line keeps its turn (it scores and moves
again) and is always kept. Only a win by one scoring is looked at: a seat that gets
there by two scorings in one turn (scoring moves it again) is left to the search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import after_insertion, after_push, has_run, occupied, push_run
from shiftago.engine.kernel.policy import (
    LONGEST,
    near_run,
    shortest_worth,
    still_wins,
    winning_insertions,
    wins_at_once,
)
from shiftago.engine.kernel.tables import (
    BOARD,
    COUNT,
    EXPRESS,
    FULL,
    INSERT,
    INSERTIONS,
    LIMIT,
    MIN_LINE,
    PHASE,
    PLAYERS,
    SCORE,
    SEG_LEN,
    SKIPS,
    SUPPLY,
    TURN,
    VARIANT,
    WIN_POINTS,
)


@njit(cache=True, nogil=True)
def next_seat(s: np.ndarray) -> int:
    """The seat that acts after the mover of ``s`` if the game goes on and the mover
    makes no line: the first one on with no handicap skip pending; -1 when the game would
    end first (that seat has no marbles, or the action limit is reached)."""
    players = np.int64(s[PLAYERS])
    turn = np.int64(s[TURN])
    limit = np.int64(s[LIMIT])
    if limit != 0 and np.int64(s[COUNT]) + 1 >= limit:
        return -1
    for k in range(1, players):
        seat = (turn + k) % players
        if np.int64(s[SKIPS + seat]) == 0:
            return seat if np.int64(s[SUPPLY + seat]) > 0 else -1
    return -1


@njit(cache=True, nogil=True)
def keep_runs(b: np.uint64, occ: np.uint64, moves: np.ndarray, n: int, length: int) -> int:
    """Keep in ``moves[:n]`` (insertions, in their order) those that make the seat with
    the board ``b`` (all marbles ``occ``) a run of ``length``: how many (0: none, and
    ``moves`` as it was)."""
    if not near_run(b, length):
        return 0
    kept = 0
    for j in range(n):
        i = moves[j]
        if has_run(after_insertion(b, push_run(i, occ), i), length):
            moves[kept] = i
            kept += 1
    return kept


@njit(cache=True, nogil=True)
def guarded_children(s: np.ndarray, moves: np.ndarray, n: int) -> tuple[int, int]:
    """Keep in ``moves[:n]`` (the legal actions of ``s``, not over) only the children
    an expansion makes (see the module doc), in their order: how many, and the seat
    that wins at once whatever the mover does (-1 when none does)."""
    if np.int64(s[PLAYERS]) < 3:
        return n, -1
    if np.int64(s[VARIANT]) != EXPRESS:
        return points_guarded_children(s, moves, n)
    if np.int64(s[PHASE]) != INSERT:
        return n, -1
    length = MIN_LINE[EXPRESS, 1]
    occ = occupied(s)
    kept = keep_runs(s[BOARD + np.int64(s[TURN])], occ, moves, n, length)
    if kept > 0:
        return kept, -1
    nxt = next_seat(s)
    if nxt < 0:
        return n, -1
    theirs = s[BOARD + nxt]
    wins = winning_insertions(theirs, occ, length)
    near = wins != 0 or near_run(theirs, length)
    kept = 0
    for j in range(n):
        i = moves[j]
        run = push_run(i, occ)
        after = after_push(theirs, run, i)
        if near or after != theirs:  # else no window of theirs is near a line, as before
            occ_after = after_insertion(occ, run, i)
            if wins != 0 and still_wins(after, occ_after, length, wins):
                continue
            if wins_at_once(after, occ_after, length):
                continue
        moves[kept] = i
        kept += 1
    if kept == 0:
        return n, nxt
    return kept, -1


@njit(cache=True, nogil=True)
def winning_length(s: np.ndarray, seat: int) -> int:
    """Expert and Extreme, 3-4 players: the shortest line whose points bring ``seat`` to
    the winning points (:data:`LONGEST` + 1 when no line would)."""
    lacking = WIN_POINTS - np.int64(s[SCORE + seat])
    return shortest_worth(np.int64(s[VARIANT]), 1, lacking)


@njit(cache=True, nogil=True)
def points_guarded_children(s: np.ndarray, moves: np.ndarray, n: int) -> tuple[int, int]:
    """:func:`guarded_children` in 3-4 player Expert and Extreme, where a win at once is
    a scoring that reaches the winning points (see the module doc)."""
    mover = np.int64(s[TURN])
    mine = winning_length(s, mover)
    if np.int64(s[PHASE]) != INSERT:  # a scoring choice: only the winning ones, if any
        kept = 0
        for j in range(n):
            code = moves[j]
            if SEG_LEN[(code - INSERTIONS) >> 1] >= mine:  # a longer line is worth more
                moves[kept] = code
                kept += 1
        return (kept, -1) if kept > 0 else (n, -1)
    occ = occupied(s)
    me = s[BOARD + mover]
    kept = keep_runs(me, occ, moves, n, mine) if mine <= LONGEST else 0
    if kept > 0:
        return kept, -1
    nxt = next_seat(s)
    if nxt < 0:
        return n, -1
    theirs = s[BOARD + nxt]
    length = winning_length(s, nxt)
    if length > LONGEST:
        return n, -1
    scoring = MIN_LINE[np.int64(s[VARIANT]), 1]
    kept = 0
    for j in range(n):
        i = moves[j]
        run = push_run(i, occ)
        occ_after = after_insertion(occ, run, i)
        keep = has_run(after_insertion(me, run, i), scoring) or occ_after == FULL
        if not keep:  # the next seat acts: does it reach the winning points at once?
            keep = not wins_at_once(after_push(theirs, run, i), occ_after, length)
        if keep:
            moves[kept] = i
            kept += 1
    if kept == 0:
        return n, nxt
    return kept, -1
