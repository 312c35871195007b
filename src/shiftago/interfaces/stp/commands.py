"""The commands of the Shiftago Text Protocol (PROTOCOL.md): one game, one command line
at a time.

:class:`StpEngine` turns one command line into one response text and holds the game.
``go`` and ``analyse`` become a :class:`~.search.Search` that :meth:`StpEngine.accept`
hands back unrun, so that the input loop (:mod:`.session`) can run it in the engine's
search thread and still serve ``stop``; :meth:`StpEngine.handle` runs it there at once
and waits. Every search runs in that one thread: a bot's transposition table is kept
per thread, so it is made once, not at every ``go`` (a table of some hundred MiB takes
longer to make than a short ``movetime``). A failing command answers ``?`` and changes
nothing; no input makes the engine crash.

Response framing: ``=`` or ``?``, the id if one was given, then a space and a one-line
payload, then an empty line. An empty payload is written as a bare ``=`` (no space).
The payload of ``showboard``, ``list_commands``, ``analyse``, ``levels`` and
``options`` always starts on the line after ``=`` (even when it has a single line or
none). ``info`` lines, asked for with ``info=1``, come before the answer they lead to.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Literal, TextIO

from shiftago import __version__
from shiftago.core import COLOURS, Game, Rules, State, Variant, seat_of_colour
from shiftago.core.rules import MAX_ACTION_LIMIT
from shiftago.engine.book.shipped import read_every_shipped_book
from shiftago.engine.bot import Bot, Limits
from shiftago.engine.search.ttable import table_bytes
from shiftago.formats.text_board import render_plain_grid
from shiftago.interfaces.shared.message import one_line

from .memory import available_memory
from .options import OWN_BOOK, EngineOptions, Ladder
from .search import Search, SearchRequest
from .words import CommandError, CommandLine, key_values, no_arguments, whole_number

PROTOCOL_VERSION = "1"
ENGINE_NAME = "shiftago"
#: The game a new engine holds (PROTOCOL.md, Framing).
INITIAL_GAME = "newgame express 2 first=o"


class Reply:
    """A successful payload, and whether it starts on the line after ``=``."""

    __slots__ = ("multiline", "text")

    def __init__(self, text: str = "", *, multiline: bool = False) -> None:
        self.text = text
        self.multiline = multiline


#: A command: its argument words and the text after its name, to a reply or a search.
Command = Callable[[list[str], str], Reply | Search]


class StpEngine:
    """The engine side of the protocol: one game, one command at a time.

    ``ladder`` holds the bots it plays (the built-in levels unless given); ``name`` and
    ``version`` are what ``name`` and ``version`` answer.

    >>> engine = StpEngine()
    >>> engine.handle("12 position")
    '=12 express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0\\n\\n'
    >>> engine.handle("# a comment") is None
    True
    """

    def __init__(
        self,
        log: TextIO | None = None,
        *,
        ladder: Ladder | None = None,
        name: str = ENGINE_NAME,
        version: str = __version__,
    ) -> None:
        self.log: TextIO = log if log is not None else sys.stderr
        self.ladder = ladder if ladder is not None else Ladder.built_in()
        #: Whether the bots are this library's (their default table is made ahead too);
        #: a served bot is asked to search only by the controller and by ``Hash``.
        self._built_in = ladder is None
        self.name = name
        self.version = version
        self.options = EngineOptions(self.ladder)
        #: Set by ``quit``: the controller wants the engine to end.
        self.done = False
        self.game: Game = Game(Rules(), first=0)
        #: The action limit of the last ``newgame``; ``setposition`` counts it afresh.
        self.limit: int | None = None
        #: The seed of the last ``newgame`` (or the one it drew), for repeatable bots.
        self.seed: int | None = None
        self._bots: dict[int, Bot] = {}
        #: The ``Hash`` of the table :meth:`prepare` last made (None: the default one).
        self._table_mib: int | None = None
        #: The thread that runs every search of the input loop (and :meth:`prepare`).
        self.search_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stp-search")
        self._commands: dict[str, Command] = {
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
            "isready": self._isready,
            "stop": self._stop,
            "options": self._options,
            "setoption": self._setoption,
        }
        response = self.handle(INITIAL_GAME)
        assert response is not None and response.startswith("="), response

    # --- one line in, one response out ---------------------------------------------
    def handle(self, line: str) -> str | None:
        """The full response to one command line (ending in the empty line), or None.

        None means the line is ignored: empty, or a ``#`` comment. A ``go`` or
        ``analyse`` runs here and now, its ``info`` lines (with ``info=1``) before the
        answer; an infinite one is refused, as nothing could stop it.
        """
        accepted = self.accept(line)
        if not isinstance(accepted, Search):
            return accepted
        if accepted.infinite:
            return frame("?", accepted.ident, "infinite needs the input loop, which reads stop")
        infos: list[str] = []
        response = self.search_thread.submit(self.finish, accepted, infos.append).result()
        return "".join(f"{info}\n" for info in infos) + response

    def accept(self, line: str) -> str | Search | None:
        """The response to one command line, or None for a line the protocol ignores;
        for a ``go`` or ``analyse`` whose options are right, the :class:`Search`, for
        the caller to :meth:`finish`."""
        command_line = CommandLine.parse(line)
        if command_line is None:
            return None
        ident = command_line.ident
        if not command_line.name:
            return frame("?", ident, "missing command after the id")
        command = self._commands.get(command_line.name)
        if command is None:
            return frame(
                "?", ident, one_line(f"unknown command: {line.split()[1 if ident else 0]}")
            )
        return self._respond(ident, lambda: command(list(command_line.args), command_line.rest))

    def finish(self, search: Search, emit: Callable[[str], None]) -> str:
        """Run ``search`` (in the calling thread) and frame its answer; ``info`` lines go
        to ``emit`` as they come."""

        def answer() -> Reply:
            text, multiline = search.run(emit)
            return Reply(text, multiline=multiline)

        response = self._respond(search.ident, answer)
        assert isinstance(response, str)
        return response

    def _respond(self, ident: str, produce: Callable[[], Reply | Search]) -> str | Search:
        """The framed outcome of ``produce``: its reply, the search it sets up (given
        the id), or ``?`` with the reason it failed."""
        try:
            reply = produce()
        except ValueError as error:  # CommandError, ShiftagoError: the input is wrong
            return frame("?", ident, one_line(str(error)))
        except MemoryError:  # a Hash larger than the machine holds
            hash_mib = self.options.hash_mib
            advice = "" if hash_mib is None else f" with Hash {hash_mib} MiB: set a smaller Hash"
            return frame("?", ident, f"not enough memory for the search{advice}")
        except Exception as error:  # an engine bug must not end the session
            # nor a log nobody reads any more (a closed standard error): the answer comes
            with contextlib.suppress(OSError, ValueError):
                traceback.print_exc(file=self.log)
                self.log.flush()
            return frame("?", ident, one_line(f"internal error: {type(error).__name__}: {error}"))
        if isinstance(reply, Search):
            reply.ident = ident
            return reply
        if reply.multiline:
            body = reply.text + "\n" if reply.text else ""
            return f"={ident}\n{body}\n"
        return frame("=", ident, reply.text)

    # --- commands -------------------------------------------------------------------
    def _protocol_version(self, args: list[str], rest: str) -> Reply:
        no_arguments("protocol_version", args)
        return Reply(PROTOCOL_VERSION)

    def _name(self, args: list[str], rest: str) -> Reply:
        no_arguments("name", args)
        return Reply(self.name)

    def _version(self, args: list[str], rest: str) -> Reply:
        no_arguments("version", args)
        return Reply(self.version)

    def _list_commands(self, args: list[str], rest: str) -> Reply:
        no_arguments("list_commands", args)
        return Reply("\n".join(self._commands), multiline=True)

    def _newgame(self, args: list[str], rest: str) -> Reply:
        usage = "usage: newgame VARIANT PLAYERS [handicap=N,N..] [first=COLOUR] [seed=N] [limit=N]"
        if len(args) < 2:
            raise CommandError(f"newgame needs a variant and a number of players; {usage}")
        variant = Variant.parse(args[0])
        if args[1] not in ("2", "3", "4"):
            raise CommandError(f"players must be 2, 3 or 4, not {args[1]!r}")
        players = int(args[1])
        options, _ = key_values(args[2:], ("handicap", "first", "seed", "limit"), "newgame")
        handicap: tuple[int, ...] = ()
        if "handicap" in options:
            parts = options["handicap"].split(",")
            if len(parts) != players:
                raise CommandError(
                    f"handicap needs one number per player ({players}), got {len(parts)}"
                )
            handicap = tuple(whole_number(p, "each handicap", lowest=0, highest=6) for p in parts)
        first = seat_of_colour(options["first"], players) if "first" in options else None
        seed = whole_number(options["seed"], "seed", lowest=0) if "seed" in options else None
        limit = (
            whole_number(options["limit"], "limit", lowest=1, highest=MAX_ACTION_LIMIT)
            if "limit" in options
            else None
        )
        game = Game(Rules(variant, players, handicap, limit), first=first, seed=seed)
        self.game, self.limit, self.seed = game, limit, game.seed
        self._bots.clear()
        self.prepare()  # the new bots' table, which a larger Hash makes slow to clear
        return Reply()

    def _setposition(self, args: list[str], rest: str) -> Reply:
        if not args:
            raise CommandError("setposition needs a position string")
        state = State.from_position(rest)
        rules = Rules(state.rules.variant, state.rules.players, action_limit=self.limit)
        self.game = Game(rules, position=state)
        return Reply()

    def _position(self, args: list[str], rest: str) -> Reply:
        no_arguments("position", args)
        return Reply(self.game.position())

    def _showboard(self, args: list[str], rest: str) -> Reply:
        no_arguments("showboard", args)
        return Reply(render_plain_grid(self.game.state), multiline=True)

    def _legal(self, args: list[str], rest: str) -> Reply:
        no_arguments("legal", args)
        return Reply(" ".join(str(a) for a in self.game.legal_actions()))

    def _play(self, args: list[str], rest: str) -> Reply:
        if len(args) != 1:
            raise CommandError("play needs exactly one action, such as L3 or xc3-g3")
        self.game.play(args[0])
        return Reply()

    def _undo(self, args: list[str], rest: str) -> Reply:
        no_arguments("undo", args)
        self.game.undo()
        return Reply()

    def _status(self, args: list[str], rest: str) -> Reply:
        no_arguments("status", args)
        outcome = self.game.outcome
        if outcome is not None:
            return Reply(outcome.status())
        return Reply(f"playing {COLOURS[self.game.turn]} {self.game.phase.value}")

    def _score(self, args: list[str], rest: str) -> Reply:
        no_arguments("score", args)
        state = self.game.state
        return Reply(
            " ".join(
                f"{COLOURS[seat]} {state.scores[seat]} {state.supplies[seat]}"
                for seat in range(state.players)
            )
        )

    def _go(self, args: list[str], rest: str) -> Search:
        return self._search("go", args)

    def _analyse(self, args: list[str], rest: str) -> Search:
        return self._search("analyse", args)

    def _levels(self, args: list[str], rest: str) -> Reply:
        no_arguments("levels", args)
        return Reply("\n".join(f"{n} {name}" for n, name in self.ladder.levels), multiline=True)

    def _quit(self, args: list[str], rest: str) -> Reply:
        no_arguments("quit", args)  # refused as any command's stray words are: it stays
        self.done = True
        return Reply()

    def _isready(self, args: list[str], rest: str) -> Reply:
        no_arguments("isready", args)
        return Reply("ready")

    def _stop(self, args: list[str], rest: str) -> Reply:
        # Nothing runs by the time a command gets here: the input loop stops a running
        # search itself (see .session).
        no_arguments("stop", args)
        return Reply()

    def _options(self, args: list[str], rest: str) -> Reply:
        no_arguments("options", args)
        return Reply(self.options.listing(), multiline=True)

    def _setoption(self, args: list[str], rest: str) -> Reply:
        if len(args) != 2:
            raise CommandError("setoption takes a name and one value, such as setoption Hash 64")
        before = self.options.values()
        self.options.set(args[0], args[1])
        if args[0].lower() in ("hash", "level"):
            hash_mib = self.options.hash_mib
            try:
                self.prepare(strict=True)
            except MemoryError:
                self.options.restore(before)
                raise CommandError(
                    f"not enough memory for the table of Hash {hash_mib} MiB:"
                    " the options stay as they were"
                ) from None
        return Reply()

    def prepare(self, *, strict: bool = False) -> None:
        """Make the table the searches of the set level need (``Hash``'s size, else the
        default), in the search thread, before the engine starts reading, ``setoption``
        or ``newgame`` answers, so that the next ``go`` does not pay for making or
        clearing it (a second or more for a few GiB, milliseconds for the default).

        A one-node analysis of the start of a 2-player game does it (the table is the
        2-player search's, the one ``Hash`` sizes). It only saves time: a bot that fails
        at it is logged and plays on, except that with ``strict`` a table too large for
        the memory raises the :class:`MemoryError`.

        The built-in levels' opening books are read here too (once per process, whatever
        the level now: ``setoption Level`` may choose the top level later)."""
        if self._built_in:
            read_every_shipped_book()
        hash_mib = self.options.hash_mib
        if hash_mib is None and not self._built_in:
            return
        # a table of another size is made beside the one in use: it must fit in what is
        # left, or writing it through may get a process killed for memory (the default
        # table is small, but made and cleared here too: its milliseconds would otherwise
        # be the first go's, past a short movetime)
        made = table_bytes(self._table_mib) if self._table_mib is not None else None
        needed = table_bytes(hash_mib) if hash_mib is not None else None
        if strict and needed is not None and needed != made:
            available = available_memory()
            if available is not None and needed > available:
                raise MemoryError(f"{available} bytes available")
        bot = self._bot(self.options.level)
        limits = Limits(
            depth=1,
            nodes=1,
            threads=self.options.threads,
            hash_mib=hash_mib,
            stop=threading.Event(),  # never set: a bot may count on an event (serve)
        )
        start = Game(Rules(), first=0).state
        try:
            self.search_thread.submit(bot.analyse, start, limits).result()
        except Exception as error:
            if strict and isinstance(error, MemoryError):
                raise
            traceback.print_exc(file=self.log)
            self.log.flush()
        else:
            self._table_mib = hash_mib

    # --- helpers ------------------------------------------------------------------------
    def _search(self, command: Literal["go", "analyse"], args: list[str]) -> Search:
        """The search a ``go`` or ``analyse`` asks for, checked but not started."""
        request = SearchRequest.parse(args, command)
        level = self.ladder.check(
            request.level if request.level is not None else self.options.level
        )
        limits = replace(
            request.limits, threads=self.options.threads, hash_mib=self.options.hash_mib
        )
        return Search(command, self._bot(level), self.game.state, replace(request, limits=limits))

    def _bot(self, level: int) -> Bot:
        """The bot of ``level``, made at its first use (and again after ``newgame``)."""
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = self.ladder.make(level, self.seed)
        own_book = self.options.own_book
        if own_book is not None and OWN_BOOK in bot.option_values:
            bot.set_option(OWN_BOOK, own_book)
        return bot


def frame(status: str, ident: str, payload: str) -> str:
    """A one-line response: ``=`` or ``?``, the id, the payload, then the empty line."""
    return f"{status}{ident} {payload}\n\n" if payload else f"{status}{ident}\n\n"
