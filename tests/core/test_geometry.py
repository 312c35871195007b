"""The bitboard layout and its tables (DESIGN.md: one layout, defined once)."""

from __future__ import annotations

import pytest

from shiftago.core import geometry as g


def bits(*names: str) -> int:
    return sum(1 << g.CELL_BY_NAME[n] for n in names)


def test_cell_layout_is_eight_bits_per_rank() -> None:
    assert g.CELL_BY_NAME["a1"] == 0
    assert g.CELL_BY_NAME["g1"] == 6
    assert g.CELL_BY_NAME["a2"] == 8
    assert g.CELL_BY_NAME["g7"] == 54
    assert len(g.CELLS) == 49
    assert g.BOARD_MASK & sum(1 << (8 * r + 7) for r in range(7)) == 0


@pytest.mark.parametrize(
    ("name", "entry", "last"),
    [("L3", "a3", "g3"), ("R3", "g3", "a3"), ("Tc", "c7", "c1"), ("Bc", "c1", "c7")],
)
def test_insertion_tables_enter_at_the_edge(name: str, entry: str, last: str) -> None:
    index = g.INSERTION_NAMES.index(name)
    cells = g.LANE_CELLS[index]
    assert g.cell_name(cells[0]) == entry and g.cell_name(cells[-1]) == last
    assert g.ENTRY_CELLS[index] == cells[0]


def test_push_run_is_the_contiguous_run_from_the_entry() -> None:
    index = g.INSERTION_NAMES.index("L3")
    occupied = bits("a3", "b3", "d3", "e3")
    assert g.push_run(index, occupied) == bits("a3", "b3")
    assert g.push_run(index, bits("b3")) == 0
    full = bits(*(f + "3" for f in g.FILES))
    assert g.push_run(index, full) == -1


@pytest.mark.parametrize(
    ("cells", "length", "expected"),
    [
        (("a1", "b1", "c1", "d1", "e1"), 5, True),
        (("a1", "b1", "c1", "d1"), 5, False),
        (("g1", "a2", "b2", "c2", "d2"), 5, False),  # no wrap from g1 onto a2
        (("a1", "b2", "c3", "d4"), 4, True),
        (("g1", "f2", "e3", "d4", "c5", "b6", "a7"), 7, True),
        (("c1", "c2", "c3"), 3, True),
        (("f1", "g2", "a4"), 3, False),
    ],
)
def test_has_run(cells: tuple[str, ...], length: int, expected: bool) -> None:
    assert g.has_run(bits(*cells), length) is expected


def test_runs_are_maximal_and_taken_at_full_length() -> None:
    board = bits("a1", "b1", "c1", "d1", "e1", "f1", "a2", "a3")
    found = g.runs(board, 3)
    assert [tuple(g.cell_name(c) for c in r) for r in found] == [
        ("a1", "b1", "c1", "d1", "e1", "f1"),
        ("a1", "a2", "a3"),
    ]


def test_orthogonal_adjacency_ignores_diagonals() -> None:
    assert not g.orthogonally_adjacent(bits("a1", "b2", "c3"))
    assert g.orthogonally_adjacent(bits("a1", "a2"))
    assert not g.orthogonally_adjacent(bits("g1", "a2"))


def test_an_index_that_names_no_cell_is_refused_with_the_layout() -> None:
    """Cells are 8 * rank + file: 7 is past g1, where a bare KeyError said nothing."""
    assert g.cell_name(54) == "g7" and g.cell_name(8) == "a2"
    for wrong in (7, 55, -1, 63):
        with pytest.raises(ValueError, match="8 \\* rank \\+ file"):
            g.cell_name(wrong)
