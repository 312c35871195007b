"""A deliberately simple reference implementation of RULES.md, for differential tests.

Written straight from the text of RULES.md (and PROTOCOL.md for the position string),
without looking at the core, so that the two readings of the rules are independent.
It favours obviousness over speed: a 7 x 7 list of lists, explicit loops, strings for
actions. Nothing in the project imports it except the tests.

Decisions where RULES.md leaves room (see the test report):
- the turn-start checks run in the order: board full, empty supply of the player to
  move, action limit; the first that holds names the end reason;
- a game that ends when the turn passes keeps the skips used up on the way (skips are
  used up "as soon as the turn passes to a seat") and shows the last mover as `turn`;
- a set-up position in the insert phase is checked like any turn start when it is set
  up (full board, empty supply): the game is then over at once, `turn` unchanged.
"""

from __future__ import annotations

import copy

FILES = "abcdefg"
COLOURS = "ogbw"
SIZE = 7
MARBLES = 22

POINTS = {
    ("expert", 2): {5: 2, 6: 5, 7: 10},
    ("expert", 3): {4: 2, 5: 5, 6: 8, 7: 10},
    ("expert", 4): {4: 2, 5: 5, 6: 8, 7: 10},
    ("extreme", 2): {4: 0, 5: 2, 6: 5, 7: 10},
    ("extreme", 3): {3: 0, 4: 2, 5: 5, 6: 8, 7: 10},
    ("extreme", 4): {3: 0, 4: 2, 5: 5, 6: 8, 7: 10},
}


def name(rank: int, file: int) -> str:
    """The name of a cell from its rank index (0 = rank 1) and file index (0 = a)."""
    return FILES[file] + str(rank + 1)


def lane_cells(insertion: str) -> list[tuple[int, int]]:
    """The cells of an insertion's lane, from its entry cell to the far end."""
    side, lane = insertion[0], insertion[1]
    if side == "L":  # enters at a<rank>, pushes right
        rank = int(lane) - 1
        return [(rank, f) for f in range(SIZE)]
    if side == "R":  # enters at g<rank>, pushes left
        rank = int(lane) - 1
        return [(rank, f) for f in range(SIZE - 1, -1, -1)]
    if side == "T":  # enters at <file>7, pushes down
        file = FILES.index(lane)
        return [(r, file) for r in range(SIZE - 1, -1, -1)]
    if side == "B":  # enters at <file>1, pushes up
        file = FILES.index(lane)
        return [(r, file) for r in range(SIZE)]
    raise ValueError(insertion)


INSERTIONS = (
    [f"L{r}" for r in range(1, 8)]
    + [f"R{r}" for r in range(1, 8)]
    + [f"T{f}" for f in FILES]
    + [f"B{f}" for f in FILES]
)

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (rank step, file step)


def on_board(rank: int, file: int) -> bool:
    return 0 <= rank < SIZE and 0 <= file < SIZE


def find_lines(board: list[list[str | None]], colour: str) -> list[list[tuple[int, int]]]:
    """Every maximal straight run (length 2 or more) of ``colour``, as its list of cells."""
    lines = []
    for rank in range(SIZE):
        for file in range(SIZE):
            if board[rank][file] != colour:
                continue
            for dr, df in DIRECTIONS:
                pr, pf = rank - dr, file - df
                if on_board(pr, pf) and board[pr][pf] == colour:
                    continue  # not the start of a run in this direction
                cells = []
                r, f = rank, file
                while on_board(r, f) and board[r][f] == colour:
                    cells.append((r, f))
                    r, f = r + dr, f + df
                if len(cells) >= 2:
                    lines.append(cells)
    return lines


class RefGame:
    """One game under the reference reading of RULES.md."""

    def __init__(
        self,
        variant: str,
        players: int,
        handicap: tuple[int, ...] = (),
        first: int = 0,
        limit: int | None = None,
    ) -> None:
        self.variant = variant
        self.players = players
        self.limit = limit
        self.board: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
        self.supplies = [MARBLES] * players
        self.scores = [0] * players
        self.skips = list(handicap) if handicap else [0] * players
        self.actions = 0
        self.phase = "insert"
        self.winners: tuple[int, ...] | None = None
        self.reason: str | None = None
        self.turn = first
        self.last_mover: int | None = None
        # the first player's turn comes: skips first, then the turn-start checks
        while self.skips[self.turn] > 0:
            self.skips[self.turn] -= 1
            self.turn = (self.turn + 1) % self.players
        self.begin_turn()

    # --- set-up positions ---------------------------------------------------------
    @classmethod
    def from_position(cls, text: str, limit: int | None = None) -> RefGame:
        fields = text.split(" ")
        variant, players = fields[0], int(fields[1])
        game = cls(variant, players)
        game.limit = limit
        ranks = fields[2].split("/")
        for i, row in enumerate(ranks):
            rank = SIZE - 1 - i
            file = 0
            for ch in row:
                if ch.isdigit():
                    for _ in range(int(ch)):
                        game.board[rank][file] = None
                        file += 1
                else:
                    game.board[rank][file] = ch
                    file += 1
        game.turn = COLOURS.index(fields[3])
        game.phase = fields[4]
        game.supplies = [int(x) for x in fields[5].split(",")]
        game.scores = [int(x) for x in fields[6].split(",")]
        game.skips = [int(x) for x in fields[7].split(",")]
        game.actions = 0
        game.winners = None
        game.reason = None
        game.last_mover = None
        if game.phase == "insert":
            game.begin_turn()
        return game

    def copy(self) -> RefGame:
        return copy.deepcopy(self)

    # --- queries ------------------------------------------------------------------
    @property
    def colour(self) -> str:
        return COLOURS[self.turn]

    def points_table(self) -> dict[int, int]:
        return POINTS[(self.variant, self.players)]

    def win_length(self) -> int:
        return 5 if self.players == 2 else 4

    def board_full(self) -> bool:
        return all(self.board[r][f] is not None for r in range(SIZE) for f in range(SIZE))

    def lane_has_room(self, insertion: str) -> bool:
        return any(self.board[r][f] is None for r, f in lane_cells(insertion))

    def pushed(self, insertion: str, colour: str) -> list[list[str | None]]:
        """The board after ``colour`` inserts with ``insertion`` (lane must have room)."""
        board = [row[:] for row in self.board]
        cells = lane_cells(insertion)
        first_empty = None
        for i, (r, f) in enumerate(cells):
            if board[r][f] is None:
                first_empty = i
                break
        assert first_empty is not None, "lane full"
        # the contiguous run from the entry cell moves one cell on, from its far end back
        for i in range(first_empty, 0, -1):
            r, f = cells[i]
            pr, pf = cells[i - 1]
            board[r][f] = board[pr][pf]
        r, f = cells[0]
        board[r][f] = colour
        return board

    def only_movers_marbles(self) -> bool:
        marbles = [self.board[r][f] for r in range(SIZE) for f in range(SIZE)]
        marbles = [m for m in marbles if m is not None]
        return len(marbles) > 0 and all(m == self.colour for m in marbles)

    @staticmethod
    def has_orthogonal_contact(board: list[list[str | None]]) -> bool:
        for r in range(SIZE):
            for f in range(SIZE):
                if board[r][f] is None:
                    continue
                if r + 1 < SIZE and board[r + 1][f] is not None:
                    return True
                if f + 1 < SIZE and board[r][f + 1] is not None:
                    return True
        return False

    def legal_insertions(self) -> list[str]:
        candidates = [ins for ins in INSERTIONS if self.lane_has_room(ins)]
        if self.only_movers_marbles():
            apart = [
                ins
                for ins in candidates
                if not self.has_orthogonal_contact(self.pushed(ins, self.colour))
            ]
            if apart:
                return apart
        return candidates

    def scoring_lines(self) -> list[list[tuple[int, int]]]:
        table = self.points_table()
        return [cells for cells in find_lines(self.board, self.colour) if len(cells) in table]

    def scoring_actions(self) -> dict[str, tuple[list[tuple[int, int]], tuple[int, int]]]:
        """Each scoring action's text -> (the line's cells, the cells kept)."""
        result = {}
        for cells in self.scoring_lines():
            a, b = name(*cells[0]), name(*cells[-1])
            if self.players == 2:
                lo, hi = sorted([a, b])
                result[f"x{lo}-{hi}"] = (cells, (cells[0], cells[-1]))
            else:
                result[f"x{a}-{b}"] = (cells, (cells[0],))
                result[f"x{b}-{a}"] = (cells, (cells[-1],))
        return result

    def legal(self) -> list[str]:
        if self.phase == "over":
            return []
        if self.phase == "score":
            return sorted(self.scoring_actions())
        return self.legal_insertions()

    # --- playing ------------------------------------------------------------------
    def end(self, reason: str) -> None:
        if self.variant == "express":
            winners = tuple(range(self.players))
        else:
            best = max(self.scores)
            winners = tuple(s for s in range(self.players) if self.scores[s] == best)
        self.finish(winners, reason)

    def finish(self, winners: tuple[int, ...], reason: str) -> None:
        self.phase = "over"
        self.winners = winners
        self.reason = reason
        if self.last_mover is not None:
            self.turn = self.last_mover

    def begin_turn(self) -> None:
        """The turn has come to ``self.turn`` (after skips): the checks of section 7."""
        self.phase = "insert"
        if self.board_full():
            self.end("board full")
        elif self.supplies[self.turn] == 0:
            self.end("no marbles")
        elif self.limit is not None and self.actions >= self.limit:
            self.end("action limit")

    def pass_turn(self) -> None:
        seat = (self.turn + 1) % self.players
        while self.skips[seat] > 0:
            self.skips[seat] -= 1
            seat = (seat + 1) % self.players
        self.turn = seat
        self.begin_turn()

    def play(self, action: str) -> None:
        legal = self.legal()
        if self.phase == "score" and self.players == 2 and action not in legal:
            # with 2 players both spellings of a scoring are accepted
            body = action[1:].split("-")
            if len(body) == 2:
                action = f"x{body[1]}-{body[0]}"
        if action not in legal:
            raise ValueError(f"illegal: {action}")
        mover = self.turn
        self.actions += 1
        self.last_mover = mover
        if self.phase == "insert":
            self.board = self.pushed(action, self.colour)
            self.supplies[mover] -= 1
            if self.variant == "express":
                if any(
                    len(cells) >= self.win_length() for cells in find_lines(self.board, self.colour)
                ):
                    self.finish((mover,), "line")
                else:
                    self.pass_turn()
            elif self.scoring_lines():
                self.phase = "score"
            else:
                self.pass_turn()
        else:
            cells, kept = self.scoring_actions()[action]
            removed = 0
            for r, f in cells:
                if (r, f) not in kept:
                    self.board[r][f] = None
                    removed += 1
            self.supplies[mover] += removed
            self.scores[mover] += self.points_table()[len(cells)]
            if self.scores[mover] >= 10:
                self.finish((mover,), "points")
            else:
                self.begin_turn()  # the same player takes another whole turn

    # --- text ---------------------------------------------------------------------
    def position(self) -> str:
        ranks = []
        for rank in range(SIZE - 1, -1, -1):
            text, empty = "", 0
            for file in range(SIZE):
                marble = self.board[rank][file]
                if marble is None:
                    empty += 1
                else:
                    if empty:
                        text += str(empty)
                        empty = 0
                    text += marble
            if empty:
                text += str(empty)
            ranks.append(text)

        def numbers(values: list[int]) -> str:
            return ",".join(str(v) for v in values)

        return " ".join(
            [
                self.variant,
                str(self.players),
                "/".join(ranks),
                COLOURS[self.turn],
                self.phase,
                numbers(self.supplies),
                numbers(self.scores),
                numbers(self.skips),
            ]
        )
