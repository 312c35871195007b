// The home page's welcome (index.html, #play): what Shiftago is, a push drawn by the
// board code, and "Play the computer", which starts a 2-player Express game against the
// computer at a gentle level on a first visit, and at the level last chosen after that
// (kept in localStorage, here and in the new-game form alike).
//
//   rememberedLevel()      the level last chosen, or the gentle one
//   rememberLevel(level)   keep a level chosen by the player
//   mountWelcome()         the picture, the level list and the button

import { drawPicture } from "./board.js";
import { api, el, levels, localPath, rememberGame, tokenOf } from "./api.js";
import { errorWords } from "./errors.js";
import { number, t } from "./i18n.js";
import { signedInName } from "./account.js";

const LEVEL_KEY = "shiftago.level";
/** The level a first visit plays: the computer gives a new player a game. */
export const GENTLE_LEVEL = 2;

// functions, so that each message is looked up in the catalogue when it is shown
const WORDS = {
  levelOption: (l) => (l.name ? t("Level {level} ({name})", { level: number(l.level), name: l.name }) : t("Level {level}", { level: number(l.level) })),
  failed: (err) => t("Could not start the game: {reason}", { reason: errorWords(err.data, err.message) }),
  before: () => t("Green is about to push a marble in at L3, the left end of rank 3."),
  after: () => t("Green pushed in at L3: the marbles on a3, b3 and c3 moved one cell right, into the gap on d3."),
};

function read() {
  try {
    return localStorage.getItem(LEVEL_KEY);
  } catch {
    return null;
  }
}

/** The level last chosen (a whole number from 1), else the gentle level. */
export function rememberedLevel() {
  const n = Number(read());
  return Number.isInteger(n) && n >= 1 ? n : GENTLE_LEVEL;
}

/** Keep `level` as the one chosen last (a level that is no whole number is ignored). */
export function rememberLevel(level) {
  const n = Number(level);
  if (!Number.isInteger(n) || n < 1) return;
  try {
    localStorage.setItem(LEVEL_KEY, String(n));
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

// ---- the picture: a push, shown before and after, the marbles sliding --------------
const BEFORE = new Map(Object.entries({ a3: "o", b3: "g", c3: "o", e3: "g", d5: "g", c6: "o" }));
const AFTER = new Map(Object.entries({ a3: "g", b3: "o", c3: "g", d3: "o", e3: "g", d5: "g", c6: "o" }));
const PUSH = {
  action: "L3",
  board: BEFORE,
  motion: { moves: [{ from: "a3", to: "b3" }, { from: "b3", to: "c3" }, { from: "c3", to: "d3" }], entry: "a3", side: "L", removed: [] },
};

function view(board, last) {
  return { board, players: 2, last, legal: new Set(last ? [] : ["L3"]), active: false, turn: "g", phase: "insert" };
}

function drawPush(box) {
  const board = drawPicture(box, { cells: Object.fromEntries(AFTER), last: "L3", arrows: true, label: WORDS.after() });
  const svg = board.svg;
  const say = (words) => {
    svg.setAttribute("aria-label", words);
    board.titleNode.textContent = words;
  };
  say(WORDS.after());
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  // the push again and again: the position before, then the marble sliding in
  let shown = "after";
  setInterval(() => {
    if (document.hidden) return;
    if (shown === "after") {
      board.update(view(BEFORE, null));
      say(WORDS.before());
      shown = "before";
    } else {
      board.update(view(AFTER, "L3"), { animate: PUSH });
      say(WORDS.after());
      shown = "after";
    }
  }, 1800);
}

// ---- the button --------------------------------------------------------------------
async function playComputer(button, select, error) {
  const level = Number(select.value) || GENTLE_LEVEL;
  rememberLevel(level);
  error.hidden = true;
  button.disabled = true;
  try {
    const body = {
      variant: "express",
      players: 2,
      seats: [
        // a seat with no name is named by the server, read in each reader's language
        signedInName() ? { name: signedInName(), kind: "human" } : { kind: "human" },
        { kind: "computer", level },
      ],
    };
    const game = await api("/api/games", { method: "POST", body });
    const seat = (game.seats || []).find((s) => s.join_url);
    if (!seat) throw new Error("no seat to play");
    const token = tokenOf(seat.join_url);
    rememberGame(game.id, { tokens: { [seat.colour]: token } });
    if (signedInName()) {
      // the seat becomes the account's, as a game started from the form does
      await api("/api/session/adopt", { method: "POST", body: { tokens: [token] } }).catch(() => null);
    }
    location.href = localPath(seat.join_url);
  } catch (err) {
    error.textContent = WORDS.failed(err);
    error.hidden = false;
    button.disabled = false;
  }
}

/** The welcome's picture, its level list (the remembered level chosen) and its button. */
export async function mountWelcome() {
  const box = document.getElementById("welcome-push");
  if (box) drawPush(box);
  const button = document.getElementById("play-computer");
  const select = document.getElementById("play-computer-level");
  const error = document.getElementById("play-computer-error");
  if (!button || !select || !error) return;
  const fill = (list) => {
    const wanted = rememberedLevel();
    select.replaceChildren(...list.map((l) => el("option", { value: l.level, text: WORDS.levelOption(l) })));
    const known = list.some((l) => l.level === wanted);
    select.value = String(known ? wanted : Math.min(GENTLE_LEVEL, list[list.length - 1].level));
  };
  fill([{ level: rememberedLevel(), name: "" }]);
  select.addEventListener("change", () => rememberLevel(select.value));
  button.addEventListener("click", () => playComputer(button, select, error));
  fill(await levels());
}
