// The home page: start a game, my games, public games, import a record.
import { COLOURS, marbleIcon } from "./board.js";
import { mountPrefs } from "./prefs.js";
import { mountLobby } from "./lobby.js";
import { mountTimeControl } from "./timecontrol.js";
import { mountChallengeList } from "./challenges.js";
import { signedInName } from "./account.js";
import { mountWelcome, rememberLevel, rememberedLevel } from "./welcome.js";
import {
  VARIANTS, api, colourName, copyText, el, forgetGame, knownGames, levels, localPath,
  parseStatus, rememberGame, ruleNumbers, tokenOf, csrfToken, variantName } from "./api.js";
import { errorWords } from "./errors.js";
import { levelLabel, seatName } from "./gamewords.js";
import { mountDaily } from "./daily.js";
import { keepHashTarget } from "./hashtarget.js";
import { date, lang, listed, t, tn } from "./i18n.js";
import { resultSentence } from "./results.js";

const $ = (id) => document.getElementById(id);
let LEVELS = [{ level: 1, name: "" }];
let maxHandicap = 0; // the server's (GET /api/levels `rules`); until it has come, none
let timeControl = null; // the form's choice of time (timecontrol.js)

// ---- new game form -----------------------------------------------------------
// the variant and player count chosen last, offered again (a reload keeps them)
const CHOICE_KEY = "shiftago:new-game";

function rememberedChoice() {
  try {
    const kept = JSON.parse(localStorage.getItem(CHOICE_KEY) || "{}");
    return {
      variant: Object.hasOwn(VARIANTS, kept.variant) ? kept.variant : "express",
      players: [2, 3, 4].includes(kept.players) ? kept.players : 2,
    };
  } catch {
    return { variant: "express", players: 2 };
  }
}

function rememberChoice() {
  const variant = document.querySelector('input[name="variant"]:checked').value;
  try {
    localStorage.setItem(CHOICE_KEY, JSON.stringify({ variant, players: playerCount() }));
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

function buildVariants() {
  const chosen = rememberedChoice().variant;
  const list = $("variant-list");
  for (const [key, v] of Object.entries(VARIANTS)) {
    list.append(
      el("label", { class: "choice" },
        el("input", { type: "radio", name: "variant", value: key, checked: key === chosen }),
        el("span", { class: "choice-body" },
          el("strong", { text: v.name }),
          el("span", { class: "summary", text: v.summary }))),
    );
  }
}

function playerCount() {
  return +document.querySelector('input[name="players"]:checked').value;
}

// the third and fourth seats have no kind until they are first shown: they then take the
// second seat's (against the computer, a third player is the computer too; with a
// friend, a friend), where a seat at this screen made a lone player two colours
const seatState = [
  { kind: "here", name: "", level: null, handicap: 0 },
  { kind: "computer", name: "", level: null, handicap: 0 },
  { kind: null, name: "", level: null, handicap: 0 },
  { kind: null, name: "", level: null, handicap: 0 },
];

/** A seat's handicap list: no handicap, or 1 to the rules' most skipped turns. */
function fillHandicap(select, st) {
  select.replaceChildren();
  for (let h = 0; h <= maxHandicap; h++) select.append(el("option", { value: h, text: h === 0 ? t("no handicap") : tn("skips {n} turn", "skips {n} turns", h) }));
  select.value = String(st.handicap);
}

function buildSeats() {
  const box = $("seats");
  box.replaceChildren();
  const n = playerCount();
  for (let i = 0; i < n; i++) {
    const colour = COLOURS[i];
    const st = seatState[i];
    st.kind ??= seatState[1].kind;
    const id = `seat-${i}`;
    const kind = el("select", { id: `${id}-kind`, name: `${id}-kind`, class: "seat-kind", "data-testid": `seat-kind-${i}` },
      el("option", { value: "here", text: t("At this screen") }),
      el("option", { value: "friend", text: t("A friend (gets a link)") }),
      el("option", { value: "computer", text: t("The computer") }));
    kind.value = st.kind;
    const level = el("select", { id: `${id}-level`, "aria-label": t("{colour}: computer level", { colour: colourName(colour) }), "data-testid": `seat-level-${i}`, "data-seat": i });
    fillLevels(level, st);
    const name = el("input", {
      id: `${id}-name`, type: "text", class: "seat-name", maxlength: 40, autocomplete: "off",
      "aria-label": t("{colour}: name", { colour: colourName(colour) }), "data-testid": `seat-name-${i}`,
    });
    name.value = st.name;
    const handicap = el("select", { id: `${id}-handicap`, class: "seat-handicap", "aria-label": t("{colour}: handicap (turns skipped)", { colour: colourName(colour) }), "data-testid": `seat-handicap-${i}` });
    fillHandicap(handicap, st);
    const levelBox = el("span", { class: "level-box" }, level);
    const sync = () => {
      st.kind = kind.value;
      st.name = name.value;
      st.handicap = +handicap.value;
      levelBox.hidden = kind.value !== "computer";
      showDefaultNames(); // one seat's kind can change the others' (defaultName)
    };
    for (const c of [kind, name, handicap]) c.addEventListener("change", sync);
    // only a level chosen by hand is kept (and remembered for the next game): until the
    // levels have loaded the list holds a placeholder, and the default is the level
    // last chosen, or a gentle one on a first visit (welcome.js)
    level.addEventListener("change", () => {
      st.level = +level.value;
      rememberLevel(st.level);
    });
    name.addEventListener("input", sync);
    sync();
    box.append(
      el("div", { class: "seat", "data-seat": i },
        el("span", { class: "seat-colour" }, marbleIcon(colour, 26), el("span", { text: colourName(colour) })),
        el("label", { class: "visually-hidden", for: `${id}-kind`, text: t("{colour}: who plays", { colour: colourName(colour) }) }),
        kind, levelBox, name, handicap),
    );
  }
  showDefaultNames();
  const first = $("first");
  const keep = first.value;
  first.replaceChildren(el("option", { value: "", text: t("Drawn by lot") }));
  for (let i = 0; i < n; i++) first.append(el("option", { value: COLOURS[i], text: colourName(COLOURS[i]) }));
  first.value = [...first.options].some((o) => o.value === keep) ? keep : "";
}

/** The level choices of a computer seat: the seat's own choice, else the level last
 * chosen (a gentle one on a first visit). */
function fillLevels(select, st) {
  select.replaceChildren(...LEVELS.map((l) => el("option", { value: l.level, text: levelLabel(l) })));
  const wanted = st.level ?? rememberedLevel();
  select.value = String(LEVELS.some((l) => l.level === wanted) ? wanted : LEVELS[0].level);
}

function showError(box, message) {
  box.textContent = message;
  box.hidden = !message;
}

/** The signed-in name, for the one seat played at this screen; else "". */
function accountName(i) {
  const here = seatState.slice(0, playerCount()).filter((s) => s.kind === "here").length;
  return seatState[i].kind === "here" && here === 1 ? signedInName() || "" : "";
}

/** The name seat `i` goes by when none is typed: the signed-in name for the one seat
 * played at this screen, else the server's name for it in the page's words ("Computer",
 * else its colour). */
function defaultName(i) {
  if (seatState[i].kind === "computer") return t("Computer");
  return accountName(i) || colourName(COLOURS[i]);
}

/** Each seat's name field shows its default name as its placeholder. */
function showDefaultNames() {
  for (const input of document.querySelectorAll("input.seat-name")) {
    const i = Number(input.closest("[data-seat]").dataset.seat);
    input.placeholder = defaultName(i);
  }
}

async function startGame(e) {
  e.preventDefault();
  const n = playerCount();
  const variant = document.querySelector('input[name="variant"]:checked').value;
  const seats = [];
  // the one seat played at this screen is the signed-in maker's (the game is then on the
  // player's page from its start); a friend's is not, and with several seats here
  // (people taking turns) none is: whose each is, the page cannot tell
  const here = seatState.slice(0, n).filter((s) => s.kind === "here").length;
  for (let i = 0; i < n; i++) {
    const st = seatState[i];
    // a seat with no name typed is named by the server, in no one language, so that
    // each reader of the game reads that name in their own
    const name = st.name.trim() || accountName(i);
    const seat = { kind: st.kind === "computer" ? "computer" : "human" };
    if (st.kind !== "computer") seat.mine = st.kind === "here" && here === 1;
    if (name) seat.name = name;
    // a level not chosen by hand is the one last chosen, or a gentle one
    if (st.kind === "computer") seat.level = st.level ?? rememberedLevel();
    seats.push(seat);
  }
  const body = { variant, players: n, seats, public: $("public").checked };
  const handicap = seatState.slice(0, n).map((s) => s.handicap || 0);
  if (handicap.some((h) => h > 0)) body.handicap = handicap;
  if ($("first").value) body.first = $("first").value;
  if (variant === "express" && $("tournament").checked) body.tournament = true;
  const wrongTime = timeControl.error();
  showError($("form-error"), wrongTime);
  if (wrongTime) return;
  const clock = timeControl.clock();
  if (clock) body.clock = clock;
  const button = $("start");
  button.disabled = true;
  try {
    const game = await api("/api/games", { method: "POST", body });
    await afterCreate(game, seatState.slice(0, n).map((s) => s.kind), seats.map((s, i) => s.name || defaultName(i)));
  } catch (err) {
    showError($("form-error"), t("Could not start the game: {reason}", { reason: errorWords(err.data, err.message) }));
  } finally {
    button.disabled = false;
  }
}

/** Remember the seats played here; go to the first seat, or show friends' links first,
 * each under the name given for its seat (`names`). */
async function afterCreate(game, kinds, names = null) {
  const tokens = {};
  const invites = {};
  let firstHere = null;
  (game.seats || []).forEach((seat, i) => {
    if (!seat.join_url) return;
    const kind = kinds ? kinds[i] : "here";
    if (kind === "friend") invites[seat.colour] = seat.join_url;
    else {
      tokens[seat.colour] = tokenOf(seat.join_url);
      if (!firstHere) firstHere = localPath(seat.join_url);
    }
  });
  rememberGame(game.id, { tokens, invites: Object.keys(invites).length ? invites : null });
  const target = firstHere || localPath(game.watch_url || `/watch/${game.id}`);
  if (!Object.keys(invites).length) {
    location.href = target;
    return;
  }
  const list = $("invite-list");
  list.replaceChildren();
  for (const [colour, url] of Object.entries(invites)) {
    const input = el("input", { type: "text", readonly: true, value: url, "data-testid": `invite-${colour}` });
    const copy = el("button", { type: "button", text: t("Copy") });
    copy.addEventListener("click", async () => {
      copy.textContent = (await copyText(url)) ? t("Copied") : t("Copy failed");
    });
    const i = (game.seats || []).findIndex((seat) => seat.colour === colour);
    const name = names && names[i] ? names[i] : "";
    const label = !name || name.toLowerCase() === colourName(colour).toLowerCase() ? colourName(colour) : t("{name} ({colour})", { name, colour: colourName(colour).toLocaleLowerCase(lang) });
    input.setAttribute("aria-label", t("Link for {player}", { player: label }));
    list.append(el("li", { class: "invite" }, marbleIcon(colour, 22), el("span", { class: "invite-name", text: label }), input, copy));
  }
  $("go-game").href = target;
  $("watch-link").href = localPath(game.watch_url || `/watch/${game.id}`);
  $("invites").hidden = false;
  $("new-game").hidden = true;
  $("invites").scrollIntoView({ block: "nearest" });
  loadMine(); // the new game joins "My games" now, not at the next visit
}

// ---- lists -------------------------------------------------------------------
function describe(game) {
  const v = variantName(game.variant);
  const seats = game.seats || [];
  const names = seats.map((s) => seatName(s, seats)).join(" · ");
  const st = parseStatus(game);
  let state;
  const who = (c) => seatName(seats.find((x) => x.colour === c) || { colour: c }, seats);
  // a game read whole has its result: how it ended is said as its page says it (two
  // finished games read alike, "camille won", a French walk could not tell apart)
  if (st.over && game.result) state = resultSentence(game.result, game.variant, who);
  else if (st.over) {
    const winners = listed(st.winners.map(who));
    if (st.aborted) state = t("aborted");
    // as the game page says it: a draw among some of the seats is a shared win
    else if (st.draw) state = st.winners.length < game.players ? tn("{names} shares the win", "{names} share the win", st.winners.length, { names: winners }) : t("draw");
    else state = tn("{names} won", "{names} won", st.winners.length, { names: winners });
  } else if (Array.isArray(game.actions)) {
    state = tn("{n} action, {colour} to play", "{n} actions, {colour} to play", game.actions.length, { colour: colourName(st.turn) });
  } else {
    state = t("{colour} to play", { colour: colourName(st.turn) });
  }
  const title = tn("{variant}, {n} player", "{variant}, {n} players", game.players, { variant: v });
  return { title, names, state, over: st.over };
}

// the words of "My games", whole
const MINE = {
  yourTurn: () => t("Your turn"),
  toPlay: (name) => t("{name} to play", { name }),
};

/** A game of a list; `mine` (the player's own games) marks the link as one of "My
 * games", says whose turn it is, and `toAct` whether it is the player's. */
function gameItem(game, href, extra = null, mine = null) {
  const d = describe(game);
  const icons = el("span", { class: "icons" });
  for (const s of game.seats || []) icons.append(marbleIcon(s.colour, 16));
  let state = d.state;
  const link = el("a", { href, class: "game-link" });
  if (mine) {
    link.dataset.testid = "my-game";
    link.dataset.toAct = String(!!mine.toAct);
    if (!d.over) {
      const turn = parseStatus(game).turn;
      const seats = game.seats || [];
      const seat = seats.find((x) => x.colour === turn) || { colour: turn };
      state = mine.toAct ? MINE.yourTurn() : MINE.toPlay(seatName(seat, seats));
    }
  }
  // when it last moved: finished games of the same players read alike without it
  const when = game.updated ? el("time", { class: "g-when", datetime: game.updated, text: date(game.updated, { dateStyle: "medium", timeStyle: "short" }) }) : null;
  link.append(icons,
    el("span", { class: "g-title", text: d.title }),
    el("span", { class: "g-names", text: d.names }),
    el("span", { class: mine && mine.toAct ? "g-state to-act" : "g-state", text: state }));
  if (when) link.append(when);
  return el("li", { "data-game": game.id }, link, extra);
}

let mineDrawn = 0; // the newest drawing of "My games": an older one that ends later is dropped
let mineSignature = ""; // the account's games last drawn (id, turn, change)

async function accountGames() {
  if (!csrfToken()) return null; // signed out: the csrf cookie comes with a session
  try {
    return await api("/api/account/games");
  } catch {
    return null; // signed out
  }
}

/** "My games": the signed-in account's games first (GET /api/account/games), then the
 * games this browser keeps that are not among them; each read afresh. */
async function loadMine(account = undefined) {
  const drawing = ++mineDrawn;
  const fromServer = account === undefined ? await accountGames() : account;
  const refs = fromServer ? [...(fromServer.playing || []), ...(fromServer.recent || []).slice(0, 10)] : [];
  mineSignature = signature(fromServer);
  const games = knownGames();
  const shown = new Set(refs.map((r) => r.id));
  const kept = Object.keys(games)
    .filter((id) => !shown.has(id))
    .sort((a, b) => String(games[b].added || "").localeCompare(String(games[a].added || "")))
    .slice(0, 30);
  const ids = [...refs.map((r) => r.id), ...kept];
  const results = await Promise.all(ids.map((id) => api(`/api/games/${encodeURIComponent(id)}`).catch((e) => (e.status === 404 ? "gone" : null))));
  if (drawing !== mineDrawn) return;
  $("mine-playing").replaceChildren();
  $("mine-over").replaceChildren();
  let any = false;
  ids.forEach((id, i) => {
    const game = results[i];
    const ref = i < refs.length ? refs[i] : null;
    if (game === "gone") {
      if (!ref) forgetGame(id);
      return;
    }
    if (!game) return;
    any = true;
    let item;
    if (ref) {
      item = gameItem(game, localPath(ref.url), null, { toAct: ref.to_act });
    } else {
      const held = Object.keys(games[id].tokens || {});
      const href = held.length ? `/play/${encodeURIComponent(id)}` : `/watch/${encodeURIComponent(id)}`;
      const forget = el("button", { type: "button", class: "small", text: t("Forget"), "aria-label": t("Forget this game") });
      const st = parseStatus(game);
      item = gameItem(game, href, forget, { toAct: !st.over && held.includes(st.turn) });
      forget.addEventListener("click", () => {
        forgetGame(id);
        item.remove();
      });
    }
    (describe(game).over ? $("mine-over") : $("mine-playing")).append(item);
  });
  $("mine-empty").hidden = any;
  $("mine-playing-title").hidden = !$("mine-playing").children.length;
  $("mine-over-title").hidden = !$("mine-over").children.length;
}

function signature(data) {
  if (!data) return "";
  return [...(data.playing || []), ...(data.recent || [])].map((g) => `${g.id}:${g.to_act}:${g.updated}`).join(",");
}

async function loadPublic() {
  try {
    const data = await api("/api/games?public=true");
    const list = Array.isArray(data) ? data : (data && (data.games || data.items)) || [];
    for (const game of list.slice(0, 50)) {
      if (!game || !game.id) continue;
      $("public-list").append(gameItem(game, `/watch/${encodeURIComponent(game.id)}`));
    }
    $("public-empty").hidden = list.length > 0;
  } catch {
    $("public-empty").textContent = t("The list of public games is not available.");
  }
}

// ---- import ------------------------------------------------------------------
/** Whether `text` can be a record: no NUL, and no byte that did not decode (U+FFFD). */
function isText(text) {
  return !/[\u0000\uFFFD]/.test(text);
}

async function importRecord(e) {
  e.preventDefault();
  const box = $("import-error");
  showError(box, "");
  const text = $("import-text").value;
  if (!text.trim()) {
    showError(box, t("Paste a record or choose a file first."));
    return;
  }
  if (!isText(text)) {
    showError(box, t("This is not the text of a record: it holds characters that are not text."));
    return;
  }
  try {
    const game = await api("/api/games/import", { method: "POST", body: { record: text, public: $("import-public").checked } });
    afterCreate(game, null);
  } catch (err) {
    showError(box, t("Could not import: {reason}", { reason: errorWords(err.data, err.message) }));
  }
}

/** The seats take two columns each (.stacked, style.css) where one row of shared columns,
 * each as wide as its widest choice, is wider than the form: how wide that is depends on
 * the language, the levels' names and which seats are the computer's, so it is measured,
 * not set by a breakpoint. Measured again whenever a seat's parts or choices change
 * (before the next frame: a mutation observer's callback) and when the window's width
 * does. */
function fitSeats() {
  const box = $("seats");
  const fit = () => {
    box.classList.remove("stacked");
    if (box.scrollWidth > box.clientWidth + 1) box.classList.add("stacked");
  };
  fit();
  new MutationObserver(fit).observe(box, { subtree: true, childList: true, attributeFilter: ["hidden"] });
  let width = innerWidth;
  addEventListener("resize", () => {
    if (innerWidth !== width) {
      width = innerWidth;
      fit();
    }
  });
}

async function main() {
  keepHashTarget();
  mountPrefs($("prefs"));
  mountWelcome();
  mountDaily($("daily-puzzle"));
  buildVariants();
  const players = document.querySelector(`input[name="players"][value="${rememberedChoice().players}"]`);
  if (players) players.checked = true;
  buildSeats();
  fitSeats();
  timeControl = mountTimeControl("clock", "game", { untimedFirst: true });
  for (const r of document.querySelectorAll('input[name="players"]')) r.addEventListener("change", buildSeats);
  for (const r of document.querySelectorAll('input[name="players"], input[name="variant"]')) r.addEventListener("change", rememberChoice);
  document.addEventListener("shiftago:account", showDefaultNames); // signed in or out
  const syncTournament = () => {
    $("tournament-box").hidden = document.querySelector('input[name="variant"]:checked').value !== "express";
  };
  for (const r of document.querySelectorAll('input[name="variant"]')) r.addEventListener("change", syncTournament);
  syncTournament();
  $("new-game").addEventListener("submit", startGame);
  $("import-form").addEventListener("submit", importRecord);
  // a chosen file replaces what the box holds: the box is what Import sends
  // the browser's own file control speaks its own language ("Choose File"): the page's
  // button and this name say it in the page's (a French walk)
  $("import-file").addEventListener("change", async () => {
    const f = $("import-file").files[0];
    $("import-file-name").textContent = f ? f.name : t("No file chosen");
    if (!f) return;
    const text = await f.text();
    // a picture or an archive read as text holds NULs or undecodable bytes: said here,
    // in the page's words, rather than as the server's "not valid" (an Italian walk)
    if (!isText(text)) {
      $("import-text").value = "";
      showError($("import-error"), t("{file} is not a text file: a record is text, such as the file that Download record saves.", { file: f.name }));
      return;
    }
    $("import-text").value = text;
    showError($("import-error"), "");
  });
  loadMine();
  mountChallengeList($("challenges"));
  document.addEventListener("shiftago:account", () => loadMine());
  // the header's count looked again (waiting.js): the list follows when the games changed
  document.addEventListener("shiftago:waiting", (e) => {
    const data = e.detail && e.detail.games;
    if (signature(data) !== mineSignature) loadMine(data);
  });
  loadPublic();
  mountLobby();
  LEVELS = await levels();
  // the loaded levels go into the seats' lists in place: rebuilding the seats would
  // take away the keyboard's place and any name being typed
  for (const select of document.querySelectorAll("select[data-testid^=seat-level-]")) fillLevels(select, seatState[+select.dataset.seat]);
  maxHandicap = (await ruleNumbers()).max_handicap;
  for (const select of document.querySelectorAll("select[data-testid^=seat-handicap-]")) fillHandicap(select, seatState[+select.dataset.testid.split("-").at(-1)]);
}

main();
