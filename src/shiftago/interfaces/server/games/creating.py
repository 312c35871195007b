"""New games: from the settings of the API, from an imported record, or as a rematch.

Each seat of a person gets a fresh secret (``secrets.token_urlsafe``) of which only the
SHA-256 is stored; the secret itself goes back once, in the seat's join link.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Annotated

from pydantic import Field

from shiftago.core import Variant, draw_first_seat
from shiftago.engine.levels import LEVELS, default_level, level_name
from shiftago.formats.record import Record
from shiftago.interfaces.server.db.store import now, token_hash
from shiftago.interfaces.server.door.http import Body, Invalid
from shiftago.interfaces.server.games.live import COMPUTER_ONLY_ACTION_LIMIT, LiveGame
from shiftago.interfaces.server.games.stored import StoredGame, StoredSeat, check_storable
from shiftago.match.clock import TimeControl, TimeControlError


@dataclass
class SeatSpec:
    kind: str  # human | computer
    name: str
    level: int | None = None
    token_hash: str | None = None  # a rematch (or a filled seek) gives the seat's secret
    account_id: int | None = None
    #: The account's name (shown with the seat; None for a guest or the computer).
    account: str | None = None


@dataclass
class GameSpec:
    """What a new game is made of; checked by the API before it comes here."""

    variant: Variant
    players: int
    seats: list[SeatSpec]
    handicap: tuple[int, ...] = ()
    first: int | None = None
    seed: int | None = None
    public: bool = False
    action_limit: int | None = None
    position: str | None = None
    actions: list[str] = field(default_factory=list)
    result: str | None = None
    termination: str | None = None
    previous_id: str | None = None
    tournament_target: int | None = None
    tournament_wins: tuple[int, ...] | None = None
    #: The address that asked for the game (the per-address limits count by it).
    owner: str | None = None
    #: The time control (None: untimed); the hub starts the clock when it makes the game.
    clock: TimeControl | None = None
    #: Whether the game changes its accounts' ratings when it ends.
    rated: bool = False
    #: An imported record's Event and Date headers, kept for its record.
    event: str | None = None
    record_date: str | None = None
    #: Made from an imported record (its seats are never adopted into an account).
    imported: bool = False
    #: Whether every person's seat is opened as the game is made (a filled seek: its
    #: people are there); else each is opened when its link is first followed.
    opened: bool = False
    #: The seat its maker takes by making it (WEBAPI.md, "Games of an account"): a
    #: signed-in maker's account holds it (``holding.taken_by``); None: no seat.
    maker: int | None = None


def computer_level(level: int | None, field: str) -> int:
    """The computer's level asked for (the usual one when None), or :class:`Invalid`
    naming ``field`` for a level the computer does not have."""
    chosen = level if level is not None else default_level()
    try:
        level_name(chosen)
    except ValueError as error:
        raise Invalid(field, str(error)) from None
    return chosen


class ClockIn(Body):
    """A time control as the API takes it (a new game's, a seek's): ``initial``
    seconds plus ``increment`` per turn, or ``days`` per turn (correspondence)."""

    initial: Annotated[float, Field(allow_inf_nan=False)] | None = None
    increment: Annotated[float, Field(allow_inf_nan=False)] = 0.0
    days: int | None = None

    def control(self, where: str = "clock") -> TimeControl:
        """The time control, or :class:`Invalid` naming the field."""
        if self.days is not None and (self.initial is not None or self.increment):
            raise Invalid(where, "give initial (and increment) or days, not both")
        if self.days is None and self.initial is None:
            raise Invalid(where, "give initial seconds (and an increment) or days per turn")
        try:
            if self.days is not None:
                return TimeControl(days=self.days)
            return TimeControl(float(self.initial or 0.0), float(self.increment))
        except TimeControlError as error:
            raise Invalid(where, str(error)) from None


def new_id() -> str:
    """A fresh game id that never starts with ``-``: people type it after commands
    (``shiftago admin chat ID``), where a leading ``-`` reads as an option."""
    while (drawn := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return drawn


def new_token() -> str:
    return secrets.token_urlsafe(24)


def build(spec: GameSpec) -> tuple[LiveGame, list[str | None]]:
    """The new game (not stored yet) and each seat's secret (None for a computer seat).

    Replays ``spec.actions`` through the rules, so an imported game that breaks a rule
    raises the core's error here, and one that its columns cannot hold raises
    :class:`~.db.storable.Unstorable` (a ``ValueError``) before anything is stored.
    """
    tokens: list[str | None] = []
    seats = []
    for seat in spec.seats:
        token = None
        digest = seat.token_hash
        if seat.kind == "human" and digest is None:
            token = new_token()
            digest = token_hash(token)
        tokens.append(token)
        if seat.kind != "human":
            digest = None
        person = seat.kind == "human"
        account_id, account = (seat.account_id, seat.account) if person else (None, None)
        seats.append(StoredSeat(seat.kind, seat.name, seat.level, digest, account_id, account))
    # a seed is the lot's for the first seat (RULES.md section 1): a game whose first
    # seat is chosen, or set up from a position, has one only when it was given one
    seed = spec.seed
    first = spec.first
    if spec.position is None and first is None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        first = draw_first_seat(spec.players, seed)
    limit = spec.action_limit
    if limit is None and not any(s.kind == "human" for s in spec.seats):
        limit = COMPUTER_ONLY_ACTION_LIMIT
    stamp = now()
    stored = StoredGame(
        id=new_id(),
        variant=spec.variant.value,
        players=spec.players,
        handicap=spec.handicap or (0,) * spec.players,
        first=None if spec.position is not None else first,
        position=spec.position,
        seed=seed,
        action_limit=limit,
        public=spec.public,
        created=stamp,
        updated=stamp,
        seats=seats,
        actions=list(spec.actions),
        result=spec.result,
        termination=spec.termination,
        previous_id=spec.previous_id,
        tournament_target=spec.tournament_target,
        tournament_wins=spec.tournament_wins,
        owner=spec.owner,
        rated=spec.rated,
        event=spec.event,
        record_date=spec.record_date,
        imported=spec.imported,
    )
    live = LiveGame.load(stored)
    stored.status = live.status()
    stored.finished = live.over
    check_storable(stored)
    return live, tokens


def spec_of_record(record: Record, public: bool, level: int) -> GameSpec:
    """An imported record as a new game: its seats are people unless it names a computer."""
    seats = []
    for i, seat in enumerate(record.seats):
        name = seat.name or f"Player {i + 1}"
        if seat.kind == "computer":
            known = seat.level is not None and any(seat.level == n for n, _ in LEVELS)
            seats.append(SeatSpec("computer", name, seat.level if known else level))
        else:
            seats.append(SeatSpec("human", name))
    terminated = record.termination is not None and record.result != "*"
    return GameSpec(
        variant=record.rules.variant,
        players=record.rules.players,
        seats=seats,
        handicap=record.rules.handicap,
        first=record.first,
        seed=record.seed,
        public=public,
        action_limit=record.rules.action_limit,
        position=record.position,
        actions=[str(a) for a in record.actions],
        result=record.result if terminated else None,
        termination=record.termination if terminated else None,
        event=record.event,
        record_date=record.date,
        imported=True,
    )


def rematch_spec(live: LiveGame) -> GameSpec:
    """The next game with the same seats (and secrets); in a tournament, the player after
    the winner starts (the core's :class:`TournamentScore`), otherwise the lot decides."""
    stored = live.stored
    players = stored.players
    seats = [
        SeatSpec(s.kind, s.name, s.level, s.token_hash, s.account_id, s.account)
        for s in stored.seats
    ]
    first = None
    score = live.tournament
    if score is not None:
        winners = live.winners() or ()
        first = score.next_first(winners)
        score = score.after(winners).next_series()
    return GameSpec(
        variant=Variant.parse(stored.variant),
        players=players,
        seats=seats,
        handicap=stored.handicap,
        first=first,
        public=stored.public,
        action_limit=stored.action_limit,
        previous_id=stored.id,
        tournament_target=None if score is None else score.target,
        tournament_wins=None if score is None else score.wins,
        owner=stored.owner,
        clock=None if stored.clock is None else stored.clock.control,
        rated=stored.rated,
        opened=True,  # its people are there: each asked for it
    )


__all__ = ["ClockIn", "GameSpec", "SeatSpec", "build", "rematch_spec", "spec_of_record"]
