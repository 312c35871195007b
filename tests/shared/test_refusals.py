"""The rules' refusals as reasons and words (interfaces/shared/refusals.py): each cause
of a refused action named by its reason, and said in every language the terminal
programs offer, with the same catalogue entries as the pages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shiftago.core import Action, Game, Rules, ShiftagoError, State, Variant
from shiftago.interfaces.shared.catalogues import use_language
from shiftago.interfaces.shared.refusals import (
    REASONS,
    PushRule,
    Reason,
    action_reason,
    precise_reason,
    refusal_words,
)

#: Orange has a line of five on rank 1 to score; green has played nothing special.
ORANGE_SCORES = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]


@pytest.fixture
def english() -> Iterator[None]:
    yield
    use_language("en")


def refused(state: State, text: str) -> Reason:
    action: Action | None = None
    try:
        action = Action.parse(text)
        state.step(action)
    except ShiftagoError as error:
        return action_reason(state, action, error)
    raise AssertionError(f"{text} is legal here")


def test_each_cause_has_its_reason() -> None:
    express = Game(Rules(Variant.EXPRESS, 2), first=0)
    for action in ["L1"] * 7:
        express.play(action)  # rank 1 full, alternating colours
    expert = Game.from_actions(Rules(Variant.EXPERT, 2), ORANGE_SCORES, first=0)
    won = Game.from_actions(Rules(Variant.EXPRESS, 2), ORANGE_SCORES, first=0)
    assert refused(express.state, "Q9") == "not_an_action"
    assert refused(express.state, "L1") == "not_allowed"
    assert refused(express.state, "xa1-e1") == "nothing_to_score"
    assert refused(expert.state, "L4") == "score_first"
    assert refused(expert.state, "xa2-e2") == "no_such_line"
    assert refused(won.state, "L4") == "game_over"


@pytest.mark.parametrize("lang", ["de", "es", "it", "fr", "nl"])
def test_every_reason_is_said_in_every_language(lang: str, english: None) -> None:
    told: tuple[Reason | PushRule, ...] = (*REASONS, "lane_full", "apart")
    english_words = {r: refusal_words(r, "L1", "Orange") for r in told}
    use_language(lang)
    for reason in told:
        said = refusal_words(reason, "L1", "Orange")
        assert said != english_words[reason], (lang, reason)
        assert "{" not in said, said  # every placeholder filled
        if reason not in ("game_over",):
            assert "L1" in said


def test_a_refused_push_is_told_by_the_rule_that_refuses_it(english: None) -> None:
    full = Game(Rules(Variant.EXPRESS, 2), first=0)
    for action in ["L1"] * 7:
        full.play(action)  # rank 1 full
    # green skips two turns: orange acts again with only its a1 on the board
    alone = Game(Rules(Variant.EXPRESS, 2, handicap=(0, 2)), first=0)
    alone.play("L1")
    for state, text, reason, words in [
        (full.state, "L1", "lane_full", "L1 cannot be played: its lane is full"),
        (alone.state, "L2", "apart", "L2 is not allowed: while only your marbles are on"),
    ]:
        action = Action.parse(text)
        with pytest.raises(ShiftagoError) as refused_by:
            state.step(action)
        assert action_reason(state, action, refused_by.value) == "not_allowed"
        told = precise_reason(state, action, refused_by.value)
        assert told == reason
        assert refusal_words(told, text, "Orange").startswith(words)
