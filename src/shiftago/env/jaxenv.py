"""Shiftago in JAX, in pgx's shape, for accelerators: ``jax.jit`` and ``jax.vmap`` the
pure functions :meth:`JaxEnv.init` and :meth:`JaxEnv.step` (``pip install
shiftago[jax]``).

>>> import jax
>>> from shiftago.env.jaxenv import JaxEnv
>>> env = JaxEnv(players=3)
>>> init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
>>> state = init(jax.random.split(jax.random.key(0), 4))
>>> state.observation.shape, state.legal_action_mask.shape, state.rewards.shape
((4, 14, 7, 7), (4, 668), (4, 3))
>>> state = step(state, state.legal_action_mask.argmax(axis=1))
>>> [int(c) for c in state.action_count]
[1, 1, 1, 1]

A :class:`State` has pgx's fields (``current_player``, ``observation`` of the seat to
act, ``legal_action_mask``, ``rewards`` per seat of the step that made it,
``terminated``) and the position itself: ``board`` (49 cells, rank-major, the seat
there or -1), ``supply``, ``score``, ``skips``, ``phase`` (0 insert, 1 score, 2 over),
``action_count`` (actions played), ``winners`` (bit per seat once over) and ``first_seat``.
The rules, action indices, observations (version 0 or 1) and rewards are those of
:mod:`.spaces` and the kernel, which the tests check it against action by action.
Stepping a terminated state returns it with zero rewards; an illegal action is not
checked (as in pgx: use the mask). Everything is int32 and float32, so JAX's default
32-bit mode suffices.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, cast

import jax
import jax.numpy as jnp
import numpy as np

from shiftago.core import State as CoreState
from shiftago.core import Variant
from shiftago.core.geometry import LANE_CELLS
from shiftago.engine.kernel.convert import from_state
from shiftago.engine.kernel.tables import (
    BOARD,
    COUNT,
    INSERTIONS,
    LIMIT,
    MARBLES,
    MIN_LINE,
    PHASE,
    PLAYERS,
    POINTS,
    SCORE,
    SEG_HI,
    SEG_LEN,
    SEG_LO,
    SEG_MASK,
    SEGMENTS,
    SKIPS,
    STATE_SIZE,
    SUPPLY,
    TURN,
    VARIANT,
    VARIANTS,
    WIN_POINTS,
    WINNERS,
)

from .settings import checked_weight, game_rules
from .spaces import MAX_SKIPS, SIDE, checked_version, is_whole_number

CELLS = SIDE * SIDE
INSERT, SCORING, OVER = 0, 1, 2
EXPRESS = 0


def _cell(bit: int) -> int:
    """A kernel bit index (``8 * rank + file``) as a cell here (``7 * rank + file``)."""
    return 7 * (bit // 8) + bit % 8


def _tables() -> dict[str, np.ndarray]:
    """The geometry as index arrays: lanes in push order, and each segment's cells
    (padded with its first cell), the cells just before and after it (-1: off the
    board), its ends and its length."""
    lanes = np.array([[_cell(c) for c in cells] for cells in LANE_CELLS], dtype=np.int32)
    seg_cells = np.zeros((SEGMENTS, SIDE), dtype=np.int32)
    seg_valid = np.zeros((SEGMENTS, SIDE), dtype=bool)
    before = np.full(SEGMENTS, -1, dtype=np.int32)
    after = np.full(SEGMENTS, -1, dtype=np.int32)
    for k in range(SEGMENTS):
        bits = [b for b in range(64) if int(SEG_MASK[k]) >> b & 1]
        seg_cells[k, : len(bits)] = [_cell(b) for b in bits]
        seg_cells[k, len(bits) :] = _cell(bits[0])
        seg_valid[k, : len(bits)] = True
        df = bits[1] % 8 - bits[0] % 8
        dr = bits[1] // 8 - bits[0] // 8
        for (f, r), out in (
            ((bits[0] % 8 - df, bits[0] // 8 - dr), before),
            ((bits[-1] % 8 + df, bits[-1] // 8 + dr), after),
        ):
            if 0 <= f < SIDE and 0 <= r < SIDE:
                out[k] = SIDE * r + f
    return {
        "lanes": lanes,
        "seg_cells": seg_cells,
        "seg_valid": seg_valid,
        "before": before,
        "after": after,
        "lo": np.array([_cell(int(c)) for c in SEG_LO], dtype=np.int32),
        "hi": np.array([_cell(int(c)) for c in SEG_HI], dtype=np.int32),
        "length": SEG_LEN.astype(np.int32),
        "points": POINTS.astype(np.int32),
    }


T = {name: jnp.asarray(value) for name, value in _tables().items()}


class State(NamedTuple):
    """One game (or, under ``vmap``, a batch of them); see the module doc."""

    current_player: jax.Array
    observation: jax.Array
    legal_action_mask: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    board: jax.Array
    supply: jax.Array
    score: jax.Array
    skips: jax.Array
    phase: jax.Array
    action_count: jax.Array
    winners: jax.Array
    first_seat: jax.Array


class JaxEnv:
    """The rules of the games and the pure functions on their :class:`State`.

    ``first`` is the first seat, or ``"random"``: drawn from :meth:`init`'s key.
    Extreme gets an action limit of 400 unless ``action_limit`` says otherwise.
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
    ) -> None:
        self.rules = game_rules(variant, players, handicap, action_limit)
        if first != "random" and not (is_whole_number(first) and 0 <= first < players):
            raise ValueError(f"the first seat is 0-{players - 1} or 'random', not {first!r}")
        self.players = players
        self.first: int | Literal["random"] = "random" if first == "random" else int(first)
        self.points_weight = checked_weight(points_weight)
        self.observation_version = checked_version(observation_version)
        self.variant = VARIANTS.index(self.rules.variant)
        self.limit = self.rules.action_limit or 0
        self.many = 1 if players > 2 else 0
        self.shortest = int(MIN_LINE[self.variant, self.many])
        templates = [from_state(CoreState.initial(self.rules, s)) for s in range(players)]
        self._templates = [self.from_kernel(s, seat) for seat, s in enumerate(templates)]

    # --- the functions ----------------------------------------------------------------
    def init(self, key: jax.Array) -> State:
        """A new game; ``key`` draws the first seat unless ``first`` is fixed."""
        if self.first == "random":
            seat = jax.random.randint(key, (), 0, self.players)
        else:
            seat = jnp.int32(self.first)
        stacked = jax.tree.map(lambda *xs: jnp.stack(xs), *self._templates)
        return cast(State, jax.tree.map(lambda x: x[seat], stacked))

    def step(self, state: State, action: jax.Array) -> State:
        """The game after ``action`` (legal: not checked); a terminated game stays."""
        action = jnp.asarray(action, dtype=jnp.int32)
        played = jax.lax.cond(action < INSERTIONS, self._insert, self._score, state, action)
        after = self._shown(played, self._rewards(state, played))
        kept = jax.tree.map(
            lambda old, new: jnp.where(state.terminated, old, new), _quiet(state), after
        )
        return cast(State, kept)

    # --- between the kernel and here ---------------------------------------------------
    def from_kernel(self, s: np.ndarray, first_seat: int = -1) -> State:
        """The state of a kernel array of these rules (not jitted)."""
        n = self.players
        board = np.full(CELLS, -1, dtype=np.int32)
        for seat in range(n):
            for bit in range(64):
                if int(s[BOARD + seat]) >> bit & 1:
                    board[_cell(bit)] = seat
        pad = np.zeros(4, dtype=np.int32)

        def seats(base: int) -> jax.Array:
            out = pad.copy()
            out[:n] = [int(s[base + k]) for k in range(n)]
            return jnp.asarray(out)

        raw = State(
            current_player=jnp.int32(int(s[TURN])),
            observation=jnp.zeros(0),
            legal_action_mask=jnp.zeros(0),
            rewards=jnp.zeros(n, dtype=jnp.float32),
            terminated=jnp.bool_(int(s[PHASE]) == OVER),
            board=jnp.asarray(board),
            supply=seats(SUPPLY),
            score=seats(SCORE),
            skips=seats(SKIPS),
            phase=jnp.int32(int(s[PHASE])),
            action_count=jnp.int32(int(s[COUNT])),
            winners=jnp.int32(int(s[WINNERS])),
            first_seat=jnp.int32(first_seat),
        )
        return self._shown(raw, raw.rewards)

    def to_kernel(self, state: State) -> np.ndarray:
        """The kernel array of one state (not jitted; the end reason is not kept: this
        state has none). A batch is refused in words, not with numpy's "truth value of an
        array" (a researcher's walk)."""
        board = np.asarray(state.board)
        if board.shape != (CELLS,):
            raise ValueError(
                f"to_kernel converts one game's state, not a batch of shape {board.shape[:-1]}:"
                " take one first, jax.tree_util.tree_map(lambda x: x[i], states)"
            )
        s = np.zeros(STATE_SIZE, dtype=np.uint64)
        for seat in range(self.players):
            s[BOARD + seat] = sum(
                1 << (8 * (c // 7) + c % 7) for c in range(CELLS) if board[c] == seat
            )
            s[SUPPLY + seat] = int(state.supply[seat])
            s[SCORE + seat] = int(state.score[seat])
            s[SKIPS + seat] = int(state.skips[seat])
        s[TURN] = int(state.current_player)
        s[PHASE] = int(state.phase)
        s[COUNT] = int(state.action_count)
        s[LIMIT] = self.limit
        s[PLAYERS] = self.players
        s[VARIANT] = self.variant
        s[WINNERS] = int(state.winners)
        return s

    # --- the rules -------------------------------------------------------------------
    def _mine(self, board: jax.Array, seat: jax.Array) -> jax.Array:
        return board == seat

    def _lines(self, mine: jax.Array) -> jax.Array:
        """Which segments are maximal runs of ``mine`` of the scoring length or more."""
        full = jnp.all(mine[T["seg_cells"]] | ~T["seg_valid"], axis=1)
        open_before = (T["before"] < 0) | ~mine[jnp.maximum(T["before"], 0)]
        open_after = (T["after"] < 0) | ~mine[jnp.maximum(T["after"], 0)]
        return full & open_before & open_after & (T["length"] >= self.shortest)

    def _has_run(self, mine: jax.Array) -> jax.Array:
        full = jnp.all(mine[T["seg_cells"]] | ~T["seg_valid"], axis=1)
        return jnp.any(full & (T["length"] >= self.shortest))

    def _pushed(self, board: jax.Array, i: jax.Array, seat: jax.Array) -> jax.Array:
        """The board after insertion ``i`` by ``seat`` (the lane has an empty cell)."""
        lane = T["lanes"][i]
        cells = board[lane]
        gap = jnp.argmax(cells < 0)
        moved = jnp.concatenate([seat[None], cells[:-1]])
        return board.at[lane].set(jnp.where(jnp.arange(SIDE) <= gap, moved, cells))

    def _insertion_mask(self, state: State) -> jax.Array:
        board, seat = state.board, state.current_player
        open_lane = jnp.any(board[T["lanes"]] < 0, axis=1)
        occupied = board >= 0
        special = jnp.any(occupied) & jnp.all(~occupied | (board == seat))

        def apart(i: jax.Array) -> jax.Array:
            mine = (self._pushed(board, i, seat) == seat).reshape(SIDE, SIDE)
            touching = jnp.any(mine[:, 1:] & mine[:, :-1]) | jnp.any(mine[1:] & mine[:-1])
            return ~touching

        keeps = jax.vmap(apart)(jnp.arange(INSERTIONS)) & open_lane
        narrowed = jnp.where(jnp.any(keeps), keeps, open_lane)
        return jnp.where(special, narrowed, open_lane)

    def _mask(self, state: State) -> jax.Array:
        lines = self._lines(self._mine(state.board, state.current_player))
        ends = jnp.stack([lines, lines & (self.many == 1)], axis=1).reshape(-1)
        insert = self._insertion_mask(state)
        mask = jnp.concatenate(
            [
                insert & (state.phase == INSERT),
                ends & (state.phase == SCORING),
            ]
        )
        return mask

    def _begin_turn(self, state: State, seat: jax.Array, at_limit: jax.Array) -> State:
        """The turn comes to ``seat``: skips are used up, then the end is checked."""
        n = self.players

        def skipping(carry: tuple[jax.Array, jax.Array]) -> jax.Array:
            return carry[1][carry[0]] > 0

        def skip(carry: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
            at, skips = carry
            return (at + 1) % n, skips.at[at].add(-1)

        seat, skips = jax.lax.while_loop(skipping, skip, (seat, state.skips))
        ends = jnp.all(state.board >= 0) | (state.supply[seat] == 0) | at_limit
        best = jnp.max(jnp.where(jnp.arange(4) < n, state.score, -1))
        tied = (state.score == best) & (jnp.arange(4) < n)
        top = jnp.sum(jnp.where(tied, 1 << jnp.arange(4), 0))
        final = (1 << n) - 1 if self.variant == EXPRESS else top
        return state._replace(
            skips=skips,
            current_player=jnp.where(ends, state.current_player, seat),
            phase=jnp.where(ends, OVER, INSERT),
            winners=jnp.where(ends, final, 0),
        )

    def _counted(self, state: State) -> tuple[State, jax.Array]:
        count = state.action_count + 1
        return state._replace(action_count=count), (self.limit > 0) & (count >= self.limit)

    def _insert(self, state: State, i: jax.Array) -> State:
        mover = state.current_player
        board = self._pushed(state.board, i, mover)
        state = state._replace(board=board, supply=state.supply.at[mover].add(-1))
        state, at_limit = self._counted(state)
        line = self._has_run(board == mover)
        if self.variant == EXPRESS:
            won = state._replace(phase=jnp.int32(OVER), winners=1 << mover)
        else:
            won = state._replace(phase=jnp.int32(SCORING))
        goes_on = self._begin_turn(state, (mover + 1) % self.players, at_limit)
        return cast(State, jax.tree.map(lambda a, b: jnp.where(line, a, b), won, goes_on))

    def _score(self, state: State, action: jax.Array) -> State:
        mover = state.current_player
        k = action - INSERTIONS
        seg, end = k // 2, k % 2
        cells, valid = T["seg_cells"][seg], T["seg_valid"][seg]
        lo, hi = T["lo"][seg], T["hi"][seg]
        kept = (cells == lo) | (cells == hi)  # 2 players: both ends stay
        if self.many:  # 3-4 players: the chosen end stays
            kept = cells == jnp.where(end == 1, hi, lo)
        removed = valid & ~kept
        gone = jnp.zeros(CELLS, dtype=bool).at[cells].max(removed)  # padding adds nothing
        board = jnp.where(gone, -1, state.board)
        points = T["points"][self.variant, self.many, T["length"][seg]]
        state = state._replace(
            board=board,
            supply=state.supply.at[mover].add(jnp.sum(removed)),
            score=state.score.at[mover].add(points),
        )
        state, at_limit = self._counted(state)
        won = state._replace(phase=jnp.int32(OVER), winners=1 << mover)
        goes_on = self._begin_turn(state, mover, at_limit)
        wins = state.score[mover] >= WIN_POINTS
        return cast(State, jax.tree.map(lambda a, b: jnp.where(wins, a, b), won, goes_on))

    def _rewards(self, before: State, after: State) -> jax.Array:
        n = self.players
        seats = jnp.arange(n)
        mover = before.current_player
        gained = after.score[mover] - before.score[mover]
        part = self.points_weight * gained / WIN_POINTS
        shaping = jnp.where(seats == mover, part, -part / (n - 1))
        won = (after.winners >> seats) & 1
        k = jnp.maximum(jnp.sum(won), 1)
        outcome = jnp.where(won == 1, (2.0 - k) / k, -1.0)
        over = after.phase == OVER
        return (shaping + jnp.where(over, outcome, 0.0)).astype(jnp.float32)

    def _shown(self, state: State, rewards: jax.Array) -> State:
        """``state`` with its derived fields: mask, observation, rewards, terminated."""
        over = state.phase == OVER
        mask = self._mask(state) & ~over
        return state._replace(
            legal_action_mask=mask,
            observation=self._observe(state),
            rewards=rewards,
            terminated=over,
        )

    def _observe(self, state: State) -> jax.Array:
        n = self.players
        seats = (state.current_player + jnp.arange(n)) % n
        marbles = (state.board[None, :] == seats[:, None]).astype(jnp.float32)
        ones = jnp.ones((SIDE, SIDE), dtype=jnp.float32)
        # Tables of quotients rounded as the kernel rounds them (float64, then float32).
        scalars = [
            _ratios(MARBLES)[jnp.clip(state.supply[seats], 0, MARBLES)],
            _ratios(WIN_POINTS)[jnp.clip(state.score[seats], 0, WIN_POINTS)],
            _ratios(MAX_SKIPS)[jnp.clip(state.skips[seats], 0, MAX_SKIPS)],
        ]
        limit = self.limit
        progress = (
            _ratios(limit)[jnp.minimum(state.action_count, limit)] if limit else jnp.float32(0)
        )
        extra = [jnp.where(state.phase == SCORING, 1.0, 0.0), progress]
        values = jnp.concatenate([*scalars, jnp.stack(extra)]).astype(jnp.float32)
        if self.observation_version:
            to_act = jnp.where(state.phase == OVER, 0.0, jnp.arange(n) == 0)
            values = jnp.concatenate([values, to_act.astype(jnp.float32)])
        planes = jnp.concatenate([marbles.reshape(n, SIDE, SIDE), values[:, None, None] * ones])
        return planes


def _ratios(whole: int) -> jax.Array:
    """``k / whole`` for ``k`` in ``0..whole``, as float32."""
    return jnp.asarray((np.arange(whole + 1) / whole).astype(np.float32))


def _quiet(state: State) -> State:
    """A terminated state as a step returns it: the same, with zero rewards."""
    return state._replace(rewards=jnp.zeros_like(state.rewards))


def device_name() -> str:
    """The device JAX computes on, in words (``cpu`` or the accelerator's kind)."""
    device: Any = jax.devices()[0]
    kind = str(getattr(device, "device_kind", device.platform))
    return str(device.platform) if kind == device.platform else f"{device.platform} ({kind})"
