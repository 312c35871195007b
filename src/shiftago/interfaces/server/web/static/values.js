// The computer's values in words, for the game's review, the analysis board and the
// opening book: an expected score ("62%", "win"), a value in its unit ("+40", "−0.25"),
// and the sentence that says what the unit means for a player.
import { number, t } from "./i18n.js";

/** An expected score in words: `62%`; `win` or `loss` where the value is proven
 *  (`proven` 1 or -1, as the server's lines and review entries carry it). */
export function expectedWords(expected, proven = 0) {
  if (proven > 0) return t("win");
  if (proven < 0) return t("loss");
  if (expected === null || expected === undefined || Number.isNaN(+expected)) return "";
  return number(Math.round(+expected * 100) / 100, { style: "percent" });
}

/** A value in the review's unit, signed: +40, -12, +0.25. */
export function formatValue(v) {
  if (v === null || v === undefined || Number.isNaN(+v)) return "?";
  const n = +v;
  const digits = Number.isInteger(n) ? 0 : 2;
  const text = number(Math.abs(n), { useGrouping: false, minimumFractionDigits: digits, maximumFractionDigits: digits });
  return (n > 0 ? "+" : n < 0 ? "−" : "") + text;
}

/** The computer's own values (the numbers in grey) said for a player, by the kind of
 * search that made them (the review's or the analysis socket's `unit`, docs/analysis.md
 * "Value"), a whole sentence; "" for a kind this page does not know. */
export function unitWords(unit, game) {
  const text = String(unit || "");
  if (text.startsWith("centi-units")) {
    const scale = game && game.variant === "express" ? 65 : 200;
    return UNIT_WORDS.search(scale);
  }
  if (text.startsWith("the mover's mean reward")) return UNIT_WORDS.playouts((game && game.players) || 2);
  if (text.startsWith("points")) return UNIT_WORDS.points;
  return "";
}

export const UNIT_WORDS = {
  search: (scale) =>
    t("The computer's own values (in grey) weigh the position for the player to act: 0 is even, +{scale} means about a 73% chance for that player and −{scale} about 27%, and a value near ±10000 is a win or a loss it has worked out to the end.", { scale: number(scale) }),
  playouts: (players) =>
    players > 2
      ? t("The computer's own values (in grey) are the share of the win that the player to act can expect, from 0 to 1 (with {n} players an even share is {share}).", { n: number(players), share: number(1 / players, { maximumFractionDigits: 2 }) })
      : t("The computer's own values (in grey) are the share of the win that the player to act can expect, from 0 to 1 (0.5 an even game)."),
  get graph() {
    return t("The graph shows each player's expected score after every action.");
  },
  get points() {
    return t("The computer's own values (in grey) are points: what an action scores or sets up, ±1000 a win or a loss at once.");
  },
};
