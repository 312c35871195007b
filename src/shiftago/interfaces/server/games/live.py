"""A game held in memory while the server runs: the core's game, its seats and watchers.

:class:`LiveGame` is rebuilt from a :class:`StoredGame` by replaying its actions through
the core, so the rules decide again on every load. It holds no I/O: the hub stores and
announces, this only answers questions about the game and its people.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from shiftago.core import (
    COLOUR_NAMES,
    COLOURS,
    Game,
    Phase,
    Rules,
    State,
    TournamentScore,
    Variant,
    seat_of_colour,
)
from shiftago.formats.record import UNFINISHED, Record, Seat, new_game
from shiftago.interfaces.server.db.store import token_hash
from shiftago.interfaces.server.door.socket import Outbox, message_text
from shiftago.interfaces.server.games.presence import (
    SUMMARY_SECONDS,
    Coalescer,
    PresenceSummary,
    merged,
)
from shiftago.interfaces.server.games.stored import StoredGame

#: A game without a human seat ends after this many actions (RULES.md section 7).
COMPUTER_ONLY_ACTION_LIMIT = 1000
#: The termination of a game a player ended before it began: no result (stored as
#: ``""``, a record's ``*``), nobody won or lost, never rated.
ABORTED = "aborted"
#: The same end when nobody chose it: the clock waited in vain for a seat to be opened
#: or for its first action. Its result reads ``aborted`` with ``"waited": true``.
UNSTARTED = "unstarted"
#: The terminations of a game that never began.
ABORTS: Final = frozenset((ABORTED, UNSTARTED))
#: A stored termination as a record's ``Termination`` says it, where the words differ:
#: a loss on time is "time forfeit" in every record (docs/records.md), as the arena and
#: the terminal write it; a game nobody began is aborted.
RECORD_TERMINATION: Final = {"time": "time forfeit", UNSTARTED: ABORTED}


def unnamed_seat(seat: int) -> str:
    """The name a person's seat gets when its game's maker names it not: its colour's."""
    return COLOUR_NAMES[seat].capitalize()


def name_with_account(seat: int, name: str, account: str) -> str:
    """The name of seat ``seat`` once ``account`` takes it: a seat its maker left unnamed
    takes the account's name, as the maker's own seat does; a name typed stays."""
    return account if name == unnamed_seat(seat) else name


def rules_of(stored: StoredGame) -> Rules:
    return Rules(
        Variant.parse(stored.variant), stored.players, stored.handicap, stored.action_limit
    )


def rebuild(stored: StoredGame) -> Game:
    """The core's game from the stored start and actions (each replayed by the rules)."""
    game = new_game(rules_of(stored), stored.first, stored.position, stored.seed)
    for notation in stored.actions:
        game.play(notation)
    return game


#: How a take-back works: back to the requester's previous turn (a computer plays), or
#: one action at a time (every seat is a person; RULES.md section 9).
TakebackKind = Literal["turn", "action"]


def previous_turn(states: Sequence[State], seat: int) -> int | None:
    """The number of actions before the start of ``seat``'s latest turn that has begun
    and is not the current state (None when it has had none): where a take-back against
    the computer goes back to."""
    for n in range(len(states) - 2, -1, -1):
        if states[n].turn == seat and states[n].phase is Phase.INSERT:
            return n
    return None


def winners_of(result: str, players: int) -> tuple[int, ...]:
    """The seats of a result token (``o`` or ``o=g``); none for ``""`` (aborted)."""
    if not result:
        return ()
    return tuple(seat_of_colour(c, players) for c in result.split("="))


def result_token(winners: tuple[int, ...]) -> str:
    return "=".join(COLOURS[s] for s in sorted(winners))


class Connection(Outbox):
    """One open game socket: its seat (None for a spectator) and its outbox (a ``str``
    in it is a message serialised once for all the game's sockets,
    :meth:`LiveGame.broadcast`)."""

    def __init__(self, seat: int | None = None, token: str | None = None) -> None:
        super().__init__()
        self.seat = seat
        self.token = token
        #: The game's presence change that this connection was last told of.
        self.presence_seen = -1


@dataclass
class LiveGame:
    stored: StoredGame
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    #: The seats' connections among them: who is connected is read without going
    #: through every watcher's.
    seated: set[Connection] = field(default_factory=set)
    away_since: list[dt.datetime | None] = field(default_factory=list)
    #: What the other serve processes hold of this game, by process id (their
    #: exchange keeps it; see :mod:`.presence`).
    remote_presence: dict[str, PresenceSummary] = field(default_factory=dict)
    #: Sends the game's ``presence`` at most once per interval.
    presence_out: Coalescer = field(default_factory=Coalescer)
    #: Tells the other processes this one's part at most once per interval.
    presence_shared: Coalescer = field(default_factory=Coalescer)
    #: Counts the changes of presence, so that nobody is told the same one twice.
    presence_changes: int = 0
    thinking: int | None = None
    #: The time of the game's clock (the hub's: tests move it).
    now: Callable[[], float] = time.time
    #: When the game was last asked for or changed (``time.monotonic``): idle games
    #: leave memory (``Hub.evict_idle``).
    last_used: float = field(default_factory=time.monotonic)
    #: What :mod:`.views` made of this game and keeps for the next view (the history
    #: entries: each made once, not at every action).
    views: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.away_since:
            stamp = dt.datetime.now(dt.UTC)
            self.away_since = [stamp if s.kind == "human" else None for s in self.stored.seats]

    @classmethod
    def load(cls, stored: StoredGame) -> LiveGame:
        return cls(stored, rebuild(stored))

    def refresh(self, stored: StoredGame) -> None:
        """Follow the game as stored now (another process changed it); the sockets stay,
        and a seat that became a computer's is no longer away."""
        self.stored = stored
        self.game = rebuild(stored)
        for seat, stored_seat in enumerate(stored.seats):
            if stored_seat.kind != "human" and seat < len(self.away_since):
                self.away_since[seat] = None
        self.last_used = time.monotonic()

    # --- the game --------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def version(self) -> int:
        return len(self.game.history)

    @property
    def revision(self) -> int:
        """The stored changes of the game so far (actions, take-backs, endings, seats):
        the computer's answer to an older revision is dropped."""
        return self.stored.revision

    @property
    def terminated(self) -> bool:
        """Ended by people (a resignation, abandoned), not by the rules."""
        return self.stored.termination is not None

    @property
    def aborted(self) -> bool:
        """Ended before it began (:data:`ABORTED`): no result, no winners, unrated."""
        return self.stored.termination in ABORTS

    @property
    def over(self) -> bool:
        return self.game.is_over or self.terminated

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self.over else self.game.turn

    @property
    def computer_to_act(self) -> bool:
        seat = self.to_act
        return seat is not None and self.stored.seats[seat].kind == "computer"

    @property
    def has_computer(self) -> bool:
        return any(s.kind == "computer" for s in self.stored.seats)

    def people(self) -> frozenset[int]:
        """The seats a person holds (the computer's are the others)."""
        return frozenset(i for i, s in enumerate(self.stored.seats) if s.kind == "human")

    @property
    def rated(self) -> bool:
        """Whether the game counts for the ratings: made rated, and every seat still a
        person with an account (a seat handed to the computer since makes it unrated;
        docs/web-protocol.md, "What is rated")."""
        return self.stored.rated and all(
            s.kind == "human" and s.account_id is not None for s in self.stored.seats
        )

    @property
    def has_human(self) -> bool:
        return any(s.kind == "human" for s in self.stored.seats)

    @property
    def tournament(self) -> TournamentScore | None:
        """The score of the game's tournament before this game (None outside one)."""
        stored = self.stored
        if not stored.tournament_target:
            return None
        wins = stored.tournament_wins
        if wins is None or len(wins) != stored.players:
            return TournamentScore.start(stored.players, stored.tournament_target)
        return TournamentScore(wins, stored.tournament_target)

    def takeback_kind(self, version: int | None = None) -> TakebackKind | None:
        """How a take-back works after the first ``version`` actions (now by default):
        None when there is nothing to take back, the game was resigned or abandoned, or
        its next game (a rematch, the tournament's next game) is made: that game's seats
        and score follow this one's result, so the result stands."""
        if version is None or version >= self.version:
            if self.terminated or self.stored.next_id is not None:
                return None
            version = self.version
        if version == 0:
            return None
        if not self.has_computer:
            return "action"
        states = self.game.states[: version + 1]
        people = [i for i, s in enumerate(self.stored.seats) if s.kind == "human"]
        if any(previous_turn(states, seat) is not None for seat in people):
            return "turn"
        return None

    def may_take_back(self, seat: int, version: int | None = None) -> bool:
        """Whether the person at ``seat`` may take back after ``version`` actions."""
        kind = self.takeback_kind(version)
        if kind is None or self.stored.seats[seat].kind != "human":
            return False
        if kind == "action":
            return True
        states = self.game.states[: (self.version if version is None else version) + 1]
        return previous_turn(states, seat) is not None

    def has_acted(self, seat: int) -> bool:
        """Whether ``seat`` has played an action in this game."""
        return any(state.turn == seat for state in self.game.states[:-1])

    def draw_offer_refusal(self, seat: int) -> tuple[str, str] | None:
        """Why the person at ``seat`` may not offer a draw now, as a stable reason and
        its English words (None: they may). Only between two people, one standing offer
        at a time, not again right after a decline (docs/web-protocol.md, "Draw offers
        and aborting")."""
        if self.over:
            return "game_over", "the game is over"
        if self.game.rules.players != 2:
            return "draw_players", "draws are offered only in 2-player games"
        if any(s.kind != "human" for s in self.stored.seats):
            return "draw_computer", "the computer does not take draw offers"
        if self.stored.draw_offer == seat:
            return "draw_standing", "your draw offer stands already"
        if self.stored.draw_offer is not None:
            return "draw_to_answer", "answer the draw offer first"
        if self.stored.draw_declined == (seat, self.version):
            return (
                "draw_declined",
                "your draw offer was declined: offer again after the next action",
            )
        return None

    def abort_refusal(self, seat: int) -> tuple[str, str] | None:
        """Why the person at ``seat`` may not abort the game now, as a stable reason and
        its English words (None: they may): only before that seat's first action, and
        never a computer's seat."""
        if self.over:
            return "game_over", "the game is over"
        if self.stored.seats[seat].kind != "human":
            return "abort_computer", "only a person's seat aborts"
        if self.has_acted(seat):
            return (
                "abort_under_way",
                "the game is under way: you have played already (resign instead)",
            )
        return None

    def winners(self) -> tuple[int, ...] | None:
        if self.stored.result is not None:
            return winners_of(self.stored.result, self.game.rules.players)
        outcome = self.game.outcome
        return None if outcome is None else outcome.winners

    def status(self) -> str:
        """The engine protocol's words: ``playing g insert``, ``over winner o``..."""
        winners = self.winners()
        if winners is None:
            return f"playing {COLOURS[self.game.turn]} {self.game.phase.value}"
        if self.aborted:
            return "over aborted"
        colours = " ".join(COLOURS[s] for s in winners)
        return f"over {'winner' if len(winners) == 1 else 'draw'} {colours}"

    def record(self) -> Record:
        """The game's record: an imported one keeps its Event and Date headers."""
        stored = self.stored
        seats = tuple(Seat(s.name, s.kind, s.level) for s in stored.seats)  # type: ignore[arg-type]
        result = termination = None  # the game's own result
        if self.terminated:  # a result the rules did not make, and why
            result, termination = stored.result or UNFINISHED, stored.termination
            termination = RECORD_TERMINATION.get(termination or "", termination)
        return Record.from_game(
            self.game,
            seats=seats,
            date=stored.record_date or stored.created.date(),
            event=stored.event,
            result=result,
            termination=termination,
        )

    # --- the people ------------------------------------------------------------------
    def seat_of_token(self, token: str) -> int | None:
        digest = token_hash(token)
        for i, seat in enumerate(self.stored.seats):
            if seat.token_hash is not None and seat.token_hash == digest:
                return i
        return None

    def add_connection(self, connection: Connection) -> None:
        """A socket joins the game (its seat is set by then and stays)."""
        self.connections.add(connection)
        if connection.seat is not None:
            self.seated.add(connection)

    def discard_connection(self, connection: Connection) -> None:
        self.connections.discard(connection)
        self.seated.discard(connection)

    def own_presence(self) -> PresenceSummary:
        """This process's part of the game's presence (what the exchange sends)."""
        seats = frozenset(c.seat for c in self.seated if not c.closed and c.seat is not None)
        spectators = sum(1 for c in self.connections if c.seat is None and not c.closed)
        return PresenceSummary(seats, spectators, time.time())

    def whole_presence(self) -> PresenceSummary:
        """The game's presence over every process: this one's and the others' summaries."""
        return merged([self.own_presence(), *self.fresh_remote_presence()])

    def fresh_remote_presence(self) -> list[PresenceSummary]:
        """The other processes' summaries that are recent enough to believe: a process
        says its part again every so often, so that one that died stops counting
        (:data:`.presence.SUMMARY_SECONDS`)."""
        oldest = time.time() - SUMMARY_SECONDS
        return [summary for summary in self.remote_presence.values() if summary.at >= oldest]

    def take_remote_presence(self, process: str, summary: PresenceSummary) -> bool:
        """Keep another process's part of the presence; whether the game's presence
        changed. A part made before the one held is dropped (renewals sent in a batch
        can arrive after a change made meanwhile); the same part said again (each
        process repeats its part every third of :data:`.presence.SUMMARY_SECONDS`)
        only renews it: nobody needs to hear of it. An empty part is kept too, as that
        process's latest word, until it expires."""
        previous = self.remote_presence.get(process)
        if previous is not None and summary.at < previous.at:
            return False
        oldest = time.time() - SUMMARY_SECONDS
        for other in [p for p, held in self.remote_presence.items() if held.at < oldest]:
            del self.remote_presence[other]  # expired: that process has died or left
        self.remote_presence[process] = summary
        return _believed(previous, oldest) != _believed(summary, oldest)

    def connected(self, seat: int) -> bool:
        """Whether the seat is played: by the computer, or by its person connected to
        this process or to another one."""
        if self.stored.seats[seat].kind == "computer":
            return True
        if any(c.seat == seat and not c.closed for c in self.seated):
            return True
        return any(seat in summary.seats for summary in self.fresh_remote_presence())

    def presence_changed(self) -> None:
        """People came or went: ``away_since`` follows, and the change is counted."""
        self.settle_away()
        self.presence_changes += 1

    def announce_presence(self, grace_seconds: int) -> None:
        """Tell the presence to every connection that has not heard the latest change:
        one event, made once."""
        event = None
        for connection in list(self.connections):
            if connection.presence_seen < self.presence_changes:
                event = event or self.presence(grace_seconds)
                connection.presence_seen = self.presence_changes
                connection.send(event)

    def settle_away(self, now: dt.datetime | None = None) -> None:
        """Bring ``away_since`` up to date after people came or went (here or on another
        process): None while a seat's person is connected, else the moment they were
        first missed, which later changes keep."""
        stamp = now or dt.datetime.now(dt.UTC)
        for i, seat in enumerate(self.stored.seats):
            if seat.kind != "human" or self.connected(i):
                self.away_since[i] = None
            elif self.away_since[i] is None:
                self.away_since[i] = stamp

    @property
    def correspondence(self) -> bool:
        """Whether the game gives days per turn: its players come and go between their
        actions, and only the clock ends a turn nobody takes."""
        clock = self.stored.clock
        return clock is not None and clock.control.correspondence

    def claimable_at(self, seat: int, grace_seconds: int) -> dt.datetime | None:
        """From when the others may claim ``seat`` (its person away past the grace
        time); None while the person is here, for a computer, once the game is over,
        and in a correspondence game."""
        return self._claimable_at(seat, grace_seconds, self.connected(seat))

    def _claimable_at(self, seat: int, grace_seconds: int, connected: bool) -> dt.datetime | None:
        away = self.away_since[seat]
        if self.over or away is None or self.stored.seats[seat].kind != "human" or connected:
            return None
        if self.correspondence:
            return None
        return away + dt.timedelta(seconds=grace_seconds)

    def presence(self, grace_seconds: int) -> dict[str, Any]:
        """The ``presence`` event: each seat, and how many watch (every process)."""
        whole = self.whole_presence()
        seats = []
        for i, seat in enumerate(self.stored.seats):
            connected = seat.kind == "computer" or i in whole.seats
            away = None if connected else self.away_since[i]
            claimable = self._claimable_at(i, grace_seconds, connected)
            # a friend who has not followed the link yet is not "away"
            came = connected or seat.opened is not None or self.has_acted(i)
            seats.append(
                {
                    "colour": COLOURS[i],
                    "connected": connected,
                    "came": came,
                    "away_since": None if away is None else away.isoformat(),
                    "claimable_at": None if claimable is None else claimable.isoformat(),
                }
            )
        return {
            "type": "presence",
            "seats": seats,
            "spectators": whole.spectators,
            "grace_seconds": grace_seconds,
        }

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send ``message`` to every socket of the game, serialised once: the seats'
        sockets first, so that their writers run before the watchers' (with hundreds
        of watchers, each writer compresses the message for its own socket)."""
        if not self.connections:
            return
        text = message_text(message)
        for connection in list(self.seated):
            connection.send(text)
        for connection in list(self.connections):
            if connection.seat is None:
                connection.send(text)


def _believed(summary: PresenceSummary | None, oldest: float) -> tuple[frozenset[int], int]:
    """What a process's part says if it is recent enough to believe (else nothing)."""
    if summary is None or summary.at < oldest:
        return frozenset(), 0
    return summary.seats, summary.spectators
