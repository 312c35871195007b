"""``GAME``'s additions of issue 15 (docs/web-protocol.md): the history with record
numbering, handicap skips, what each seat may do, the take-back kind, past steps."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from shiftago import COLOURS, Game, Insertion, Rules, Scoring, Variant, cell_name
from shiftago.core.geometry import ENTRY_CELLS
from shiftago.formats.record import Record, format_record, parse_record
from shiftago.interfaces.server.games.views import motion_view
from support.server_support import client_for, connect, create
from support.waiting import wait_until


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'views.db'}"


def random_game(rules: Rules, first: int, seed: int, limit: int = 1000) -> Game:
    rng = random.Random(seed)
    game = Game(rules, first=first)
    while not game.is_over and len(game.history) < limit:
        game.play(rng.choice(game.legal_actions()))
    return game


def imported(client, game: Game) -> tuple[str, list[str], str]:
    """The game as a new game of people: its id, each seat's token, the record text."""
    text = format_record(Record.from_game(game))
    answer = client.post("/api/games/import", json={"record": text})
    assert answer.status_code == 201, answer.text
    tokens = [seat["join_url"].split("?seat=")[1] for seat in answer.json()["seats"]]
    return answer.json()["id"], tokens, text


@pytest.mark.parametrize(
    ("variant", "players", "seed", "limit"),
    [
        (Variant.EXPERT, 2, 1, 1000),  # scorings of 2 and 5 points, ends on no marbles
        (Variant.EXPERT, 3, 0, 1000),  # won by points with the last scoring
        (Variant.EXTREME, 3, 3, 60),  # 0-point lines
    ],
)
def test_history_numbers_turns_as_the_record_and_gives_each_scorings_points(
    sqlite_url, variant, players, seed, limit
):
    game = random_game(Rules(variant, players), 0, seed, limit)
    with client_for(sqlite_url) as client:
        game_id, _, text = imported(client, game)
        view = client.get(f"/api/games/{game_id}").json()
    turns = parse_record(text).turns()
    states = game.states
    history = view["history"]
    assert [h["index"] for h in history] == list(range(len(game.history)))
    assert [h["turn"] for h in history] == turns
    assert [h["action"] for h in history] == [str(a) for a in game.history]
    assert [h["seat"] for h in history] == [COLOURS[s.turn] for s in states[:-1]]
    scored = []
    for h, action, before, after in zip(
        history, game.history, states[:-1], states[1:], strict=True
    ):
        if isinstance(action, Scoring):
            mover = before.turn
            assert h["points"] == after.scores[mover] - before.scores[mover]
            scored.append(h["points"])
        else:
            assert h["points"] is None
        assert h["skipped"] == []
        assert h["motion"] == motion_view(before, action)
    assert view["motion"] == history[-1]["motion"]
    assert scored, "the game has scorings"
    assert any(turns[i] == turns[i + 1] for i in range(len(turns) - 1))  # a scoring's turn
    if variant is Variant.EXTREME:
        assert 0 in scored
    assert view["skipped_at_start"] == []


@pytest.mark.parametrize(
    ("variant", "players", "handicap", "first", "actions", "at_start", "skipped", "seats"),
    [
        # Orange's two skips: one as the game begins, one when the turn next comes.
        ("express", 2, [2, 0], "o", ["L1", "L3", "L5"], ["o"], [["o"], [], []], "ggo"),
        # Green and blue are passed over after orange, green once more after that.
        (
            "expert",
            3,
            [0, 2, 1],
            "o",
            ["L5", "Ba", "Bg", "Be", "Bd"],
            [],
            [["g", "b"], ["g"], [], [], []],
            "oobog",
        ),
        # Every seat has skips: the turn goes round twice before orange acts.
        ("express", 2, [2, 2], "o", ["L1", "L2"], ["o", "g", "o", "g"], [[], []], "og"),
        ("express", 2, [1, 1], "g", ["L1"], ["g", "o"], [[]], "g"),
        ("express", 3, [0, 0, 1], "g", ["L1", "L2"], [], [["b"], []], "go"),
    ],
)
def test_handicap_skips_are_named_where_they_happen(
    sqlite_url, variant, players, handicap, first, actions, at_start, skipped, seats
):
    with client_for(sqlite_url) as client:
        game_id, tokens = create(
            client, variant=variant, players=players, handicap=handicap, first=first
        )
        assert client.get(f"/api/games/{game_id}").json()["skipped_at_start"] == at_start
        with connect(client, game_id) as player:
            player.hello(tokens[0])
            game = None
            for version, (action, seat) in enumerate(zip(actions, seats, strict=True)):
                holder = tokens[COLOURS.index(seat)]
                with connect(client, game_id) as mover:
                    mover.hello(holder)
                    event = mover.act(action, version)
                    assert event["type"] == "action", event
                    game = event["game"]
        assert game is not None
        assert [h["skipped"] for h in game["history"]] == skipped
        assert [h["seat"] for h in game["history"]] == list(seats)
        assert game["skipped_at_start"] == at_start
        used = len(at_start) + sum(len(s) for s in skipped)
        assert used == sum(handicap) - sum(game["skips"])


#: A person's seat before it has acted, in a game between two people: it may offer a
#: draw and abort; nobody may do either once the game is over.
EARLY = {"draw": True, "abort": True}
NONE = {"draw": False, "abort": False}


def test_may_and_takeback_between_people(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client, first="o")
        start = client.get(f"/api/games/{game_id}").json()
        assert start["takeback"] is None and start["analysable"] is False
        assert start["may"] == {
            "o": {"act": True, "resign": True, "takeback": False, "rematch": False, **EARLY},
            "g": {"act": False, "resign": True, "takeback": False, "rematch": False, **EARLY},
        }
        with connect(client, game_id) as o:
            o.hello(ann)
            played = o.act("L3", 0)["game"]
            assert played["takeback"] == "action"
            assert played["may"] == {
                # o has acted: o may no longer abort, g still may
                "o": {"act": False, "resign": True, "takeback": True, "rematch": False}
                | {"draw": True, "abort": False},
                "g": {"act": True, "resign": True, "takeback": True, "rematch": False, **EARLY},
            }
            o.send({"type": "resign"})
            over = o.until_type("state")["game"]
        assert over["takeback"] is None and over["analysable"] is True
        assert over["may"] == {
            colour: {"act": False, "resign": False, "takeback": False, "rematch": True} | NONE
            for colour in "og"
        }


def test_may_and_takeback_against_the_computer(sqlite_url):
    seats = [{"kind": "human"}, {"kind": "computer", "level": 1}]
    nobody = {"act": False, "resign": False, "takeback": False, "rematch": False, **NONE}
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client, first="o", seats=seats)
        with connect(client, game_id) as o:
            o.hello(ann)
            o.act("L3", 0)
            answered = o.until(lambda e: e["type"] == "action" and e["version"] == 2)["game"]
        assert answered["takeback"] == "turn"
        assert answered["may"]["o"] == {
            "act": True,
            "resign": True,
            "takeback": True,
            "rematch": False,
            "draw": False,  # no draw offers to the computer
            "abort": False,
        }
        assert answered["may"]["g"] == nobody  # a computer's seat has no holder
        # The computer began: after its first action the person has no turn to go back to.
        game_id, _ = create(client, first="o", seats=[seats[1], seats[0]])
        first = wait_until(
            lambda: client.get(f"/api/games/{game_id}").json(), lambda g: g["version"] != 0
        )
        assert first["takeback"] is None and first["may"]["g"]["takeback"] is False
        assert first["may"]["g"]["act"] is True and first["may"]["o"] == nobody


def test_past_steps_show_the_game_as_it_was(sqlite_url):
    game = random_game(Rules(Variant.EXPERT, 3), 0, 0)
    with client_for(sqlite_url) as client:
        game_id, tokens, _ = imported(client, game)
        with connect(client, game_id) as o:
            events = o.hello(tokens[0], seen=len(game.history) - 3)
        now = client.get(f"/api/games/{game_id}").json()
    replayed = [e for e in events if e["type"] == "action"]
    assert [e["version"] for e in replayed] == [len(game.history) - n for n in (2, 1, 0)]
    for event in replayed:
        view, version = event["game"], event["version"]
        state = game.states[version]
        assert view["version"] == version and view["position"] == state.position()
        assert view["history"] == now["history"][:version]
        assert view["analysable"] == state.is_over
        assert view["takeback"] == "action"
        turn = None if state.is_over else COLOURS[state.turn]
        assert view["turn"] == turn
        assert [c for c, may in view["may"].items() if may["act"]] == ([turn] if turn else [])
    assert replayed[-1]["game"]["result"]["reason"] == "points"
    assert replayed[-1]["game"]["result"]["line"]


def test_the_history_kept_between_views_is_the_history_made_afresh():
    """Each view makes only the new actions' entries (views.HistoryEntries); after every
    action, a take-back and other actions, a view of a past step and a game read again,
    the history is the one made from nothing."""
    from shiftago.interfaces.server.games.creating import GameSpec, SeatSpec, build
    from shiftago.interfaces.server.games.live import rebuild
    from shiftago.interfaces.server.games.views import game_view, history_view

    spec = GameSpec(Variant.EXPERT, 2, [SeatSpec("human", "a"), SeatSpec("human", "b")], seed=4)
    live, _ = build(spec)
    rng = random.Random(5)

    def afresh(upto: int | None = None) -> list[dict]:
        n = live.version if upto is None else upto
        return history_view(live.game.states[: n + 1], live.game.history[:n])

    checked = 0
    for step in range(1, 80):
        if live.over:
            break
        live.game.play(rng.choice(live.game.state.legal_actions()))
        live.stored.actions.append(str(live.game.history[-1]))
        assert game_view(live)["history"] == afresh()
        if step % 7 == 0:  # take back two, go on otherwise
            for _ in range(2):
                live.game.undo()
                live.stored.actions.pop()
            assert game_view(live)["history"] == afresh()
        if step % 5 == 0:  # a past step, then the game as it is
            assert game_view(live, live.version // 2)["history"] == afresh(live.version // 2)
            assert game_view(live)["history"] == afresh()
        if step % 11 == 0:  # read again: other state objects, the same game
            live.game = rebuild(live.stored)
            assert game_view(live)["history"] == afresh()
        checked += 1
    assert checked > 20
    assert any(entry["points"] is not None for entry in afresh()), "the game has scorings"


def test_a_motion_says_what_the_core_moved():
    """Pushes carry their shifted marbles and entry, scorings the cells they empty,
    2 players keeping both ends (the core's motion, tested in tests/core)."""
    game = random_game(Rules(Variant.EXPERT, 2), 0, 1)
    for before, action in zip(game.states, game.history, strict=False):
        assert isinstance(action, Scoring | Insertion)
        motion = motion_view(before, action)
        if isinstance(action, Scoring):
            option = next(o for o in before.scoring_options() if o.action == action)
            assert motion["moves"] == [] and motion["entry"] is None
            assert len(motion["removed"]) == len(option.line.cells) - 2
        else:
            assert motion["entry"] == cell_name(ENTRY_CELLS[action.index])
            assert motion["side"] == str(action)[0] and motion["removed"] == []


def test_the_levels_carry_the_rules_numbers_the_forms_need(sqlite_url):
    with client_for(sqlite_url) as client:
        rules = client.get("/api/levels").json()["rules"]
    assert rules == {
        "marbles": 22,
        "max_handicap": 6,
        "start": "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
    }
