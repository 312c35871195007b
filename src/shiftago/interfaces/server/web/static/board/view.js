// The Shiftago board in the browser: an SVG drawn from a view the page makes of what
// the server sent (a position's board, its legal actions, the last action and its
// motion), with the 28 insertion arrows, marbles with a symbol per colour, highlights,
// push previews and the push animated. Drawing only: every rule is decided by the
// server. Input (input.js), motion (animation.js) and the choices drawn over the cells
// (choices.js) are mixed into the class here.
import { Animation } from "./animation.js";
import { Choices } from "./choices.js";
import { ARROWS, C, FILES, INSERTIONS, PAD, HIT_IN, HIT_OUT, LABELS, cellCentre, entryPoint, isInsertion, isScoring, laneCells, margin, scoringLine } from "./geometry.js";
import { Input, tapsLearned } from "./input.js";
import { t } from "../i18n.js";
import { MARBLE_FILL, colourName, marbleShape } from "./marbles.js";
import { svgEl as el } from "./svg.js";
import { boardWords, pushDescription } from "./pushwords.js";

/** An arrow's words: where its marble enters and which way it pushes. */
const ARROW_WORDS = {
  L: (action, cell) => t("{action}: insert at {cell}, push right", { action, cell }),
  R: (action, cell) => t("{action}: insert at {cell}, push left", { action, cell }),
  T: (action, cell) => t("{action}: insert at {cell}, push down", { action, cell }),
  B: (action, cell) => t("{action}: insert at {cell}, push up", { action, cell }),
};

/** A cell's words for a screen reader: what is on it, and what marks it. */
function cellWords(cell, colour, { win = false, last = null } = {}) {
  const what = colour ? t("{cell}: {colour} marble", { cell, colour: colourName(colour) }) : t("{cell}: empty", { cell });
  if (win && last) return t("{cell_words}, winning line, last action {action}", { cell_words: what, action: last });
  if (win) return t("{cell_words}, winning line", { cell_words: what });
  if (last) return t("{cell_words}, last action {action}", { cell_words: what, action: last });
  return what;
}

/** An arrow's words with its state: legal now or not, the last action or not. */
function arrowState(words, legal, last) {
  if (!legal && last) return t("{arrow} (not legal now) (last action)", { arrow: words });
  if (!legal) return t("{arrow} (not legal now)", { arrow: words });
  if (last) return t("{arrow} (last action)", { arrow: words });
  return words;
}

/** Views with the same key show the same position to play from: board, seat to act,
 *  phase, and whether this page may act. */
function positionKey(view) {
  const cells = [...(view.board || new Map()).entries()].map(([cell, colour]) => `${cell}${colour}`).sort();
  return `${cells.join(",")} ${view.turn} ${view.phase} ${view.active ? 1 : 0}`;
}

/**
 * The board. `update(view)` draws a view:
 *   board: Map cell -> colour         players: 2-4
 *   turn: colour to act (for the arrows' colour)
 *   legal: Set of legal actions        active: whether this page may play now
 *   tryable: Set of actions that may be chosen though not legal (optional; a lesson
 *     lets the player try a full lane to hear why it is refused): drawn as not legal
 *   last: the last action or null      lastBoard: the board before it (for the scored ghosts)
 *   motion: the last action's motion (GAME `motion`: the cells a scoring emptied)
 *   pushes: the marbles each legal insertion shifts (GAME `pushes`, for previews)
 *   scoring: [{action, cells, removed, points}] in the score phase
 *   winLine: cells of the winning line  highlight: cells to tint
 * `onAction(action)` is called when a legal action is chosen (click, tap twice, Enter).
 */
export class BoardView {
  constructor(container, { arrows = true, interactive = true, onAction = null, label = t("Shiftago board"), picture = false } = {}) {
    this.arrows = arrows;
    this.picture = picture; // a still picture: one image, its label its only words
    this.interactive = interactive;
    this.onAction = onAction;
    this.m = margin(arrows);
    this.total = 7 * C + 2 * this.m;
    this.view = null;
    this.previewed = null;
    this.armed = null; // the action a first tap previewed on a touch screen
    this.lastPointer = "mouse";
    this.placingFocus = false; // the page, not the player, moves the focus now
    this.roving = null; // the action whose element is the board's Tab stop (input.js)

    const svg = el("svg", {
      viewBox: `0 0 ${this.total} ${this.total}`,
      class: "shiftago-board",
      role: "group",
      "aria-label": label,
      "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif",
    });
    this.svg = svg;
    this.titleNode = el("title", {}, svg);
    this.titleNode.textContent = label;
    el("rect", {
      x: this.m - PAD, y: this.m - PAD, width: 7 * C + 2 * PAD, height: 7 * C + 2 * PAD,
      rx: 10, class: "frame",
    }, svg);
    this.cellLayer = el("g", { class: "cells" }, svg);
    this.cells = new Map();
    for (let r = 1; r <= 7; r++) {
      for (const f of FILES) {
        const name = f + r;
        const [x, y] = this.corner(name);
        const rect = el("rect", {
          x: x + 1, y: y + 1, width: C - 2, height: C - 2, rx: 4,
          class: "cell", "data-cell": name, role: "img", "aria-label": cellWords(name, null),
        }, this.cellLayer);
        this.cells.set(name, rect);
      }
    }
    this.lineLayer = el("g", { class: "lines", "aria-hidden": "true" }, svg);
    this.marbleLayer = el("g", { class: "marbles", "aria-hidden": "true" }, svg);
    this.ghostLayer = el("g", { class: "ghosts", "aria-hidden": "true" }, svg);
    this.coords(svg);
    this.arrowNodes = new Map();
    if (arrows) this.buildArrows(el("g", { class: "arrows" }, svg));
    this.scoreLayer = el("g", { class: "scoring-choices" }, svg);
    container.appendChild(svg);
    // on a touch screen a first tap only previews: this line says so, under the board
    this.tapHint = document.createElement("p");
    this.tapHint.className = "tap-hint";
    this.tapHint.hidden = true;
    this.tapHint.setAttribute("role", "status");
    this.tapHint.dataset.testid = "tap-hint";
    container.appendChild(this.tapHint);
    if (picture) {
      // one image with a short label, or none where the words beside it say it all:
      // a screen reader met 49 cell images in each small board (a blind player's walk)
      svg.setAttribute("role", "img");
      if (!label) svg.setAttribute("aria-hidden", "true");
      for (const part of svg.children) part.setAttribute("aria-hidden", "true");
    }
  }

  /** Say that a second tap plays the action the first one previewed; on a touch screen,
   * before any action was played by taps here and while one is playable, say so before
   * the first tap too. */
  showTapHint() {
    const action = this.armed;
    const touch = !!globalThis.matchMedia?.("(pointer: coarse)").matches;
    const teach = !action && touch && !tapsLearned() && this.focusables().length > 0;
    const words = action ? t("Tap {action} again to play it.", { action }) : teach ? t("Tap once to see what an action does, twice to play it.") : "";
    this.tapHint.hidden = !words;
    // the same words are not set again: a status line would say them at every redraw
    if (this.tapHint.textContent !== words) this.tapHint.textContent = words;
  }

  corner(cell) {
    const f = FILES.indexOf(cell[0]);
    const r = +cell[1] - 1;
    return [this.m + C * f, this.m + C * (6 - r)];
  }

  centre(cell) {
    return cellCentre(cell, this.m);
  }

  /** The middle of an insertion's arrow, outside the board. */
  arrowPoint(action) {
    return entryPoint(action, this.m, true);
  }

  coords(svg) {
    const gap = PAD + (this.arrows ? ARROWS : 0) + LABELS / 2;
    const g = el("g", { class: "coords", "aria-hidden": "true" }, svg);
    for (let r = 1; r <= 7; r++) {
      const [, cy] = this.centre("a" + r);
      el("text", { x: this.m - gap, y: cy + 6, "text-anchor": "middle", class: "coord" }, g).textContent = String(r);
    }
    const bottom = this.m + 7 * C;
    for (const f of FILES) {
      const [cx] = this.centre(f + "1");
      el("text", { x: cx, y: bottom + gap + 6, "text-anchor": "middle", class: "coord" }, g).textContent = f;
    }
  }

  buildArrows(layer) {
    for (const action of INSERTIONS) {
      const side = action[0];
      const [cx, cy] = this.arrowPoint(action);
      const [ux, uy] = { L: [1, 0], R: [-1, 0], T: [0, 1], B: [0, -1] }[side];
      const h = ARROWS * 0.62;
      const w = C * 0.46;
      // The hit area: the lane's width, and deep from just outside the arrow to a
      // little into the entry cell (at least 44 CSS px each way on a phone).
      const depth = ARROWS + PAD + HIT_OUT + HIT_IN;
      const [hw, hh] = "LR".includes(side) ? [depth, C] : [C, depth];
      const shift = (HIT_IN + PAD - HIT_OUT) / 2; // the hit area's middle, towards the board
      const [hx, hy] = [cx + ux * shift, cy + uy * shift];
      const tip = [cx + (ux * h) / 2, cy + (uy * h) / 2];
      const back = [cx - (ux * h) / 2, cy - (uy * h) / 2];
      const left = [back[0] - (uy * w) / 2, back[1] + (ux * w) / 2];
      const right = [back[0] + (uy * w) / 2, back[1] - (ux * w) / 2];
      const entry = laneCells(action)[0];
      const g = el("g", {
        class: "arrow", "data-action": action, "data-legal": "false", role: "button",
        "aria-disabled": "true", tabindex: "-1",
      }, layer);
      const title = el("title", {}, g);
      g._words = ARROW_WORDS[side](action, entry);
      title.textContent = g._words;
      g.setAttribute("aria-label", g._words);
      el("rect", { x: hx - hw / 2, y: hy - hh / 2, width: hw, height: hh, class: "hit", rx: 6 }, g);
      el("polygon", { points: [tip, left, right].map((p) => p.join(",")).join(" "), class: "tri" }, g);
      this.wire(g, action);
      this.arrowNodes.set(action, g);
    }
  }


  marblePlace(node, cell) {
    const [x, y] = this.centre(cell);
    node.style.transform = `translate(${x}px, ${y}px)`;
  }

  drawMarble(colour, cell, parent = this.marbleLayer) {
    const g = el("g", { class: `marble colour-${colour}`, "data-cell": cell, "data-colour": colour }, parent);
    marbleShape(colour, C * 0.4, g);
    if (cell) this.marblePlace(g, cell);
    return g;
  }

  /** Draw a view; `animate` (the action that led here, the board before it and the
   * action's motion as the server sent it) slides marbles in. */
  update(view, { animate = null } = {}) {
    // A redraw of the same position (a presence or clock event) keeps what the player
    // is previewing, and a touch screen's first tap stays armed for the second.
    const kept = { action: this.previewed, armed: this.armed };
    const same = !animate && this.view && positionKey(this.view) === positionKey(view);
    this.clearPreview();
    this.view = view;
    const board = view.board || new Map();
    const players = view.players || 2;
    const last = view.last || null;
    if (!this.picture) this.svg.setAttribute("aria-description", boardWords(board, players));
    // the cells the last scoring emptied, as the server says (GAME `motion`)
    const lastRemoved = (last && isScoring(last) && view.motion && view.motion.removed) || [];
    const lane = new Set();
    const marked = new Set();
    if (last && isInsertion(last)) {
      laneCells(last).forEach((c) => lane.add(c));
      marked.add(laneCells(last)[0]);
    } else if (last && isScoring(last)) {
      scoringLine(last).forEach((c) => lane.add(c));
      lastRemoved.forEach((c) => marked.add(c));
    }
    const lit = new Set(view.highlight || []);
    for (const c of view.scoring || []) c.cells.forEach((x) => lit.add(x));
    const win = new Set(view.winLine || []);

    for (const [name, rect] of this.cells) {
      const cls = ["cell"];
      if (lane.has(name)) cls.push("last-lane");
      if (lit.has(name)) cls.push("highlight");
      if (marked.has(name)) cls.push("last");
      if (win.has(name)) cls.push("win");
      rect.setAttribute("class", cls.join(" "));
      const colour = board.get(name);
      const words = cellWords(name, colour, { win: win.has(name), last: marked.has(name) ? last : null });
      rect.setAttribute("aria-label", words);
    }

    // lines: the last scoring, the winning line
    this.lineLayer.replaceChildren();
    this.ghostLayer.replaceChildren();
    if (last && isScoring(last)) {
      const cells = scoringLine(last);
      this.bar(cells, "last-scoring-bar");
      const before = view.lastBoard;
      for (const c of lastRemoved) {
        const colour = before ? before.get(c) : board.get(cells[0]); // the end written first stays
        const ghost = this.drawMarble(colour || "o", c, this.ghostLayer);
        ghost.setAttribute("class", "ghost removed");
      }
    }
    if (view.winLine && view.winLine.length > 1) this.bar(view.winLine, "win-bar");

    // marbles
    this.marbleLayer.replaceChildren();
    const placed = [];
    for (const [cell, colour] of board) placed.push([this.drawMarble(colour, cell), cell]);
    this.animate(animate, placed);

    // arrows
    const arrowFill = view.phase === "insert" ? MARBLE_FILL[view.turn] : null;
    for (const [action, g] of this.arrowNodes) {
      const legal = !!(view.legal && view.legal.has(action));
      const playable = this.canPlay(action);
      g.setAttribute("data-legal", legal ? "true" : "false");
      g.setAttribute("aria-disabled", playable ? "false" : "true");
      const cls = ["arrow", legal ? "legal" : "illegal"];
      if (playable) cls.push("active");
      if (action === last) cls.push("last");
      g.setAttribute("class", cls.join(" "));
      const tri = g.querySelector(".tri");
      // the colour of the mover only on the screen that may play now; neutral elsewhere
      tri.style.fill = action === last ? "" : legal && playable && arrowFill ? arrowFill : "";
      const words = arrowState(g._words, legal, action === last);
      g.setAttribute("aria-label", words);
      g.querySelector("title").textContent = words;
      // what the push would move, said after the name: the preview a sighted player sees
      const moves = legal && view.pushes ? view.pushes[action] : undefined;
      if (moves) g.setAttribute("aria-description", pushDescription(moves, board));
      else g.removeAttribute("aria-description");
    }

    // scoring choices (a focused one is drawn anew: the keyboard's place stays on the
    // board, on the same choice or the first playable element, not on the page's body;
    // the board itself holds it while nothing is playable, as while an action is sent)
    const active = document.activeElement;
    const focused = this.scoreLayer.contains(active) || active === this.svg ? active : null;
    this.scoreLayer.replaceChildren();
    const choices = view.scoring || [];
    if (choices.length) this.drawScoring(choices, players, !!view.active && this.interactive);
    this.rove();
    if (focused) this.refocus(focused.getAttribute("data-action"));
    if (this.hint) this.setHint(this.hint); // the hint stays on top of what was drawn
    if (same && kept.action && this.canPlay(kept.action)) {
      this.preview(kept.action);
      this.armed = kept.armed;
    }
    this.showTapHint();
  }

  bar(cells, cls) {
    const [x1, y1] = this.centre(cells[0]);
    const [x2, y2] = this.centre(cells[cells.length - 1]);
    return el("line", { x1, y1, x2, y2, class: cls }, this.lineLayer);
  }

}

Object.assign(BoardView.prototype, Input, Animation, Choices);
