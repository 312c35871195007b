"""The tree kept between searches (``engine/mcts/reuse.py``): the position searched next
is found below the last root, its subtree copied whole with it as the root (every
legal action among the root's children, also where the guard had kept fewer), and
only a search limited by time alone starts from it. The time-limited searches here are
stopped by an event after their first iterations: what they check is what the tree
holds, not how fast it grows."""

from __future__ import annotations

import threading

import numpy as np

from shiftago.core import State
from shiftago.engine import kernel
from shiftago.engine.kernel.moves import apply_action
from shiftago.engine.mcts import MULTI_PLAYER_C, Mcts, MctsResult, new_tree
from shiftago.engine.mcts.reuse import extract, find_descendant
from shiftago.engine.mcts.tree import ROOT, USED, Tree

#: A 3-player Express position where green, the next seat after orange, threatens a
#: line of four (Bc): below orange the guard keeps only blocks.
THREAT = "express 3 7/7/7/7/2g4/2g4/2g4 o insert 22,19,22 0,0,0 0,0,0"


def _searched(position: str, iterations: int = 3000, *, guard: bool = False) -> Mcts:
    mcts = Mcts(c=MULTI_PLAYER_C, guard=guard)
    mcts.search(kernel.from_state(State.from_position(position)), 1, iterations=iterations)
    return mcts


def _most_visited(tree: Tree, node: int) -> int:
    f, n = int(tree.first[node]), int(tree.count[node])
    return max(range(f, f + n), key=lambda ch: int(tree.visits[ch]))


def _path(tree: Tree, plies: int) -> list[int]:
    """The nodes of the most visited line below the root, ``plies`` long."""
    nodes, node = [], ROOT
    for _ in range(plies):
        node = _most_visited(tree, node)
        nodes.append(node)
    return nodes


def _subtree(tree: Tree, node: int) -> list[tuple[int, int, int, tuple[float, ...], int]]:
    """The subtree of ``node`` breadth first: each node's action, visits, children,
    values and proof (the node itself without its action)."""
    out, queue = [], [node]
    while queue:
        n = queue.pop(0)
        action = -1 if n == node else int(tree.code[n])
        values = tuple(float(v) for v in tree.values[n])
        out.append((action, int(tree.visits[n]), int(tree.count[n]), values, int(tree.proof[n])))
        f = int(tree.first[n])
        queue += list(range(f, f + int(tree.count[n])))
    return out


def _timed(mcts: Mcts, state: np.ndarray, seed: int) -> MctsResult:
    """A search limited by time alone, as the top level's, stopped after its first
    iterations by a stop already set: what the tests check is what the tree holds."""
    stop = threading.Event()
    stop.set()
    return mcts.search(state, seed, movetime_ms=60_000, stop=stop)


def test_the_node_of_a_later_position_is_found_and_an_other_is_not() -> None:
    start = "express 3 7/7/7/7/7/7/7 o insert 22,22,22 0,0,0 0,0,0"
    mcts = _searched(start)
    tree = mcts.tree
    assert tree is not None
    root = kernel.from_state(State.from_position(start))
    s = root.copy()
    path = _path(tree, 3)
    for node in path:
        apply_action(s, int(tree.code[node]))
    args = (tree.first, tree.count, tree.code, tree.visits, root)
    assert find_descendant(*args, s, 4) == path[-1]
    assert find_descendant(*args, s, 2) == -1  # deeper than it looks
    elsewhere = kernel.from_state(State.from_position(THREAT))
    assert find_descendant(*args, elsewhere, 4) == -1


def test_a_subtree_is_copied_whole_with_its_node_as_the_root() -> None:
    mcts = _searched("express 2 7/7/7/3o3/3g3/7/7 o insert 21,21 0,0 0,0", 4000)
    tree = mcts.tree
    assert tree is not None
    node = _path(tree, 2)[-1]
    s = kernel.from_state(State.from_position("express 2 7/7/7/3o3/3g3/7/7 o insert 21,21 0,0 0,0"))
    for n in (int(tree.parent[node]), node):
        apply_action(s, int(tree.code[n]))
    copy = new_tree(tree.capacity)
    used = extract(node, s, *tree[:8], *copy[:8], copy.info)
    assert used == int(copy.info[USED]) == len(_subtree(tree, node))
    assert _subtree(copy, ROOT) == _subtree(tree, node)
    assert int(copy.parent[ROOT]) == -1 and int(copy.code[ROOT]) == -1
    # every node's children lie side by side after their parent's slot
    for n in range(1, used):
        p = int(copy.parent[n])
        assert int(copy.first[p]) <= n < int(copy.first[p]) + int(copy.count[p])


def test_a_guarded_node_becomes_a_root_with_every_legal_action() -> None:
    # blue to act; then orange, whose every action but a block lets green win with Bc
    before = "express 3 7/7/7/7/2g4/2g4/2g4 b insert 22,19,22 0,0,0 0,0,0"
    mcts = Mcts(c=MULTI_PLAYER_C, guard=True)
    root = kernel.from_state(State.from_position(before))
    mcts.search(root, 1, iterations=4000)
    tree = mcts.tree
    assert tree is not None
    # blue's quiet action far from its column, after which orange must block c4
    quiet = next(
        ch
        for ch in range(int(tree.first[ROOT]), int(tree.first[ROOT]) + int(tree.count[ROOT]))
        if int(tree.count[ch]) > 0 and 0 < int(tree.count[ch]) < 28
    )
    s = root.copy()
    apply_action(s, int(tree.code[quiet]))
    kept = int(tree.count[quiet])
    copy = new_tree(tree.capacity)
    extract(quiet, s, *tree[:8], *copy[:8], copy.info)
    f = int(copy.first[ROOT])
    codes = {int(copy.code[ch]) for ch in range(f, f + int(copy.count[ROOT]))}
    assert int(copy.count[ROOT]) == len(kernel.legal_codes(s)) > kept
    assert codes == set(kernel.legal_codes(s))
    assert _subtree(copy, ROOT)[1 : kept + 1] == _subtree(tree, quiet)[1 : kept + 1]


def test_only_a_search_limited_by_time_alone_starts_from_the_kept_tree() -> None:
    start = State.from_position("express 3 7/7/7/7/7/7/7 o insert 22,22,22 0,0,0 0,0,0")
    s = kernel.from_state(start)
    mcts = Mcts(c=MULTI_PLAYER_C, guard=True, reuse=True)
    _timed(mcts, s, 1)  # remembered as the last root
    mcts.search(s, 2, iterations=3000, movetime_ms=None)  # by iterations: a lone root
    assert mcts.kept_visits == 0
    tree = mcts.tree
    assert tree is not None
    _timed(mcts, s, 3)
    assert mcts.kept_visits == 0  # the search before it was not timed: nothing kept
    tree = mcts.tree
    assert tree is not None
    node = _most_visited(tree, ROOT)
    visits = int(tree.visits[node])
    after = s.copy()
    apply_action(after, int(tree.code[node]))
    _timed(mcts, after, 4)
    assert mcts.kept_visits == visits > 0
    root = mcts.tree
    assert root is not None and int(root.visits[ROOT]) >= visits


def test_a_tree_grown_under_another_contempt_is_not_kept() -> None:
    start = State.from_position("express 3 7/7/7/7/7/7/7 o insert 22,22,22 0,0,0 0,0,0")
    s = kernel.from_state(start)
    mcts = Mcts(c=MULTI_PLAYER_C, guard=True, reuse=True)
    _timed(mcts, s, 1)
    tree = mcts.tree
    assert tree is not None
    after = s.copy()
    apply_action(after, int(tree.code[_most_visited(tree, ROOT)]))
    mcts.contempt = 0.0  # its values count the root seat's draws otherwise
    _timed(mcts, after, 2)
    assert mcts.kept_visits == 0


def test_iteration_limited_searches_repeat_whatever_came_before() -> None:
    s = kernel.from_state(State.from_position(THREAT))
    fresh = Mcts(c=MULTI_PLAYER_C, guard=True, reuse=True).search(s, 5, iterations=2000)
    used = Mcts(c=MULTI_PLAYER_C, guard=True, reuse=True)
    _timed(used, s, 9)
    again = used.search(s, 5, iterations=2000)
    assert again.codes == fresh.codes and again.visits == fresh.visits
    assert np.allclose(again.root_values, fresh.root_values)


def test_a_proven_node_is_searched_from_a_lone_root() -> None:
    # green threatens two lines of four (Bc and Bf): after blue's action orange can stop
    # only one, so the guard proves orange's node lost without making its children
    before = "express 3 7/7/7/7/2g2g1/2g2g1/2g2g1 b insert 22,16,22 0,0,0 0,0,0"
    root = kernel.from_state(State.from_position(before))
    # a tree as large as the timed search below asks for, so that it is kept
    mcts = Mcts(c=MULTI_PLAYER_C, guard=True, reuse=True, max_nodes=50_000)
    mcts.search(root, 1, iterations=3000)
    mcts._last_root = root.copy()  # as a timed search leaves it
    tree = mcts.tree
    assert tree is not None
    f = int(tree.first[ROOT])
    lost = next(
        ch
        for ch in range(f, f + int(tree.count[ROOT]))
        if int(tree.count[ch]) == 0 and int(tree.proof[ch]) != 0 and int(tree.visits[ch]) > 0
    )
    after = root.copy()
    apply_action(after, int(tree.code[lost]))
    result = _timed(mcts, after, 2)
    assert mcts.kept_visits == 0
    assert sorted(result.codes) == sorted(kernel.legal_codes(after))


def test_the_same_position_searched_again_starts_from_its_whole_tree() -> None:
    """A second ``go`` on the position the last one searched (analysis asked twice, a
    search stopped and resumed) goes on from all the first one found (engine.md)."""
    s = kernel.from_state(State.from_position(THREAT))
    mcts = Mcts(c=MULTI_PLAYER_C, guard=True, reuse=True)
    _timed(mcts, s, 1)
    tree = mcts.tree
    assert tree is not None
    first = _subtree(tree, ROOT)
    args = (tree.first, tree.count, tree.code, tree.visits, s)
    assert find_descendant(*args, s.copy(), 4) == ROOT
    _timed(mcts, s, 2)
    assert mcts.kept_visits == first[0][1] > 0
    again = mcts.tree
    assert again is not None and int(again.visits[ROOT]) > first[0][1]
