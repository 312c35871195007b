"""The Shiftago Text Protocol (PROTOCOL.md): a GTP-like engine over stdin and stdout.

:class:`StpEngine` turns one command line into one response text and holds the game;
:func:`run` is the loop that reads commands and writes responses. Only responses go to
standard output (each flushed at once); anything else, such as the traceback of an
internal error, goes to the log stream (standard error). A failing command answers
``?`` and changes nothing; no input makes the engine crash.

Response framing: ``=`` or ``?``, the id if one was given, then a space and a one-line
payload, then an empty line. An empty payload is written as a bare ``=`` (no space).
The payload of ``showboard``, ``list_commands``, ``analyse`` and ``levels`` always
starts on the line after ``=`` (even when it has a single line or none).

Run it with ``python -m shiftago.interfaces.stp``.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from typing import TextIO

from shiftago import __version__
from shiftago.core import (
    COLOURS,
    Game,
    GameOverError,
    Rules,
    State,
    Variant,
    seat_of_colour,
)
from shiftago.engine.bot import Bot, Limits, RankedAction
from shiftago.engine.levels import LEVELS, bot_for_level, default_level
from shiftago.formats.text_board import render_plain_grid

PROTOCOL_VERSION = "1"
ENGINE_NAME = "shiftago"
#: The game a new engine holds (PROTOCOL.md, Framing).
INITIAL_GAME = "newgame express 2 first=o"


class CommandError(ValueError):
    """A command that cannot be carried out; its text is the ``?`` payload."""


class Reply:
    """A successful payload, and whether it starts on the line after ``=``."""

    __slots__ = ("multiline", "text")

    def __init__(self, text: str = "", *, multiline: bool = False) -> None:
        self.text = text
        self.multiline = multiline


class StpEngine:
    """The engine side of the protocol: one game, one command at a time.

    >>> engine = StpEngine()
    >>> engine.handle("12 position")
    '=12 express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0\\n\\n'
    >>> engine.handle("# a comment") is None
    True
    """

    def __init__(self, log: TextIO | None = None) -> None:
        self.log: TextIO = log if log is not None else sys.stderr
        #: Set by ``quit``: the controller wants the engine to end.
        self.done = False
        self.game: Game = Game(Rules(), first=0)
        #: The action limit of the last ``newgame``; ``setposition`` counts it afresh.
        self.limit: int | None = None
        #: The seed of the last ``newgame`` (or the one it drew), for repeatable bots.
        self.seed: int | None = None
        self._bots: dict[int, Bot] = {}
        self._commands: dict[str, Callable[[list[str], str], Reply]] = {
            "protocol_version": self._protocol_version,
            "name": self._name,
            "version": self._version,
            "list_commands": self._list_commands,
            "newgame": self._newgame,
            "setposition": self._setposition,
            "position": self._position,
            "showboard": self._showboard,
            "legal": self._legal,
            "play": self._play,
            "undo": self._undo,
            "status": self._status,
            "score": self._score,
            "go": self._go,
            "analyse": self._analyse,
            "levels": self._levels,
            "quit": self._quit,
        }
        response = self.handle(INITIAL_GAME)
        assert response is not None and response.startswith("="), response

    # --- one line in, one response out ---------------------------------------------
    def handle(self, line: str) -> str | None:
        """The full response to one command line (ending in the empty line), or None.

        None means the line is ignored: empty, or a ``#`` comment.
        """
        text = line.rstrip("\r\n").strip()
        if not text or text.startswith("#"):
            return None
        words = text.split()
        ident = ""
        if _is_number(words[0]):
            ident = words.pop(0)
        if not words:
            return _frame("?", ident, "missing command after the id")
        name = words[0].lower()
        command = self._commands.get(name)
        if command is None:
            return _frame("?", ident, f"unknown command: {words[0]}")
        rest = text.split(None, 2 if ident else 1)[-1] if len(words) > 1 else ""
        try:
            reply = command(words[1:], rest)
        except ValueError as error:  # CommandError, ShiftagoError: the input is wrong
            return _frame("?", ident, _one_line(str(error)))
        except Exception as error:  # an engine bug must not end the session
            traceback.print_exc(file=self.log)
            self.log.flush()
            return _frame("?", ident, _one_line(f"internal error: {type(error).__name__}: {error}"))
        if reply.multiline:
            body = reply.text + "\n" if reply.text else ""
            return f"={ident}\n{body}\n"
        return _frame("=", ident, reply.text)

    # --- commands -------------------------------------------------------------------
    def _protocol_version(self, args: list[str], rest: str) -> Reply:
        _no_arguments("protocol_version", args)
        return Reply(PROTOCOL_VERSION)

    def _name(self, args: list[str], rest: str) -> Reply:
        _no_arguments("name", args)
        return Reply(ENGINE_NAME)

    def _version(self, args: list[str], rest: str) -> Reply:
        _no_arguments("version", args)
        return Reply(__version__)

    def _list_commands(self, args: list[str], rest: str) -> Reply:
        _no_arguments("list_commands", args)
        return Reply("\n".join(self._commands), multiline=True)

    def _newgame(self, args: list[str], rest: str) -> Reply:
        usage = "usage: newgame VARIANT PLAYERS [handicap=N,N..] [first=COLOUR] [seed=N] [limit=N]"
        if len(args) < 2:
            raise CommandError(f"newgame needs a variant and a number of players; {usage}")
        variant = Variant.parse(args[0])
        if args[1] not in ("2", "3", "4"):
            raise CommandError(f"players must be 2, 3 or 4, not {args[1]!r}")
        players = int(args[1])
        options = _options(args[2:], ("handicap", "first", "seed", "limit"), "newgame")
        handicap: tuple[int, ...] = ()
        if "handicap" in options:
            parts = options["handicap"].split(",")
            if len(parts) != players:
                raise CommandError(
                    f"handicap needs one number per player ({players}), got {len(parts)}"
                )
            handicap = tuple(_number(p, "each handicap", lowest=0, highest=6) for p in parts)
        first = seat_of_colour(options["first"], players) if "first" in options else None
        seed = _number(options["seed"], "seed", lowest=0) if "seed" in options else None
        limit = _number(options["limit"], "limit", lowest=1) if "limit" in options else None
        game = Game(Rules(variant, players, handicap, limit), first=first, seed=seed)
        self.game, self.limit, self.seed = game, limit, game.seed
        self._bots.clear()
        return Reply()

    def _setposition(self, args: list[str], rest: str) -> Reply:
        if not args:
            raise CommandError("setposition needs a position string")
        state = State.from_position(rest)
        rules = Rules(state.rules.variant, state.rules.players, action_limit=self.limit)
        self.game = Game(rules, position=state)
        return Reply()

    def _position(self, args: list[str], rest: str) -> Reply:
        _no_arguments("position", args)
        return Reply(self.game.position())

    def _showboard(self, args: list[str], rest: str) -> Reply:
        _no_arguments("showboard", args)
        return Reply(render_plain_grid(self.game.state), multiline=True)

    def _legal(self, args: list[str], rest: str) -> Reply:
        _no_arguments("legal", args)
        return Reply(" ".join(str(a) for a in self.game.legal_actions()))

    def _play(self, args: list[str], rest: str) -> Reply:
        if len(args) != 1:
            raise CommandError("play needs exactly one action, such as L3 or xc3-g3")
        self.game.play(args[0])
        return Reply()

    def _undo(self, args: list[str], rest: str) -> Reply:
        _no_arguments("undo", args)
        self.game.undo()
        return Reply()

    def _status(self, args: list[str], rest: str) -> Reply:
        _no_arguments("status", args)
        outcome = self.game.outcome
        if outcome is not None:
            return Reply(outcome.status())
        return Reply(f"playing {COLOURS[self.game.turn]} {self.game.phase.value}")

    def _score(self, args: list[str], rest: str) -> Reply:
        _no_arguments("score", args)
        state = self.game.state
        return Reply(
            " ".join(
                f"{COLOURS[seat]} {state.scores[seat]} {state.supplies[seat]}"
                for seat in range(state.players)
            )
        )

    def _go(self, args: list[str], rest: str) -> Reply:
        bot, limits = self._search_settings(args, "go")
        if self.game.is_over:
            raise GameOverError("the game is over: there is no action to choose")
        return Reply(str(bot.choose(self.game.state, limits)))

    def _analyse(self, args: list[str], rest: str) -> Reply:
        bot, limits = self._search_settings(args, "analyse")
        ranked: list[RankedAction] = bot.analyse(self.game.state, limits)
        return Reply("\n".join(str(r) for r in ranked), multiline=True)

    def _levels(self, args: list[str], rest: str) -> Reply:
        _no_arguments("levels", args)
        return Reply("\n".join(f"{n} {name}" for n, name in LEVELS), multiline=True)

    def _quit(self, args: list[str], rest: str) -> Reply:
        self.done = True
        return Reply()

    # --- helpers ------------------------------------------------------------------------
    def _search_settings(self, args: list[str], command: str) -> tuple[Bot, Limits]:
        """The bot and limits that ``go``/``analyse`` options ask for."""
        options = _options(args, ("movetime", "depth", "nodes", "level"), command)
        values = {key: _number(value, key, lowest=1) for key, value in options.items()}
        level = values.get("level", default_level())
        if level not in (n for n, _ in LEVELS):
            known = ", ".join(str(n) for n, _ in LEVELS)
            raise CommandError(f"unknown level {level}: the levels are {known}")
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = bot_for_level(level, self.seed)
        limits = Limits(values.get("movetime"), values.get("depth"), values.get("nodes"))
        return bot, limits


def _frame(status: str, ident: str, payload: str) -> str:
    return f"{status}{ident} {payload}\n\n" if payload else f"{status}{ident}\n\n"


def _one_line(text: str) -> str:
    return " ".join(text.split()) or "error"


def _is_number(word: str) -> bool:
    return word.isascii() and word.isdigit()


def _no_arguments(command: str, args: list[str]) -> None:
    if args:
        raise CommandError(f"{command} takes no arguments, got {' '.join(args)!r}")


def _options(args: list[str], known: tuple[str, ...], command: str) -> dict[str, str]:
    """``key=value`` words into a dict, refusing unknown, repeated and empty options."""
    options: dict[str, str] = {}
    for word in args:
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep or key not in known:
            allowed = " ".join(f"{k}=" for k in known)
            raise CommandError(f"unknown option for {command}: {word!r} (allowed: {allowed})")
        if key in options:
            raise CommandError(f"option {key}= given twice")
        if not value:
            raise CommandError(f"option {key}= needs a value")
        options[key] = value
    return options


def _number(text: str, what: str, *, lowest: int, highest: int | None = None) -> int:
    if not _is_number(text) or len(text) > 30:
        raise CommandError(f"{what} must be a whole number, not {text!r}")
    value = int(text)
    if value < lowest or (highest is not None and value > highest):
        bounds = f"{lowest} to {highest}" if highest is not None else f"at least {lowest}"
        raise CommandError(f"{what} must be {bounds}, not {value}")
    return value


def run(stdin: TextIO, stdout: TextIO, log: TextIO | None = None) -> int:
    """Answer commands from ``stdin`` until end of input or ``quit``; the exit status."""
    engine = StpEngine(log)
    while not engine.done:
        line = stdin.readline()
        if not line:
            break
        response = engine.handle(line)
        if response is not None:
            stdout.write(response)
            stdout.flush()
    return 0


def main() -> int:
    """Run on the process's standard streams, tolerating any bytes on input.

    The searches are compiled (or loaded from numba's cache) before the first command
    is read, so that no timed ``go`` pays for it."""
    from shiftago.engine import warm_up

    warm_up()
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    try:
        return run(sys.stdin, sys.stdout, sys.stderr)
    except BrokenPipeError:
        # The controller went away; point stdout at devnull so the exit flush is quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
