"""Who plays in a match: participant specs, and the registry of built-in bots.

A participant is given as one short string, so that a whole match fits on a command
line::

    SPEC    = BODY [ "@" OPTION { "," OPTION } ]
    BODY    = NAME [ ":" ARGUMENT ]          a built-in bot of :data:`BOTS`
            | "cmd:" COMMAND LINE            an external engine speaking STP
    OPTION  = movetime=MS | depth=N | nodes=N | level=N | threads=N | hash=MIB
            | option.NAME=VALUE | name=TEXT

Examples: ``greedy``, ``level:3``, ``level:7@movetime=100``, ``level:7@depth=4``,
``level:7@threads=2,hash=64``, ``cmd:shiftago engine@level=2,name=stp-2``.
``movetime``, ``depth`` and ``nodes`` are the limits of every move
(:class:`~shiftago.engine.bot.Limits`); ``level`` is sent to an external engine as
``go level=N``; ``threads`` and ``hash`` (search threads, transposition table in MiB)
go to a built-in bot in its limits and to an external engine as ``setoption Threads N``
and ``setoption Hash MIB`` once it has started; ``option.NAME=VALUE`` sets any other
option an external engine lists in its ``options`` (``setoption NAME VALUE``: one it
does not list stops the match before it starts), and for a built-in bot one of its
:attr:`~shiftago.engine.bot.Bot.option_values` (``level:7@option.OwnBook=0``: the top level
without its opening book); ``name`` is the name in tables and
records (default: the spec itself). The options come after the last ``@``, so a
command line may hold an ``@`` of its own.

Built-in bots come from :data:`BOTS`, a plain dict from a name to a factory
``(argument, seed) -> Bot``: adding a bot to the arena is one line there. A bot of your
own (an agent being trained) joins with :func:`register_bot`, in the worker processes
of a match too.
"""

from __future__ import annotations

import importlib
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from shiftago.engine.bot import NO_LIMITS, Bot, Limits
from shiftago.engine.greedy import GreedyBot
from shiftago.engine.levels import LEVELS, bot_for_level
from shiftago.match.errors import MatchSetupError

#: A factory of a built-in bot: the text after ``NAME:`` (None without one) and a seed.
BotFactory = Callable[[str | None, int], Bot]

#: The body prefix of an external engine's command line.
EXTERNAL: Final = "cmd:"
#: The spec options in their canonical order (``name`` is not part of the spec).
LIMIT_OPTIONS: Final = ("movetime", "depth", "nodes", "level", "threads", "hash")
#: The prefix of an engine option of any name: ``option.Temperature=2``.
ENGINE_OPTION: Final = "option."
_KEY: Final = r"[a-z]+(?:\.[a-z0-9_-]+)?"
#: How the text after an external engine's last ``@`` begins when it is options (else
#: the ``@`` is the command line's own, as in ``ssh me@host``).
_OPTIONS_START: Final = re.compile(rf"\s*{_KEY}\s*=", re.IGNORECASE)


def _no_argument(name: str, argument: str | None) -> None:
    if argument is not None:
        raise MatchSetupError(
            "the bot {bot} takes no argument, not {argument}",
            bot=repr(name),
            argument=repr(argument),
        )


def _level(argument: str | None, seed: int) -> Bot:
    known = ", ".join(str(n) for n, _ in LEVELS)
    if argument is None or not argument.isdigit() or int(argument) not in dict(LEVELS):
        raise MatchSetupError(
            "level needs one of the levels {levels}: level:3, not {argument}",
            levels=known,
            argument=repr(argument),
        )
    return bot_for_level(int(argument), seed)


def _greedy(argument: str | None, seed: int) -> Bot:
    _no_argument("greedy", argument)
    return GreedyBot(seed)


def lazy_bot(module: str, class_name: str) -> BotFactory:
    """A factory for ``module.class_name(seed)``, imported only when a match uses it.

    A module that does not exist (yet) makes the bot unavailable, with a message that
    says so, instead of breaking the arena.
    """

    def make(argument: str | None, seed: int) -> Bot:
        _no_argument(class_name, argument)
        try:
            loaded = importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name is not None and (module + ".").startswith(error.name + "."):
                raise MatchSetupError(
                    "this bot is not available: no module {module}", module=module
                ) from None
            raise
        bot = getattr(loaded, class_name)(seed)
        if not isinstance(bot, Bot):
            raise TypeError(f"{module}.{class_name} is not a Bot")
        return bot

    return make


#: The bots :func:`register_bot` added: the match hands them to its worker processes.
REGISTERED: dict[str, BotFactory] = {}

#: A bot's name: what a participant spec can name before its ``:ARGUMENT``.
BOT_NAME: Final = re.compile(r"[a-z][a-z0-9_-]*")


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``factory`` (``(argument, seed) -> Bot``) the participant ``name`` (and
    ``name:ARGUMENT``) of matches, as a built-in bot is. A match with ``jobs`` > 1 sends it
    to its worker processes pickled: a function of a module (or a picklable object) plays
    there; a closure or a lambda plays with ``jobs=1`` only. A built-in bot's name is
    refused; registering a name again replaces the bot."""
    if not BOT_NAME.fullmatch(name):
        raise ValueError(f"a bot's name is lower-case letters, digits, - and _: not {name!r}")
    if name in BOTS and name not in REGISTERED:
        raise ValueError(f"{name!r} is a built-in bot: choose another name")
    if not callable(factory):
        raise TypeError(f"a bot's factory is called with (argument, seed): {factory!r} is not")
    BOTS[name] = factory
    REGISTERED[name] = factory


def install_registered(bots: dict[str, BotFactory]) -> None:
    """A match's worker process takes the bots registered in the process that runs it."""
    BOTS.update(bots)
    REGISTERED.update(bots)


def _positive(name: str, argument: str | None) -> int | None:
    if argument is None:
        return None
    if not argument.isdigit() or int(argument) < 1:
        raise MatchSetupError(
            "{bot} takes a whole number of at least 1: {bot}:2, not {argument}",
            bot=name,
            argument=repr(argument),
        )
    return int(argument)


def _mcts(argument: str | None, seed: int) -> Bot:
    from shiftago.engine.mcts_bot import MctsBot

    return MctsBot(seed, iterations=_positive("mcts", argument))


def _mcts_plain(argument: str | None, seed: int) -> Bot:
    from shiftago.engine.mcts_bot import MctsBot

    return MctsBot(
        seed, iterations=_positive("mcts-plain", argument), solver=False, name="mcts-plain"
    )


def _mcts_blocking(argument: str | None, seed: int) -> Bot:
    """``mcts-blocking:ITERATIONS[:PLIES]``: the MCTS with blocking playouts (3-4
    players, Express), blocking in the first PLIES actions of each playout (by default
    every action)."""
    from shiftago.engine.mcts_bot import EVERY_ACTION, MctsBot

    iterations, _, plies = (argument or "").partition(":")
    return MctsBot(
        seed,
        iterations=_positive("mcts-blocking", iterations or None),
        blocking=_positive("mcts-blocking", plies or None) or EVERY_ACTION,
        name="mcts-blocking",
    )


def _mcts_guard(argument: str | None, seed: int) -> Bot:
    """``mcts-guard:ITERATIONS``: the MCTS whose expansions make no child that loses at
    once (3-4 players, every variant: :mod:`shiftago.engine.mcts.knowledge`)."""
    from shiftago.engine.mcts_bot import MctsBot

    return MctsBot(
        seed, iterations=_positive("mcts-guard", argument), guard=True, name="mcts-guard"
    )


def _mcts_horizon(argument: str | None, seed: int) -> Bot:
    """``mcts-horizon:ITERATIONS:HORIZON:SCALE[:REACH]``: the MCTS whose playouts of
    3-4 player Expert stop after HORIZON actions and are valued by a softmax at SCALE of
    the points and REACH (by default 0) times each seat's threat
    (:mod:`shiftago.engine.mcts.horizon`)."""
    from shiftago.engine.mcts_bot import MctsBot

    iterations, horizon, scale, reach = ((argument or "") + ":::").split(":")[:4]
    try:
        values = float(scale), float(reach or 0)
    except ValueError:
        raise MatchSetupError(
            "mcts-horizon takes numbers as SCALE and REACH, not {scale}, {reach}",
            scale=repr(scale),
            reach=repr(reach),
        ) from None
    return MctsBot(
        seed,
        iterations=_positive("mcts-horizon", iterations or None),
        horizon=_positive("mcts-horizon", horizon or None) or 0,
        scale=values[0],
        reach=values[1],
        name="mcts-horizon",
    )


def _mcts_eval(argument: str | None, seed: int) -> Bot:
    """``mcts-eval:ITERATIONS:HORIZON``: the guarded MCTS whose playouts of 3-4 player
    games stop after HORIZON actions and are valued by the fitted evaluation
    (:mod:`shiftago.engine.mcts.seat_eval`)."""
    from shiftago.engine.mcts_bot import MctsBot

    iterations, _, horizon = (argument or "").partition(":")
    cut = _positive("mcts-eval", horizon or None)
    if cut is None:
        raise MatchSetupError(
            "mcts-eval takes a horizon: mcts-eval:ITERATIONS:HORIZON or mcts-eval::HORIZON"
        )
    return MctsBot(
        seed,
        iterations=_positive("mcts-eval", iterations or None),
        guard=True,
        fitted_horizon=cut,
        name="mcts-eval",
    )


def _multi_search(rule: str) -> BotFactory:
    """``RULE[:DEPTH]``: alpha-beta of 3-4 player Express by ``rule`` (paranoid,
    best-reply, max-n) with the fitted evaluation (:mod:`shiftago.engine.multi_search`)."""

    def make(argument: str | None, seed: int) -> Bot:
        from shiftago.engine.multi_search_bot import MultiSearchBot

        return MultiSearchBot(rule, _positive(rule, argument))

    return make


def _baseline(argument: str | None, seed: int) -> Bot:
    from shiftago.engine.baseline import DEFAULT_DEPTH, BaselineBot

    return BaselineBot(seed, depth=_positive("baseline", argument) or DEFAULT_DEPTH)


#: The built-in bots by spec name; add one with a line ``"name": factory``.
BOTS: dict[str, BotFactory] = {
    "level": _level,  # level:N, the ladder of shiftago.engine.levels
    "greedy": _greedy,
    "random": lazy_bot("shiftago.engine.random_bot", "RandomBot"),
    "mcts": _mcts,  # mcts or mcts:ITERATIONS, MCTS-Solver (the multi-player search too)
    "mcts-plain": _mcts_plain,  # plain UCT MCTS, the comparison baseline
    "mcts-blocking": _mcts_blocking,  # mcts-blocking:ITERATIONS[:PLIES], blocking playouts
    "mcts-guard": _mcts_guard,  # mcts-guard:ITERATIONS, guarded expansions
    "mcts-horizon": _mcts_horizon,  # mcts-horizon:ITERATIONS:HORIZON:SCALE[:REACH]
    "mcts-eval": _mcts_eval,  # mcts-eval:ITERATIONS:HORIZON, playouts valued by a fit
    "paranoid": _multi_search("paranoid"),  # paranoid[:DEPTH], alpha-beta (3-4 player Express)
    "best-reply": _multi_search("best-reply"),  # best-reply[:DEPTH], best-reply search
    "max-n": _multi_search("max-n"),  # max-n[:DEPTH], max-n with shallow pruning
    "baseline": _baseline,  # baseline or baseline:DEPTH, pure-Python depth-4 alpha-beta
}


@dataclass(frozen=True)
class Participant:
    """One side of a match, as its spec describes it.

    ``spec`` is the canonical spec (what plays, limits included, name left out) and
    ``key`` identifies the participant in results files: the spec, with ``#2``, ``#3``
    appended when the same spec plays more than once in a match. ``threads`` and
    ``hash_mib`` are None where the spec leaves them to the bot or engine (a built-in
    bot's ``limits`` then hold its defaults).
    """

    spec: str
    name: str
    bot: str | None = None
    argument: str | None = None
    command: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)
    engine_level: int | None = None
    threads: int | None = None
    hash_mib: int | None = None
    key: str = ""
    #: The other options of the spec (``option.NAME=VALUE``), in its order: an external
    #: engine's, or a built-in bot's own (:attr:`~shiftago.engine.bot.Bot.option_values`).
    options: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", self.spec)

    @property
    def external(self) -> bool:
        """Whether it is an engine in its own process (else a built-in bot)."""
        return bool(self.command)

    @property
    def level(self) -> int | None:
        """The playing level that records name: ``level:N``, or an engine's ``level=N``."""
        if self.bot == "level" and self.argument is not None:
            return int(self.argument)
        return self.engine_level

    @property
    def engine_options(self) -> tuple[tuple[str, int | str], ...]:
        """The ``setoption NAME VALUE`` pairs an external engine gets after it starts."""
        options = (("Threads", self.threads), ("Hash", self.hash_mib))
        known = tuple((name, value) for name, value in options if value is not None)
        return known + self.options

    def make_bot(self, seed: int) -> Bot:
        """A new built-in bot for one game (external engines are made elsewhere)."""
        if self.bot is None:
            raise ValueError(f"{self.name} is an external engine, not a built-in bot")
        bot = BOTS[self.bot](self.argument, seed)
        for name, value in self.options:
            known = {key.lower(): key for key in bot.option_values}
            if name.lower() not in known:
                bot.set_option(name, 0)  # refuses, naming the options it has
            if not value.isdigit():
                raise MatchSetupError(
                    "option.{name}= needs a whole number, not {value}",
                    name=name,
                    value=repr(value),
                )
            bot.set_option(known[name.lower()], int(value))
        return bot


def parse_participant(text: str, defaults: Limits = NO_LIMITS) -> Participant:
    """A participant from its spec; ``defaults`` fill the limits the spec leaves open.

    >>> p = parse_participant("level:7@movetime=100")
    >>> p.spec, p.limits.movetime_ms, p.level
    ('level:7@movetime=100', 100, 7)
    >>> parse_participant("cmd:shiftago engine@level=2,name=stp").command
    ('shiftago', 'engine')
    >>> parse_participant("level:7@hash=64,threads=2").spec
    'level:7@threads=2,hash=64'
    """
    body, options = _split(text.strip())
    name = options.pop("name", None)
    extra = tuple(
        (key[len(ENGINE_OPTION) :], options.pop(key))
        for key in list(options)
        if key.startswith(ENGINE_OPTION)
    )
    values = {key: _whole(key, value) for key, value in options.items()}
    # A default of one thread is no default: Limits cannot say "the bot's own".
    threads = values.get("threads", defaults.threads if defaults.threads > 1 else None)
    hash_mib = values.get("hash", defaults.hash_mib)
    limits = Limits(
        values.get("movetime", defaults.movetime_ms),
        values.get("depth", defaults.depth),
        values.get("nodes", defaults.nodes),
        threads=threads or 1,
        hash_mib=hash_mib,
    )
    if body[: len(EXTERNAL)].lower() == EXTERNAL:
        command = tuple(shlex.split(body[len(EXTERNAL) :]))
        if not command:
            raise MatchSetupError("{spec}: cmd: needs the engine's command line", spec=repr(text))
        participant = Participant(
            "",
            "",
            command=command,
            limits=limits,
            engine_level=values.get("level"),
            options=extra,
        )
        body = EXTERNAL + shlex.join(command)
    else:
        bot, _, argument = body.partition(":")
        bot = bot.lower()
        if bot not in BOTS:
            known = ", ".join(sorted(BOTS))
            raise MatchSetupError(
                "unknown participant {spec}: a built-in bot ({bots}) or cmd:COMMAND",
                spec=repr(text),
                bots=known,
            )
        if "level" in values:
            raise MatchSetupError(
                "{spec}: the option level= is for external engines", spec=repr(text)
            )
        participant = Participant(
            "", "", bot=bot, argument=argument.strip() or None, limits=limits, options=extra
        )
        body = bot if participant.argument is None else f"{bot}:{participant.argument}"
        try:  # checks the argument, the options and that the bot exists, now
            participant.make_bot(0)
        except ValueError as e:
            raise MatchSetupError("{spec}: {error}", spec=repr(text), error=e) from None
    participant = replace(participant, threads=threads, hash_mib=hash_mib)
    spec = body + _option_text(participant)
    return replace(participant, spec=spec, name=name.strip() if name else spec, key=spec)


def parse_participants(texts: Sequence[str], defaults: Limits = NO_LIMITS) -> list[Participant]:
    """The participants of a match: keys and names made unique (``greedy``, ``greedy#2``)."""
    result: list[Participant] = []
    for text in texts:
        participant = parse_participant(text, defaults)
        count = sum(p.spec == participant.spec for p in result)
        if count:
            suffix = f"#{count + 1}"
            participant = replace(
                participant, key=participant.spec + suffix, name=participant.name + suffix
            )
        if any(p.name == participant.name for p in result):
            raise MatchSetupError("two participants are named {name}", name=repr(participant.name))
        result.append(participant)
    return result


def _split(text: str) -> tuple[str, dict[str, str]]:
    """The body and the options of a spec: what follows its last ``@``, read strictly
    (an option that does not read names itself), except where an external engine's
    command line holds that ``@``."""
    body, at, tail = text.rpartition("@")
    if not at:
        return text, {}
    external = body.strip()[: len(EXTERNAL)].lower() == EXTERNAL
    if external and tail.strip() and not _OPTIONS_START.match(tail):
        return text, {}
    options: dict[str, str] = {}
    for item in tail.split(","):
        key, equals, value = item.strip().partition("=")
        if not equals or not re.fullmatch(_KEY, key.strip(), re.IGNORECASE) or not value.strip():
            raise MatchSetupError(
                "an option after @ is NAME=VALUE, not {item} in {spec}",
                item=repr(item),
                spec=repr(text),
            )
        key = key.strip()
        prefix, dot, option = key.partition(".")
        # an engine option keeps its name's case: the engine's listing gives it
        engine_option = dot and prefix.lower() + dot == ENGINE_OPTION
        key = ENGINE_OPTION + option if engine_option else key.lower()
        if key not in (*LIMIT_OPTIONS, "name") and not key.startswith(ENGINE_OPTION):
            allowed = ", ".join(f"{k}=" for k in (*LIMIT_OPTIONS, f"{ENGINE_OPTION}NAME", "name"))
            raise MatchSetupError(
                "unknown option {option} in {spec} (allowed: {allowed})",
                option=repr(item),
                spec=repr(text),
                allowed=allowed,
            )
        if key.lower() in (k.lower() for k in options):
            raise MatchSetupError(
                "the option {key}= is given twice in {spec}", key=key, spec=repr(text)
            )
        options[key] = value.strip()
    return body.strip(), options


def _whole(key: str, value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise MatchSetupError(
            "{key}= needs a whole number from 1, not {value}", key=key, value=repr(value)
        )
    return int(value)


def _option_text(participant: Participant) -> str:
    limits = participant.limits
    values = (
        limits.movetime_ms,
        limits.depth,
        limits.nodes,
        participant.engine_level,
        participant.threads,
        participant.hash_mib,
    )
    options = [f"{k}={v}" for k, v in zip(LIMIT_OPTIONS, values, strict=True) if v is not None]
    options += [f"{ENGINE_OPTION}{k}={v}" for k, v in participant.options]
    return "@" + ",".join(options) if options else ""
