// What the game page says in its polite live region (`[data-testid=announcer]`) after
// each action, the opponents' and the computer's included: who did what, in words, and
// the marbles it moved or took off (announce.js), the turns a handicap skipped after
// it, then the end of the game when it comes; on opening a game, the computer's actions
// since a person last acted; in a replay, the action that led to the step shown, in
// the same words. The visible status says whose turn it is; this says what happened.
// The news line above the board shows the same news and is no live region, so nothing
// is said twice.
import { WORDS, actionDone, computerActionsAtEnd, fill, resultWords } from "./announce.js";
import { skipsWords } from "./moves.js";
import { history, who } from "./state.js";

/** One entry of the history in words: the action, what it moved, the turns it skipped. */
function entryWords(h, players) {
  const skipped = (h.skipped || []).length ? skipsWords(h.skipped) : "";
  return [actionDone(h.seat ? who(h.seat) : "", h, players), skipped].filter(Boolean).join(" ");
}

/** The sentences for the actions `from` up to `to` (version numbers: actions played)
 * of `game`, and its end when it has just come (`wasOver` false, the game over now). A
 * takeback says nothing here: the page's notice, an alert, says it. */
export function spokenSince(game, from, to, wasOver) {
  const players = (game.seats || []).length;
  const out = history().slice(Math.max(0, from), to).map((h) => entryWords(h, players));
  const over = game.phase === "over" || !!game.result;
  if (over && !wasOver) out.push(resultWords(true, ((game.result && game.result.winners) || []).map(who), players));
  return out;
}

/** The sentences for a page that opens `game` (at `version`, actions played): the
 * actions a computer played since a person last acted, which it did not see come.
 * Nothing once the game is over: its result, which takes the focus, says the end. */
export function spokenOnOpening(game, version) {
  if (game.phase === "over" || game.result) return [];
  const players = (game.seats || []).length;
  return computerActionsAtEnd(history().slice(0, version), game.seats || []).map((h) => entryWords(h, players));
}

/** The sentence for step `step` of `steps` in a replay of a game of `players` seats:
 * the action that led to it and what it did, as it was said when it was played. */
export function spokenStep(step, steps, players = 0) {
  if (step <= 0) return WORDS.start;
  const h = history()[step - 1];
  if (!h) return "";
  return fill(WORDS.step, { step, steps, words: entryWords(h, players) });
}
