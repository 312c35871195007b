"""A person's action: checked against the game as the person saw it, then played and
stored through :meth:`.Hub.commit`. The clock is read first (an action after the flag
fell is refused on time), and a draw offer to the one who acts lapses."""

from __future__ import annotations

from typing import Final

from shiftago.core import COLOURS, Action, ParseError, ShiftagoError
from shiftago.interfaces.server.games.draw import set_offer
from shiftago.interfaces.server.games.ending import flag_if_out_of_time
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.games.refusals import Refused, seated
from shiftago.interfaces.shared.refusals import PushRule, Reason, precise_reason


async def act(hub: Hub, live: LiveGame, seat: int | None, notation: str, seen: int) -> None:
    async with live.lock:
        await hub.reload_if_behind(live, seen)
        await flag_if_out_of_time(hub, live)
        check_can_act(live, seat, seen)
        try:
            action = live.game.state.validate(Action.parse(notation))
        except ShiftagoError as error:
            raise Refused("illegal", str(error), illegal_reason(live, notation, error)) from None
        if live.stored.draw_offer not in (None, seat):  # the offer lapses: stored first
            await set_offer(hub, live, None)
        await hub.commit(live, action)
        await hub.after_change(live)


#: The game socket's names of the rules' refusals (docs/web-protocol.md), older than
#: the analysis board's and kept for the pages that know them.
GAME_REASONS: Final[dict[Reason | PushRule, str]] = {
    "not_an_action": "not_an_action",
    "game_over": "game_over",
    "score_first": "score_first",
    "nothing_to_score": "no_line_to_score",
    "no_such_line": "not_legal",
    "not_allowed": "not_legal",
    "lane_full": "lane_full",
    "apart": "apart",
}


def illegal_reason(live: LiveGame, notation: str, error: ShiftagoError) -> str:
    """Why ``notation`` is refused, as a stable reason the page says in its words; a
    push the rules refuse says which rule: its lane is full (``lane_full``), or the
    mover's own marbles alone on the board would touch (``apart``)."""
    try:
        action: Action | None = Action.parse(notation)
    except ParseError:
        action = None
    return GAME_REASONS[precise_reason(live.game.state, action, error)]


def check_can_act(live: LiveGame, seat: int | None, seen: int) -> None:
    seat = seated(live, seat)
    if seen != live.version:
        raise Refused(
            "stale",
            f"the game has moved on: {live.version} actions played, you have seen {seen}",
        )
    if live.to_act != seat:
        raise Refused("not_your_turn", f"it is {COLOURS[live.game.turn]}'s turn")
