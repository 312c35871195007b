// What the board draws over the cells for a choice: the scoring choices of the score
// phase (a bar to click with 2 players, a "keep" marker on the end that stays with 3-4)
// and a suggested action. Mixed into BoardView (view.js): `this` is the board.
import { C, insertionHint, isInsertion, isScoring, scoringEnds, scoringLine } from "./geometry.js";
import { t, tn } from "../i18n.js";
import { svgEl as el } from "./svg.js";

/** A scoring choice's words: the line, the end kept (3-4 players), its points. */
function choiceWords(choice, a, b, keep) {
  const values = { a, b, action: choice.action };
  const counted = choice.points !== undefined && choice.points !== null;
  if (keep && counted) {
    return tn("Score the line {a} to {b}, keep {a}, {n} point ({action})", "Score the line {a} to {b}, keep {a}, {n} points ({action})", choice.points, values);
  }
  if (keep) return t("Score the line {a} to {b}, keep {a} ({action})", values);
  if (counted) return tn("Score the line {a} to {b}, {n} point ({action})", "Score the line {a} to {b}, {n} points ({action})", choice.points, values);
  return t("Score the line {a} to {b} ({action})", values);
}

/** BoardView's methods for choices and hints. */
export const Choices = {
  /**
   * A suggested action (the computer's best, say) drawn over the board in the hint style
   * (`.hint-arrow`, `data-hint`): an arrow from outside the entry cell along the push for
   * an insertion (`data-entry`, `data-reach`: the cells it starts and ends at), a bar
   * along the line for a scoring; `null` clears it. The layer is on
   * top and lets clicks through; `update()` keeps it.
   */
  setHint(action) {
    this.hint = action && (isInsertion(action) || isScoring(action)) ? action : null;
    if (!this.hintLayer) this.hintLayer = el("g", { class: "hints", "aria-hidden": "true", "pointer-events": "none" });
    this.svg.appendChild(this.hintLayer); // (again) the last layer: above marbles and arrows
    this.hintLayer.replaceChildren();
    if (!this.hint) return;
    const g = el("g", { class: "hint-arrow", "data-hint": this.hint }, this.hintLayer);
    let x1, y1, x2, y2;
    if (isInsertion(this.hint)) {
      // from the edge where the marble enters, as far as the push goes: never the whole
      // lane, which would read as a marble entering at the far end
      const pushes = (this.view && this.view.pushes) || {};
      const arrow = insertionHint(this.hint, pushes[this.hint], this.m, this.arrows);
      [[x1, y1], [x2, y2]] = [arrow.tail, arrow.tip];
      g.setAttribute("data-entry", arrow.entry);
      g.setAttribute("data-reach", arrow.reach);
    } else {
      const cells = scoringLine(this.hint);
      [x1, y1] = this.centre(cells[0]);
      [x2, y2] = this.centre(cells[cells.length - 1]);
    }
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    if (isInsertion(this.hint)) {
      const head = C * 0.42;
      const bx = x2 - ux * head;
      const by = y2 - uy * head;
      el("line", { x1, y1, x2: bx, y2: by, class: "hint-shaft" }, g);
      const w = C * 0.3;
      const pts = [[x2, y2], [bx - uy * w, by + ux * w], [bx + uy * w, by - ux * w]];
      el("polygon", { points: pts.map((p) => p.join(",")).join(" "), class: "hint-head" }, g);
    } else {
      el("line", { x1, y1, x2, y2, class: "hint-bar" }, g);
      for (const [x, y] of [[x1, y1], [x2, y2]]) el("circle", { cx: x, cy: y, r: C * 0.14, class: "hint-end" }, g);
    }
    const title = el("title", {}, g);
    title.textContent = t("Suggested: {action}", { action: this.hint });
  },

  /** One clickable element per scoring action: a bar (2 players) or a "keep" marker on the end that stays. */
  drawScoring(choices, players, active) {
    const seenLines = new Set();
    // under everything a choice draws, a wider disc round each "keep" marker that a tap
    // or click reaches too: the markers are 30-40 px on a tablet, under the 44 a finger
    // needs; drawn first, a marker itself always wins over a neighbour's disc
    const hits = players === 2 ? null : el("g", { class: "scoring-hits" }, this.scoreLayer);
    // how many "keep" markers sit on each kept end: several move further along their
    // lines and shrink, so that none covers another (a marker per line direction)
    const keptAt = new Map();
    for (const choice of choices) {
      const kept = scoringEnds(choice.action)[0];
      keptAt.set(kept, (keptAt.get(kept) || 0) + 1);
    }
    for (const choice of choices) {
      const cells = choice.cells && choice.cells.length ? choice.cells : scoringLine(choice.action);
      const key = [...cells].sort().join(",");
      const [a, b] = scoringEnds(choice.action);
      const zero = choice.points === 0;
      if (!seenLines.has(key)) {
        seenLines.add(key);
        const [x1, y1] = this.centre(cells[0]);
        const [x2, y2] = this.centre(cells[cells.length - 1]);
        if (players !== 2) {
          el("line", { x1, y1, x2, y2, class: `scoring-line${zero ? " zero" : ""}`, "aria-hidden": "true" }, this.scoreLayer);
        }
        if (choice.points !== undefined && choice.points !== null) {
          // the line's points, once, in its middle (0-point lines look apart)
          const label = el("g", { class: `points-label${zero ? " zero" : ""}`, "aria-hidden": "true", "data-points": choice.points }, this.scoreLayer);
          el("circle", { cx: (x1 + x2) / 2, cy: (y1 + y2) / 2, r: C * 0.24 }, label);
          el("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 + 5, "text-anchor": "middle" }, label).textContent = choice.points > 0 ? `+${choice.points}` : "0";
        }
      }
      let node;
      let words;
      if (players === 2) {
        words = choiceWords(choice, a, b, false);
        node = el("g", { class: "choice choice-line" }, this.scoreLayer);
        const [x1, y1] = this.centre(a);
        const [x2, y2] = this.centre(b);
        // a band around the line to click (a polygon: a bare line has an empty box)
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        const nx = (-(y2 - y1) / len) * C * 0.38;
        const ny = ((x2 - x1) / len) * C * 0.38;
        const ex = ((x2 - x1) / len) * C * 0.3;
        const ey = ((y2 - y1) / len) * C * 0.3;
        const band = [
          [x1 - ex + nx, y1 - ey + ny], [x2 + ex + nx, y2 + ey + ny],
          [x2 + ex - nx, y2 + ey - ny], [x1 - ex - nx, y1 - ey - ny],
        ];
        el("polygon", { points: band.map((q) => q.join(",")).join(" "), class: "hit-band" }, node);
        el("line", { x1, y1, x2, y2, class: `scoring-line${zero ? " zero" : ""}` }, node);
      } else {
        words = choiceWords(choice, a, b, true);
        node = el("g", { class: "choice choice-keep" }, this.scoreLayer);
        const [ax, ay] = this.centre(a);
        const [bx, by] = this.centre(b);
        const len = Math.hypot(bx - ax, by - ay) || 1;
        const crowded = keptAt.get(a) > 1;
        const off = C * (crowded ? 0.6 : 0.3);
        const x = ax + ((bx - ax) / len) * off;
        const y = ay + ((by - ay) / len) * off;
        const r = C * (crowded ? 0.2 : 0.26);
        el("circle", { cx: x, cy: y, r, class: "keep-marker" }, node);
        // a larger target for the pointer only: the marker's own element is the keyboard's
        // and the screen reader's (with a focus listener Chromium would make the disc a
        // nameless Tab stop)
        const disc = el("circle", { cx: x, cy: y, r: C * (crowded ? 0.3 : 0.45), class: "hit-disc", "data-hit": choice.action, tabindex: "-1", "aria-hidden": "true" }, hits);
        if (this.interactive) this.wire(disc, choice.action);
        const keepText = el("text", { x, y: y + 4.4, "text-anchor": "middle", class: "keep-text", "aria-hidden": "true" }, node);
        keepText.textContent = t("keep");
        // a longer word than the marker holds ("houden") is pressed to fit inside it
        const room = r * 1.8;
        if (keepText.getComputedTextLength() > room) {
          keepText.setAttribute("textLength", String(room));
          keepText.setAttribute("lengthAdjust", "spacingAndGlyphs");
        }
      }
      node.setAttribute("data-action", choice.action);
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", words);
      node.setAttribute("tabindex", "-1"); // the board's one Tab stop is set by rove()
      node.setAttribute("aria-disabled", active ? "false" : "true");
      node.setAttribute("data-legal", "true");
      const title = el("title", {}, node);
      title.textContent = words;
      node.insertBefore(title, node.firstChild);
      if (this.interactive) this.wire(node, choice.action);
    }
  },
};
