// The computer's review of a game, on the game page (docs/web-protocol.md, "The game's
// analysis"): the "Analyse" button, the progress, the evaluation graph, each seat's
// summary, and the computer's best action at the step shown (in words and as an arrow
// on the board). The server reviews and judges; this module only draws its answer. A
// review that failed says why (`[data-testid=review-error]`) and may be asked for again.
//
//   const review = new GameReview({ gameId, container, board, onStep, onUpdate });
//   review.setGame(game, heldColours, alone)  on every render (alone: every person seat is held)
//   review.showStep(k)                  the page shows step k (0 = the start)
//   review.judgementOf(index)           {judgement, mark} of action `index`, or null
//
// `onStep(k)` asks the page to show step k (a click on the graph or a key moment);
// `onUpdate()` tells it that the judgements changed (to redraw its action list).
import { COLOURS, MARBLE_FILL, marbleIcon, svgEl as svg } from "./board.js";
import { api, el } from "./api.js";
import { errorWords } from "./errors.js";
import { lang, number, t, tn } from "./i18n.js";
import { UNIT_WORDS, expectedWords, formatValue, unitWords } from "./values.js";
import { colourName, seatWithColour } from "./gamewords.js";

const POLL_MS = 700;
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The computer's own value in grey, read out after its words ("The computer's value:
 * −25", the words hidden from sight): a bare number named nothing, and a title is not
 * read. */
function valueSpan(testid, value) {
  return el("span", { class: "line-value" },
    el("span", { class: "visually-hidden", text: t("The computer's value:") }), " ",
    el("span", { "data-testid": testid, text: formatValue(value) }));
}

/** A column heading that shows a mark and says its word: a title is not read out, and
 * "?!" read as punctuation names nothing. */
function markHeading(mark, word) {
  return el("th", { scope: "col", title: word, "aria-label": word }, el("span", { "aria-hidden": "true", text: mark }));
}

/** The judgements' names a person reads. */
const JUDGEMENTS = {
  inaccuracy: () => t("inaccuracy"),
  mistake: () => t("mistake"),
  blunder: () => t("blunder"),
};
const LINE_INK = { o: MARBLE_FILL.o, g: MARBLE_FILL.g, b: MARBLE_FILL.b, w: "#8a8a8a" };
// The graph is drawn in pixels at its box's width (again when that changes).
const GRAPH_HEIGHT = 120;
const PAD = 8;


/** A legend's colour key, coloured through the DOM (the CSP refuses style attributes). */
function swatch(colour) {
  const node = el("span", { class: "eg-swatch" });
  node.style.background = colour;
  return node;
}

/** Why a review failed, by the review's `error_code` (docs/web-protocol.md, "The game's
 * analysis"); a review without a known code shows the server's `error`. */
const FAILURES = {
  search_failed: (r) =>
    Number.isInteger(r.error_step) && r.error_action
      ? t("The review failed: the computer's search failed at action {step} ({action}).", { step: number(r.error_step), action: r.error_action })
      : t("The review failed: the computer's search failed."),
  unreadable: () => t("The review failed: the stored game cannot be read."),
  failed: () => t("The review failed: the computer could not finish it."),
};

/** A review refused when asked for: too many waiting (`too_many_reviews`, with the
 * server's `Retry-After`) in the page's words, any other code errors.js's. */
function startRefusal(err) {
  if (err && err.data && err.data.code === "too_many_reviews") {
    return t("Could not start the review: too many reviews are waiting or running. Wait for one to finish and ask again.");
  }
  return t("Could not start the review: {why}", { why: errorWords(err && err.data, t("the server did not answer.")) });
}

function failureWords(review) {
  const words = FAILURES[review.error_code];
  if (words) return words(review);
  if (review.error) return t("The review failed: {why}.", { why: review.error });
  return FAILURES.failed();
}

export class GameReview {
  constructor({ gameId, container, board = null, onStep = null, onUpdate = null }) {
    this.gameId = gameId;
    this.board = board;
    this.onStep = onStep;
    this.onUpdate = onUpdate;
    this.game = null;
    this.held = [];
    this.review = null; // the last answer of GET /api/games/{id}/analysis
    this.step = null;
    this.loaded = false; // the stored review was asked for
    this.timer = null;
    this.asking = false;
    this.W = 600;
    this.H = GRAPH_HEIGHT;
    this.build(container);
  }

  build(container) {
    this.root = el("section", { class: "review card", "aria-labelledby": "review-title", "data-testid": "review", hidden: true });
    this.title = el("h2", { id: "review-title", text: t("Computer's review") });
    this.button = el("button", { type: "button", class: "primary", "data-testid": "analyse", hidden: true, text: t("Analyse") });
    this.button.addEventListener("click", () => this.analyse());
    this.progress = el("progress", { max: 1, value: 0, "aria-label": t("Review progress"), hidden: true });
    this.progressText = el("span", { class: "hint review-progress", "aria-live": "polite" });
    // says once that a review asked for is ready: the progress line above hides with it
    this.told = el("p", { class: "visually-hidden", role: "status", "data-testid": "review-told" });
    this.error = el("p", { class: "error", role: "alert", "data-testid": "review-error", hidden: true });
    this.graphBox = el("div", { class: "eval-graph-box", hidden: true });
    this.legend = el("p", { class: "eval-legend hint" });
    this.best = el("p", { class: "best-action", "data-testid": "best-action", "aria-live": "polite", hidden: true });
    // said as it changes too: a key moment chosen shows the action played there
    this.played = el("p", { class: "played-action hint", "aria-live": "polite", hidden: true });
    this.summary = el("div", { class: "review-summary", hidden: true });
    this.moments = el("div", { class: "key-moments", hidden: true });
    this.head = el("div", { class: "row wrap review-head" }, this.button, this.progress, this.progressText);
    // the best and played lines come after the key moments: above them, their coming
    // moved the chips down under the pointer that had just clicked one
    this.root.append(
      this.title,
      this.head,
      this.told,
      this.error,
      this.graphBox,
      this.legend,
      this.moments,
      this.best,
      this.played,
      this.summary,
    );
    container.append(this.root);
    if (window.ResizeObserver) {
      new ResizeObserver(() => {
        const w = Math.round(this.graphBox.clientWidth);
        if (w && Math.abs(w - this.W) > 3 && this.points().length) this.drawGraph();
      }).observe(this.graphBox);
    }
  }

  // ---- the game and the server --------------------------------------------------
  actionCount() {
    const g = this.game || {};
    if (Array.isArray(g.actions)) return g.actions.length;
    if (Array.isArray(g.history)) return g.history.length;
    return g.version || 0;
  }

  over() {
    const g = this.game || {};
    return !!(g.analysable || g.result || String(g.status || "").startsWith("over"));
  }

  /** The game as the page has it now, and the colours this browser holds. */
  setGame(game, heldColours = [], alone = false) {
    this.game = game;
    this.held = heldColours || [];
    this.alone = alone; // the page holds every person's seat: a review helps nobody cheat
    const r = this.review;
    if (r && r.version !== undefined && r.version > this.actionCount()) {
      // actions it judged were taken back: the server dropped that review, so must we
      clearTimeout(this.timer);
      this.review = null;
      this.fail("");
      this.loaded = false;
      if (this.step !== null) this.showStep(this.step);
      if (this.onUpdate) this.onUpdate();
    }
    if (!this.loaded && this.gameId) {
      this.loaded = true;
      this.fetch(true);
    }
    this.render();
  }

  async fetch(first = false) {
    try {
      // the first look asks with ?probe=1: no review yet is a null, not a 404
      const probe = first ? "?probe=1" : "";
      const review = await api(`/api/games/${encodeURIComponent(this.gameId)}/analysis${probe}`);
      if (review === null) return;
      this.apply(review);
    } catch (err) {
      if (err.status === 404) {
        if (!first) this.fail(t("The review is not there any more."));
      } else this.fail(t("Could not read the review: {why}", { why: errorWords(err.data, t("the server did not answer.")) }));
      this.render();
    }
  }

  async analyse() {
    if (this.asking) return;
    this.asking = true;
    // disabled, the button loses the keyboard's focus at once: render() hands it on
    this.pressed = document.activeElement === this.button;
    this.awaited = true;
    this.button.disabled = true;
    // the keyboard waits in the review's section, not on the page's body, for as long as
    // the server takes to answer (a busy one took over 10 s in a whole run)
    if (this.pressed) {
      this.root.tabIndex = -1;
      this.root.focus();
    }
    this.fail("");
    try {
      const review = await api(`/api/games/${encodeURIComponent(this.gameId)}/analysis`, { method: "POST" });
      this.apply(review);
    } catch (err) {
      this.fail(startRefusal(err));
      this.render();
    } finally {
      this.asking = false;
      this.button.disabled = false;
      // a review refused leaves the button in sight: the keyboard may go back to it
      if (this.pressed && !this.button.hidden) this.button.focus();
      this.pressed = false;
    }
  }

  apply(review) {
    if (!review || typeof review !== "object") return;
    this.review = review;
    clearTimeout(this.timer);
    if (review.status === "pending" || review.status === "running") {
      this.timer = setTimeout(() => this.fetch(), POLL_MS);
    }
    // a failed review says so (and stops polling); asked again, the words go
    if (review.status === "failed") this.fail(failureWords(review), "failed");
    else if (this.error.dataset.kind === "failed") this.fail("");
    this.render();
    if (this.step !== null) this.showStep(this.step);
    if (this.onUpdate) this.onUpdate();
  }

  fail(message, kind = "") {
    this.error.textContent = message;
    this.error.hidden = !message;
    this.error.dataset.kind = message ? kind : "";
  }

  done() {
    return !!(this.review && this.review.status === "done");
  }

  // ---- what the page asks -------------------------------------------------------
  /** The judgement of action `index` (0-based): {judgement, mark}, or null while no review. */
  judgementOf(index) {
    const a = this.entry(index);
    if (!a) return null;
    const judgement = MARKS[a.judgement] ? a.judgement : "";
    return { judgement, mark: MARKS[judgement] || "" };
  }

  entry(index) {
    const list = (this.review && this.review.actions) || [];
    const at = list[index];
    if (at && (at.index === undefined || at.index === index)) return at;
    return list.find((a) => a.index === index) || null;
  }

  /** The page shows step k: the graph's cursor, the best action there, its arrow. */
  showStep(k) {
    this.step = k;
    this.drawCursor();
    const a = k === null || k === undefined ? null : this.entry(k);
    if (!a || !a.best) {
      this.best.hidden = true;
      this.played.hidden = true;
      if (this.board && this.board.setHint) this.board.setHint(null);
      return;
    }
    const line = Array.isArray(a.pv) && a.pv.length ? a.pv : [a.best];
    // the mover's expected score in words; the computer's own value after it, in grey
    const seat = Math.max(0, COLOURS.indexOf(a.seat));
    const expected = (list) => (Array.isArray(list) ? list[seat] : null);
    const scored = (e, value, proven = 0) => {
      if (proven > 0) return t("a proven win");
      if (proven < 0) return t("a proven loss");
      const words = expectedWords(e);
      return words ? t("expected score {score}", { score: words }) : t("value {value}", { value: formatValue(value) });
    };
    // the line's notation in its own element inside the sentence's words
    const [before, after] = t("Best: {line} ({score})", { score: scored(expected(a.expected_before), a.best_value, a.best_proven) }).split("{line}");
    this.best.replaceChildren(
      el("strong", { text: before }),
      el("code", { class: "notation", text: line.join(" ") }),
      after ?? "",
      " ",
      valueSpan("best-value", a.best_value),
    );
    this.best.title = t("The computer's value: {value}", { value: formatValue(a.best_value) });
    this.best.hidden = false;
    const j = this.judgementOf(k);
    const values = {
      action: `${this.numbered(a)}${j && j.mark ? ` ${j.mark}` : ""}`,
      judgement: j && j.judgement ? JUDGEMENTS[j.judgement]() : "",
      score: scored(expected(a.expected_after), a.value, a.proven),
    };
    const same = a.action === a.best;
    let played;
    if (values.judgement) played = t("Played: {action} {judgement} ({score})", values);
    else played = same ? t("Played: {action} ({score}), the best", values) : t("Played: {action} ({score})", values);
    this.played.replaceChildren(played, " ", valueSpan("played-value", a.value));
    this.played.title = t("The computer's value: {value}", { value: formatValue(a.value) });
    this.played.hidden = false;
    if (this.board && this.board.setHint) this.board.setHint(a.best);
  }

  // ---- drawing ---------------------------------------------------------------------
  seatColours() {
    const g = this.game || {};
    if (Array.isArray(g.seats) && g.seats.length) return g.seats.map((s, i) => s.colour || COLOURS[i]);
    return COLOURS.slice(0, g.players || 2);
  }

  nameOf(colour) {
    const seat = ((this.game && this.game.seats) || []).find((s) => s.colour === colour);
    return seatWithColour(seat || { colour });
  }

  render() {
    const r = this.review;
    const n = this.actionCount();
    const inProgress = this.game && !this.over();
    const holder = this.held.length > 0 && inProgress;
    const studying = !!this.alone && inProgress && n > 0;
    const canAsk = (!!(this.game && this.game.analysable) && !holder) || studying;
    const running = r && (r.status === "pending" || r.status === "running");
    const current = r && r.status === "done" && (r.version === undefined || r.version >= n);
    // the keyboard on the button that hides goes to the review's section, not the page's
    // start; the end of a review it waited for is said
    const hiding = (this.pressed || document.activeElement === this.button) && (!canAsk || running || current);
    this.button.hidden = !canAsk || running || current;
    if (hiding) {
      this.pressed = false;
      this.root.tabIndex = -1;
      this.root.focus();
    }
    // a review this page asked for or saw under way is said ready when it is done
    if (running) this.awaited = true;
    if (this.awaited && !running && r && r.status === "done") {
      this.awaited = false;
      this.told.textContent = t("The review is ready.");
    }
    if (r && r.status === "failed") this.button.textContent = t("Try the review again");
    else this.button.textContent = r && r.status === "done" ? t("Analyse again") : t("Analyse");
    // a review of fewer actions than the game has now (asked for during the game) says so
    const stale = !!r && r.status === "done" && r.version !== undefined && r.version < n;
    this.progress.hidden = !running;
    this.head.hidden = this.button.hidden && !running && !stale;
    if (running) {
      const p = Math.max(0, Math.min(1, +r.progress || 0));
      this.progress.value = p;
      this.progressText.textContent =
        r.status === "pending" ? t("Waiting for the computer…") : t("Reviewing… {percent}", { percent: number(Math.round(p * 100) / 100, { style: "percent" }) });
    } else if (stale) {
      this.progressText.textContent = tn(
        "This review covers the first action of {total}.",
        "This review covers the first {n} actions of {total}.",
        r.version,
        { n: number(r.version), total: number(n) },
      );
    } else this.progressText.textContent = "";
    const actions = (r && r.actions) || [];
    this.root.hidden = !(canAsk || actions.length || running || !this.error.hidden);
    this.graphBox.hidden = !actions.length;
    this.legend.hidden = !actions.length;
    this.summary.hidden = !this.done();
    this.moments.hidden = !actions.length;
    // redraw only what changed (a redrawn graph would lose the keyboard focus)
    const key = r ? `${r.status}:${actions.length}:${n}:${this.seatColours().join("")}:${JSON.stringify(r.summary || null)}` : "";
    if (key === this.drawn) return;
    this.drawn = key;
    if (actions.length) this.drawGraph();
    if (actions.length) this.drawMoments();
    if (this.done()) this.drawSummary();
  }

  /** The expected scores per step: [[seat0, seat1, ...] at step 0, 1, ...]. Step k is
   *  the position before action k as its own search values it (`expected_before`, the
   *  figure "Best" names there), the last step the last action played. */
  points() {
    const actions = ((this.review && this.review.actions) || []).slice().sort((a, b) => a.index - b.index);
    const out = [];
    for (const a of actions) {
      if (!Array.isArray(a.expected_before)) return out;
      out.push(a.expected_before);
    }
    const last = actions[actions.length - 1];
    if (last && Array.isArray(last.expected_after)) out.push(last.expected_after);
    return out;
  }

  x(step) {
    const n = Math.max(1, this.actionCount(), ((this.review && this.review.actions) || []).length);
    return PAD + (step / n) * (this.W - 2 * PAD);
  }

  y(e) {
    return PAD + (1 - Math.max(0, Math.min(1, +e || 0))) * (this.H - 2 * PAD);
  }

  drawGraph() {
    this.W = Math.max(160, Math.round(this.graphBox.clientWidth) || 600);
    const [W, H] = [this.W, this.H];
    const pts = this.points();
    const colours = this.seatColours();
    const seats = colours.length <= 2 ? [0] : colours.map((_, i) => i);
    const n = Math.max(1, this.actionCount(), pts.length - 1);
    const graph = svg("svg", {
      viewBox: `0 0 ${W} ${H}`,
      class: "eval-graph",
      "data-testid": "eval-graph",
      role: "slider",
      tabindex: "0",
      "aria-label": t("Evaluation graph: the expected score over the game; click or use the arrow keys to go to a step"),
      "aria-valuemin": "0",
      "aria-valuemax": String(n),
      "data-steps": String(pts.length - 1),
    });
    svg("rect", { x: 0, y: 0, width: W, height: H, class: "eg-bg" }, graph);
    // the dashed line is an even share: a half with two players, a third with three...
    const even = 1 / Math.max(2, colours.length);
    for (const e of [0.25, 0.5, 0.75].filter((g) => Math.abs(g - even) > 1e-9)) {
      svg("line", { x1: PAD, x2: W - PAD, y1: this.y(e), y2: this.y(e), class: "eg-grid" }, graph);
    }
    svg("line", { x1: PAD, x2: W - PAD, y1: this.y(even), y2: this.y(even), class: "eg-mid", "data-testid": "even-share" }, graph);
    if (seats.length === 1 && pts.length) {
      // two players: the first seat's share shaded above or below the middle
      const area = [`${this.x(0)},${this.y(0.5)}`, ...pts.map((p, k) => `${this.x(k)},${this.y(p[0])}`), `${this.x(pts.length - 1)},${this.y(0.5)}`];
      svg("polygon", { points: area.join(" "), class: "eg-area", fill: LINE_INK[colours[0]] || "#888" }, graph);
    }
    for (const seat of seats) {
      const colour = colours[seat];
      const line = pts.map((p, k) => `${this.x(k)},${this.y(p[seat])}`).join(" ");
      svg("polyline", { points: line, class: "eg-line", stroke: LINE_INK[colour] || "#888", "data-seat": colour }, graph);
    }
    for (const a of (this.review && this.review.actions) || []) {
      if (!MARKS[a.judgement]) continue;
      const k = a.index + 1;
      if (k >= pts.length) continue;
      const seat = seats.length === 1 ? 0 : Math.max(0, colours.indexOf(a.seat));
      const dot = svg("circle", { cx: this.x(k), cy: this.y(pts[k][seat]), r: 5, class: `eg-mark eg-${a.judgement}`, "data-judgement": a.judgement }, graph);
      svg("title", {}, dot).textContent = t("{action} {mark} {judgement}", { action: this.numbered(a), mark: MARKS[a.judgement], judgement: JUDGEMENTS[a.judgement]() });
    }
    this.cursor = svg("line", { y1: 0, y2: H, class: "eg-cursor" }, graph);
    const hit = svg("rect", { x: 0, y: 0, width: W, height: H, class: "eg-hit" }, graph);
    hit.addEventListener("click", (e) => {
      const box = graph.getBoundingClientRect();
      const ux = ((e.clientX - box.left) / box.width) * W;
      const k = Math.round(((ux - PAD) / (W - 2 * PAD)) * n);
      this.go(Math.max(0, Math.min(n, k)));
    });
    graph.addEventListener("keydown", (e) => {
      const now = this.step ?? n;
      const to = { ArrowLeft: now - 1, ArrowDown: now - 1, ArrowRight: now + 1, ArrowUp: now + 1, Home: 0, End: n }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      this.go(Math.max(0, Math.min(n, to)));
    });
    this.graph = graph;
    this.graphBox.replaceChildren(graph);
    this.drawCursor();
    // the legend says what is up and down
    const name = (c) => this.nameOf(c);
    if (seats.length === 1) {
      this.legend.replaceChildren(
        t("Expected score of {first}: up, {first} is winning; down, {second} is.", { first: name(colours[0]), second: name(colours[1] || "g") }),
      );
    } else {
      this.legend.replaceChildren(
        t("Expected score of each player (top: a sure win, bottom: a sure loss):") + " ",
        ...colours.map((c) => el("span", { class: "eg-key" }, swatch(LINE_INK[c]), ` ${name(c)} `)),
      );
    }
  }

  go(k) {
    if (this.onStep) this.onStep(k);
    else this.showStep(k);
  }

  /** Scroll the board into view when none of it is (on a phone the key moments are far
   * below it): a moment chosen shows its position there. */
  boardIntoView() {
    const svg = this.board && this.board.svg;
    if (!svg) return;
    const box = svg.getBoundingClientRect();
    if (box.bottom > 0 && box.top < innerHeight) return;
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    // the board's section, whose status line above the board says whose action it is
    (svg.closest(".board-area") || svg).scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
  }

  drawCursor() {
    if (!this.cursor || !this.graph) return;
    const n = Math.max(1, this.actionCount());
    const k = this.step === null || this.step === undefined ? n : Math.max(0, Math.min(n, this.step));
    this.cursor.setAttribute("x1", this.x(k));
    this.cursor.setAttribute("x2", this.x(k));
    this.graph.setAttribute("aria-valuenow", String(k));
    // the step and its expected scores in words, as the graph draws them
    const at = this.points()[k];
    const colours = this.seatColours();
    const scores = Array.isArray(at)
      ? new Intl.ListFormat(lang, { type: "unit" }).format(colours.map((c, i) => t("{colour} {score}", { colour: colourName(c), score: expectedWords(at[i]) })))
      : "";
    let said;
    if (k === 0) said = scores ? t("The start: {scores}", { scores }) : t("The start");
    else said = scores ? t("After action {step}: {scores}", { step: number(k), scores }) : t("After action {step}", { step: number(k) });
    this.graph.setAttribute("aria-valuetext", said);
  }

  /** An action as the move list numbers it: "20. R1", and "20. …xd1-g1 R1" after an
   *  earlier action of its turn (a scorer moves again: the two R1 of one turn read alike
   *  in the key moments, a French walk). */
  numbered(a) {
    if (!a.turn) return a.action;
    const before = this.entry(a.index - 1);
    return before && before.turn === a.turn ? `${a.turn}. …${before.action} ${a.action}` : `${a.turn}. ${a.action}`;
  }

  /** The marked actions, each a link to the position before it (where the best is shown). */
  drawMoments() {
    const marked = ((this.review && this.review.actions) || []).filter((a) => MARKS[a.judgement]);
    if (!marked.length) {
      this.moments.replaceChildren(el("p", { class: "hint", text: this.done() ? t("No inaccuracies, mistakes or blunders.") : "" }));
      return;
    }
    const list = el("ul", { class: "moment-list" });
    for (const a of marked) {
      const b = el("button", {
        type: "button",
        class: `small moment j-${a.judgement}`,
        "data-judgement": a.judgement,
        "data-index": a.index,
        title: t("Show the position before it, with the computer's best ({best})", { best: a.best }),
        // the mark's signs and the marble say little to a screen reader: words instead
        "aria-label": t("{action} by {colour}, {judgement}: show the position before it", {
          action: this.numbered(a),
          colour: colourName(a.seat),
          judgement: JUDGEMENTS[a.judgement](),
        }),
      });
      b.append(marbleIcon(a.seat, 14), ` ${this.numbered(a)}${MARKS[a.judgement]}`);
      b.addEventListener("click", () => {
        this.go(a.index);
        this.boardIntoView();
      });
      list.append(el("li", {}, b));
    }
    this.moments.replaceChildren(el("h3", { text: t("Key moments") }), list);
  }

  drawSummary() {
    const r = this.review;
    const rows = Array.isArray(r.summary) ? r.summary : [];
    const table = el("table", { class: "review-table" });
    table.append(
      el("thead", {},
        el("tr", {},
          el("th", { scope: "col", text: t("Player") }),
          markHeading("?!", t("inaccuracies")),
          markHeading("?", t("mistakes")),
          markHeading("??", t("blunders")),
          el("th", { scope: "col", text: t("Accuracy") }))),
    );
    const body = el("tbody");
    for (const s of rows) {
      const acc =
        s.accuracy === null || s.accuracy === undefined
          ? "–"
          : number(+s.accuracy / 100, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
      body.append(
        el("tr", { "data-seat": s.seat },
          el("th", { scope: "row" }, marbleIcon(s.seat, 16), ` ${this.nameOf(s.seat)}`),
          el("td", { "data-count": "inaccuracies", text: number(s.inaccuracies ?? 0) }),
          el("td", { "data-count": "mistakes", text: number(s.mistakes ?? 0) }),
          el("td", { "data-count": "blunders", text: number(s.blunders ?? 0) }),
          el("td", { "data-count": "accuracy", text: acc })),
      );
    }
    table.append(body);
    const words = [t("An expected score is the mover's chance to win, a shared draw counting its share (100% a sure win).")];
    const unit = unitWords(r.unit, this.game);
    if (unit) words.push(unit);
    if (r.scale) words.push(UNIT_WORDS.graph);
    if (r.level) words.push(t("Reviewed by level {level}.", { level: number(r.level) }));
    this.summary.replaceChildren(
      el("h3", { text: t("Summary") }),
      table,
      el("p", { class: "hint review-unit" },
        `${words.join(" ")} `,
        el("a", { href: "/how-to-play#analysis", text: t("About the review") })),
    );
  }
}
