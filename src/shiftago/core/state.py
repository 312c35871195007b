"""A snapshot of a game and the pure transitions between snapshots.

A :class:`State` holds exactly what the position string of PROTOCOL.md holds (plus the
outcome once the game is over); :meth:`State.after` returns the state after an action
and never changes the state it is called on.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from shiftago.core.actions import INSERTIONS, Action, Insertion, Scoring, _parse, sort_key
from shiftago.core.errors import (
    Colour,
    GameOverError,
    IllegalActionError,
    InvalidPositionError,
    ParseError,
)
from shiftago.core.geometry import (
    BOARD_MASK,
    CELL_NAMES,
    ENTRY_CELLS,
    PUSH_STEPS,
    has_run,
    orthogonally_adjacent,
    push_run,
    runs,
    shifted,
    union,
)
from shiftago.core.outcome import EndReason, Outcome, final_winners
from shiftago.core.position import format_board, read_position
from shiftago.core.rules import COLOURS, WINNING_POINTS, Rules, Variant


class Phase(Enum):
    INSERT = "insert"
    SCORE = "score"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Line:
    """A maximal straight run of one colour, cells in order from one end to the other."""

    seat: int
    cells: tuple[int, ...]

    @property
    def length(self) -> int:
        """How many cells the line has."""
        return len(self.cells)

    def __str__(self) -> str:
        return f"{COLOURS[self.seat]} {CELL_NAMES[self.cells[0]]}-{CELL_NAMES[self.cells[-1]]}"


@dataclass(frozen=True)
class ScoringOption:
    """One legal scoring: its action, the line, the cells it empties and its points."""

    action: Scoring
    line: Line
    removed: tuple[int, ...]
    points: int


class State:
    """An immutable snapshot: board, seat to act, phase, supplies, points and skips.

    ``boards`` holds one bitboard per seat (see :mod:`shiftago.core.geometry`). When the
    game is over, ``turn`` is the seat that acted last and ``outcome`` says who won.
    Equality compares the position only (variant, players and the fields above).
    """

    __slots__ = (
        "rules",
        "boards",
        "turn",
        "phase",
        "supplies",
        "scores",
        "skips",
        "outcome",
        "_legal",
        "_options",
        "_position",
    )
    rules: Rules
    boards: tuple[int, ...]
    turn: int
    phase: Phase
    supplies: tuple[int, ...]
    scores: tuple[int, ...]
    skips: tuple[int, ...]
    outcome: Outcome | None
    _legal: tuple[Action, ...] | None
    _options: list[ScoringOption] | None
    _position: str | None

    def __init__(
        self,
        rules: Rules,
        boards: tuple[int, ...],
        turn: int,
        phase: Phase,
        supplies: tuple[int, ...],
        scores: tuple[int, ...],
        skips: tuple[int, ...],
        outcome: Outcome | None = None,
    ) -> None:
        self.rules = rules
        self.boards = boards
        self.turn = turn
        self.phase = phase
        self.supplies = supplies
        self.scores = scores
        self.skips = skips
        self.outcome = outcome
        self._legal = None
        self._options = None
        self._position = None

    # --- construction -------------------------------------------------------------
    @classmethod
    def initial(cls, rules: Rules, first: int) -> State:
        """The empty board with ``first`` to begin (handicap skips are used up at once)."""
        if not 0 <= first < rules.players:
            raise ValueError(f"the first seat is 0-{rules.players - 1}, not {first}")
        n = rules.players
        return begin_turn(
            rules,
            (0,) * n,
            first,
            (22,) * n,
            (0,) * n,
            rules.handicap,
            at_limit=False,
            last_actor=first,
        )

    @classmethod
    def from_position(
        cls, position: str, rules: Rules | None = None, *, finished: bool = False
    ) -> State:
        """Set up the state of a position string (PROTOCOL.md); with ``finished`` also
        the end of a game (phase ``over``); see :mod:`position`."""
        f = read_position(position, rules, finished=finished)
        phase = Phase(f.phase)
        if phase is not Phase.INSERT:
            return State(f.rules, f.boards, f.turn, phase, f.supplies, f.scores, f.skips, f.outcome)
        # a set-up insert turn where the board is full or the supply empty ends at once
        return begin_turn(
            f.rules,
            f.boards,
            f.turn,
            f.supplies,
            f.scores,
            f.skips,
            at_limit=False,
            last_actor=f.turn,
        )

    def position(self) -> str:
        """The position string of PROTOCOL.md (made once: a state never changes)."""
        if self._position is None:

            def numbers(values: tuple[int, ...]) -> str:
                return ",".join(str(v) for v in values)

            rules = self.rules
            self._position = " ".join(
                (
                    rules.variant.value,
                    str(rules.players),
                    format_board(self.boards),
                    COLOURS[self.turn],
                    self.phase.value,
                    numbers(self.supplies),
                    numbers(self.scores),
                    numbers(self.skips),
                )
            )
        return self._position

    def with_rules(self, rules: Rules) -> State:
        """This position under other settings (handicap, action limit) of its variant."""
        if rules.variant is not self.rules.variant or rules.players != self.rules.players:
            raise InvalidPositionError("the position's variant and players differ from the rules")
        return State(
            rules, self.boards, self.turn, self.phase, self.supplies, self.scores, self.skips,
            self.outcome,
        )  # fmt: skip

    # --- queries ------------------------------------------------------------------
    @property
    def players(self) -> int:
        """How many seats the game has."""
        return self.rules.players

    @property
    def occupied(self) -> int:
        """Every marble on the board, of any colour, as one cell bit set."""
        return union(self.boards)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended in this position."""
        return self.phase is Phase.OVER

    def seat_at(self, cell: int) -> int | None:
        """The seat whose marble is on ``cell``, or None."""
        for seat, b in enumerate(self.boards):
            if (b >> cell) & 1:
                return seat
        return None

    def legal_actions(self) -> list[Action]:
        """Every legal action in canonical order (a fresh list each call)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    @property
    def keeps_apart(self) -> bool:
        """Whether the special case of RULES.md section 2 closes lanes now: only the
        mover's marbles are on the board, and some open lane would put two of them side
        by side (a page says why its arrows are greyed)."""
        if self.phase is not Phase.INSERT:
            return False
        occupied = union(self.boards)
        if not occupied or occupied != self.boards[self.turn]:
            return False
        return len(self._legal_view()) < len(open_insertions(occupied))

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` (or its notation, in any case) may be played now; notation
        that names no action is not legal."""
        try:
            self.validate(action)
        except (IllegalActionError, ParseError):
            return False
        return True

    def lines(self, seat: int | None = None, min_length: int = 2) -> list[Line]:
        """The maximal straight runs of a seat (or of every seat) of ``min_length`` or more."""
        seats = range(self.players) if seat is None else (seat,)
        return [Line(s, cells) for s in seats for cells in runs(self.boards[s], min_length)]

    def scoring_options(self) -> list[ScoringOption]:
        """The scorings open to the mover now (only in the score phase), canonical order."""
        if self.phase is not Phase.SCORE:
            return []
        options = self._options
        if options is None:
            options = self._options = _scoring_options(self)
        return list(options)

    # --- transitions --------------------------------------------------------------
    def after(self, action: Action | str, *, at_limit: bool = False) -> State:
        """The state after ``action`` (or its notation, in any case, as :meth:`Game.play`
        takes it); raises :class:`IllegalActionError` if it is not legal, and
        :class:`ParseError` for notation that names no action.

        ``at_limit`` says that this action is the last one the action limit allows, so
        the next turn that begins ends the game (RULES.md section 7).
        """
        return self.step(action, at_limit=at_limit)[1]

    def step(self, action: Action | str, *, at_limit: bool = False) -> tuple[Action, State]:
        """The action as it is played (2-player scorings in canonical spelling) and the
        state after it; raises :class:`IllegalActionError` saying why when not legal."""
        if isinstance(action, str):  # numpy's str_ and other str types included
            action = _parse(action)
        if type(action) is Insertion and self.phase is Phase.INSERT:
            occ = union(self.boards)
            run = push_run(action.index, occ)
            if run < 0:
                raise IllegalActionError("illegal move: {action} (lane full)", action=str(action))
            if occ and occ == self.boards[self.turn] and action not in self._legal_view():
                raise IllegalActionError(
                    "illegal move: {action} (while only your marbles are on the board "
                    "they may not touch along a rank or file)",
                    action=str(action),
                )
            return action, _insert(self, action.index, run, at_limit)
        played = self.validate(action)
        for option in self._options or self.scoring_options():
            if option.action == played:
                return played, _score(self, option, at_limit)
        raise AssertionError("a validated scoring is one of the options")  # pragma: no cover

    def validate(self, action: Action | str) -> Action:
        """The action (or its notation) as it is played (2-player scorings in canonical
        spelling).

        Raises :class:`IllegalActionError` saying why when it is not legal now.
        """
        if isinstance(action, str):
            action = _parse(action)
        phase = self.phase
        if phase is Phase.OVER:
            raise GameOverError("the game is over; {action} cannot be played", action=str(action))
        if type(action) is Insertion:
            if phase is not Phase.INSERT:
                raise IllegalActionError(
                    "{colour} must first score a line; {action} is not allowed now",
                    colour=Colour(self.turn),
                    action=str(action),
                )
            if action not in self._legal_view():
                if push_run(action.index, self.occupied) < 0:
                    raise IllegalActionError(
                        "illegal move: {action} (lane full)", action=str(action)
                    )
                raise IllegalActionError(
                    "illegal move: {action} (while only your marbles are on the board "
                    "they may not touch along a rank or file)",
                    action=str(action),
                )
            return action
        if isinstance(action, Scoring):
            if phase is not Phase.SCORE:
                raise IllegalActionError(
                    "there is no line to score; {action} is not allowed now", action=str(action)
                )
            if self.rules.keeps_both_ends:
                action = action.canonical_for_two()
            if action not in self._legal_view():
                raise IllegalActionError(
                    "illegal move: {action} (no such scoring line)", action=str(action)
                )
            return action
        raise IllegalActionError("{action} is not an action", action=repr(action))

    def _legal_view(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        if self.phase is Phase.OVER:
            return ()
        if self.phase is Phase.SCORE:
            return tuple(sorted((o.action for o in self.scoring_options()), key=sort_key))
        occ = union(self.boards)
        open_lanes = open_insertions(occ)
        if occ and occ == self.boards[self.turn]:
            # The special case: while only the mover's marbles are on the board, they
            # must stay apart, unless no insertion can keep them apart.
            apart = tuple(
                a for a in open_lanes if not orthogonally_adjacent(_pushed(occ, occ, a.index))
            )
            if apart:
                return apart
        return open_lanes

    # --- value protocol -----------------------------------------------------------
    def _key(self) -> tuple[object, ...]:
        return (
            self.rules.variant,
            self.rules.players,
            self.boards,
            self.turn,
            self.phase,
            self.supplies,
            self.scores,
            self.skips,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._key() == other._key()

    def __reduce__(self) -> tuple[object, ...]:
        # the fields only: the cached legal actions, options and string are made again
        return (
            State,
            (
                self.rules, self.boards, self.turn, self.phase, self.supplies, self.scores,
                self.skips, self.outcome,
            ),
        )  # fmt: skip

    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self  # immutable: its caches are the same for every copy

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"State.from_position({self.position()!r})"

    def __str__(self) -> str:
        return self.position()


_FULL_RANK_BITS = sum(1 << (8 * r) for r in range(7))
_OPEN_BY_FULL_LANES: dict[int, tuple[Insertion, ...]] = {}


def open_insertions(occupied: int) -> tuple[Insertion, ...]:
    """The insertions whose lane has an empty cell, in canonical order (memoised by
    which ranks and files are full: at most 2**14 distinct answers)."""
    # Rank r is full when its bits 8r..8r+6 are all set; file f when bit f is set in
    # every rank. Both fold the board onto one bit per lane with shifts and ANDs.
    ranks = occupied & (occupied >> 1)
    ranks &= ranks >> 2
    ranks &= ranks >> 3
    files = occupied & (occupied >> 8)
    files &= files >> 16
    files &= files >> 24
    key = (ranks & _FULL_RANK_BITS) | ((files & 0x7F) << 56)
    found = _OPEN_BY_FULL_LANES.get(key)
    if found is None:
        found = tuple(a for a in INSERTIONS if push_run(a.index, occupied) >= 0)
        _OPEN_BY_FULL_LANES[key] = found
    return found


def _pushed(bits: int, occupied: int, index: int) -> int:
    """``bits`` after insertion ``index`` shifts the run at the lane's entry."""
    run = push_run(index, occupied)
    moved = bits & run
    return (bits ^ moved) | shifted(moved, PUSH_STEPS[index]) | (1 << ENTRY_CELLS[index])


def _insert(state: State, index: int, run: int, at_limit: bool) -> State:
    step = PUSH_STEPS[index]
    mover = state.turn
    boards = []
    for seat, b in enumerate(state.boards):
        moved = b & run
        if moved:
            b = (b ^ moved) | (moved << step if step > 0 else moved >> -step)
        if seat == mover:
            b |= 1 << ENTRY_CELLS[index]
        boards.append(b)
    supplies = list(state.supplies)
    supplies[mover] -= 1
    rules = state.rules
    mine = boards[mover]
    if rules.variant is Variant.EXPRESS:
        if has_run(mine, rules.win_length):
            return _won(state, tuple(boards), tuple(supplies), state.scores, EndReason.LINE)
    elif has_run(mine, rules.min_line):
        return State(
            rules, tuple(boards), mover, Phase.SCORE, tuple(supplies), state.scores, state.skips
        )
    return begin_turn(
        rules,
        tuple(boards),
        (mover + 1) % rules.players,
        tuple(supplies),
        state.scores,
        state.skips,
        at_limit=at_limit,
        last_actor=mover,
    )


def _won(
    state: State,
    boards: tuple[int, ...],
    supplies: tuple[int, ...],
    scores: tuple[int, ...],
    reason: EndReason,
) -> State:
    """The mover of ``state`` has just won: the game is over."""
    rules = state.rules
    return State(
        rules, boards, state.turn, Phase.OVER, supplies, scores, state.skips,
        Outcome((state.turn,), rules.players, reason),
    )  # fmt: skip


def _score(state: State, option: ScoringOption, at_limit: bool) -> State:
    mover = state.turn
    rules = state.rules
    removed = 0
    for cell in option.removed:
        removed |= 1 << cell
    boards = list(state.boards)
    boards[mover] &= ~removed
    supplies = list(state.supplies)
    supplies[mover] += len(option.removed)
    scores = list(state.scores)
    scores[mover] += option.points
    if scores[mover] >= WINNING_POINTS:
        return _won(state, tuple(boards), tuple(supplies), tuple(scores), EndReason.POINTS)
    return begin_turn(
        rules,
        tuple(boards),
        mover,
        tuple(supplies),
        tuple(scores),
        state.skips,
        at_limit=at_limit,
        last_actor=mover,
    )


def begin_turn(
    rules: Rules,
    boards: tuple[int, ...],
    seat: int,
    supplies: tuple[int, ...],
    scores: tuple[int, ...],
    skips: tuple[int, ...],
    *,
    at_limit: bool,
    last_actor: int,
) -> State:
    """The turn comes to ``seat``: use up handicap skips, then check the end of the game."""
    if skips[seat]:
        pending = list(skips)
        while pending[seat]:
            pending[seat] -= 1
            seat = (seat + 1) % rules.players
        skips = tuple(pending)
    occ = union(boards)
    reason = None
    if occ == BOARD_MASK:
        reason = EndReason.BOARD_FULL
    elif not supplies[seat]:
        reason = EndReason.NO_MARBLES
    elif at_limit:
        reason = EndReason.ACTION_LIMIT
    if reason is None:
        return State(rules, boards, seat, Phase.INSERT, supplies, scores, skips)
    return State(
        rules,
        boards,
        last_actor,
        Phase.OVER,
        supplies,
        scores,
        skips,
        Outcome(final_winners(rules, scores), rules.players, reason),
    )


def _scoring_options(state: State) -> list[ScoringOption]:
    rules = state.rules
    table = rules.points_table
    mover = state.turn
    options = []
    for cells in runs(state.boards[mover], rules.min_line):
        line = Line(mover, cells)
        points = table[len(cells)]
        if rules.keeps_both_ends:
            action = Scoring(cells[0], cells[-1]).canonical_for_two()
            options.append(ScoringOption(action, line, cells[1:-1], points))
        else:
            options.append(ScoringOption(Scoring(cells[0], cells[-1]), line, cells[1:], points))
            options.append(ScoringOption(Scoring(cells[-1], cells[0]), line, cells[:-1], points))
    options.sort(key=lambda o: str(o.action))
    return options
