// The game page: /play/{id}[?seat=TOKEN] for seat holders (every seat this browser
// holds, for hotseat play) and /watch/{id} for spectators; `?step=k` opens a finished
// game's replay at step k. The wiring: the sockets' events update the shared state
// (state.js) and everything is drawn again from it. The page draws, the server
// decides: turns, legal actions, points, skips and permissions all come from GAME.
import { BoardView, COLOURS, parsePosition } from "./board.js";
import { api, copyText, escapeSaysNo, forgetToken, gameEntry, localPath, rememberGame, showNotice, tokenOf } from "./api.js";
import { Conn, seatOfToken, showConnection } from "./connection.js";
import { errorWords } from "./errors.js";
import { number, t, tn } from "./i18n.js";
import { refusalWords } from "./refusals.js";
import { drawOfferWords, renderControls, renderShare, resigner, takebackMessage, takebackNow } from "./controls.js";
import { actionNews, renderMoves } from "./moves.js";
import { gameTitle } from "./clock.js";
import { rematchOffer, renderPlayers, renderResult, renderScoreChoices, statusText } from "./panels.js";
import { loadSteps, renderReplay, setStep, stepFromUrl, stepsReady, wireReplay } from "./replay.js";
import { $, anyConn, connFor, ctx, held, heldThatMay, history as moveHistory, holdsEveryPerson, isOver, lastStep, may, replaying, setText, shown, shownStep, who } from "./state.js";
import { GameReview } from "./review.js";
import { mountPrefs, playSound } from "./prefs.js";
import { ChatPanel } from "./chat.js";
import { followTurn, onSeen, pageTitle, renderNotify } from "./turn.js";
import { ratingsOnGame, showRatings } from "./rated.js";
import { mountPlayFrom } from "./playfrom.js";
import { renderPictureLinks } from "./pictures.js";
import { Announcer } from "./announce.js";
import { spokenOnOpening, spokenSince, spokenStep } from "./spoken.js";
import { anotherSeatWords, variantName } from "./gamewords.js";

if (ctx.fast) document.documentElement.classList.add("reduced-motion");

let rematchTimer = null;
let wasMine = null; // whether it was this screen's turn at the last render
let reviewStep = null; // the step the review was last shown
const rematchUrls = [];
/** The ends that no action on the board made (`result.reason`). */
const OFF_BOARD_ENDS = new Set(["resignation", "abandoned", "time", "aborted", "agreement"]);
const announcer = new Announcer($("announcer"));
/** The greyed-arrows hint last said aloud ("" while none stands). */
let saidApart = "";

function notice(text, kind = "error") {
  showNotice($("notice"), text, kind);
}

function setStatus(text) {
  setText("status", text);
}

function send(obj, colour = null) {
  const conn = (colour && connFor(colour)) || anyConn();
  if (!conn || !conn.send(obj)) notice(t("Not connected; try again in a moment."));
}

// ---- events from the server --------------------------------------------------------
function handle(conn, msg) {
  switch (msg.type) {
    case "welcome":
      welcome(conn, msg);
      break;
    case "state":
      if (msg.game) {
        const declined = offerDeclined(msg.game, msg.version);
        applyGame(msg.game, msg.version, null);
        if (declined) notice(t("Your draw offer was declined."), "info");
      }
      break;
    case "action":
      if (typeof msg.version !== "number") break;
      if (msg.version === ctx.version + 1 && msg.game) {
        applyGame(msg.game, msg.version, msg);
        document.dispatchEvent(new CustomEvent("shiftago:turn")); // the header's count (waiting.js)
      }
      else if (msg.version > ctx.version + 1) conn.send({ type: "sync", seen: Math.max(ctx.version, 0) });
      break;
    case "takeback":
      if (msg.game && (!ctx.game || msg.version !== ctx.version || (msg.game.actions || []).join() !== (ctx.game.actions || []).join())) {
        const gone = takenBack((ctx.game && ctx.game.actions) || [], msg.game.actions || []);
        ctx.step = null; // a replay's step (and steps) are of the game as it was
        ctx.steps = null;
        announcer.clear(); // what it said of the actions taken back no longer holds
        applyGame(msg.game, msg.version, null);
        notice(gone.length
          ? tn("{n} action was taken back: {actions}.", "{n} actions were taken back: {actions}.", gone.length, { n: number(gone.length), actions: gone.join(" ") })
          : t("Actions were taken back."), "info");
      }
      break;
    case "presence":
      ctx.presence = msg;
      render();
      break;
    case "thinking":
      ctx.thinking = typeof msg.seat === "number" ? COLOURS[msg.seat] : msg.colour || null;
      render();
      break;
    case "rematch":
      onRematch(conn, msg);
      break;
    case "error": {
      const sent = ctx.pending ? ctx.pending.action : "";
      ctx.pending = null;
      if (msg.code === "stale") conn.send({ type: "sync", seen: Math.max(ctx.version, 0) });
      // a seat link refused at hello: the welcome that follows says what this page does
      else if (msg.code === "not_seated" && !conn.welcomed) break;
      // a chat message refused is said under the chat's line, where its writer looks
      // (above the board it was off a phone's screen), and its text is not lost
      else if (msg.reason === "chat_too_fast" && ctx.chat) ctx.chat.restore(refusalWords(msg, sent));
      // a refused scoring names the lines that can be scored
      else notice(refusalWords(msg, sent, ctx.game && ctx.game.phase === "score" ? (ctx.game.scoring || []).map((c) => c.action) : []));
      render();
      break;
    }
    case "rated":
      showRatings(msg.changes);
      break;
    case "review": // somebody asked for the game's review: read it and follow it
      ctx.review.fetch();
      break;
    case "chat":
      if (ctx.chat) ctx.chat.add(msg);
      break;
    case "chat_history":
      if (ctx.chat) ctx.chat.history(msg);
      break;
    case "pong":
      break;
    default:
      console.warn(`shiftago: unknown event type ${JSON.stringify(msg.type)}`, msg);
  }
}

/** The actions of `before` that a take-back left out of `after` (none where `after` is
 *  not where `before` was taken back to: a page that missed actions says no list). */
function takenBack(before, after) {
  if (after.length >= before.length || after.some((a, i) => a !== before[i])) return [];
  return before.slice(after.length);
}

/** Whether GAME (at `version`) is this browser's draw offer declined: the offer gone
 * with no action played (the opponent's action lets it lapse) and the game going on. */
function offerDeclined(game, version) {
  const before = ctx.game;
  if (!before || !before.draw_offer || !held().includes(before.draw_offer)) return false;
  return !game.draw_offer && version === ctx.version && !String(game.status || "").startsWith("over");
}

function welcome(conn, msg) {
  conn.welcomed = true;
  if (conn.token && (msg.seat === null || msg.seat === undefined)) {
    // not a seat of this game (any more): watch instead
    forgetToken(ctx.gameId, conn.token);
    conn.invalid = true;
    conn.close();
    if (!ctx.conns.some((c) => !c.invalid)) ctx.conns.push(newConn(null, ctx.mode === "play"));
    const seated = ctx.conns.some((c) => !c.invalid && c.token);
    notice(seated
      ? t("That seat link is not valid for this game; you play the seats this browser already holds.")
      : t("That seat link is not valid for this game; you are watching."), "info");
  } else if (conn.token) {
    conn.seat = msg.seat;
    conn.colour = msg.colour || COLOURS[msg.seat];
    rememberGame(ctx.gameId, { tokens: { [conn.colour]: conn.token } });
  } else if (msg.seat !== null && msg.seat !== undefined) {
    // the seat of the signed-in account: the session is its credential, no token kept
    conn.seat = msg.seat;
    conn.colour = msg.colour || COLOURS[msg.seat];
  }
  // The same count of actions does not mean the same game: a resignation, an abort, a
  // draw agreed or a seat handed on while this page was not connected (or before its
  // first socket was) changes no count. Asked to sync, the server sends the game.
  if (ctx.game && !conn.invalid && msg.version === ctx.version) conn.send({ type: "sync", seen: Math.max(ctx.version, 0) });
  if (!ctx.game) loadOverHttp();
  render();
}

function applyGame(g, v, info) {
  const before = ctx.game ? (parsePosition(ctx.game.position) || {}).board || null : null;
  const version = typeof v === "number" ? v : (g.actions || []).length;
  const was = { version: ctx.version, over: isOver() };
  if (version !== ctx.version) {
    ctx.thinking = null;
    ctx.pending = null;
    // an error was about the game as it stood (a refused action): the game has moved on
    if ($("notice").classList.contains("error")) notice("");
  }
  ctx.game = g;
  ctx.version = version;
  // a game ended by a resignation or a flag keeps its version: an error about it is past
  if (!was.over && isOver() && $("notice").classList.contains("error")) notice("");
  ratingsOnGame(g);
  let animate = null;
  if (info && info.action) {
    ctx.lastBoard = before;
    if (!replaying()) animate = { action: info.action, board: before, motion: g.motion };
    playSound("action");
  } else ctx.lastBoard = null;
  // what happened since this page last saw the game, said in words; on opening it,
  // the computer's actions since a person's (said once: the page sees them only now)
  if (was.version >= 0) announcer.say(...spokenSince(g, was.version, version, was.over));
  else announcer.say(...spokenOnOpening(g, version));
  render(animate);
}

async function loadOverHttp() {
  try {
    const g = await api(`/api/games/${encodeURIComponent(ctx.gameId)}`);
    const v = typeof g.version === "number" ? g.version : (g.actions || []).length;
    if (!ctx.game || v > ctx.version) applyGame(g, v, null);
  } catch (err) {
    if (err.status === 404) setStatus(t("This game does not exist."));
  }
}

function onRematch(conn, msg) {
  if (!msg.id) return;
  // a seat link is kept; an account's seat has none (the session plays it in any browser)
  const token = msg.url ? tokenOf(msg.url) : null;
  if (token && conn.colour) rememberGame(msg.id, { tokens: { [conn.colour]: token } });
  if (msg.url) rematchUrls.push(localPath(msg.url));
  clearTimeout(rematchTimer);
  notice(t("A new game is starting…"), "info");
  rematchTimer = setTimeout(() => {
    location.href = rematchUrls[0] || `/watch/${encodeURIComponent(msg.id)}`;
  }, ctx.fast ? 150 : 600);
}

// ---- acting ------------------------------------------------------------------------
function canAct() {
  const g = ctx.game;
  if (!g || isOver() || replaying() || !g.turn) return false;
  if (ctx.pending && ctx.pending.version === ctx.version) return false;
  return !!connFor(g.turn) && may(g.turn, "act");
}

function act(action) {
  const g = ctx.game;
  if (!g) return;
  if (isOver()) return notice(t("The game is over."));
  const conn = connFor(g.turn);
  if (!conn || !may(g.turn, "act")) {
    if (held().includes(g.turn)) return notice(t("Reconnecting; try again in a moment."));
    return notice(t("It is not your turn: {name} is to play.", { name: who(g.turn) }));
  }
  const p = ctx.pending;
  if (p && p.version === ctx.version && Date.now() - p.at < 8000) return;
  ctx.pending = { action, version: ctx.version, at: Date.now() };
  conn.send({ type: "act", action, seen: ctx.version });
  render();
}

function typed(e) {
  e.preventDefault();
  const input = $("action-input");
  const text = input.value.trim();
  if (!ctx.game) return;
  if (!text) return notice(t("Type an action first, such as L3, Tc or xc3-g3."));
  const match = (ctx.game.legal || []).find((a) => a.toLowerCase() === text.toLowerCase());
  input.value = "";
  act(match || text); // another spelling: the server reads it (or says why not)
}

// ---- replay ------------------------------------------------------------------------
function goto(k) {
  if (!isOver()) return;
  const before = shownStep();
  setStep(k);
  const after = shownStep();
  if (after !== before) announcer.say(spokenStep(after, lastStep(), (ctx.game.seats || []).length));
  let animate = null;
  if (after === before + 1 && stepsReady()) {
    const motion = (moveHistory()[after - 1] || {}).motion;
    animate = { action: ctx.steps[after].last, board: (parsePosition(ctx.steps[before].position) || {}).board, motion };
  }
  render(animate);
}

// ---- drawing -----------------------------------------------------------------------
function drawMoves() {
  renderMoves({ onJump: goto });
}

function render(animate = null) {
  const focused = document.activeElement;
  draw(animate);
  keepFocus(focused);
}

/** The places the keyboard focus goes when the control that had it is gone (a button
 *  that hid itself, or its answer hid it) and nothing else took it (the board moves
 *  its own focus): the first of them that is shown. A game's end hands it to the result's
 *  words, never to a button that changes the game: a blind player's walk heard "Rematch"
 *  cut the result short, and the next Enter started a new game; a step back in the
 *  replay landed on "Take back". */
const FOCUS_AFTER = ["result-text", "rp-range", "follow-next", "action-input", "offer-draw", "takeback", "status"];
function keepFocus(focused) {
  const shownNow = (node) => node && node.isConnected && node.getClientRects().length > 0;
  if (!focused || focused === document.body || shownNow(focused)) return;
  const now = document.activeElement;
  if (now && now !== focused && now !== document.body) return;
  // on a touch screen the text field is passed over: focused, it opens the screen's
  // keyboard over the board
  const touch = matchMedia("(pointer: coarse)").matches;
  const next = FOCUS_AFTER.filter((id) => !(touch && id === "action-input")).map($).find(shownNow);
  if (next) next.focus();
}

function draw(animate) {
  // "watching live" only while there is something live to watch: not a game over
  showConnection($("conn"), ctx.conns, (ctx.mode === "watch" || !held().length) && !isOver());
  const g = ctx.game;
  if (!g) return;
  if (isOver() && !stepsReady()) loadSteps(() => render(), () => notice(t("The steps of this game could not be read for the replay.")));
  const v = shown();
  const can = canAct();

  ctx.boardView.update({
    board: v.board, players: g.players, turn: v.turn, phase: v.phase,
    legal: new Set(v.final ? g.legal || [] : []), active: can,
    last: v.last, lastBoard: v.lastBoard, motion: v.motion, pushes: v.final ? g.pushes || {} : {},
    scoring: v.final && g.phase === "score" ? g.scoring || [] : [],
    winLine: v.final && v.result ? v.result.line : null,
  }, { animate });
  document.body.classList.toggle("my-turn", can);
  document.body.dataset.version = String(ctx.version);

  // a draw offer that stands is news for the line the player watches (a phone missed it)
  setStatus([drawOfferWords(), statusText(v, can)].filter(Boolean).join(" "));
  // in a variant that scores, or with a handicap, the news line keeps its room when
  // empty, so that the board below it never moves under the pointer as news come and go
  // a game ended off the board (a resignation, a flag, an agreement) has the result
  // for its news: the last action's scoring would read as what ended it
  const offBoard = v.final && v.result && OFF_BOARD_ENDS.has(v.result.reason);
  // with only the mover's marbles on the board (a handicap) some arrows are greyed by the
  // rules' special case: the news line says why, after its news (the skipped turn)
  const apart = can && v.final && g.apart ? t("While only your marbles are on the board, they may not touch: the greyed arrows would put two side by side.") : "";
  const news = [offBoard ? "" : actionNews(), apart].filter(Boolean).join(" ");
  // the news line is no live region (the announcer says each action's news): the hint
  // is said once, when it comes
  if (apart && apart !== saidApart) announcer.say(apart);
  saidApart = apart;
  const keep = g.variant !== "express" || (g.handicap || []).some((n) => n > 0);
  setText("event", news || (keep ? "\u00a0" : ""));
  $("event").hidden = !news && !keep;
  $("event").classList.toggle("idle", !news);
  $("position").textContent = v.position || "";
  const analyse = $("analyse-here");
  // the computer's analysis of a game in progress is for nobody who could pass it on to
  // a person playing in it: only once it is over, or where this page holds every
  // person's seat, or in a game of computers only
  const people = (g.seats || []).some((s) => s.kind === "human");
  analyse.hidden = !(isOver() || holdsEveryPerson() || !people);
  analyse.href = `/analysis?position=${encodeURIComponent(v.position || "")}`;

  const name = variantName(g.variant);
  $("game-title").textContent = $("page-heading").textContent = gameTitle(g, name);
  const mine = !isOver() && held().includes(g.turn) && may(g.turn, "act");
  followTurn(mine, wasMine, g); // the title's prefix, the sound, a notification
  wasMine = mine;
  document.title = pageTitle(t("Shiftago {variant}", { variant: name }));
  renderNotify($("notify"), g, held().length > 0);

  $("typed").hidden = ctx.mode === "watch" || !held().length || isOver();
  // read-only, not disabled, while it is not this page's turn: a disabled field would
  // drop the keyboard focus after every action typed in it
  $("action-input").readOnly = !can;
  $("action-input").setAttribute("aria-disabled", String(!can));
  $("action-go").disabled = !can;
  $("legal-list").textContent = can && (g.legal || []).length ? t("You can play: {actions}", { actions: g.legal.join(" ") }) : "";

  renderPlayers(v);
  renderScoreChoices(v, can, act);
  renderResult(v);
  renderReplay();
  renderControls(send);
  renderShare();
  renderPictureLinks($("share-pictures"), ctx.gameId, v.step);
  // play on from a position of a finished game (in one still played, the help it gives
  // is for nobody at the board), where there is something left to play
  $("play-from").hidden = !isOver() || v.phase === "over";
  // players who all sit at this screen (or one person against the computer) have nobody
  // to write to: a same-screen game has no players' chat
  $("chat").hidden = holdsEveryPerson();
  ctx.review.setGame(g, held(), holdsEveryPerson());
  if (reviewStep !== v.step) {
    reviewStep = v.step;
    ctx.review.showStep(v.step);
  }
  drawMoves();
  $("download-record").href = `/api/games/${encodeURIComponent(ctx.gameId)}/record`;
  $("download-record").setAttribute("download", `shiftago-${ctx.gameId}.txt`);
}

/** On a narrow screen the board shows only up to its arrows and labels (larger arrows). */
const narrow = window.matchMedia("(max-width: 40em)");
function fitBoard() {
  const svg = ctx.boardView.svg;
  if (!svg.dataset.fullBox) svg.dataset.fullBox = svg.getAttribute("viewBox");
  const boxes = narrow.matches ? [".arrows", ".coords"].map((s) => svg.querySelector(s)).filter(Boolean).map((n) => n.getBBox()) : [];
  if (!boxes.length || boxes.some((b) => !b.width)) {
    svg.setAttribute("viewBox", svg.dataset.fullBox);
    return;
  }
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  svg.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
}

// ---- start -------------------------------------------------------------------------
/** A button `id` that asks first (where `ask()` says so; by default always): it gives
 *  way to `id-confirm` (yes: `id-yes`, then `onYes`; no: `id-no` or Escape, back to the
 *  button). */
function confirmed(id, onYes, ask = () => true) {
  const [button, box, yes, no] = [id, `${id}-confirm`, `${id}-yes`, `${id}-no`].map($);
  escapeSaysNo(box, no);
  button.addEventListener("click", () => {
    if (!ask()) {
      onYes();
      return;
    }
    button.hidden = true;
    box.hidden = false;
    render(); // the other controls step aside while the question stands
    yes.focus();
  });
  no.addEventListener("click", () => {
    box.hidden = true;
    button.hidden = false;
    render();
    button.focus();
  });
  yes.addEventListener("click", () => {
    box.hidden = true;
    onYes();
    render();
  });
}

/** Words on a button for two seconds (a copy's "Copied"): the answer where the eye is,
 *  as the share list's Copy buttons give it. */
function flash(button, words) {
  if (!button.dataset.words) button.dataset.words = button.textContent;
  button.textContent = words;
  clearTimeout(button.flashTimer);
  button.flashTimer = setTimeout(() => {
    button.textContent = button.dataset.words;
    delete button.dataset.words;
  }, 2000);
}

function wire() {
  $("typed").addEventListener("submit", typed);
  confirmed("resign", () => {
    const colour = resigner();
    if (colour) send({ type: "resign" }, colour);
  });
  confirmed("abort", () => {
    const colour = heldThatMay("abort")[0];
    if (colour) send({ type: "abort" }, colour);
  });
  // taking back the end of a finished game reopens it (and drops its review): asked first
  confirmed("takeback", () => {
    const tb = takebackNow();
    if (tb) send(takebackMessage(), tb.colour);
  }, isOver);
  // each seat held here asks (a page that holds every seat starts the game at once)
  const rematch = () => {
    const { asked } = rematchOffer();
    for (const colour of heldThatMay("rematch")) if (!asked.includes(colour)) send({ type: "rematch" }, colour);
  };
  $("rematch").addEventListener("click", rematch);
  $("next-game").addEventListener("click", rematch);
  $("copy-position").addEventListener("click", async (e) => {
    const ok = ctx.game && (await copyText(shown().position));
    flash(e.currentTarget, ok ? t("Copied") : t("Copy failed"));
  });
  $("copy-record").addEventListener("click", async (e) => {
    const button = e.currentTarget;
    try {
      const text = await api(`/api/games/${encodeURIComponent(ctx.gameId)}/record`, { accept: "text/plain" });
      flash(button, (await copyText(typeof text === "string" ? text : JSON.stringify(text, null, 2))) ? t("Copied") : t("Copy failed"));
    } catch (err) {
      flash(button, t("Copy failed"));
      notice(t("Could not read the record: {reason}", { reason: errorWords(err.data, err.message) }));
    }
  });
  $("follow-next").addEventListener("click", () => {
    // the seat tokens carry over to the next game of the same seats
    if (ctx.game && ctx.game.next) rememberGame(ctx.game.next, { tokens: gameEntry(ctx.gameId).tokens || {} });
  });
  wireReplay(goto);
  narrow.addEventListener("change", fitBoard);
  setInterval(() => {
    for (const c of ctx.conns) if (c.isOpen()) c.send({ type: "ping" });
  }, 25000);
  // the away clocks and the claims tick every second while somebody is away
  setInterval(() => {
    if (ctx.game && !isOver() && ctx.presence && (ctx.presence.seats || []).some((p) => !p.connected)) {
      renderPlayers(shown());
      renderControls(send);
    }
  }, 1000);
}

function newConn(token, account = false) {
  return new Conn(ctx.gameId, token, {
    account: () => account,
    seen: () => ctx.version,
    onMessage: handle,
    onChange: () => render(),
    onGone: () => setStatus(t("This game does not exist.")),
  });
}

function start() {
  mountPrefs($("prefs"));
  mountPlayFrom($("play-from"), () => $("position").textContent);
  ctx.boardView = new BoardView($("board"), { arrows: true, interactive: ctx.mode === "play", onAction: act, label: t("Shiftago board") });
  fitBoard();
  ctx.review = new GameReview({
    gameId: ctx.gameId, container: $("review"), board: ctx.boardView, onStep: (k) => goto(k), onUpdate: () => drawMoves(),
  });
  if (!ctx.gameId) {
    setStatus(t("No game here."));
    return;
  }
  ctx.step = stepFromUrl();
  wire();
  ctx.chat = new ChatPanel($("chat"), { send: (obj) => !!anyConn() && anyConn().send(obj) });
  onSeen(() => render());
  const fromUrl = ctx.mode === "play" ? ctx.params.get("seat") : null;
  const heldTokens = ctx.mode === "play" ? Object.values(gameEntry(ctx.gameId).tokens || {}).filter(Boolean) : [];
  loadOverHttp();
  if (fromUrl && heldTokens.length && !heldTokens.includes(fromUrl)) askAboutAnotherSeat(fromUrl, heldTokens);
  else connect(fromUrl ? [fromUrl, ...heldTokens] : heldTokens);
}

/** Open a socket per seat token (one for a spectator when there is none). */
function connect(tokens) {
  const unique = [...new Set(tokens)];
  // one seat played here is the signed-in account's (several: players at one screen)
  const account = ctx.mode === "play" && unique.length <= 1;
  if (unique.length) for (const t of unique) ctx.conns.push(newConn(t, account));
  else ctx.conns.push(newConn(null, account));
  render();
}

/** A link to another seat of a game this browser already plays (often the link made
 *  for a friend, opened here): held only when the person says so, before any socket. */
async function askAboutAnotherSeat(token, heldTokens) {
  const seat = await seatOfToken(ctx.gameId, token);
  if (seat === null) {
    connect([token, ...heldTokens]); // not a seat of this game: the usual notice
    return;
  }
  const mine = Object.keys(gameEntry(ctx.gameId).tokens || {}).filter((c) => COLOURS.includes(c));
  $("another-seat-text").textContent = anotherSeatWords(mine, seat === undefined ? undefined : COLOURS[seat]);
  const box = $("another-seat");
  box.hidden = false;
  const answer = (both) => {
    const button = document.activeElement;
    box.hidden = true;
    keepFocus(button);
    if (!both) {
      const url = new URL(location.href);
      url.searchParams.delete("seat");
      history.replaceState(null, "", url);
    }
    connect(both ? [token, ...heldTokens] : heldTokens);
  };
  $("another-seat-both").onclick = () => answer(true);
  $("another-seat-keep").onclick = () => answer(false);
  $("another-seat-keep").focus();
}

start();

// For tests and debugging: drop every socket (they reconnect by themselves) and read the version.
window.shiftago = {
  get version() {
    return ctx.version;
  },
  get game() {
    return ctx.game;
  },
  get step() {
    return shownStep();
  },
  lastStep,
  dropConnections() {
    for (const c of ctx.conns) if (c.ws) c.ws.close();
  },
};
