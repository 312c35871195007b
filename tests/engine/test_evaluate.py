"""The static evaluations of the 2-player search: the window counts, the cell classes and
the opponent's wins at once checked against plain coordinate counts, the core's rules and
hand-counted positions, the tuned value as the sum of its weighted terms, and which
levels use which evaluation."""

from __future__ import annotations

import numpy as np
import pytest

from shiftago.core import Action, Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.bench import middle_game_positions
from shiftago.engine.kernel.moves import occupied
from shiftago.engine.kernel.tables import BOARD, TURN
from shiftago.engine.levels import LEVELS, bot_for_level
from shiftago.engine.search import MAX_HEURISTIC, WIN, Searcher, evaluate
from shiftago.engine.search.evaluate import (
    CELL_CLASSES,
    TUNED_CELL,
    TUNED_DOUBLE,
    TUNED_EXPRESS,
    TUNED_MINE,
    TUNED_TEMPO,
    TUNED_THEIRS,
    TUNED_THREAT,
    XW_TEMPO,
    immediate_win,
    tuned_express,
    tuned_points,
    window_counts,
    winning_insertions,
)
from shiftago.engine.search.network import NO_NETWORK

MUST_BLOCK = "express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0"
WIN_IN_3 = "express 2 gog1ooo/1g5/og5/go3gg/oogoggg/o5g/1o2g1o o insert 10,9 0,0 0,0"


def cells(board: int) -> set[tuple[int, int]]:
    return {(f, r) for f in range(7) for r in range(7) if board >> (8 * r + f) & 1}


def coordinate_window_counts(me: int, op: int) -> tuple[int, int, int, int]:
    """Open windows of five by the marbles of ``me`` in them, from coordinates."""
    mine, theirs = cells(me), cells(op)
    counts = [0] * 5
    for file in range(7):
        for rank in range(7):
            for df, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                window = [(file + k * df, rank + k * dr) for k in range(5)]
                if not all(0 <= f < 7 and 0 <= r < 7 for f, r in window):
                    continue
                if not any(c in theirs for c in window):
                    counts[sum(c in mine for c in window)] += 1
    return counts[1], counts[2], counts[3], counts[4]


def positions(count: int, seed: int) -> list[np.ndarray]:
    return list(middle_game_positions(count, seed=seed))


def test_window_counts_match_a_coordinate_count() -> None:
    for s in positions(30, seed=3):
        a, b = int(s[BOARD]), int(s[BOARD + 1])
        assert window_counts(np.uint64(a), np.uint64(b)) == coordinate_window_counts(a, b)
        assert window_counts(np.uint64(b), np.uint64(a)) == coordinate_window_counts(b, a)


def symmetries(f: int, r: int) -> set[tuple[int, int]]:
    images = set()
    for _ in range(4):
        f, r = r, 6 - f  # a quarter turn
        images |= {(f, r), (6 - f, r)}  # and its mirror image
    return images


def test_cell_classes_split_the_board_into_cells_alike_under_its_symmetries() -> None:
    classes = [cells(int(mask)) for mask in CELL_CLASSES]
    assert sum(len(c) for c in classes) == 49
    assert set().union(*classes) == {(f, r) for f in range(7) for r in range(7)}
    for members in classes:
        f, r = next(iter(members))
        assert members == symmetries(f, r)  # a whole orbit, and nothing else
    assert classes[0] == {(3, 3)} and len(classes[-1]) == 4  # the centre; the corners


def test_winning_insertions_agree_with_the_rules() -> None:
    """The opponent's wins at once, counted by the kernel, are the insertions after which
    the core says it has won, had it the turn."""
    for s in positions(40, seed=5):
        mover = int(s[TURN])
        fields = kernel.to_position(s).split()
        fields[3] = "og"[1 - mover]  # the same board, the opponent to act
        other = State.from_position(" ".join(fields))
        winning = [
            a
            for a in other.legal_actions()
            if (o := other.after(a).outcome) and o.winners == (1 - mover,)
        ]
        found = winning_insertions(s[BOARD + 1 - mover], occupied(s), 28)
        assert found == len(winning)
        assert winning_insertions(s[BOARD + 1 - mover], occupied(s), 1) == min(found, 1)


def tuned_value(me: int, op: int, their_wins: int) -> int:
    """The tuned value summed from coordinate counts, the opponent having ``their_wins``
    winning insertions."""
    value = TUNED_TEMPO
    mine = coordinate_window_counts(me, op)
    theirs = coordinate_window_counts(op, me)
    value += sum(int(TUNED_MINE[k + 1]) * mine[k] for k in range(4))
    value += sum(int(TUNED_THEIRS[k + 1]) * theirs[k] for k in range(4))
    for c, mask in enumerate(CELL_CLASSES):
        value += int(TUNED_CELL[c]) * (len(cells(me & int(mask))) - len(cells(op & int(mask))))
    if their_wins >= 1:
        value += TUNED_THREAT
    if their_wins >= 2:
        value += TUNED_DOUBLE
    return value


def test_the_tuned_value_is_the_sum_of_its_weighted_terms() -> None:
    seen = set()
    for s in positions(60, seed=9):
        if immediate_win(s):
            continue
        mover = int(s[TURN])
        me, op = int(s[BOARD + mover]), int(s[BOARD + 1 - mover])
        wins = winning_insertions(np.uint64(op), occupied(s), 28)
        seen.add(min(wins, 2))
        expected = tuned_value(me, op, wins)
        assert tuned_express(np.uint64(me), np.uint64(op), occupied(s), TUNED_EXPRESS) == expected
        assert evaluate(s, True, TUNED_EXPRESS, NO_NETWORK) == max(
            -MAX_HEURISTIC, min(MAX_HEURISTIC, expected)
        )
    assert seen == {0, 1, 2}


@pytest.mark.parametrize(
    ("board", "their_wins"),
    [
        ("7/7/7/7/7/7/7", 0),
        ("7/7/7/1ggg3/7/7/7", 0),  # three in a row: no win at once
        ("7/7/7/1gggg2/7/7/7", 1),  # a four in the middle: only L4 (the right end is far)
        ("7/1gggg2/7/1gggg2/7/7/7", 2),  # two such fours: L4 and L6
        ("7/7/7/7/7/7/1gggg2", 3),  # a four on the edge: L1, Ba and Bf
    ],
)
def test_the_tuned_value_counts_one_winning_insertion_and_two_or_more(
    board: str, their_wins: int
) -> None:
    """Hand-counted wins at once of the opponent (g): one costs the threat's weight, two
    or more the double threat's too."""
    marbles = board.count("g")
    s = kernel.from_state(
        State.from_position(f"express 2 {board} o insert 22,{22 - marbles} 0,0 0,0")
    )
    me, op = int(s[BOARD]), int(s[BOARD + 1])
    assert winning_insertions(np.uint64(op), occupied(s), 28) == their_wins
    expected = tuned_value(me, op, their_wins)
    assert tuned_express(np.uint64(me), np.uint64(op), occupied(s), TUNED_EXPRESS) == expected
    assert evaluate(s, True, TUNED_EXPRESS, NO_NETWORK) == expected


@pytest.mark.parametrize("variant", [Variant.EXPERT, Variant.EXTREME])
def test_expert_and_extreme_have_a_tuned_evaluation_of_their_own(variant: Variant) -> None:
    s = kernel.from_state(State.initial(Rules(variant, 2), 0))
    for code in (0, 9, 15, 22, 3):
        kernel.apply_action(s, code)
        assert evaluate(s, True, TUNED_EXPRESS, NO_NETWORK) == max(
            -MAX_HEURISTIC, min(MAX_HEURISTIC, tuned_points(s))
        )


def test_only_the_top_level_uses_the_tuned_evaluation() -> None:
    """The levels below keep the evaluation their ladder figures were measured with."""
    tuned = [n for n, _ in LEVELS[2:] if bot_for_level(n, 1).for_rules(Rules()).tuned]
    assert tuned == [LEVELS[-1][0]]


def test_a_tuned_search_finds_wins_and_blocks() -> None:
    s = kernel.from_state(State.from_position(WIN_IN_3))
    result = Searcher(reductions=True, tuned=True).search(s, kernel.legal_codes(s), depth=5)
    assert result.values[0] == WIN - 5
    s = kernel.from_state(State.from_position(MUST_BLOCK))
    result = Searcher(reductions=True, tuned=True).search(s, kernel.legal_codes(s), depth=4)
    assert kernel.action_text(result.codes[0], 2) in {"Bb", "Bc", "Bd", "Be"}
    assert isinstance(kernel.to_action(result.codes[0], 2), Action)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_search_values_its_leaves_by_the_weights_it_is_given(threads: int) -> None:
    """Weights of a tempo alone (a tuning run's kind of vector) and no network value
    every quiet leaf alike: four actions deep, each root action not proven won or lost
    is worth the tempo (the leaves' seat to act is the root's), also where a helper
    thread searches too."""
    tempo_only = np.zeros_like(TUNED_EXPRESS)
    tempo_only[XW_TEMPO] = 7
    s = positions(1, seed=3)[0]
    codes = kernel.legal_codes(s)
    searcher = Searcher(
        reductions=True, tuned=True, express_weights=tempo_only, express_network=NO_NETWORK
    )
    result = searcher.search(s, codes, depth=4, exact_all=True, threads=threads)
    quiet = [v for v in result.values if abs(v) <= MAX_HEURISTIC]
    assert len(quiet) > len(codes) // 2 and set(quiet) == {7}
    tuned = Searcher(reductions=True, tuned=True).search(s, codes, depth=1, exact_all=True)
    assert len(set(tuned.values)) > 1  # the engine's own weights tell the actions apart
