// The analysis board: /analysis?position=<position string>. The server says what a
// position is (POST /api/positions), what an action leads to (POST /api/positions/play)
// and what the computer thinks (the /ws/analysis socket, docs/web-protocol.md); this
// page draws it, shows the opening book's lines where the book has the position
// (book.js), keeps the actions tried from the start position as a variation tree
// (tree.js; in its address too, `start=`, `line=` and `at=` before `position=`, so that a
// reload or a copied link keeps it), says each action in words (announce.js), and hands a
// position set up in the editor to the server, which accepts or refuses it.
import { BoardView, COLOURS, parsePosition } from "./board.js";
import { Announcer, WORDS, actionWords, fill, resultWords } from "./announce.js";
import { TreeSyntaxError, addChild, childBy, cut, lineEnd, newTree, onMainLine, promote, readTree, sibling, size, writeTree, writtenOrder } from "./tree.js";
import { drawVariations } from "./variations.js";
import { api, copyText, el, onJson, openSocket, ruleNumbers, showNotice } from "./api.js";
import { errorWords } from "./errors.js";
import { invalidWords, positionActionWords } from "./refusals.js";
import { listed, number, t, tn } from "./i18n.js";
import { colourName, variantName } from "./gamewords.js";
import { mountPrefs, playSound } from "./prefs.js";
import { expectedWords, formatValue, unitWords } from "./values.js";
import { PositionEditor } from "./editor.js";
import { BookPanel } from "./book.js";
import { drawSeatChips } from "./seatchips.js";
import { Retry } from "./retry.js";

/** The most actions an address's tree brings back (each action is a request). */
const LONGEST_LINE = 200;

const $ = (id) => document.getElementById(id);

// ---- state -----------------------------------------------------------------------
let root = null; // the variation tree (tree.js); each node's data: its position as the server answers it
let at = null; // the node shown
let busy = false;
let engineLines = [];

const boardView = new BoardView($("board"), { arrows: true, interactive: true, onAction: play, label: t("Analysis board") });
const announcer = new Announcer($("announcer"));
const book = new BookPanel($("book"), $("book-lines"), (action) => play(action));

function current() {
  return at ? at.data : null;
}

function notice(text, kind = "error") {
  showNotice($("notice"), text, kind);
}


/** Why the server refused a start position, by the answer's `reason`. */
const POSITION_REFUSALS = {
  unreadable: () => t("This position cannot be read: the board shows the start position instead."),
  impossible: () => t("This position cannot happen in a game: the board shows the start position instead."),
};

// ---- positions from the server -----------------------------------------------------
/** A new start position (the URL's, or the editor's): throws the server's refusal. */
async function setRoot(position) {
  const view = await api("/api/positions", { method: "POST", body: { position } });
  root = newTree(view);
  at = root;
  show();
  return view;
}

async function play(action) {
  const from = current();
  if (!from || busy) return;
  if (from.result) return notice(t("The game is over in this position."));
  busy = true;
  try {
    const known = childBy(at, canonicalAction(from, action));
    const next = known ? null : await api("/api/positions/play", { method: "POST", body: { position: from.position, action } });
    // a new action where the line goes on starts a side line: nothing is cut
    at = known || addChild(at, canonicalAction(from, action), next);
    notice("");
    playSound("action");
    announcer.say(actionNews(at));
    show({ action: at.action, board: parsePosition(from.position).board, motion: at.data.motion });
  } catch (err) {
    const values = { action: String(action), name: colourName(from.turn) };
    notice(positionActionWords(err, values));
  } finally {
    busy = false;
  }
}

/** The action as the server's legal list spells it (the typed one may differ in case). */
function canonicalAction(view, action) {
  const all = [...(view.legal || []), ...(view.scoring || []).map((s) => s.action)];
  return all.find((a) => a.toLowerCase() === String(action).toLowerCase()) || action;
}

/** Show `node` (null: nowhere to go, nothing changes). */
function goTo(node) {
  if (!node || node === at) return;
  at = node;
  show();
  announcer.say(stepNews(node));
}

/** The step shown, in words: which action of its line led to it ("Action 2 of 3: Green
 * pushed in at the left of row 2."), or the start; a screen reader hears where a step
 * back or on has gone (a blind player's walk heard nothing). */
function stepNews(node) {
  if (!node.parent) return WORDS.start;
  let step = 0;
  for (let n = node; n.parent; n = n.parent) step += 1;
  let steps = step;
  for (let n = node; n.children.length; n = n.children[0]) steps += 1;
  return fill(WORDS.step, { step: number(step), steps: number(steps), words: actionNews(node) });
}

/** What the action that leads to `node` did, in words, with the end it brings. */
function actionNews(node) {
  const before = node.parent.data;
  const after = node.data;
  const mover = before.turn;
  const seat = COLOURS.indexOf(mover);
  const scored = before.variant !== "express" && seat >= 0 ? ((after.scores || [])[seat] ?? 0) - ((before.scores || [])[seat] ?? 0) : null;
  const end = after.result ? resultWords(true, (after.result.winners || []).map(colourName), after.players) : "";
  return [actionWords(colourName(mover), node.action, scored, before.players), end].filter(Boolean).join(" ");
}

/** Make the line shown the main line. */
function promoteLine() {
  if (!at || onMainLine(at)) return;
  promote(at);
  show();
}

/** Delete the action shown and all after it; the board shows the position before. */
function deleteLine() {
  if (!at || !at.parent) return;
  at = cut(at);
  show();
}

// ---- drawing ---------------------------------------------------------------------
/** Why a game ended (the core's `EndReason`), in the page's words. */
const REASONS = {
  line: () => t("a line"),
  points: () => t("10 points"),
  "board full": () => t("the board is full"),
  "no marbles": () => t("no marbles left"),
  "action limit": () => t("the limit of actions"),
};

function statusText(v) {
  if (v.result) {
    const w = v.result.winners || [];
    const words = REASONS[v.result.reason];
    const reason = words ? words() : v.result.reason || "";
    if (!w.length) return reason ? t("The game is over ({reason}).", { reason }) : t("The game is over.");
    if (w.length > 1) {
      const names = listed(w.map(colourName));
      // every seat sharing the result is a draw (a full board in Express)
      if (w.length === v.players) return reason ? t("Draw between {names} ({reason}).", { names, reason }) : t("Draw between {names}.", { names });
      return reason ? t("{names} share the win ({reason}).", { names, reason }) : t("{names} share the win.", { names });
    }
    const name = colourName(w[0]);
    return reason ? t("{name} wins ({reason}).", { name, reason }) : t("{name} wins.", { name });
  }
  if (!v.turn) return t("Nobody is to act.");
  const name = colourName(v.turn);
  return v.phase === "score" ? t("{name} to score a line", { name }) : t("{name} to push a marble in", { name });
}

function show(animate = null) {
  const v = current();
  if (!v) return;
  const pos = parsePosition(v.position) || { board: new Map() };
  const before = at.parent ? parsePosition(at.parent.data.position) : null;
  const legal = new Set([...(v.legal || []), ...(v.scoring || []).map((s) => s.action)]);
  boardView.setHint(null);
  boardView.update(
    {
      board: pos.board,
      players: v.players || pos.players,
      turn: v.turn,
      phase: v.result ? "over" : v.phase,
      legal,
      active: !v.result && legal.size > 0,
      last: at.parent ? at.action : null,
      lastBoard: before ? before.board : null,
      motion: v.motion,
      pushes: v.pushes || {},
      scoring: v.phase === "score" && !v.result ? v.scoring || [] : [],
      winLine: v.result && v.result.line ? v.result.line : [],
    },
    { animate },
  );
  $("status").textContent = statusText(v);
  $("position").textContent = v.position;
  $("back").disabled = !at.parent;
  $("forward").disabled = !at.children.length;
  $("to-start").disabled = !at.parent;
  $("promote").disabled = onMainLine(at);
  $("delete-line").disabled = !at.parent;
  document.title = tn("Analysis board · {variant}, {n} player · Shiftago", "Analysis board · {variant}, {n} players · Shiftago", v.players, { variant: variantName(v.variant) });
  history.replaceState(null, "", address(v));
  drawSeatChips($("seats"), v);
  drawVariation();
  engineLines = [];
  drawLines(null);
  engine.analyse(v.position);
  book.show(v.position);
}

/** The page's address: the variation tree tried (its start, its actions with the side
 * lines in brackets, and the node shown by its number in that text), then the position
 * shown, which alone is a whole analysis board too. */
function address(v) {
  const parts = [];
  if (root.children.length) {
    parts.push(`start=${encodeURIComponent(root.data.position)}`);
    parts.push(`line=${encodeURIComponent(writeTree(root))}`);
    parts.push(`at=${writtenOrder(root).indexOf(at)}`);
  }
  parts.push(`position=${encodeURIComponent(v.position)}`);
  return `/analysis?${parts.join("&")}`;
}

/** The variation tree of an address, played again from its start through the server;
 * false (nothing changed) when the address has none or it does not lead to its
 * position. A line without brackets (the addresses of before) is a tree of one line;
 * `at=K` is the K-th action as the line writes it (0: the start). */
async function restoreVariation(params) {
  const start = params.get("start");
  let tree;
  try {
    tree = readTree(params.get("line") || "");
  } catch (err) {
    if (err instanceof TreeSyntaxError) return false;
    throw err;
  }
  const count = size(tree);
  if (!start || !count || count > LONGEST_LINE) return false;
  try {
    tree.data = await api("/api/positions", { method: "POST", body: { position: start } });
    const nodes = writtenOrder(tree); // each node after its parent
    for (const node of nodes.slice(1)) {
      const from = node.parent.data;
      node.data = await api("/api/positions/play", { method: "POST", body: { position: from.position, action: node.action } });
      node.action = canonicalAction(from, node.action);
    }
    const step = Number.parseInt(params.get("at") || "", 10);
    const shown = Number.isInteger(step) ? nodes[Math.max(0, Math.min(count, step))] : lineEnd(tree);
    if (params.get("position") && params.get("position").trim() !== shown.data.position) return false;
    root = tree;
    at = shown;
    show();
    return true;
  } catch {
    return false; // an address edited by hand: its position alone is shown
  }
}

function drawVariation() {
  drawVariations($("variation"), root, at, goTo);
}

function drawLines(msg) {
  const list = $("lines");
  const v = current();
  list.replaceChildren();
  // a finished position gets no lines: no room kept for them (it changes only with the
  // position, which the user changes, never under the pointer)
  list.classList.toggle("over", !!(v && v.result));
  if (!msg) {
    $("engine-info").textContent = v && v.result ? t("The game is over in this position.") : t("Thinking…");
    return;
  }
  engineLines = msg.lines || [];
  const info = [];
  if (msg.depth !== undefined && msg.depth !== null) info.push(t("depth {depth}", { depth: number(msg.depth) }));
  if (msg.nodes !== undefined && msg.nodes !== null) info.push(tn("{n} node", "{n} nodes", Number(msg.nodes)));
  info.push(msg.final ? t("done") : t("thinking…"));
  $("engine-info").textContent = engineLines.length || !msg.final ? info.join(" · ") : t("No action to look at: the game is over.");
  // the words under the lines are the page's own (no shift of the editor below when
  // the first lines come); the unit of the values goes into their tooltip
  if (msg.unit) $("engine-unit").title = unitWords(msg.unit, v);
  engineLines.forEach((line, i) => {
    const pv = Array.isArray(line.pv) && line.pv.length ? line.pv : [line.action];
    const go = el("button", { type: "button", class: "small line-action", text: line.action, title: t("Play {action}", { action: line.action }) });
    go.addEventListener("click", () => play(line.action));
    const item = el("li", { class: "engine-line", "data-testid": "engine-line", "data-action": line.action },
      go,
      el("span", { class: "line-expected", title: t("Expected score of the side to act. The computer's value: {value}", { value: formatValue(line.value) }), text: expectedWords(line.expected, line.proven) }),
      // the computer's own value in grey, in sight on a touch screen too (no tooltip there)
      el("span", { class: "line-value", "data-testid": "line-value", text: formatValue(line.value) }),
      el("code", { class: "line-pv", title: pv.join(" "), text: pv.join(" ") }));
    item.addEventListener("pointerenter", () => boardView.setHint(line.action));
    item.addEventListener("pointerleave", () => boardView.setHint(engineLines[0] ? engineLines[0].action : null));
    list.append(item);
    if (i === 0) boardView.setHint(line.action);
  });
  if (!engineLines.length) boardView.setHint(null);
}

// ---- the computer: one socket, reconnected when it drops ---------------------------
/** The socket's `error` events, each by its code (docs/web-protocol.md, "Live analysis of
 * a position"), in the page's words; an unknown code shows the server's message. */
const SOCKET_ERRORS = {
  bad_position: () => t("The computer cannot look at this position."),
  busy: () => t("Your address has as many analyses running as it may: close another analysis board and try again."),
  rate_limited: (msg) =>
    Number.isFinite(msg.retry_after)
      ? tn("The computer was asked too often: try again in {n} second.", "The computer was asked too often: try again in {n} seconds.", msg.retry_after)
      : t("The computer was asked too often: wait a moment and try again."),
  bad_message: () => t("The page sent the computer a message it does not understand: reload the page."),
};

function socketErrorWords(msg) {
  const words = SOCKET_ERRORS[msg.code];
  if (words) return words(msg);
  return errorWords(msg, t("The computer cannot look at this position."));
}

class EngineSocket {
  constructor() {
    this.ws = null;
    this.want = null; // the position to analyse
    this.retry = new Retry(() => this.connect(), 500);
    this.connect();
  }

  lines() {
    return +$("line-count").value || 3;
  }

  state(text, kind) {
    const box = $("engine-conn");
    box.textContent = text;
    box.dataset.state = kind;
  }

  connect() {
    let ws;
    try {
      ws = openSocket("/ws/analysis");
    } catch {
      return this.retry.later();
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry.opened();
      this.state(t("Computer ready"), "connected");
      this.send();
    });
    onJson(ws, (msg) => {
      const v = current();
      if (msg.type === "lines") {
        if (v && msg.position && msg.position !== v.position) return; // an older search
        drawLines(msg);
      } else if (msg.type === "error") {
        $("engine-info").textContent = socketErrorWords(msg);
      }
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.state(t("Reconnecting…"), "reconnecting");
      this.retry.later();
    });
  }

  analyse(position) {
    this.want = position;
    this.send();
  }

  send() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.want) return;
    this.ws.send(JSON.stringify({ type: "analyse", position: this.want, lines: this.lines() }));
  }
}

const engine = new EngineSocket();

// ---- wiring ----------------------------------------------------------------------
function typing(target) {
  return target && (target.closest("input, textarea, select, [contenteditable]") !== null);
}

function wire() {
  $("back").addEventListener("click", () => goTo(at && at.parent));
  $("forward").addEventListener("click", () => goTo(at && at.children[0]));
  $("to-start").addEventListener("click", () => goTo(root));
  $("promote").addEventListener("click", promoteLine);
  $("delete-line").addEventListener("click", deleteLine);
  document.addEventListener("keydown", (e) => {
    if (typing(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest(".shiftago-board [data-action], .eval-graph")) return; // the board's own arrow keys
    if (!at) return;
    // Left/Right along the line shown, Up/Down to the line above or below at the nearest
    // branch, Home/End to the start and to the end of the line shown
    const to = {
      ArrowLeft: () => at.parent,
      ArrowRight: () => at.children[0],
      ArrowUp: () => sibling(at, -1),
      ArrowDown: () => sibling(at, 1),
      Home: () => root,
      End: () => lineEnd(at),
    }[e.key];
    if (!to) return;
    e.preventDefault();
    goTo(to());
  });
  $("typed").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("action-input").value.trim();
    if (!text) return;
    play(text).then(() => {
      if ($("notice").hidden) $("action-input").value = "";
    });
  });
  // the lines' box keeps the height of the lines chosen (style.css, .engine-lines)
  const reserveLines = () => $("lines").style.setProperty("--count", String(engine.lines()));
  reserveLines();
  $("line-count").addEventListener("change", () => {
    reserveLines();
    engine.send();
  });
  $("copy-position").addEventListener("click", async (e) => {
    const ok = await copyText(current() ? current().position : "");
    e.target.textContent = ok ? t("Copied") : t("Copy failed");
    setTimeout(() => (e.target.textContent = t("Copy position")), 1500);
  });
  $("copy-link").addEventListener("click", async (e) => {
    const ok = await copyText(location.href);
    e.target.textContent = ok ? t("Copied") : t("Copy failed");
    setTimeout(() => (e.target.textContent = t("Copy link")), 1500);
  });
}

async function main() {
  mountPrefs($("prefs"));
  wire();
  const rules = await ruleNumbers(); // the start position and the editor's numbers
  const editor = new PositionEditor($("editor"), {
    rules,
    current: () => current(),
    onUse: async (position) => {
      await setRoot(position); // a refusal throws: the editor shows the server's message
      notice(t("The board shows the position you set up."), "info");
    },
  });
  $("editor-box").addEventListener("toggle", () => {
    if ($("editor-box").open) editor.load(current());
  });
  const params = new URLSearchParams(location.search);
  if (await restoreVariation(params)) return;
  const asked = params.get("position");
  try {
    await setRoot(asked && asked.trim() ? asked : rules.start);
  } catch (err) {
    notice(invalidWords(err, POSITION_REFUSALS, t("This position cannot be set up: the board shows the start position instead.")));
    try {
      await setRoot(rules.start);
    } catch (again) {
      $("status").textContent = t("The board is not available: {why}", { why: errorWords(again.data, t("the server did not answer.")) });
    }
  }
}

main();
