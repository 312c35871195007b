"""The command line's words in the terminal's language: its help, its errors and Click's.

The commands are built when the package is imported, before the language is known, so
their help texts stay English (marked with ``N_`` for the catalogues) and are translated
when Click reads them, by the classes here (:func:`option`, :func:`command`,
:func:`group`). Click's own words ("Usage:", "Error: ...") go through Python's
``gettext`` module: :func:`use_terminal_language` compiles the chosen language's
catalogue to a ``.mo`` file once (in the user's cache) and makes it gettext's domain,
so Click finds them there; the msgids of Click that a person can meet are listed in
:data:`CLICK_WORDS` so that the catalogues hold them.
"""

from __future__ import annotations

import copy
import gettext
import hashlib
import inspect
import io
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final, TypeVar

import click

from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.shared.catalogues import (
    DEFAULT,
    DOMAIN,
    LANGUAGES,
    N_,
    N_plural,
)

FC = TypeVar("FC", bound=Callable[..., Any])


#: The help of Click's ``--help`` option, Click's msgid.
HELP_OPTION_HELP: Final = "Show this message and exit."
#: Click's placeholder of the options in a usage line.
OPTIONS_METAVAR: Final = N_("[OPTIONS]")


def translated(text: str | None) -> str | None:
    """``text`` (a help text as Click keeps it) in the terminal's language."""
    if not text:
        return text
    return catalogues._(inspect.cleandoc(text))


class TranslatedText:
    """A text attribute (``help``, ``short_help``) kept as Click is given it, an English
    msgid, and read in the terminal's language."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> str | None:
        if instance is None:
            return None
        raw: str | None = instance.__dict__.get(self.name)
        return translated(raw)

    def __set__(self, instance: object, value: str | None) -> None:
        instance.__dict__[self.name] = value


#: Click's names of the kinds of value, in its refusals ("'x' is not a valid integer
#: range") and as the placeholders of the help (INTEGER RANGE): English msgids.
TYPE_NAMES: Final = (N_("integer"), N_("integer range"), N_("float"), N_("float range"))


class _SaidName:
    """The ``name`` of one of Click's number types, read in the terminal's language
    (Click reads it when it refuses a value, and upper-cases it for the help)."""

    def __get__(self, instance: object, owner: type | None = None) -> str:
        english: str = vars(owner or type(instance))["english"]
        return catalogues._(english)


class TranslatedPath(click.Path):
    """A path parameter whose kind in Click's refusals ("File ... is a directory") is
    read in the terminal's language: Click names the kind once, when the option is made
    at import, before ``--lang`` is read."""

    name = TranslatedText()  # type: ignore[assignment]


#: Click's number types, each with a subclass whose name is read as :class:`_SaidName`
#: says (its English name, one of :data:`TYPE_NAMES`, kept as ``english``), and its
#: path type with :class:`TranslatedPath`.
_TRANSLATED_TYPES: Final[dict[type, type]] = {
    **{
        base: type(
            f"Translated{base.__name__}", (base,), {"english": base.name, "name": _SaidName()}
        )
        for base in (
            click.types.IntParamType,
            click.IntRange,
            click.types.FloatParamType,
            click.FloatRange,
        )
    },
    click.Path: TranslatedPath,
}


def translated_type(kind: click.ParamType) -> click.ParamType:  # type: ignore[type-arg]
    """``kind`` with its name said in the terminal's language where it is one of Click's
    number or path types (a copy: ``click.INT`` is shared), else ``kind`` itself."""
    translated = _TRANSLATED_TYPES.get(type(kind))
    if translated is None:
        return kind
    made = copy.copy(kind)
    made.__class__ = translated
    return made


class TranslatedOption(click.Option):
    """An option whose help, placeholder (``metavar``, an English msgid where it is a
    word: ``N_("FILE")``) and kind of value are read in the terminal's language."""

    help = TranslatedText()
    metavar = TranslatedText()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.type = translated_type(self.type)


class TranslatedArgument(click.Argument):
    """An argument whose placeholder and kind of value are read in the terminal's
    language."""

    metavar = TranslatedText()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.type = translated_type(self.type)


class TranslatedCommand(click.Command):
    """A command whose help and short help are read in the terminal's language."""

    help = TranslatedText()
    short_help = TranslatedText()

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        """The usage line's pieces, Click's ``[OPTIONS]`` in the terminal's language."""
        pieces = super().collect_usage_pieces(ctx)
        return [catalogues._(OPTIONS_METAVAR) if p == OPTIONS_METAVAR else p for p in pieces]

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        """Click's help option, its help in the language of now: Click makes the option
        once per command, in the language of that moment."""
        found = super().get_help_option(ctx)
        if found is not None:
            found.help = gettext.gettext(HELP_OPTION_HELP)
        return found


class TranslatedGroup(TranslatedCommand, click.Group):
    """A group of commands (:class:`TranslatedCommand`) whose own words are translated,
    the usage line's ``COMMAND [ARGS]...`` too."""

    subcommand_metavar = TranslatedText()  # type: ignore[assignment]

    command_class = TranslatedCommand


TranslatedGroup.group_class = TranslatedGroup


def option(*decls: str, **attrs: Any) -> Callable[[FC], FC]:
    """``click.option`` whose ``help`` (an English msgid, ``N_``) is translated."""
    return click.option(*decls, cls=TranslatedOption, **attrs)


def argument(*decls: str, **attrs: Any) -> Callable[[FC], FC]:
    """``click.argument`` whose kind of value is said in the terminal's language."""
    return click.argument(*decls, cls=TranslatedArgument, **attrs)


def command(name: str | None = None, **attrs: Any) -> Callable[[Callable[..., Any]], click.Command]:
    """``click.command`` whose ``help`` and ``short_help`` are translated; the help is
    given as ``help=N_(...)``, not taken from the docstring (the catalogues read only
    marked strings)."""
    return click.command(name, cls=TranslatedCommand, **attrs)


def group(name: str | None = None, **attrs: Any) -> Callable[[Callable[..., Any]], click.Group]:
    """``click.group`` whose words and its commands' are translated."""
    made: Callable[[Callable[..., Any]], click.Group] = click.group(
        name, cls=TranslatedGroup, **attrs
    )
    return made


#: Click's messages that a person can meet (its help page, its usage errors), exactly as
#: Click writes them, so that ``pybabel extract`` puts them in the catalogues; a test
#: checks that Click still has each.
CLICK_WORDS: Final = (
    N_("COMMAND [ARGS]..."),
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Show this message and exit."),
    N_("Show the version and exit."),
    N_("%(prog)s, version %(version)s"),
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Aborted!"),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("No such option {name!r}."),
    N_("Option {name!r} does not take a value."),
    N_plural("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    N_plural(
        "Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."
    ),
    N_plural("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
    N_plural("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing {param_type}"),
    N_("Missing parameter: {param_name}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Invalid value: {message}"),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
    N_("Choose from:\n\t{choices}"),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("{value} is not in the range {range}."),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."),
    N_("{name} {filename!r} is not executable."),
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("Could not open file {filename!r}: {message}"),
    N_("Repeat for confirmation"),
    N_("Error: The two entered values do not match."),
)


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "shiftago" / "locale"


def compiled_catalogue(lang: str, folder: Path | None = None) -> Path | None:
    """The folder of ``lang``'s catalogue compiled for gettext
    (``<folder>/<lang>/LC_MESSAGES/shiftago.mo``), made once per version of the ``.po``
    in the user's cache (else the temporary directory); None when ``lang`` has no
    catalogue in ``folder`` (the package's catalogues by default)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    source = (folder or catalogues.LOCALE_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    try:
        data = source.read_bytes()
    except OSError:
        return None
    digest = hashlib.sha256(data).hexdigest()[:16]
    for root in (_cache_root(), Path(tempfile.gettempdir()) / "shiftago-locale"):
        compiled = root / digest
        target = compiled / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if target.exists():
            return compiled
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            catalog = read_po(io.BytesIO(data), locale=lang, domain=DOMAIN)
            partial = target.with_suffix(f".{os.getpid()}.tmp")
            with partial.open("wb") as file:
                write_mo(file, catalog)
            partial.replace(target)  # whole or not at all, should two commands race
            return compiled
        except OSError:
            continue
    return None


def use_terminal_language(environ: Mapping[str, str] = os.environ) -> str:
    """Make the terminal's language (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``: :func:`~shiftago.interfaces.shared.catalogues.terminal_language`) that of
    the command line's words and of Click's; English needs nothing read. Returns it."""
    lang = catalogues.terminal_language(None, environ, LANGUAGES)
    use(lang)
    return lang


def use(lang: str) -> None:
    """Make ``lang`` the language of the command line's words and of Click's."""
    compiled = None if lang == DEFAULT else compiled_catalogue(lang)
    if compiled is None:
        catalogues.set_words(catalogues.Words())
        gettext.textdomain("messages")
        return
    mo = compiled / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    from babel.support import Translations

    with mo.open("rb") as file:
        catalogues.set_words(catalogues.Words(Translations(file, DOMAIN), lang))
    # Click asks gettext's domain, in the languages of LANGUAGE first
    os.environ["LANGUAGE"] = lang
    gettext.bindtextdomain(DOMAIN, str(compiled))
    gettext.textdomain(DOMAIN)
