"""A setting's option on the command line, declared beside the field of
:class:`~.settings.Settings` it sets: ``shiftago serve`` and ``shiftago worker`` make
their click options from these (``interfaces/cli/serve.py``). Its help is an English
msgid (``N_``), translated when the command line shows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: The commands whose options are settings.
Command = Literal["serve", "worker"]


@dataclass(frozen=True)
class Option:
    """A setting's option of one command, declared beside the field it sets: the command
    line makes its click option from this. A number's range is ``low`` to ``high``; a
    field whose default is a tuple takes the option repeated (none given: the default)."""

    command: Command
    flag: str
    help: str
    low: float | None = None
    high: float | None = None
    metavar: str | None = None
    #: The environment variable read when the option is not given.
    envvar: str | None = None
    required: bool = False
    #: Not shown by ``--help`` (options for tests).
    hidden: bool = False
    #: The option's default where it is not the field's.
    default: float | None = None
    #: What the command line checks the text for: the site's root URL, an address or
    #: network (or ``*``), a host name with an optional port, or a Redis URL.
    check: Literal["url", "address", "host", "redis"] | None = None
    #: The value is the path of a file.
    file: bool = False


def settings_field(*declared: Option) -> dict[str, tuple[Option, ...]]:
    """A field's metadata: its options, one per command that has one."""
    return {"options": declared}
