"""Shiftago as an OpenSpiel game, registered as ``python_shiftago`` on import.

OpenSpiel's algorithms (MCTS, CFR-style tree walks, evaluation helpers, ...) then load
it by name. The state wraps a kernel array, so actions are the shared action indices of
:mod:`shiftago.env.spaces` and their strings the project's notation (``L3``,
``xc3-g3``).

>>> import pyspiel
>>> import shiftago.env.openspiel
>>> game = pyspiel.load_game("python_shiftago", {"variant": "expert", "players": 3})
>>> state = game.new_initial_state()
>>> state.apply_action(state.string_to_action("td"))
>>> state.action_to_string(0, state.history()[-1]), state.current_player()
('Td', 1)
>>> str(state)
'expert 3 3o3/7/7/7/7/7/7 g insert 21,22,22 0,0,0 0,0,0'

Parameters (all optional):

- ``variant``: ``"express"`` (default), ``"expert"`` or ``"extreme"``;
- ``players``: 2 (default) to 4;
- ``action_limit``: end the game when a turn begins after that many actions (RULES.md
  section 7); 0 (default) means none, except in Extreme, which has no bound of its own
  and gets :data:`.settings.EXTREME_ACTION_LIMIT` (400) when 0 is given;
- ``first``: the seat that starts (default 0);
- ``observation``: ``"seat"`` (default) for the version 0 planes seen by the observing
  seat, or ``"table"`` for the version 1 planes seen from seat 0 whoever observes: the
  seats in their absolute order and a plane for the seat to act, the same tensor for
  every player. OpenSpiel's AlphaZero learns seat 0's return from the tensor of the
  seat to act, which the seat view cannot tell apart from the other seat's.

Returns are ``2 * share - 1`` per seat (:func:`shiftago.env.spaces.write_outcome_rewards`):
a win +1, a loss -1, a draw between ``k`` seats ``2 / k - 1`` for each of them. The
shares always add up to 1, so the returns add up to ``2 - players``: zero-sum with 2
players, constant-sum with 3 or 4.

``max_game_length`` is a proven bound, not a guess (see :func:`max_game_length`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from shiftago.core import GameOverError, IllegalActionError, Rules, State, Variant
from shiftago.core.geometry import SIZE
from shiftago.core.rules import MARBLES_PER_PLAYER, WINNING_POINTS
from shiftago.engine.kernel import apply_action, from_state, legal_codes, to_position, to_state
from shiftago.engine.kernel.tables import OVER, PHASE, PLAYERS, TURN
from shiftago.formats.text_board import render_status, render_text

from .settings import game_rules
from .spaces import (
    ACTION_COUNT,
    action_of,
    encode_observation,
    index_of,
    observation_shape,
    write_outcome_rewards,
)

__all__ = [
    "DEFAULT_PARAMETERS",
    "GAME_TYPE",
    "OBSERVATION_VIEWS",
    "SHORT_NAME",
    "ShiftagoGame",
    "ShiftagoObserver",
    "ShiftagoState",
    "max_game_length",
    "rules_of",
]

SHORT_NAME: Final = "python_shiftago"
DEFAULT_PARAMETERS: Final[dict[str, Any]] = {
    "variant": "express",
    "players": 2,
    "action_limit": 0,
    "first": 0,
    "observation": "seat",
}
#: The values of the ``observation`` parameter: the seat whose view it is (``None``: the
#: observer's) and the version of the planes.
OBSERVATION_VIEWS: Final[dict[str, tuple[int | None, int]]] = {"seat": (None, 0), "table": (0, 1)}
_CELLS: Final = SIZE * SIZE


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Shiftago",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULT_PARAMETERS),
    )


#: The registered type. Its utility is GENERAL_SUM, the one claim true of every
#: parameter set; a loaded game reports its own (ZERO_SUM with 2 players, CONSTANT_SUM
#: with 3-4) through ``get_type()``.
GAME_TYPE: Final = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)
_TYPE_BY_PLAYERS: Final = {
    2: _game_type(pyspiel.GameType.Utility.ZERO_SUM),
    3: _game_type(pyspiel.GameType.Utility.CONSTANT_SUM),
    4: _game_type(pyspiel.GameType.Utility.CONSTANT_SUM),
}


def rules_of(params: Mapping[str, Any]) -> tuple[Rules, int]:
    """The rules and first seat of a game's parameters (missing ones take defaults).

    Raises ``ValueError`` (:class:`shiftago.core.ParseError` for an unknown variant)
    naming the parameter that is wrong.
    """
    unknown = sorted(set(params) - set(DEFAULT_PARAMETERS))
    if unknown:
        known = ", ".join(DEFAULT_PARAMETERS)
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}: expected {known}")
    settings = {**DEFAULT_PARAMETERS, **params}
    if settings["observation"] not in OBSERVATION_VIEWS:
        views = ", ".join(OBSERVATION_VIEWS)
        raise ValueError(f"the observation is one of {views}, not {settings['observation']!r}")
    variant = Variant.parse(str(settings["variant"]))
    players, limit, first = (settings[k] for k in ("players", "action_limit", "first"))
    for name, value in (("players", players), ("action_limit", limit), ("first", first)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"the parameter {name} is a whole number, not {value!r}")
    if players not in (2, 3, 4):
        raise ValueError(f"a game has 2, 3 or 4 players, not {players}")
    if limit < 0:
        raise ValueError(f"the action limit is 0 (none) or more, not {limit}")
    if not 0 <= first < players:
        raise ValueError(f"the first seat is 0 to {players - 1}, not {first}")
    # Extreme can go on for ever (0-point lines give marbles back) and OpenSpiel needs a
    # finite length: 0 gives it settings.EXTREME_ACTION_LIMIT
    return game_rules(variant, players, action_limit=limit or None), first


def _repeat_turn_bound(rules: Rules) -> int | None:
    """The most (actions + marbles given back) that one player's scorings can add
    before their points reach the winning total; None when that is unbounded (a
    0-point line, as in Extreme)."""
    kept = 2 if rules.keeps_both_ends else 1
    lines = [(points, length - kept + 1) for length, points in rules.points_table.items()]
    if any(points <= 0 for points, _ in lines):
        return None
    # best[p]: the most (returned marbles + 1) over scorings worth p points in all.
    best = [0] * WINNING_POINTS
    for total in range(1, WINNING_POINTS):
        for points, gain in lines:
            if points <= total:
                best[total] = max(best[total], best[total - points] + gain)
    return max(best)


def max_game_length(rules: Rules) -> int:
    """A bound on the number of actions of a game with these rules (no handicap).

    Every insertion takes a marble from a supply, so insertions minus marbles given back
    equals the marbles on the board, at most ``min(22 * players, 49)``. Express gives
    nothing back: 44 actions with 2 players, 49 with 3-4. In Expert every scoring is worth
    2 points or more, so each player scores fewer than 10 points' worth before the one
    scoring that ends the game; :func:`_repeat_turn_bound` finds the most actions plus
    returned marbles those scorings allow (16: four 2-point lines), which gives 77, 98
    and 114 actions for 2, 3 and 4 players. Extreme is unbounded without a limit. With an
    action limit ``L`` the game ends at the first turn that begins after ``L`` actions,
    so it lasts at most ``L + 1`` actions (a scoring pending after the ``L``-th is still
    made; Express never has one, so ``L`` there).
    """
    board = min(MARBLES_PER_PLAYER * rules.players, _CELLS)
    limit = rules.action_limit
    if rules.variant is Variant.EXPRESS:
        return board if limit is None else min(board, limit)
    per_player = _repeat_turn_bound(rules)
    natural = None if per_player is None else board + rules.players * per_player + 1
    if limit is None:
        if natural is None:
            raise ValueError(f"{rules.variant} has no bound on its length without a limit")
        return natural
    return limit + 1 if natural is None else min(natural, limit + 1)


class ShiftagoGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one parameter set: rules, first seat, and OpenSpiel's game info."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        settings = {**DEFAULT_PARAMETERS, **(params or {})}
        rules, first = rules_of(settings)
        players = rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=float(2 - players),
            max_game_length=max_game_length(rules),
        )
        super().__init__(_TYPE_BY_PLAYERS[players], info, settings)
        self.rules: Final = rules
        self.first: Final = first
        self.observation: Final = str(settings["observation"])
        self._initial = from_state(State.initial(rules, first))

    def __reduce__(self) -> tuple[type[ShiftagoGame], tuple[dict[str, Any]]]:
        """Pickles as its parameters: pyspiel's own pickling restores the C++ game but
        not this class's attributes, and OpenSpiel's AlphaZero sends the game to its
        self-play processes by pickle."""
        return (ShiftagoGame, (dict(self.get_parameters()),))

    def new_initial_state(self, position: str | None = None) -> ShiftagoState:
        """The start of a game, or a position string (PROTOCOL.md) to go on from; the
        action limit counts from there."""
        if position is None:
            return ShiftagoState(self, self._initial.copy())
        if not isinstance(position, str):
            raise ValueError(f"a Shiftago state is set up from a position string, not {position!r}")
        return ShiftagoState(self, from_state(State.from_position(position, self.rules)))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Any:
        """The board observer; a perfect-recall (information state) request gets the
        public-game observer, whose string is the action history."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return ShiftagoObserver(self.rules.players, params, self.observation)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class ShiftagoState(pyspiel.State):  # type: ignore[misc]
    """A position: one kernel array, the only attribute, so OpenSpiel's clone (a fresh
    initial state plus a deep copy of each attribute) stays cheap and independent."""

    def __init__(self, game: ShiftagoGame, kernel_state: np.ndarray) -> None:
        super().__init__(game)
        self._s = kernel_state

    @property
    def kernel_state(self) -> np.ndarray:
        """The kernel array itself (see :mod:`shiftago.engine.kernel.tables`); do not
        change it."""
        return self._s

    def core_state(self) -> State:
        """The position as a core :class:`~shiftago.core.State`."""
        return to_state(self._s)

    def current_player(self) -> int:
        if int(self._s[PHASE]) == OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self._s[TURN])

    def _legal_actions(self, player: int) -> list[int]:
        codes = legal_codes(self._s)
        codes.sort()
        return codes

    def _apply_action(self, action: int) -> None:
        if int(self._s[PHASE]) == OVER:
            raise GameOverError("the game is over: no action can be played")
        if action not in legal_codes(self._s):
            raise IllegalActionError(
                f"{self._action_to_string(self.current_player(), action)} "
                f"(action {action}) is not legal now"
            )
        apply_action(self._s, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action_of(action, int(self._s[PLAYERS])))

    def string_to_action(self, player_or_text: int | str, text: str | None = None) -> int:
        """The index of a legal action from its notation, in any accepted spelling
        (``td``, ``XC3-G3``; with 2 players either end first); also takes a player
        first, as OpenSpiel's does, who must be the one to act."""
        if text is None:
            if not isinstance(player_or_text, str):
                raise ValueError(f"an action is text such as L3 or xc3-g3, not {player_or_text!r}")
            text = player_or_text
        elif player_or_text != self.current_player():
            raise IllegalActionError(f"seat {player_or_text} is not the one to act now")
        action = index_of(text, int(self._s[PLAYERS]))
        if self.is_terminal():
            raise GameOverError("the game is over: no action can be played")
        if action not in legal_codes(self._s):
            raise IllegalActionError(f"{text.strip()} is not legal now")
        return action

    def is_terminal(self) -> bool:
        return int(self._s[PHASE]) == OVER

    def returns(self) -> list[float]:
        out = np.empty(int(self._s[PLAYERS]), dtype=np.float64)
        write_outcome_rewards(self._s, out)
        return [float(r) for r in out]

    def __str__(self) -> str:
        """The position string (PROTOCOL.md)."""
        return to_position(self._s)


class ShiftagoObserver:
    """OpenSpiel's python observer: the planes of :func:`~shiftago.env.spaces.observe`
    of the game's ``observation`` view (see the module's parameters), flat in ``tensor``
    and shaped ``(4n+2, 7, 7)`` (seat) or ``(5n+2, 7, 7)`` (table) in
    ``dict["observation"]`` (the same memory); the string is the text board."""

    def __init__(
        self, players: int, params: Mapping[str, Any] | None = None, view: str = "seat"
    ) -> None:
        if params:
            raise ValueError(f"the Shiftago observer takes no parameters, got {dict(params)}")
        self._seat, version = OBSERVATION_VIEWS[view]
        shape = observation_shape(players, version)
        self.tensor = np.zeros(int(np.prod(shape)), dtype=np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: ShiftagoState, player: int) -> None:
        seat = player if self._seat is None else self._seat
        encode_observation(state.kernel_state, seat, self.dict["observation"])

    def string_from(self, state: ShiftagoState, player: int) -> str:
        core = state.core_state()
        return f"{render_text(core)}\n{render_status(core)}"


pyspiel.register_game(GAME_TYPE, ShiftagoGame)
