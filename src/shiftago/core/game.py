"""A game: a state plus its history, with ``play`` and ``undo``."""

from __future__ import annotations

import random
from collections.abc import Iterable

from shiftago.core.actions import Action, _parse
from shiftago.core.errors import IllegalActionError
from shiftago.core.outcome import Outcome
from shiftago.core.rules import Rules, letter_of_colour_word, seat_of_colour
from shiftago.core.state import Line, Phase, ScoringOption, State


def draw_first_seat(players: int, seed: int | None) -> int:
    """The starting seat drawn by lot (RULES.md section 1): ``Random(seed).randrange``."""
    return random.Random(seed).randrange(players)


class Game:
    """A game of Shiftago from its start (or a set-up position) to now.

    >>> from shiftago import Game, Rules, Variant
    >>> game = Game(Rules(Variant.EXPERT, 2), first=0)
    >>> game.play("Td")
    >>> game.position()
    'expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0'
    >>> game.undo()
    Action.parse('Td')
    """

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        first: int | str | None = None,
        seed: int | None = None,
        position: str | State | None = None,
    ) -> None:
        """Start a new game, or go on from ``position`` (then ``first`` is not used).

        Without ``first`` the first seat is drawn as RULES.md says, from ``seed`` (a
        fresh random seed when that is absent too, kept in :attr:`seed`).
        """
        self.seed: int | None = seed
        self.first: int | None = None
        if position is not None:
            if first is not None:
                raise ValueError("a game set up from a position takes its turn from it")
            if isinstance(position, str):
                start = State.from_position(position, rules)
            else:
                start = position if rules is None else position.with_rules(rules)
            self.rules = start.rules
        else:
            self.rules = rules if rules is not None else Rules()
            if first is None:
                if seed is None:
                    self.seed = seed = random.SystemRandom().randrange(2**32)
                first = draw_first_seat(self.rules.players, seed)
            elif isinstance(first, str):
                # a letter (``o``) or the English name (``orange``), as `--first` takes
                first = seat_of_colour(letter_of_colour_word(first), self.rules.players)
            self.first = first
            start = State.initial(self.rules, first)
        self.start: State = start
        self._states: list[State] = [start]
        self._actions: list[Action] = []

    @classmethod
    def from_actions(
        cls,
        rules: Rules,
        actions: Iterable[Action | str],
        *,
        first: int | str | None = None,
        seed: int | None = None,
        position: str | State | None = None,
    ) -> Game:
        """Replay actions from the start (or from ``position``)."""
        game = cls(rules, first=first, seed=seed, position=position)
        for action in actions:
            game.play(action)
        return game

    # --- the current state ------------------------------------------------------
    @property
    def state(self) -> State:
        """The state now (after the last action)."""
        return self._states[-1]

    @property
    def turn(self) -> int:
        """The seat to act (when over: the seat that acted last)."""
        return self._states[-1].turn

    @property
    def phase(self) -> Phase:
        """Whether an insertion or a scoring is due now, or the game is over."""
        return self._states[-1].phase

    @property
    def outcome(self) -> Outcome | None:
        """Who won and why, once the game is over; None before."""
        return self._states[-1].outcome

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (nothing more may be played)."""
        return self._states[-1].phase is Phase.OVER

    @property
    def history(self) -> list[Action]:
        """The actions played so far, in canonical spelling."""
        return list(self._actions)

    @property
    def states(self) -> list[State]:
        """Every state from the start to now (one more than the actions)."""
        return list(self._states)

    def legal_actions(self) -> list[Action]:
        """What may be played now, in canonical order (none once over)."""
        return self._states[-1].legal_actions()

    def scoring_options(self) -> list[ScoringOption]:
        """The scorings open to the mover now, with their points (only in the score
        phase)."""
        return self._states[-1].scoring_options()

    def lines(self, seat: int | None = None, min_length: int = 2) -> list[Line]:
        """The maximal straight runs of a seat (or every seat) of ``min_length`` or more,
        now."""
        return self._states[-1].lines(seat, min_length)

    def position(self) -> str:
        """The position string now (RULES.md's notation, as ``setposition`` takes it)."""
        return self._states[-1].position()

    # --- changing it ------------------------------------------------------------
    def play(self, action: Action | str) -> None:
        """Play an action (or its notation). An illegal one raises and changes nothing."""
        if isinstance(action, str):  # numpy's str_ and other str types included
            action = _parse(action)
        elif not isinstance(action, Action):
            raise IllegalActionError("{action} is not an action", action=repr(action))
        limit = self.rules.action_limit
        at_limit = limit is not None and len(self._actions) + 1 >= limit
        played, after = self._states[-1].step(action, at_limit=at_limit)
        self._states.append(after)
        self._actions.append(played)

    def undo(self) -> Action:
        """Take back the last action and return it; the earlier state comes back exactly."""
        if not self._actions:
            raise IllegalActionError("there is no action to take back")
        self._states.pop()
        return self._actions.pop()

    # --- value protocol -----------------------------------------------------------
    def copy(self) -> Game:
        """An independent game at the same point: playing or undoing on either leaves
        the other as it is (states and actions are immutable, so they are shared)."""
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._states = list(self._states)
        twin._actions = list(self._actions)
        return twin

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        twin = memo[id(self)] = self.copy()  # one copy however often it is referred to
        return twin

    def __eq__(self, other: object) -> bool:
        """Games are equal when they were set up alike and the same actions were played."""
        return (
            isinstance(other, Game)
            and self.rules == other.rules
            and self.first == other.first
            and self.seed == other.seed
            and self.start == other.start
            and self._actions == other._actions
        )

    __hash__ = None  # type: ignore[assignment]  # a game changes as it is played

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.variant.value} {self.rules.players}p, "
            f"{len(self._actions)} actions, {self.position()!r}>"
        )
