"""Shiftago as a PettingZoo AEC environment, in the manner of ``pettingzoo.classic``.

>>> from shiftago.env import shiftago_v0
>>> env = shiftago_v0.env(variant="expert", players=3)
>>> env.reset(seed=1)
>>> env.agent_selection, env.action_space("player_0")
('player_0', Discrete(668))
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()), info
((14, 7, 7), 28, {'seat': 0, 'phase': 'insert'})
>>> env.step(10)  # R4
>>> env.agent_selection
'player_1'

:func:`env` wraps :class:`raw_env` like the classic environments: an illegal action
ends the game with reward -1 for the agent that made it (and 0 for the others), an
action outside the space fails an assertion, and the order of calls is enforced.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from shiftago.core.errors import GameOverError, IllegalActionError
from shiftago.core.rules import Variant
from shiftago.core.state import State
from shiftago.engine.kernel.convert import action_text, from_state, outcome_of, to_state
from shiftago.engine.kernel.moves import apply_action
from shiftago.engine.kernel.tables import OVER, PHASE, SCORE, TURN

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
    observation_shape,
    observe,
    outcome_rewards,
)

__all__ = ["env", "raw_env"]

NAME: Final = "shiftago_v0"


#: The type of the environment: agent names, observations and actions.
ShiftagoAEC: TypeAlias = AECEnv[str, dict[str, Any], np.int64]


def env(**kwargs: Any) -> ShiftagoAEC:
    """:class:`raw_env` with the classic wrappers (illegal action: reward -1, game over)."""
    wrapped: ShiftagoAEC = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(ShiftagoAEC, EzPickle):
    """Shiftago for 2-4 agents ``player_0``.. ``player_{n-1}``, who are seats 0.. n-1
    (orange, green, blue, white).

    The state is a kernel array (:mod:`shiftago.engine.kernel`). ``agent_selection`` is
    the seat to act; after a scoring in Expert and Extreme the same agent acts again, and
    handicap skips are no actions (the skipped agent is simply not selected). Seat 0
    starts unless ``reset(options={"first": seat})`` says otherwise (other option keys
    are ignored); nothing in the game is random, the seed only seeds :attr:`np_random`.

    Observations (:mod:`.spaces`) are relative to the observing agent (its own marbles
    first); the ``action_mask`` holds the legal actions for the agent to act and zeros
    for the others. Rewards: at the end each agent gets its outcome reward (win +1, loss
    -1, a ``k``-way draw ``2/k-1``); with ``points_weight`` ``w > 0`` (Expert and
    Extreme; nothing happens in Express, which has no points) each scoring of ``p``
    points also gives the scorer ``+w*p/10`` and every other agent ``-w*p/(10*(n-1))``,
    a zero-sum shaping. The end of a game, the action limit included (it ends the game
    by the rules), is a termination of every agent; nothing is ever truncated.

    Extreme has no bound in the rulebook, so it gets an action limit of 400 unless
    ``action_limit`` says otherwise (RULES.md section 7 allows one for automated play);
    ``action_limit`` bounds the other variants too.

    :meth:`state` is the global state for a centralised critic: the version 1 planes
    seen by seat 0 (absolute seat order, the seat to act included), shape
    ``(5n + 2, 7, 7)``, with :attr:`state_space`. ``observation_version`` 1 gives the
    agents version 1 observations too (the seat to act); 0, the default, keeps version 0.

    :meth:`step` with an illegal action raises :class:`IllegalActionError` (a
    ``ValueError``) naming the action and the legal ones, and changes nothing;
    :func:`env` turns it into the classic reward of -1. :attr:`history` lists the
    action indices played since the reset.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": NAME,
        "render_modes": RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: str | Variant = "express",
        players: int = 2,
        handicap: Sequence[int] | None = None,
        action_limit: int | None = None,
        points_weight: float = 0.0,
        render_mode: str | None = None,
        observation_version: int = 0,
    ) -> None:
        EzPickle.__init__(
            self,
            variant,
            players,
            handicap,
            action_limit,
            points_weight,
            render_mode,
            observation_version,
        )
        # AECEnv.__init__ does nothing (and is untyped): there is nothing to call.
        self.rules = game_rules(variant, players, handicap, action_limit)
        self.points_weight = checked_weight(points_weight)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {RENDER_MODES} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_version = checked_version(observation_version)
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        version = self.observation_version
        self.observation_spaces = {
            a: observation_space(players, version) for a in self.possible_agents
        }
        self.state_space = spaces.Box(0.0, 1.0, observation_shape(players, 1), np.float32)
        self.action_spaces = {a: spaces.Discrete(ACTION_COUNT) for a in self.possible_agents}
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self.reset()

    def __deepcopy__(self, memo: dict[int, Any]) -> raw_env:
        """The game as it stands, for a search that copies the environment to look
        ahead (pickling, like PettingZoo's classic environments, makes a fresh one from
        the constructor's arguments)."""
        clone = self.__class__.__new__(self.__class__)
        memo[id(self)] = clone
        for name, value in self.__dict__.items():
            setattr(clone, name, copy.deepcopy(value, memo))
        return clone

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the game -----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(gymnasium_seed(seed))
        self._s = from_state(State.initial(self.rules, first_seat(options, self.rules.players)))
        self.history: list[int] = []
        self.agents: list[str] = self.possible_agents[:]
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(self.agents, 0.0)
        self.terminations: dict[str, bool] = dict.fromkeys(self.agents, False)
        self.truncations: dict[str, bool] = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = self._infos()
        self.agent_selection: str = self.possible_agents[int(self._s[TURN])]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if not self.agents:
            raise GameOverError("the game is over and every agent is done: reset() starts anew")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        code = action_index(action)
        if not action_mask(self._s)[code]:
            raise IllegalActionError(
                f"action {code} ({action_text(code, self.rules.players)}) is not legal for "
                f"{agent} now; the legal actions are {legal_text(self._s)}"
            )
        seat = self._seats[agent]
        before = int(self._s[SCORE + seat])
        apply_action(self._s, code)
        self.history.append(code)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        gained = int(self._s[SCORE + seat]) - before
        if gained and self.points_weight:
            shaping = points_shaping(self.rules.players, seat, gained, self.points_weight)
            for other in self.agents:
                self.rewards[other] += shaping[self._seats[other]]
        if int(self._s[PHASE]) == OVER:
            final = outcome_rewards(self._s)
            for other in self.agents:
                self.rewards[other] += float(final[self._seats[other]])
            self.terminations = dict.fromkeys(self.agents, True)
        self.infos = self._infos()
        self.agent_selection = self.possible_agents[int(self._s[TURN])]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seats[agent]
        if seat == int(self._s[TURN]) and int(self._s[PHASE]) != OVER:
            mask = action_mask(self._s)
        else:
            mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        seen = observe(self._s, seat, self.observation_version)
        return {"observation": seen, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state: the version 1 planes of the position seen by seat 0."""
        return observe(self._s, 0, 1)

    def game_state(self) -> State:
        """The position as a core :class:`~shiftago.core.State`."""
        return to_state(self._s, self.rules)

    # --- drawing ------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        return render.render_in_mode(self.render_mode, self._s, self.rules, self.history)

    def close(self) -> None:
        """Nothing to release: rendering opens no window."""

    # --- inside -------------------------------------------------------------------
    def _infos(self) -> dict[str, dict[str, Any]]:
        phase = phase_name(self._s)
        outcome = outcome_of(self._s)
        infos: dict[str, dict[str, Any]] = {}
        for agent in self.agents:
            info: dict[str, Any] = {"seat": self._seats[agent], "phase": phase}
            if outcome is not None:
                info["outcome"] = outcome
            infos[agent] = info
        return infos
