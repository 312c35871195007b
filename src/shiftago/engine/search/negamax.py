"""Negamax alpha-beta search on kernel states (2 players), wholly inside numba.

One call of :func:`search_root` searches every root action to one depth; the driver
(:mod:`.driver`) calls it depth after depth (iterative deepening) and keeps the
transposition table and the move-ordering tables between the calls.

* Values are from the point of view of the seat to act, in the unit of
  :mod:`.evaluate` (heuristic values within ±999); a proven result is
  ``±(WIN - plies)``: ``WIN - n`` means the seat to act wins after ``n`` actions in
  all (its own and the opponent's), ``0`` a draw.
* After a scoring the same seat acts again (and a handicap skip can give it another
  turn): the sign of a child's value flips only when the seat to act changes.
* Scorings are actions like insertions: they are searched, cost one ply, and are tried
  best points first.
* Every node first tests whether the seat to act wins at once
  (:func:`.evaluate.immediate_win`); at depth 0 that is all the tactics there is, which
  is enough to see a threat that must be blocked one ply earlier.
* Principal variation search with a transposition table (Zobrist keys, buckets of two
  entries, :mod:`.ttable`), the table's action first, then scorings, killer actions
  and a history table.
* Late move reductions (on with ``info[REDUCE]``, for the top level only): a quiet
  insertion tried late (not the table's action, a killer or a scoring, and not one
  after which the mover threatens to win at once) is first searched with a null window
  one or two plies shallower, and again to the full depth only when it beats alpha.
  With them a depth no longer means every line of that length, so the depth-limited
  levels search without them.
* Leaves are valued by the classic evaluation, or by the tuned one with
  ``info[TUNED]`` (the top level's, see :mod:`.evaluate`).
* A leaf whose game can last only a few more actions (:mod:`.endgame`) is searched to
  the end instead of evaluated: in late 2-player Express the values are exact.
* A node is a position the search visits: the root and every state it makes by playing
  an action. The search stops itself when ``info[NODES]`` reaches ``info[NODE_LIMIT]``
  and sets ``info[STOPPED]``; the driver then ignores the unfinished depth.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import apply_action, legal_actions
from shiftago.engine.kernel.tables import (
    ACTION_CODES,
    INSERTIONS,
    MAX_ACTIONS,
    OVER,
    PHASE,
    SCORE_PHASE,
    SEG_LEN,
    STATE_SIZE,
    TURN,
    WINNERS,
)

from .endgame import LEAF_SOLVE_PLIES, plies_left
from .evaluate import evaluate, immediate_win
from .ttable import EXACT, LOWER, UPPER, entry_bound, entry_depth, entry_move, entry_value
from .ttable import probe as tt_probe
from .ttable import store as tt_store
from .zobrist import zobrist

WIN: Final = 10000
#: Values at least this large (in size) are proven results.
PROVEN: Final = WIN - 1000
INF: Final = 30000
MAX_PLY: Final = 64

# info slots
NODES: Final = 0
NODE_LIMIT: Final = 1
STOPPED: Final = 2
USE_TT: Final = 3
REDUCE: Final = 4  # late move reductions on (1) or off (0)
TUNED: Final = 5  # the tuned evaluation (1) or the classic one (0), see .evaluate
DEFER: Final = 6  # other threads search the same tree: defer their actions (1) or not (0)
INFO_SIZE: Final = 7

#: Late move reductions: quiet insertions from this index on, at this depth or more,
#: are first searched one ply shallower (two from :data:`LMR_DEEP_FROM` on).
LMR_FROM: Final = 2
LMR_DEPTH: Final = 3
LMR_DEEP_FROM: Final = 6
LMR_DEEP_DEPTH: Final = 4
#: The root searches its first action within this window around a guess (the driver's:
#: the value of two depths before), from this depth on (docs/strength.md, "The
#: aspiration window"); NO_GUESS: none.
ASPIRATION: Final = 20
ASPIRATION_DEPTH: Final = 4
NO_GUESS: Final = -INF - 1

#: Deferring (with ``info[DEFER]``): a node this many plies from the leaves or more puts
#: off an action, other than its first, that another thread is searching from the same
#: position, and searches it after the others (docs/strength.md, "Two threads").
DEFER_DEPTH: Final = 3
#: Slots of the table of the (position, action) pairs the threads are searching.
BUSY_SLOTS: Final = 1 << 10
#: :func:`pack_root_best` puts the value (made positive by the offset) above the
#: action's code, so that packed numbers compare as their values do.
_ROOT_VALUE_SHIFT: Final = 20
_ROOT_VALUE_OFFSET: Final = 1 << 20
#: An odd constant that spreads action codes over the bits of a position's key.
_ACTION_SPREAD: Final = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64

#: Move-ordering keys (:func:`order_actions`), highest first: the table's action, then
#: scorings (longest line first), the two killers, then quiet insertions by history.
KEY_TABLE_MOVE: Final = 1 << 40
KEY_SCORING: Final = 1 << 30
KEY_KILLER: Final = 1 << 29
#: Ordering keys below this are quiet insertions (no table action, killer or scoring).
QUIET_BELOW: Final = KEY_KILLER - 1

_OVER = np.uint64(OVER)


@njit(cache=True, nogil=True)
def terminal_value(s: np.ndarray, mover: int, ply: int) -> int:
    """The value of a finished game for ``mover``, ``ply`` actions from the root."""
    winners = np.int64(s[WINNERS])
    if winners == 1 << mover:
        return WIN - ply
    if winners & (1 << mover):
        return 0
    return ply - WIN


@njit(cache=True, nogil=True)
def to_tt(value: int, ply: int) -> int:
    if value >= PROVEN:
        return value + ply
    if value <= -PROVEN:
        return value - ply
    return value


@njit(cache=True, nogil=True)
def from_tt(value: int, ply: int) -> int:
    if value >= PROVEN:
        return value - ply
    if value <= -PROVEN:
        return value + ply
    return value


@njit(cache=True, nogil=True)
def threatens(child: np.ndarray, mover: int) -> bool:
    """Whether ``mover``, who just acted, could win at once if it acted again: such
    an action is never searched shallower."""
    turn = child[TURN]
    child[TURN] = np.uint64(mover)
    threat = immediate_win(child) != 0
    child[TURN] = turn
    return threat


# frame slots: one row of ``frames`` per ply of the explicit search stack
F_ALPHA: Final = 0
F_BETA: Final = 1
F_DEPTH: Final = 2
F_BEST: Final = 3
F_BEST_MOVE: Final = 4
F_NEXT: Final = 5
F_COUNT: Final = 6
F_ALPHA0: Final = 7
F_STAGE: Final = 8  # how the current child is being searched: a STAGE_ value
F_MOVER: Final = 9
F_SAME: Final = 10  # the child's seat to act is this node's
F_CUR: Final = 11  # the row position of the child being searched
F_KEY: Final = 12  # the node's position key (with deferring)
F_MARK: Final = 13  # the busy mark of the child being searched; 0: none
F_DEFERRED: Final = 14  # how many actions this node put off
F_REDO: Final = 15  # -1 in the first pass; then the next put-off action's index
FRAME_SIZE: Final = 16

# search stages of a child (``F_STAGE``)
STAGE_FULL: Final = 0  # the full window (the first action, or a finished game)
STAGE_NULL: Final = 1  # a null window at full depth (principal variation search)
STAGE_RESEARCH: Final = 2  # the full window again, after the null window failed high
STAGE_REDUCED: Final = 3  # a null window one or two plies shallower (late move reduction)


@njit(cache=True, nogil=True)
def order_actions(
    row: np.ndarray,
    order: np.ndarray,
    n: int,
    tt_move: int,
    killers: np.ndarray,
    history: np.ndarray,
) -> None:
    """The move picker's keys (``order[j]`` for ``row[j]``): the table's action first,
    then scorings (longest line first), the two killers of this ply, then the other
    insertions by the mover's ``history``."""
    for j in range(n):
        code = row[j]
        if code == tt_move:
            order[j] = KEY_TABLE_MOVE
        elif code >= INSERTIONS:
            order[j] = KEY_SCORING + SEG_LEN[(code - INSERTIONS) >> 1]
        elif code == killers[0]:
            order[j] = KEY_KILLER
        elif code == killers[1]:
            order[j] = KEY_KILLER - 1
        else:
            order[j] = history[code]


@njit(cache=True, nogil=True)
def pick_next(row: np.ndarray, order: np.ndarray, j: int, n: int) -> int:
    """The move picker: swap the best-keyed action of ``row[j:n]`` into place ``j`` (ties:
    the lower index, so a search repeats) and return it."""
    top = j
    for t in range(j + 1, n):
        if order[t] > order[top]:
            top = t
    code = row[top]
    row[top] = row[j]
    row[j] = code
    key = order[top]
    order[top] = order[j]
    order[j] = key
    return code


@njit(cache=True, nogil=True)
def busy_mark(key: int, code: int) -> int:
    """The busy table's mark of searching action ``code`` from the position with
    ``key``: never 0 (the empty slot)."""
    mark = key ^ ((code + 1) * _ACTION_SPREAD)
    return mark if mark != 0 else 1


@njit(cache=True, nogil=True)
def release_mark(frame: np.ndarray, busy: np.ndarray) -> None:
    """Take the mark of the child ``frame``'s node is searching, if any, out of the busy
    table (unless another pair's mark has taken its slot since)."""
    mark = frame[F_MARK]
    if mark != 0:
        slot = mark & (busy.shape[0] - 1)
        if busy[slot] == mark:
            busy[slot] = 0
        frame[F_MARK] = 0


@njit(cache=True, nogil=True)
def clear_marks(frames: np.ndarray, busy: np.ndarray, ply: int) -> None:
    """Take the marks of a stopped search's plies ``1..ply`` out of the busy table."""
    for p in range(1, ply + 1):
        release_mark(frames[p], busy)


@njit(cache=True, nogil=True)
def pack_root_best(value: int, code: int) -> int:
    """One number for a root action and its exact value (never 0, the empty slot),
    ordered by value: a thread publishes its best with a single write another thread
    cannot see half done."""
    return ((value + _ROOT_VALUE_OFFSET) << _ROOT_VALUE_SHIFT) | code


@njit(cache=True, nogil=True)
def unpack_root_best(packed: int) -> tuple[int, int]:
    """The value and action of :func:`pack_root_best`."""
    return (packed >> _ROOT_VALUE_SHIFT) - _ROOT_VALUE_OFFSET, packed & (
        (1 << _ROOT_VALUE_SHIFT) - 1
    )


_ENTER = 0
_NEXT = 1
_RETURN = 2
_CHILD = 3


@njit(cache=True, nogil=True)
def negamax(
    stack: np.ndarray,
    moves: np.ndarray,
    keys: np.ndarray,
    frames: np.ndarray,
    tt_key: np.ndarray,
    tt_data: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    deferred: np.ndarray,
    busy: np.ndarray,
    info: np.ndarray,
    depth: int,
    alpha: int,
    beta: int,
) -> int:
    """The value of ``stack[1]`` (not over) for its seat to act, searched ``depth``
    more actions deep within the window ``(alpha, beta)`` (fail-soft).

    Written as a loop over an explicit stack of frames (numba cannot cache recursive
    functions): ``_ENTER`` a node, try its ``_NEXT`` action, ``_RETURN`` a node's value
    to its parent, which takes in the ``_CHILD`` value.

    With ``info[DEFER]`` the threads that search the same tree share ``busy`` (the
    marks of the (position, action) pairs they are in): an action another thread is in
    waits in the node's row of ``deferred`` until the node's other actions are done
    (simplified ABDADA)."""
    use_tt = info[USE_TT] != 0
    tuned = info[TUNED] != 0
    defer = info[DEFER] != 0
    busy_mask = busy.shape[0] - 1
    ply = 1
    f = frames[1]
    f[F_DEPTH] = depth
    f[F_ALPHA] = alpha
    f[F_BETA] = beta
    mode = _ENTER
    value = 0
    while True:
        if mode == _ENTER:
            s = stack[ply]
            f = frames[ply]
            wins_in = immediate_win(s)
            if wins_in:
                value = WIN - ply - wins_in
                mode = _RETURN
                continue
            d = f[F_DEPTH]
            if d <= 0:
                # a game this close to its end is searched to it, not guessed at
                left = plies_left(s)
                if left <= LEAF_SOLVE_PLIES:
                    d = left
                    f[F_DEPTH] = d
            if d <= 0 or ply >= MAX_PLY:
                value = evaluate(s, tuned)
                mode = _RETURN
                continue
            mover = np.int64(s[TURN])
            tt_move = -1
            key = zobrist(s) if use_tt or defer else np.uint64(0)
            if use_tt:
                hit, entry = tt_probe(tt_key, tt_data, key)
                if hit:
                    tt_move = entry_move(entry)
                    if entry_depth(entry) >= d:
                        v = from_tt(entry_value(entry), ply)
                        bound = entry_bound(entry)
                        if (
                            bound == EXACT
                            or (bound == LOWER and v >= f[F_BETA])
                            or (bound == UPPER and v <= f[F_ALPHA])
                        ):
                            value = v
                            mode = _RETURN
                            continue
            row = moves[ply]
            n = legal_actions(s, row)
            order_actions(row, keys[ply], n, tt_move, killers[ply], history[mover])
            f[F_BEST] = -INF
            f[F_BEST_MOVE] = row[0]
            f[F_NEXT] = 0
            f[F_COUNT] = n
            f[F_ALPHA0] = f[F_ALPHA]
            f[F_MOVER] = mover
            f[F_KEY] = np.int64(key)
            f[F_MARK] = 0
            f[F_DEFERRED] = 0
            f[F_REDO] = -1
            mode = _NEXT
        elif mode == _NEXT:
            j = f[F_NEXT]
            n = f[F_COUNT]
            if j >= n and f[F_REDO] < 0:
                f[F_REDO] = 0  # the second pass: the actions put off, if any
            redo = f[F_REDO]
            if redo >= f[F_DEFERRED]:  # never in the first pass (-1)
                value = f[F_BEST]
                if use_tt:
                    bound = EXACT
                    if value <= f[F_ALPHA0]:
                        bound = UPPER
                    elif value >= f[F_BETA]:
                        bound = LOWER
                    tt_store(
                        tt_key,
                        tt_data,
                        np.uint64(f[F_KEY]),
                        f[F_BEST_MOVE],
                        f[F_DEPTH],
                        bound,
                        to_tt(value, ply),
                    )
                mode = _RETURN
                continue
            if redo >= 0:
                j = deferred[ply, redo]
                f[F_REDO] = redo + 1
                code = moves[ply, j]
            else:
                code = pick_next(moves[ply], keys[ply], j, n)
                f[F_NEXT] = j + 1
                if defer and j > 0 and f[F_DEPTH] >= DEFER_DEPTH:
                    mark = busy_mark(f[F_KEY], code)
                    slot = mark & busy_mask
                    if busy[slot] == mark:
                        deferred[ply, f[F_DEFERRED]] = j
                        f[F_DEFERRED] += 1
                        continue
                    busy[slot] = mark
                    f[F_MARK] = mark
            f[F_CUR] = j
            child = stack[ply + 1]
            child[:] = stack[ply]
            apply_action(child, code)
            info[NODES] += 1
            if info[NODES] >= info[NODE_LIMIT]:
                info[STOPPED] = 1
                if defer:
                    clear_marks(frames, busy, ply)
                return 0
            mover = f[F_MOVER]
            if child[PHASE] == _OVER:
                value = terminal_value(child, mover, ply + 1)
                f[F_STAGE] = STAGE_FULL
                mode = _CHILD
                continue
            f[F_SAME] = 1 if np.int64(child[TURN]) == mover else 0
            f[F_STAGE] = STAGE_FULL if j == 0 else STAGE_NULL
            a = f[F_ALPHA]
            b = f[F_BETA] if j == 0 else a + 1
            g = frames[ply + 1]
            g[F_DEPTH] = f[F_DEPTH] - 1
            d = f[F_DEPTH]
            if (
                info[REDUCE]
                and j >= LMR_FROM
                and d >= LMR_DEPTH
                and keys[ply, j] < QUIET_BELOW
                and not f[F_SAME]
                and not threatens(child, mover)
            ):
                f[F_STAGE] = STAGE_REDUCED
                g[F_DEPTH] -= 2 if j >= LMR_DEEP_FROM and d >= LMR_DEEP_DEPTH else 1
            if f[F_SAME]:
                g[F_ALPHA] = a
                g[F_BETA] = b
            else:
                g[F_ALPHA] = -b
                g[F_BETA] = -a
            ply += 1
            mode = _ENTER
        elif mode == _RETURN:
            if ply == 1:
                return value
            ply -= 1
            f = frames[ply]
            if not f[F_SAME]:
                value = -value
            mode = _CHILD
        else:  # _CHILD: ``value`` is the last child's value for this node's mover
            v = value
            if f[F_STAGE] == STAGE_REDUCED and v > f[F_ALPHA]:
                # the reduced search failed high: search again to the full depth
                f[F_STAGE] = STAGE_NULL
                g = frames[ply + 1]
                g[F_DEPTH] = f[F_DEPTH] - 1
                g[F_ALPHA] = -f[F_ALPHA] - 1
                g[F_BETA] = -f[F_ALPHA]
                ply += 1
                mode = _ENTER
                continue
            if f[F_STAGE] == STAGE_NULL and f[F_ALPHA] < v < f[F_BETA]:
                # the null window failed high: search again with the full window
                f[F_STAGE] = STAGE_RESEARCH
                g = frames[ply + 1]
                g[F_DEPTH] = f[F_DEPTH] - 1
                if f[F_SAME]:
                    g[F_ALPHA] = v
                    g[F_BETA] = f[F_BETA]
                else:
                    g[F_ALPHA] = -f[F_BETA]
                    g[F_BETA] = -v
                ply += 1
                mode = _ENTER
                continue
            mode = _NEXT
            release_mark(f, busy)
            if v > f[F_BEST]:
                code = moves[ply, f[F_CUR]]
                f[F_BEST] = v
                f[F_BEST_MOVE] = code
                if v > f[F_ALPHA]:
                    f[F_ALPHA] = v
                    if v >= f[F_BETA]:
                        if code < INSERTIONS:
                            if killers[ply, 0] != code:
                                killers[ply, 1] = killers[ply, 0]
                                killers[ply, 0] = code
                            history[f[F_MOVER], code] += f[F_DEPTH] * f[F_DEPTH]
                        # a cut: no more actions here, put off or not
                        f[F_NEXT] = f[F_COUNT]
                        f[F_DEFERRED] = 0


@njit(cache=True, nogil=True)
def child_value(
    stack: np.ndarray,
    moves: np.ndarray,
    keys: np.ndarray,
    frames: np.ndarray,
    tt_key: np.ndarray,
    tt_data: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    deferred: np.ndarray,
    busy: np.ndarray,
    info: np.ndarray,
    mover: int,
    depth: int,
    low: int,
    high: int,
) -> int:
    """The value of the root's child ``stack[1]`` (not over) for the root's ``mover``,
    searched to ``depth`` within the window ``(low, high)`` of the mover's values; the
    sign flips only when the seat to act changes (not after a scoring)."""
    tables = (stack, moves, keys, frames, tt_key, tt_data, killers, history, deferred, busy, info)
    if np.int64(stack[1][TURN]) == mover:
        return negamax(*tables, depth, low, high)
    return -negamax(*tables, depth, -high, -low)


@njit(cache=True, nogil=True)
def search_root(
    stack: np.ndarray,
    moves: np.ndarray,
    keys: np.ndarray,
    frames: np.ndarray,
    tt_key: np.ndarray,
    tt_data: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    deferred: np.ndarray,
    busy: np.ndarray,
    info: np.ndarray,
    root_best: np.ndarray,
    root_moves: np.ndarray,
    values: np.ndarray,
    depth: int,
    exact_all: bool,
    guess: int,
) -> int:
    """Search each of ``root_moves`` (from ``stack[0]``, not over) to ``depth`` in
    order and write its value into ``values``: exact for the first (and, with
    ``exact_all``, for every action), else exact when it is better than the best so
    far and an upper bound otherwise. Returns how many actions were finished (fewer
    than all when the node limit stopped the search).

    Without ``exact_all`` the first action is searched within an aspiration window
    around ``guess`` (an earlier depth's value; :data:`NO_GUESS` for none) and again with
    the full window when its value falls outside, and the others with a null window
    first (principal variation search), again only when they beat the best.

    With ``info[DEFER]`` (other threads search the same root) the threads share their
    best so far of each depth in ``root_best``: a thread starts each action after the
    first from the better of its own best and the others', so that all ask their
    null-window searches against one bound and find each other's answers in the table;
    a best taken from another thread is the one this thread returns first, with its
    value."""
    s = stack[0]
    mover = np.int64(s[TURN])
    child = stack[1]
    alpha = -INF
    best_move = root_moves[0]
    taken = False  # the best is another thread's
    share = info[DEFER] != 0 and not exact_all
    n = root_moves.shape[0]
    tables = (stack, moves, keys, frames, tt_key, tt_data, killers, history, deferred, busy, info)
    for j in range(n):
        code = root_moves[j]
        if share and j > 0 and root_best[depth] != 0:
            other, other_move = unpack_root_best(root_best[depth])
            if other > alpha:
                alpha = other
                best_move = other_move
                taken = True
        child[:] = s
        apply_action(child, code)
        info[NODES] += 1
        if info[NODES] >= info[NODE_LIMIT]:
            info[STOPPED] = 1
            return j
        d = depth - 1
        if child[PHASE] == _OVER:
            v = terminal_value(child, mover, 1)
        elif exact_all:
            v = child_value(*tables, mover, d, -INF, INF)
        elif j == 0:
            low, high = -INF, INF
            if guess != NO_GUESS and depth >= ASPIRATION_DEPTH and abs(guess) < PROVEN:
                low, high = guess - ASPIRATION, guess + ASPIRATION
            v = child_value(*tables, mover, d, low, high)
            if (v <= low or v >= high) and not info[STOPPED]:
                v = child_value(*tables, mover, d, -INF, INF)
        else:
            v = child_value(*tables, mover, d, alpha, alpha + 1)
            if v > alpha and not info[STOPPED]:
                v = child_value(*tables, mover, d, alpha, INF)
        if info[STOPPED]:
            return j
        # a value that failed low against another thread's best is only a bound above
        # it: kept below the first action's exact value, so that a depth cut off
        # afterwards never takes it for a better action (driver._beaten)
        values[j] = min(v, values[0]) if taken and v <= alpha else v
        if v > alpha:
            alpha = v
            best_move = code
            taken = False
            if share:
                packed = pack_root_best(v, code)
                if packed > root_best[depth]:
                    root_best[depth] = packed
    if taken:
        for j in range(n):
            if root_moves[j] == best_move:
                values[j] = alpha
    if info[USE_TT]:
        tt_store(tt_key, tt_data, zobrist(s), best_move, depth, EXACT, alpha)
    return n


@njit(cache=True, nogil=True)
def winning_action(s: np.ndarray, row: np.ndarray) -> int:
    """An action of the seat to act that wins at once, or that makes a line whose
    scoring wins (so the scoring follows); -1 for none."""
    mover = np.int64(s[TURN])
    n = legal_actions(s, row)
    child = np.empty_like(s)
    for j in range(n):
        child[:] = s
        apply_action(child, row[j])
        if child[PHASE] == _OVER:
            if np.int64(child[WINNERS]) == 1 << mover:
                return row[j]
        elif np.int64(child[PHASE]) == SCORE_PHASE and immediate_win(child) == 1:
            return row[j]
    return -1


@njit(cache=True, nogil=True)
def principal_variation(
    start: np.ndarray, tt_key: np.ndarray, tt_data: np.ndarray, out: np.ndarray
) -> int:
    """Follow the table's best actions from ``start`` while they are legal, then any
    immediate win (which the search finds without storing it); write the actions into
    ``out`` and return how many."""
    s = start.copy()
    row = np.empty(MAX_ACTIONS, dtype=np.int64)
    count = 0
    while count < out.shape[0] and s[PHASE] != _OVER:
        code = -1
        hit, entry = tt_probe(tt_key, tt_data, zobrist(s))
        if immediate_win(s):
            code = winning_action(s, row)
        elif hit:
            code = entry_move(entry)
            n = legal_actions(s, row)
            legal = False
            for j in range(n):
                legal |= row[j] == code
            if not legal:
                code = -1
        if code < 0:
            break
        out[count] = code
        count += 1
        apply_action(s, code)
    return count


class SearchTables(NamedTuple):
    """One search thread's tables, in the order the compiled functions take them
    (``search_root(*tables, ...)``). The transposition table (``tt_key``,
    ``tt_data``; :mod:`.ttable`) and ``busy`` may be shared between threads; the rest
    is the thread's own."""

    stack: np.ndarray  # the state at each ply (row 0: the root)
    moves: np.ndarray  # the actions of each ply's node
    keys: np.ndarray  # their ordering keys (:func:`order_actions`)
    frames: np.ndarray  # each ply's frame (the ``F_`` slots)
    tt_key: np.ndarray
    tt_data: np.ndarray
    killers: np.ndarray  # two killer actions per ply
    history: np.ndarray  # per seat and action: how often it cut
    deferred: np.ndarray  # the actions each ply's node put off (row positions)
    busy: np.ndarray  # the marks of the (position, action) pairs the threads are in
    info: np.ndarray  # the ``info`` slots (nodes, limits, switches)
    root_best: np.ndarray  # the threads' best root action of each depth (packed)


def new_tables(
    table: tuple[np.ndarray, np.ndarray], shared: SearchTables | None = None
) -> SearchTables:
    """Fresh search tables of one search thread around the transposition table
    ``table`` (keys, data), with the ``busy`` and ``root_best`` tables of the thread
    whose tables are ``shared`` (fresh ones if None)."""
    return SearchTables(
        stack=np.zeros((MAX_PLY + 2, STATE_SIZE), dtype=np.uint64),
        moves=np.zeros((MAX_PLY + 1, MAX_ACTIONS), dtype=np.int64),
        keys=np.zeros((MAX_PLY + 1, MAX_ACTIONS), dtype=np.int64),
        frames=np.zeros((MAX_PLY + 2, FRAME_SIZE), dtype=np.int64),
        tt_key=table[0],
        tt_data=table[1],
        killers=np.full((MAX_PLY + 1, 2), -1, dtype=np.int64),
        history=np.zeros((2, ACTION_CODES), dtype=np.int64),
        deferred=np.zeros((MAX_PLY + 1, MAX_ACTIONS), dtype=np.int64),
        busy=np.zeros(BUSY_SLOTS, dtype=np.int64) if shared is None else shared.busy,
        info=np.zeros(INFO_SIZE, dtype=np.int64),
        root_best=np.zeros(MAX_PLY + 1, dtype=np.int64) if shared is None else shared.root_best,
    )
