// "Play from here": a new game that starts from the position shown (the analysis board,
// a finished game's replay), against the computer at a chosen level, the player choosing
// a colour, or with a friend, whose seat's link the new game's Share card then offers.
// The server checks the position (POST /api/games "position", docs/web-protocol.md); the
// page opens the player's seat. `mountPlayFrom(box, position)` fills `box`; `position()`
// gives the position string shown at the moment the game is asked for.
import { COLOURS } from "./board.js";
import { api, csrfToken, el, levels, localPath, rememberGame, tokenOf } from "./api.js";
import { errorWords } from "./errors.js";
import { t } from "./i18n.js";
import { colourName, levelWords } from "./gamewords.js";

/** The words of the card, in one place (getters: looked up in the catalogue when shown). */
const WORDS = {
  get title() {
    return t("Play from here");
  },
  get intro() {
    return t("A new game that starts from the position shown.");
  },
  get opponent() {
    return t("Opponent");
  },
  get computer() {
    return t("The computer");
  },
  get friend() {
    return t("A friend, by link");
  },
  get colour() {
    return t("Your colour");
  },
  get level() {
    return t("The computer's level");
  },
  get start() {
    return t("Start the game");
  },
  get noPosition() {
    return t("There is no position to play from.");
  },
  get friendNote() {
    return t("Your friend's link is in the new game's Share card.");
  },
};

/** Why the game was not started, in the page's words: a position refused (`invalid`,
 * the core's words in English) is told over when the server reads it as finished
 * (POST /api/positions), else as impossible; another error by errors.js. */
async function failedWords(err, shown) {
  const data = err && err.data;
  if (data && typeof data === "object" && data.code === "invalid") {
    if (data.field !== "position") return t("Could not start the game: the server refused it.");
    const view = await api("/api/positions", { method: "POST", body: { position: shown } }).catch(() => null);
    return view && view.result
      ? t("Could not start the game: the game is over in this position.")
      : t("Could not start the game: a game cannot start from this position.");
  }
  return t("Could not start the game: {why}", { why: errorWords(data, t("the server did not answer.")) });
}

/** A gentle level to offer first (the level list's own default is the strongest). */
const FIRST_LEVEL = 3;

/** The players and the colour to act of a position string ("express 2 ... o insert ..."). */
function fieldsOf(position) {
  const words = String(position || "").trim().split(/\s+/);
  const players = Number(words[1]);
  if (!(players >= 2 && players <= 4)) return null;
  return { players, turn: COLOURS.includes(words[3]) ? words[3] : "o" };
}

/** Fill `box` with the card; `position()` is read when the game is asked for. */
export function mountPlayFrom(box, position) {
  const id = (name) => `play-from-${name}`;
  const colour = el("select", { id: id("colour"), "data-testid": "play-from-colour" });
  const level = el("select", { id: id("level"), "data-testid": "play-from-level" });
  const computer = el("input", { type: "radio", name: id("opponent"), value: "computer", id: id("computer"), checked: true, "data-testid": "play-from-computer" });
  const friend = el("input", { type: "radio", name: id("opponent"), value: "friend", id: id("friend"), "data-testid": "play-from-friend" });
  const levelRow = el("p", { class: "row wrap" }, el("label", { for: id("level"), text: WORDS.level }), level);
  const start = el("button", { type: "submit", class: "primary", "data-testid": "play-from-start", text: WORDS.start });
  const note = el("p", { class: "hint", text: WORDS.friendNote, hidden: true });
  const error = el("p", { class: "notice error", role: "alert", "data-testid": "play-from-error", hidden: true });
  const form = el(
    "form",
    { class: "play-from-form" },
    el(
      "fieldset",
      {},
      el("legend", { text: WORDS.opponent }),
      el("label", { for: id("computer") }, computer, ` ${WORDS.computer}`),
      el("label", { for: id("friend") }, friend, ` ${WORDS.friend}`),
    ),
    el("p", { class: "row wrap" }, el("label", { for: id("colour"), text: WORDS.colour }), colour),
    levelRow,
    note,
    el("p", {}, start),
    error,
  );
  const details = el("details", { "data-testid": "play-from" }, el("summary", {}, el("h2", { id: id("title"), text: WORDS.title })), el("p", { class: "hint", text: WORDS.intro }), form);
  box.replaceChildren(details);

  let shownFor = null;
  let chosen = null; // the colour the player picked, kept while the position has it
  /** The colours of the position's game: the one picked, else the one to act. */
  function refreshColours() {
    const fields = fieldsOf(position());
    const key = fields ? `${fields.players} ${fields.turn}` : "";
    if (key === shownFor) return fields;
    shownFor = key;
    const options = fields ? COLOURS.slice(0, fields.players) : [];
    const pick = options.includes(chosen) ? chosen : fields && fields.turn;
    colour.replaceChildren(...options.map((c) => el("option", { value: c, text: colourName(c), selected: c === pick })));
    return fields;
  }
  colour.addEventListener("change", () => (chosen = colour.value));
  // the position shown may have changed since the card was opened (a replay's step, a
  // try on the analysis board): its colours are read again before they are chosen
  colour.addEventListener("pointerdown", refreshColours);
  colour.addEventListener("focus", refreshColours);
  function refreshOpponent() {
    levelRow.hidden = !computer.checked;
    note.hidden = computer.checked;
  }
  levels().then((list) => {
    const gentle = list.some((x) => x.level === FIRST_LEVEL) ? FIRST_LEVEL : list[0].level;
    level.replaceChildren(...list.map((x) => el("option", { value: String(x.level), text: levelWords(x), selected: x.level === gentle })));
  });
  details.addEventListener("toggle", () => details.open && refreshColours());
  computer.addEventListener("change", refreshOpponent);
  friend.addEventListener("change", refreshOpponent);
  refreshOpponent();

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.hidden = true;
    const shown = String(position() || "").trim();
    const fields = refreshColours();
    if (!fields) {
      error.textContent = WORDS.noPosition;
      error.hidden = false;
      return;
    }
    const mine = colour.value || fields.turn;
    const againstComputer = computer.checked;
    const seats = COLOURS.slice(0, fields.players).map((c) =>
      c === mine || !againstComputer ? { kind: "human" } : { kind: "computer", level: Number(level.value) || FIRST_LEVEL },
    );
    start.disabled = true;
    try {
      const game = await api("/api/games", { method: "POST", body: { position: shown, seats } });
      const tokens = {};
      const invites = {};
      let target = null;
      for (const seat of game.seats || []) {
        if (!seat.join_url) continue;
        if (seat.colour === mine) {
          tokens[mine] = tokenOf(seat.join_url);
          target = localPath(seat.join_url);
        } else invites[seat.colour] = seat.join_url;
      }
      rememberGame(game.id, { tokens, invites: Object.keys(invites).length ? invites : null });
      // signed in (a session's CSRF cookie), the seat becomes the account's, as a game
      // started from the home page does; the game is there all the same if this fails
      if (csrfToken() && tokens[mine]) {
        await api("/api/session/adopt", { method: "POST", body: { tokens: [tokens[mine]] } }).catch(() => null);
      }
      location.href = target || localPath(game.watch_url || `/watch/${game.id}`);
    } catch (err) {
      error.textContent = await failedWords(err, shown);
      error.hidden = false;
      start.disabled = false;
    }
  });
  return { refresh: refreshColours };
}

// A page that shows its position in an element names it: `data-position-from="position"`
// (the analysis board); the game page mounts its card itself, shown once the game is over.
for (const box of document.querySelectorAll("[data-position-from]")) {
  const source = box.dataset.positionFrom;
  mountPlayFrom(box, () => (document.getElementById(source) || {}).textContent || "");
}
