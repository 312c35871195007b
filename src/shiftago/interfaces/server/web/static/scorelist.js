// The score phase's choices as a list of buttons under the board, each with its points:
// the same choices the board draws on its lines, but a finger wide and in words (on a
// phone the board's "keep" badges are small and may overlap where lines cross). The
// game page (panels.js), the puzzles and the lessons show it.
//
//   <section id="score-choices" hidden><h2>…</h2><ul id="score-list"></ul></section>

import { scoringEnds } from "./board.js";
import { el } from "./api.js";
import { t, tn } from "./i18n.js";

/** List `choices` ({action, points}) in `list`, showing `box` only while there are
 * some; with 3-4 players each says which end stays. A press calls `onAct(action)`;
 * the buttons are disabled unless `enabled`. */
export function drawScoreList(box, list, choices, players, enabled, onAct) {
  list.replaceChildren();
  for (const c of choices) {
    const zero = c.points === 0;
    const pts = tn("{n} point", "{n} points", c.points);
    // with 3-4 players the first end named stays on the board
    const [a, b] = scoringEnds(c.action);
    const keep = players > 2 ? t("keep {cell}", { cell: a }) : "";
    const lineWords = t("Score the line {a} to {b}:", { a, b });
    const button = el("button", {
      type: "button", class: `score-choice${zero ? " zero" : ""}`, "data-action": c.action,
      "data-points": c.points, disabled: !enabled, onclick: () => onAct(c.action),
    },
    // heard as the board's own choices are: the line's ends, then what the button shows
    el("span", { class: "visually-hidden", text: lineWords + " " }),
    el("code", { text: c.action }), " ", keep ? el("span", { class: "keep", text: keep }) : null, keep ? " " : null, el("span", { class: "pts", text: pts }));
    list.append(el("li", {}, button));
  }
  box.hidden = !choices.length;
}
