"""Actions and their notation: insertions (``L3``, ``Tc``) and scorings (``xc3-g3``)."""

from __future__ import annotations

from functools import lru_cache

from shiftago.core.errors import ParseError
from shiftago.core.geometry import CELL_BY_NAME, CELL_NAMES, INSERTION_NAMES


class Action:
    """An insertion or a scoring. Parse text with :meth:`Action.parse`.

    Actions are immutable values: copying one gives the action itself, and pickling
    rebuilds it through its constructor (its attributes cannot be set afterwards).
    """

    __slots__ = ()

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action in any accepted spelling (case and surrounding spaces ignored)."""
        if not isinstance(text, str):
            raise ParseError("an action is text such as L3 or xc3-g3, not {text}", text=repr(text))
        return _parse(text)


class Insertion(Action):
    """Push a marble into lane ``index`` (0-27, canonical order L1..L7 R1..R7 Ta..Tg Ba..Bg)."""

    __slots__ = ("index",)
    index: int

    def __init__(self, index: int) -> None:
        if not 0 <= index < 28:
            raise ValueError(f"an insertion index is 0-27, not {index}")
        object.__setattr__(self, "index", index)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (insertion, (self.index,))

    @property
    def side(self) -> str:
        """``L``, ``R``, ``T`` or ``B``: the edge the marble enters from."""
        return "LRTB"[self.index // 7]

    @property
    def lane(self) -> int:
        """Zero-based rank (for L and R) or file (for T and B) of the lane."""
        return self.index % 7

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Insertion) and other.index == self.index

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Action) -> bool:
        return sort_key(self) < sort_key(other)

    def __str__(self) -> str:
        return INSERTION_NAMES[self.index]

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


class Scoring(Action):
    """Score the line between two end cells.

    With 3-4 players ``keep`` is the end marble that stays on the board; with 2 players
    both ends stay and the canonical form names the alphabetically smaller cell first.
    """

    __slots__ = ("keep", "other")
    keep: int
    other: int

    def __init__(self, keep: int, other: int) -> None:
        if keep not in CELL_NAMES or other not in CELL_NAMES or keep == other:
            raise ValueError("a scoring names two different cells")
        object.__setattr__(self, "keep", keep)
        object.__setattr__(self, "other", other)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (Scoring, (self.keep, self.other))

    @property
    def ends(self) -> frozenset[int]:
        """The line's two end cells, whichever of them is kept."""
        return frozenset((self.keep, self.other))

    def canonical_for_two(self) -> Scoring:
        """The 2-player spelling: the alphabetically smaller cell first."""
        a, b = CELL_NAMES[self.keep], CELL_NAMES[self.other]
        return self if a < b else Scoring(self.other, self.keep)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scoring) and other.keep == self.keep and other.other == self.other

    def __hash__(self) -> int:
        return 28 + 64 * self.keep + self.other

    def __lt__(self, other: Action) -> bool:
        return sort_key(self) < sort_key(other)

    def __str__(self) -> str:
        return f"x{CELL_NAMES[self.keep]}-{CELL_NAMES[self.other]}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


#: The 28 insertions in canonical order, shared so that play allocates nothing.
INSERTIONS: tuple[Insertion, ...] = tuple(Insertion(i) for i in range(28))


def insertion(index: int) -> Insertion:
    """The shared insertion of lane ``index`` (what an unpickled insertion becomes)."""
    if type(index) is not int or not 0 <= index < 28:
        raise ValueError(f"an insertion index is 0-27, not {index!r}")
    return INSERTIONS[index]


_INSERTION_BY_NAME = {name.lower(): INSERTIONS[i] for i, name in enumerate(INSERTION_NAMES)}


def sort_key(action: Action) -> tuple[int, str]:
    """Canonical order: the 28 insertions first, then scorings sorted as strings."""
    if isinstance(action, Insertion):
        return (action.index, "")
    return (28, str(action))


def parse_cell(text: str) -> int:
    """The bit index of a cell name such as ``c4`` (case and spaces ignored)."""
    cell = CELL_BY_NAME.get(text.strip().lower())
    if cell is None:
        raise ParseError(
            "{text} is not a cell: expected a file a-g and a rank 1-7", text=repr(text.strip())
        )
    return cell


@lru_cache(maxsize=4096)
def _parse(text: str) -> Action:
    word = text.strip().lower()
    insertion = _INSERTION_BY_NAME.get(word)
    if insertion is not None:
        return insertion
    if word.startswith("x") and "-" in word and not any(c.isspace() for c in word):
        first, _, second = word[1:].partition("-")
        keep, other = parse_cell(first), parse_cell(second)
        if keep == other:
            raise ParseError(
                "{text}: a scoring names two different end cells", text=repr(text.strip())
            )
        return Scoring(keep, other)
    raise ParseError(
        "{text} is not an action: an insertion is a side L, R, T or B and a "
        "lane (L3, Tc), a scoring is x and the two end cells of the line (xc3-g3)",
        text=repr(text.strip()),
    )
