"""``python -m shiftago``: the same as the ``shiftago`` command."""

from shiftago.interfaces.cli import main

if __name__ == "__main__":
    main()
