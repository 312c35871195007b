"""The kernel against the core, action by action (used by the tests and a script).

Seeded games of a variant and player count are played in both at once: at every step
the kernel's state must equal the core's (:func:`.convert.from_state`), its legal
actions in notation must be the core's ``legal_actions()`` in canonical order, and at
the end the outcome must be the same. Choices lean towards the rare rules, and a
:class:`collections.Counter` records how often each rare rule was met (:data:`RARE`).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from shiftago.core import Action, Game, Phase, Rules, State, Variant
from shiftago.core.actions import sort_key
from shiftago.core.geometry import (
    BOARD_MASK,
    CELLS,
    ENTRY_CELLS,
    PUSH_STEPS,
    has_run,
    orthogonally_adjacent,
    push_run,
    shifted,
)
from shiftago.core.rules import MARBLES_PER_PLAYER
from shiftago.core.state import open_insertions

from .convert import action_text, from_state, to_position
from .moves import apply_action, legal_actions
from .tables import INSERTIONS, MAX_ACTIONS, WINNERS

#: The rare rules whose use is counted (each must be met in a test run).
RARE = (
    "full lane",
    "special case: kept apart",
    "special case: nothing apart",
    "skip used",
    "several scoring lines",
    "scoring, 2 players (both ends kept)",
    "scoring, 3-4 players (end chosen)",
    "0-point scoring",
    "line of 6 or 7 scored",
    "line made for another colour",
    "scoring before the end checks",
    "end: line",
    "end: points",
    "end: board full",
    "end: no marbles",
    "end: action limit",
    "end: shared draw on points",
)

#: Set-up positions (and first actions) that reach rules random play rarely meets.
FIXED_POSITIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("express 2 7/7/7/7/7/7/oo5 o insert 20,22 0,0 0,3", ()),  # special case, none apart
    ("express 3 7/7/7/7/7/7/o6 o insert 21,22,22 0,0,0 0,2,1", ()),  # special case, skips
    ("extreme 3 7/7/7/7/7/7/ooo4 o score 19,22,22 0,0,0 0,0,0", ()),  # a 0-point line
    ("expert 2 ooooooo/7/7/7/7/7/7 o score 15,22 0,0 0,0", ()),  # a line of 7
    ("expert 2 7/7/7/7/7/7/oooo3 o insert 1,22 0,0 0,0", ("L1",)),  # last marble scores
)


class Chooser:
    """Picks actions for one game in one style: uniform, favourite lanes, greedy (the
    mover's longest line), sabotage (another colour's longest line), or mixed."""

    STYLES = ("uniform", "lanes", "greedy", "sabotage", "mixed")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.style = rng.choice(self.STYLES)
        self.favourites = set(rng.sample(range(INSERTIONS), rng.randint(2, 5)))

    def choose(self, state: State, legal: list[str]) -> str:
        rng = self.rng
        if state.phase is Phase.SCORE or len(legal) == 1:
            return rng.choice(legal)
        style = self.style if self.style != "mixed" else rng.choice(self.STYLES[:4])
        if style == "lanes" and rng.random() < 0.85:
            preferred = [str(a) for a in state.legal_actions() if sort_key(a)[0] in self.favourites]
            if preferred:
                return rng.choice(preferred)
        if style in ("greedy", "sabotage") and rng.random() < 0.75:
            return self.best(state, own=style == "greedy")
        return rng.choice(legal)

    def best(self, state: State, *, own: bool) -> str:
        mover = state.turn
        seats = [mover] if own else [s for s in range(state.players) if s != mover]
        best_value, best = -1, []
        for action in state.legal_actions():
            after = state.after(action)
            lines = [line for s in seats for line in after.lines(s, 2)]
            value = max((line.length for line in lines), default=0) * 10 + len(lines)
            if value > best_value:
                best_value, best = value, [str(action)]
            elif value == best_value:
                best.append(str(action))
        return self.rng.choice(best)


def random_setup(rng: random.Random, variant: Variant, players: int) -> str:
    """A valid set-up position that stresses a rare rule (one colour alone, low
    supplies, a nearly full board, or a middle game), in the score phase when it can be."""
    kind = rng.choice(("alone", "alone", "supply", "full", "middle"))
    cells = list(CELLS)
    rng.shuffle(cells)
    turn = rng.randrange(players)
    boards = [0] * players
    if kind == "alone":
        for cell in cells[: rng.choice((1, 1, 2, 3, 5))]:
            boards[turn] |= 1 << cell
    else:
        count = {"supply": rng.randint(10, 30), "full": rng.randint(40, 48)}.get(
            kind, rng.randint(8, 30)
        )
        for cell in cells[:count]:
            seats = [s for s in range(players) if boards[s].bit_count() < MARBLES_PER_PLAYER]
            if not seats:
                break
            boards[rng.choice(seats)] |= 1 << cell
    supplies = []
    for seat in range(players):
        room = MARBLES_PER_PLAYER - boards[seat].bit_count()
        if kind == "supply":
            supplies.append(min(room, rng.choice((0, 1, 1, 2, 3))))
        else:
            supplies.append(rng.choice((room, room, rng.randint(0, room))))
    if kind == "alone":
        supplies[turn] = max(supplies[turn], 1)
        skips = [rng.randint(1, 6) for _ in range(players)]
    else:
        skips = [rng.choice((0, 0, 0, 1, 2, 6)) for _ in range(players)]
    skips[turn] = 0
    scores = [0] * players
    if variant is not Variant.EXPRESS:
        scores = [rng.choice((0, 0, 2, 5, 8, 9)) for _ in range(players)]
    phase = Phase.INSERT
    rules = Rules(variant, players)
    if variant is not Variant.EXPRESS and has_run(boards[turn], rules.min_line):
        phase = rng.choice((Phase.INSERT, Phase.SCORE))
    state = State(rules, tuple(boards), turn, phase, tuple(supplies), tuple(scores), tuple(skips))
    return state.position()


def _apart_exists(occ: int) -> bool:
    for a in open_insertions(occ):
        run = push_run(a.index, occ)
        moved = occ & run
        after = (occ ^ moved) | shifted(moved, PUSH_STEPS[a.index]) | (1 << ENTRY_CELLS[a.index])
        if not orthogonally_adjacent(after):
            return True
    return False


def _note_state(state: State, seen: Counter[str]) -> None:
    """Count the rare rules that the state to act in meets."""
    if state.phase is Phase.INSERT:
        occ = state.occupied
        if len(open_insertions(occ)) < INSERTIONS:
            seen["full lane"] += 1
        if occ and occ == state.boards[state.turn]:
            apart = "kept apart" if _apart_exists(occ) else "nothing apart"
            seen[f"special case: {apart}"] += 1
    elif state.phase is Phase.SCORE and len({o.line for o in state.scoring_options()}) > 1:
        seen["several scoring lines"] += 1


def _note_step(before: State, action: str, after: State, seen: Counter[str]) -> None:
    """Count the rare rules that one action meets."""
    rules = before.rules
    if sum(after.skips) < sum(before.skips):
        seen["skip used"] += 1
    if action.startswith("x"):
        option = next(o for o in before.scoring_options() if str(o.action) == action)
        kind = "2 players (both ends kept)" if rules.players == 2 else "3-4 players (end chosen)"
        seen[f"scoring, {kind}"] += 1
        seen["0-point scoring"] += option.points == 0
        seen["line of 6 or 7 scored"] += option.line.length >= 6
    else:
        others = [s for s in range(rules.players) if s != before.turn]
        if any(has_run(after.boards[s], rules.min_line) for s in others):
            seen["line made for another colour"] += 1
        full = after.occupied == BOARD_MASK or not after.supplies[before.turn]
        if after.phase is Phase.SCORE and full:
            seen["scoring before the end checks"] += 1
    if after.outcome is not None:
        seen[f"end: {after.outcome.reason.value}"] += 1
        if rules.variant is not Variant.EXPRESS and after.outcome.is_draw:
            seen["end: shared draw on points"] += 1


def play_both(
    seed: int,
    variant: Variant,
    players: int,
    *,
    setup: str | bool,
    seen: Counter[str],
    opening: tuple[str, ...] = (),
) -> int:
    """One seeded game in the core and the kernel, checked at every step; its length.

    ``setup``: False to start from the empty board, True for a random set-up position,
    or a position string; ``opening``: the first actions, before the chooser's."""
    rng = random.Random(seed)
    limit = None
    if variant is Variant.EXTREME or rng.random() < 0.25:
        limit = rng.choice((1, 2, 5, 17, 40, 80, 150))
    if setup:
        position = setup if isinstance(setup, str) else random_setup(rng, variant, players)
        game = Game(Rules(variant, players, action_limit=limit), position=position)
    else:
        handicap: tuple[int, ...] = ()
        if rng.random() < 0.5:
            handicap = tuple(rng.choice((0, 0, 1, 2, 3, 6)) for _ in range(players))
            if rng.random() < 0.3:  # one player alone for a while
                handicap = tuple(0 if s == 0 else rng.randint(3, 6) for s in range(players))
        rules = Rules(variant, players, handicap, limit)
        game = Game(rules, first=rng.randrange(players))
    kernel = from_state(game.state)
    buffer = np.empty(MAX_ACTIONS, dtype=np.int64)
    chooser = Chooser(rng)
    trail: list[str] = []
    while True:
        state = game.state
        context = f"seed {seed}, from {game.start.position()!r}, after {trail}"
        expected = from_state(state, len(trail))
        assert np.array_equal(kernel, expected), f"{context}: {kernel} != {expected}"
        assert to_position(kernel) == state.position(), context
        n = legal_actions(kernel, buffer)
        codes = {action_text(int(c), players): int(c) for c in buffer[:n]}
        assert len(codes) == n, f"{context}: duplicate actions"
        legal = [str(a) for a in state.legal_actions()]
        assert sorted(codes, key=lambda t: sort_key(Action.parse(t))) == legal, context
        _note_state(state, seen)
        if not legal:
            break
        scripted = len(trail) < len(opening)
        action = opening[len(trail)] if scripted else chooser.choose(state, legal)
        played = action
        if players == 2 and action.startswith("x") and rng.random() < 0.5:
            keep, other = action[1:].split("-")
            played = f"x{other}-{keep}"  # the other spelling does the same
        game.play(played)
        apply_action(kernel, codes[action])
        _note_step(state, action, game.state, seen)
        trail.append(action)
    outcome = game.outcome
    assert outcome is not None
    assert kernel[WINNERS] == sum(1 << s for s in outcome.winners), trail
    return len(trail)


def run_games(games: int, seed: int = 0, seen: Counter[str] | None = None) -> Counter[str]:
    """``games`` per variant and player count from the start, as many from set-up
    positions, and the fixed positions; the rare-rule counts (plus ``games`` and
    ``actions``)."""
    seen = Counter() if seen is None else seen
    for v, variant in enumerate(Variant):
        for players in (2, 3, 4):
            base = seed * 1_000_000 + 10_000 * v + 1000 * players
            for i in range(games):
                for setup in (False, True):
                    seen["actions"] += play_both(
                        base + 2 * i + setup, variant, players, setup=setup, seen=seen
                    )
                    seen["games"] += 1
    for i, (position, opening) in enumerate(FIXED_POSITIONS):
        fields = position.split()
        variant, players = Variant(fields[0]), int(fields[1])
        seen["actions"] += play_both(
            seed + i, variant, players, setup=position, seen=seen, opening=opening
        )
        seen["games"] += 1
    return seen


def report(seen: Counter[str]) -> str:
    lines = [f"{seen['games']} games, {seen['actions']} actions; rare rules met:"]
    lines += [f"  {name:<40} {seen[name]:>8}" for name in RARE]
    return "\n".join(lines)
