"""The opening book: its data, its build, its shipped files, and the top level's use."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shiftago import Action, Game, Rules, State, Variant
from shiftago.engine import levels
from shiftago.engine.book import Book, BookAction, BookPosition, shipped_book, sound_choice
from shiftago.engine.book.shipped import read_book, write_book
from shiftago.engine.book.symmetry import SYMMETRIES, canonical, representative, transform_state
from shiftago.engine.book_build import (
    BuildSettings,
    Played,
    deep_search,
    first_positions,
    followed_positions,
    known_mismatch,
    play_game,
    search_order,
    tally,
)
from shiftago.engine.bot import Limits
from shiftago.engine.levels import bot_for_level

START = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"
AFTER_L4 = canonical(State.from_position(START).after(Action.parse("L4"))).key


def entry(action: str, value: float | None = None, proven: int = 0, games: int = 0) -> BookAction:
    return BookAction(Action.parse(action), games, 0, 0, 0.0, value, proven)


def book_of(*actions: BookAction, choice: str | None = "L1", key: str = START) -> Book:
    chosen = None if choice is None else Action.parse(choice)
    return Book(Variant.EXPRESS, 2, {key: BookPosition(key, actions, chosen)})


# --- the sound choice ----------------------------------------------------------------------
def test_a_proven_win_comes_before_the_search_choice() -> None:
    position = book_of(entry("L1", 0.9), entry("L2", 0.6, proven=1), choice="L1")
    assert str(sound_choice(position.positions[START])) == "L2"


def test_a_proven_loss_is_never_chosen_while_another_action_is_open() -> None:
    book = book_of(entry("L1", 0.9, proven=-1), entry("L3", 0.2), entry("L2", 0.4))
    assert str(book.choice(State.from_position(START))) == "L2"


def test_the_search_decides_where_every_action_loses_or_nothing_was_searched() -> None:
    assert sound_choice(book_of(entry("L1", 0.0, proven=-1)).positions[START]) is None
    unsearched = book_of(entry("L1", games=5), choice=None)
    assert unsearched.choice(State.from_position(START)) is None
    assert [line.entry.games for line in unsearched.lines(State.from_position(START))] == [5]


def test_the_search_choice_stands_otherwise() -> None:
    book = book_of(entry("L1", 0.4), entry("L4", 0.6), choice="L1")
    assert str(book.choice(State.from_position(START))) == "L1"


# --- lookup through the symmetries -----------------------------------------------------------
def test_a_book_entry_is_found_from_every_symmetric_position_and_first_seat() -> None:
    book = book_of(
        entry("L1", 0.3), entry("L2", 0.6), entry("L3", 0.5), entry("L4", 0.1), choice="L2",
        key=AFTER_L4,
    )  # fmt: skip
    found = 0
    for first in (0, 1):
        game = Game(Rules(Variant.EXPRESS, 2), first=first)
        game.play("L4")
        for g in range(SYMMETRIES):
            state = transform_state(game.state, g)
            lines = book.lines(state)
            assert [line.entry.action for line in lines] == [
                a.action for a in book.positions[AFTER_L4].actions
            ]
            form = canonical(state)
            for line in lines:
                assert line.action in state.legal_actions()
                booked = representative(form.to_book(line.action), form.state)
                assert booked == line.entry.action
            chosen = book.choice(state)
            assert chosen is not None and chosen in state.legal_actions()
            assert [line.action for line in lines if line.chosen] == [chosen]
            found += 1
    assert found == 2 * SYMMETRIES


def test_another_category_or_an_unknown_position_is_not_in_the_book() -> None:
    book = book_of(entry("L1", 0.3))
    assert book.lines(State.initial(Rules(Variant.EXPERT, 2), 0)) == []
    assert book.choice(State.initial(Rules(Variant.EXPRESS, 3), 0)) is None
    assert book.position(State.from_position(AFTER_L4)) is None


# --- the text form ----------------------------------------------------------------------------
def test_a_book_reads_back_equal() -> None:
    book = book_of(
        BookAction(Action.parse("L1"), 3, 1, 1, 1.5, 0.25, -1), entry("L2", 0.75, 1, games=2)
    )
    assert read_book(write_book(book)) == book
    assert write_book(book) == write_book(read_book(write_book(book)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=9), "format 1"),
        (lambda d: d["positions"][START]["actions"][0].update(action="xa1-a5"), "not legal"),
        (lambda d: d["positions"][START]["actions"][0].update(wins=9), "do not add up"),
        (lambda d: d["positions"][START]["actions"][0].update(proven="maybe"), "win or loss"),
        (lambda d: d.update(positions={AFTER_L4.replace(" o ", " g "): {"actions": []}}),
         "canonical"),
    ],
)  # fmt: skip
def test_a_bad_book_is_refused_naming_what_is_wrong(change, message) -> None:
    data = book_of(BookAction(Action.parse("L1"), 3, 1, 1, 1.5)).to_json()
    change(data)
    with pytest.raises(ValueError, match=message):
        Book.from_json(data)


# --- building ---------------------------------------------------------------------------------
def test_the_tally_counts_each_game_by_hand() -> None:
    """Three hand-made games: two wins with L1 at the start, one draw with L3; then the
    second mover's L4 after L1 (lost, lost)."""
    games = [
        [Played(START, Action.parse("L1"), 1.0, True, False),
         Played(AFTER_L4, Action.parse("L4"), 0.0, False, False)],
        [Played(START, Action.parse("L1"), 1.0, True, False),
         Played(AFTER_L4, Action.parse("L4"), 0.0, False, False)],
        [Played(START, Action.parse("L3"), 0.5, False, True)],
    ]  # fmt: skip
    book = tally(Variant.EXPRESS, 2, games, BuildSettings(games=3, min_games=2, searched=0))
    start = book.positions[START]
    assert [(str(a.action), a.games, a.wins, a.draws, a.points) for a in start.actions] == [
        ("L1", 2, 2, 0, 2.0),
        ("L3", 1, 0, 1, 0.5),
    ]
    assert start.games == 3 and start.actions[0].score == 1.0
    assert book.positions[AFTER_L4].games == 2
    assert set(tally(Variant.EXPRESS, 2, games, BuildSettings(min_games=3))
               .positions) == {START}  # fmt: skip


def test_self_play_games_are_counted_the_same_every_time() -> None:
    settings = BuildSettings(games=3, plies=2, level=1, explore=1.0, min_games=1, seed=5)
    rules = Rules(Variant.EXPRESS, 2)
    games = [play_game(rules, number, settings) for number in range(3)]
    assert games == [play_game(rules, number, settings) for number in range(3)]
    assert all(len(game) == 2 for game in games)
    book = tally(Variant.EXPRESS, 2, games, settings)
    start = book.positions[START]
    assert start.games == 3
    assert sum(p.games for key, p in book.positions.items() if key != START) == 3
    for game in games:  # in 2 players with no draw, one of the two movers won
        first, second = game
        assert first.score + second.score == 1.0 or (first.drew and second.drew)
        assert first.action in State.from_position(first.key).legal_actions()


def test_the_deep_search_values_every_class_and_chooses_a_legal_action() -> None:
    settings = BuildSettings(games=2, plies=1, level=1, min_games=1, searched=1, nodes=2000)
    rules = Rules(Variant.EXPRESS, 2)
    games = [play_game(rules, number, settings) for number in range(2)]
    book = deep_search(tally(Variant.EXPRESS, 2, games, settings), settings)
    start = book.positions[START]
    assert search_order(book) == [START]
    assert sorted(str(a.action) for a in start.actions) == ["L1", "L2", "L3", "L4"]
    assert all(a.value is not None and 0.0 <= a.value <= 1.0 for a in start.actions)
    assert sum(a.games for a in start.actions) == 2
    assert start.choice in {a.action for a in start.actions}
    assert book.choice(State.initial(rules, 1)) in State.initial(rules, 1).legal_actions()
    # the choice is the top level's own search (not its analysis), without its book
    top = bot_for_level(levels.default_level(), settings.seed)
    top.set_option("OwnBook", 0)
    empty = State.from_position(START)
    assert start.choice == representative(top.choose(empty, Limits(nodes=2000)), empty)


def test_the_first_positions_are_every_class_of_position_of_the_first_actions() -> None:
    """Every sequence of two actions, played out from the empty board by each first
    seat, reaches a position whose class is listed, and nothing else is listed."""
    rules = Rules(Variant.EXPRESS, 2)
    keys = first_positions(rules, 3)
    assert len(keys) == len(set(keys))
    empty = State.from_position(START)
    after_one = (canonical(empty.after(Action.parse(a))).key for a in ("L1", "L2", "L3", "L4"))
    assert keys[:5] == [START, *sorted(after_one)]
    reached = {START}
    for first in (0, 1):
        start = State.initial(rules, first)
        for one in start.legal_actions():
            after_one = start.after(one)
            reached.add(canonical(after_one).key)
            for two in after_one.legal_actions():
                reached.add(canonical(after_one.after(two)).key)
    assert set(keys) == reached
    assert len(keys) == 1 + 4 + 73
    assert first_positions(rules, 0) == [] and first_positions(rules, 1) == [START]


def test_every_first_position_is_searched_played_or_not() -> None:
    settings = BuildSettings(games=1, plies=1, level=1, min_games=1, searched=0, nodes=300,
                             every=2)  # fmt: skip
    rules = Rules(Variant.EXPRESS, 2)
    played = tally(Variant.EXPRESS, 2, [play_game(rules, 0, settings)], settings)
    assert set(played.positions) == {START}
    book = deep_search(played, settings)
    assert set(book.positions) == set(first_positions(rules, 2)) and len(book) == 5
    assert all(p.searched for p in book.positions.values())
    assert book.positions[START].games == 1
    after_l4 = book.positions[AFTER_L4]
    # one mirror keeps this position: 13 pairs of mirrored insertions and the two into file d
    assert after_l4.games == 0 and len(after_l4.actions) == 13 + 2
    state = State.initial(rules, 1).after(Action.parse("Td"))  # L4 turned, the other seat
    assert book.choice(state) in state.legal_actions()
    # the same searches run in any order give the same book
    assert (
        deep_search(played, settings, mapper=lambda f, items: reversed(list(map(f, items[::-1]))))
        == book
    )


def test_the_followed_positions_are_the_books_choice_then_its_best_replies() -> None:
    start = State.from_position(START)
    after_l4 = State.from_position(AFTER_L4)
    replies = {"L1": 0.7, "L2": 0.2, "L3": 0.5}
    chosen = BookPosition(START, (entry("L4", 0.6), entry("L1", 0.4)), Action.parse("L4"))
    valued = tuple(entry(a, v) for a, v in replies.items())
    answered = BookPosition(AFTER_L4, valued, Action.parse("L2"))
    book = Book(Variant.EXPRESS, 2, {START: chosen, AFTER_L4: answered})
    # the position after L4 is keyed turned and moved: its actions are in its own frame
    best = [canonical(after_l4.after(Action.parse(a))).key for a in ("L1", "L3", "L2")]
    assert followed_positions(book, 1) == best[:1]
    assert followed_positions(book, 2) == sorted(best[:2])
    assert followed_positions(book, 28) == sorted(set(best))
    # a position already searched is not searched again; one not searched is
    searched = BookPosition(best[0], (entry("L1", 0.5),), Action.parse("L1"))
    assert followed_positions(replace(book, positions={**book.positions, best[0]: searched}),
                              2) == [best[1]]  # fmt: skip
    played = BookPosition(best[0], (entry("L1", games=3),), None)
    assert followed_positions(replace(book, positions={**book.positions, best[0]: played}),
                              1) == best[:1]  # fmt: skip
    # no line goes on where the position the choice reaches was not searched
    unsearched = BookPosition(AFTER_L4, tuple(entry(a, games=1) for a in replies), None)
    assert followed_positions(replace(book, positions={START: chosen, AFTER_L4: unsearched}),
                              3) == []  # fmt: skip
    assert canonical(start.after(Action.parse("L4"))).key == AFTER_L4


def test_a_build_follows_its_lines_and_reuses_an_earlier_builds_searches() -> None:
    settings = BuildSettings(games=1, plies=1, level=1, min_games=1, searched=0, nodes=300,
                             every=2)  # fmt: skip
    rules = Rules(Variant.EXPRESS, 2)
    played = tally(Variant.EXPRESS, 2, [play_game(rules, 0, settings)], settings)
    first = deep_search(played, settings)
    followed = replace(settings, follow=2)
    searched: list[str] = []

    def counting(fn, items):
        searched.extend(p.key for p in items)
        return map(fn, items)

    book = deep_search(played, followed, mapper=counting)
    more = followed_positions(first, 2)
    assert len(more) == 2 and not set(more) & set(first.positions)
    assert set(book.positions) == set(first.positions) | set(more)
    assert all(book.positions[key].searched for key in more)
    assert {key: book.positions[key] for key in first.positions} == dict(first.positions)
    assert sorted(searched) == sorted([*first.positions, *more])
    # the earlier build's searches stand in for the same ones: the same book, and only
    # the new positions are searched
    searched.clear()
    assert deep_search(played, followed, mapper=counting, known=first) == book
    assert sorted(searched) == sorted(more)
    assert known_mismatch(first, followed) is None
    assert known_mismatch(first, replace(followed, seed=1)) == "seed"
    assert known_mismatch(first, replace(followed, nodes=301)) == "nodes"


# --- the shipped books --------------------------------------------------------------------------
@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_category_ships_a_book_with_a_choice_at_the_start(variant, players) -> None:
    book = shipped_book(variant, players)
    assert book is not None and book.variant is variant and book.players == players
    start = State.initial(Rules(variant, players), players - 1)
    assert book.choice(start) in start.legal_actions()
    lines = book.lines(start)
    assert sorted(str(line.action.__class__.__name__) for line in lines) == ["Insertion"] * 4
    assert sum(line.entry.games for line in lines) == book.settings["games"]


# --- the top level ------------------------------------------------------------------------------
class Searched(Exception):
    """The level searched instead of playing from the book."""


@pytest.fixture
def weird_book(monkeypatch):
    """The top level's book says L1 at the start, whatever the search thinks; a search
    raises :class:`Searched`."""
    book = book_of(entry("L1", 0.5), entry("L4", 0.9, proven=-1), choice="L4")
    monkeypatch.setattr(levels, "shipped_book", lambda variant, players: book)

    def search(*args, **kwargs):
        raise Searched

    top = bot_for_level(levels.default_level(), 1)
    assert isinstance(top, levels.LevelBot)
    monkeypatch.setattr(top.alphabeta, "choose", search)
    monkeypatch.setattr(top.alphabeta, "analyse", search)
    return top


def test_the_top_level_plays_the_books_sound_action_at_once(weird_book) -> None:
    for first in (0, 1):
        start = State.initial(Rules(Variant.EXPRESS, 2), first)
        assert str(weird_book.choose(start, Limits(nodes=10))) == "L1"  # not the losing L4


def test_the_top_level_searches_with_its_book_off_and_outside_it(weird_book) -> None:
    start = State.initial(Rules(Variant.EXPRESS, 2), 0)
    with pytest.raises(Searched):
        weird_book.choose(start.after(Action.parse("L1")))
    weird_book.set_option("ownbook", 0)
    assert weird_book.option_values == {"OwnBook": 0}
    with pytest.raises(Searched):
        weird_book.choose(start)
    with pytest.raises(ValueError, match=r"1 \(on\) or 0 \(off\)"):
        weird_book.set_option("OwnBook", 3)


def test_an_analysis_never_reads_the_book(weird_book) -> None:
    with pytest.raises(Searched):
        weird_book.analyse(State.initial(Rules(Variant.EXPRESS, 2), 0))


def test_the_lower_levels_have_no_book(monkeypatch) -> None:
    monkeypatch.setattr(levels, "shipped_book", lambda variant, players: pytest.fail("read"))
    for number, _ in levels.LEVELS[:-1]:
        bot = bot_for_level(number, 0)
        assert bot.option_values == {}
        start = State.initial(Rules(Variant.EXPRESS, 2), 0)
        assert bot.choose(start, Limits(nodes=200, depth=1)) in start.legal_actions()
        with pytest.raises(ValueError, match="has no option 'OwnBook'"):
            bot.set_option("OwnBook", 0)
