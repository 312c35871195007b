"""The position string of PROTOCOL.md: reading it, with the set-up checks, and its board.

``<variant> <players> <board> <turn> <phase> <supplies> <scores> <skips>``

This module only reads: :meth:`State.from_position <shiftago.core.state.State.from_position>`
makes the state of the fields it reads, and :meth:`State.position
<shiftago.core.state.State.position>` writes a state's string (with :func:`format_board`).
"""

from __future__ import annotations

from typing import NamedTuple

from shiftago.core.errors import N_, Colour, InvalidPositionError, ParseError
from shiftago.core.geometry import BOARD_MASK, SIZE, cell_of, has_run, iter_bits, union
from shiftago.core.outcome import EndReason, Outcome, final_winners
from shiftago.core.rules import (
    COLOURS,
    MARBLES_PER_PLAYER,
    MAX_HANDICAP,
    WINNING_POINTS,
    Rules,
    Variant,
    seat_of_colour,
)


class PositionFields(NamedTuple):
    """The fields of a position string, read and checked: what a state is made of."""

    rules: Rules
    boards: tuple[int, ...]
    turn: int
    phase: str  # insert, score or over (the value of a ``Phase``)
    supplies: tuple[int, ...]
    scores: tuple[int, ...]
    skips: tuple[int, ...]
    outcome: Outcome | None  # how the game ended, for phase over


def format_board(boards: tuple[int, ...]) -> str:
    """The board field: ranks 7 to 1 joined by ``/``, empty runs as digits."""
    # the letter of each occupied cell, found once per marble (the web app writes the
    # position after every action); a cell on two boards, never so in a valid state,
    # shows the lower seat's letter
    letters: dict[int, str] = {}
    for seat, board in reversed(list(enumerate(boards))):
        for cell in iter_bits(board):
            letters[cell] = COLOURS[seat]
    ranks = []
    for r in reversed(range(SIZE)):
        text, empty = "", 0
        for f in range(SIZE):
            letter = letters.get(cell_of(f, r))
            if letter is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += letter
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def parse_board(text: str, players: int) -> tuple[int, ...]:
    """Read the board field into one bitboard per seat."""
    ranks = text.split("/")
    if len(ranks) != SIZE:
        raise ParseError("the board needs 7 ranks separated by '/', got {count}", count=len(ranks))
    boards = [0] * players
    for i, rank in enumerate(ranks):
        r = SIZE - 1 - i
        f = 0
        for ch in rank:
            if ch in "1234567":
                f += int(ch)
            elif ch in COLOURS[:players]:
                if f < SIZE:
                    boards[COLOURS.index(ch)] |= 1 << cell_of(f, r)
                f += 1
            else:
                allowed = " ".join(COLOURS[:players])
                raise ParseError(
                    "rank {rank} of the board has {found}: expected a colour ({allowed}) "
                    "or a digit 1-7 for empty cells",
                    rank=r + 1,
                    found=repr(ch),
                    allowed=allowed,
                )
        if f != SIZE:
            raise ParseError(
                "rank {rank} of the board has {count} cells instead of 7", rank=r + 1, count=f
            )
    return tuple(boards)


def _numbers(text: str, players: int, refusal: str) -> tuple[int, ...]:
    """The field's numbers, one per seat; ``refusal`` is the template of the error,
    which says ``{count}`` numbers and the field's ``{text}``."""
    parts = text.split(",")
    if len(parts) != players or not all(p.isascii() and p.isdigit() for p in parts):
        raise ParseError(refusal, count=players, text=repr(text))
    return tuple(int(p) for p in parts)


def read_position(
    text: str, rules: Rules | None = None, *, finished: bool = False
) -> PositionFields:
    """Read the fields of a position string, refusing exactly what PROTOCOL.md refuses.

    ``rules`` may carry a handicap and an action limit for the game that goes on from
    the position; its variant and player count must match the position's.
    ``finished=True`` also reads the end of a game as the core writes it (phase
    ``over``, :func:`finished_outcome`), for showing and analysing a position; playing
    from one (``setposition``) still refuses it.
    """
    if not isinstance(text, str):
        raise ParseError("a position is a line of text")
    fields = text.strip().lower().split()
    if len(fields) != 8:
        raise ParseError(
            "a position has 8 fields: variant players board turn phase supplies scores "
            "skips; got {count}",
            count=len(fields),
        )
    variant = Variant.parse(fields[0])
    if fields[1] not in ("2", "3", "4"):
        raise ParseError("players must be 2, 3 or 4, got {found}", found=repr(fields[1]))
    players = int(fields[1])
    boards = parse_board(fields[2], players)
    turn = seat_of_colour(fields[3], players)
    phases = ("insert", "score", "over") if finished else ("insert", "score")
    if fields[4] not in phases:
        if fields[4] == "over":
            raise ParseError("the game is over in this position: there is nothing to play")
        raise ParseError(
            "the phase of a position is insert, score or over, got {found}", found=repr(fields[4])
        )
    phase = fields[4]
    supplies = _numbers(
        fields[5], players, N_("supplies must be {count} comma-separated numbers, got {text}")
    )
    scores = _numbers(
        fields[6], players, N_("scores must be {count} comma-separated numbers, got {text}")
    )
    skips = _numbers(
        fields[7], players, N_("skips must be {count} comma-separated numbers, got {text}")
    )

    for seat in range(players):
        on_board = boards[seat].bit_count()
        if on_board + supplies[seat] > MARBLES_PER_PLAYER:
            raise InvalidPositionError(  # the sum is over 22: the plural always fits
                "{colour}: {count} on the board and {supply} in supply make {total} marbles, "
                "more than {most}",
                colour=Colour(seat),
                count=on_board,
                supply=supplies[seat],
                total=on_board + supplies[seat],
                most=MARBLES_PER_PLAYER,
            )
        if skips[seat] > MAX_HANDICAP:
            raise InvalidPositionError(
                "{colour} has {count} skips: at most 6", colour=Colour(seat), count=skips[seat]
            )
    if skips[turn]:
        raise InvalidPositionError(
            "{colour} is to act and so cannot have skips pending", colour=Colour(turn)
        )
    if rules is None:
        rules = Rules(variant, players)
    elif rules.variant is not variant or rules.players != players:
        raise InvalidPositionError("the position's variant and players differ from the rules")
    # only the end of a game may hold a winning score: its last mover's
    others = [p for seat, p in enumerate(scores) if seat != turn or phase != "over"]
    if variant is not Variant.EXPRESS and max(others, default=0) >= WINNING_POINTS:
        raise InvalidPositionError(
            "a score of {score} has already won: scores must be below 10", score=max(others)
        )
    if phase == "score" and variant is Variant.EXPRESS:
        raise InvalidPositionError(
            "phase score is only in Expert and Extreme: Express scores no line"
        )
    if phase == "score" and not has_run(boards[turn], rules.min_line):
        raise InvalidPositionError(
            "phase score, but {colour} has no line to score", colour=Colour(turn)
        )
    outcome = None
    if phase == "over":
        outcome = finished_outcome(rules, boards, turn, supplies, scores)
        if not union(boards):  # every action leaves a marble on the board
            raise InvalidPositionError("no game is over with no marble on the board")
    return PositionFields(rules, boards, turn, phase, supplies, scores, skips, outcome)


def finished_outcome(
    rules: Rules,
    boards: tuple[int, ...],
    last: int,
    supplies: tuple[int, ...],
    scores: tuple[int, ...],
) -> Outcome:
    """How a game whose position is ``over`` with ``last`` the seat that acted last
    ended, as far as the position shows it: a winning line or score of ``last``, else a
    full board or an empty supply; else the action limit (which a position does not
    carry). A resignation or a loss on time leaves the position as it was, never
    ``over``."""
    if rules.variant is Variant.EXPRESS:
        if has_run(boards[last], rules.win_length):
            return Outcome((last,), rules.players, EndReason.LINE)
    elif scores[last] >= WINNING_POINTS:
        return Outcome((last,), rules.players, EndReason.POINTS)
    if union(boards) == BOARD_MASK:
        reason = EndReason.BOARD_FULL
    elif 0 in supplies:
        reason = EndReason.NO_MARBLES
    else:
        reason = EndReason.ACTION_LIMIT
    return Outcome(final_winners(rules, scores), rules.players, reason)
