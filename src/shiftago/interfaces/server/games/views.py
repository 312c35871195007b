"""The JSON shapes the app sends: ``GAME`` (WEBAPI.md and docs/web-protocol.md) and the
short summary of a listing. Only translation: every fact comes from the core."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from shiftago.core import (
    COLOURS,
    Action,
    EndReason,
    Insertion,
    Phase,
    Rules,
    Scoring,
    State,
    cell_name,
)
from shiftago.core.motion import Motion, motion
from shiftago.core.rules import MARBLES_PER_PLAYER, MAX_HANDICAP
from shiftago.formats.record_syntax import starts_turn
from shiftago.interfaces.server.games.live import ABORTED, UNSTARTED, LiveGame
from shiftago.interfaces.server.games.stored import StoredGame
from shiftago.match.clock import Clock


def game_view(live: LiveGame, upto: int | None = None, now: float | None = None) -> dict[str, Any]:
    """``GAME``: the game after its first ``upto`` actions (all of them by default),
    its clocks as at ``now`` (the time of the clocks; the real time by default).

    Never holds a seat's secret.
    """
    stored = live.stored
    states = live.game.states
    actions = live.game.history
    if upto is not None and upto < len(actions):
        states, actions = states[: upto + 1], actions[:upto]
        current = False
    else:
        current = True
    version = len(actions)
    state = states[-1]
    rules = state.rules
    terminated = current and live.terminated
    over = state.phase is Phase.OVER or terminated
    view: dict[str, Any] = {
        "id": stored.id,
        **position_view(states, actions),
        "handicap": list(rules.handicap),
        "action_limit": rules.action_limit,
        "public": stored.public,
        "rated": live.rated,
        "seats": [
            {
                "colour": COLOURS[i],
                "name": seat.name,
                "kind": seat.kind,
                "level": seat.level,
                "connected": live.connected(i),
                "account": seat.account,  # the account's name; None for a guest
                # a person's seat without an account: its name is shown as a guest's
                "guest": seat.kind == "human" and seat.account is None,
            }
            for i, seat in enumerate(stored.seats)
        ],
        "actions": [str(a) for a in actions],
        "version": version,
        "status": _status(live, state, terminated),
        "created": stored.created.isoformat(),
        "updated": stored.updated.isoformat(),
        "last": str(actions[-1]) if actions else None,
        "previous": stored.previous_id,
        "next": stored.next_id,
        "tournament": tournament_view(live, counted=current),
        "history": _history_entries(live).upto(states, actions),
        "skipped_at_start": _skipped_at_start(live),
        "may": _may(live, state, version, over),
        "takeback": live.takeback_kind(version),
        "analysable": over and not (current and live.aborted),
        "draw_offer": _draw_offer(live, current and not over),
        "rematch_asked": [
            COLOURS[seat] for seat in sorted(stored.rematch_asks) if current and over
        ],
        "clock": _game_clock(live, live.now() if now is None else now),
    }
    if terminated:
        view.update(turn=None, phase=Phase.OVER.value, legal=[], scoring=[])
        view["result"] = _terminated_result(live)
    elif view["result"] is not None:
        view["result"]["by"] = []
    return view


def action_message(number: int, action: str, seat: int, game: dict[str, Any]) -> dict[str, Any]:
    """The ``action`` event: action ``number`` (1-based) played by ``seat``, and the game
    after it."""
    return {"type": "action", "version": number, "action": action, "seat": seat, "game": game}


def action_event(live: LiveGame, number: int) -> dict[str, Any]:
    """The ``action`` event of the game's action ``number`` (1-based), as it was sent."""
    return action_message(
        number,
        str(live.game.history[number - 1]),
        live.game.states[number - 1].turn,
        game_view(live, number),
    )


def clock_view(clock: Clock | None, now: float | None = None) -> dict[str, Any] | None:
    """A timed game's clocks (WEBAPI.md, "Clocks"): seconds left per seat at ``now``,
    and the colour whose clock runs; None for an untimed game."""
    if clock is None:
        return None
    control = clock.control
    left = clock.left(time.time() if now is None else now)
    return {
        "initial": control.initial,
        "increment": control.increment,
        "days": control.days,
        "remaining": [round(r, 3) for r in left],
        "running": None if clock.running is None else COLOURS[clock.running],
        "control": str(control),
        "speed": control.speed,
    }


def _game_clock(live: LiveGame, now: float) -> dict[str, Any] | None:
    """A game's clocks, with what they wait for (docs/web-protocol.md, "Clocks"):
    ``waiting`` is ``"first_action"`` while the seat to act has its first action to
    make (free of time), ``"players"`` while a person's seat is not opened yet, else
    None; ``aborts_in`` the seconds until the game is aborted if nobody acts (None: no
    such time); ``paused`` the seconds of the server's last pause, which the clocks
    were shifted by, until the next action (None: none since)."""
    clock = live.stored.clock
    view = clock_view(clock, now)
    if view is None or clock is None:
        return view
    waiting = None
    if clock.running is None and not live.over:
        opened = all(s.opened is not None for s in live.stored.seats if s.kind == "human")
        waiting = "first_action" if opened else "players"
    until = None if live.over else clock.waits_until
    view["waiting"] = waiting
    view["aborts_in"] = None if until is None else round(max(0.0, until - now), 3)
    view["paused"] = live.stored.clock_paused
    return view


def position_view(states: Sequence[State], actions: Sequence[Action]) -> dict[str, Any]:
    """The position after ``actions`` (``states`` from the first, one more than the
    actions): what ``GAME`` and the analysis board show of it."""
    state = states[-1]
    over = state.phase is Phase.OVER
    legal = state.legal_actions()
    return {
        "position": state.position(),
        "variant": state.rules.variant.value,
        "players": state.rules.players,
        "turn": None if over else COLOURS[state.turn],
        "phase": state.phase.value,
        "legal": [str(a) for a in legal],
        "pushes": {str(a): _moves(motion(state, a)) for a in legal if isinstance(a, Insertion)},
        # the handicap's special case greys lanes (RULES.md section 2): the page says why
        "apart": state.keeps_apart,
        "scoring": _scoring(state),
        "supplies": list(state.supplies),
        "scores": list(state.scores),
        "skips": list(state.skips),
        "result": _result(states, actions),
        "motion": motion_view(states[-2], actions[-1]) if actions else None,
    }


def motion_view(state: State, action: Action) -> dict[str, Any]:
    """What ``action`` played on ``state`` does to the marbles, for a page to draw it
    moving (docs/web-protocol.md, "Motion"): the core decides, the page only animates."""
    m = motion(state, action)
    return {
        "moves": _moves(m),
        "entry": None if m.entry is None else cell_name(m.entry),
        "side": m.side,
        "removed": [cell_name(c) for c in m.removed],
    }


def _moves(m: Motion) -> list[dict[str, str]]:
    """The marbles a push shifts, the farthest along its lane first."""
    return [{"from": cell_name(a), "to": cell_name(b)} for a, b in m.shifts]


def rules_view() -> dict[str, Any]:
    """The rules' numbers the pages' forms need (docs/web-protocol.md): the marbles
    each player has, the most turns a handicap skips, and the start position of the
    standard game (Express, 2 players, orange first), so no script writes them down."""
    return {
        "marbles": MARBLES_PER_PLAYER,
        "max_handicap": MAX_HANDICAP,
        "start": State.initial(Rules(), 0).position(),
    }


def _history_entries(live: LiveGame) -> HistoryEntries:
    entries = live.views.get("history")
    if not isinstance(entries, HistoryEntries):
        entries = live.views["history"] = HistoryEntries()
    return entries


def history_view(states: Sequence[State], actions: Sequence[Action]) -> list[dict[str, Any]]:
    """One entry per action: its record turn number, who made it, the points of a
    scoring, and whose turns their handicap skipped right after it."""
    return HistoryEntries().upto(states, actions)


class HistoryEntries:
    """The history entries made so far along one game's states, each made once.

    An entry depends only on the states and actions up to it, so a game that goes on
    only adds entries: a view after each action makes one entry instead of all of them.
    An entry is used only while the state after it is still the game's (identity: a
    take-back or a game read again brings other states, and the entries from there are
    made again).
    """

    __slots__ = ("_after", "_entries")

    def __init__(self) -> None:
        self._after: list[State] = []
        self._entries: list[dict[str, Any]] = []

    def upto(self, states: Sequence[State], actions: Sequence[Action]) -> list[dict[str, Any]]:
        """The entries of ``actions`` (``states`` from the first, one more than them)."""
        valid = min(len(self._after), len(actions))
        while valid and self._after[valid - 1] is not states[valid]:
            valid -= 1
        if valid < len(actions):
            del self._after[valid:], self._entries[valid:]
            for index in range(valid, len(actions)):
                self._add(states, actions, index)
        return self._entries[: len(actions)]

    def _add(self, states: Sequence[State], actions: Sequence[Action], index: int) -> None:
        action, before, after = actions[index], states[index], states[index + 1]
        previous = self._entries[index - 1]["turn"] if index else 0
        turn = previous + starts_turn(actions[index - 1] if index else None, action)
        points = None
        if isinstance(action, Scoring):
            points = next(o.points for o in before.scoring_options() if o.action == action)
        self._after.append(after)
        self._entries.append(
            {
                "index": index,
                "turn": turn,
                "action": str(action),
                "seat": COLOURS[before.turn],
                "points": points,
                "skipped": _skipped(before.skips, after.skips, (before.turn + 1) % before.players),
                "motion": motion_view(before, action),
            }
        )


def _skipped(before: tuple[int, ...], after: tuple[int, ...], start: int) -> list[str]:
    """The colours whose turns were skipped, in order, as the turn went on from ``start``
    and the pending skips fell from ``before`` to ``after``.

    The core uses up one skip of each seat the turn comes to until it reaches a seat
    without one, so the seats whose count fell form one run in seat order from
    ``start`` (round more than once when every seat had skips). A scoring keeps the
    turn and the seat that acts has none pending, so only an insertion skips anyone.
    """
    used = [b - a for b, a in zip(before, after, strict=True)]
    skipped = []
    seat = start
    while any(used):
        if used[seat]:
            used[seat] -= 1
            skipped.append(COLOURS[seat])
        seat = (seat + 1) % len(used)
    return skipped


def _skipped_at_start(live: LiveGame) -> list[str]:
    """The colours skipped before the first action (none in a game set up from a position)."""
    game = live.game
    if game.first is None:
        return []
    return _skipped(game.rules.handicap, game.start.skips, game.first)


def _may(live: LiveGame, state: State, version: int, over: bool) -> dict[str, dict[str, bool]]:
    """What the holder of each seat may do now (a computer's seat has no holder)."""
    may = {}
    current = version == live.version
    for seat, stored in enumerate(live.stored.seats):
        person = stored.kind == "human"
        may[COLOURS[seat]] = {
            "act": person and not over and state.turn == seat,
            "resign": person and not over,
            "takeback": live.may_take_back(seat, version),
            "rematch": person and over,
            "draw": person and current and live.draw_offer_refusal(seat) is None,
            "abort": person and current and live.abort_refusal(seat) is None,
        }
    return may


def _draw_offer(live: LiveGame, standing: bool) -> str | None:
    """The colour that offers a draw now (None when none does or the game is over)."""
    seat = live.stored.draw_offer
    return COLOURS[seat] if standing and seat is not None else None


def _status(live: LiveGame, state: State, terminated: bool) -> str:
    if terminated:
        return live.status()
    if state.outcome is not None:
        return state.outcome.status()
    return f"playing {COLOURS[state.turn]} {state.phase.value}"


def _scoring(state: State) -> list[dict[str, Any]]:
    return [
        {
            "action": str(option.action),
            "cells": [cell_name(c) for c in option.line.cells],
            "removed": [cell_name(c) for c in option.removed],
            "points": option.points,
        }
        for option in state.scoring_options()
    ]


def _result(states: Sequence[State], actions: Sequence[Action]) -> dict[str, Any] | None:
    outcome = states[-1].outcome
    if outcome is None:
        return None
    return {
        "winners": [COLOURS[s] for s in outcome.winners],
        "reason": outcome.reason.value,
        "line": _winning_line(states, actions, outcome.reason),
    }


def _terminated_result(live: LiveGame) -> dict[str, Any]:
    """The result of a game that people ended: resigned, abandoned, aborted."""
    players = live.game.rules.players
    winners = live.winners() or ()
    if live.aborted:  # nobody lost (nor won): ``by`` names the seat that aborted
        aborter = live.stored.ended_by
        by = [] if aborter is None else [COLOURS[aborter]]
    else:
        by = [COLOURS[s] for s in range(players) if s not in winners]
    if not live.aborted:
        return {
            "winners": [COLOURS[s] for s in winners],
            "reason": live.stored.termination,
            "line": None,
            "by": by,
        }
    # the seat that aborted, or that the clock waited for in vain
    waited = live.stored.termination == UNSTARTED
    return {"winners": [], "reason": ABORTED, "line": None, "by": by, "waited": waited}


def _winning_line(
    states: Sequence[State], actions: Sequence[Action], reason: EndReason
) -> list[str] | None:
    """The cells of the line that won: the Express line, or the last scored line."""
    if not actions:
        return None
    last = actions[-1]
    if reason is EndReason.POINTS and isinstance(last, Scoring) and len(states) > 1:
        for option in states[-2].scoring_options():
            if option.action == last:
                return [cell_name(c) for c in option.line.cells]
        return None
    if reason is EndReason.LINE:
        state = states[-1]
        mover = states[-2].turn if len(states) > 1 else state.turn
        lines = state.lines(mover, state.rules.win_length)
        if lines:
            return [cell_name(c) for c in max(lines, key=lambda line: line.length).cells]
    return None


def tournament_view(live: LiveGame, *, counted: bool = True) -> dict[str, Any] | None:
    """The score of an Express tournament (None outside one), this game ``counted`` when
    it is over: every number is there, ``winner`` is None until the series is won."""
    score = live.tournament
    if score is None:
        return None
    winners = live.winners() if counted else None
    if winners is not None:
        score = score.after(winners)
    champion = score.champion
    return {
        "wins": list(score.wins),
        "target": score.target,
        "winner": None if champion is None else COLOURS[champion],
    }


def summary_view(stored: StoredGame) -> dict[str, Any]:
    """A game in a listing: who plays, how it stands; never a seat link."""
    return {
        "id": stored.id,
        "variant": stored.variant,
        "players": stored.players,
        "seats": [
            {"colour": COLOURS[i], "name": s.name, "kind": s.kind, "level": s.level}
            for i, s in enumerate(stored.seats)
        ],
        "status": stored.status,
        "finished": stored.finished,
        "created": stored.created.isoformat(),
        "updated": stored.updated.isoformat(),
        "watch_url": f"/watch/{stored.id}",
    }
