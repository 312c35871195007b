// "It is your turn": when a seat this page holds gets the turn, the tab's title gets a
// prefix until the page is focused or the turn passes, the "turn" sound plays (silent
// under the page's mute), and in a correspondence game a hidden page may show a
// browser notification: only once the person asked for them with the "Notify me"
// button (the browser's permission is asked for on that click, never on its own).
import { t } from "./i18n.js";
import { playSound } from "./prefs.js";

const NOTIFY_KEY = "shiftago.notify";

let calling = false;

function remembered() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "on";
  } catch {
    return false;
  }
}

function remember(on) {
  try {
    localStorage.setItem(NOTIFY_KEY, on ? "on" : "off");
  } catch {
    /* private mode */
  }
}

function canNotify() {
  return typeof Notification !== "undefined";
}

/** The page's title: `base`, with the prefix while the page calls for the person. */
export function pageTitle(base) {
  return calling ? t("● Your turn — {title}", { title: base }) : base;
}

/**
 * Follow the turn at each drawing: `mine` (a held seat is to act now) and `before`
 * (whether it was at the last drawing; null at the first). The turn coming calls.
 */
export function followTurn(mine, before, game) {
  if (!mine) {
    calling = false;
    return;
  }
  if (before !== false) return;
  calling = true;
  playSound("turn");
  const correspondence = !!(game && game.clock && game.clock.days);
  if (correspondence && document.hidden && canNotify() && Notification.permission === "granted" && remembered()) {
    try {
      new Notification(t("Shiftago: your turn"), { body: t("It is your turn to play."), tag: `shiftago-${game.id}` });
    } catch {
      /* some browsers only notify from a service worker */
    }
  }
}

/** The page was focused: it has been seen, the title's prefix goes. */
export function onSeen(redraw) {
  window.addEventListener("focus", () => {
    if (!calling) return;
    calling = false;
    redraw();
  });
}

/** The "Notify me" button: shown in correspondence games to a seat holder. */
export function renderNotify(button, game, holdsASeat) {
  const correspondence = !!(game && game.clock && game.clock.days);
  const on = remembered() && canNotify() && Notification.permission === "granted";
  button.hidden = !(correspondence && holdsASeat && canNotify()) || on;
  if (!button.dataset.wired) {
    button.dataset.wired = "1";
    button.addEventListener("click", async () => {
      try {
        const answer = await Notification.requestPermission();
        remember(answer === "granted");
        button.textContent = answer === "granted" ? t("Notifications on") : t("Notifications blocked");
        button.hidden = answer === "granted";
      } catch {
        button.textContent = t("Notifications are not available");
      }
    });
  }
}
