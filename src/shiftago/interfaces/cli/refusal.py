"""How a command refuses its input: as Click refuses a bad option, so that every refusal
of the command line reads alike (``Error: ...`` in the terminal's language)."""

from __future__ import annotations

import click


class InputRefused(click.ClickException):
    """A target, record or position the command cannot use: exit status 2, as a usage
    error's (docs/cli.md), where a failure of the work itself exits 1."""

    exit_code = 2
