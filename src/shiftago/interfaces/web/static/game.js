// The game page: /play/{id}[?seat=TOKEN] for seat holders (every seat this browser
// holds, for hotseat play) and /watch/{id} for spectators. One WebSocket per held seat
// (docs/web-protocol.md); every socket feeds the same versioned game, and an action is
// sent through the socket of the seat to act, with the version this page has seen.
import {
  BoardView, COLOURS, COLOUR_NAMES, applyPush, applyScoring, isInsertion, isScoring,
  laneCells, marbleIcon, parsePosition,
} from "./board.js";
import {
  VARIANTS, api, copyText, el, forgetToken, gameEntry, localPath, parseStatus, rememberGame, tokenOf,
} from "./api.js";

const $ = (id) => document.getElementById(id);
const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : "");

const parts = location.pathname.split("/").filter(Boolean);
const MODE = parts[0] === "watch" ? "watch" : "play";
const GAME_ID = decodeURIComponent(parts[1] || "");
const params = new URLSearchParams(location.search);
const FAST = ["1", "true", "yes"].includes(params.get("fast")) || params.has("reduced");
if (FAST) document.documentElement.classList.add("reduced-motion");

// ---- state ---------------------------------------------------------------------
let game = null; // the GAME object
let version = -1; // actions played, as the server counts them
let board = new Map();
let lastBoard = null; // the board before the last action (when this page saw it)
let pending = null; // {action, version, at}
let thinking = null; // colour
let presence = null; // the last presence event
let movers = []; // colour of the mover of each action (display only)
let replay = null; // {boards: [Map], step} while replaying
let noticeTimer = null;
let rematchTimer = null;
const rematchUrls = [];
const conns = [];

const boardView = new BoardView($("board"), { arrows: true, interactive: MODE === "play", onAction: act, label: "Shiftago board" });

// ---- helpers -------------------------------------------------------------------
function seatOf(colour) {
  return game && game.seats ? game.seats.find((s) => s.colour === colour) : null;
}

function who(colour) {
  const seat = seatOf(colour);
  const name = seat && seat.name ? seat.name : cap(COLOUR_NAMES[colour]);
  return name.toLowerCase() === COLOUR_NAMES[colour] ? name : `${name} (${COLOUR_NAMES[colour]})`;
}

function heldColours() {
  return conns.filter((c) => c.colour && !c.invalid).map((c) => c.colour);
}

function connFor(colour) {
  return conns.find((c) => c.colour === colour && !c.invalid && c.isOpen());
}

function anyConn() {
  return conns.find((c) => c.colour && !c.invalid && c.isOpen()) || conns.find((c) => c.isOpen());
}

function derived() {
  const pos = parsePosition(game.position) || {};
  const st = parseStatus(game);
  const over = st.over || game.phase === "over" || pos.phase === "over";
  return {
    pos,
    over,
    turn: over ? null : game.turn ?? st.turn ?? pos.turn,
    phase: over ? "over" : game.phase || st.phase || pos.phase,
    supplies: game.supplies || pos.supplies || [],
    scores: game.scores || pos.scores || [],
    skips: game.skips || pos.skips || [],
    players: game.players || pos.players || 2,
    variant: game.variant || pos.variant,
    st,
  };
}

function legalList(d) {
  if (Array.isArray(game.legal)) return game.legal;
  if (d.over) return [];
  if (d.phase === "score") return (game.scoring || []).map((s) => s.action);
  // a game read over HTTP without `legal`: the lanes with room (the server still decides)
  return [..."LR"].flatMap((s) => [1, 2, 3, 4, 5, 6, 7].map((r) => s + r))
    .concat([..."TB"].flatMap((s) => [..."abcdefg"].map((f) => s + f)))
    .filter((a) => laneCells(a).some((c) => !board.has(c)));
}

function notice(text, kind = "error") {
  const box = $("notice");
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = !text;
  clearTimeout(noticeTimer);
  if (text) noticeTimer = setTimeout(() => (box.hidden = true), 6000);
}

// ---- connections ---------------------------------------------------------------
class Conn {
  constructor(token) {
    this.token = token;
    this.colour = null;
    this.seat = null;
    this.invalid = false;
    this.ws = null;
    this.delay = 300;
    this.closedByUs = false;
    this.connect();
  }

  isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/games/${encodeURIComponent(GAME_ID)}`);
    this.ws = ws;
    this.welcomed = false;
    ws.addEventListener("open", () => {
      this.delay = 300;
      ws.send(JSON.stringify({ type: "hello", token: this.token, seen: Math.max(version, 0) }));
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg && typeof msg === "object") handle(this, msg);
    });
    ws.addEventListener("close", (e) => {
      this.welcomed = false;
      if (this.ws !== ws) return;
      render();
      if (this.closedByUs || this.invalid) return;
      if (e.code === 4404 || e.code === 4004) {
        setStatus("This game does not exist.");
        return;
      }
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
    ws.addEventListener("error", () => showConnection());
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  close() {
    this.closedByUs = true;
    if (this.ws) this.ws.close();
  }
}

function showConnection() {
  const box = $("conn");
  const open = conns.filter((c) => !c.invalid && c.isOpen()).length;
  const wanted = conns.filter((c) => !c.invalid).length;
  let state;
  if (wanted && open === wanted) state = "connected";
  else if (open) state = "partly";
  else state = "reconnecting";
  box.dataset.state = state;
  box.setAttribute("data-testid", "connection");
  box.textContent = state === "connected" ? (MODE === "watch" || !heldColours().length ? "Watching live" : "Connected") : state === "partly" ? "Reconnecting some seats…" : "Reconnecting…";
}

function handle(conn, msg) {
  switch (msg.type) {
    case "welcome": {
      conn.welcomed = true;
      if (conn.token && (msg.seat === null || msg.seat === undefined)) {
        // not a seat of this game (any more): watch instead
        forgetToken(GAME_ID, conn.token);
        conn.invalid = true;
        conn.close();
        if (!conns.some((c) => !c.invalid)) conns.push(new Conn(null));
        notice("That seat link is not valid for this game; you are watching.", "info");
      } else if (conn.token) {
        conn.seat = msg.seat;
        conn.colour = msg.colour || COLOURS[msg.seat];
        rememberGame(GAME_ID, { tokens: { [conn.colour]: conn.token } });
      }
      if (typeof msg.version === "number" && !game) loadOverHttp();
      showConnection();
      render();
      break;
    }
    case "state":
      if (msg.game) applyGame(msg.game, msg.version, null);
      break;
    case "action":
      if (typeof msg.version !== "number") break;
      if (msg.version === version + 1 && msg.game) applyGame(msg.game, msg.version, msg);
      else if (msg.version > version + 1) conn.send({ type: "sync", seen: Math.max(version, 0) });
      break;
    case "takeback":
      if (msg.game && (!game || msg.version !== version || (msg.game.actions || []).join() !== (game.actions || []).join())) {
        applyGame(msg.game, msg.version, null);
        notice("Actions were taken back.", "info");
      }
      break;
    case "presence":
      presence = msg;
      render();
      break;
    case "thinking":
      thinking = typeof msg.seat === "number" ? COLOURS[msg.seat] : msg.colour || null;
      render();
      break;
    case "rematch":
      onRematch(conn, msg);
      break;
    case "error":
      pending = null;
      if (msg.code === "stale") conn.send({ type: "sync", seen: Math.max(version, 0) });
      if (msg.code !== "stale" || !msg.silent) notice(msg.message || `Refused: ${msg.code}`);
      render();
      break;
    default:
      break;
  }
}

function applyGame(g, v, info) {
  const newVersion = typeof v === "number" ? v : (g.actions || []).length;
  const prev = board;
  const changed = newVersion !== version;
  game = g;
  version = newVersion;
  board = (parsePosition(g.position) || {}).board || new Map();
  if (changed) {
    thinking = null;
    pending = null;
  }
  let animate = null;
  if (info && info.action) {
    lastBoard = prev;
    animate = replay ? null : { action: info.action, board: prev };
    const colour = typeof info.seat === "number" ? COLOURS[info.seat] : null;
    const acts = g.actions || [];
    if (movers.length === acts.length - 1 && colour) movers.push(colour);
    else refreshMovers();
  } else {
    lastBoard = null;
    refreshMovers();
  }
  if (replay && derived().over) replay = null;
  render(animate);
}

async function loadOverHttp() {
  try {
    const g = await api(`/api/games/${encodeURIComponent(GAME_ID)}`);
    const v = typeof g.version === "number" ? g.version : (g.actions || []).length;
    if (!game || v > version) applyGame(g, v, null);
  } catch (err) {
    if (err.status === 404) setStatus("This game does not exist.");
  }
}

// ---- the mover of each action and replay boards (display only) -------------------
let moversBusy = false;
async function refreshMovers() {
  if (moversBusy) return;
  moversBusy = true;
  try {
    const sim = await simulate();
    if (sim) {
      movers = sim.movers;
      renderMoves();
    }
  } finally {
    moversBusy = false;
  }
}

/** Boards after each action and each action's mover, from the record (setup, first, handicap). */
async function simulate() {
  let rec;
  try {
    rec = await api(`/api/games/${encodeURIComponent(GAME_ID)}/record`);
  } catch {
    return null;
  }
  if (!rec || typeof rec !== "object" || !Array.isArray(rec.actions)) return null;
  const players = rec.players || (game && game.players) || 2;
  let cur;
  let skips;
  let b;
  if (rec.position) {
    const p = parsePosition(rec.position);
    b = p.board;
    cur = COLOURS.indexOf(p.turn);
    skips = p.skips.slice();
  } else {
    b = new Map();
    skips = (rec.handicap && rec.handicap.length ? rec.handicap : new Array(players).fill(0)).slice();
    cur = rec.first ? COLOURS.indexOf(rec.first) : 0;
    while (skips[cur] > 0) {
      skips[cur] -= 1;
      cur = (cur + 1) % players;
    }
  }
  const boards = [b];
  const who = [];
  rec.actions.forEach((action, i) => {
    who.push(COLOURS[cur]);
    if (isInsertion(action)) b = applyPush(b, action, COLOURS[cur]);
    else if (isScoring(action)) b = applyScoring(b, action, players);
    boards.push(b);
    const next = rec.actions[i + 1];
    if (isInsertion(action) && !(next && isScoring(next))) {
      cur = (cur + 1) % players;
      let guard = 0;
      while (skips[cur] > 0 && guard++ < 100) {
        skips[cur] -= 1;
        cur = (cur + 1) % players;
      }
    }
  });
  return { boards, movers: who, actions: rec.actions };
}

// ---- acting ----------------------------------------------------------------------
function act(action) {
  if (!game) return;
  const d = derived();
  if (d.over) return notice("The game is over.");
  if (replay) return notice("Leave the replay first.");
  const conn = connFor(d.turn);
  if (!conn) {
    if (heldColours().includes(d.turn)) return notice("Reconnecting; try again in a moment.");
    return notice(`It is not your turn: ${who(d.turn)} is to play.`);
  }
  if (pending && pending.version === version && Date.now() - pending.at < 8000) return;
  pending = { action, version, at: Date.now() };
  conn.send({ type: "act", action, seen: version });
  render();
}

function typed(e) {
  e.preventDefault();
  const input = $("action-input");
  const text = input.value.trim();
  if (!text) return;
  if (!game) return;
  const legal = legalList(derived());
  const match = legal.find((a) => a.toLowerCase() === text.toLowerCase());
  if (!match && legal.length && !/^x/i.test(text) && !/^[lrtb][a-g1-7]$/i.test(text)) {
    notice(`"${text}" is not an action. Legal now: ${legal.join(" ")}`);
    return;
  }
  input.value = "";
  act(match || text);
}

// ---- rendering -------------------------------------------------------------------
function setStatus(text) {
  $("status").textContent = text;
}

function statusText(d) {
  if (!game) return "Loading the game…";
  if (d.over) {
    const r = game.result || {};
    const winners = r.winners || d.st.winners;
    if (d.st.draw || (winners && winners.length > 1)) {
      const why = { "board full": " (the board is full)", "no marbles": " (no marbles left to play)", "action limit": " (action limit reached)" }[r.reason] || "";
      return `Game over: draw between ${winners.map(who).join(" and ")}${why}.`;
    }
    if (winners && winners.length) {
      const reasons = {
        line: " with a line", points: " on points", resignation: " by resignation", resign: " by resignation",
        abandoned: " (the other side left the game)", "board full": " (the board is full)", "no marbles": " (no marbles left to play)",
        "action limit": " (action limit reached)",
      };
      const reason = reasons[r.reason] ?? (r.line && r.line.length ? " with a line" : "");
      return `Game over: ${who(winners[0])} wins${reason}.`;
    }
    return "Game over.";
  }
  const mine = heldColours().includes(d.turn);
  const seat = seatOf(d.turn);
  if (thinking === d.turn || (seat && seat.kind === "computer")) {
    return `${who(d.turn)} is thinking…`;
  }
  if (d.phase === "score") {
    return mine ? `Your turn, ${who(d.turn)}: score a line (click it, or type its action).` : `${who(d.turn)} to score a line.`;
  }
  return mine ? `Your turn, ${who(d.turn)}: push a marble in.` : `${who(d.turn)} to play.`;
}

function render(animate = null) {
  showConnection();
  if (!game) return;
  const d = derived();
  const legal = legalList(d);
  const canAct = !d.over && !replay && !!connFor(d.turn) && !(pending && pending.version === version);

  // board
  if (replay) {
    const step = replay.step;
    const acts = game.actions || [];
    boardView.update({
      board: replay.boards[step], players: d.players, last: step > 0 ? acts[step - 1] : null,
      lastBoard: step > 0 ? replay.boards[step - 1] : null, legal: new Set(), active: false, phase: "replay",
      winLine: step === acts.length && game.result ? game.result.line : null,
    });
  } else {
    const acts = game.actions || [];
    boardView.update({
      board, players: d.players, turn: d.turn, phase: d.phase, legal: new Set(legal), active: canAct,
      last: game.last ?? (acts.length ? acts[acts.length - 1] : null), lastBoard,
      scoring: d.phase === "score" ? game.scoring || legal.map((action) => ({ action, cells: null })) : [],
      winLine: game.result && game.result.line,
    }, { animate });
  }
  document.body.classList.toggle("my-turn", canAct);
  document.body.dataset.version = String(version);

  setStatus(statusText(d));
  $("position").textContent = game.position || "";
  const v = VARIANTS[d.variant];
  $("game-title").textContent = `${v ? v.name : d.variant}, ${d.players} players`;
  document.title = `${canAct ? "Your turn · " : ""}Shiftago ${v ? v.name : ""}`;

  // typed actions
  $("action-input").disabled = !canAct;
  $("action-go").disabled = !canAct;
  $("typed").hidden = MODE === "watch" || !heldColours().length || d.over;
  $("legal-list").textContent = canAct && legal.length ? `Legal now: ${legal.join(" ")}` : "";

  renderPlayers(d);
  renderMoves();
  renderResult(d);
  renderControls(d);
  $("download-record").href = `/api/games/${encodeURIComponent(GAME_ID)}/record`;
  $("download-record").setAttribute("download", `shiftago-${GAME_ID}.txt`);
}

function fmtSeconds(s) {
  s = Math.max(0, Math.round(s));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function awayFor(p) {
  if (!p || p.connected || p.away_since === null || p.away_since === undefined) return null;
  let t = p.away_since;
  if (typeof t === "number") t = t > 1e12 ? t : t * 1000;
  else t = Date.parse(t);
  return Number.isFinite(t) ? (Date.now() - t) / 1000 : null;
}

function presenceOf(colour) {
  return presence && presence.seats ? presence.seats.find((s) => s.colour === colour) : null;
}

function renderPlayers(d) {
  const box = $("players");
  box.replaceChildren();
  const held = heldColours();
  (game.seats || []).forEach((seat, i) => {
    const colour = seat.colour || COLOURS[i];
    const toAct = !d.over && d.turn === colour;
    const isWinner = d.over && ((game.result && game.result.winners) || d.st.winners || []).includes(colour);
    const stats = el("dl", { class: "stats" },
      el("dt", { text: "Marbles" }), el("dd", { "data-testid": `supply-${colour}`, text: d.supplies[i] ?? "–" }));
    if (d.variant !== "express") stats.append(el("dt", { text: "Points" }), el("dd", { "data-testid": `score-${colour}`, text: d.scores[i] ?? 0 }));
    if ((d.skips[i] || 0) > 0) stats.append(el("dt", { text: "Skips" }), el("dd", { text: d.skips[i] }));
    const badges = el("span", { class: "badges" });
    if (held.includes(colour)) badges.append(el("span", { class: "badge you", text: "you" }));
    if (seat.kind === "computer") badges.append(el("span", { class: "badge", text: seat.level ? `computer, level ${seat.level}` : "computer" }));
    const p = presenceOf(colour);
    const connected = p ? p.connected : seat.connected;
    if (seat.kind !== "computer" && connected !== undefined && connected !== null) {
      const away = awayFor(p);
      badges.append(el("span", { class: `badge ${connected ? "here" : "away"}`, text: connected ? "connected" : away !== null ? `away ${fmtSeconds(away)}` : "away" }));
    }
    let turnText = "";
    if (toAct) turnText = thinking === colour || seat.kind === "computer" ? "thinking…" : d.phase === "score" ? "to score" : "to play";
    if (isWinner) turnText = d.st.draw ? "draw" : "winner";
    box.append(
      el("article", { class: `player colour-${colour}${toAct ? " to-act" : ""}${isWinner ? " winner" : ""}`, "data-testid": `player-${colour}`, "aria-current": toAct ? "true" : null },
        el("div", { class: "player-head" }, marbleIcon(colour, 28),
          el("span", { class: "player-name", text: seat.name || cap(COLOUR_NAMES[colour]) }),
          el("span", { class: "visually-hidden", text: ` (${COLOUR_NAMES[colour]})` }),
          el("span", { class: "turn", text: turnText })),
        badges, stats),
    );
  });
}

function renderMoves() {
  const box = $("moves");
  if (!game) return;
  const acts = game.actions || [];
  box.replaceChildren();
  let item = null;
  let n = 0;
  acts.forEach((a, i) => {
    if (!item || isInsertion(a)) {
      n += 1;
      item = el("li", { value: n });
      const mover = movers.length === acts.length ? movers[i] : null;
      if (mover) item.append(marbleIcon(mover, 14), el("span", { class: "visually-hidden", text: `${COLOUR_NAMES[mover]}: ` }));
      box.append(item);
    }
    const current = replay ? i === replay.step - 1 : i === acts.length - 1;
    const node = el("span", { class: `move${current ? " current" : ""}`, text: a });
    if (replay) {
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.addEventListener("click", () => goto(i + 1));
      node.addEventListener("keydown", (e) => (e.key === "Enter" ? goto(i + 1) : null));
    }
    item.append(node, " ");
  });
  const cur = box.querySelector(".current");
  if (cur && box.scrollHeight > box.clientHeight) box.scrollTop = cur.offsetTop - box.clientHeight / 2;
}

function renderResult(d) {
  const box = $("result");
  const t = game.tournament;
  box.hidden = !d.over;
  if (d.over) $("result-text").textContent = statusText(d).replace(/^Game over: /, "");
  const held = heldColours().length > 0;
  let tournamentWon = false;
  const tbox = $("tournament");
  if (t && typeof t === "object") {
    const target = t.target || 10;
    const winsOf = (c, i) => (Array.isArray(t.wins) ? t.wins[i] : t.wins ? t.wins[c] : 0) || 0;
    const line = (game.seats || []).map((s, i) => `${s.name || cap(COLOUR_NAMES[s.colour])} ${winsOf(s.colour, i)}`).join(" · ");
    const leader = (game.seats || []).find((s, i) => winsOf(s.colour, i) >= target);
    tournamentWon = !!leader;
    tbox.replaceChildren(
      el("h2", { text: `Tournament to ${target} wins` }),
      el("p", { "data-testid": "tournament-score", text: line }),
      leader ? el("p", { class: "strong", text: `${leader.name || cap(COLOUR_NAMES[leader.colour])} wins the tournament!` }) : null,
    );
    tbox.hidden = false;
  } else tbox.hidden = true;
  $("rematch").hidden = !(d.over && held && (!t || tournamentWon));
  $("next-game").hidden = !(d.over && held && t && !tournamentWon);
  const follow = $("follow-next");
  follow.hidden = !(d.over && game.next);
  if (game.next) follow.href = `/${held ? "play" : "watch"}/${encodeURIComponent(game.next)}`;
  $("rematch").hidden = $("rematch").hidden || !!game.next;
  $("next-game").hidden = $("next-game").hidden || !!game.next;
  $("replay").hidden = !d.over;
  if (d.over && replay) updateReplayControls();
  else if (d.over) {
    const n = (game.actions || []).length;
    $("rp-range").max = String(n);
    $("rp-range").value = String(n);
    $("rp-step").textContent = `${n} / ${n}`;
  }
}

function renderControls(d) {
  const held = heldColours();
  const hasComputer = (game.seats || []).some((s) => s.kind === "computer");
  $("takeback").hidden = !(held.length && hasComputer && !d.over && (game.actions || []).length > 0);
  const canResign = held.length && !d.over;
  $("resign").hidden = !canResign || !$("resign-confirm").hidden;
  if (!canResign) $("resign-confirm").hidden = true;
  const resigner = held.includes(d.turn) ? d.turn : held[0];
  $("resign").textContent = held.length > 1 && resigner ? `Resign (${COLOUR_NAMES[resigner]})` : "Resign";

  // claims for seats away longer than the grace time
  const claims = $("claims");
  claims.replaceChildren();
  if (held.length && !d.over && presence && presence.seats) {
    const grace = presence.grace_seconds ?? 120;
    presence.seats.forEach((p, i) => {
      if (held.includes(p.colour) || p.connected) return;
      const seat = seatOf(p.colour);
      if (seat && seat.kind === "computer") return;
      const away = awayFor(p);
      if (away === null) return;
      const seatIndex = (game.seats || []).findIndex((s) => s.colour === p.colour);
      const idx = seatIndex >= 0 ? seatIndex : i;
      if (away < grace) {
        claims.append(el("p", { class: "hint", text: `${who(p.colour)} is away (${fmtSeconds(away)}); after ${fmtSeconds(grace)} you may hand the seat to the computer or end the game.` }));
      } else {
        claims.append(el("p", {}, el("span", { text: `${who(p.colour)} has been away ${fmtSeconds(away)}. ` }),
          el("button", { type: "button", "data-claim": "computer", "data-seat": idx, text: "Let the computer play", onclick: () => claim(idx, "computer") }), " ",
          el("button", { type: "button", "data-claim": "end", "data-seat": idx, text: "End the game", onclick: () => claim(idx, "end") })));
      }
    });
  }

  // friends' links, when this browser created the game
  const invites = gameEntry(GAME_ID).invites || {};
  const list = $("invite-list");
  list.replaceChildren();
  for (const [colour, url] of Object.entries(invites)) {
    const p = presenceOf(colour);
    if (p && p.connected) continue;
    const input = el("input", { type: "text", readonly: true, value: url, "aria-label": `Link for ${COLOUR_NAMES[colour]}` });
    const copy = el("button", { type: "button", text: "Copy" });
    copy.addEventListener("click", async () => (copy.textContent = (await copyText(url)) ? "Copied" : "Copy failed"));
    list.append(el("li", {}, marbleIcon(colour, 18), input, copy));
  }
  $("invites").hidden = d.over || !list.children.length;
  const shown = ["takeback", "resign", "resign-confirm", "invites"].some((id) => !$(id).hidden) || claims.children.length > 0;
  $("controls").hidden = !shown;
}

function send(obj, colour = null) {
  const conn = (colour && connFor(colour)) || anyConn();
  if (!conn || !conn.send(obj)) notice("Not connected; try again in a moment.");
}

function claim(seat, to) {
  send({ type: "claim", seat, to });
}

// ---- replay ----------------------------------------------------------------------
async function startReplay(step) {
  const sim = await simulate();
  if (!sim) return notice("The record could not be read for the replay.");
  movers = sim.movers;
  replay = { boards: sim.boards, step: Math.max(0, Math.min(step, sim.boards.length - 1)) };
  updateReplayControls();
  render();
}

function goto(step) {
  if (!game || !derived().over) return;
  if (!replay) return startReplay(step);
  const n = replay.boards.length - 1;
  replay.step = Math.max(0, Math.min(step, n));
  if (replay.step === n) {
    replay = null;
    updateReplayControls(n);
  } else updateReplayControls();
  render();
}

function updateReplayControls(atEnd = null) {
  const n = (game.actions || []).length;
  const step = replay ? replay.step : atEnd ?? n;
  $("rp-range").max = String(n);
  $("rp-range").value = String(step);
  $("rp-step").textContent = `${step} / ${n}`;
  $("rp-step").setAttribute("data-testid", "replay-step");
  $("rp-step").setAttribute("aria-label", `Showing the position after ${step} of ${n} actions`);
}

function currentStep() {
  return replay ? replay.step : (game.actions || []).length;
}

// ---- rematch -----------------------------------------------------------------------
function onRematch(conn, msg) {
  if (!msg.id) return;
  if (msg.url && conn.colour) rememberGame(msg.id, { tokens: { [conn.colour]: tokenOf(msg.url) } });
  if (msg.url) rematchUrls.push(localPath(msg.url));
  clearTimeout(rematchTimer);
  notice("A new game is starting…", "info");
  rematchTimer = setTimeout(() => {
    location.href = rematchUrls[0] || `/watch/${encodeURIComponent(msg.id)}`;
  }, FAST ? 150 : 600);
}

// ---- start ----------------------------------------------------------------------------
function wire() {
  $("typed").addEventListener("submit", typed);
  $("resign").addEventListener("click", () => {
    $("resign").hidden = true;
    $("resign-confirm").hidden = false;
    $("resign-yes").focus();
  });
  $("resign-no").addEventListener("click", () => {
    $("resign-confirm").hidden = true;
    $("resign").hidden = false;
    $("resign").focus();
  });
  $("resign-yes").addEventListener("click", () => {
    $("resign-confirm").hidden = true;
    const d = derived();
    const held = heldColours();
    send({ type: "resign" }, held.includes(d.turn) ? d.turn : held[0]);
    render();
  });
  $("takeback").addEventListener("click", () => send({ type: "takeback" }));
  $("rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("next-game").addEventListener("click", () => send({ type: "rematch" }));
  $("copy-position").addEventListener("click", async () => {
    const ok = game && (await copyText(game.position));
    notice(ok ? "Position copied." : "Could not copy.", "info");
  });
  $("copy-record").addEventListener("click", async () => {
    try {
      const text = await api(`/api/games/${encodeURIComponent(GAME_ID)}/record`, { accept: "text/plain" });
      notice((await copyText(typeof text === "string" ? text : JSON.stringify(text, null, 2))) ? "Record copied." : "Could not copy.", "info");
    } catch (err) {
      notice(`Could not read the record: ${err.message}`);
    }
  });
  $("follow-next").addEventListener("click", () => {
    // the seat tokens carry over to the next game of the same seats
    if (game && game.next) rememberGame(game.next, { tokens: gameEntry(GAME_ID).tokens || {} });
  });
  $("rp-first").addEventListener("click", () => goto(0));
  $("rp-prev").addEventListener("click", () => goto(currentStep() - 1));
  $("rp-next").addEventListener("click", () => goto(currentStep() + 1));
  $("rp-last").addEventListener("click", () => goto((game.actions || []).length));
  $("rp-range").addEventListener("input", (e) => goto(+e.target.value));
  setInterval(() => {
    if (presence && game) render();
    for (const c of conns) if (c.isOpen()) c.send({ type: "ping" });
  }, 25000);
  // the away clocks tick every second while somebody is away
  setInterval(() => {
    if (game && presence && presence.seats && presence.seats.some((p) => !p.connected)) {
      const d = derived();
      renderPlayers(d);
      renderControls(d);
    }
  }, 1000);
}

function start() {
  if (!GAME_ID) {
    setStatus("No game here.");
    return;
  }
  wire();
  const tokens = new Set();
  if (MODE === "play") {
    const fromUrl = params.get("seat");
    if (fromUrl) tokens.add(fromUrl);
    for (const t of Object.values(gameEntry(GAME_ID).tokens || {})) if (t) tokens.add(t);
  }
  if (tokens.size) for (const t of tokens) conns.push(new Conn(t));
  else conns.push(new Conn(null));
  loadOverHttp();
}

start();

// For tests and debugging: drop every socket (they reconnect by themselves) and read the version.
window.shiftago = {
  get version() {
    return version;
  },
  get game() {
    return game;
  },
  dropConnections() {
    for (const c of conns) if (c.ws) c.ws.close();
  },
};
