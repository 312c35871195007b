"""The random bot: legal, uniform, repeatable with a seed, no opinion."""

from __future__ import annotations

from collections import Counter

import pytest

from shiftago import Game, Rules, State, Variant
from shiftago.engine.random_bot import RandomBot


@pytest.mark.parametrize(
    ("variant", "players"),
    [(Variant.EXPRESS, 2), (Variant.EXPERT, 3), (Variant.EXTREME, 4)],
)
def test_random_bot_plays_legal_actions_to_the_end(variant: Variant, players: int) -> None:
    game = Game(Rules(variant, players, action_limit=300), first=0)
    bot = RandomBot(7)
    while not game.is_over:
        action = bot.choose(game.state)
        assert action in game.legal_actions()
        game.play(action)


def test_same_seed_same_actions() -> None:
    def actions(seed: int) -> list[str]:
        game, bot = Game(Rules(), first=0), RandomBot(seed)
        for _ in range(20):
            game.play(bot.choose(game.state))
        return [str(a) for a in game.history]

    assert actions(3) == actions(3)
    assert actions(3) != actions(4)


def test_every_legal_action_is_chosen() -> None:
    state = Game(Rules(), first=0).state
    bot = RandomBot(1)
    counts = Counter(bot.choose(state) for _ in range(2000))
    assert set(counts) == set(state.legal_actions())
    assert min(counts.values()) > 30  # 28 actions, about 71 each


def test_analyse_lists_every_legal_action_at_zero() -> None:
    state = State.from_position("expert 2 7/7/7/7/7/ooooo2/oooooo1 o score 11,22 5,0 0,0")
    ranked = RandomBot(1).analyse(state)
    assert [r.action for r in ranked] == state.legal_actions()
    assert all(r.value == 0 and r.pv == (r.action,) for r in ranked)
    assert RandomBot(1).proven(0) == 0


def test_no_action_when_the_game_is_over() -> None:
    game = Game(position="express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0")
    game.play("L1")
    assert game.is_over
    with pytest.raises(ValueError, match="over"):
        RandomBot(1).choose(game.state)
    assert RandomBot(1).analyse(game.state) == []
