"""The JSON shapes the app sends: ``GAME`` (WEBAPI.md and docs/web-protocol.md) and the
short summary of a listing. Only translation: every fact comes from the core."""

from __future__ import annotations

from typing import Any

from shiftago.core import COLOURS, Action, EndReason, Phase, Scoring, State, cell_name
from shiftago.interfaces.server.live import LiveGame
from shiftago.interfaces.server.store import StoredGame


def game_view(live: LiveGame, upto: int | None = None) -> dict[str, Any]:
    """``GAME``: the game after its first ``upto`` actions (all of them by default).

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
    state = states[-1]
    rules = state.rules
    terminated = current and live.terminated
    over = state.phase is Phase.OVER or terminated
    view: dict[str, Any] = {
        "id": stored.id,
        "variant": rules.variant.value,
        "players": rules.players,
        "handicap": list(rules.handicap),
        "action_limit": rules.action_limit,
        "public": stored.public,
        "seats": [
            {
                "colour": COLOURS[i],
                "name": seat.name,
                "kind": seat.kind,
                "level": seat.level,
                "connected": live.connected(i),
            }
            for i, seat in enumerate(stored.seats)
        ],
        "position": state.position(),
        "actions": [str(a) for a in actions],
        "version": len(actions),
        "status": _status(live, state, terminated),
        "created": stored.created.isoformat(),
        "updated": stored.updated.isoformat(),
        "turn": None if over else COLOURS[state.turn],
        "phase": Phase.OVER.value if over else state.phase.value,
        "legal": [] if over else [str(a) for a in state.legal_actions()],
        "scoring": [] if over else _scoring(state),
        "supplies": list(state.supplies),
        "scores": list(state.scores),
        "skips": list(state.skips),
        "result": _result(live, states, actions, terminated),
        "last": str(actions[-1]) if actions else None,
        "previous": stored.previous_id,
        "next": stored.next_id,
        "tournament": tournament_view(live),
    }
    return view


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


def _result(
    live: LiveGame, states: list[State], actions: list[Action], terminated: bool
) -> dict[str, Any] | None:
    players = states[-1].rules.players
    if terminated:
        winners = live.winners() or ()
        losers = [COLOURS[s] for s in range(players) if s not in winners]
        return {
            "winners": [COLOURS[s] for s in winners],
            "reason": live.stored.termination,
            "line": None,
            "by": losers,
        }
    outcome = states[-1].outcome
    if outcome is None:
        return None
    return {
        "winners": [COLOURS[s] for s in outcome.winners],
        "reason": outcome.reason.value,
        "line": _winning_line(states, actions, outcome.reason),
        "by": [],
    }


def _winning_line(
    states: list[State], actions: list[Action], reason: EndReason
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


def tournament_view(live: LiveGame) -> dict[str, Any] | None:
    """The score of an Express tournament, this game counted when it is over."""
    score = live.tournament
    if score is None:
        return None
    winners = live.winners()
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
