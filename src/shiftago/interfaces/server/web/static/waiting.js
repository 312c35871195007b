// The header's count of the games that wait for the signed-in player (docs/web-protocol.md,
// "Games of an account"): it fills [data-testid=games-waiting] (a link to the home page's
// "My games", hidden at 0) from GET /api/account/games, and [data-testid=challenges-waiting]
// (a link to the home page's challenges) from GET /api/challenges, every 30 s, when the
// page comes back into view, and when the account changes. A turn that comes in a game not
// in view, and a challenge received, may show a browser notification, only once the
// player asked for them with the "Notify me" control (the browser's permission is asked
// for on that click only).

import { csrfToken } from "./api.js";
import { t, tn } from "./i18n.js";

const REFRESH_MS = 30000;
const TURN_DELAY_MS = 2000;
const NOTIFY_KEY = "shiftago.notify"; // shared with the game page's "Notify me" (turn.js)

// every visible string of this module, whole; functions, so that each message is
// looked up in the catalogue when it is shown
const WORDS = {
  waiting: (n) => tn("{n} game waits for you", "{n} games wait for you", n),
  notify: () => t("Notify me"),
  notifyWhat: () => t("Tell me in this browser when it is my turn in a game or a challenge comes for me."),
  notifyOn: () => t("Notifications on"),
  notifyBlocked: () => t("Notifications blocked"),
  title: () => t("Shiftago: your turn"),
  body: () => t("It is your turn in a game."),
  challenges: (n) => tn("{n} challenge for you", "{n} challenges for you", n),
  challengeTitle: () => t("Shiftago: a challenge"),
  challengeBody: (name) => t("{name} challenges you.", { name }),
};

let known = null; // the ids of the games to act in at the last look (null: none yet)
let knownChallenges = null; // the ids of the challenges received at the last look
let asking = false;

function notifyWanted() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "on";
  } catch {
    return false;
  }
}

function canNotify() {
  return typeof Notification !== "undefined";
}

/** The game the page shows, if it is a game page. */
function gameInView() {
  const parts = location.pathname.split("/").filter(Boolean);
  return (parts[0] === "play" || parts[0] === "watch") && !document.hidden ? parts[1] : null;
}

function counter() {
  return document.querySelector("[data-testid=games-waiting]");
}

function notifyControl(box) {
  let button = document.querySelector("[data-testid=notify-waiting]");
  if (button || !box) return button;
  button = document.createElement("button");
  button.type = "button";
  button.className = "small";
  button.dataset.testid = "notify-waiting";
  button.textContent = WORDS.notify();
  button.title = WORDS.notifyWhat(); // what "Notify me" is about (a French walk asked)
  button.hidden = true;
  button.addEventListener("click", async () => {
    try {
      const answer = await Notification.requestPermission();
      try {
        localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "on" : "off");
      } catch {
        /* private mode */
      }
      button.textContent = answer === "granted" ? WORDS.notifyOn() : WORDS.notifyBlocked();
      button.hidden = answer === "granted";
    } catch {
      button.hidden = true;
    }
  });
  // beside the account it belongs to, after its name (before it, the button stood alone
  // by the site's name when the header's menu had a row of its own): inside the
  // header's menu on a phone (layout.html)
  const account = document.getElementById("account");
  if (account) account.after(button);
  else box.after(button);
  return button;
}

function notifying() {
  return canNotify() && Notification.permission === "granted" && notifyWanted();
}

/** A notification that opens `path` when clicked (nothing where the browser will not). */
function notify(title, body, tag, path) {
  try {
    const note = new Notification(title, { body, tag });
    note.onclick = () => {
      window.focus();
      location.href = path;
    };
  } catch {
    /* some browsers only notify from a service worker */
  }
}

/** One of the header's counts: its words for `count`, hidden at 0. */
function fillCount(box, words, count) {
  if (!box) return;
  box.textContent = words(count);
  box.dataset.count = String(count);
  box.hidden = count === 0;
}

/** The challenges received: counted in the header, and each new one notified. */
function showChallenges(received) {
  fillCount(document.querySelector("[data-testid=challenges-waiting]"), WORDS.challenges, received.length);
  const before = knownChallenges;
  knownChallenges = new Set(received.map((c) => c.id));
  if (before === null || !notifying()) return;
  for (const c of received) {
    if (!before.has(c.id)) notify(WORDS.challengeTitle(), WORDS.challengeBody(c.from), `shiftago-challenge-${c.id}`, "/#challenges");
  }
}

async function refreshChallenges() {
  try {
    const res = await fetch("/api/challenges", { headers: { Accept: "application/json" } });
    showChallenges(res.ok ? (await res.json()).received || [] : []);
  } catch {
    /* asked again at the next look */
  }
}

function notifyNew(waiting) {
  const ids = new Set(waiting.map((g) => g.id));
  const before = known;
  known = ids;
  if (before === null || !notifying()) return;
  const shown = gameInView();
  for (const game of waiting) {
    if (before.has(game.id) || game.id === shown) continue;
    notify(WORDS.title(), WORDS.body(), `shiftago-${game.id}`, new URL(game.url, location.href).pathname);
  }
}

function show(count, signedIn) {
  const box = counter();
  if (!box) return;
  fillCount(box, WORDS.waiting, count);
  const button = notifyControl(box);
  if (button) button.hidden = !signedIn || !canNotify() || notifying();
}

/** Ask the server again; answers the games that wait (none when signed out). */
export async function refreshWaiting() {
  if (asking) return [];
  if (!csrfToken()) {
    show(0, false); // signed out (the csrf cookie comes with a session): nothing to ask
    showChallenges([]);
    knownChallenges = null; // a new account's challenges are not news when it signs in
    return [];
  }
  asking = true;
  const challenges = refreshChallenges();
  try {
    const res = await fetch("/api/account/games", { headers: { Accept: "application/json" } });
    if (!res.ok) {
      known = null;
      show(0, false);
      return [];
    }
    const data = await res.json();
    // the game this page shows calls by its own title: it is not one that waits elsewhere
    const here = location.pathname.match(/^\/(?:play|watch)\/([^/]+)/)?.[1];
    const waiting = (data.playing || []).filter((g) => g.to_act && g.id !== here);
    show(waiting.length, true);
    notifyNew(waiting);
    document.dispatchEvent(new CustomEvent("shiftago:waiting", { detail: { games: data } }));
    return waiting;
  } catch {
    return [];
  } finally {
    await challenges;
    asking = false;
  }
}

function start() {
  const box = counter();
  if (box && !box.getAttribute("href")) box.setAttribute("href", "/#my-games");
  refreshWaiting();
  setInterval(refreshWaiting, REFRESH_MS); // hidden too: a hidden page notifies
  window.addEventListener("focus", () => refreshWaiting());
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshWaiting();
  });
  document.addEventListener("shiftago:account", () => refreshWaiting());
  // the home page's list of challenges asks more often: the count follows it
  document.addEventListener("shiftago:challenges", (e) => showChallenges(e.detail.received));
  // an action in the game on the page: asked again at most every few seconds
  let soon = null;
  document.addEventListener("shiftago:turn", () => {
    if (soon === null) soon = setTimeout(() => {
      soon = null;
      refreshWaiting();
    }, TURN_DELAY_MS);
  });
}

start();
