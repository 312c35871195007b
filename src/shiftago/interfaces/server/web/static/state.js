// The game page's shared state and the small questions every part of it asks: who
// holds which seat, who a colour is, what the server says a seat may do, and what the
// page shows now (the live game, or a step of a finished game's replay). Every fact
// comes from the server's GAME (docs/web-protocol.md); nothing here decides a rule.
import { COLOURS, colourTitle, parsePosition } from "./board.js";
import { seatName, seatWithColour } from "./gamewords.js";
import { listed } from "./i18n.js";

const parts = location.pathname.split("/").filter(Boolean);
const params = new URLSearchParams(location.search);

export const ctx = {
  mode: parts[0] === "watch" ? "watch" : "play",
  gameId: decodeURIComponent(parts[1] || ""),
  params,
  fast: ["1", "true", "yes"].includes(params.get("fast")) || params.has("reduced"),
  game: null, // the GAME object
  version: -1, // actions played, as the server counts them
  lastBoard: null, // the board before the last action (when this page saw it arrive)
  pending: null, // {action, version, at}: sent, not answered yet
  thinking: null, // colour of the computer that thinks
  presence: null, // the last presence event
  conns: [], // one Conn per held seat (or one spectator's)
  steps: null, // GET /api/games/{id}/steps: [{step, position, last}] of a finished game
  step: null, // the step shown in the replay of a finished game (null: the last)
  levels: null, // GET /api/levels (a promise)
  claimLevels: {}, // colour -> the computer level chosen in that seat's claim row
  boardView: null,
  review: null,
};

export const $ = (id) => document.getElementById(id);

/** Set the text of the element `id` only when it changes: a live region told the same
 *  words again would have a screen reader say them again. */
export function setText(id, text) {
  const node = $(id);
  if (node.textContent !== text) node.textContent = text;
}

export function seatOf(colour) {
  return ctx.game && ctx.game.seats ? ctx.game.seats.find((s) => s.colour === colour) : null;
}

export function seatIndex(colour) {
  const i = ctx.game && ctx.game.seats ? ctx.game.seats.findIndex((s) => s.colour === colour) : -1;
  return i >= 0 ? i : COLOURS.indexOf(colour);
}

/** A colour as words: the seat's name, with its colour when the name is not the colour. */
export function who(colour) {
  return seatWithColour(seatOf(colour) || { colour });
}

/** A seat's name: the player's, or the name the server gave it in the page's language. */
export function nameOf(colour) {
  const seat = seatOf(colour);
  return seat ? seatName(seat, ctx.game.seats) : colourTitle(colour);
}

/** The colours whose seats this browser holds. */
export function held() {
  return ctx.conns.filter((c) => c.colour && !c.invalid).map((c) => c.colour);
}

/** The tokens of the seats this browser holds, in seat order. */
export function heldTokens() {
  return ctx.conns
    .filter((c) => c.colour && !c.invalid && c.token)
    .sort((a, b) => seatIndex(a.colour) - seatIndex(b.colour))
    .map((c) => c.token);
}

export function holdsEverySeat() {
  const mine = held();
  return !!ctx.game && (ctx.game.seats || []).length > 0 && ctx.game.seats.every((s) => mine.includes(s.colour));
}

export function connFor(colour) {
  return ctx.conns.find((c) => c.colour === colour && !c.invalid && c.isOpen());
}

export function anyConn() {
  return ctx.conns.find((c) => c.colour && !c.invalid && c.isOpen()) || ctx.conns.find((c) => c.isOpen());
}

/** What the server says the holder of `colour` may do now (GAME `may`). */
export function may(colour, what) {
  const g = ctx.game;
  if (!g || !colour) return false;
  if (!g.may) return what === "act" ? g.turn === colour : false;
  return !!(g.may[colour] && g.may[colour][what]);
}

/** The held colours that may do `what` now. */
export function heldThatMay(what) {
  return held().filter((c) => may(c, what));
}

/** Words in a list, in the page's language: "a", "a and b", "a, b and c". */
export const together = listed;

/** Whether this page holds every seat a person plays (an imported game, people taking
 *  turns at one screen): nobody else plays, so the computer's help is no one's harm. */
export function holdsEveryPerson() {
  const people = ((ctx.game && ctx.game.seats) || []).filter((s) => s.kind === "human");
  const mine = held();
  return people.length > 0 && people.every((s) => mine.includes(s.colour));
}

export function isOver() {
  return !!ctx.game && (ctx.game.phase === "over" || !!ctx.game.result);
}

/** The number of actions of the game (the last step). */
export function lastStep() {
  return ctx.game ? (ctx.game.actions || []).length : 0;
}

/** Whether a step before the end of a finished game is shown. */
export function replaying() {
  return isOver() && ctx.step !== null && ctx.step < lastStep();
}

/** The step shown: a replay step, or the last one. */
export function shownStep() {
  return replaying() ? ctx.step : lastStep();
}

/** The history of the game (GAME `history`), one entry per action. */
export function history() {
  const g = ctx.game;
  if (!g) return [];
  if (Array.isArray(g.history)) return g.history;
  return (g.actions || []).map((action, index) => ({ index, turn: null, action, seat: null, points: null, skipped: [] }));
}

/**
 * What the page shows: the live game (or the end of a finished one), or step k of a
 * finished game drawn from its position string (GET /api/games/{id}/steps).
 */
export function shown() {
  const g = ctx.game;
  const k = shownStep();
  // until the steps have come, the last step
  if (replaying() && ctx.steps && ctx.steps[k]) {
    const p = parsePosition(ctx.steps[k].position) || {};
    const before = k > 0 && ctx.steps[k - 1] ? parsePosition(ctx.steps[k - 1].position) : null;
    return {
      step: k, final: false, position: ctx.steps[k].position, board: p.board || new Map(),
      lastBoard: before ? before.board : null, turn: p.turn, phase: p.phase,
      supplies: p.supplies || [], scores: p.scores || [], skips: p.skips || [],
      last: ctx.steps[k].last, motion: k > 0 && history()[k - 1] ? history()[k - 1].motion : null,
      result: null, over: false,
    };
  }
  const p = parsePosition(g.position) || {};
  const n = lastStep();
  const before = ctx.lastBoard || (n > 0 && ctx.steps && ctx.steps.length === n + 1 ? parsePosition(ctx.steps[n - 1].position) : null);
  return {
    step: n, final: true, position: g.position, board: p.board || new Map(),
    lastBoard: before && before.board ? before.board : before,
    turn: g.turn, phase: g.phase, supplies: g.supplies || [], scores: g.scores || [], skips: g.skips || [],
    last: g.last ?? null, motion: g.motion ?? null, result: g.result, over: isOver(),
  };
}
