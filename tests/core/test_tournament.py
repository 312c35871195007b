"""The Express tournament (RULES.md section 4): first to ten wins, who starts next."""

from __future__ import annotations

import random

import pytest

from shiftago import Game, IllegalActionError, Rules, Tournament, TournamentScore, Variant


def play_randomly(game: Game, rng: random.Random) -> None:
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))


def test_tournament_player_after_winner_starts_next_game() -> None:
    rng = random.Random(3)
    tournament = Tournament(3, first="b", seed=1)
    assert tournament.game.first == 2
    for _ in range(15):
        game = tournament.game
        play_randomly(game, rng)
        outcome = game.outcome
        assert outcome is not None
        following = tournament.next_game()
        if outcome.winner is not None and not tournament.is_over:
            assert following.first == (outcome.winner + 1) % 3


def test_tournament_first_starter_drawn_like_a_game() -> None:
    for seed in range(20):
        assert Tournament(4, seed=seed).game.first == random.Random(seed).randrange(4)


def test_tournament_first_to_ten_wins() -> None:
    rng = random.Random(7)
    tournament = Tournament(2, seed=5)
    games = 0
    while not tournament.is_over:
        play_randomly(tournament.game, rng)
        tournament.next_game()
        games += 1
    winner = tournament.winner
    assert winner is not None
    assert tournament.wins[winner] == 10
    assert max(w for s, w in enumerate(tournament.wins) if s != winner) < 10
    assert games == sum(tournament.wins) + tournament.draws == len(tournament.finished)
    with pytest.raises(IllegalActionError):
        tournament.next_game()


def test_tournament_refuses_next_game_before_the_end() -> None:
    tournament = Tournament(2, first=0)
    tournament.game.play("L1")
    with pytest.raises(IllegalActionError):
        tournament.next_game()
    assert tournament.wins == [0, 0]
    assert [str(a) for a in tournament.game.history] == ["L1"]


def test_a_game_ended_off_the_board_counts_with_the_winners_given() -> None:
    tournament = Tournament(3, first=0, seed=2)
    tournament.game.play("L1")  # orange's time runs out on green's turn: the others win
    tournament.game.play("L2")
    assert tournament.next_game((2,)).first == 0  # blue won alone: the seat after it starts
    assert tournament.wins == [0, 0, 1] and len(tournament.finished) == 1
    tournament.game.play("R3")
    draws = tournament.draws
    tournament.next_game((2, 0))  # two seats share it: a draw, counted for nobody
    assert tournament.wins == [0, 0, 1] and tournament.draws == draws + 1


@pytest.mark.parametrize("winners", [(), (3,), (1, 1), (-1,), (True,)])
def test_a_game_ended_off_the_board_takes_only_seats_as_winners(winners) -> None:
    tournament = Tournament(3, first=0, seed=2)
    tournament.game.play("L1")
    with pytest.raises(IllegalActionError, match="winners"):
        tournament.next_game(winners)
    assert tournament.wins == [0, 0, 0] and not tournament.finished
    assert [str(a) for a in tournament.game.history] == ["L1"]


def test_a_game_the_rules_ended_keeps_their_result() -> None:
    rng = random.Random(5)
    tournament = Tournament(2, first=0, seed=3)
    play_randomly(tournament.game, rng)
    outcome = tournament.game.outcome
    assert outcome is not None
    others = tuple(s for s in range(2) if s not in outcome.winners)
    with pytest.raises(IllegalActionError, match="another result"):
        tournament.next_game(others)
    assert not tournament.finished
    tournament.next_game(outcome.winners)
    assert len(tournament.finished) == 1


def test_tournament_draw_starter_drawn_by_lot() -> None:
    tournament = Tournament(2, first=0, seed=11)
    rng = random.Random(0)
    while True:  # random 2-player Express games are drawn now and then
        game = Game(tournament.rules, first=0)
        play_randomly(game, rng)
        assert game.outcome is not None
        if game.outcome.is_draw:
            break
    tournament.game = game
    nxt = tournament.next_game()
    assert tournament.draws == 1 and tournament.wins == [0, 0]
    # The first starter was given, so this is the generator's first draw.
    assert nxt.first == random.Random(11).randrange(2)


@pytest.mark.parametrize(
    ("wins", "target", "winners", "after", "first", "champion"),
    [
        ((0, 0), 10, (0,), (1, 0), 1, None),
        ((0, 0), 10, (1,), (0, 1), 0, None),
        ((3, 4, 1), 10, (2,), (3, 4, 2), 0, None),
        ((2, 2, 2, 2), 10, (3,), (2, 2, 2, 3), 0, None),
        ((5, 5), 10, (0, 1), (5, 5), None, None),  # a draw counts for nobody
        ((9, 3), 10, (0,), (10, 3), 1, 0),
        ((0, 0, 0), 1, (1,), (0, 1, 0), 2, 1),
    ],
)
def test_tournament_score_counts_a_game_and_names_the_next_starter(
    wins, target, winners, after, first, champion
) -> None:
    score = TournamentScore(wins, target)
    counted = score.after(winners)
    assert counted == TournamentScore(after, target)
    assert score.next_first(winners) == first
    assert counted.champion == champion and counted.is_over == (champion is not None)
    assert score.wins == wins  # a value: counting makes a new one


def test_tournament_score_starts_a_new_series_once_won() -> None:
    won = TournamentScore((10, 4), 10)
    assert won.champion == 0
    assert won.next_series() == TournamentScore.start(2) == TournamentScore((0, 0), 10)
    going = TournamentScore((9, 4), 10)
    assert going.next_series() is going


@pytest.mark.parametrize(
    ("wins", "target"), [((0, 0), 0), ((0,), 10), ((0, 0, 0, 0, 0), 10), ((-1, 0), 10)]
)
def test_tournament_score_refuses_what_is_no_score(wins, target) -> None:
    with pytest.raises(ValueError):
        TournamentScore(wins, target)


def test_tournament_keeps_its_score_as_the_value() -> None:
    rng = random.Random(2)
    tournament = Tournament(3, first=0, seed=4, target=2)
    expected = TournamentScore.start(3, 2)
    while not tournament.is_over:
        play_randomly(tournament.game, rng)
        outcome = tournament.game.outcome
        assert outcome is not None
        tournament.next_game()
        expected = expected.after(outcome.winners)
        assert tournament.score == expected
        assert tournament.wins == list(expected.wins)
    assert tournament.winner == expected.champion is not None


def test_a_tournament_takes_its_number_of_players() -> None:
    with pytest.raises(TypeError, match="number of players"):
        Tournament(Rules(Variant.EXPRESS, 2))  # type: ignore[arg-type]
