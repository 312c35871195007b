"""The store's action write, on both databases: an action is stored once, only on the
revision it was made from, with the clock of a timed game; a refused one stores nothing.

PostgreSQL stores an action with one statement, SQLite with two in a transaction; the
gate must hold the same on both."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import pytest

from shiftago.interfaces.server.db.schema import GameRow
from shiftago.interfaces.server.db.store import Conflict, migrate, open_engine
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.games.stored import StoredGame, StoredSeat, game_columns
from shiftago.match.clock import Clock, TimeControl
from support.server_support import fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path):
    engine = open_engine(fresh_database(request, request.param, tmp_path))
    migrate(engine)
    yield Store(engine)
    engine.dispose()


def new_game(store: Store, game_id: str, clock: Clock | None = None) -> None:
    stamp = dt.datetime.now(dt.UTC)
    store.insert(
        StoredGame(
            id=game_id,
            variant="express",
            players=2,
            handicap=(0, 0),
            first=0,
            position=None,
            seed=None,
            action_limit=None,
            public=True,
            created=stamp,
            updated=stamp,
            seats=[StoredSeat("human", "Ann"), StoredSeat("human", "Ben")],
            clock=clock,
        )
    )


def test_an_action_is_stored_on_its_revision_and_moves_the_game_on(store):
    new_game(store, "g1")
    first = store.append_action("g1", 0, 1, "L3", "Ben to move", finished=False)
    store.append_action("g1", 1, 2, "Td", "Ann to move", finished=False)
    game = store.load("g1")
    assert game is not None
    assert game.actions == ["L3", "Td"]
    assert game.revision == 2
    assert game.status == "Ann to move"
    assert game.updated >= first


def test_games_read_together_are_the_games_read_one_by_one(store, monkeypatch):
    for game_id, actions in (("g1", ["L3", "Td", "R5"]), ("g2", []), ("g3", ["Bg"])):
        new_game(store, game_id)
        for number, notation in enumerate(actions, 1):
            store.append_action(game_id, number - 1, number, notation, "on", finished=False)
    wanted = ["g3", "missing", "g1", "g2"]
    alone = [game for game in map(store.load, wanted) if game is not None]
    monkeypatch.setattr("shiftago.interfaces.server.games.store.IDS_PER_QUERY", 2)
    assert store.load_many(wanted) == alone  # in the order asked, across two chunks
    assert [game.actions for game in alone] == [["Bg"], ["L3", "Td", "R5"], []]


def test_an_action_on_an_old_revision_is_a_conflict_and_stores_nothing(store):
    new_game(store, "g1")
    store.append_action("g1", 0, 1, "L3", "Ben to move", finished=False)
    with pytest.raises(Conflict):
        store.append_action("g1", 0, 1, "L4", "Ben to move", finished=False)
    with pytest.raises(Conflict):  # the right number on the old revision
        store.append_action("g1", 0, 2, "Td", "Ann to move", finished=False)
    with pytest.raises(Conflict):  # a missing game has no revision to move on from
        store.append_action("nope", 0, 1, "L3", "Ben to move", finished=False)
    game = store.load("g1")
    assert game is not None
    assert (game.actions, game.revision, game.status) == (["L3"], 1, "Ben to move")


def test_a_taken_action_number_is_a_conflict_and_leaves_the_revision(store):
    new_game(store, "g1")
    store.append_action("g1", 0, 1, "L3", "Ben to move", finished=False)
    with pytest.raises(Conflict):  # revision 1 is current, but action 1 is stored
        store.append_action("g1", 1, 1, "L4", "Ben to move", finished=False)
    game = store.load("g1")
    assert game is not None
    assert (game.actions, game.revision) == (["L3"], 1)


def test_of_actions_racing_for_one_revision_exactly_one_is_stored(store):
    new_game(store, "g1")
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def act(notation: str) -> None:
        barrier.wait()
        try:
            store.append_action("g1", 0, 1, notation, "Ben to move", finished=False)
            outcomes.append("stored")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=act, args=(f"L{n}",)) for n in range(1, 8)]
    threads.append(threading.Thread(target=act, args=("Ta",)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict"] * 7 + ["stored"]
    game = store.load("g1")
    assert game is not None
    assert len(game.actions) == 1 and game.revision == 1


def test_a_timed_action_stores_the_clock_after_it(store):
    control = TimeControl(initial=300.0, increment=2.0)
    clock = Clock.start(control, 2, 0, now=1_800_000_000.0)
    new_game(store, "g1", clock=clock)
    after = Clock(control, (290.5, 300.0), 1, 1_800_000_010.0)
    store.append_action("g1", 0, 1, "L3", "Ben to move", finished=False, clock=after)
    game = store.load("g1")
    assert game is not None and game.clock is not None
    assert game.actions == ["L3"]
    assert game.clock.remaining == (290.5, 300.0)
    assert game.clock.running == 1
    assert game.clock.since == pytest.approx(1_800_000_010.0)


def test_every_field_of_a_game_is_written_to_its_row_and_reads_back(store):
    """games/stored.py maps each column of the games row once: a game with every field
    set is written to every column and read back equal."""
    stamp = dt.datetime(2026, 12, 1, 12, 30, tzinfo=dt.UTC)
    control = TimeControl(initial=300.0, increment=2.0)
    game = StoredGame(
        id="full",
        variant="expert",
        players=3,
        handicap=(0, 2, 0),
        first=1,
        position=None,
        seed=42,
        action_limit=90,
        public=False,
        created=stamp,
        updated=stamp,
        seats=[
            StoredSeat("human", "Ann", token_hash="a" * 64),
            StoredSeat("computer", "Computer", level=3),
            StoredSeat("human", "Cid", token_hash="c" * 64),
        ],
        actions=["L3", "Td"],
        result="1-0-0",
        termination="resignation",
        previous_id="before",
        next_id=None,
        tournament_target=3,
        tournament_wins=(1, 0, 2),
        status="over winner o",
        finished=True,
        revision=7,
        owner="127.0.0.1",
        rated=True,
        clock=Clock(control, (290.5, 300.0, 12.25), None, 1_800_000_010.0),
        draw_offer=2,
        draw_declined=(1, 4),
        ended_by=1,
        rematch_asks=frozenset({0, 2}),
        event="Club night",
        record_date="2026-12-01",
    )
    assert set(game_columns(game)) == set(GameRow.__table__.c.keys())
    store.insert(game)
    assert store.load("full") == game
