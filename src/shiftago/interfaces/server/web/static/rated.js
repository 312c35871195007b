// What a rated game did to its players' ratings, shown in the result card at its end
// (the socket's `rated` event, or GET /api/games/{id}/ratings for a page opened later).

import { api, el } from "./api.js";
import { number } from "./i18n.js";

/** A rating's digits in the page's language, never grouped (1523, not 1,523). */
const digits = (x) => number(x, { useGrouping: false });

/** A rating as every page writes one: rounded, its digits never grouped, and a "?"
 *  while the server says it is provisional (1523?). */
export function ratingText(rating, provisional) {
  return `${digits(Math.round(rating))}${provisional ? "?" : ""}`;
}

/** A rating's change with its sign, as every page writes one: +12, −162 (the minus
 *  sign, not a hyphen), ±0. */
export function ratingChange(delta) {
  const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
  return `${sign}${digits(Math.abs(delta))}`;
}

const asked = new Set();

/** Show `changes` ([{colour, name, before, after, deviation, provisional}]) under the
 * result, and the new ratings in the players' cards (they kept the old ones until a
 * reload). */
export function showRatings(changes) {
  const result = document.getElementById("result");
  if (!result || !Array.isArray(changes) || !changes.length) return;
  for (const c of changes) {
    const words = ratingText(c.after, c.provisional);
    for (const key of ratingOfAccount.keys()) if (key.startsWith(`${c.name} `)) ratingOfAccount.set(key, words);
    const card = document.querySelector(`[data-testid=rating-${c.colour}]`);
    if (card) card.textContent = words;
  }
  let box = document.getElementById("rating-changes");
  if (!box) {
    box = el("ul", { id: "rating-changes", class: "rating-changes", "data-testid": "rating-changes" });
    const text = document.getElementById("result-text");
    if (text) text.after(box);
    else result.append(box);
  }
  box.replaceChildren(
    ...changes.map((c) => {
      const delta = Math.round(c.after) - Math.round(c.before);
      return el(
        "li",
        {},
        el("a", { href: `/players/${encodeURIComponent(c.name)}`, text: c.name }),
        ` ${ratingText(c.after, c.provisional)} `,
        el("span", { class: delta >= 0 ? "up" : "down", text: `(${ratingChange(delta)})` }),
      );
    }),
  );
}

/** For a game shown as over and rated, fetch its changes once (they may come later by the socket). */
export function ratingsOnGame(game) {
  if (!game || !game.rated || !game.result || asked.has(game.id)) return;
  asked.add(game.id);
  api(`/api/games/${encodeURIComponent(game.id)}/ratings`)
    .then((answer) => showRatings(answer.changes))
    .catch(() => asked.delete(game.id));
}

// ---- ratings beside the names (the players' panel of a rated game) -----------------
const ratingOfAccount = new Map(); // "account category" -> rating words, or null while asked

/** A rating in words (GET /api/players' entry): 1523, or 1523? while provisional. */
function ratingWords(entry) {
  if (!entry || !Number.isFinite(+entry.rating)) return "";
  return ratingText(+entry.rating, entry.provisional);
}

/** The rating of `seat`'s account in the rated game `game`'s category, in words; "" while
 * it is asked for (GET /api/players/{name}), then written into the seat's card. */
export function seatRating(game, seat) {
  if (!game || !game.rated || !seat || !seat.account) return "";
  const category = `${game.variant}-${game.players}`;
  const key = `${seat.account} ${category}`;
  if (ratingOfAccount.has(key)) return ratingOfAccount.get(key) || "";
  ratingOfAccount.set(key, null);
  api(`/api/players/${encodeURIComponent(seat.account)}`)
    .then((player) => {
      const words = ratingWords((player.ratings || {})[category]);
      ratingOfAccount.set(key, words);
      const node = document.querySelector(`[data-testid=rating-${seat.colour}]`);
      if (node) node.textContent = words;
    })
    .catch(() => ratingOfAccount.delete(key));
  return "";
}
