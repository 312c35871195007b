"""The analysis board's view of any position: ``POST /api/positions`` and
``POST /api/positions/play`` (docs/web-protocol.md, issue 15).

Only translation: the core sets the position up and plays the action, and its words
come back as a 422 naming the field when it refuses.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from shiftago.core import Action, State
from shiftago.interfaces.server.games.routes import Invalid
from shiftago.interfaces.server.games.views import position_view

router = APIRouter(prefix="/api/positions")

#: Far longer than any position string or action, short enough to refuse junk at once.
MAX_CHARS = 200

Text = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_CHARS)]


class PositionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    position: Text = Field(description="a position string (PROTOCOL.md)")


class PlayIn(PositionIn):
    action: Text = Field(description="an action in notation, such as L3 or xc3-g3")


def set_up(text: str) -> State:
    """The state of a position string, the end of a game too (the last step of a game
    opens here); the core's refusal as a 422 on ``position``."""
    try:
        return State.from_position(text, finished=True)
    except ValueError as error:
        raise Invalid("position", str(error)) from None


@router.post("", summary="A position as the server sees it")
async def read_position(body: PositionIn) -> dict[str, Any]:
    """The canonical position with its legal actions, scorings, supplies, points,
    skips, who acts, the phase and the result once it is over."""
    state = set_up(body.position)
    return position_view([state], [])


@router.post("/play", summary="The position after an action")
async def play_position(body: PlayIn) -> dict[str, Any]:
    """The same view of the position after ``action``; an illegal action is a 422."""
    state = set_up(body.position)
    try:
        played, after = state.step(Action.parse(body.action))
    except ValueError as error:
        raise Invalid("action", str(error)) from None
    return position_view([state, after], [played])
