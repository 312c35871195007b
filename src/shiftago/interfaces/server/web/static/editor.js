// The analysis board's position editor: marbles placed and removed by clicking cells,
// whose turn, variant, players, supplies, scores and skips; "Use this position" hands
// the position string to the page, which asks the server. The editor checks nothing:
// the core's message for an impossible position is shown as the server gives it.
import { BoardView, COLOURS, FILES, marbleIcon, parsePosition } from "./board.js";
import { el } from "./api.js";
import { errorWords } from "./errors.js";
import { number, t } from "./i18n.js";
import { colourName, variantName } from "./gamewords.js";

/** The variants a position may name, in the order the choice offers them. */
const VARIANT_KEYS = ["express", "expert", "extreme"];

// the field names stay as PROTOCOL.md writes them: they are the string's notation
const FIELDS = () => t("A position has 8 fields: variant players board turn phase supplies scores skips.");

/** A seat's number field's name, for its label. */
const SEAT_FIELDS = {
  supply: (colour) => t("{colour}: supply", { colour }),
  points: (colour) => t("{colour}: points", { colour }),
  skips: (colour) => t("{colour}: skips", { colour }),
};

/** The board field of a position string from a Map cell -> colour. */
export function boardField(board) {
  const ranks = [];
  for (let r = 7; r >= 1; r--) {
    let text = "";
    let empty = 0;
    for (const f of FILES) {
      const c = board.get(f + r);
      if (!c) {
        empty += 1;
        continue;
      }
      if (empty) text += empty;
      empty = 0;
      text += c;
    }
    ranks.push(text + (empty ? empty : ""));
  }
  return ranks.join("/");
}

/** Why the server refused the position set up, in the page's words: the core's reason
 * (`invalid`) is English, so the page says its own sentence; other codes errors.js's. */
function refusedWords(err) {
  const data = err && err.data;
  // the core's own reason, which the server says in the page's language
  if (data && typeof data === "object" && data.code === "invalid" && typeof data.words === "string" && data.words) {
    return t("Refused: {why}", { why: data.words });
  }
  if (data && typeof data === "object" && data.code === "invalid" && data.reason === "unreadable") {
    return t("Refused: this is not a position string.") + " " + FIELDS();
  }
  if (!data || typeof data !== "object" || data.code === "invalid") {
    return t("Refused: this position cannot happen in a game of these rules. Check the marbles, the supplies, the points, the skips and whose turn it is.");
  }
  return t("Refused: {why}", { why: errorWords(data, t("the server did not answer.")) });
}

export class PositionEditor {
  /** `current()`: the board's position object; `onUse(text)`: a promise, rejected with the
   *  server's refusal; `rules`: the rules' numbers as the server says them (api.js
   *  `ruleNumbers`: the marbles per player, the most skips, the start position). */
  constructor(container, { current = () => null, onUse = async () => {}, rules } = {}) {
    this.current = current;
    this.onUse = onUse;
    this.tool = "o";
    this.marbles = rules.marbles;
    this.maxSkips = rules.max_handicap;
    const { variant, players, board, turn, phase, supplies, scores, skips } = parsePosition(rules.start);
    this.set = { variant, players, board, turn, phase, supplies, scores, skips };
    this.build(container);
  }

  build(container) {
    const $sel = (id, label, options) => {
      const s = el("select", { id, "data-testid": id });
      for (const [value, text] of options) s.append(el("option", { value, text }));
      return [el("label", { class: "field", for: id, text: label }), s];
    };
    const [vl, variant] = $sel("editor-variant", t("Variant"), VARIANT_KEYS.map((k) => [k, variantName(k)]));
    const [pl, players] = $sel("editor-players", t("Players"), [2, 3, 4].map((n) => [String(n), number(n)]));
    const [tl, turn] = $sel("editor-turn", t("To act"), []);
    const [hl, phase] = $sel("editor-phase", t("Phase"), [["insert", t("push a marble in")], ["score", t("score a line")]]);
    this.variant = variant;
    this.players = players;
    this.turn = turn;
    this.phase = phase;
    variant.addEventListener("change", () => {
      this.set.variant = variant.value;
      this.refresh();
    });
    players.addEventListener("change", () => this.setPlayers(+players.value));
    turn.addEventListener("change", () => {
      this.set.turn = turn.value;
      this.refresh();
    });
    phase.addEventListener("change", () => {
      this.set.phase = phase.value;
      this.refresh();
    });
    const grid = el("div", { class: "editor-fields" }, el("div", {}, vl, variant), el("div", {}, pl, players), el("div", {}, tl, turn), el("div", {}, hl, phase));

    this.palette = el("div", { class: "palette", role: "radiogroup", "aria-label": t("What a click on a cell puts there") });
    this.boardBox = el("div", { class: "editor-board" });
    this.view = new BoardView(this.boardBox, { arrows: false, interactive: false, label: t("The position being set up: click a cell") });
    this.view.svg.addEventListener("click", (e) => {
      const target = e.target.closest && e.target.closest("[data-cell]");
      if (target) this.click(target.getAttribute("data-cell"));
    });
    this.keyboardCells();
    this.seats = el("div", { class: "editor-seats" });
    this.text = el("input", { type: "text", class: "editor-text", id: "editor-position", "data-testid": "editor-position", spellcheck: "false", autocomplete: "off", "aria-label": t("The position string being set up") });
    this.text.addEventListener("change", () => this.fromText(this.text.value));
    this.error = el("p", { class: "error", role: "alert", "data-testid": "editor-error", hidden: true });
    const use = el("button", { type: "button", class: "primary", "data-testid": "editor-use", text: t("Use this position") });
    use.addEventListener("click", () => this.use(use));
    const reset = el("button", { type: "button", class: "small", text: t("Take the board's position") });
    reset.addEventListener("click", () => this.load(this.current()));
    const clear = el("button", { type: "button", class: "small", text: t("Empty board") });
    // An empty board is a game's start: full supplies, no points, the first seat to push
    // in; the variant, the players and the handicap's skips stay as they were set.
    clear.addEventListener("click", () => {
      const s = this.set;
      s.board = new Map();
      s.supplies = s.supplies.map(() => this.marbles);
      s.scores = s.scores.map(() => 0);
      s.turn = "o";
      s.phase = "insert";
      this.refresh();
    });
    // A press on a button keeps the focus in the position string: were the field to lose
    // it, its change would redraw the editor (hiding an error line, adding seats) and
    // move the button from under the pointer before the click; use() reads the string.
    for (const button of [use, reset, clear]) button.addEventListener("mousedown", (e) => e.preventDefault());
    this.text.addEventListener("keydown", (e) => {
      if (e.key === "Enter") this.use(use);
    });
    container.append(
      el("p", { class: "hint", text: t("Choose a colour (or Remove), then click or tap cells (or reach them with Tab and the arrow keys and press Enter). Placing or removing a marble takes it from or gives it back to that colour's supply.") }),
      this.palette,
      this.boardBox,
      grid,
      this.seats,
      el("label", { class: "field", for: "editor-position", text: t("Position string") }),
      this.text,
      this.error,
      el("div", { class: "row wrap" }, use, reset, clear),
    );
    this.refresh();
  }

  /** Start from a position object (as the server answers) or a position string. */
  load(view) {
    const text = typeof view === "string" ? view : view && view.position;
    if (text) this.fromText(text);
    this.showError("");
  }

  fromText(text) {
    const p = parsePosition(text);
    if (!p) {
      this.showError(FIELDS());
      return;
    }
    const n = [2, 3, 4].includes(p.players) ? p.players : 2;
    const fit = (list, fill) => Array.from({ length: n }, (_, i) => (Number.isFinite(list[i]) ? list[i] : fill));
    this.set = {
      variant: VARIANT_KEYS.includes(p.variant) ? p.variant : "express",
      players: n,
      board: p.board,
      turn: COLOURS.slice(0, n).includes(p.turn) ? p.turn : "o",
      phase: p.phase === "score" ? "score" : "insert",
      supplies: fit(p.supplies, this.marbles),
      scores: fit(p.scores, 0),
      skips: fit(p.skips, 0),
    };
    this.showError("");
    this.refresh();
  }

  setPlayers(n) {
    const s = this.set;
    const fit = (list, fill) => Array.from({ length: n }, (_, i) => (i < list.length ? list[i] : fill));
    s.players = n;
    for (const [cell, c] of [...s.board]) if (COLOURS.indexOf(c) >= n) s.board.delete(cell);
    s.supplies = fit(s.supplies, this.marbles);
    s.scores = fit(s.scores, 0);
    s.skips = fit(s.skips, 0);
    if (COLOURS.indexOf(s.turn) >= n) s.turn = "o";
    if (COLOURS.indexOf(this.tool) >= n) this.tool = "o";
    this.refresh();
  }

  /** The cells as one keyboard stop (Tab reaches the last cell focused, d4 first):
   * the arrow keys move between them, Enter or Space does what a click does. */
  keyboardCells() {
    const cells = this.view.cells;
    for (const [name, rect] of cells) {
      rect.setAttribute("role", "button");
      rect.setAttribute("tabindex", name === "d4" ? "0" : "-1");
      rect.addEventListener("keydown", (e) => {
        const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          this.click(name);
        } else if (step) {
          e.preventDefault();
          const file = Math.min(6, Math.max(0, name.charCodeAt(0) - 97 + step[0]));
          const rank = Math.min(7, Math.max(1, +name[1] + step[1]));
          const next = cells.get(String.fromCharCode(97 + file) + rank);
          for (const other of cells.values()) other.setAttribute("tabindex", other === next ? "0" : "-1");
          next.focus();
        }
      });
    }
  }

  click(cell) {
    const s = this.set;
    const had = s.board.get(cell);
    const give = (c) => {
      const i = COLOURS.indexOf(c);
      if (i >= 0 && i < s.players) s.supplies[i] = Math.min(this.marbles, s.supplies[i] + 1);
    };
    if (had) {
      s.board.delete(cell);
      give(had);
    }
    if (this.tool !== "remove" && had !== this.tool) {
      s.board.set(cell, this.tool);
      const i = COLOURS.indexOf(this.tool);
      s.supplies[i] = Math.max(0, s.supplies[i] - 1);
    }
    this.refresh();
  }

  position() {
    const s = this.set;
    return [s.variant, s.players, boardField(s.board), s.turn, s.phase, s.supplies.join(","), s.scores.join(","), s.skips.join(",")].join(" ");
  }

  showError(text) {
    this.error.textContent = text;
    this.error.hidden = !text;
  }

  /** Hand the position string to the page as it stands: the editor's redraws write it,
   * and one typed in goes as typed, so that the server's answer is about what was typed. */
  async use(button) {
    const text = this.text.value.trim();
    if (!text) {
      this.showError(t("Type or paste a position string first."));
      return;
    }
    if (!parsePosition(text)) {
      this.showError(FIELDS());
      return;
    }
    button.disabled = true;
    this.showError("");
    try {
      await this.onUse(text);
      this.load(this.current());
    } catch (err) {
      this.showError(refusedWords(err));
    } finally {
      button.disabled = false;
    }
  }

  refresh() {
    // what was refused is no longer what the editor holds: its error goes (it stayed
    // under a position made well-formed by a change of supply, a Dutch walk)
    this.showError("");
    const s = this.set;
    const colours = COLOURS.slice(0, s.players);
    this.variant.value = s.variant;
    this.players.value = String(s.players);
    this.turn.replaceChildren(...colours.map((c) => el("option", { value: c, text: colourName(c) })));
    this.turn.value = s.turn;
    this.phase.value = s.phase;

    this.palette.replaceChildren();
    for (const tool of [...colours, "remove"]) {
      const input = el("input", { type: "radio", name: "editor-tool", value: tool, checked: this.tool === tool, "data-testid": `editor-tool-${tool}` });
      input.addEventListener("change", () => {
        this.tool = tool;
      });
      const label = el("label", {}, input, tool === "remove" ? "" : marbleIcon(tool, 18), tool === "remove" ? t("Remove") : colourName(tool));
      this.palette.append(label);
    }

    this.view.update({ board: s.board, players: s.players, legal: new Set(), active: false, phase: "setup", turn: s.turn });

    this.seats.replaceChildren();
    // Express scores no points: its seats have none to set (and the string keeps 0)
    const points = s.variant !== "express";
    if (!points) s.scores = s.scores.map(() => 0);
    const head = el("div", { class: "editor-seat head", "aria-hidden": "true" }, el("span", {}), el("span", { text: t("Supply") }), el("span", { text: points ? t("Points") : "" }), el("span", { text: t("Skips") }));
    this.seats.append(head);
    colours.forEach((c, i) => {
      const num = (what, list, max) => {
        const input = el("input", { type: "number", min: 0, max, value: list[i], "data-testid": `editor-${what}-${c}`, "aria-label": SEAT_FIELDS[what](colourName(c)) });
        // at each key, not only on leaving the field: a press on "Use this position"
        // keeps the focus where it is (above), so a change would come too late
        const take = () => {
          list[i] = Math.max(0, Math.floor(+input.value || 0));
          this.text.value = this.position();
          this.showError(""); // the position refused is no longer the one held
        };
        input.addEventListener("input", take);
        input.addEventListener("change", take);
        return input;
      };
      this.seats.append(
        el("div", { class: "editor-seat" },
          el("span", { class: "editor-colour" }, marbleIcon(c, 18), colourName(c)),
          num("supply", s.supplies, this.marbles),
          points ? num("points", s.scores, 99) : el("span", {}),
          num("skips", s.skips, this.maxSkips)),
      );
    });
    this.text.value = this.position();
  }
}
