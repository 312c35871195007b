"""Taking back (RULES.md section 9): against the computer, to the start of the asker's
previous turn (at one screen of several people, the last of them to act); between
people, the last action, on a device that holds every seat.
Time spent stays spent; once the next game is made, this game's result stands."""

from __future__ import annotations

from shiftago.core import COLOURS
from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.ending import flag_if_out_of_time
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame, previous_turn
from shiftago.interfaces.server.games.refusals import Refused, person
from shiftago.interfaces.server.games.waiting import running_seat, waiting


async def take_back(
    hub: Hub, live: LiveGame, seat: int | None, tokens: tuple[str, ...] = ()
) -> None:
    """Take back as the game allows (RULES.md section 9).

    Against the computer: back to the start of ``seat``'s previous turn, for a client
    that holds every seat a person plays (with ``tokens`` where there are several, and
    then the turn of the person who acted last). In a
    game of people only: the last action, for a client whose ``tokens`` hold every seat.
    """
    async with live.lock:
        if seat is None and not tokens:
            raise Refused("not_seated", "spectators can only watch", "spectator")
        if live.terminated:
            raise Refused("over", "the game is over")
        if live.stored.next_id is not None:
            raise Refused("over", "the next game is made: this game's result stands", "next_made")
        if live.has_computer:
            seat = _last_person_held(live, seat, tokens)
            keep = _turn_to_take_back(live, seat)  # a seat the computer plays is refused first
            _check_holds_every_person(live, seat, tokens)
        else:
            keep = _action_to_take_back(live, tokens)
        await flag_if_out_of_time(hub, live)
        undone = [live.game.undo() for _ in range(live.version - keep)]
        clock = live.stored.clock
        if clock is not None:  # time spent stays spent; the seat to act runs now
            now = hub.now()
            clock = clock.resumed(clock.left(now), running_seat(live), now)
            clock = waiting(live, clock, hub.waits)
        try:
            live.stored.updated = await hub.store_change(
                live, hub.store.truncate, keep, live.status(), clock
            )
        except Refused:
            raise  # read again from the database: nothing to put back
        except BaseException:
            for action in reversed(undone):
                live.game.play(action)
            raise
        live.stored.clock = clock
        del live.stored.actions[keep:]
        live.stored.status, live.stored.finished = live.status(), False
        announce.takeback(live, keep)
        await hub.after_change(live)


def _last_person_held(live: LiveGame, seat: int | None, tokens: tuple[str, ...]) -> int | None:
    """Whose turn a take-back against the computer goes back to: the asker's, or, from a
    client that holds several people's seats (people at one screen with the computer),
    the turn of the person who acted last, so that each undoes their own latest action
    and the computer's answers to it, not the actions of the others at the screen."""
    held = {seat} | {live.seat_of_token(token) for token in tokens}
    people = [s for s in sorted(live.people()) if s in held]
    if len(people) < 2:
        return seat
    started = [(n, s) for s in people if (n := previous_turn(live.game.states, s)) is not None]
    return max(started)[1] if started else seat


def _check_holds_every_person(live: LiveGame, seat: int | None, tokens: tuple[str, ...]) -> None:
    """With a computer and more than one person (a seat handed to the computer, people
    at one screen): only a client that holds every person's seat takes back, else it
    would undo another person's actions (RULES.md section 9: not between people)."""
    held = {seat} | {live.seat_of_token(token) for token in tokens}
    missing = [COLOURS[s] for s in sorted(live.people()) if s not in held]
    if missing:
        raise Refused(
            "not_allowed",
            "with other people in the game an action is taken back only on a device that "
            f"holds every seat a person plays: send their tokens (missing: {' '.join(missing)})",
            "takeback_every_seat",
        )


def _turn_to_take_back(live: LiveGame, seat: int | None) -> int:
    """Against the computer: the actions kept, up to ``seat``'s previous turn."""
    seat = person(live, seat)
    keep = previous_turn(live.game.states, seat)
    if keep is None:
        raise Refused("not_allowed", "you have no action to take back", "nothing_to_take_back")
    return keep


def _action_to_take_back(live: LiveGame, tokens: tuple[str, ...]) -> int:
    """Between people: one action, only for a client that holds every seat."""
    held = {live.seat_of_token(token) for token in tokens}
    missing = [COLOURS[s] for s in range(len(live.stored.seats)) if s not in held]
    if missing:
        raise Refused(
            "not_allowed",
            "between people an action is taken back only on a device that holds every "
            f"seat: send the links' tokens of every seat (missing: {' '.join(missing)})",
            "takeback_every_seat",
        )
    if live.version == 0:
        raise Refused("not_allowed", "there is no action to take back", "nothing_to_take_back")
    return live.version - 1
