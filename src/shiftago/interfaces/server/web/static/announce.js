// What a screen reader hears after each action: who did what, in words ("Green pushed
// in at the top of column d."), said by the page's polite live region
// (`[data-testid=announcer]`). The sentences are whole templates in one table, filled
// with names and numbers only, so that a translation replaces the table.
import { isInsertion, isScoring, lineCells } from "./board.js";

/** The sentences; `{name}` marks what is filled in. */
export const WORDS = {
  L: "{who} pushed in at the left of row {lane}.",
  R: "{who} pushed in at the right of row {lane}.",
  T: "{who} pushed in at the top of column {lane}.",
  B: "{who} pushed in at the bottom of column {lane}.",
  scored: "{who} scored a line of {length}.",
  scoredNone: "{who} scored a line of {length} for no points.",
  scoredOne: "{who} scored a line of {length} for 1 point.",
  scoredMany: "{who} scored a line of {length} for {points} points.",
  other: "{who} played {action}.",
  won: "{who} won.",
  wonTogether: "{names} share the win.",
  overNoWinner: "The game is over without a winner.",
  start: "The start position.",
  step: "Action {step} of {steps}: {words}",
};

/** A template of WORDS with its `{name}`s filled from `values`. */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** One action in words: `who` did `action`, which scored `points` (null: not counted,
 * as in Express). */
export function actionWords(who, action, points = null) {
  if (isInsertion(action)) {
    return fill(WORDS[action[0].toUpperCase()], { who, lane: action.slice(1).toLowerCase() });
  }
  if (isScoring(action)) {
    const [a, b] = action.toLowerCase().slice(1).split("-");
    const length = lineCells(a, b).length;
    let key = "scoredMany";
    if (points === null || points === undefined) key = "scored";
    else if (points === 0) key = "scoredNone";
    else if (points === 1) key = "scoredOne";
    return fill(WORDS[key], { who, length, points });
  }
  return fill(WORDS.other, { who, action });
}

/** The end of a game in words, from the winners' names; "" while it goes on. */
export function resultWords(over, winners) {
  if (!over) return "";
  if (!winners.length) return WORDS.overNoWinner;
  if (winners.length === 1) return fill(WORDS.won, { who: winners[0] });
  const lang = (globalThis.document && document.documentElement.lang) || "en";
  const names = new Intl.ListFormat(lang, { type: "conjunction" }).format(winners);
  return fill(WORDS.wonTogether, { names });
}

/** The page's live region: each call says its sentences, and says them again when the
 * same words come twice in a row (an unchanged region is not read). */
export class Announcer {
  constructor(node) {
    this.node = node;
  }

  say(...sentences) {
    const text = sentences.filter(Boolean).join(" ");
    if (!this.node || !text) return;
    if (this.node.textContent === text) this.node.textContent = "";
    // the new words in a task of their own, after the region is seen emptied
    setTimeout(() => {
      this.node.textContent = text;
    }, 0);
  }
}
