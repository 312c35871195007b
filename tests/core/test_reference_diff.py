"""Differential test: the core against the independent reference of ``reference.py``.

Many seeded random games of every variant and player count, with and without handicap,
with action limits (always for Extreme). At every step both implementations must give
the same legal actions in the same order, the same position string after each action,
and the same outcome at the end. The random choices lean towards the rare rules: full
lanes, several scoring lines, lines pushed together for another colour, skips, the
special case (one colour alone on the board), nearly empty supplies, nearly full boards.

``SHIFTAGO_LONG=1`` plays many more games (about 30 times as many).
"""

from __future__ import annotations

import os
import random

import pytest

from shiftago import Game, Rules, Variant
from support.reference import COLOURS, MARBLES, POINTS, SIZE, RefGame

LONG = os.environ.get("SHIFTAGO_LONG") == "1"
SCALE = 30 if LONG else 1
VARIANTS = ("express", "expert", "extreme")
PLAYERS = (2, 3, 4)


# --- move choice biased towards the rare rules --------------------------------------
class Chooser:
    """Picks actions for one game in one of several styles."""

    STYLES = ("uniform", "lanes", "greedy", "sabotage", "mixed")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.style = rng.choice(self.STYLES)
        lanes = [f"L{r}" for r in range(1, 8)] + [f"R{r}" for r in range(1, 8)]
        lanes += [f"T{f}" for f in "abcdefg"] + [f"B{f}" for f in "abcdefg"]
        self.favourites = set(rng.sample(lanes, rng.randint(2, 5)))

    def choose(self, game: Game, legal: list[str]) -> str:
        rng = self.rng
        if game.phase.value == "score" or len(legal) == 1:
            return rng.choice(legal)
        style = self.style
        if style == "mixed":
            style = rng.choice(self.STYLES[:4])
        if style == "lanes" and rng.random() < 0.85:
            preferred = [a for a in legal if a in self.favourites]
            if preferred:
                return rng.choice(preferred)
        if style in ("greedy", "sabotage") and rng.random() < 0.75:
            return self.best(game, legal, own=style == "greedy")
        return rng.choice(legal)

    def best(self, game: Game, legal: list[str], *, own: bool) -> str:
        """The insertion that makes the longest line for the mover (or for another)."""
        mover = game.turn
        players = game.rules.players
        best_value, best_actions = -1, []
        for action in game.legal_actions():
            state = game.state.after(action)
            text = str(action)
            seats = [mover] if own else [s for s in range(players) if s != mover]
            lines = [line for s in seats for line in state.lines(s, 2)]
            value = max((line.length for line in lines), default=0) * 10 + len(lines)
            if value > best_value:
                best_value, best_actions = value, [text]
            elif value == best_value:
                best_actions.append(text)
        return self.rng.choice(best_actions)


# --- set-up positions ---------------------------------------------------------------
def board_text(board: list[list[str | None]]) -> str:
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        text, empty = "", 0
        for file in range(SIZE):
            marble = board[rank][file]
            if marble is None:
                empty += 1
            else:
                if empty:
                    text += str(empty)
                    empty = 0
                text += marble
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def random_setup(rng: random.Random, variant: str, players: int) -> str:
    """A valid set-up position (PROTOCOL.md) that stresses one of the rare rules."""
    kind = rng.choice(("alone", "alone", "supply", "full", "middle"))
    board: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
    turn = rng.randrange(players)
    on_board = [0] * players
    cells = [(r, f) for r in range(SIZE) for f in range(SIZE)]
    rng.shuffle(cells)
    if kind == "alone":
        count = rng.choice((0, 1, 1, 2, 3, 5))
        for r, f in cells[:count]:
            board[r][f] = COLOURS[turn]
        on_board[turn] = count
    else:
        count = {"supply": rng.randint(10, 30), "full": rng.randint(40, 48)}.get(
            kind, rng.randint(8, 30)
        )
        for r, f in cells[:count]:
            seats = [s for s in range(players) if on_board[s] < MARBLES]
            if not seats:
                break
            seat = rng.choice(seats)
            board[r][f] = COLOURS[seat]
            on_board[seat] += 1
    supplies = []
    for seat in range(players):
        room = MARBLES - on_board[seat]
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
    if variant == "express":
        scores = [0] * players
    else:
        scores = [rng.choice((0, 0, 2, 5, 8, 9)) for _ in range(players)]
    phase = "insert"
    text = " ".join(
        [
            variant,
            str(players),
            board_text(board),
            COLOURS[turn],
            phase,
            ",".join(map(str, supplies)),
            ",".join(map(str, scores)),
            ",".join(map(str, skips)),
        ]
    )
    if variant != "express" and rng.random() < 0.5:
        ref = RefGame.from_position(text)
        if ref.phase == "insert" and ref.scoring_lines():
            text = text.replace(" insert ", " score ")
    return text


# --- one game, both implementations ---------------------------------------------------
def play_both(seed: int, variant: str, players: int, *, setup: bool) -> int:
    """Play one seeded game in both implementations, checking every step; its length."""
    rng = random.Random(seed)
    limit = None
    if variant == "extreme" or rng.random() < 0.25:
        limit = rng.choice((1, 2, 5, 17, 40, 80, 150))
    if setup:
        position = random_setup(rng, variant, players)
        ref = RefGame.from_position(position, limit=limit)
        game = Game(Rules(Variant(variant), players, action_limit=limit), position=position)
    else:
        handicap: tuple[int, ...] = ()
        if rng.random() < 0.5:
            handicap = tuple(rng.choice((0, 0, 1, 2, 3, 6)) for _ in range(players))
            if rng.random() < 0.3:  # one player alone for a while
                handicap = tuple(0 if s == 0 else rng.randint(3, 6) for s in range(players))
        first = rng.randrange(players)
        game = Game(Rules(Variant(variant), players, handicap, limit), first=first)
        ref = RefGame(variant, players, handicap, first, limit)
    chooser = Chooser(rng)
    trail: list[str] = []
    start = game.position()
    while True:
        context = f"seed {seed}, from {start!r}, after {trail}"
        assert game.position() == ref.position(), context
        legal = [str(a) for a in game.legal_actions()]
        assert legal == ref.legal(), context
        assert game.is_over == (ref.phase == "over"), context
        if not legal:
            break
        action = chooser.choose(game, legal)
        if players == 2 and action.startswith("x") and rng.random() < 0.5:
            keep, other = action[1:].split("-")
            action = f"x{other}-{keep}"  # the other spelling must do the same
        game.play(action)
        ref.play(action)
        trail.append(action)
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason.value) == (ref.winners, ref.reason), (
        f"seed {seed}, from {start!r}, after {trail}"
    )
    return len(trail)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_games_from_the_start_agree(variant: str, players: int) -> None:
    base = 1000 * VARIANTS.index(variant) + 100 * players
    total = sum(play_both(base + i, variant, players, setup=False) for i in range(20 * SCALE))
    assert total > 0


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_games_from_setup_positions_agree(variant: str, players: int) -> None:
    base = 50_000 + 1000 * VARIANTS.index(variant) + 100 * players
    for i in range(14 * SCALE):
        play_both(base + i, variant, players, setup=True)


def test_reference_points_tables_are_those_of_rules_md() -> None:
    # RULES.md section 5, copied once more by hand: the reference must not drift.
    assert POINTS[("expert", 2)] == {5: 2, 6: 5, 7: 10}
    assert POINTS[("expert", 3)] == POINTS[("expert", 4)] == {4: 2, 5: 5, 6: 8, 7: 10}
    assert POINTS[("extreme", 2)] == {4: 0, 5: 2, 6: 5, 7: 10}
    assert POINTS[("extreme", 3)] == POINTS[("extreme", 4)] == {3: 0, 4: 2, 5: 5, 6: 8, 7: 10}


def test_reference_plays_the_protocol_example() -> None:
    ref = RefGame("expert", 2, first=0)
    ref.play("Td")
    assert ref.position() == "expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0"
