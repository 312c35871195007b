"""The rules of Shiftago: pure values and transitions, no I/O."""

from shiftago.core.actions import INSERTIONS, Action, Insertion, Scoring, parse_cell
from shiftago.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidPositionError,
    ParseError,
    ShiftagoError,
)
from shiftago.core.game import Game, draw_first_seat
from shiftago.core.geometry import cell_name
from shiftago.core.outcome import EndReason, Outcome
from shiftago.core.perft import perft
from shiftago.core.rules import COLOUR_NAMES, COLOURS, Rules, Variant, seat_of_colour
from shiftago.core.state import Line, Phase, ScoringOption, State
from shiftago.core.tournament import Tournament, TournamentScore

__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "INSERTIONS",
    "Action",
    "EndReason",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "Insertion",
    "InvalidPositionError",
    "Line",
    "Outcome",
    "ParseError",
    "Phase",
    "Rules",
    "Scoring",
    "ScoringOption",
    "ShiftagoError",
    "State",
    "Tournament",
    "TournamentScore",
    "Variant",
    "cell_name",
    "draw_first_seat",
    "parse_cell",
    "perft",
    "seat_of_colour",
]
