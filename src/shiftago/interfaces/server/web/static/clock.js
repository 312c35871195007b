// The clocks of a timed game: the seconds each seat has left, as the server said them
// (GAME `clock`), counted down here for the seat whose clock runs. The server keeps the
// time and decides when a flag falls; the page only shows it ticking and warns on low
// time.
import { el } from "./api.js";
import { colourName } from "./board.js";
import { duration, number, t, tn } from "./i18n.js";

/** Below this share of the initial time (or 20 s) a running clock warns. */
const LOW_SHARE = 0.1;
const LOW_SECONDS = 20;

let shown = null; // the GAME whose clocks are on the page
let receivedAt = 0; // when it came (performance.now())
let timer = null;

/** "4:59", "0:09.3" under ten seconds, "2d 03:10" for days; digits and the decimal
 *  sign in the page's language. */
export function clockText(seconds) {
  const s = Math.max(0, seconds);
  const two = (x) => number(x, { minimumIntegerDigits: 2 });
  if (s >= 86400) {
    const d = Math.floor(s / 86400);
    const h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60);
    return t("{days}d {hours}:{minutes}", { days: number(d), hours: two(h), minutes: two(m) });
  }
  if (s >= 3600) {
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return `${number(h)}:${two(m)}:${two(Math.floor(s % 60))}`;
  }
  if (s < 10) {
    const tenths = number(Math.floor(s * 10) / 10, { minimumIntegerDigits: 2, minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return `${number(0)}:${tenths}`;
  }
  const whole = Math.ceil(s);
  return `${number(Math.floor(whole / 60))}:${two(whole % 60)}`;
}

let colours = []; // the seats' colours, in seat order

function left(clock, index, now) {
  const base = clock.remaining[index] ?? 0;
  return clock.running === colours[index] ? base - (now - receivedAt) / 1000 : base;
}

function isLow(clock, seconds) {
  if (clock.days) return seconds < 3600;
  return seconds < Math.max(LOW_SECONDS, clock.initial * LOW_SHARE) && seconds < clock.initial;
}

function tick() {
  if (!shown || !shown.clock) return;
  const clock = shown.clock;
  const now = performance.now();
  colours.forEach((colour, i) => {
    const seconds = left(clock, i, now);
    const running = clock.running === colour;
    for (const box of document.querySelectorAll(`[data-clock="${colour}"]`)) {
      box.textContent = clockText(seconds);
      box.dataset.seconds = String(Math.max(0, Math.round(seconds * 10) / 10));
      box.classList.toggle("running", running);
      box.classList.toggle("low", running && isLow(clock, seconds));
      box.classList.toggle("flagged", seconds <= 0);
    }
  });
  renderWait(clock, now);
}

let mine = []; // the colours this browser holds
let toAct = null; // the colour to act in the shown game

/** The line under the clocks that says what they wait for (WEBAPI.md, "Clocks"): the
 *  players to come, a first action (free of time) with the seconds left before the game
 *  is aborted, or how long the server was down (charged to nobody). */
function waitWords(clock, now) {
  const abortsIn = clock.aborts_in == null ? null : Math.max(0, Math.ceil(clock.aborts_in - (now - receivedAt) / 1000));
  if (clock.waiting === "players") {
    return t("The clock starts when every player has come and made a first action.");
  }
  // a wait of a minute or more reads as a time ("1 day"), rounded to the minute from an hour
  const time = abortsIn == null || abortsIn < 60 ? null : duration(abortsIn >= 3600 ? Math.round(abortsIn / 60) * 60 : abortsIn);
  if (clock.waiting === "first_action" && toAct && mine.includes(toAct)) {
    if (time) return t("The clock starts after your first action. Act within {time}, or the game is aborted.", { time });
    return abortsIn == null
      ? t("The clock starts after your first action.")
      : tn(
        "The clock starts after your first action. Act within {n} second, or the game is aborted.",
        "The clock starts after your first action. Act within {n} seconds, or the game is aborted.",
        abortsIn,
      );
  }
  if (clock.waiting === "first_action") {
    if (time) return t("The clock starts after each player's first action. If the first action is not made within {time}, the game is aborted.", { time });
    return abortsIn == null
      ? t("The clock starts after each player's first action.")
      : tn(
        "The clock starts after each player's first action. If the first action is not made within {n} second, the game is aborted.",
        "The clock starts after each player's first action. If the first action is not made within {n} seconds, the game is aborted.",
        abortsIn,
      );
  }
  if (clock.paused && clock.running) {
    return tn(
      "The server was down for {n} second; nobody's clock ran meanwhile.",
      "The server was down for {n} seconds; nobody's clock ran meanwhile.",
      Math.round(clock.paused),
    );
  }
  return "";
}

let saidKind = ""; // the kind of wait the live line last said

/** The wait line counts down every second, so it is no live region (a screen reader
 *  would read it again each second); a hidden live line beside it says the words once
 *  for each kind of wait: the players to come, a first action, mine or another's, a
 *  server that was down. */
function renderWait(clock, now) {
  let line = document.getElementById("clock-wait");
  const strip = document.getElementById("clock-strip");
  if (!line && strip) {
    line = el("p", { id: "clock-wait", class: "notice info", "data-testid": "clock-wait" });
    strip.after(line);
    strip.after(el("p", { id: "clock-wait-said", class: "visually-hidden", role: "status" }));
  }
  if (!line) return;
  const words = clock ? waitWords(clock, now) : "";
  if (line.textContent !== words) line.textContent = words;
  line.hidden = !words;
  const kind = words ? [clock.waiting, !!toAct && mine.includes(toAct), !!clock.paused].join() : "";
  if (kind !== saidKind) {
    saidKind = kind;
    document.getElementById("clock-wait-said").textContent = words;
  }
}

/**
 * Put each seat's clock in its player card (`[data-testid=player-<colour>]`) and tick
 * every `[data-clock]` (the phone's strip above the board too, drawn by panels.js), for
 * the game `g` at the last step (`final`); a replay of an earlier step shows no clocks.
 */
export function renderClocks(g, final, held = []) {
  if (g !== shown) {
    shown = g;
    receivedAt = performance.now();
  }
  mine = held;
  toAct = g ? g.turn : null;
  const clock = g && g.clock;
  colours = (g && g.seats ? g.seats : []).map((s) => s.colour);
  if (!clock || !final) {
    clearInterval(timer);
    timer = null;
    renderWait(null, 0);
    return;
  }
  colours.forEach((colour) => {
    const card = document.querySelector(`[data-testid=player-${colour}]`);
    if (!card || card.querySelector(".clock")) return;
    card.append(el("div", { class: "clock", "data-testid": `clock-${colour}`, "data-clock": colour, role: "timer", "aria-label": t("{colour}'s clock", { colour: colourName(colour) }) }));
  });
  // on a phone the cards are below the board: the strip above it (panels.js) repeats
  // the clocks, ticked here with the cards' through their data-clock
  tick();
  const ticking = clock.running || clock.aborts_in != null;
  if (ticking && !timer) timer = setInterval(tick, 100);
  if (!ticking && timer) {
    clearInterval(timer);
    timer = null;
  }
}

/** The time control in words for the title line ("3+2", "2 days"): a real-time
 *  control is notation, the same in every language; days are words. */
export function controlText(g) {
  if (!g || !g.clock) return "";
  if (g.clock.days) return tn("{n} day", "{n} days", g.clock.days);
  return g.clock.control || "";
}

/** The header's line about the game: its variant, players, time control and rating. */
export function gameTitle(g, variant) {
  const control = controlText(g);
  const values = { variant, n: g.players, control };
  if (control && g.rated) return tn("{variant}, {n} player, {control}, rated", "{variant}, {n} players, {control}, rated", g.players, values);
  if (control) return tn("{variant}, {n} player, {control}", "{variant}, {n} players, {control}", g.players, values);
  if (g.rated) return tn("{variant}, {n} player, rated", "{variant}, {n} players, rated", g.players, values);
  return tn("{variant}, {n} player", "{variant}, {n} players", g.players, values);
}
