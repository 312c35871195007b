// The seats of a position as chips: each colour with its marbles left, its points in
// Expert and Extreme, its skips of a handicap; the seat to act outlined. The analysis
// board and the puzzles show them under the board.
import { COLOURS, marbleIcon } from "./board.js";
import { el } from "./api.js";
import { t, tn } from "./i18n.js";
import { colourName } from "./gamewords.js";

/** Draw the chips of `v` (a position's view: POST /api/positions) into `box`. */
export function drawSeatChips(box, v) {
  box.replaceChildren();
  const variant = v.variant || "express";
  for (let i = 0; i < (v.players || 2); i++) {
    const c = COLOURS[i];
    const supply = (v.supplies || [])[i];
    const bits = [Number.isFinite(supply) ? tn("{n} marble left", "{n} marbles left", supply) : t("? marbles left")];
    if (variant !== "express") bits.push(tn("{n} point", "{n} points", (v.scores || [])[i] ?? 0));
    if ((v.skips || [])[i]) bits.push(tn("skips {n} time", "skips {n} times", v.skips[i]));
    const acting = !v.result && v.turn === c;
    box.append(
      el("div", { class: `seat-chip colour-${c}${acting ? " to-act" : ""}`, "data-colour": c },
        marbleIcon(c, 18),
        el("strong", { text: colourName(c) }),
        el("span", { class: "hint", text: bits.join(" · ") })),
    );
  }
}
