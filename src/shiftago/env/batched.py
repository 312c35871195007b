"""Many games stepped at once on the numba kernel, for self-play data generation.

:class:`BatchedEnv` keeps ``batch`` games (slots) side by side as kernel states and
advances all of them with one compiled call per step: no Python runs per game. Its
arrays are views that every step updates in place (copy what you want to keep):

=====================  ======================  ====================================
array                  shape, dtype            meaning
=====================  ======================  ====================================
``states``             (B, 24) uint64          kernel states (:mod:`..engine.kernel`)
``observations``       (B, 4n+2, 7, 7) f32     :mod:`.spaces` planes (5n+2 in
                                               version 1), seen by the
                                               player to act (empty (B, 0, 7, 7)
                                               with ``observe=False``)
``masks``              (B, 668) bool           legal actions of the player to act
``to_play``            (B,) int64              the seat to act
``first_seats``        (B,) int64              the first seat of the slot's game
``rewards``            (B, n) float32          per seat, of the last step
``terminated``         (B,) bool               the slot's game ended at the last step
``winners``            (B,) int64              bit ``seat`` per winner of that game
``episode_lengths``    (B,) int64              actions of that game
``ended_first_seats``  (B,) int64              the first seat of that game (-1 in
                                               slots that go on)
=====================  ======================  ====================================

Rewards, one column per seat (not relative to the player to act), are the outcome
rewards of :func:`.spaces.write_outcome_rewards` (``2 * share - 1``) when a game ends,
plus, with ``points_weight`` w > 0, points shaping: a scoring of ``p`` points gives its
scorer ``w * p / 10`` and each other seat ``-w * p / (10 * (n - 1))``, so that the
shaping of every step sums to zero. A slot whose game ends is reset to a new game at
once (automatic reset): its ``winners``, ``episode_lengths`` and ``ended_first_seats``
describe the game that ended (0, 0 and -1 in slots that go on), while its observation,
mask, ``to_play`` and ``first_seats`` are already the new game's. The arrays are
read-only to callers because the environment writes observations and masks
incrementally; slots are read, set, cloned and reset one at a time through
:meth:`BatchedEnv.slot_state`, :meth:`~BatchedEnv.set_slot`,
:meth:`~BatchedEnv.clone_slot` and :meth:`~BatchedEnv.reset_slot` (for batched tree
search and AlphaZero-style self-play). ``observation_version=1`` adds the planes of
the seat to act (``5n + 2`` planes, :mod:`.spaces`). :mod:`.functional` has the same
games as pure functions on arrays of states.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numba import njit

from shiftago.core import IllegalActionError, State, Variant
from shiftago.engine.kernel.convert import action_text, from_state
from shiftago.engine.kernel.moves import apply_action, legal_actions, lowest_index
from shiftago.engine.kernel.rng import pick, seed_of, xorshift
from shiftago.engine.kernel.tables import (
    BOARD,
    COUNT,
    LIMIT,
    MARBLES,
    MAX_ACTIONS,
    OVER,
    PHASE,
    PLAYERS,
    SCORE,
    SCORE_PHASE,
    SKIPS,
    STATE_SIZE,
    SUPPLY,
    TURN,
    VARIANT,
    WIN_POINTS,
    WINNERS,
)

from .settings import checked_seed, checked_weight, game_rules
from .spaces import (
    ACTION_COUNT,
    MAX_SKIPS,
    SIDE,
    checked_version,
    is_whole_number,
    plane_count,
)

U0 = np.uint64(0)
U1 = np.uint64(1)


class IllegalBatchActionError(IllegalActionError):
    """An action that is not legal in its slot; the batch is left as it was."""

    def __init__(self, slot: int, action: int, message: str) -> None:
        super().__init__(message)
        self.slot = slot
        self.action = action

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.slot, self.action, self.template))


# --- compiled parts -----------------------------------------------------------------


@njit(cache=True, nogil=True)
def _fill(out: np.ndarray, plane: int, value: np.float32) -> None:
    """Set a constant plane, skipping the write when it already holds ``value``."""
    if out[plane, 0, 0] != value:
        for r in range(SIDE):
            for f in range(SIDE):
                out[plane, r, f] = value


@njit(cache=True, nogil=True)
def _write_observation(s: np.ndarray, observer: int, out: np.ndarray, shown: np.ndarray) -> None:
    """Bring ``out`` (the slot's planes, last written for the bitboards ``shown``) to
    the planes of ``s`` seen by ``observer``: the same values as
    :func:`.spaces.encode_observation`, but only the cells and planes that changed."""
    n = np.int64(s[PLAYERS])
    for k in range(n):
        seat = (observer + k) % n
        new = s[BOARD + seat]
        old = shown[k]
        gone = old & ~new
        while gone:
            cell = lowest_index(gone)
            gone &= gone - U1
            out[k, cell >> 3, cell & 7] = 0.0
        came = new & ~old
        while came:
            cell = lowest_index(came)
            came &= came - U1
            out[k, cell >> 3, cell & 7] = 1.0
        shown[k] = new
        _fill(out, n + k, np.float32(np.int64(s[SUPPLY + seat]) / MARBLES))
        _fill(out, 2 * n + k, np.float32(np.int64(s[SCORE + seat]) / WIN_POINTS))
        _fill(out, 3 * n + k, np.float32(np.int64(s[SKIPS + seat]) / MAX_SKIPS))
    _fill(out, 4 * n, np.float32(1.0 if np.int64(s[PHASE]) == SCORE_PHASE else 0.0))
    limit = np.int64(s[LIMIT])
    if limit > 0:
        _fill(out, 4 * n + 1, np.float32(min(np.int64(s[COUNT]), limit) / limit))
    if out.shape[0] >= 5 * n + 2:  # version 1: the seat to act
        to_act = (np.int64(s[TURN]) - observer) % n if np.int64(s[PHASE]) != OVER else -1
        for k in range(n):
            _fill(out, 4 * n + 2 + k, np.float32(1.0 if k == to_act else 0.0))


@njit(cache=True, nogil=True)
def _show(
    b: int,
    states: np.ndarray,
    masks: np.ndarray,
    moves: np.ndarray,
    counts: np.ndarray,
    obs: np.ndarray,
    shown: np.ndarray,
    to_play: np.ndarray,
    observe: bool,
) -> None:
    """Write slot ``b``'s legal actions (list and mask), seat to act and observation."""
    s = states[b]
    mask = masks[b]
    row = moves[b]
    for j in range(counts[b]):
        mask[row[j]] = False
    count = legal_actions(s, row)
    for j in range(count):
        mask[row[j]] = True
    counts[b] = count
    turn = np.int64(s[TURN])
    to_play[b] = turn
    if observe:
        _write_observation(s, turn, obs[b], shown[b])


@njit(cache=True, nogil=True)
def _new_game(
    b: int,
    states: np.ndarray,
    templates: np.ndarray,
    first_seats: np.ndarray,
    first: int,
    rng: np.ndarray,
) -> None:
    """Start a new game in slot ``b`` (``first`` < 0: a seeded random first seat)."""
    seat = first
    if seat < 0:
        x = xorshift(rng[0])
        rng[0] = x
        seat = pick(x, templates.shape[0])
    states[b] = templates[seat]
    first_seats[b] = seat


@njit(cache=True, nogil=True)
def _reset_all(
    states: np.ndarray,
    templates: np.ndarray,
    first_seats: np.ndarray,
    first: int,
    rng: np.ndarray,
    masks: np.ndarray,
    moves: np.ndarray,
    counts: np.ndarray,
    obs: np.ndarray,
    shown: np.ndarray,
    to_play: np.ndarray,
    observe: bool,
) -> None:
    masks[:] = False
    counts[:] = 0
    obs[:] = 0.0
    shown[:] = U0
    for b in range(states.shape[0]):
        _new_game(b, states, templates, first_seats, first, rng)
        _show(b, states, masks, moves, counts, obs, shown, to_play, observe)


@njit(cache=True, nogil=True)
def _step(
    actions: np.ndarray,
    states: np.ndarray,
    templates: np.ndarray,
    first_seats: np.ndarray,
    first: int,
    rng: np.ndarray,
    masks: np.ndarray,
    moves: np.ndarray,
    counts: np.ndarray,
    obs: np.ndarray,
    shown: np.ndarray,
    to_play: np.ndarray,
    observe: bool,
    rewards: np.ndarray,
    terminated: np.ndarray,
    winners: np.ndarray,
    lengths: np.ndarray,
    ended_first: np.ndarray,
    points_weight: float,
) -> int:
    """Play ``actions[b]`` in every slot; the first slot whose action is illegal (then
    nothing changes), else -1."""
    batch = states.shape[0]
    for b in range(batch):
        a = actions[b]
        if a < 0 or a >= ACTION_COUNT or not masks[b, a]:
            return b
    n = templates.shape[0]
    for b in range(batch):
        s = states[b]
        mover = np.int64(s[TURN])
        before = s[SCORE + mover]
        apply_action(s, actions[b])
        r = rewards[b]
        r[:] = 0.0
        gained = np.int64(s[SCORE + mover] - before)
        if gained > 0 and points_weight > 0.0:
            part = points_weight * gained / WIN_POINTS
            for seat in range(n):
                r[seat] = part if seat == mover else -part / (n - 1)
        if np.int64(s[PHASE]) == OVER:
            won = np.int64(s[WINNERS])
            k = 0
            for seat in range(n):
                k += (won >> seat) & 1
            for seat in range(n):  # as spaces.write_outcome_rewards
                share = 1.0 / k if (won >> seat) & 1 else 0.0
                r[seat] += 2.0 * share - 1.0
            terminated[b] = True
            winners[b] = won
            lengths[b] = np.int64(s[COUNT])
            ended_first[b] = first_seats[b]
            _new_game(b, states, templates, first_seats, first, rng)
        else:
            terminated[b] = False
            winners[b] = 0
            lengths[b] = 0
            ended_first[b] = -1
        _show(b, states, masks, moves, counts, obs, shown, to_play, observe)
    return -1


@njit(cache=True, nogil=True)
def _draw_seat(rng: np.ndarray, players: int) -> int:
    x = xorshift(rng[0])
    rng[0] = x
    return pick(x, players)


@njit(cache=True, nogil=True)
def _random_actions(
    moves: np.ndarray, counts: np.ndarray, rng: np.ndarray, out: np.ndarray
) -> None:
    x = rng[0]
    for b in range(counts.shape[0]):
        x = xorshift(x)
        out[b] = moves[b, pick(x, counts[b])]
    rng[0] = x


# --- the environment --------------------------------------------------------------------


def _read_only(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


#: The public arrays (read-only views) and the private buffers they show.
_VIEWS = {
    "states": "_states",
    "observations": "_obs",
    "masks": "_masks",
    "to_play": "_to_play",
    "first_seats": "_first_seats",
    "rewards": "_rewards",
    "terminated": "_terminated",
    "winners": "_winners",
    "episode_lengths": "_lengths",
    "ended_first_seats": "_ended_first",
}


class BatchedEnv:
    """``batch`` games of one rule set stepped together (see the module doc).

    ``first`` is the first seat of every game, or ``"random"``: drawn per game from the
    environment's generator, so that everything follows from ``seed`` (``None``, the
    default: a fresh one, drawn from the system's randomness, as Gymnasium and PettingZoo
    take an omitted seed; two unseeded environments play different games). ``handicap``
    gives skipped turns per seat (used up at the start, as :meth:`State.initial`
    does); Extreme gets an action limit of :data:`EXTREME_ACTION_LIMIT` when none is
    given. ``observe=False`` leaves observations out, for callers that read ``states``.
    """

    # the read-only views of the buffers (:data:`_VIEWS`), made by ``_show_buffers``
    states: np.ndarray
    observations: np.ndarray
    masks: np.ndarray
    to_play: np.ndarray
    first_seats: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    winners: np.ndarray
    episode_lengths: np.ndarray
    ended_first_seats: np.ndarray

    def __init__(
        self,
        batch: int,
        variant: Variant | str = "express",
        players: int = 2,
        handicap: tuple[int, ...] | None = None,
        action_limit: int | None = None,
        first: int | Literal["random"] = "random",
        points_weight: float = 0.0,
        seed: int | None = None,
        observe: bool = True,
        observation_version: int = 0,
    ) -> None:
        if batch < 1:
            raise ValueError(f"a batch has at least one game, not {batch}")
        self.rules = game_rules(variant, players, handicap, action_limit)
        if first != "random" and not (is_whole_number(first) and 0 <= first < players):
            raise ValueError(f"the first seat is 0-{players - 1} or 'random', not {first!r}")
        points_weight = checked_weight(points_weight)
        self.batch = batch
        self.players = players
        self.first: int | Literal["random"] = first
        self.points_weight = float(points_weight)
        self.observe = observe
        self.steps = 0
        self._first = -1 if first == "random" else int(first)
        self._templates = np.array(
            [from_state(State.initial(self.rules, seat)) for seat in range(players)],
            dtype=np.uint64,
        )
        self._rng = np.zeros(1, dtype=np.uint64)
        self._states = np.zeros((batch, STATE_SIZE), dtype=np.uint64)
        self.observation_version = checked_version(observation_version)
        planes = plane_count(players, self.observation_version) if observe else 0
        self._obs = np.zeros((batch, planes, SIDE, SIDE), dtype=np.float32)
        self._shown = np.zeros((batch, 4), dtype=np.uint64)
        self._masks = np.zeros((batch, ACTION_COUNT), dtype=np.bool_)
        self._moves = np.zeros((batch, MAX_ACTIONS), dtype=np.int64)
        self._counts = np.zeros(batch, dtype=np.int64)
        self._to_play = np.zeros(batch, dtype=np.int64)
        self._first_seats = np.zeros(batch, dtype=np.int64)
        self._rewards = np.zeros((batch, players), dtype=np.float32)
        self._terminated = np.zeros(batch, dtype=np.bool_)
        self._winners = np.zeros(batch, dtype=np.int64)
        self._lengths = np.zeros(batch, dtype=np.int64)
        self._ended_first = np.full(batch, -1, dtype=np.int64)
        self._show_buffers()
        self.reset(checked_seed(seed))

    def _show_buffers(self) -> None:
        """Make the public arrays, read-only views of the private buffers."""
        for public, buffer in _VIEWS.items():
            setattr(self, public, _read_only(getattr(self, buffer)))

    def __getstate__(self) -> dict[str, object]:
        """Copied or pickled without its views: a view copied apart from its buffer would
        go on showing the state it was copied in while ``step`` changes the buffer."""
        return {k: v for k, v in self.__dict__.items() if k not in _VIEWS}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._show_buffers()

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    def reset(self, seed: int | None = None) -> np.ndarray:
        """Start a new game in every slot (``seed``: restart the generator from it);
        return the observations."""
        if seed is not None:
            self._rng[0] = seed_of(checked_seed(seed))
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._winners[:] = 0
        self._lengths[:] = 0
        self._ended_first[:] = -1
        _reset_all(
            self._states,
            self._templates,
            self._first_seats,
            self._first,
            self._rng,
            self._masks,
            self._moves,
            self._counts,
            self._obs,
            self._shown,
            self._to_play,
            self.observe,
        )
        return self.observations

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play one action index in every slot; return ``(observations, rewards,
        terminated)``. An action that is not legal in its slot raises
        :class:`IllegalBatchActionError` and changes nothing."""
        a = np.asarray(actions)
        if a.shape != (self.batch,) or a.dtype.kind not in "iu":
            raise ValueError(
                f"step takes {self.batch} integer action indices, one per slot, "
                f"not an array of shape {a.shape} and type {a.dtype}"
            )
        if a.dtype != np.int64 or not a.flags.c_contiguous:
            a = np.ascontiguousarray(a, dtype=np.int64)
        bad = _step(
            a,
            self._states,
            self._templates,
            self._first_seats,
            self._first,
            self._rng,
            self._masks,
            self._moves,
            self._counts,
            self._obs,
            self._shown,
            self._to_play,
            self.observe,
            self._rewards,
            self._terminated,
            self._winners,
            self._lengths,
            self._ended_first,
            self.points_weight,
        )
        if bad >= 0:
            raise self._illegal(bad, int(a[bad]))
        self.steps += self.batch
        return self.observations, self.rewards, self.terminated

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action index per slot, from the seeded generator."""
        out = np.empty(self.batch, dtype=np.int64)
        _random_actions(self._moves, self._counts, self._rng, out)
        return out

    def legal_actions(self, slot: int) -> list[int]:
        """The legal action indices of one slot (kernel order)."""
        slot = self._checked_slot(slot)
        return [int(c) for c in self._moves[slot, : self._counts[slot]]]

    # --- one slot at a time -------------------------------------------------------
    def slot_state(self, slot: int) -> np.ndarray:
        """A copy of one slot's kernel state (:meth:`set_slot` takes it back)."""
        return self._states[self._checked_slot(slot)].copy()

    def set_slot(self, slot: int, state: np.ndarray | State) -> None:
        """Put a position (a kernel state or a core :class:`State` of these rules) into
        one slot; its first seat becomes -1 (unknown) and its last step's rewards 0."""
        b = self._checked_slot(slot)
        s = from_state(state) if isinstance(state, State) else np.asarray(state)
        if s.shape != (STATE_SIZE,) or s.dtype != np.uint64:
            raise ValueError(f"a kernel state is a uint64 array of shape ({STATE_SIZE},)")
        if int(s[PLAYERS]) != self.players or int(s[VARIANT]) != self._templates[0, VARIANT]:
            raise ValueError(
                f"the state is not one of {self.variant.value} with {self.players} players"
            )
        if int(s[PHASE]) == OVER:
            raise ValueError("the game of that state is over: a slot holds a game going on")
        if isinstance(state, State):
            s[LIMIT] = self._templates[0, LIMIT]
        self._put(b, s, -1)

    def clone_slot(self, source: int, target: int) -> None:
        """Copy slot ``source``'s game (its first seat included) into slot ``target``."""
        src, dst = self._checked_slot(source), self._checked_slot(target)
        self._put(dst, self._states[src].copy(), int(self._first_seats[src]))

    def reset_slot(self, slot: int, first: int | None = None) -> None:
        """Start a new game in one slot: ``first`` seat, or the environment's choice
        (its seat, or one drawn from its generator)."""
        b = self._checked_slot(slot)
        if first is not None and not (is_whole_number(first) and 0 <= first < self.players):
            raise ValueError(f"the first seat is 0-{self.players - 1}, not {first!r}")
        seat = self._first if first is None else int(first)
        if seat < 0:
            seat = _draw_seat(self._rng, self.players)
        self._put(b, self._templates[seat].copy(), int(seat))

    def _put(self, b: int, s: np.ndarray, first: int) -> None:
        self._states[b] = s
        self._first_seats[b] = first
        self._rewards[b] = 0.0
        self._terminated[b] = False
        self._winners[b] = 0
        self._lengths[b] = 0
        self._ended_first[b] = -1
        self._obs[b] = 0.0
        self._shown[b] = U0
        _show(
            b,
            self._states,
            self._masks,
            self._moves,
            self._counts,
            self._obs,
            self._shown,
            self._to_play,
            self.observe,
        )

    def _checked_slot(self, slot: int) -> int:
        if not is_whole_number(slot):
            raise TypeError(f"a slot is a whole number, not {slot!r}")
        if not 0 <= slot < self.batch:
            raise IndexError(f"the slots are 0-{self.batch - 1}, not {slot}")
        return int(slot)

    def _illegal(self, slot: int, action: int) -> IllegalBatchActionError:
        if not 0 <= action < ACTION_COUNT:
            what = f"action {action} is not an action index (0-{ACTION_COUNT - 1})"
        else:
            what = f"action {action} ({action_text(action, self.players)}) is not legal now"
        legal = ", ".join(action_text(c, self.players) for c in self.legal_actions(slot))
        return IllegalBatchActionError(
            slot, action, f"slot {slot}: {what}; legal: {legal}; nothing was played"
        )

    def __repr__(self) -> str:
        return (
            f"BatchedEnv({self.batch}, {self.variant.value!r}, {self.players}, "
            f"handicap={self.rules.handicap!r}, action_limit={self.rules.action_limit!r}, "
            f"first={self.first!r}, points_weight={self.points_weight!r})"
        )
