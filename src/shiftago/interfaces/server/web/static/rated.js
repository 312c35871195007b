// What a rated game did to its players' ratings, shown in the result card at its end
// (the socket's `rated` event, or GET /api/games/{id}/ratings for a page opened later).

import { api, el } from "./api.js";

const asked = new Set();

/** Show `changes` ([{colour, name, before, after, deviation}]) under the result. */
export function showRatings(changes) {
  const result = document.getElementById("result");
  if (!result || !Array.isArray(changes) || !changes.length) return;
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
      const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
      return el(
        "li",
        {},
        el("a", { href: `/players/${encodeURIComponent(c.name)}`, text: c.name }),
        ` ${Math.round(c.after)}${c.deviation > 110 ? "?" : ""} `,
        el("span", { class: delta >= 0 ? "up" : "down", text: `(${sign}${Math.abs(delta)})` }),
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
