"""The greedy baseline bot, the Bot interface values and the ladder of levels."""

from __future__ import annotations

import pickle

import pytest

from shiftago import Action, Game, Phase, Rules, State, Variant
from shiftago.engine.bot import Bot, Limits, RankedAction, format_value
from shiftago.engine.greedy import LOSS, WIN, GreedyBot
from shiftago.engine.levels import LEVELS, bot_for_level, default_level, level_name


def wins_at_once(state: State, action: Action) -> bool:
    """Brute force: the mover wins with this action, or with the scoring it sets up."""
    mover = state.turn
    after = state.after(action)
    if after.outcome is not None:
        return after.outcome.winners == (mover,)
    if after.phase is Phase.SCORE and after.turn == mover:
        return any(after.scores[mover] + o.points >= 10 for o in after.scoring_options())
    return False


def next_player_wins(state: State, action: Action) -> bool:
    """Brute force: after ``action`` another seat acts and can win at once."""
    after = state.after(action)
    if after.phase is not Phase.INSERT or after.turn == state.turn:
        return False
    return any(wins_at_once(after, reply) for reply in after.legal_actions())


WIN_POSITIONS = [
    # Express: a line of 5 (2 players) or 4 (3-4 players).
    "express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0",
    "express 3 7/7/7/7/g6/b6/ooo4 o insert 19,21,21 0,0,0 0,0,0",
    "express 4 7/7/7/w6/g6/b6/ooo4 o insert 19,21,21,21 0,0,0,0 0,0,0,0",
    # Expert and Extreme: an insertion whose line brings the score to 10.
    "expert 2 7/7/7/7/7/g6/oooo3 o insert 18,21 8,0 0,0",
    "expert 3 7/7/7/7/o6/b6/ggg4 g insert 21,19,21 0,8,0 0,0,0",
    "extreme 2 7/7/7/7/7/g6/oooo3 o insert 18,21 8,0 0,0",
    "extreme 4 7/7/7/w6/g6/b6/ooo4 o insert 19,21,21,21 8,0,0,0 0,0,0,0",
    # A scoring that reaches 10 among scorings that do not.
    "expert 2 7/7/7/7/7/ooooo2/oooooo1 o score 11,22 5,0 0,0",
    "extreme 3 7/7/7/7/o6/o6/oooo1oo o score 13,22,22 8,0,0 0,0,0",
]


@pytest.mark.parametrize("position", WIN_POSITIONS)
def test_greedy_wins_at_once_when_it_can(position: str) -> None:
    state = State.from_position(position)
    winning = [a for a in state.legal_actions() if wins_at_once(state, a)]
    assert winning, "the test position must offer a win"
    assert len(winning) < len(state.legal_actions()), "and something that does not win"
    for seed in range(5):
        bot = GreedyBot(seed)
        assert bot.choose(state) in winning
        ranked = bot.analyse(state)
        assert {r.action for r in ranked if r.value == WIN} == set(winning)


def test_greedy_finishes_a_win_set_up_by_its_insertion() -> None:
    game = Game(position="expert 2 7/7/7/7/7/g6/oooo3 o insert 18,21 8,0 0,0")
    bot = GreedyBot(1)
    best = bot.analyse(game.state)[0]
    assert best.value == WIN
    assert len(best.pv) == 2  # the insertion and the scoring that wins
    game.play(bot.choose(game.state))
    assert game.phase is Phase.SCORE
    game.play(bot.choose(game.state))
    assert game.outcome is not None and game.outcome.winners == (0,)


BLOCK_POSITIONS = [
    "express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0",
    "express 2 7/7/7/g6/g6/g6/g6 o insert 22,18 0,0 0,0",
    "express 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,0,0 0,0,0",
    "expert 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,8 0,0",
    "expert 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,8,0 0,0,0",
    "extreme 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,8 0,0",
    "expert 4 7/7/7/7/7/7/1ggg3 o insert 22,19,22,22 0,8,0,0 0,0,0,0",
    # g skips its next turn, so b is the next seat to act and its threat counts.
    "express 3 7/7/7/7/7/7/1bbb3 o insert 22,22,19 0,0,0 0,1,0",
]


@pytest.mark.parametrize("position", BLOCK_POSITIONS)
def test_greedy_blocks_a_must_block(position: str) -> None:
    state = State.from_position(position)
    losing = {a for a in state.legal_actions() if next_player_wins(state, a)}
    safe = set(state.legal_actions()) - losing
    assert losing and safe, "the test position must hold both kinds of action"
    for seed in range(5):
        bot = GreedyBot(seed)
        assert bot.choose(state) in safe
        ranked = bot.analyse(state)
        assert {r.action for r in ranked if r.value == LOSS} == losing
        for r in ranked:
            if r.value == LOSS:
                assert len(r.pv) >= 2  # shows the reply that wins


def test_greedy_ignores_a_seat_that_does_not_act_next() -> None:
    # b threatens a line of 4, but g acts next and cannot win: no action loses at once.
    state = State.from_position("express 3 7/7/7/7/7/7/1bbb3 o insert 22,22,19 0,0,0 0,0,0")
    assert all(r.value != LOSS for r in GreedyBot(0).analyse(state))


def seat_could_win(state: State, seat: str) -> bool:
    """Brute force: the seat ``seat`` (its letter) could win at once in ``state`` if it
    were its turn (the position with that seat to act)."""
    fields = state.position().split()
    fields[3] = seat
    turned = State.from_position(" ".join(fields))
    return any(wins_at_once(turned, a) for a in turned.legal_actions())


# 3 players, o to act, g next, b after it: b's line of three can be made four at once.
LATER_THREAT = "express 3 7/7/7/o6/g6/7/1bbb3 o insert 21,21,19 0,0,0 0,0,0"
# The same, and g threatens too: no action stops both.
BOTH_THREATEN = "express 3 ggg4/7/7/o6/7/7/1bbb3 o insert 21,19,19 0,0,0 0,0,0"


def test_level_2_with_3_players_stops_the_seat_after_next_when_it_can() -> None:
    state = State.from_position(LATER_THREAT)
    stops_b = {a for a in state.legal_actions() if not seat_could_win(state.after(a), "b")}
    assert stops_b and stops_b != set(state.legal_actions()), "the position must hold both"
    assert not any(next_player_wins(state, a) for a in state.legal_actions())
    for seed in range(5):
        assert bot_for_level(2, seed).choose(state) in stops_b


def test_the_watch_of_the_seat_after_next_is_second_to_the_next_seat() -> None:
    state = State.from_position(BOTH_THREATEN)
    # some actions stop b, but each of them lets g win
    assert any(not seat_could_win(state.after(a), "b") for a in state.legal_actions())
    for seed in range(5):
        choice = bot_for_level(2, seed).choose(state)
        assert not next_player_wins(state, choice)  # g is stopped first
        assert seat_could_win(state.after(choice), "b")  # no action stops both here


def test_level_2_watches_the_seat_after_next_only_with_3_players() -> None:
    state = State.from_position(LATER_THREAT)
    leaves_b_a_win = {a for a in state.legal_actions() if seat_could_win(state.after(a), "b")}
    assert leaves_b_a_win
    # the plain greedy bot (and level 2 with 2 or 4 players) sees no difference
    plain = GreedyBot(3).analyse(state)
    assert {r.value for r in plain} == {0}
    assert any(GreedyBot(seed).choose(state) in leaves_b_a_win for seed in range(5))
    for position in (
        "express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0",
        "express 4 7/7/7/7/7/7/1bbb3 o insert 22,22,19,22 0,0,0,0 0,0,0,0",
        "expert 4 7/7/7/7/7/7/1ggg3 o insert 22,19,22,22 0,8,0,0 0,0,0,0",
    ):
        other = State.from_position(position)
        for seed in range(3):
            assert bot_for_level(2, seed).analyse(other) == GreedyBot(seed).analyse(other)


def test_greedy_depth_one_does_not_look_at_the_reply() -> None:
    state = State.from_position(BLOCK_POSITIONS[0])
    assert all(r.value != LOSS for r in GreedyBot(0).analyse(state, Limits(depth=1)))
    assert any(r.value == LOSS for r in GreedyBot(0).analyse(state, Limits(depth=2)))


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        # A line of 5 (5 points) beats a line of 4 (2 points), 3 players.
        ("expert 3 7/7/7/7/7/oooo3/ooooo2 o score 13,22,22 0,0,0 0,0,0", 5),
        # 2 players: a line of 6 (5 points) beats a line of 5 (2 points).
        ("expert 2 7/7/7/7/7/ooooo2/oooooo1 o score 11,22 0,0 0,0", 5),
    ],
)
def test_greedy_scores_the_line_worth_most(position: str, expected: int) -> None:
    state = State.from_position(position)
    options: dict[Action, int] = {o.action: o.points for o in state.scoring_options()}
    choice = GreedyBot(3).choose(state)
    assert options[choice] == expected


def test_greedy_keeps_the_end_marble_that_leaves_more_in_lines() -> None:
    # Scoring a1-d1 keeps one end: keeping d1 leaves it next to d2 (a line of 2).
    state = State.from_position("expert 3 7/7/7/7/7/3o3/oooo3 o score 17,22,22 0,0,0 0,0,0")
    assert str(GreedyBot(0).choose(state)) == "xd1-a1"


def test_greedy_prefers_the_insertion_that_makes_the_best_line() -> None:
    state = State.from_position("expert 3 7/7/7/7/7/oooo3/ooo4 o insert 15,22,22 0,0,0 0,0,0")
    ranked = GreedyBot(0).analyse(state)
    after = state.after(ranked[0].action)
    assert max(o.points for o in after.scoring_options()) == 5
    assert ranked[0].value == 5


def play_out(variant: str, players: int, seeds: list[int], first: int = 0) -> list[Action]:
    bots = [GreedyBot(seed) for seed in seeds]
    game = Game(Rules(Variant(variant), players, action_limit=120), first=first)
    while not game.is_over:
        game.play(bots[game.turn].choose(game.state))
    return game.history


@pytest.mark.parametrize(("variant", "players"), [("express", 2), ("expert", 3), ("extreme", 4)])
def test_greedy_is_deterministic_with_a_seed(variant: str, players: int) -> None:
    seeds = list(range(10, 10 + players))
    assert play_out(variant, players, seeds) == play_out(variant, players, seeds)


def test_greedy_choice_depends_only_on_seed_and_state() -> None:
    state = Game(Rules(Variant.EXPRESS, 2), first=0).state
    bot = GreedyBot(42)
    first = bot.choose(state)
    bot.analyse(State.from_position("express 2 7/7/7/7/7/7/o6 g insert 21,22 0,0 0,0"))
    assert bot.choose(state) == first
    assert GreedyBot(42).choose(state) == first
    assert len({GreedyBot(seed).choose(state) for seed in range(20)}) > 1


def test_greedy_without_seed_still_plays() -> None:
    state = Game(Rules(Variant.EXTREME, 3), first=1).state
    assert GreedyBot().choose(state) in state.legal_actions()


def sample_states() -> list[State]:
    states = []
    for variant in Variant:
        for players in (2, 3, 4):
            game = Game(Rules(variant, players, action_limit=60), first=0)
            bot = GreedyBot(players)
            while not game.is_over:
                states.append(game.state)
                game.play(bot.choose(game.state))
            states.append(game.state)
    return states


def test_analyse_covers_every_legal_action_best_first() -> None:
    bot = GreedyBot(5)
    phases = set()
    for state in sample_states():
        ranked = bot.analyse(state)
        legal = state.legal_actions()
        assert sorted(map(str, (r.action for r in ranked))) == sorted(map(str, legal))
        assert len(ranked) == len(legal)
        values = [r.value for r in ranked]
        assert values == sorted(values, reverse=True)
        for r in ranked:
            assert isinstance(r, RankedAction)
            assert r.pv[0] == r.action
            assert LOSS <= r.value <= WIN
        if legal:
            assert bot.choose(state) == ranked[0].action
        phases.add(state.phase)
    assert phases == set(Phase)


def test_analyse_of_a_finished_game_is_empty_and_choose_refuses() -> None:
    state = State.from_position("express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0")
    over = state.after(Action.parse("L1"))
    assert over.is_over
    assert GreedyBot(0).analyse(over) == []
    with pytest.raises(ValueError):
        GreedyBot(0).choose(over)


def test_greedy_honours_a_node_limit_and_movetime() -> None:
    state = State.from_position(BLOCK_POSITIONS[0])
    for limits in (Limits(nodes=1), Limits(movetime_ms=1), Limits(nodes=10**6)):
        ranked = GreedyBot(0).analyse(state, limits)
        assert len(ranked) == len(state.legal_actions())


def test_limits_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        Limits(depth=0)
    with pytest.raises(ValueError):
        Limits(movetime_ms=-5)


def test_ranked_action_text_is_the_analyse_line() -> None:
    l1, r1 = Action.parse("L1"), Action.parse("R1")
    assert str(RankedAction(l1, 1000, (l1,))) == "L1 1000 L1"
    assert str(RankedAction(l1, -2.5, (l1, r1))) == "L1 -2.500 L1 R1"
    assert str(RankedAction(l1, 0)) == "L1 0"
    assert format_value(3.0) == "3"


def test_levels_ladder() -> None:
    assert LEVELS[:2] == [(1, "beginner"), (2, "easy")]
    assert [n for n, _ in LEVELS] == list(range(1, len(LEVELS) + 1))
    assert default_level() == LEVELS[-1][0]
    assert level_name(2) == "easy"
    beginner, greedy = bot_for_level(1, 7), bot_for_level(2, 7)
    assert isinstance(beginner, GreedyBot) and isinstance(greedy, GreedyBot)
    assert greedy.name == "easy" and greedy.value_unit
    # level 2 always stops the next player's win at once; with 2 players the beginner
    # looks for it in four positions of five (which ones is drawn from the seed and the
    # position), with 3 players never
    threat = State.from_position("express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0")
    stops = {"Bb", "Bc", "Bd", "Be"}
    assert all(str(bot_for_level(2, seed).choose(threat)) in stops for seed in range(20))
    stopped = sum(str(bot_for_level(1, seed).choose(threat)) in stops for seed in range(200))
    assert 140 <= stopped <= 190
    assert len({str(bot_for_level(1, 3).choose(threat)) for _ in range(3)}) == 1
    three = State.from_position("express 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,0,0 0,0,0")
    assert min(r.value for r in greedy.analyse(three)) == LOSS
    assert all(min(r.value for r in bot_for_level(1, s).analyse(three)) == 0 for s in range(20))
    assert isinstance(bot_for_level(default_level(), None), Bot)
    for bad in (0, len(LEVELS) + 1, -1):
        with pytest.raises(ValueError):
            bot_for_level(bad, 1)
        with pytest.raises(ValueError):
            level_name(bad)


def test_every_level_pickles_and_the_greedy_ones_choose_alike_after() -> None:
    # a library value pickles; the beginner's share of noticing once did not
    position = State.from_position("express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0")
    for number, _ in LEVELS:
        bot = bot_for_level(number, 5)
        twin = pickle.loads(pickle.dumps(bot))
        assert type(twin) is type(bot) and twin.name == bot.name
    for number in (1, 2):
        for seed in range(30):
            bot = bot_for_level(number, seed)
            twin = pickle.loads(pickle.dumps(bot))
            assert str(twin.choose(position)) == str(bot.choose(position))
