// The score phase's choices as a list of buttons under the board, each with its points:
// the same choices the board draws on its lines, but a finger wide and in words (on a
// phone the board's "keep" badges are small and may overlap where lines cross). The
// game page (panels.js), the puzzles and the lessons show it.
//
//   <section id="score-choices" hidden><h2>…</h2><ul id="score-list"></ul></section>

import { scoringEnds } from "./board.js";
import { el } from "./api.js";
import { t, tn } from "./i18n.js";

let pointer = "mouse"; // how the last press on a choice began: "touch" previews first
let armed = null; // the choice a first tap previewed

/** Mark `button` as the choice a first tap previewed, or as none: no `aria-pressed` at
 * all otherwise, as a screen reader heard every choice as "toggle button, not pressed"
 * (a blind player's walk). */
function pressed(button, on) {
  if (on) button.setAttribute("aria-pressed", "true");
  else button.removeAttribute("aria-pressed");
}

/** List `choices` ({action, points}) in `list`, showing `box` only while there are
 * some; with 3-4 players each says which end stays. A press calls `onAct(action)`;
 * the buttons are disabled unless `enabled`. On a touch screen the first tap previews
 * the scoring on `board` (its `preview`) and the second plays, as the board's own
 * choices do and the page's hint says: one tap scored at once, past taking back in a
 * game between people (an Italian tablet walk). */
export function drawScoreList(box, list, choices, players, enabled, onAct, board = null) {
  list.replaceChildren();
  // a redraw between the two taps (news of the game) keeps the first one's preview
  if (!enabled || !choices.some((c) => c.action === armed)) armed = null;
  const press = (button, action) => {
    if (pointer === "touch" && armed !== action) {
      armed = action;
      for (const other of list.querySelectorAll("button")) pressed(other, other === button);
      if (board) board.preview(action);
      return;
    }
    armed = null;
    onAct(action);
  };
  for (const c of choices) {
    const zero = c.points === 0;
    const pts = tn("{n} point", "{n} points", c.points);
    // with 3-4 players the first end named stays on the board
    const [a, b] = scoringEnds(c.action);
    const keep = players > 2 ? t("keep {cell}", { cell: a }) : "";
    const lineWords = t("Score the line {a} to {b}:", { a, b });
    const button = el("button", {
      type: "button", class: `score-choice${zero ? " zero" : ""}`, "data-action": c.action,
      "data-points": c.points, disabled: !enabled, "aria-pressed": c.action === armed ? "true" : null,
    },
    // heard as the board's own choices are: the line's ends, then what the button shows
    el("span", { class: "visually-hidden", text: lineWords + " " }),
    el("code", { text: c.action }), " ", keep ? el("span", { class: "keep", text: keep }) : null, keep ? " " : null, el("span", { class: "pts", text: pts }));
    button.addEventListener("pointerdown", (e) => (pointer = e.pointerType || "mouse"));
    button.addEventListener("keydown", () => (pointer = "keyboard"));
    button.addEventListener("click", () => press(button, c.action));
    list.append(el("li", {}, button));
  }
  if (armed && board) board.preview(armed);
  box.hidden = !choices.length;
}
