"""Alpha-beta searches of 3-4 player Express: paranoid, best-reply and max-n.

The three known ways of searching a game of more than two players with a static
evaluation, each by its rule (:data:`PARANOID`, :data:`BEST_REPLY`, :data:`MAX_N`):

* **paranoid** (Sturtevant and Korf): the root seat raises its value, every other seat
  acts in turn to lower it, as if they played together;
* **best-reply search** (Schadd and Winands): the root seat acts, then the *one* action
  of any other seat that is worst for it (the others pass), then the root again; the
  root's actions come at every other ply, and an opponent's action is played as if that
  seat had the turn;
* **max-n** (Luckhardt and Irani): every seat acts in turn and maximises its own share
  of the result (a vector of values, one per seat), with shallow pruning only: the
  shares sum to 1, so a seat whose best already leaves the seat above less than that
  seat's best elsewhere is cut off.

A fourth rule, **sure win** (:data:`SURE_WIN`), is paranoid search whose opponents are
guarded only by their own wins: they may leave the next seat its win (a seat lost
either way may make another the winner), so a win it proves holds whatever the others
do; the top level checks for one before its MCTS.

Paranoid search and max-n put two rules of the game's tactics first at every node, as
the guarded expansions of the MCTS do
(:func:`shiftago.engine.mcts.knowledge.guarded_children`): a seat that can make its line
does, and a seat that can stop the next seat's line at once plays one of the insertions
that stop it. Best-reply search has no next seat: at its opponents' ply any opponent
that can make its line does (the root loses), and the root's own ply takes its win
where it has one. A leaf is valued by the fitted evaluation of 3-4 player games
(:func:`shiftago.engine.mcts.seat_eval.fitted_shares`): each seat's expected share of
the result; a finished game by its result (1 to the winner, shared draws 1/k).

The search deepens one ply at a time, the root's actions in the order of the last
finished depth, the other nodes' taken by the 2-player search's move picker
(:mod:`shiftago.engine.search.movepick`) with a killer action per ply and a history
score per seat and action. It reads ``info[STOP]`` at every node, which an alarm thread
sets when time is up (:mod:`shiftago.engine.alarm`); a depth cut short is thrown away.
docs/strength.md, "A paranoid search for 3 and 4 players" and "Best-reply search and
max-n", measures them.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.engine import compiled_cache  # noqa: F401  (before any compiled module)
from shiftago.engine.kernel.moves import apply_action, legal_actions, occupied
from shiftago.engine.kernel.policy import winning_insertions
from shiftago.engine.kernel.tables import (
    BOARD,
    EXPRESS,
    INSERTIONS,
    MAX_ACTIONS,
    MIN_LINE,
    OVER,
    PHASE,
    PLAYERS,
    STATE_SIZE,
    SUPPLY,
    TURN,
    WINNERS,
)
from shiftago.engine.mcts.knowledge import guarded_children, keep_runs
from shiftago.engine.mcts.seat_eval import fitted_shares
from shiftago.engine.mcts.tree import share
from shiftago.engine.search.movepick import KEY_KILLER, order_actions, pick_next

#: The rules of the search (see the module doc).
PARANOID: Final = 0
BEST_REPLY: Final = 1
MAX_N: Final = 2
#: Paranoid search whose opponents are not made to block one another: the wins it proves
#: hold whatever the other seats do (the top level's forced-win check).
SURE_WIN: Final = 3
#: ``info`` slots: the stop flag (set by the alarm), the node limit, nodes searched.
STOP: Final = 0
NODE_LIMIT: Final = 1
NODES: Final = 2
INFO_SIZE: Final = 3
#: The deepest search; a game of Express has at most 49 insertions.
MAX_PLY: Final = 64
#: Values: a root's win is worth 1, a loss 0; ``INF`` bounds every value.
INF: Final = 2.0
#: The most actions of one node: best-reply search pools the opponents' insertions,
#: each coded ``place * INSERTIONS + insertion`` by the seat's place after the root.
NODE_ACTIONS: Final = MAX_ACTIONS


@njit(cache=True, nogil=True)
def value_of(s: np.ndarray, depth: int, ply: int, out: np.ndarray) -> bool:
    """Write into ``out`` the shares of ``s`` when it needs no search (over, or a leaf
    at ``depth`` 0 or the deepest ply); False when it needs one."""
    if np.int64(s[PHASE]) == OVER:
        winners = int(np.int64(s[WINNERS]))
        for seat in range(np.int64(s[PLAYERS])):
            out[seat] = share(winners, seat)
        return True
    if depth <= 0 or ply >= MAX_PLY - 1:
        fitted_shares(s, out)
        return True
    return False


@njit(cache=True, nogil=True)
def won_by(seat: int, players: int, out: np.ndarray) -> None:
    """The shares of a game ``seat`` wins."""
    for k in range(players):
        out[k] = 1.0 if k == seat else 0.0


@njit(cache=True, nogil=True)
def enter(
    stack: np.ndarray,
    moves: np.ndarray,
    keys: np.ndarray,
    counts: np.ndarray,
    ply: int,
    depth: int,
    info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    out: np.ndarray,
    free: int = -1,
) -> bool:
    """Open the node ``stack[ply]`` of paranoid search or max-n: True with its shares in
    ``out`` when it needs no search (over, a leaf, lost to the next seat at once), else
    False with its guarded actions in ``moves[ply]``, their move picker's keys in
    ``keys[ply]`` and their number in ``counts[ply]``. The opponents of the seat
    ``free`` (none when -1) are guarded only by their own wins: they may leave the next
    seat its win, as a seat lost either way may."""
    s = stack[ply]
    count_node(info)
    if value_of(s, depth, ply, out):
        return True
    row = moves[ply]
    n = legal_actions(s, row)
    mover = int(np.int64(s[TURN]))
    if free >= 0 and mover != free:
        n, lost_to = own_wins_first(s, mover, row, n), -1
    else:
        n, lost_to = guarded_children(s, row, n)
    if lost_to >= 0:
        won_by(lost_to, int(np.int64(s[PLAYERS])), out)
        return True
    order_actions(row, keys[ply], n, -1, killers[ply], history[mover])
    counts[ply] = n
    return False


@njit(cache=True, nogil=True)
def own_wins_first(s: np.ndarray, mover: int, row: np.ndarray, n: int) -> int:
    """Keep in ``row[:n]`` only the insertions that make ``mover`` its line, where it has
    some: how many actions are left."""
    kept = keep_runs(s[BOARD + mover], occupied(s), row, n, MIN_LINE[EXPRESS, 1])
    return kept if kept > 0 else n


@njit(cache=True, nogil=True)
def count_node(info: np.ndarray) -> None:
    """Count a node, and stop the search past its node limit."""
    info[NODES] += 1
    if info[NODE_LIMIT] > 0 and info[NODES] > info[NODE_LIMIT]:
        info[STOP] = 1


@njit(cache=True, nogil=True)
def enter_best_reply(
    stack: np.ndarray,
    moves: np.ndarray,
    keys: np.ndarray,
    counts: np.ndarray,
    ply: int,
    depth: int,
    root: int,
    info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    out: np.ndarray,
) -> bool:
    """:func:`enter` for best-reply search: the root's ply keeps only its wins where it
    has some, else every action; the opponents' ply is lost for the root when one of
    them can make its line, else it pools every opponent's insertions (coded by the
    seat's place after the root), ordered by the root's history row."""
    s = stack[ply]
    count_node(info)
    if value_of(s, depth, ply, out):
        return True
    players = int(np.int64(s[PLAYERS]))
    row = moves[ply]
    occ = occupied(s)
    length = MIN_LINE[EXPRESS, 1]
    if np.int64(s[TURN]) == root:
        n = own_wins_first(s, root, row, legal_actions(s, row))
        order_actions(row, keys[ply], n, -1, killers[ply], history[root])
        counts[ply] = n
        return False
    for place in range(1, players):
        seat = (root + place) % players
        if winning_insertions(s[BOARD + seat], occ, length) != 0:
            won_by(seat, players, out)
            return True
    scratch = s.copy()
    single = np.empty(MAX_ACTIONS, dtype=np.int64)
    n = 0
    for place in range(1, players):
        seat = (root + place) % players
        if np.int64(s[SUPPLY + seat]) == 0:
            continue
        scratch[TURN] = np.uint64(seat)
        for j in range(legal_actions(scratch, single)):
            row[n] = place * INSERTIONS + single[j]
            n += 1
    if n == 0:  # no opponent can act: the root acts again
        fitted_shares(s, out)
        return True
    order = keys[ply]
    for j in range(n):
        code = row[j]
        order[j] = KEY_KILLER if code == killers[ply, 0] else history[root, code]
    counts[ply] = n
    return False


@njit(cache=True, nogil=True)
def play_reply(s: np.ndarray, code: int, root: int) -> None:
    """Play a best-reply code on ``s``: the root's action, or an opponent's (coded by
    its place after the root) as if that seat had the turn, the root to act after it."""
    if np.int64(s[TURN]) == root:
        apply_action(s, code)
        return
    players = np.int64(s[PLAYERS])
    s[TURN] = np.uint64((root + code // INSERTIONS) % players)
    apply_action(s, code % INSERTIONS)
    if np.int64(s[PHASE]) != OVER:
        s[TURN] = np.uint64(root)


@njit(cache=True, nogil=True)
def open_node(
    stack: np.ndarray,
    moves: np.ndarray,
    keys: np.ndarray,
    counts: np.ndarray,
    ply: int,
    depth: int,
    root: int,
    rule: int,
    info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    out: np.ndarray,
) -> bool:
    """:func:`enter_best_reply` in best-reply search, else :func:`enter` (with the
    root's opponents free in :data:`SURE_WIN`)."""
    if rule == BEST_REPLY:
        return enter_best_reply(
            stack, moves, keys, counts, ply, depth, root, info, killers, history, out
        )
    free = root if rule == SURE_WIN else -1
    return enter(stack, moves, keys, counts, ply, depth, info, killers, history, out, free)


@njit(cache=True, nogil=True)
def node_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-ply arrays of a search: actions, their keys, how many, the next one's index,
    and each ply's depth."""
    return (
        np.empty((MAX_PLY, NODE_ACTIONS), dtype=np.int64),
        np.empty((MAX_PLY, NODE_ACTIONS), dtype=np.int64),
        np.zeros(MAX_PLY, dtype=np.int64),
        np.zeros(MAX_PLY, dtype=np.int64),
        np.empty(MAX_PLY, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def paranoid(
    stack: np.ndarray,
    base: int,
    depth: int,
    alpha: float,
    beta: float,
    root: int,
    rule: int,
    info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
) -> float:
    """The paranoid value (by ``rule``: :data:`PARANOID`, :data:`SURE_WIN` or
    :data:`BEST_REPLY`) for ``root`` of ``stack[base]`` searched ``depth`` plies, within
    the window (``alpha``, ``beta``); nonsense once ``info[STOP]`` is set.

    The recursion runs on explicit per-ply arrays (numba caches no recursive
    function safely): each ply keeps its window, best value, depth and next action."""
    moves, keys, counts, next_index, depths = node_arrays()
    best_reply = rule == BEST_REPLY
    lows = np.empty(MAX_PLY, dtype=np.float64)
    highs = np.empty(MAX_PLY, dtype=np.float64)
    bests = np.empty(MAX_PLY, dtype=np.float64)
    maximizing = np.zeros(MAX_PLY, dtype=np.bool_)
    shares = np.empty(4, dtype=np.float64)
    ply = base
    lows[ply] = alpha
    highs[ply] = beta
    depths[ply] = depth
    tables = (moves, keys, counts)
    if open_node(stack, *tables, ply, depth, root, rule, info, killers, history, shares):
        return float(shares[root])
    maximizing[ply] = np.int64(stack[ply, TURN]) == root
    bests[ply] = -INF if maximizing[ply] else INF
    next_index[ply] = 0
    while True:
        if info[STOP] != 0:
            return 0.0
        j = next_index[ply]
        if j < counts[ply] and lows[ply] < highs[ply]:
            # descend into the next action of this ply
            next_index[ply] = j + 1
            child = ply + 1
            stack[child, :] = stack[ply]
            code = pick_next(moves[ply], keys[ply], j, counts[ply])
            if best_reply:
                play_reply(stack[child], code, root)
            else:
                apply_action(stack[child], code)
            lows[child] = lows[ply]
            highs[child] = highs[ply]
            depths[child] = depths[ply] - 1
            depth_left = depths[child]
            if not open_node(
                stack, *tables, child, depth_left, root, rule, info, killers, history, shares
            ):
                ply = child
                maximizing[ply] = np.int64(stack[ply, TURN]) == root
                bests[ply] = -INF if maximizing[ply] else INF
                next_index[ply] = 0
                continue
            value = float(shares[root])
        else:
            # this ply is done: its value goes to its parent
            value = float(bests[ply])
            if ply == base:
                return value
            ply -= 1
        # ``value`` is that of the child just searched, action moves[ply, next - 1]
        if maximizing[ply]:
            if value > bests[ply]:
                bests[ply] = value
            if value > lows[ply]:
                lows[ply] = value
        else:
            if value < bests[ply]:
                bests[ply] = value
            if value < highs[ply]:
                highs[ply] = value
        if lows[ply] >= highs[ply]:
            row = root if best_reply else int(np.int64(stack[ply, TURN]))
            cut(moves[ply, next_index[ply] - 1], ply, depths[ply], killers, history, row)


@njit(cache=True, nogil=True)
def cut(
    code: int, ply: int, depth: int, killers: np.ndarray, history: np.ndarray, row: int
) -> None:
    """An action cut its node off: it is the ply's killer and gains in the history row."""
    killers[ply, 0] = code  # one killer a ply: the picker's second slot stays empty
    history[row, code] += depth * depth


@njit(cache=True, nogil=True)
def max_n(
    stack: np.ndarray,
    base: int,
    depth: int,
    above: int,
    bound: float,
    info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    out: np.ndarray,
) -> None:
    """Write into ``out`` the max-n shares of ``stack[base]`` searched ``depth`` plies;
    the seat ``above`` (the mover of the node above) has ``bound`` already, so the node
    is cut off once its mover's best share reaches ``1 - bound`` (shallow pruning: the
    shares sum to 1). A node cut off reports at most ``bound`` for ``above``, an upper
    bound of its share there. Nonsense once ``info[STOP]`` is set."""
    moves, keys, counts, next_index, depths = node_arrays()
    bests = np.empty((MAX_PLY, 4), dtype=np.float64)
    movers = np.empty(MAX_PLY, dtype=np.int64)
    value = np.empty(4, dtype=np.float64)
    players = np.int64(stack[base, PLAYERS])
    tables = (moves, keys, counts)
    ply = base
    depths[ply] = depth
    if enter(stack, *tables, ply, depth, info, killers, history, out):
        return
    movers[ply] = np.int64(stack[ply, TURN])
    bests[ply, :] = -INF
    next_index[ply] = 0
    while True:
        if info[STOP] != 0:
            return
        j = next_index[ply]
        mover = movers[ply]
        up = above if ply == base else movers[ply - 1]
        limit = bound if ply == base else bests[ply - 1, up]
        if j < counts[ply] and not (j > 0 and limit > -INF and bests[ply, mover] >= 1 - limit):
            next_index[ply] = j + 1
            child = ply + 1
            stack[child, :] = stack[ply]
            apply_action(stack[child], pick_next(moves[ply], keys[ply], j, counts[ply]))
            depths[child] = depths[ply] - 1
            if not enter(stack, *tables, child, depths[child], info, killers, history, value):
                ply = child
                movers[ply] = np.int64(stack[ply, TURN])
                bests[ply, :] = -INF
                next_index[ply] = 0
                continue
        else:
            # this ply is done (or cut off): its shares go to its parent
            value[:players] = bests[ply, :players]
            if j < counts[ply]:
                cut(moves[ply, j - 1], ply, depths[ply], killers, history, mover)
                if up != mover:
                    value[up] = min(value[up], limit)
            if ply == base:
                out[:players] = value[:players]
                return
            ply -= 1
        # ``value`` holds the shares of the child just searched
        if value[movers[ply]] > bests[ply, movers[ply]]:
            bests[ply, :players] = value[:players]


@njit(cache=True, nogil=True)
def search_depth(
    s: np.ndarray,
    rule: int,
    depth: int,
    root_moves: np.ndarray,
    n: int,
    values: np.ndarray,
    info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
) -> bool:
    """Search every root action of ``root_moves[:n]`` to ``depth`` by ``rule``, writing
    each one's value for the root seat into ``values`` (exact for the best, an upper
    bound for the others); False when stopped first."""
    stack = np.empty((MAX_PLY, STATE_SIZE), dtype=np.uint64)
    root = int(np.int64(s[TURN]))
    shares = np.empty(4, dtype=np.float64)
    alpha = -INF
    for j in range(n):
        stack[1, :] = s
        if rule == BEST_REPLY:
            play_reply(stack[1], root_moves[j], root)
        else:
            apply_action(stack[1], root_moves[j])
        if rule == MAX_N:
            max_n(stack, 1, depth - 1, root, alpha, info, killers, history, shares)
            value = float(shares[root])
        else:
            value = paranoid(stack, 1, depth - 1, alpha, INF, root, rule, info, killers, history)
        if info[STOP] != 0:
            return False
        values[j] = value
        if value > alpha:
            alpha = value
    return True


@njit(cache=True, nogil=True)
def root_actions(s: np.ndarray, out: np.ndarray) -> tuple[int, int]:
    """The root's legal actions, those the guard keeps first: how many in all, and how
    many kept (the others lose at once)."""
    n = legal_actions(s, out)
    kept_moves = out[:n].copy()
    kept, lost_to = guarded_children(s, kept_moves, n)
    if lost_to >= 0:
        return n, n
    rest = 0
    tail = np.empty(n, dtype=np.int64)
    for j in range(n):
        code = out[j]
        found = False
        for k in range(kept):
            if kept_moves[k] == code:
                found = True
                break
        if not found:
            tail[rest] = code
            rest += 1
    out[:kept] = kept_moves[:kept]
    out[kept : kept + rest] = tail[:rest]
    return n, kept


def new_tables(players: int) -> tuple[np.ndarray, np.ndarray]:
    """Fresh killer and history tables for a search, in the move picker's shapes."""
    return np.full((MAX_PLY, 2), -1, dtype=np.int64), np.zeros((players, MAX_ACTIONS), np.int64)


__all__ = [
    "BEST_REPLY",
    "INFO_SIZE",
    "MAX_N",
    "NODES",
    "NODE_LIMIT",
    "PARANOID",
    "STOP",
    "SURE_WIN",
    "new_tables",
    "root_actions",
    "search_depth",
]
