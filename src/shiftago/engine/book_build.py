"""Building a book: self-play statistics of the first actions, then a deep search of
the positions played most.

Every game starts from the empty board (no handicap, orange first: the book's keys
turn the seats, so any first seat finds it). In the first ``plies`` actions a player
plays, with the chance ``explore``, a legal action drawn at random, and otherwise the
choice of the fast ``level``; after them only the level plays. Each game is seeded by
the build's seed and its number alone, so the statistics are the same whatever the
order or the number of processes that played the games (:func:`play_game` is what a
worker runs; :func:`tally` adds the games up in order).

The positions played at least ``min_games`` times are kept, and the ``searched`` of
them played most are searched by the top level (:func:`deep_search`) with ``nodes``
nodes (alpha-beta, 2 players) or iterations (MCTS, 3-4 players): its value and proof of
every action (its analysis) and its choice (the search it plays with) go into the book.
With ``every``, so is every position of the first ``every`` actions (up to symmetry,
:func:`first_positions`), played or not: a game begun by random actions, as a match's
openings are, then finds the book too. With ``follow``, the book's own lines go one
action further (:func:`followed_positions`): the position after its choice and each of
the ``follow`` replies it values best is searched too, so that the player who found the
book at one action finds it at its next. Each search is on its own (a node limit, a
fresh transposition table), so the searches may run in any order and in other
processes, and a search made by an earlier build of the same settings can stand in for
it (``known``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from typing import Final, Protocol, TypeVar

from shiftago.core import Action, Game, Phase, Rules, State, Variant
from shiftago.engine.book import Book, BookAction, BookPosition, sound_choice
from shiftago.engine.book.symmetry import canonical, representative
from shiftago.engine.bot import Limits
from shiftago.engine.levels import LevelBot, bot_for_level, default_level, level

_T = TypeVar("_T")
_R = TypeVar("_R")

#: The action limit of self-play games (Extreme has no bound of its own, RULES.md 7).
SELF_PLAY_ACTION_LIMIT: Final = 300
#: The deep search's budget, as a multiple of the top level's own in the category, when
#: the build is given none (docs/book.md).
SEARCH_MULTIPLE: Final = 2
#: The decimal places a searched value keeps (an expected score; the file stays small).
VALUE_PLACES: Final = 4


@dataclass(frozen=True)
class BuildSettings:
    """What a build does (module docstring); ``nodes`` None: :data:`SEARCH_MULTIPLE`
    times the top level's budget; ``every`` 0: only the positions played most;
    ``follow`` 0: no position beyond those."""

    games: int = 300
    plies: int = 3
    level: int = 4
    explore: float = 0.5
    min_games: int = 4
    searched: int = 16
    nodes: int | None = None
    seed: int = 0
    every: int = 0
    follow: int = 0

    def __post_init__(self) -> None:
        for name in ("games", "plies", "min_games"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        for name in ("searched", "every", "follow"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0, not {getattr(self, name)}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {self.nodes}")
        if not 0.0 <= self.explore <= 1.0:
            raise ValueError(f"explore is a chance from 0 to 1, not {self.explore}")
        level(self.level)  # a level that exists


@dataclass(frozen=True)
class Played:
    """One book action of a self-play game: the position's key, the action's class (in
    the key's frame), and the mover's result: score (1 a win, a shared draw's share),
    won, drew."""

    key: str
    action: Action
    score: float
    won: bool
    drew: bool


def play_game(rules: Rules, number: int, settings: BuildSettings) -> list[Played]:
    """Self-play game ``number`` of a build: its first ``plies`` actions as the book
    counts them."""
    rules = Rules(rules.variant, rules.players, action_limit=SELF_PLAY_ACTION_LIMIT)
    chance = random.Random(settings.seed * 1_000_003 + number)
    bots = [bot_for_level(settings.level, chance.randrange(2**31)) for _ in range(rules.players)]
    game = Game(rules, first=0)
    seen: list[tuple[str, Action, int]] = []
    while not game.is_over:
        state = game.state
        if len(game.history) < settings.plies:
            if chance.random() < settings.explore:
                action = chance.choice(state.legal_actions())
            else:
                action = bots[state.turn].choose(state)
            form = canonical(state)
            seen.append((form.key, representative(form.to_book(action), form.state), state.turn))
        else:
            action = bots[state.turn].choose(state)
        game.play(action)
    outcome = game.state.outcome
    assert outcome is not None
    returns = outcome.returns()
    return [
        Played(key, action, returns[seat], outcome.winners == (seat,),
               outcome.is_draw and seat in outcome.winners)
        for key, action, seat in seen
    ]  # fmt: skip


def tally(
    variant: Variant, players: int, games: Iterable[list[Played]], settings: BuildSettings
) -> Book:
    """The book of the self-play ``games`` (before any deep search): each position
    played at least ``min_games`` times, with its actions' statistics."""
    counts: dict[str, dict[Action, BookAction]] = {}
    for game in games:
        for p in game:
            actions = counts.setdefault(p.key, {})
            old = actions.get(p.action, BookAction(p.action))
            actions[p.action] = replace(
                old,
                games=old.games + 1,
                wins=old.wins + p.won,
                draws=old.draws + p.drew,
                points=old.points + p.score,
            )
    positions = {
        key: BookPosition(key, _ordered(actions.values()))
        for key, actions in counts.items()
        if sum(a.games for a in actions.values()) >= settings.min_games
    }
    return Book(variant, players, positions, asdict(settings))


def _ordered(actions: Iterable[BookAction]) -> tuple[BookAction, ...]:
    """Most played first, then the best searched, then in canonical order."""
    return tuple(sorted(actions, key=lambda a: (-a.games, -(a.value or 0.0), a.action)))


def search_order(book: Book) -> list[str]:
    """The keys of the positions the deep search looks at first: most played first."""
    return sorted(book.positions, key=lambda key: (-book.positions[key].games, key))


def first_positions(rules: Rules, plies: int) -> list[str]:
    """The keys of every position of a game's first ``plies`` actions (from the empty
    board, before each of those actions), one per class of symmetric positions: fewer
    actions first, then in key order."""
    keys: list[str] = []
    start = canonical(State.initial(rules, 0)).state
    level = {start.position(): start}  # each class's canonical position by its key
    for _ in range(plies):
        keys += sorted(level)
        reached: dict[str, State] = {}
        for state in level.values():
            for action in state.legal_actions():
                after = state.after(action)
                if after.phase is not Phase.OVER:
                    form = canonical(after).state
                    reached[form.position()] = form
        listed = set(keys)
        level = {key: form for key, form in reached.items() if key not in listed}
    return keys


class Mapper(Protocol):
    """How a build runs its games and searches: the built-in ``map``, or a process
    pool's ``map`` (the results in the order of the items)."""

    def __call__(self, fn: Callable[[_T], _R], items: list[_T], /) -> Iterator[_R]: ...


def followed_positions(book: Book, follow: int) -> list[str]:
    """The keys of the positions one action further along the book's own lines: from
    each searched position, the action the top level plays there (its sound choice),
    then each of the ``follow`` actions that the book values best for the next mover in
    the position reached, where that one is searched too. Positions already searched,
    and finished games, are left out; in key order."""
    found: set[str] = set()
    for key, position in book.positions.items():
        chosen = sound_choice(position)
        if chosen is None:
            continue
        after = State.from_position(key).after(chosen)
        reply = book.positions.get(canonical(after).key) if not after.is_over else None
        if reply is None or not reply.searched:
            continue
        valued = [a for a in reply.actions if a.value is not None]
        valued.sort(key=lambda a: (-(a.value or 0.0), a.action))
        replied = State.from_position(reply.key)
        for entry in valued[:follow]:
            reached = replied.after(entry.action)
            if not reached.is_over:
                found.add(canonical(reached).key)
    return sorted(
        key for key in found if key not in book.positions or not book.positions[key].searched
    )


def deep_search(
    book: Book,
    settings: BuildSettings,
    report: Callable[[int, int, str], None] | None = None,
    mapper: Mapper = map,
    known: Book | None = None,
) -> Book:
    """The book with the ``searched`` positions played most and those of the first
    ``every`` actions searched by the top level (every action's value and proof, and
    its choice; actions the games never played come in with no games), then those that
    ``follow`` adds. ``mapper`` runs the searches (the built-in ``map``, or a process
    pool's, which gives the same book); a position searched in ``known`` (an earlier
    build's book of the same category, nodes and seed: :func:`known_mismatch`) is taken
    from it instead. ``report(done, total, key)`` hears of each position, in order
    (``total`` grows when ``follow`` adds)."""
    keys = search_order(book)[: settings.searched]
    if settings.every:
        rules = Rules(book.variant, book.players)
        chosen = set(keys)
        keys += [key for key in first_positions(rules, settings.every) if key not in chosen]
    book = _search_all(book, keys, settings, mapper, known, report, 0)
    if settings.follow:
        more = followed_positions(book, settings.follow)
        book = _search_all(book, more, settings, mapper, known, report, len(keys))
    return book


def known_mismatch(known: Book, settings: BuildSettings) -> str | None:
    """The setting (``nodes`` or ``seed``) in which an earlier build's book differs
    from ``settings``, so that its searches cannot stand in for this build's; None
    where none does."""
    for name in ("nodes", "seed"):
        if known.settings.get(name) != getattr(settings, name):
            return name
    return None


def _search_all(
    book: Book,
    keys: list[str],
    settings: BuildSettings,
    mapper: Mapper,
    known: Book | None,
    report: Callable[[int, int, str], None] | None,
    before: int,
) -> Book:
    """``book`` with the positions of ``keys`` searched (``before``: how many a report
    has counted already)."""
    positions = dict(book.positions)
    todo = [positions.get(key, BookPosition(key, ())) for key in keys]
    done: dict[str, BookPosition] = {}
    if known is not None:
        earlier = known.positions
        done = {p.key: _with_search(p, earlier[p.key]) for p in todo
                if p.key in earlier and earlier[p.key].searched}  # fmt: skip
    search = functools.partial(_search_with_top_level, seed=settings.seed, nodes=settings.nodes)
    fresh = mapper(search, [p for p in todo if p.key not in done])
    total = before + len(keys)
    for count, position in enumerate(todo, start=before + 1):
        found = done[position.key] if position.key in done else next(fresh)
        positions[found.key] = found
        if report is not None:
            report(count, total, found.key)
    return replace(book, positions=positions)


def _with_search(position: BookPosition, searched: BookPosition) -> BookPosition:
    """``position``'s game statistics with the values, proofs and choice of the same
    search made before (``searched``): what :func:`search_position` would make."""
    values = {a.action: (a.value, a.proven) for a in searched.actions if a.value is not None}
    return _with_values(position, values, searched.choice)


def _with_values(
    position: BookPosition, values: dict[Action, tuple[float, int]], choice: Action | None
) -> BookPosition:
    """``position``'s game statistics with a search's ``values`` (value and proof of each
    action class; unplayed classes come in with no games) and its ``choice``."""
    actions = {a.action: a for a in position.actions}
    for action, (value, proven) in values.items():
        old = actions.get(action, BookAction(action))
        actions[action] = replace(old, value=value, proven=proven)
    return BookPosition(position.key, _ordered(actions.values()), choice)


@functools.cache
def _top_level(seed: int) -> LevelBot:
    """The top level that searches a build's positions, one per process and seed."""
    bot = bot_for_level(default_level(), seed)
    assert isinstance(bot, LevelBot)
    return bot


def _search_with_top_level(position: BookPosition, seed: int, nodes: int | None) -> BookPosition:
    return search_position(_top_level(seed), position, nodes)


def search_position(bot: LevelBot, position: BookPosition, nodes: int | None) -> BookPosition:
    """One position searched by the top level ``bot`` with ``nodes`` (None:
    :data:`SEARCH_MULTIPLE` times its budget there): every action's value and proof
    from its analysis, and its choice from the search it plays with (never its book)."""
    state = State.from_position(position.key)
    if nodes is None:
        nodes = SEARCH_MULTIPLE * (bot.budget(state) or 1)
    judge = bot.for_rules(state.rules)
    limits = Limits(nodes=nodes)
    ranked = bot.analyse(state, limits)
    values: dict[Action, tuple[float, int]] = {}
    for line in ranked:
        action = representative(line.action, state)
        if action not in values:  # the best of a class stands for it
            value = round(judge.expectation(line.value, state.rules), VALUE_PLACES)
            values[action] = (value, judge.proven(line.value))
    # The alpha-beta's analysis values every action exactly, a shallower search than the
    # one it plays with: the choice is its play's search (the MCTS plays its analysis's
    # first action anyway).
    chosen = judge.choose(state, limits) if judge is bot.alphabeta else ranked[0].action
    return _with_values(position, values, representative(chosen, state))
