"""Board geometry: cells, lanes, insertion tables and line detection on bitboards.

The one bitboard layout of the project: one integer per colour, 8 bits per rank
(files a-g, then an always-empty guard bit so that shifts cannot wrap between ranks),
cell bit ``8 * rank_index + file_index``. Every table here is computed once at import.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SIZE: Final = 7
FILES: Final = "abcdefg"
RANKS: Final = "1234567"

#: All 49 cells as bit indices, in order a1, b1, ..., g1, a2, ..., g7.
CELLS: Final[tuple[int, ...]] = tuple(8 * r + f for r in range(SIZE) for f in range(SIZE))
#: Mask of every real cell (guard bits excluded).
BOARD_MASK: Final = sum(1 << c for c in CELLS)

#: Rank masks (index 0 is rank 1) and file masks (index 0 is file a).
RANK_MASKS: Final[tuple[int, ...]] = tuple(0x7F << (8 * r) for r in range(SIZE))
FILE_MASKS: Final[tuple[int, ...]] = tuple(
    sum(1 << (8 * r + f) for r in range(SIZE)) for f in range(SIZE)
)

#: Bit-index steps of the four line directions: east, north, north-east, north-west.
DIRECTIONS: Final[tuple[int, ...]] = (1, 8, 9, 7)

CELL_NAMES: Final[dict[int, str]] = {c: FILES[c % 8] + RANKS[c // 8] for c in CELLS}
CELL_BY_NAME: Final[dict[str, int]] = {name: c for c, name in CELL_NAMES.items()}


def cell_name(cell: int) -> str:
    """The name of a cell bit index, such as ``c4`` (the index is ``8 * rank + file``,
    both from 0: ``g7`` is 54, and 7, 15, ... name no cell)."""
    try:
        return CELL_NAMES[cell]
    except (KeyError, TypeError):
        raise ValueError(
            f"{cell!r} is no cell index: a cell is 8 * rank + file, both 0-6 (a1 0, g7 54)"
        ) from None


def cell_of(file_index: int, rank_index: int) -> int:
    """The bit index of the cell at zero-based file and rank."""
    return 8 * rank_index + file_index


def file_index(cell: int) -> int:
    return cell % 8


def rank_index(cell: int) -> int:
    return cell // 8


def union(boards: Iterable[int]) -> int:
    """The cells that any of ``boards`` holds (the occupied cells of a position)."""
    occupied = 0
    for board in boards:
        occupied |= board
    return occupied


def iter_bits(bits: int) -> list[int]:
    """The indices of the set bits of ``bits``, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


# --- Insertions -------------------------------------------------------------------
#: Sides in canonical order: Left (push east), Right (push west), Top (push south),
#: Bottom (push north).
SIDES: Final = "LRTB"

#: For each of the 28 insertions in canonical order (L1..L7, R1..R7, Ta..Tg, Ba..Bg):
INSERTION_NAMES: Final[tuple[str, ...]] = tuple(
    [f"L{r + 1}" for r in range(SIZE)]
    + [f"R{r + 1}" for r in range(SIZE)]
    + [f"T{FILES[f]}" for f in range(SIZE)]
    + [f"B{FILES[f]}" for f in range(SIZE)]
)
#: the mask of the lane's seven cells,
LANE_MASKS: Final[tuple[int, ...]] = RANK_MASKS + RANK_MASKS + FILE_MASKS + FILE_MASKS
#: the cell where the marble enters,
ENTRY_CELLS: Final[tuple[int, ...]] = tuple(
    [cell_of(0, r) for r in range(SIZE)]
    + [cell_of(6, r) for r in range(SIZE)]
    + [cell_of(f, 6) for f in range(SIZE)]
    + [cell_of(f, 0) for f in range(SIZE)]
)
#: the push step in bit indices (positive: towards higher bits),
PUSH_STEPS: Final[tuple[int, ...]] = (1,) * 7 + (-1,) * 7 + (-8,) * 7 + (8,) * 7
#: the lane's cells in push order, entry cell first.
LANE_CELLS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(ENTRY_CELLS[i] + k * PUSH_STEPS[i] for k in range(SIZE)) for i in range(28)
)


def push_run(index: int, occupied: int) -> int:
    """The mask of the marbles that insertion ``index`` moves one cell along its lane.

    That is the contiguous run of occupied cells starting at the entry cell. Returns -1
    when the lane is full (the insertion is illegal).
    """
    mask = LANE_MASKS[index]
    free = mask & ~occupied
    if not free:
        return -1
    if PUSH_STEPS[index] > 0:
        first_empty = free & -free
        return (first_empty - 1) & mask
    first_empty = 1 << (free.bit_length() - 1)
    return mask & ~((first_empty << 1) - 1)


def shifted(bits: int, step: int) -> int:
    """``bits`` moved ``step`` bit indices (positive: towards higher bits)."""
    return bits << step if step > 0 else bits >> -step


# --- Lines ------------------------------------------------------------------------
def has_run(bits: int, length: int) -> bool:
    """Whether ``bits`` holds a straight run of at least ``length`` cells (3 to 7)."""
    for d in DIRECTIONS:
        two = bits & (bits >> d)
        if length == 3:
            m = two & (bits >> (2 * d))
        elif length == 4:
            m = two & (two >> (2 * d))
        elif length == 5:
            m = two & (two >> (2 * d)) & (bits >> (4 * d))
        else:
            m = bits
            for k in range(1, length):
                m &= bits >> (k * d)
        if m:
            return True
    return False


def runs(bits: int, min_length: int) -> list[tuple[int, ...]]:
    """Every maximal straight run in ``bits`` of at least ``min_length`` cells.

    Each run is a tuple of cells from its lowest to its highest bit; the list is in
    direction order (east, north, north-east, north-west), then by first cell.
    """
    found: list[tuple[int, ...]] = []
    for d in DIRECTIONS:
        # A run starts at a cell whose predecessor (cell - d) is not set; guard bits
        # are never set, so the predecessor test cannot wrap around an edge.
        starts = bits & ~(bits << d)
        for start in iter_bits(starts):
            cells = [start]
            cell = start + d
            while (bits >> cell) & 1:
                cells.append(cell)
                cell += d
            if len(cells) >= min_length:
                found.append(tuple(cells))
    return found


def orthogonally_adjacent(bits: int) -> bool:
    """Whether any two cells of ``bits`` touch along a rank or a file."""
    return bool(bits & (bits << 1)) or bool(bits & (bits << 8))
