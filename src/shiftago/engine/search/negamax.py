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
  and a history table (the move picker, :mod:`.movepick`).
* Late move reductions (on with ``info[REDUCE]``, for the top level only): a quiet
  insertion tried late (not the table's action, a killer or a scoring, and not one
  after which the mover threatens to win at once) is first searched with a null window
  one or two plies shallower, and again to the full depth only when it beats alpha.
  With them a depth no longer means every line of that length, so the depth-limited
  levels search without them.
* Leaves are valued by the classic evaluation, or by the tuned one with
  ``info[TUNED]`` (the top level's, see :mod:`.evaluate`), in Express with the weights
  in ``info[WEIGHTS:NETWORK]`` and the small network in ``info[NETWORK:]``.
* A leaf whose game can last only a few more actions (:mod:`.endgame`) is searched to
  the end instead of evaluated: in late 2-player Express the values are exact.
* A node is a position the search visits: the root and every state it makes by playing
  an action. The search stops itself when ``info[NODES]`` reaches ``info[NODE_LIMIT]``
  and sets ``info[STOPPED]``; the driver then ignores the unfinished depth.
* The tables it works in, and the named slots of ``info`` and of each ply's frame, are
  in :mod:`.layout`; what threads that search the same tree share, in :mod:`.sharing`;
  the principal variation is read out of the table by :mod:`.variation`.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.engine.kernel.moves import apply_action, legal_actions
from shiftago.engine.kernel.tables import INSERTIONS, OVER, PHASE, TURN, WINNERS

from .endgame import LEAF_SOLVE_PLIES, plies_left
from .evaluate import evaluate, immediate_win
from .layout import (
    DEFER,
    F_ALPHA,
    F_ALPHA0,
    F_BEST,
    F_BEST_MOVE,
    F_BETA,
    F_COUNT,
    F_CUR,
    F_DEFERRED,
    F_DEPTH,
    F_KEY,
    F_MARK,
    F_MOVER,
    F_NEXT,
    F_REDO,
    F_SAME,
    F_STAGE,
    MAX_PLY,
    NETWORK,
    NODE_LIMIT,
    NODES,
    REDUCE,
    STAGE_FULL,
    STAGE_NULL,
    STAGE_REDUCED,
    STAGE_RESEARCH,
    STOPPED,
    TUNED,
    USE_TT,
    WEIGHTS,
)
from .movepick import QUIET_BELOW, order_actions, pick_next
from .sharing import (
    DEFER_DEPTH,
    busy_mark,
    clear_marks,
    pack_root_best,
    release_mark,
    unpack_root_best,
)
from .ttable import EXACT, LOWER, UPPER, entry_bound, entry_depth, entry_move, entry_value
from .ttable import probe as tt_probe
from .ttable import store as tt_store
from .zobrist import zobrist

WIN: Final = 10000
#: Values at least this large (in size) are proven results.
PROVEN: Final = WIN - 1000
INF: Final = 30000

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
    weights = info[WEIGHTS:NETWORK]
    network = info[NETWORK:]
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
                value = evaluate(s, tuned, weights, network)
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
