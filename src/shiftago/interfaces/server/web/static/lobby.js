// The lobby on the home page: create an open challenge, see the open ones live, accept
// one (docs/web-protocol.md, "Open challenges"). The server decides; this page shows
// what the lobby's socket says and holds the secrets of its own places, so that the
// server knows it is still here and tells it where its seat is when a challenge fills.
import { VARIANTS, api, el, levels, localPath, onJson, openSocket, rememberGame, tokenOf, variantName } from "./api.js";
import { errorWords } from "./errors.js";
import { levelLabel, personName } from "./gamewords.js";
import { rememberLevel, rememberedLevel } from "./welcome.js";
import { ratingText } from "./rated.js";
import { lang, number, t, tn } from "./i18n.js";
import { controlLabel, mountTimeControl } from "./timecontrol.js";
import { Retry } from "./retry.js";

const HELD = "shiftago.seeks"; // {seekId: {token, place}}: the places this browser holds

const $ = (id) => document.getElementById(id);
let socket = null;
let timeControl = null; // the form's choice of time (timecontrol.js)
let signedInNow = false; // whether a rated challenge may be accepted here
let accountName = null; // the signed-in account's name: its places are its own on any device
const retry = new Retry(connect, 500);
let leaving = false;
const seeks = new Map(); // id -> the seek as listed

function readHeld() {
  try {
    const data = JSON.parse(localStorage.getItem(HELD) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

function writeHeld(data) {
  try {
    localStorage.setItem(HELD, JSON.stringify(data));
  } catch {
    /* private mode: the place lives as long as this page */
  }
}

function holdPlace(id, token, place = null) {
  const data = readHeld();
  data[id] = { token, place: place ?? data[id]?.place ?? null };
  writeHeld(data);
  send({ type: "hold", token, seek: id });
}

function dropPlace(id) {
  const data = readHeld();
  delete data[id];
  writeHeld(data);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// ---- the form ------------------------------------------------------------------------
function buildForm(name) {
  const variant = $("seek-variant");
  for (const [key, v] of Object.entries(VARIANTS)) variant.append(el("option", { value: key, text: v.name }));
  timeControl = mountTimeControl("seek-time", "seek", { initial: "5+3" });
  const sync = () => {
    $("seek-range").hidden = !$("seek-rated").checked;
  };
  $("seek-rated").addEventListener("change", sync);
  $("seek-players").addEventListener("change", syncComputers);
  $("seek-computers").addEventListener("change", syncComputers);
  // the level last chosen here or on the home page's form (the gentle one at first)
  levels().then((list) => {
    $("seek-level").replaceChildren(...list.map((l) => el("option", { value: l.level, text: levelLabel(l) })));
    const wanted = rememberedLevel();
    $("seek-level").value = String(list.some((l) => l.level === wanted) ? wanted : list[0].level);
  });
  $("seek-level").addEventListener("change", () => rememberLevel($("seek-level").value));
  showSignedIn(name); // the computer seats and the rated box too
  // signing in or out in the header changes what the form offers, without a reload
  document.addEventListener("shiftago:account", (e) => showSignedIn((e.detail && e.detail.name) || null));
  $("seek-form").addEventListener("submit", createSeek);
}

/** With 3-4 players some seats may be the computer's (at least two people play); the
 * rated box is for a signed-in player's challenge without them, as the server says. */
function syncComputers() {
  const players = +$("seek-players").value;
  const box = $("seek-computer-box");
  const select = $("seek-computers");
  const most = Math.max(0, players - 2);
  const kept = Math.min(+select.value || 0, most);
  select.replaceChildren(...Array.from({ length: most + 1 }, (_, n) => el("option", { value: n, text: n ? number(n) : t("none") })));
  select.value = String(kept);
  box.hidden = most === 0;
  $("seek-level").disabled = kept === 0;
  const rated = $("seek-rated");
  rated.disabled = !signedInNow || kept > 0;
  if (rated.disabled) rated.checked = false;
  $("seek-range").hidden = !rated.checked;
}

/** Rated challenges for a signed-in player (`name`); a name field for a guest. */
function showSignedIn(name) {
  const signedIn = !!name;
  signedInNow = signedIn;
  accountName = name;
  render(); // a rated challenge can be accepted only when signed in
  syncComputers(); // the rated box
  $("seek-rated-hint").hidden = signedIn;
  $("seek-name-box").hidden = signedIn;
}

async function createSeek(e) {
  e.preventDefault();
  const wrong = timeControl.error() || ratingRangeError();
  showError(wrong);
  if (wrong) return;
  const body = {
    variant: $("seek-variant").value,
    players: +$("seek-players").value,
    clock: timeControl.clock(),
    rated: $("seek-rated").checked,
  };
  const computers = $("seek-computer-box").hidden ? 0 : +$("seek-computers").value;
  if (computers) {
    body.computers = computers;
    body.level = +$("seek-level").value;
  }
  const name = $("seek-name").value.trim();
  if (name && !$("seek-name-box").hidden) body.name = name;
  if (body.rated && ($("seek-min").value || $("seek-max").value)) {
    body.rating_range = [+($("seek-min").value || 0), +($("seek-max").value || 4000)];
  }
  const button = $("seek-create");
  button.disabled = true;
  showError("");
  try {
    const made = await api("/api/seeks", { method: "POST", body });
    holdPlace(made.id, made.token, 0);
    render();
  } catch (err) {
    showError(t("Could not create the challenge: {reason}", { reason: errorWords(err.data, err.message) }));
  } finally {
    button.disabled = false;
  }
}

/** What is wrong with the rating range typed, in words, or "" (the server's rule:
 *  whole numbers 0-4000, the lowest first; an empty field is the end of the scale). */
function ratingRangeError() {
  if (!$("seek-rated").checked) return "";
  const low = $("seek-min").value === "" ? 0 : Number($("seek-min").value);
  const high = $("seek-max").value === "" ? 4000 : Number($("seek-max").value);
  const fits = (x) => Number.isInteger(x) && x >= 0 && x <= 4000;
  return fits(low) && fits(high) && low <= high
    ? ""
    : t("A rating range is two whole numbers from 0 to 4000, the lowest first.");
}

function showError(text) {
  $("seek-error").textContent = text;
  $("seek-error").hidden = !text;
}

// ---- accepting and cancelling ----------------------------------------------------------
async function accept(id) {
  showError("");
  const body = {};
  const name = $("seek-name").value.trim();
  if (name && !$("seek-name-box").hidden) body.name = name;
  try {
    const answer = await api(`/api/seeks/${encodeURIComponent(id)}/accept`, { method: "POST", body });
    if (answer.status === "open") {
      holdPlace(id, answer.token);
      render();
      return;
    }
    enterGame(answer);
  } catch (err) {
    showError(t("Could not accept: {reason}", { reason: errorWords(err.data, err.message) }));
  }
}

/** A game answered as POST /api/games answers it: remember this browser's seat, go there. */
function enterGame(game) {
  const seat = (game.seats || []).find((s) => s.join_url);
  if (!seat) return;
  rememberGame(game.id, { tokens: { [seat.colour]: tokenOf(seat.join_url) } });
  leaving = true;
  location.href = localPath(seat.join_url);
}

async function cancel(id) {
  const held = readHeld()[id];
  // a challenge made on another device of the account goes by the session alone
  const query = held && held.token ? `?token=${encodeURIComponent(held.token)}` : "";
  try {
    await api(`/api/seeks/${encodeURIComponent(id)}${query}`, { method: "DELETE" });
  } catch (err) {
    if (err.status !== 409 && err.status !== 404) {
      showError(t("Could not cancel: {reason}", { reason: errorWords(err.data, err.message) }));
      return;
    }
  }
  dropPlace(id);
  seeks.delete(id);
  render();
}

/** The seek filled: find this browser's seat (its colour) and go to the game. */
async function filled(message) {
  const held = readHeld()[message.seek];
  dropPlace(message.seek);
  leaving = true;
  if (held) {
    try {
      const status = await api(`/api/seeks/${encodeURIComponent(message.seek)}?token=${encodeURIComponent(held.token)}`);
      if (status.game) {
        enterGame(status.game);
        return;
      }
    } catch {
      /* go anyway: the link is the seat */
    }
  }
  location.href = message.url;
}

// ---- the list ----------------------------------------------------------------------------
function describe(seek) {
  const what = describeRules(seek);
  if (!seek.computers) return what;
  const level = seek.computer_level;
  const computers = tn("{n} computer seat, level {level}", "{n} computer seats, level {level}", seek.computers, { n: number(seek.computers), level: number(level) });
  return t("{challenge} · {computers}", { challenge: what, computers });
}

function describeRules(seek) {
  const values = { variant: variantName(seek.variant), clock: controlLabel(seek.clock) };
  if (!seek.rated) return tn("{variant} · {n} player · {clock} · casual", "{variant} · {n} players · {clock} · casual", seek.players, values);
  if (!seek.rating_range) return tn("{variant} · {n} player · {clock} · rated", "{variant} · {n} players · {clock} · rated", seek.players, values);
  const [low, high] = seek.rating_range;
  return tn(
    "{variant} · {n} player · {clock} · rated {low}-{high}",
    "{variant} · {n} players · {clock} · rated {low}-{high}",
    seek.players,
    { ...values, low: number(low, { useGrouping: false }), high: number(high, { useGrouping: false }) },
  );
}

function placesText(seek) {
  // account names are lower case: "Guest" is the name of a guest who typed none
  const names = seek.places.map((p) => (p.rating != null ? t("{name} ({rating})", { name: p.name, rating: ratingText(p.rating, p.provisional) }) : personName(p.name, null)));
  return t("{names} · {taken}/{places}", {
    names: new Intl.ListFormat(lang, { style: "short", type: "unit" }).format(names),
    taken: number(seek.places.length),
    places: number(seek.players - (seek.computers || 0)),
  });
}

/** The signed-in account's place in `seek` as this browser would hold it ({place}),
 *  where another device took it: no guest may take a name like an account's, so a
 *  place of the account's name is the account's (an Italian walk was offered "Accept"
 *  on her own challenge on her phone). Cancelling it goes by the session. */
function accountPlace(seek) {
  if (!accountName) return null;
  const place = seek.places.findIndex((p) => p.name === accountName);
  return place < 0 ? null : { token: null, place };
}

function render() {
  const list = $("seek-list");
  const held = readHeld();
  list.replaceChildren();
  const sorted = [...seeks.values()].sort((a, b) => String(a.created).localeCompare(String(b.created)));
  for (const seek of sorted) {
    const mine = held[seek.id] || accountPlace(seek);
    let action;
    if (!mine && seek.rated && !signedInNow) {
      action = el("span", { class: "hint", text: t("Sign in to accept"), "data-testid": "accept-needs-account" });
    } else if (!mine) {
      action = el("button", { type: "button", class: "small primary", text: t("Accept"), "data-testid": "accept-seek" });
      action.addEventListener("click", () => {
        action.disabled = true;
        accept(seek.id).finally(() => (action.disabled = false));
      });
    } else if (mine.place === 0) {
      action = el("span", { class: "seek-mine" },
        el("span", { class: "seek-waiting", text: t("Waiting for players…"), "data-testid": "seek-waiting" }));
      const button = el("button", { type: "button", class: "small", text: t("Cancel"), "data-testid": "cancel-seek" });
      button.addEventListener("click", () => cancel(seek.id));
      action.append(button);
    } else {
      action = el("span", { class: "seek-waiting", text: t("Joined: waiting for more players…"), "data-testid": "seek-waiting" });
    }
    list.append(
      el("li", { class: mine ? "seek mine" : "seek", "data-testid": "seek", "data-seek": seek.id },
        el("span", { class: "seek-what", text: describe(seek) }),
        el("span", { class: "seek-who", text: placesText(seek) }),
        action),
    );
  }
  $("seek-empty").hidden = seeks.size > 0;
}

// ---- the socket ----------------------------------------------------------------------------
function onMessage(message) {
  switch (message.type) {
    case "seeks":
      seeks.clear();
      for (const seek of message.seeks) seeks.set(seek.id, seek);
      break;
    case "seek":
      seeks.set(message.seek.id, message.seek);
      break;
    case "seek_gone":
    case "seek_filled":
      seeks.delete(message.id);
      if (message.type === "seek_gone") {
        // a place taken in another's challenge that ended unfilled (its maker cancelled
        // it, or it expired): said, where the row went without a word
        const place = readHeld()[message.id];
        if (place && place.place !== 0 && !leaving) showError(t("The challenge you joined ended before it filled."));
        dropPlace(message.id);
      }
      break;
    case "held": {
      const data = readHeld();
      if (data[message.seek]) {
        data[message.seek].place = message.place;
        writeHeld(data);
      }
      break;
    }
    case "filled":
      filled(message);
      return;
    case "error":
      if (message.code !== "not_found") return;
      // a place the server no longer knows (the challenge ended, or the place was freed
      // while nobody was here): this browser holds it no more
      if (message.seek) dropPlace(message.seek);
      else forgetUnknown();
      break;
    default:
      return;
  }
  render();
}

/** Held secrets the server no longer knows: forget those of seeks that are not listed. */
function forgetUnknown() {
  const data = readHeld();
  for (const id of Object.keys(data)) if (!seeks.has(id)) delete data[id];
  writeHeld(data);
}

function connect() {
  const ws = openSocket("/ws/lobby");
  socket = ws;
  ws.addEventListener("open", () => {
    retry.opened();
    $("lobby").dataset.live = "true";
    for (const [id, { token }] of Object.entries(readHeld())) if (token) ws.send(JSON.stringify({ type: "hold", token, seek: id }));
  });
  onJson(ws, onMessage);
  ws.addEventListener("close", () => {
    $("lobby").dataset.live = "false";
    if (socket !== ws || leaving) return;
    retry.later();
  });
}

export async function mountLobby() {
  let name = null;
  try {
    name = (await api("/api/session")).name || null;
  } catch {
    name = null;
  }
  buildForm(name);
  render();
  connect();
}
