"""How each variant is played, in short (RULES.md), paragraph by paragraph: what the
terminal app's help (F1) and the line game's ``rules`` say, each beside its own words
for how an action is entered there."""

from __future__ import annotations

from typing import Final

from shiftago.interfaces.shared.catalogues import N_

#: Each variant's goal and, in Expert and Extreme, its scoring.
VARIANT_RULES: Final = (
    N_(
        "Express: the first to have a line of 5 of their colour (4 with 3 or 4 players), "
        "in a row, a column or a diagonal, wins."
    ),
    N_(
        "Expert: a line of 5 or more (4 or more with 3 or 4 players) must be scored: type x "
        "and its two ends, such as xa1-e1. Its marbles go back to your supply but its two "
        "ends (with 3 or 4 players, but the end you name first), you gain points by its "
        "length (5: 2, 6: 5, 7: 10; with 3 or 4 players 4: 2, 5: 5, 6: 8, 7: 10), and you "
        "move again. The first to 10 points wins."
    ),
    N_(
        "Extreme: as Expert, and a line one shorter must be scored too, for 0 points: its "
        "marbles come off all the same, and you move again."
    ),
)
