"""Shiftago as pure functions on batches of states, in the manner of pgx, on the numba
kernel: for batched tree search and AlphaZero-style self-play.

>>> import numpy as np
>>> from shiftago.env.functional import FunctionalEnv
>>> env = FunctionalEnv("expert", players=3)
>>> states = env.init(np.arange(4))          # four games, first seats drawn from the keys
>>> states.observation.shape, states.legal_action_mask.shape, states.rewards.shape
((4, 14, 7, 7), (4, 668), (4, 3))
>>> actions = np.argmax(states.legal_action_mask, axis=1)
>>> after = env.step(states, actions)        # new arrays; ``states`` is left as it was
>>> int(after.kernel[:, 18].sum()), int(states.kernel[:, 18].sum())   # actions played
(4, 0)

:class:`States` holds one row per slot: the kernel state (:mod:`..engine.kernel`),
``current_player`` (the seat to act; the last mover once terminated),
``observation`` (:mod:`.spaces` planes of the seat to act, version 0 or 1),
``legal_action_mask`` (all false once terminated), ``rewards`` (per seat, of the step
that made the state: outcome rewards ``2 * share - 1`` at the end, plus points
shaping with ``points_weight`` as in :mod:`.batched`), ``terminated`` and
``first_seat``. Nothing resets by itself: stepping a terminated slot leaves it as it is
with zero rewards (its action is ignored), as pgx does; :meth:`FunctionalEnv.reset_slot`
starts a new game there. Every method returns new arrays and never writes to its
arguments, so a search keeps any states it likes. An action that is not legal in a
live slot raises :class:`.batched.IllegalBatchActionError`.

:class:`.batched.BatchedEnv` (in place, automatic reset) stands beside this one and
plays the same games on the same kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

import numpy as np
from numba import njit

from shiftago.core import State, Variant
from shiftago.engine.kernel.convert import action_text, from_state
from shiftago.engine.kernel.moves import apply_action, legal_actions
from shiftago.engine.kernel.rng import pick, seed_of, xorshift
from shiftago.engine.kernel.tables import (
    LIMIT,
    MAX_ACTIONS,
    OVER,
    PHASE,
    PLAYERS,
    SCORE,
    STATE_SIZE,
    TURN,
    VARIANT,
    WIN_POINTS,
)

from .batched import IllegalBatchActionError
from .settings import checked_weight, game_rules
from .spaces import (
    ACTION_COUNT,
    checked_version,
    encode_observation,
    is_whole_number,
    plane_count,
    write_outcome_rewards,
)


@dataclass(frozen=True)
class States:
    """A batch of games (see the module doc); every field has the slots first."""

    kernel: np.ndarray
    current_player: np.ndarray
    observation: np.ndarray
    legal_action_mask: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    first_seat: np.ndarray

    @property
    def batch(self) -> int:
        return int(self.kernel.shape[0])

    def copy(self) -> States:
        """A deep copy (every array copied)."""
        return States(**{f.name: getattr(self, f.name).copy() for f in fields(self)})

    def slot(self, index: int) -> States:
        """Slot ``index`` as a batch of one (a copy)."""
        b = _checked_slot(self, index)
        return States(**{f.name: getattr(self, f.name)[b : b + 1].copy() for f in fields(self)})


def _checked_slot(states: States, index: object) -> int:
    if not is_whole_number(index):
        raise TypeError(f"a slot is a whole number, not {index!r}")
    if not 0 <= index < states.batch:
        raise IndexError(f"the slots are 0-{states.batch - 1}, not {index}")
    return int(index)


# --- compiled parts -----------------------------------------------------------------


@njit(cache=True, nogil=True)
def _show(
    kernel: np.ndarray,
    players: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    moves: np.ndarray,
    observe: bool,
) -> None:
    """Write each slot's seat to act, legal-action mask and observation."""
    for b in range(kernel.shape[0]):
        s = kernel[b]
        players[b] = np.int64(s[TURN])
        masks[b] = False
        if np.int64(s[PHASE]) != OVER:
            count = legal_actions(s, moves)
            for j in range(count):
                masks[b, moves[j]] = True
        if observe:
            encode_observation(s, players[b], obs[b])


@njit(cache=True, nogil=True)
def _first_seats(keys: np.ndarray, players: int, fixed: int, out: np.ndarray) -> None:
    for b in range(keys.shape[0]):
        out[b] = fixed if fixed >= 0 else pick(xorshift(seed_of(keys[b])), players)


@njit(cache=True, nogil=True)
def _play(
    kernel: np.ndarray,
    actions: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    points_weight: float,
) -> None:
    """Play ``actions[b]`` in each live slot of ``kernel`` (already copied)."""
    n = rewards.shape[1]
    final = np.zeros(n, dtype=np.float64)
    for b in range(kernel.shape[0]):
        rewards[b] = 0.0
        s = kernel[b]
        if np.int64(s[PHASE]) == OVER:
            continue
        mover = np.int64(s[TURN])
        before = np.int64(s[SCORE + mover])
        apply_action(s, actions[b])
        gained = np.int64(s[SCORE + mover]) - before
        if gained > 0 and points_weight > 0.0:
            part = points_weight * gained / WIN_POINTS
            for seat in range(n):
                rewards[b, seat] = part if seat == mover else -part / (n - 1)
        if np.int64(s[PHASE]) == OVER:
            terminated[b] = True
            write_outcome_rewards(s, final)
            for seat in range(n):
                rewards[b, seat] += final[seat]


# --- the environment --------------------------------------------------------------------


class FunctionalEnv:
    """The rules of a batch of games and the functions on its :class:`States`.

    ``first`` is every game's first seat, or ``"random"``: drawn from each slot's key
    (a non-negative integer), so that :meth:`init` with the same keys gives the same
    games. Extreme gets an action limit of 400 unless ``action_limit`` says otherwise.
    ``observe=False`` leaves the observations out (shape ``(B, 0, 7, 7)``).
    """

    def __init__(
        self,
        variant: Variant | str = "express",
        players: int = 2,
        handicap: tuple[int, ...] | None = None,
        action_limit: int | None = None,
        first: int | Literal["random"] = "random",
        points_weight: float = 0.0,
        observation_version: int = 0,
        observe: bool = True,
    ) -> None:
        self.rules = game_rules(variant, players, handicap, action_limit)
        if first != "random" and not (is_whole_number(first) and 0 <= first < players):
            raise ValueError(f"the first seat is 0-{players - 1} or 'random', not {first!r}")
        self.players = players
        self.first: int | Literal["random"] = "random" if first == "random" else int(first)
        self.points_weight = checked_weight(points_weight)
        self.observation_version = checked_version(observation_version)
        self.observe = observe
        self.planes = plane_count(players, self.observation_version) if observe else 0
        self._templates = np.array(
            [from_state(State.initial(self.rules, seat)) for seat in range(players)],
            dtype=np.uint64,
        )

    # --- functions of states --------------------------------------------------------
    def init(self, keys: np.ndarray) -> States:
        """New games, one per key (a non-negative integer that draws the first seat)."""
        k = np.asarray(keys)
        if k.ndim != 1 or k.size == 0 or k.dtype.kind not in "iu" or (k < 0).any():
            raise ValueError("init takes a non-empty 1-d array of non-negative integer keys")
        seats = np.empty(k.shape[0], dtype=np.int64)
        fixed = -1 if self.first == "random" else int(self.first)
        _first_seats(k.astype(np.uint64), self.players, fixed, seats)
        return self._states(self._templates[seats], seats)

    def step(self, states: States, actions: np.ndarray) -> States:
        """The states after ``actions[b]`` in each slot (new arrays; ``states`` stays)."""
        a = np.asarray(actions)
        if a.shape != (states.batch,) or a.dtype.kind not in "iu":
            raise ValueError(
                f"step takes {states.batch} integer action indices, one per slot, "
                f"not an array of shape {a.shape} and type {a.dtype}"
            )
        self._check(states)
        a = np.ascontiguousarray(a, dtype=np.int64)
        live = ~states.terminated
        inside = (a >= 0) & (a < ACTION_COUNT)
        legal = np.zeros(states.batch, dtype=np.bool_)
        legal[inside] = states.legal_action_mask[np.flatnonzero(inside), a[inside]]
        bad = np.flatnonzero(live & ~legal)
        if bad.size:
            raise self._illegal(states, int(bad[0]), int(a[bad[0]]))
        kernel = states.kernel.copy()
        rewards = np.zeros((states.batch, self.players), dtype=np.float32)
        terminated = states.terminated.copy()
        _play(kernel, a, rewards, terminated, self.points_weight)
        return self._states(kernel, states.first_seat.copy(), rewards, terminated)

    def from_kernel(self, kernel: np.ndarray, first_seat: np.ndarray | None = None) -> States:
        """States of kernel state rows of these rules (``first_seat``: -1 when not
        given); rewards are 0, and a finished game is terminated."""
        k = np.array(kernel, dtype=np.uint64, ndmin=2)
        if k.ndim != 2 or k.shape[1] != STATE_SIZE:
            raise ValueError(f"kernel states are rows of {STATE_SIZE} uint64 numbers")
        self._check_rules(k)
        seats = np.full(k.shape[0], -1) if first_seat is None else np.asarray(first_seat)
        return self._states(k, seats.astype(np.int64))

    def from_state(self, state: State) -> States:
        """A batch of one from a core position (its actions count from it)."""
        s = from_state(state)
        s[LIMIT] = self._templates[0, LIMIT]
        return self.from_kernel(s)

    def set_slot(self, states: States, index: int, one: States) -> States:
        """New states with slot ``index`` replaced by the batch of one ``one``."""
        b = _checked_slot(states, index)
        if one.batch != 1:
            raise ValueError(f"a slot is set from a batch of one, not of {one.batch}")
        self._check(one)
        out = states.copy()
        for f in fields(out):
            getattr(out, f.name)[b] = getattr(one, f.name)[0]
        return out

    def clone_slot(self, states: States, source: int, target: int) -> States:
        """New states with slot ``target`` a copy of slot ``source``."""
        return self.set_slot(states, target, states.slot(source))

    def reset_slot(self, states: States, index: int, key: int) -> States:
        """New states with a new game in slot ``index`` (its first seat from ``key``)."""
        return self.set_slot(states, index, self.init(np.array([key])))

    def concatenate(self, parts: list[States]) -> States:
        """One batch of the slots of ``parts`` in order."""
        for part in parts:
            self._check(part)
        merged = {
            f.name: np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(States)
        }
        return States(**merged)

    # --- inside -----------------------------------------------------------------------
    def _states(
        self,
        kernel: np.ndarray,
        first_seat: np.ndarray,
        rewards: np.ndarray | None = None,
        terminated: np.ndarray | None = None,
    ) -> States:
        batch = kernel.shape[0]
        kernel = np.ascontiguousarray(kernel)
        players = np.empty(batch, dtype=np.int64)
        obs = np.zeros((batch, self.planes, 7, 7), dtype=np.float32)
        masks = np.zeros((batch, ACTION_COUNT), dtype=np.bool_)
        _show(kernel, players, obs, masks, np.empty(MAX_ACTIONS, dtype=np.int64), self.observe)
        if terminated is None:
            terminated = kernel[:, PHASE] == OVER
        if rewards is None:
            rewards = np.zeros((batch, self.players), dtype=np.float32)
        return States(kernel, players, obs, masks, rewards, terminated, first_seat)

    def _check(self, states: States) -> None:
        if not isinstance(states, States):
            raise TypeError(f"expected States, not {type(states).__name__}")
        if states.kernel.ndim != 2 or states.kernel.shape[1] != STATE_SIZE:
            raise ValueError("these states are not kernel states")
        if states.rewards.shape[1:] != (self.players,) or states.observation.shape[1] != (
            self.planes
        ):
            raise ValueError("these states belong to an environment of other settings")
        self._check_rules(states.kernel)

    def _check_rules(self, kernel: np.ndarray) -> None:
        """Refuse kernel rows of another variant, player count or action limit: the
        kernel plays each row by its own, so a row of other rules would go on under
        them in this environment's batch."""
        rules = self._templates[0]
        for column in (VARIANT, PLAYERS, LIMIT):
            if (kernel[:, column] != rules[column]).any():
                limit = self.rules.action_limit
                raise ValueError(
                    f"the states are not all {self.rules.variant.value} with "
                    f"{self.players} players and "
                    + ("no action limit" if limit is None else f"an action limit of {limit}")
                )

    def _illegal(self, states: States, slot: int, action: int) -> IllegalBatchActionError:
        if not 0 <= action < ACTION_COUNT:
            what = f"action {action} is not an action index (0-{ACTION_COUNT - 1})"
        else:
            what = f"action {action} ({action_text(action, self.players)}) is not legal now"
        legal = ", ".join(
            action_text(int(c), self.players)
            for c in np.flatnonzero(states.legal_action_mask[slot])
        )
        return IllegalBatchActionError(
            slot, action, f"slot {slot}: {what}; legal: {legal}; nothing was played"
        )

    def __repr__(self) -> str:
        return (
            f"FunctionalEnv({self.rules.variant.value!r}, {self.players}, "
            f"handicap={self.rules.handicap!r}, action_limit={self.rules.action_limit!r}, "
            f"first={self.first!r}, points_weight={self.points_weight!r}, "
            f"observation_version={self.observation_version!r})"
        )
