// The Shiftago board in the browser: an SVG drawn from a position, with the 28
// insertion arrows, marbles with a symbol per colour, highlights, push previews and
// the push animated. Drawing only: every rule is decided by the server; the geometry
// here (which marbles a push moves, which cells a scoring empties) is only used to
// show what an action the server offered will look like.

const SVG = "http://www.w3.org/2000/svg";

export const FILES = "abcdefg";
export const COLOURS = ["o", "g", "b", "w"];
export const COLOUR_NAMES = { o: "orange", g: "green", b: "blue", w: "white" };
export const MARBLE_FILL = { o: "#f08a24", g: "#2e9e4f", b: "#2f6bd8", w: "#fafafa" };
export const SYMBOLS = { o: "none", g: "ring", b: "dot", w: "cross" };
const SYMBOL_INK = { o: "#ffffff", g: "#ffffff", b: "#ffffff", w: "#222222" };
const SIDE_WORDS = { L: "right", R: "left", T: "down", B: "up" };

// Layout in user units, as the Python SVG board (formats/svg_board.py).
const C = 60;
const PAD = 8;
const LABELS = 22;
const ARROWS = 34;
const HIT_OUT = 4; // how far an arrow's hit area reaches beyond the arrow, outwards
const HIT_IN = 16; // and into the board's first cell

export const INSERTIONS = [];
for (const side of "LR") for (let r = 1; r <= 7; r++) INSERTIONS.push(side + r);
for (const side of "TB") for (const f of FILES) INSERTIONS.push(side + f);

/** The cells of an insertion's lane, entry cell first. */
export function laneCells(action) {
  const side = action[0].toUpperCase();
  const lane = action.slice(1).toLowerCase();
  const out = [];
  for (let i = 0; i < 7; i++) {
    if (side === "L") out.push(FILES[i] + lane);
    else if (side === "R") out.push(FILES[6 - i] + lane);
    else if (side === "T") out.push(lane + (7 - i));
    else out.push(lane + (i + 1));
  }
  return out;
}

export function isInsertion(action) {
  return /^[LRTB][a-g1-7]$/i.test(action || "");
}

export function isScoring(action) {
  return /^x[a-g][1-7]-[a-g][1-7]$/i.test(action || "");
}

/** The cells from one end of a straight line to the other, both ends included. */
export function lineCells(from, to) {
  const f0 = FILES.indexOf(from[0]);
  const r0 = +from[1];
  const f1 = FILES.indexOf(to[0]);
  const r1 = +to[1];
  const n = Math.max(Math.abs(f1 - f0), Math.abs(r1 - r0));
  const df = Math.sign(f1 - f0);
  const dr = Math.sign(r1 - r0);
  const out = [];
  for (let i = 0; i <= n; i++) out.push(FILES[f0 + i * df] + (r0 + i * dr));
  return out;
}

/** A scoring action's line and the cells it empties (2 players keep both ends). */
export function scoringCells(action, players) {
  const [a, b] = action.toLowerCase().slice(1).split("-");
  const cells = lineCells(a, b);
  const removed = players === 2 ? cells.slice(1, -1) : cells.slice(1);
  return { cells, removed, keep: players === 2 ? [a, b] : [a] };
}

/** The position string of PROTOCOL.md as an object; the board a Map cell -> colour. */
export function parsePosition(text) {
  const f = String(text || "").trim().split(/\s+/);
  if (f.length !== 8) return null;
  const board = new Map();
  const ranks = f[2].split("/");
  ranks.forEach((row, i) => {
    const rank = 7 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-7]/.test(ch)) file += +ch;
      else {
        board.set(FILES[file] + rank, ch);
        file += 1;
      }
    }
  });
  const nums = (s) => s.split(",").map(Number);
  return {
    variant: f[0],
    players: +f[1],
    board,
    turn: f[3],
    phase: f[4],
    supplies: nums(f[5]),
    scores: nums(f[6]),
    skips: nums(f[7]),
  };
}

/** Where a push moves marbles: [{from, to}], the new marble entering at the entry cell. */
export function pushMoves(board, action) {
  const lane = laneCells(action);
  const gap = lane.findIndex((c) => !board.has(c));
  if (gap < 0) return null;
  const moves = [];
  for (let i = gap - 1; i >= 0; i--) moves.push({ from: lane[i], to: lane[i + 1] });
  return { moves, entry: lane[0] };
}

/** Views with the same key show the same position to play from: board, seat to act,
 *  phase, and whether this page may act. */
function positionKey(view) {
  const cells = [...(view.board || new Map()).entries()].map(([cell, colour]) => `${cell}${colour}`).sort();
  return `${cells.join(",")} ${view.turn} ${view.phase} ${view.active ? 1 : 0}`;
}

/** The board after a push (for previews and replays of boards only). */
export function applyPush(board, action, colour) {
  const push = pushMoves(board, action);
  if (!push) return board;
  const next = new Map(board);
  for (const { from, to } of push.moves) next.set(to, board.get(from));
  next.set(push.entry, colour);
  return next;
}

export function applyScoring(board, action, players) {
  const next = new Map(board);
  for (const c of scoringCells(action, players).removed) next.delete(c);
  return next;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

function margin(arrows) {
  return PAD + LABELS + (arrows ? ARROWS : 0) + 6;
}

/** A marble (group centred on 0,0) with its colour's symbol. */
export function marbleShape(colour, r = C * 0.4, parent = null) {
  const g = el("g", { class: `marble-shape colour-${colour}` }, parent);
  el("circle", { r, fill: MARBLE_FILL[colour] || "#888", stroke: "#1e1e1e", "stroke-width": 2.5, class: "body" }, g);
  const ink = SYMBOL_INK[colour] || "#fff";
  const symbol = SYMBOLS[colour];
  if (symbol === "ring") {
    el("circle", { r: r * 0.5, fill: "none", stroke: ink, "stroke-width": 3.5 * (r / (C * 0.4)) }, g);
  } else if (symbol === "dot") {
    el("circle", { r: r * 0.3, fill: ink }, g);
  } else if (symbol === "cross") {
    const d = r * 0.42;
    el("path", {
      d: `M${-d} ${-d}L${d} ${d}M${-d} ${d}L${d} ${-d}`,
      stroke: ink,
      "stroke-width": 3.5 * (r / (C * 0.4)),
      "stroke-linecap": "round",
      fill: "none",
    }, g);
  }
  return g;
}

/** A small standalone marble icon (for player panels and lists). */
export function marbleIcon(colour, size = 22) {
  const svg = el("svg", { viewBox: "-26 -26 52 52", width: size, height: size, class: "marble-icon", "aria-hidden": "true", focusable: "false" });
  marbleShape(colour, 22, svg);
  return svg;
}

function reducedMotion() {
  return (
    document.documentElement.classList.contains("reduced-motion") ||
    (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)
  );
}

/**
 * The board. `update(view)` draws a view:
 *   board: Map cell -> colour         players: 2-4
 *   turn: colour to act (for the arrows' colour)
 *   legal: Set of legal actions        active: whether this page may play now
 *   last: the last action or null      lastBoard: the board before it (for the scored ghosts)
 *   scoring: [{action, cells, removed, points}] in the score phase
 *   winLine: cells of the winning line  highlight: cells to tint
 * `onAction(action)` is called when a legal action is chosen (click, tap twice, Enter).
 */
export class BoardView {
  constructor(container, { arrows = true, interactive = true, onAction = null, label = "Shiftago board" } = {}) {
    this.arrows = arrows;
    this.interactive = interactive;
    this.onAction = onAction;
    this.m = margin(arrows);
    this.total = 7 * C + 2 * this.m;
    this.view = null;
    this.previewed = null;
    this.armed = null; // the action a first tap previewed on a touch screen
    this.lastPointer = "mouse";
    this.placingFocus = false; // the page, not the player, moves the focus now

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
          class: "cell", "data-cell": name, role: "img", "aria-label": `${name}: empty`,
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
  }

  corner(cell) {
    const f = FILES.indexOf(cell[0]);
    const r = +cell[1] - 1;
    return [this.m + C * f, this.m + C * (6 - r)];
  }

  centre(cell) {
    const [x, y] = this.corner(cell);
    return [x + C / 2, y + C / 2];
  }

  /** The middle of an insertion's arrow, outside the board. */
  arrowPoint(action) {
    const side = action[0];
    const [ex, ey] = this.centre(laneCells(action)[0]);
    const low = this.m - PAD - ARROWS / 2;
    const high = this.m + 7 * C + PAD + ARROWS / 2;
    if (side === "L") return [low, ey];
    if (side === "R") return [high, ey];
    if (side === "T") return [ex, low];
    return [ex, high];
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
      g._words = `${action}: insert at ${entry}, push ${SIDE_WORDS[side]}`;
      title.textContent = g._words;
      g.setAttribute("aria-label", g._words);
      el("rect", { x: hx - hw / 2, y: hy - hh / 2, width: hw, height: hh, class: "hit", rx: 6 }, g);
      el("polygon", { points: [tip, left, right].map((p) => p.join(",")).join(" "), class: "tri" }, g);
      this.wire(g, action);
      this.arrowNodes.set(action, g);
    }
  }

  /** Mouse, touch and keyboard on an element that stands for an action. */
  wire(node, action) {
    node.addEventListener("pointerdown", (e) => {
      this.lastPointer = e.pointerType || "mouse";
    });
    node.addEventListener("pointerenter", (e) => {
      if (e.pointerType === "mouse") this.preview(action);
    });
    node.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "mouse" && this.previewed === action) this.clearPreview();
    });
    // a focus the player moved previews; one the page moved after a redraw does not
    // (after a scoring it lands on the first arrow: a push nobody chose would show)
    node.addEventListener("focus", () => {
      if (!this.placingFocus) this.preview(action);
    });
    node.addEventListener("blur", () => {
      if (this.previewed === action) this.clearPreview();
    });
    node.addEventListener("click", (e) => {
      e.preventDefault();
      if (!this.canPlay(action)) return;
      // On a touch screen the first tap previews and the second plays. The tap's focus
      // already previews, so "armed" (not "previewed") marks the tap that previewed.
      if (this.lastPointer === "touch" && this.armed !== action) {
        this.preview(action);
        this.armed = action;
        return;
      }
      this.armed = null;
      this.lastPointer = "mouse";
      this.choose(action);
    });
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        if (this.canPlay(action)) this.choose(action);
      } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(e.key)) {
        e.preventDefault();
        this.moveFocus(node, e.key);
      } else if (e.key === "Escape") {
        this.clearPreview();
      }
    });
  }

  canPlay(action) {
    const v = this.view;
    return !!(v && this.interactive && v.active && v.legal && v.legal.has(action));
  }

  choose(action) {
    this.clearPreview();
    if (this.onAction) this.onAction(action);
  }

  /** The focusable action elements in reading order around the board. */
  focusables() {
    return [...this.svg.querySelectorAll('[data-action][tabindex="0"]')];
  }

  /** Focus the next action along the line of `from` (its row for Left and Right, its
   * column for Up and Down) in the direction of the arrow `key`; at the line's end, the
   * first one of the next line, as a text's cursor goes: Right goes on at the left end
   * of the row below, Left at the right end of the row above, Down at the top of the
   * column to the right, Up at the bottom of the column to the left; after the last
   * line, the first again. So one key held down visits every action. */
  moveFocus(from, key) {
    const list = this.focusables();
    if (!list.length) return;
    const [dx, dy] = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
    const centre = (node) => {
      const r = node.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    };
    const [x, y] = centre(from);
    let next = null;
    let nearest = Infinity;
    for (const node of list) {
      const [nx, ny] = centre(node);
      const along = (nx - x) * dx + (ny - y) * dy;
      const across = Math.abs((nx - x) * dy) + Math.abs((ny - y) * dx);
      if (node !== from && along >= 1 && across < 1 && along < nearest) [next, nearest] = [node, along];
    }
    if (!next) next = this.nextLine(list.map((node) => [node, centre(node)]), [x, y], dx, dy);
    if (next) next.focus();
  }

  /** The first action of the line after the one at `[x, y]` for the direction
   * `(dx, dy)` (see `moveFocus`); `placed` holds each action with its centre. */
  nextLine(placed, [x, y], dx, dy) {
    // across: the distance towards the next line (down for Right, up for Left, right
    // for Down, left for Up); along: the position in the line, in the key's direction
    const across = ([nx, ny]) => (dx ? (ny - y) * dx : (nx - x) * dy);
    const along = ([nx, ny]) => nx * dx + ny * dy;
    const later = placed.filter(([, c]) => across(c) >= 1);
    const pool = later.length ? later : placed;
    const line = Math.min(...pool.map(([, c]) => across(c)));
    const inLine = pool.filter(([, c]) => across(c) < line + 1);
    inLine.sort((a, b) => along(a[1]) - along(b[1]));
    return inLine.length ? inLine[0][0] : null;
  }

  /** Focus the first playable element (keyboard users start here). */
  focusFirst() {
    const list = this.focusables();
    if (list.length) list[0].focus();
  }

  /** After a redraw took the focused element away: focus the element of `action` if it
   * is there again, else the first playable one, else the board itself. */
  refocus(action) {
    const again = this.svg.querySelector(`[data-action="${action}"][tabindex="0"]`);
    const target = again || this.focusables()[0];
    if (target) {
      this.placingFocus = true;
      try {
        target.focus({ preventScroll: true });
      } finally {
        this.placingFocus = false;
      }
      return;
    }
    if (!this.svg.hasAttribute("tabindex")) this.svg.setAttribute("tabindex", "-1");
    this.svg.focus({ preventScroll: true });
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

  /** Draw a view; `animate` (the action that led here, and the board before it) slides marbles in. */
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
    const lane = new Set();
    const marked = new Set();
    if (last && isInsertion(last)) {
      laneCells(last).forEach((c) => lane.add(c));
      marked.add(laneCells(last)[0]);
    } else if (last && isScoring(last)) {
      const s = scoringCells(last, players);
      s.cells.forEach((c) => lane.add(c));
      s.removed.forEach((c) => marked.add(c));
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
      let words = `${name}: ${colour ? COLOUR_NAMES[colour] + " marble" : "empty"}`;
      if (win.has(name)) words += ", winning line";
      if (marked.has(name) && last) words += `, last action ${last}`;
      rect.setAttribute("aria-label", words);
    }

    // lines: the last scoring, the winning line
    this.lineLayer.replaceChildren();
    this.ghostLayer.replaceChildren();
    if (last && isScoring(last)) {
      const s = scoringCells(last, players);
      this.bar(s.cells, "last-scoring-bar");
      const before = view.lastBoard;
      for (const c of s.removed) {
        const colour = before ? before.get(c) : board.get(s.keep[0]);
        const ghost = this.drawMarble(colour || "o", c, this.ghostLayer);
        ghost.setAttribute("class", "ghost removed");
      }
    }
    if (view.winLine && view.winLine.length > 1) this.bar(view.winLine, "win-bar");

    // marbles
    this.marbleLayer.replaceChildren();
    const moving = [];
    const push = animate && isInsertion(animate.action) && animate.board ? pushMoves(animate.board, animate.action) : null;
    const movedTo = new Map();
    if (push) for (const m of push.moves) movedTo.set(m.to, m.from);
    for (const [cell, colour] of board) {
      const node = this.drawMarble(colour, cell);
      if (push && movedTo.has(cell)) {
        moving.push([node, cell]);
        this.marblePlace(node, movedTo.get(cell));
      } else if (push && cell === push.entry) {
        moving.push([node, cell]);
        const [x, y] = this.arrowPoint(animate.action);
        node.style.transform = `translate(${x}px, ${y}px)`;
        node.classList.add("entering");
      }
    }
    if (animate && isScoring(animate.action) && animate.board) {
      for (const c of scoringCells(animate.action, players).removed) {
        const colour = animate.board.get(c);
        if (!colour) continue;
        const node = this.drawMarble(colour, c, this.ghostLayer);
        node.classList.add("leaving");
        setTimeout(() => node.remove(), reducedMotion() ? 0 : 700);
      }
    }
    if (moving.length) {
      if (reducedMotion()) {
        for (const [node, cell] of moving) this.marblePlace(node, cell);
      } else {
        this.svg.getBoundingClientRect(); // commit the start positions
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            for (const [node, cell] of moving) this.marblePlace(node, cell);
          }),
        );
      }
    }

    // arrows
    const arrowFill = view.phase === "insert" ? MARBLE_FILL[view.turn] : null;
    for (const [action, g] of this.arrowNodes) {
      const legal = !!(view.legal && view.legal.has(action));
      const playable = legal && this.interactive && !!view.active;
      g.setAttribute("data-legal", legal ? "true" : "false");
      g.setAttribute("aria-disabled", playable ? "false" : "true");
      g.setAttribute("tabindex", playable ? "0" : "-1");
      const cls = ["arrow", legal ? "legal" : "illegal"];
      if (playable) cls.push("active");
      if (action === last) cls.push("last");
      g.setAttribute("class", cls.join(" "));
      const tri = g.querySelector(".tri");
      // the colour of the mover only on the screen that may play now; neutral elsewhere
      tri.style.fill = action === last ? "" : playable && arrowFill ? arrowFill : "";
      const words = g._words + (legal ? "" : " (not legal now)") + (action === last ? " (last action)" : "");
      g.setAttribute("aria-label", words);
      g.querySelector("title").textContent = words;
    }

    // scoring choices (a focused one is drawn anew: the keyboard's place stays on the
    // board, on the same choice or the first playable element, not on the page's body;
    // the board itself holds it while nothing is playable, as while an action is sent)
    const active = document.activeElement;
    const focused = this.scoreLayer.contains(active) || active === this.svg ? active : null;
    this.scoreLayer.replaceChildren();
    const choices = view.scoring || [];
    if (choices.length) this.drawScoring(choices, players, !!view.active && this.interactive);
    if (focused) this.refocus(focused.getAttribute("data-action"));
    if (this.hint) this.setHint(this.hint); // the hint stays on top of what was drawn
    if (same && kept.action && this.canPlay(kept.action)) {
      this.preview(kept.action);
      this.armed = kept.armed;
    }
  }

  bar(cells, cls) {
    const [x1, y1] = this.centre(cells[0]);
    const [x2, y2] = this.centre(cells[cells.length - 1]);
    return el("line", { x1, y1, x2, y2, class: cls }, this.lineLayer);
  }

  /**
   * A suggested action (the computer's best, say) drawn over the board in the hint style
   * (`.hint-arrow`, `data-hint`): an arrow from outside the entry cell across the lane for
   * an insertion, a bar along the line for a scoring; `null` clears it. The layer is on
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
      const lane = laneCells(this.hint);
      [x1, y1] = this.arrows ? this.arrowPoint(this.hint) : this.centre(lane[0]);
      [x2, y2] = this.centre(lane[lane.length - 1]);
    } else {
      const cells = scoringCells(this.hint, (this.view && this.view.players) || 2).cells;
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
    title.textContent = `Suggested: ${this.hint}`;
  }

  /** One clickable element per scoring action: a bar (2 players) or a "keep" marker on the end that stays. */
  drawScoring(choices, players, active) {
    const seenLines = new Set();
    // how many "keep" markers sit on each kept end: several move further along their
    // lines and shrink, so that none covers another (a marker per line direction)
    const keptAt = new Map();
    for (const choice of choices) {
      const kept = choice.action.toLowerCase().slice(1).split("-")[0];
      keptAt.set(kept, (keptAt.get(kept) || 0) + 1);
    }
    for (const choice of choices) {
      const cells = choice.cells && choice.cells.length ? choice.cells : scoringCells(choice.action, players).cells;
      const key = [...cells].sort().join(",");
      const [a, b] = choice.action.toLowerCase().slice(1).split("-");
      const pts = choice.points !== undefined ? `, ${choice.points} point${choice.points === 1 ? "" : "s"}` : "";
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
        words = `Score the line ${a} to ${b}${pts} (${choice.action})`;
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
        words = `Score the line ${a} to ${b}, keep ${a}${pts} (${choice.action})`;
        node = el("g", { class: "choice choice-keep" }, this.scoreLayer);
        const [ax, ay] = this.centre(a);
        const [bx, by] = this.centre(b);
        const len = Math.hypot(bx - ax, by - ay) || 1;
        const crowded = keptAt.get(a) > 1;
        const off = C * (crowded ? 0.6 : 0.3);
        const x = ax + ((bx - ax) / len) * off;
        const y = ay + ((by - ay) / len) * off;
        el("circle", { cx: x, cy: y, r: C * (crowded ? 0.2 : 0.26), class: "keep-marker" }, node);
        const t = el("text", { x, y: y + 3.5, "text-anchor": "middle", class: "keep-text", "aria-hidden": "true" }, node);
        t.textContent = "keep";
      }
      node.setAttribute("data-action", choice.action);
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", words);
      node.setAttribute("tabindex", active ? "0" : "-1");
      node.setAttribute("aria-disabled", active ? "false" : "true");
      node.setAttribute("data-legal", "true");
      const title = el("title", {}, node);
      title.textContent = words;
      node.insertBefore(title, node.firstChild);
      if (this.interactive) this.wire(node, choice.action);
    }
  }

  /** Show what an action would do, without doing it. */
  preview(action) {
    this.clearPreview();
    const v = this.view;
    if (!v || !v.legal || !v.legal.has(action)) return;
    this.previewed = action;
    this.svg.classList.add("previewing");
    const board = v.board;
    if (isInsertion(action)) {
      const push = pushMoves(board, action);
      if (!push) return;
      for (const { from, to } of push.moves) {
        const node = this.marbleLayer.querySelector(`[data-cell="${from}"]`);
        if (node) {
          this.marblePlace(node, to);
          node.classList.add("shifted");
        }
      }
      const ghost = this.drawMarble(v.turn, push.entry, this.ghostLayer);
      ghost.classList.add("preview-new");
      ghost.setAttribute("data-preview", action);
      const arrow = this.arrowNodes.get(action);
      if (arrow) arrow.classList.add("previewed");
      for (const c of laneCells(action)) this.cells.get(c).classList.add("preview-lane");
    } else if (isScoring(action)) {
      const choice = (v.scoring || []).find((c) => c.action === action);
      const removed = choice && choice.removed ? choice.removed : scoringCells(action, v.players).removed;
      for (const c of removed) {
        const node = this.marbleLayer.querySelector(`[data-cell="${c}"]`);
        if (node) node.classList.add("to-remove");
      }
      const node = this.scoreLayer.querySelector(`[data-action="${action}"]`);
      if (node) node.classList.add("previewed");
    }
  }

  clearPreview() {
    this.armed = null;
    if (!this.previewed) return;
    this.previewed = null;
    this.svg.classList.remove("previewing");
    for (const node of this.marbleLayer.querySelectorAll(".shifted")) {
      node.classList.remove("shifted");
      this.marblePlace(node, node.getAttribute("data-cell"));
    }
    for (const node of this.marbleLayer.querySelectorAll(".to-remove")) node.classList.remove("to-remove");
    for (const node of this.ghostLayer.querySelectorAll(".preview-new")) node.remove();
    for (const node of this.svg.querySelectorAll(".previewed")) node.classList.remove("previewed");
    for (const rect of this.cells.values()) rect.classList.remove("preview-lane");
  }
}

/** A small picture for the how-to page: a position string or {cell: colour}, with marks. */
export function drawPicture(container, { position, cells, players = 2, last = null, lastBoard = null, highlight = [], winLine = [], scoring = [], arrows = false, legal = [], turn = null, label = "" }) {
  let board;
  if (position) board = parsePosition(position).board;
  else board = new Map(Object.entries(cells || {}));
  const view = new BoardView(container, { arrows, interactive: false, label });
  view.svg.classList.add("picture");
  view.update({
    board,
    players,
    last,
    lastBoard: lastBoard ? new Map(Object.entries(lastBoard)) : null,
    highlight,
    winLine,
    scoring,
    legal: new Set(legal),
    active: false,
    turn,
    phase: "insert",
  });
  return view;
}
