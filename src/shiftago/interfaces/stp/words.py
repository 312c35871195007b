"""Reading a command line of the engine protocol: its id, name and words, ``key=value``
options and whole numbers, each refused with a :class:`CommandError` that says why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class CommandError(ValueError):
    """A command that cannot be carried out; its text is the ``?`` payload."""


@dataclass(frozen=True)
class CommandLine:
    """One command line split into its parts: the optional id (``""`` when none), the
    command name in lower case (``""`` when the line holds an id only), its argument
    words, and ``rest``, the text after the name (for ``setposition``).

    >>> CommandLine.parse("12 SetPosition expert 2 ...")
    CommandLine(ident='12', name='setposition', args=('expert', '2', '...'), rest='expert 2 ...')
    >>> CommandLine.parse("  # a comment") is None
    True
    """

    ident: str
    name: str
    args: tuple[str, ...]
    rest: str

    @classmethod
    def parse(cls, line: str) -> CommandLine | None:
        """The parts of ``line``, or None for a line the protocol ignores (empty, or a
        ``#`` comment)."""
        text = line.rstrip("\r\n").strip()
        if not text or text.startswith("#"):
            return None
        words = text.split()
        ident = words.pop(0) if is_number(words[0]) else ""
        if not words:
            return cls(ident, "", (), "")
        rest = text.split(None, 2 if ident else 1)[-1] if len(words) > 1 else ""
        return cls(ident, words[0].lower(), tuple(words[1:]), rest)


def is_number(word: str) -> bool:
    """Whether ``word`` is digits only (no sign, no other script's digits)."""
    return word.isascii() and word.isdigit()


#: The longest range of whole numbers that a refusal names whole.
SHORT_RANGE = 1_000_000


def whole_number(text: str, what: str, *, lowest: int, highest: int | None = None) -> int:
    """``text`` as a whole number from ``lowest`` to ``highest`` (if given); else a
    :class:`CommandError` that names ``what``."""

    def bounds(passed: str) -> str:
        """A short range said whole (``0 to 6``), a long one by the end ``passed``."""
        if highest is not None and highest <= SHORT_RANGE:
            return f"{lowest} to {highest}"
        return f"at least {lowest}" if passed == "lowest" else f"at most {highest}"

    negative = text.startswith("-") and is_number(text[1:])  # read, then held to the range
    if not (is_number(text) or negative):
        raise CommandError(f"{what} must be a whole number, not {text!r}")
    digits = len(text.lstrip("-").lstrip("0"))
    if digits > 30:  # not worth reading in full: far out of any range
        if highest is None and not negative:
            raise CommandError(f"{what} is far too large: a number of {digits} digits")
        passed = "lowest" if negative else "highest"
        raise CommandError(f"{what} must be {bounds(passed)}, not a number of {digits} digits")
    value = int(text)
    if value < lowest:
        raise CommandError(f"{what} must be {bounds('lowest')}, not {value}")
    if highest is not None and value > highest:
        raise CommandError(f"{what} must be {bounds('highest')}, not {value}")
    return value


def no_arguments(command: str, args: Sequence[str]) -> None:
    """Refuse arguments to a command that takes none."""
    if args:
        raise CommandError(f"{command} takes no arguments, got {' '.join(args)!r}")


def key_values(
    args: Sequence[str], known: tuple[str, ...], command: str, flags: tuple[str, ...] = ()
) -> tuple[dict[str, str], set[str]]:
    """``key=value`` words as a dict and bare ``flags`` words as a set (keys and flags
    in any case), refusing unknown, repeated and empty options."""
    options: dict[str, str] = {}
    given: set[str] = set()
    for word in args:
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep and key in flags:
            if key in given:
                raise CommandError(f"{key} given twice")
            given.add(key)
            continue
        if not sep or key not in known:
            allowed = " ".join([f"{k}=" for k in known] + list(flags))
            raise CommandError(f"unknown option for {command}: {word!r} (allowed: {allowed})")
        if key in options:
            raise CommandError(f"option {key}= given twice")
        if not value:
            raise CommandError(f"option {key}= needs a value")
        options[key] = value
    return options, given
