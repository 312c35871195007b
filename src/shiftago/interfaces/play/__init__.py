"""``shiftago play``: the terminal game (its session, its set-up and its autosave)."""
