"""The rules' refusals as reasons and words (interfaces/shared/refusals.py): each cause
of a refused action named by its reason, and said in every language the terminal
programs offer, with the same catalogue entries as the pages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shiftago.core import Action, Game, Rules, ShiftagoError, State, Variant
from shiftago.interfaces.shared.catalogues import use_language
from shiftago.interfaces.shared.refusals import REASONS, Reason, action_reason, refusal_words

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
    english_words = {r: refusal_words(r, "L1", "Orange") for r in REASONS}
    use_language(lang)
    for reason in REASONS:
        said = refusal_words(reason, "L1", "Orange")
        assert said != english_words[reason], (lang, reason)
        assert "{" not in said, said  # every placeholder filled
        if reason not in ("game_over",):
            assert "L1" in said
