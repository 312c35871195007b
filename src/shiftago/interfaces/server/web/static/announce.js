// What a screen reader hears after each action: who did what, in words ("Green pushed
// in at the top of column d."), said by the page's polite live region
// (`[data-testid=announcer]`). The sentences are whole templates in one table, filled
// with names and numbers only, each looked up in the page's catalogue.
import { isInsertion, isScoring, lineCells, movedWords, removedWords } from "./board.js";
import { listed, t, tn } from "./i18n.js";

/** The sentences, each looked up in the catalogue when it is read; `{name}` marks what
 * is filled in. */
export const WORDS = {
  get L() { return t("{who} pushed in at the left of row {lane}."); },
  get R() { return t("{who} pushed in at the right of row {lane}."); },
  get T() { return t("{who} pushed in at the top of column {lane}."); },
  get B() { return t("{who} pushed in at the bottom of column {lane}."); },
  get scored() { return t("{who} scored a line of {length}."); },
  get scoredNone() { return t("{who} scored a line of {length} for no points."); },
  get other() { return t("{who} played {action}."); },
  get won() { return t("{who} won."); },
  get wonTogether() { return t("{names} share the win."); },
  get drawn() { return t("Draw between {names}."); },
  get overNoWinner() { return t("The game is over without a winner."); },
  get start() { return t("The start position."); },
  get step() { return t("Action {step} of {steps}: {words}"); },
};

/** A template of WORDS with its `{name}`s filled from `values`. */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** One action in words: `who` did `action`, which scored `points` (null: not counted,
 * as in Express), in a game of `players` seats (0: not known). A scoring names its line
 * and, where the number of seats is known, the end marbles that stay (a screen reader
 * cannot see which line came off: a blind player's walk). */
export function actionWords(who, action, points = null, players = 0) {
  if (isInsertion(action)) {
    return fill(WORDS[action[0].toUpperCase()], { who, lane: action.slice(1).toLowerCase() });
  }
  if (isScoring(action)) {
    const [a, b] = action.toLowerCase().slice(1).split("-");
    const length = lineCells(a, b).length;
    const said = scoredWords(who, length, points);
    // 3-4 players keep the end the action names first; 2 players keep both ends
    const kept = players >= 3 ? [a] : players === 2 ? [a, b].sort() : [];
    const line = t("The line ran from {from} to {to}.", { from: a, to: b });
    const stayed = kept.length ? tn("The marble on {cells} stayed on the board.", "The marbles on {cells} stayed on the board.", kept.length, { cells: listed(kept) }) : "";
    return [said, line, stayed].filter(Boolean).join(" ");
  }
  return fill(WORDS.other, { who, action });
}

/** One action of a game's history (GAME `history`: its `action`, `points` and
 * `motion`) in words, as the live region says it: who did what (actionWords), then
 * the marbles it moved or took off the board, as the server's motion says: a screen
 * reader cannot see them slide or go. */
export function actionDone(who, entry, players = 0) {
  const motion = entry.motion || {};
  const did = actionWords(who, entry.action, entry.points ?? null, players);
  return [did, movedWords(motion.moves), removedWords(motion.removed)].filter(Boolean).join(" ");
}

/** The entries at the end of a game's history (GAME `history`) that a computer's seat
 * played since a person last acted: a page opened after them says them, as it would
 * have said them had it been open (a blind player who reloaded heard nothing of the
 * computer's action). In a game of computers only, its last action. `seats`: GAME's. */
export function computerActionsAtEnd(entries, seats = []) {
  const computers = new Set(seats.filter((s) => s.kind === "computer").map((s) => s.colour));
  let from = entries.length;
  while (from > 0 && computers.has(entries[from - 1].seat)) from -= 1;
  if (!seats.some((s) => s.kind !== "computer")) from = Math.max(from, entries.length - 1);
  return entries.slice(from);
}

function scoredWords(who, length, points) {
  if (points === null || points === undefined) return fill(WORDS.scored, { who, length });
  if (points === 0) return fill(WORDS.scoredNone, { who, length });
  return tn("{who} scored a line of {length} for {n} point.", "{who} scored a line of {length} for {n} points.", points, { who, length });
}

/** The end of a game in words, from the winners' names and the game's number of
 * seats (all of them sharing it: a draw); "" while it goes on. */
export function resultWords(over, winners, players = 0) {
  if (!over) return "";
  if (!winners.length) return WORDS.overNoWinner;
  if (winners.length === 1) return fill(WORDS.won, { who: winners[0] });
  const names = listed(winners);
  // every seat sharing the result is a draw; some of them sharing it share a win
  return fill(winners.length === players ? WORDS.drawn : WORDS.wonTogether, { names });
}

/** The page's live region: each call says its sentences, and says them again when the
 * same words come twice in a row (an unchanged region is not read). Calls in one task
 * (a scoring and the push after it, arriving together) are said together: the last
 * would otherwise replace the others before they are read. */
export class Announcer {
  constructor(node) {
    this.node = node;
    this.pending = null;
  }

  say(...sentences) {
    const text = sentences.filter(Boolean).join(" ");
    if (!this.node || !text) return;
    if (this.pending) {
      this.pending.push(text);
      return;
    }
    this.pending = [text];
    if (this.node.textContent === text) this.node.textContent = "";
    // the new words in a task of their own, after the region is seen emptied
    setTimeout(() => {
      if (!this.pending) return; // cleared meanwhile
      this.node.textContent = this.pending.join(" ");
      this.pending = null;
    }, 0);
  }

  /** Empty the region: its last words no longer hold (a take-back, a new puzzle), and a
   * screen reader that reads the page would meet them as if they did. */
  clear() {
    this.pending = null;
    if (this.node) this.node.textContent = "";
  }
}
