// What the game page says in its polite live region (`[data-testid=announcer]`) after
// each action, the opponents' and the computer's included: who did what, in words
// (announce.js), the turns a handicap skipped after it, then the end of the game when
// it comes; in a replay, the action that led to the step shown. The visible status says
// whose turn it is; this says what happened. The news line above the board shows the
// same news and is no live region, so nothing is said twice.
import { WORDS, actionWords, fill, resultWords } from "./announce.js";
import { movedWords } from "./board.js";
import { skipsWords } from "./moves.js";
import { history, who } from "./state.js";

/** The sentences for the actions `from` up to `to` (version numbers: actions played)
 * of `game`, and its end when it has just come (`wasOver` false, the game over now). A
 * takeback says nothing here: the page's notice, an alert, says it. */
export function spokenSince(game, from, to, wasOver) {
  const out = [];
  for (const h of history().slice(Math.max(0, from), to)) {
    out.push(actionWords(h.seat ? who(h.seat) : "", h.action, h.points ?? null, (game.seats || []).length));
    // which marbles the push moved: a screen reader cannot see them slide
    const moved = movedWords(h.motion && h.motion.moves);
    if (moved) out.push(moved);
    if ((h.skipped || []).length) out.push(skipsWords(h.skipped));
  }
  const over = game.phase === "over" || !!game.result;
  if (over && !wasOver) out.push(resultWords(true, ((game.result && game.result.winners) || []).map(who), (game.seats || []).length));
  return out;
}

/** The sentence for step `step` of `steps` in a replay of a game of `players` seats:
 * the action that led to it. */
export function spokenStep(step, steps, players = 0) {
  if (step <= 0) return WORDS.start;
  const h = history()[step - 1];
  if (!h) return "";
  const words = actionWords(h.seat ? who(h.seat) : "", h.action, h.points ?? null, players);
  return fill(WORDS.step, { step, steps, words });
}
