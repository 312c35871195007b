"""The computer's review of a game for the web app (docs/web-protocol.md, "The game's
analysis").

A review is a *job* of plain values (:class:`ReviewJob`: the positions and actions, the
level, the review so far) that :func:`run_review` works through one action after another
with the engine's reviewer (:func:`shiftago.engine.review.review_position`), storing the
partial review and its progress after each action, so that a reader sees it grow and a
restart goes on where it stopped. Each review may mend the one before it
(:func:`shiftago.engine.review.agree`: neighbouring searches agree on what either
proved), within one run of the job. The job knows nothing of FastAPI or the event loop.

:class:`GameAnalyses` is the app's side: one review per game and set of actions (their
digest), stored before it starts, then queued as a review job (:mod:`.jobs`: after the
computer's moves, on at most half of the slots) that this process or a ``shiftago
worker`` runs in a thread pool of its own, and queued again on start-up. A job that
fails (the search raises, or the game cannot be read) leaves its review ``failed``, with
a short reason in ``error``; asking for it again starts it again where it stopped.

Every value of the object is a JSON number (never NaN or infinite); docs/analysis.md says
what they mean.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Final

from shiftago.core import COLOURS, Action, Rules, State
from shiftago.engine.accuracy import seat_accuracy, seat_expectations
from shiftago.engine.bot import Bot, Limits
from shiftago.engine.levels import bot_for_level, default_level
from shiftago.engine.mcts_bot import MctsBot
from shiftago.engine.review import MARKS, PlyReview, agree, review_position
from shiftago.formats.record_syntax import turn_numbers
from shiftago.interfaces.server.analysis.store import AnalysisStore, StoredAnalysis
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.jobs.admission import QueueFull, ReviewBounds
from shiftago.interfaces.server.jobs.bus import Event
from shiftago.interfaces.server.jobs.queue import Job
from shiftago.interfaces.server.settings import ReviewBudget

log = logging.getLogger("shiftago.server")

#: The bus event of a review asked for, and what the game's sockets are told: their
#: pages then read the review and follow it to its end (docs/web-protocol.md).
REVIEW_ASKED: Final = "review"
REVIEW_MESSAGE: Final = {"type": "review"}

#: The actions a review job reviews before it queues itself again behind the jobs
#: waiting, so that a long game's review holds a slot for seconds, not minutes
#: (docs/deploy.md, "Jobs").
REVIEW_CHUNK: Final = 20
#: The seed of the reviewing bot: the same game under the same limits reviews the same.
REVIEW_SEED: Final = 0
#: Words for ``expected_before`` and ``expected_after`` (docs/analysis.md).
SCALE: Final = (
    "expected score of each seat in [0, 1], seat order: 1 a win, 0 a loss, a draw "
    "shared by its winners; proven results are exact, others the computer's estimate"
)
#: The status of a review whose job failed; asked for again, it starts again.
FAILED: Final = "failed"
#: The longest reason of a failure that is stored and shown.
MAX_REASON: Final = 200


class ReviewFailed(Exception):
    """A review that cannot go on; the message says why in English, and ``code`` (with
    ``step`` and ``action``, the action whose search failed) lets a page say it in its
    own language."""

    def __init__(
        self, message: str, code: str = "failed", step: int | None = None, action: str = ""
    ) -> None:
        super().__init__(message)
        self.code = code
        self.step = step
        self.action = action


def budget_limits(budget: ReviewBudget, judge: Bot) -> Limits:
    """The limits of ``judge``'s search of one position under ``budget``."""
    nodes = budget.iterations if isinstance(judge, MctsBot) else budget.nodes
    return Limits(movetime_ms=budget.movetime_ms, nodes=nodes)


@dataclass
class ReviewJob:
    """A review to make: the state before each action and the action, the level that
    judges, and the entries already made (a resumed review goes on after them)."""

    analysis_id: int
    rules: Rules
    states: Sequence[State]
    actions: Sequence[Action]
    level: int
    done: list[dict[str, Any]] = field(default_factory=list)


def digest(actions: Sequence[Action | str]) -> str:
    """What identifies a set of actions of a game: the SHA-256 of their notation."""
    return hashlib.sha256(" ".join(str(a) for a in actions).encode("utf-8")).hexdigest()


def number(value: float, places: int = 4) -> int | float | None:
    """A value for JSON: an integer where it is one, else rounded; None if not finite."""
    value = float(value)
    if not math.isfinite(value):
        return None
    return int(value) if value.is_integer() else round(value, places)


def _expectations(values: Sequence[float]) -> list[float]:
    return [round(min(max(v, 0.0), 1.0), 4) for v in values]


def entry(review: PlyReview, judge: Bot, rules: Rules, index: int, turn: int) -> dict[str, Any]:
    """One action of the analysis object (docs/web-protocol.md)."""
    seat = review.seat
    best, played = review.best, review.played
    before = seat_expectations(judge, best, seat, rules)
    # An action the bot left out of its analysis has no value of its own: no drop shown.
    after = before if played is None else seat_expectations(judge, played, seat, rules)
    return {
        "index": index,
        "turn": turn,
        "action": str(review.action),
        "seat": COLOURS[seat],
        "value": None if played is None else number(played.value),
        "best": str(best.action),
        "best_value": number(best.value),
        "judgement": MARKS.get(review.mark),
        "pv": [str(a) for a in best.pv],
        "proven": 0 if played is None else judge.proven(played.value),
        "best_proven": judge.proven(best.value),
        "expected_before": _expectations(before),
        "expected_after": _expectations(after),
    }


def summary(players: int, actions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per seat: its actions, its marks and its accuracy (docs/analysis.md)."""
    rows = []
    for seat in range(players):
        colour = COLOURS[seat]
        mine = [a for a in actions if a["seat"] == colour]
        drops = [
            max(0.0, 100.0 * (a["expected_before"][seat] - a["expected_after"][seat])) for a in mine
        ]
        accuracy = seat_accuracy(drops)
        judgements = [a["judgement"] for a in mine]
        rows.append(
            {
                "seat": colour,
                "actions": len(mine),
                "inaccuracies": judgements.count("inaccuracy"),
                "mistakes": judgements.count("mistake"),
                "blunders": judgements.count("blunder"),
                "accuracy": None if accuracy is None else round(accuracy, 1),
            }
        )
    return rows


def document(
    job: ReviewJob, status: str, entries: Sequence[dict[str, Any]], unit: str
) -> dict[str, Any]:
    """The analysis object with ``entries`` reviewed so far."""
    total = len(job.actions)
    return {
        "status": status,
        "progress": round(len(entries) / total, 4) if total else 1.0,
        "version": total,
        "level": job.level,
        "unit": unit,
        "scale": SCALE,
        "actions": list(entries),
        "summary": summary(job.rules.players, entries),
    }


def unit_of(level: int, rules: Rules) -> str:
    """The words for ``value`` of a review by ``level`` of a game under ``rules``."""
    return bot_for_level(level, REVIEW_SEED).for_rules(rules).value_unit


def run_review(
    job: ReviewJob,
    store: AnalysisStore,
    budget: ReviewBudget,
    cancelled: threading.Event | None = None,
    most: int | None = None,
) -> bool:
    """Review the job's actions after those done, at most ``most`` of them (None: all),
    storing the review after each (runs in a worker thread; stops between two actions
    once ``cancelled`` is set); whether the review is done."""
    level_bot = bot_for_level(job.level, REVIEW_SEED)
    judge = level_bot.for_rules(job.rules)
    limits = budget_limits(budget, judge)
    turns = turn_numbers(job.actions)
    entries = list(job.done)
    if not job.actions:
        doc = document(job, "done", [], judge.value_unit)
        store.save_analysis(job.analysis_id, "done", 1.0, _dump(doc))
        return True
    start = len(entries)
    end = len(job.actions) if most is None else min(len(job.actions), start + most)
    previous: PlyReview | None = None  # the last review of this run, which the next may mend
    for index in range(start, end):
        if cancelled is not None and cancelled.is_set():
            return False
        action = job.actions[index]
        try:
            review = review_position(
                level_bot, job.states[index], action, number=index + 1, limits=limits
            )
            if previous is not None:  # neighbouring searches agree on what either proved
                mended, review = agree(judge, previous, review, judge.mistake_threshold)
                if mended is not previous:
                    entries[-1] = entry(mended, judge, job.rules, index - 1, turns[index - 1])
            previous = review
            entries.append(entry(review, judge, job.rules, index, turns[index]))
        except Exception as error:
            reason = f"the computer's search failed at action {index + 1} ({action})"
            words = f"{reason}: {type(error).__name__}"
            raise ReviewFailed(words, "search_failed", index + 1, str(action)) from error
        status = "done" if len(entries) == len(job.actions) else "running"
        doc = document(job, status, entries, judge.value_unit)
        store.save_analysis(job.analysis_id, status, doc["progress"], _dump(doc))
    return len(entries) == len(job.actions)


def _dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, separators=(",", ":"), allow_nan=False)


class GameAnalyses:
    """The reviews of the app's games: asked for, read, run as jobs (:mod:`.jobs`),
    resumed."""

    def __init__(self, hub: Hub, budget: ReviewBudget | None = None, threads: int = 1) -> None:
        self.hub = hub
        self.store = AnalysisStore(hub.store)
        self.budget = budget if budget is not None else ReviewBudget()
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="shiftago-review")
        self.cancelled = threading.Event()
        hub.event_hooks[REVIEW_ASKED] = self._asked_elsewhere

    async def request(
        self, live: LiveGame, asker: str, bounds: ReviewBounds | None = None
    ) -> dict[str, Any]:
        """The review of the game's actions now: the one asked for before, or a new one,
        counted in the job queue's fair share of ``asker`` (the address that asks) and,
        with ``bounds``, refused (:class:`.QueueFull`) when ``asker`` or the server has
        as many unfinished reviews as they allow: a new review refused is not kept, a
        failed one asked again stays failed."""
        async with live.lock:
            job = _job(live, 0, default_level())
            revision, owner = live.revision, asker
        key = digest(job.actions)
        empty = _dump(document(job, "pending", [], unit_of(job.level, job.rules)))
        stored, created = await self.hub.db(
            self.store.request_analysis, live.id, key, len(job.actions), job.level, empty
        )
        failed = stored if stored.status == FAILED else None
        if failed is not None:  # asked again: it starts again where it stopped
            stored = await self.hub.db(_again, self.store, stored)
        if stored.status != "done":  # going on after the actions stored, if any
            review = Job("review", live.id, revision, owner, analysis_id=stored.id)
            if bounds is None:
                await self.hub.submit(review)
            else:
                try:
                    await self.hub.jobs.admit(review, bounds)
                except QueueFull:
                    if created:  # never a review left pending that no job will make
                        await self.hub.db(self.store.delete_analysis, stored.id)
                    elif failed is not None:
                        await self.hub.db(_fail, self.store, stored.id, failure_of(failed))
                    raise
        # every page of the game, here and in the other processes, reads it from now on
        # (under the lock: a page whose hello is under way hears it once it has joined)
        async with live.lock:
            live.broadcast(REVIEW_MESSAGE)
        await self.hub.publish({"game": live.id, "revision": revision, "kind": REVIEW_ASKED})
        return view(stored)

    async def _asked_elsewhere(self, event: Event) -> None:
        """Another process's page asked for a review: this process's pages hear of it
        (under the game's lock, as in :meth:`request`)."""
        live = self.hub.games.get(str(event.get("game")))
        if live is not None:
            async with live.lock:
                live.broadcast(REVIEW_MESSAGE)

    async def read(self, game_id: str) -> dict[str, Any] | None:
        """The newest review asked for of the game, None if none was."""
        stored = await self.hub.db(self.store.latest_analysis, game_id)
        return None if stored is None else view(stored)

    async def run(self, job: Job) -> None:
        """Make :data:`REVIEW_CHUNK` more actions of a job's review, from where the stored
        review stopped, then queue the job again while actions are left; a failure
        leaves it :data:`FAILED` (a stop leaves it to be resumed)."""
        if job.analysis_id is None:
            return
        try:
            if not await self._run(job.analysis_id) and not self.cancelled.is_set():
                await self.hub.jobs.release(job)  # the copy queued now is the one to run
                # the time it was asked for goes with it: an owner's oldest review first
                await self.hub.submit(job)
        except Exception as error:
            if self.cancelled.is_set():  # stopping: the restart goes on with it
                raise
            log.error(
                "the review %d of game %s failed", job.analysis_id, job.game_id, exc_info=error
            )
            await self.hub.jobs.release(job)  # asked again on seeing it failed: a new job
            await self.hub.db(_fail, self.store, job.analysis_id, failure(error))

    async def _run(self, analysis_id: int) -> bool:
        """Review a chunk of the stored review's actions; whether nothing is left."""
        stored = await self.hub.db(self.store.analysis, analysis_id)
        if stored is None or stored.status in ("done", FAILED):
            return True
        live = await self.hub.get(stored.game_id)
        if live is None:
            return True
        with self.hub.using(live):
            async with live.lock:
                review = _job(live, stored.id, stored.level, stored.version)
        if len(review.actions) != stored.version or digest(review.actions) != stored.digest:
            # the actions reviewed were taken back since: nothing left to review
            await self.hub.db(self.store.delete_analysis, stored.id)
            return True
        review.done = list(json.loads(stored.result).get("actions", []))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.pool, run_review, review, self.store, self.budget, self.cancelled, REVIEW_CHUNK
        )

    async def resume(self) -> None:
        """Queue again every review that a stop (or a crash) left unfinished (not those
        that failed: they start again when asked for again)."""
        for stored in await self.hub.db(self.store.unfinished_analyses):
            if stored.status == FAILED:
                continue
            await self.hub.submit(
                Job("review", stored.game_id, 0, stored.game_id, analysis_id=stored.id)
            )

    def close(self) -> None:
        """Stop between two actions (the review so far is stored) and free the thread."""
        self.cancelled.set()
        self.pool.shutdown(wait=False, cancel_futures=True)


def _job(live: LiveGame, analysis_id: int, level: int, version: int | None = None) -> ReviewJob:
    """The job of the game's first ``version`` actions (all by default); under its lock."""
    game = live.game
    actions = game.history if version is None else game.history[:version]
    states = game.states[: len(actions)]
    return ReviewJob(analysis_id, game.rules, states, actions, level)


def view(stored: StoredAnalysis) -> dict[str, Any]:
    """The analysis object as the API answers it (``error``: why it failed, else None)."""
    doc: dict[str, Any] = json.loads(stored.result)
    doc["status"] = stored.status
    doc["progress"] = stored.progress
    failed = stored.status == FAILED
    for key in FAILURE_KEYS:
        doc[key] = doc.get(key) if failed else None
    if failed and doc["error_code"] is None:  # failed before the codes: the general one
        doc["error_code"] = "failed"
    return doc


#: What a failed review says of its failure (docs/web-protocol.md, "The game's
#: analysis"): ``error`` in English words, ``error_code`` one of ``search_failed``
#: (with ``error_step``, 1-based, and ``error_action``, its notation), ``unreadable``
#: or ``failed``; None while it has not failed.
FAILURE_KEYS: Final = ("error", "error_code", "error_step", "error_action")


def reason(error: Exception) -> str:
    """Why a review failed, in a few words for the page (the log has the rest)."""
    if isinstance(error, ReviewFailed):
        words = str(error)
    elif isinstance(error, ValueError):  # the core's words about the stored game
        words = f"the game cannot be read: {error}"
    else:
        words = f"the review failed: {type(error).__name__}"
    return words if len(words) <= MAX_REASON else words[: MAX_REASON - 1] + "…"


def failure(error: Exception) -> dict[str, Any]:
    """The failure's fields (:data:`FAILURE_KEYS`): its words and their code."""
    found: dict[str, Any] = {"error": reason(error), "error_step": None, "error_action": None}
    if isinstance(error, ReviewFailed):
        found["error_code"] = error.code
        if error.step is not None:
            found["error_step"], found["error_action"] = error.step, error.action
    else:
        found["error_code"] = "unreadable" if isinstance(error, ValueError) else "failed"
    return found


def failure_of(stored: StoredAnalysis) -> dict[str, Any]:
    """The failure fields of a review stored as failed, as its view says them."""
    doc = view(stored)
    return {key: doc[key] for key in FAILURE_KEYS}


def _fail(store: AnalysisStore, analysis_id: int, why: dict[str, Any]) -> None:
    """Store the review as :data:`FAILED`, with the entries made and ``why`` (the fields
    of :func:`failure`)."""
    stored = store.analysis(analysis_id)
    if stored is None:
        return
    doc = json.loads(stored.result)
    doc["status"] = FAILED
    doc.update(why)
    store.save_analysis(analysis_id, FAILED, stored.progress, _dump(doc))


def _again(store: AnalysisStore, stored: StoredAnalysis) -> StoredAnalysis:
    """A failed review pending again, with the entries it had made."""
    doc = json.loads(stored.result)
    for key in FAILURE_KEYS:
        doc.pop(key, None)
    doc["status"] = "pending"
    result = _dump(doc)
    store.save_analysis(stored.id, "pending", stored.progress, result)
    return replace(stored, status="pending", result=result)
