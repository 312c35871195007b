"""The lessons of ``/learn``: each a few steps, each step a goal in words, a position
and the check of that goal (docs/learn.md says what each teaches and how to add one).

The words are marked with ``N_`` and translated when they are served. Where the
rulebook or the How to play page has an example, the step is built from it (colours
relabelled so that the player is orange where the example allows). Every step carries
one ``solution`` that meets its goal; the tests play it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from shiftago.core import State
from shiftago.interfaces.shared.catalogues import N_
from shiftago.interfaces.shared.learn.goals import (
    Block,
    Goal,
    Keep,
    Occupy,
    ReachPoints,
    ScoreBest,
    ScoreLength,
    Win,
)
from shiftago.interfaces.shared.learn.setup import position


@dataclass(frozen=True)
class Step:
    """One step: the goal in words, where it starts, how it is checked."""

    goal: str
    position: str
    check: Goal
    solution: tuple[str, ...]
    hint: str | None = None
    done: str | None = None
    #: Let the player try the pushes into full lanes too, to hear why they are refused.
    full_lanes: bool = False

    def start(self) -> State:
        return State.from_position(self.position)


@dataclass(frozen=True)
class Lesson:
    """A lesson: its address, title, what it teaches, its steps and the closing game."""

    id: str
    title: str
    summary: str
    steps: tuple[Step, ...]
    variant: str = "express"
    players: int = 2


EXPERT_2_POINTS: Final = N_(
    "Expert with 2 players: a line of 5 scores 2 points, of 6 scores 5, of 7 scores 10."
)

LESSONS: Final[tuple[Lesson, ...]] = (
    Lesson(
        "push",
        N_("Pushing a marble in"),
        N_("Every turn, one marble is pushed in from the edge, and the lane shifts."),
        (
            Step(
                N_("Push a marble in from the bottom of file c, so that it lands on c1."),
                position("express", 2, "d4:g e5:o"),
                Occupy(("c1",)),
                ("Bc",),
                hint=N_(
                    "Each arrow around the board is a push: L3 enters at a3 and pushes "
                    "right, Tc enters at c7 and pushes down."
                ),
            ),
            Step(
                N_("Fill the gap on d3 by pushing in from the left of rank 3."),
                position("express", 2, "a3:g b3:o c3:g e3:o d5:o c6:g"),
                Occupy(("d3",), own=False),
                ("L3",),
                done=N_(
                    "The marbles on a3-c3 moved one cell right into the gap on d3; e3, "
                    "beyond the gap, stayed where it was."
                ),
            ),
            Step(
                N_("Bring one of your marbles onto d4."),
                position("express", 2, "d1:g d2:o d3:o b6:g f2:g a7:o"),
                Occupy(("d4",)),
                ("Bd",),
                hint=N_(
                    "A push moves the whole run of marbles in front of it, up to the first gap."
                ),
            ),
        ),
    ),
    Lesson(
        "full",
        N_("A full lane"),
        N_("A marble may never leave the board: a full lane cannot be pushed."),
        (
            Step(
                N_("File d is full, so its arrows cannot be played. Fill the last gap of file e."),
                position(
                    "express",
                    2,
                    "d1:o d2:g d3:o d4:g d5:o d6:g d7:o e1:g e2:o e3:g e4:g e5:o e6:g",
                ),
                Occupy(("e7",), own=False),
                ("Te",),
                # the grey arrows of file d are where a beginner taps first: the refusal
                # is said here too, not only in the next step (a Dutch walk)
                full_lanes=True,
            ),
            Step(
                N_(
                    "Complete your line of 5 on rank 4. Rank 4 is full: find another lane "
                    "that brings one of your marbles onto a4."
                ),
                position(
                    "express",
                    2,
                    "a4:g b4:o c4:o d4:o e4:o f4:g g4:g a1:g a2:g a3:o c6:g e6:o",
                ),
                Win(),
                ("Ba",),
                full_lanes=True,
                done=N_("The push up file a moved your marble from a3 onto a4: a line of 5."),
            ),
        ),
    ),
    Lesson(
        "line-of-5",
        N_("A line of 5 with 2 players"),
        N_("With 2 players, five of your marbles in a straight line win at once."),
        (
            Step(
                N_("Make a line of 5 across and win."),
                position("express", 2, "a4:o b4:o c4:o d4:o f4:g b5:g c3:g d5:g e5:g a2:o"),
                Win(),
                ("L4",),
                hint=N_("A line is a straight run of one colour: across, up or diagonal."),
            ),
            Step(
                N_("Lines count along the diagonals too: make a diagonal line of 5 and win."),
                position("express", 2, "a1:o b2:o c3:o d4:o e6:o e7:g c5:g f3:g b6:g"),
                Win(),
                ("Te",),
            ),
        ),
    ),
    Lesson(
        "line-of-4",
        N_("A line of 4 with 3 or 4 players"),
        N_("With 3 or 4 players, four in a line win, diagonals included."),
        (
            Step(
                N_("Three players: make a line of 4 and win."),
                position("express", 3, "b2:o b3:o b4:o d4:g e5:b f2:g c6:b"),
                Win(),
                ("Bb",),
            ),
            Step(
                N_("Four players: make a diagonal line of 4 and win."),
                position("express", 4, "c3:o d4:o e5:o f7:o d2:g e3:b c5:w f4:g b6:b a4:w"),
                Win(),
                ("Tf",),
            ),
        ),
        players=3,  # the closing game wins with four in a line, as the lesson teaches
    ),
    Lesson(
        "block",
        N_("Blocking a threat"),
        N_("When another player can complete a line with the next push, stop it first."),
        (
            Step(
                N_("Green can complete a line of 5 with its next push. Block it."),
                position("express", 2, "b5:g c5:g d5:g e5:g c3:o d3:o f2:o b2:o"),
                Block(),
                ("L5",),
                hint=N_("Find the push that would win for green, and make it impossible."),
            ),
            Step(
                N_("Three players: blue threatens a diagonal line of 4. Break it up."),
                position("express", 3, "c2:b d3:b e4:b a2:o b2:o f6:g a6:g d6:o"),
                Block(),
                ("L2",),
            ),
        ),
    ),
    Lesson(
        "gift",
        N_("A line you make for someone else"),
        N_("Your push moves other marbles too: it can complete another player's line."),
        (
            Step(
                N_(
                    "Green needs only c4 for a line of 5 on file c. Stop it, without "
                    "completing green's line yourself with your push."
                ),
                position(
                    "express",
                    2,
                    "c1:g c2:g c3:g c5:g a4:o b4:g d4:o e4:g f4:o g4:o a6:o f6:g",
                ),
                Block(),
                ("R4",),
            ),
            Step(
                N_(
                    "The rulebook's example: orange has pushed green's marbles into a line "
                    "of 4. You play blue: break it before green's turn comes."
                ),
                position(
                    "express",
                    3,
                    "b3:g c3:g d3:g e3:g c4:o c5:b c6:o c7:g a6:b f5:o",
                    turn="b",
                ),
                Block(),
                ("Tc",),
                hint=N_(
                    "Only a push that shifts one of green's marbles out of the line breaks it."
                ),
            ),
            Step(
                N_(
                    "Win now with the push up file e. It also completes green's line on "
                    "rank 2, but only the lines of the player who pushed count."
                ),
                position(
                    "express",
                    2,
                    "b3:o c3:o d3:o f3:o e1:g e2:o a2:g b2:g c2:g d2:g f6:g b6:o",
                ),
                Win(),
                ("Be",),
            ),
        ),
    ),
    Lesson(
        "expert",
        N_("Expert: scoring lines"),
        N_(
            "In Expert a line scores points by its length; its marbles come off and you move again."
        ),
        (
            Step(
                N_("You have two lines. Score the one worth the most points."),
                position(
                    "expert",
                    2,
                    "a2:o b2:o c2:o d2:o e2:o f2:o a3:o a4:o a5:o a6:o c5:g d6:g f5:g e4:g",
                    phase="score",
                ),
                ScoreBest(),
                ("xa2-f2",),
                hint=EXPERT_2_POINTS,
            ),
            Step(
                N_("Make a line of 6 with one push, then score it: 5 points."),
                position("expert", 2, "b3:o c3:o d3:o f3:o g3:o e1:g e2:o c6:g d5:g f6:g"),
                ReachPoints(5),
                ("Be", "xb3-g3"),
                hint=EXPERT_2_POINTS,
            ),
            Step(
                N_("Score your line and watch which marbles come off."),
                position(
                    "expert", 2, "a1:o b1:o c1:o d1:o e1:o a7:g b7:g c7:g d7:g", phase="score"
                ),
                ScoreLength(5, actions=1),
                ("xa1-e1",),
                done=N_(
                    "With 2 players both end marbles stay; b1, c1 and d1 went back to your supply."
                ),
            ),
            Step(
                N_(
                    "After a scoring you move again: score this line, then make another "
                    "line of 5 and score it too (4 points)."
                ),
                position(
                    "expert",
                    2,
                    "a1:o b1:o c1:o d1:o e1:o g2:o g3:o g4:o g5:o b5:g c6:g d5:g e6:g",
                    phase="score",
                ),
                ReachPoints(4, actions=3),
                ("xa1-e1", "Bg", "xg1-g5"),
            ),
        ),
        variant="expert",
    ),
    Lesson(
        "keep-an-end",
        N_("3 or 4 players: keeping one end"),
        N_("With 3 or 4 players only one end of a scored line stays, and you choose which."),
        (
            Step(
                N_(
                    "You play green. Score the line c2-c5 and keep c5, which stays in the "
                    "diagonal with your marbles on d6 and e7."
                ),
                position(
                    "expert",
                    3,
                    "c2:g c3:g c4:g c5:g d6:g e7:g d3:o e4:b b5:o f6:b",
                    turn="g",
                    phase="score",
                ),
                Keep("c5"),
                ("xc5-c2",),
                hint=N_(
                    "xc2-c5 keeps c2 and xc5-c2 keeps c5: the cell named first stays on the board."
                ),
            ),
            Step(
                N_(
                    "You play green. Make a line of 4 on file c and score it, keeping the "
                    "end next to your marbles on d5 and e6."
                ),
                position("expert", 3, "c2:g c3:g c4:g d5:g e6:g a1:o f2:b b6:o g5:b", turn="g"),
                Keep("c4", spared=("d5", "e6")),
                ("Bc", "xc4-c1"),
            ),
        ),
        variant="expert",
        players=3,
    ),
    Lesson(
        "extreme",
        N_("Extreme: lines worth 0 points"),
        N_("In Extreme even shorter lines must be scored: for 0 points, and you move again."),
        (
            Step(
                N_("Make a line of 4 and score it: 0 points, but its middle marbles come off."),
                position("extreme", 2, "b2:o c2:o d2:o c5:g d6:g f4:g"),
                ScoreLength(4),
                ("L2", "xa2-d2"),
                hint=N_(
                    "Extreme with 2 players: a line of 4 scores 0 points, of 5 scores 2, of "
                    "6 scores 5, of 7 scores 10."
                ),
            ),
            Step(
                N_("Three players: make a line of 3 and score it for 0 points."),
                position("extreme", 3, "b2:o c2:o e5:g f3:b c6:g"),
                ScoreLength(3),
                ("L2", "xa2-c2"),
            ),
        ),
        variant="extreme",
    ),
    Lesson(
        "handicap",
        N_("The handicap"),
        N_(
            "A stronger player can give skipped turns; the other then moves several times in a row."
        ),
        (
            Step(
                N_(
                    "Green has 2 skipped turns, so you push three times in a row. Make a "
                    "line of 5 with those three pushes."
                ),
                position("express", 2, "c4:o d4:o b6:g f2:g e6:g", skips=(0, 2)),
                Win(actions=3),
                ("L4", "L4", "L4"),
                hint=N_(
                    "A handicap gives a player 1 to 6 skipped turns, agreed before the "
                    "game: when their turn comes, a skip is used up and the turn passes on."
                ),
            ),
        ),
    ),
    Lesson(
        "tournament",
        N_("The tournament"),
        N_("In an Express tournament the first to win 10 games takes it."),
        (
            Step(
                N_("You have won 9 games of the tournament, green 8. Win this one to take it."),
                position("express", 2, "f2:o f3:o f4:o f5:o c3:g d4:g e2:g b5:g"),
                Win(),
                ("Bf",),
                hint=N_(
                    "The player after the winner starts the next game; after a draw the "
                    "starter is drawn by lot."
                ),
                done=N_(
                    "You take the tournament, 10 games to 8. Had it gone on, green, the "
                    "player after the winner, would have started the next game."
                ),
            ),
        ),
    ),
)

BY_ID: Final[dict[str, Lesson]] = {lesson.id: lesson for lesson in LESSONS}
