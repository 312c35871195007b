"""``shiftago tui``: the game in a Textual app at the terminal (board, mouse, engine)."""
