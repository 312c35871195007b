"""A Gymnasium environment: one learner plays one seat, bots play the others.

>>> import numpy as np
>>> from shiftago.env.single import ShiftagoEnv
>>> env = ShiftagoEnv("express", 2, opponent="random")
>>> obs, info = env.reset(seed=7)
>>> obs["observation"].shape, obs["action_mask"].sum(), info["seat"]
((10, 7, 7), np.int64(28), 0)
>>> obs, reward, terminated, truncated, info = env.step(np.int64(3))  # L4
>>> terminated, truncated, len(env.history)  # the learner's L4 and the bot's answer
(False, False, 2)

Importing this module registers the environment as ``shiftago/Shiftago-v0``, so
``gymnasium.make("shiftago.env.single:shiftago/Shiftago-v0", players=3)`` works without
an import first. The action space and observation are those of :mod:`.spaces`; the
settings all environments share are in :mod:`.settings`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces

from shiftago.core.errors import GameOverError, IllegalActionError
from shiftago.core.outcome import Outcome
from shiftago.core.rules import Rules, Variant
from shiftago.core.state import State
from shiftago.engine.bot import Bot
from shiftago.engine.kernel.convert import from_state, outcome_of, to_state
from shiftago.engine.kernel.moves import apply_action
from shiftago.engine.kernel.tables import OVER, PHASE, SCORE, TURN
from shiftago.engine.levels import bot_for_level, level
from shiftago.engine.random_bot import RandomBot

from . import render
from .settings import (
    RENDER_MODES,
    action_index,
    checked_weight,
    game_rules,
    gymnasium_seed,
    legal_text,
    observation_space,
    phase_name,
    points_shaping,
)
from .spaces import (
    ACTION_COUNT,
    action_mask,
    checked_version,
    first_seat,
    index_of,
    is_whole_number,
    observe,
    outcome_rewards,
)

__all__ = ["ENV_ID", "Policy", "ShiftagoEnv"]

#: The Gymnasium id of :class:`ShiftagoEnv`.
ENV_ID: Final = "shiftago/Shiftago-v0"
#: How many games ``reset`` starts before it gives up on reaching the learner's turn: a
#: game the opponents win while the learner skips its handicap is not an episode.
GAMES_TO_REACH_THE_LEARNER: Final = 100
#: An opponent policy: the observation of the seat to act and its action mask in, the
#: chosen action index out.
Policy = Callable[[np.ndarray, np.ndarray], int]


# --- opponents -----------------------------------------------------------------------
# Plain classes, not closures, so that an environment with any opponent pickles.
_Player = Callable[[np.ndarray], int]  # kernel state (opponent to act) -> action index


@dataclass(frozen=True)
class _BotPlayer:
    """A bot playing one seat."""

    bot: Bot
    rules: Rules

    def __call__(self, s: np.ndarray) -> int:
        return index_of(self.bot.choose(to_state(s, self.rules)), self.rules.players)


@dataclass(frozen=True)
class _PolicyPlayer:
    """A policy ``(observation, mask) -> action`` playing one seat (it sees the
    environment's observation version)."""

    policy: Policy
    version: int

    def __call__(self, s: np.ndarray) -> int:
        seen = observe(s, int(s[TURN]), self.version)
        return action_index(self.policy(seen, action_mask(s)))


@dataclass(frozen=True)
class _Opponents:
    """What plays the opponent seats: one of a given ``bot``, a random bot, the level
    ``number``'s bot (seeded per seat) or a ``policy``."""

    bot: Bot | None = None
    number: int | None = None
    policy: Policy | None = None

    def __call__(self, rules: Rules, seed: int, version: int) -> _Player:
        if self.bot is not None:
            return _BotPlayer(self.bot, rules)
        if self.number is not None:
            return _BotPlayer(bot_for_level(self.number, seed), rules)
        if self.policy is not None:
            return _PolicyPlayer(self.policy, version)
        return _BotPlayer(RandomBot(seed), rules)


def _opponent_factory(opponent: str | int | Policy | Bot) -> _Opponents:
    """What plays the opponent seats; checked when the environment is made."""
    if isinstance(opponent, Bot):
        return _Opponents(bot=opponent)
    if isinstance(opponent, str):
        text = opponent.strip().lower()
        if text == "random":
            return _Opponents()
        digits = text.removeprefix("level:")
        if digits != text and digits.isdigit():
            opponent = int(digits)
        else:
            raise ValueError(
                f"unknown opponent {opponent!r}: expected 'random', 'level:N', a level "
                "number, a Bot or a policy(observation, mask) -> action"
            )
    if isinstance(opponent, int) and not isinstance(opponent, bool):
        return _Opponents(number=level(opponent).number)  # raises for an unknown level
    if callable(opponent):
        return _Opponents(policy=opponent)
    raise ValueError(f"unknown opponent {opponent!r}")


class ShiftagoEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Shiftago for one learner: it plays ``learner_seat``, opponents play the others.

    ``opponent`` is ``"level:N"`` or ``N`` (the playing level 1-7 of
    :mod:`shiftago.engine.levels`, under its own depth, node or iteration limits),
    ``"random"``, a :class:`~shiftago.engine.bot.Bot`, or a policy
    ``policy(observation, mask) -> action`` that gets the observation of the seat it
    plays (its own marbles first). Levels and ``"random"`` get a fresh bot per seat at
    each ``reset`` with a seed drawn from :attr:`np_random`, so a seeded episode repeats
    exactly; a given ``Bot`` or policy is used as it is. ``learner_seat`` is a seat or
    ``"random"`` (drawn from :attr:`np_random` at each reset). Seat 0 starts unless
    ``reset(options={"first": seat})`` says otherwise; other option keys are ignored.

    ``reset`` and ``step`` play the opponents until the learner is to act or the game
    is over. The reward is the learner's end-of-game reward of
    :func:`.spaces.write_outcome_rewards` (win +1, loss -1, a ``k``-way draw ``2/k-1``);
    with ``points_weight`` ``w > 0`` (Expert and Extreme) each scoring of ``p`` points
    also gives ``+w*p/10`` when the learner scores and ``-w*p/(10*(n-1))`` when an
    opponent does (:func:`points_shaping`). The action limit (:func:`game_rules`: Extreme
    defaults to :data:`EXTREME_ACTION_LIMIT`) ends a game by the rules, so an episode
    only terminates; it is never truncated.

    An action of the space that is not legal now ends the episode with reward -1 and
    ``info["illegal_action"] = True`` (Gymnasium's checker steps with unmasked samples);
    a value outside the space raises. Use the mask (``obs["action_mask"]``,
    ``info["action_mask"]`` or :meth:`action_masks`, the sb3-contrib convention) to
    choose legal actions. ``info`` also has ``seat``, ``phase`` and, at the end,
    ``outcome`` (:class:`~shiftago.core.outcome.Outcome`). :attr:`history` lists the
    action indices of every seat since the reset. ``observation_version`` 1 adds the
    planes of the seat to act (:mod:`.spaces`); 0, the default, keeps version 0.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Variant = "express",
        players: int = 2,
        opponent: str | int | Policy | Bot = "level:3",
        learner_seat: int | str = 0,
        handicap: Sequence[int] | None = None,
        action_limit: int | None = None,
        points_weight: float = 0.0,
        render_mode: str | None = None,
        observation_version: int = 0,
    ) -> None:
        self.rules = game_rules(variant, players, handicap, action_limit)
        self.observation_version = checked_version(observation_version)
        self.points_weight = checked_weight(points_weight)
        self._factory = _opponent_factory(opponent)
        if learner_seat != "random" and (
            not is_whole_number(learner_seat) or not 0 <= learner_seat < players
        ):
            raise ValueError(f"learner_seat is 'random' or a seat 0-{players - 1}")
        self.learner_choice = learner_seat
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {RENDER_MODES} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = observation_space(players, self.observation_version)
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self.learner = 0
        self.history: list[int] = []
        self._s = from_state(State.initial(self.rules, 0))
        self._opponents: dict[int, _Player] = {}
        self._done = True

    # --- the episode --------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=gymnasium_seed(seed))
        n = self.rules.players
        first = first_seat(options, n)
        if self.learner_choice == "random":
            self.learner = int(self.np_random.integers(n))
        else:
            self.learner = int(self.learner_choice)
        left = 0
        self._new_game(first)
        while self._over():
            left += 1
            if left == GAMES_TO_REACH_THE_LEARNER:
                self._done = True
                raise ValueError(
                    f"{left} games in a row ended before the learner's first turn (the "
                    "opponents won while it skipped its handicap, or the action limit ran "
                    "out): give it fewer skips or a higher limit"
                )
            self._new_game(first)
        if self.render_mode == "human":
            self.render()
        info = self._info()
        info["games_ended_before_the_learner"] = left
        return self._observation(), info

    def _new_game(self, first: int) -> None:
        """Start a game with new opponents and play up to the learner's first turn."""
        n = self.rules.players
        seeds = [int(x) for x in self.np_random.integers(2**63 - 1, size=n)]
        self._opponents = {
            seat: self._factory(self.rules, seeds[seat], self.observation_version)
            for seat in range(n)
            if seat != self.learner
        }
        self._s = from_state(State.initial(self.rules, first))
        self.history = []
        self._done = False
        self._play_opponents_or_end()

    def step(self, action: np.int64) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise GameOverError("the episode is over: call reset() first")
        code = action_index(action)
        if not action_mask(self._s)[code]:
            self._done = True
            return self._observation(), -1.0, True, False, self._info(illegal=True)
        reward = self._play(code)
        reward += self._play_opponents_or_end()
        if self._over():
            self._done = True
            reward += float(outcome_rewards(self._s)[self.learner])
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner as booleans (sb3-contrib's MaskablePPO)."""
        return self._mask().astype(bool)

    def game_state(self) -> State:
        """The position as a core :class:`~shiftago.core.State`."""
        return to_state(self._s, self.rules)

    @property
    def outcome(self) -> Outcome | None:
        return outcome_of(self._s)

    # --- drawing ------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        return render.render_in_mode(self.render_mode, self._s, self.rules, self.history)

    # --- inside -------------------------------------------------------------------
    def _over(self) -> bool:
        return int(self._s[PHASE]) == OVER

    def _mask(self) -> np.ndarray:
        if self._done:
            return np.zeros(ACTION_COUNT, dtype=np.int8)
        return action_mask(self._s)

    def _observation(self) -> dict[str, np.ndarray]:
        seen = observe(self._s, self.learner, self.observation_version)
        return {"observation": seen, "action_mask": self._mask()}

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {
            "seat": self.learner,
            "phase": phase_name(self._s),
            "action_mask": self._mask(),
            "illegal_action": illegal,
        }
        if self._over():
            info["outcome"] = outcome_of(self._s)
        return info

    def _play(self, code: int) -> float:
        """Apply a legal action; return the learner's shaping reward for it."""
        seat = int(self._s[TURN])
        before = int(self._s[SCORE + seat])
        apply_action(self._s, code)
        self.history.append(code)
        gained = int(self._s[SCORE + seat]) - before
        if not (gained and self.points_weight):
            return 0.0
        return points_shaping(self.rules.players, seat, gained, self.points_weight)[self.learner]

    def _play_opponents_or_end(self) -> float:
        """The opponents' actions; an opponent that fails (an illegal action, an error
        of its own) ends the episode before its error goes up, so that no step plays
        for it afterwards."""
        try:
            return self._play_opponents()
        except BaseException:
            self._done = True
            raise

    def _play_opponents(self) -> float:
        reward = 0.0
        while not self._over() and int(self._s[TURN]) != self.learner:
            seat = int(self._s[TURN])
            code = self._opponents[seat](self._s.copy())
            if not action_mask(self._s)[code]:
                raise IllegalActionError(
                    f"the opponent at seat {seat} chose action {code}, which is not legal "
                    f"now; the legal actions are {legal_text(self._s)}"
                )
            reward += self._play(code)
        return reward


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="shiftago.env.single:ShiftagoEnv")
