// HTTP API (WEBAPI.md) and the seats this browser holds (localStorage).
import { colourName, levelName, variantName } from "./gamewords.js";
import { t, tn } from "./i18n.js";

export { colourName, levelName, variantName };

const STORE = "shiftago.games";

// getters, so that each name is looked up in the page's catalogue when it is shown;
// the variants' names are the rulebook's in every language
export const VARIANTS = {
  express: {
    get name() { return variantName("express"); },
    get summary() { return t("First to make a line of 5 (2 players) or 4 (3-4 players) wins."); },
  },
  expert: {
    get name() { return variantName("expert"); },
    get summary() { return t("Score lines of 5+ (2 players) or 4+ (3-4) for points; first to 10 points wins."); },
  },
  extreme: {
    get name() { return variantName("extreme"); },
    get summary() { return t("As Expert, but shorter lines must be scored too (for 0 points)."); },
  },
};


/** A rating category ("express-2") in words ("Express, 2 players"); an unknown one as it is. */
export function categoryName(category) {
  const [variant, players] = String(category).split("-");
  const known = VARIANTS[variant];
  if (!known || !/^[2-4]$/.test(players || "")) return String(category);
  return tn("{variant}, {n} player", "{variant}, {n} players", Number(players), { variant: known.name });
}

function readStore() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

function writeStore(data) {
  try {
    localStorage.setItem(STORE, JSON.stringify(data));
  } catch {
    /* private mode: the seat then lives only in the URL */
  }
}

/** All games this browser knows: {id: {tokens: {colour: token}, invites?, added?}}. */
export function knownGames() {
  return readStore();
}

export function gameEntry(id) {
  const entry = readStore()[id];
  return entry && typeof entry === "object" ? entry : { tokens: {} };
}

export function rememberGame(id, { tokens = {}, invites = null } = {}) {
  const data = readStore();
  const entry = data[id] && typeof data[id] === "object" ? data[id] : {};
  entry.tokens = { ...(entry.tokens || {}), ...tokens };
  if (invites) entry.invites = { ...(entry.invites || {}), ...invites };
  if (!entry.added) entry.added = new Date().toISOString();
  data[id] = entry;
  writeStore(data);
}

export function forgetToken(id, token) {
  const data = readStore();
  const entry = data[id];
  if (!entry || !entry.tokens) return;
  for (const [colour, t] of Object.entries(entry.tokens)) if (t === token) delete entry.tokens[colour];
  writeStore(data);
}

export function forgetGame(id) {
  const data = readStore();
  delete data[id];
  writeStore(data);
}

/** The seat token of a join URL (`/play/{id}?seat=TOKEN`). */
export function tokenOf(url) {
  try {
    return new URL(url, location.href).searchParams.get("seat");
  } catch {
    return null;
  }
}

/** A join/watch URL made same-origin (the page's own host), path and query kept. */
export function localPath(url) {
  try {
    const u = new URL(url, location.href);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/** The CSRF token of the signed-in session (the `csrf` cookie), or "". */
export function csrfToken() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("csrf="));
  return found ? decodeURIComponent(found.slice(5)) : "";
}

export async function api(path, { method = "GET", body = undefined, accept = "application/json" } = {}) {
  const init = { method, headers: { Accept: accept } };
  // a change made with the session cookie shows the CSRF token (docs/web-protocol.md)
  if (method !== "GET" && csrfToken()) init.headers["X-CSRF-Token"] = csrfToken();
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const type = res.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const err = new Error(errorText(data) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.data = data;
    throw err;
  }
  return data;
}

/** An error's words without the field's name before them ("action: 'zz' is not ..."
 *  reads "'zz' is not ..."), for a page where the field is plain from the context. */
export function withoutField(err) {
  const field = err && err.data && typeof err.data === "object" ? err.data.field : null;
  const text = (err && err.message) || "";
  return field && text.startsWith(`${field}: `) ? text.slice(field.length + 2) : text;
}

/** A readable message from an error body (FastAPI's `detail` included). */
export function errorText(data) {
  if (!data) return "";
  if (typeof data === "string") return data.slice(0, 300);
  const d = data.message ?? data.detail ?? data.error;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) {
    return d
      .map((x) => (x && typeof x === "object" ? `${(x.loc || []).filter((p) => p !== "body").join(".")}: ${x.msg}` : String(x)))
      .join("; ");
  }
  return d ? JSON.stringify(d) : "";
}

/** A word with its first letter in capitals ("orange" -> "Orange"). */
export const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : "");

let levelsAnswer = null;

/** `GET /api/levels`, asked once per page: the computer's levels and the rules' numbers. */
function askLevels() {
  if (!levelsAnswer) levelsAnswer = api("/api/levels");
  return levelsAnswer;
}

/** The rules' numbers the forms need, as the server says them (`GET /api/levels`
 *  `rules`): `marbles` per player, `max_handicap`, and the standard `start` position. */
export async function ruleNumbers() {
  return (await askLevels()).rules;
}

/** `GET /api/levels` in any of its plausible shapes, as [{level, name}] (the name in the
 * page's words); [1] when absent. */
export async function levels() {
  try {
    const data = await askLevels();
    const list = Array.isArray(data) ? data : data && (data.levels || data.items);
    const out = (list || [])
      .map((x) =>
        Array.isArray(x)
          ? { level: +x[0], name: String(x[1] ?? "") }
          : typeof x === "number"
            ? { level: x, name: "" }
            : { level: +(x.level ?? x.number ?? x.id), name: String(x.name ?? "") },
      )
      .filter((x) => Number.isFinite(x.level))
      .map((x) => ({ level: x.level, name: levelName(x.name) }));
    if (out.length) return out;
  } catch {
    /* fall through */
  }
  return [{ level: 1, name: "" }];
}

/** The status words of a GAME: {over, aborted, draw, winners, turn, phase}. */
export function parseStatus(game) {
  const words = String(game.status || "").split(/\s+/);
  if (words[0] === "over") {
    // "over winner o", "over draw o g", or "over aborted" (nobody won)
    return { over: true, aborted: words[1] === "aborted", draw: words[1] === "draw", winners: words.slice(2), turn: null, phase: "over" };
  }
  return { over: false, draw: false, winners: [], turn: words[1] || game.turn || null, phase: words[2] || game.phase || "insert" };
}

/** Escape inside a question's `box` answers it as its `no` button would (a keyboard
 *  user's way out of every "Really …?" question). */
export function escapeSaysNo(box, no) {
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    no.click();
  });
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = el("textarea", { class: "visually-hidden" });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

const noticeTimers = new WeakMap();
/** How long a notice box stays empty before it shows the same words again. */
const NOTICE_AGAIN_MS = 150;

/** A short message in a notice box (`kind`: error or info), hidden again after six seconds. */
export function showNotice(box, text, kind = "error") {
  clearTimeout(noticeTimers.get(box));
  // the same words again (the same action refused twice): an alert whose text does not
  // change is not read again, so the box is emptied and filled a moment later
  const again = Boolean(text) && !box.hidden && box.textContent === text;
  box.textContent = again ? "" : text;
  box.className = `notice ${kind}`;
  box.hidden = !text;
  if (again) noticeTimers.set(box, setTimeout(() => showNotice(box, text, kind), NOTICE_AGAIN_MS));
  else if (text) noticeTimers.set(box, setTimeout(() => (box.hidden = true), 6000));
}

/** A WebSocket to `path` on this host (wss: under https:). */
export function openSocket(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return new WebSocket(`${scheme}//${location.host}${path}`);
}

/** Hand each JSON object that `ws` receives to `handle` (anything else is dropped). */
export function onJson(ws, handle) {
  ws.addEventListener("message", (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      console.warn("shiftago: a message that is not JSON", e.data);
      return;
    }
    if (msg && typeof msg === "object") handle(msg);
  });
}
