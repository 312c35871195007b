// One lesson (/learn/{lesson}): its steps on the real board. The server sends each
// step's goal and position, judges every try (POST /api/learn/{lesson}/{step}/try) and
// says why a wrong one misses the goal; this page draws what it sends, keeps the
// actions tried in the step, and the progress (learnprogress.js).
import { BoardView, parsePosition } from "./board.js";
import { api, el, levels, localPath, rememberGame, showNotice, tokenOf } from "./api.js";
import { signedInName } from "./account.js";
import { errorWords } from "./errors.js";
import { number, t } from "./i18n.js";
import { colourWord } from "./gamewords.js";
import { localProgress, recordSteps, syncProgress } from "./learnprogress.js";
import { drawScoreList } from "./scorelist.js";

const $ = (id) => document.getElementById(id);
const lessonId = decodeURIComponent(location.pathname.split("/")[2] || "");

let lesson = null;
let index = 0; // the step shown (0-based)
let tried = []; // the actions of the step so far, as the server played them
let views = []; // the position before each of them, then after the last
let settled = null; // "met" or "missed" once the try is decided: the board waits
let busy = false;

const board = new BoardView($("board"), { arrows: true, interactive: true, onAction: attempt, label: t("Lesson board") });

function step() {
  return lesson.steps[index];
}

function statusText(view) {
  // the explanation below says "well done": the status says where to go from here
  if (settled === "met") return index + 1 >= lesson.steps.length ? t("The lesson is done.") : t("On to the next step.");
  if (settled === "missed") return t("Not yet: read why, then try again.");
  if (!view.turn) return t("The game is over.");
  const colour = colourWord(view.turn); // in a sentence: "Juegas con verde" (a Spanish walk)
  return view.phase === "score" ? t("You play {colour}: score a line.", { colour }) : t("You play {colour}: push a marble in.", { colour });
}

/** Draw the latest position; `animate` slides in the action that led to it. */
function draw(animate = false) {
  const v = views[views.length - 1];
  const before = views.length > 1 ? views[views.length - 2] : null;
  const pos = parsePosition(v.position);
  const scoring = (v.scoring || []).map((s) => s.action);
  const tryable = new Set([...(v.tryable || v.legal || []), ...scoring]);
  // the lanes a step lets the player try though full are drawn as not legal, as in a game
  const legal = new Set([...(v.legal || v.tryable || []), ...scoring]);
  const last = tried.length ? tried[tried.length - 1] : null;
  const drawn = {
    board: pos.board,
    players: v.players,
    turn: v.turn,
    phase: v.result ? "over" : v.phase,
    legal,
    tryable,
    active: !settled && !busy && !v.result && tryable.size > 0,
    last,
    lastBoard: before ? parsePosition(before.position).board : null,
    motion: v.motion,
    pushes: v.pushes || {},
    scoring: v.phase === "score" && !v.result ? v.scoring || [] : [],
    winLine: v.result && v.result.line ? v.result.line : [],
  };
  board.update(drawn, { animate: animate && last && before ? { action: last, board: parsePosition(before.position).board, motion: v.motion } : null });
  $("status").textContent = statusText(v);
  $("action-input").disabled = !!settled;
  drawScoreList($("score-choices"), $("score-list"), drawn.scoring, v.players, drawn.active, attempt, board);
}

function explain(text, kind) {
  const box = $("explanation");
  if (!text) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  // not showNotice: the explanation stays until the player acts again
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.dataset.kind = kind;
  box.hidden = false;
}

function drawStep() {
  const s = step();
  $("goal").textContent = s.goal;
  $("hint").textContent = s.hint || "";
  $("hint").hidden = !s.hint;
  $("step-count").textContent = t("Step {n} of {steps}", { n: number(index + 1), steps: number(lesson.steps.length) });
  $("next").hidden = true;
  $("try-again").hidden = true;
  $("finished").hidden = true;
  explain(null);
  drawMarks();
  draw();
}

function drawMarks() {
  const done = localProgress()[lesson.id] || 0;
  const list = $("steps");
  list.replaceChildren();
  lesson.steps.forEach((s, i) => {
    const button = el("button", { type: "button", class: "small step-mark", "data-testid": "step-mark", "data-done": String(i < done), "aria-current": i === index ? "step" : "false", text: i < done ? `✓ ${number(i + 1)}` : number(i + 1) });
    button.setAttribute("aria-label", i < done ? t("Step {n} (done)", { n: number(i + 1) }) : t("Step {n}", { n: number(i + 1) }));
    button.addEventListener("click", () => openStep(i));
    list.append(el("li", {}, button));
  });
}

/** Scroll `node` into the window if part of it is outside (the least scroll). */
function intoView(node) {
  const box = node.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight) node.scrollIntoView({ block: "nearest" });
}

/** After a try: the explanation, the reason to read, in view, and the focus on the
 * button that goes on without the focus's own scroll (on a tablet upright the board is
 * most of the screen, and scrolling to the button below it took the explanation above
 * the screen). */
function settle(button) {
  if (!$("explanation").hidden) intoView($("explanation"));
  // the lesson's end: its card ("Lesson complete", the next lesson) is what comes next,
  // below the board and the steps on a phone, where it was out of sight
  if (!$("finished").hidden) intoView($("finished"));
  button.focus({ preventScroll: true });
}

/** The step the address asks for (?step=, from 1), as an index; null if none. */
function askedStep() {
  const asked = Number(new URLSearchParams(location.search).get("step"));
  return Number.isInteger(asked) && asked >= 1 ? asked - 1 : null;
}

/** Open step `i`. The address says it (a reload keeps the step): another step is an
 *  entry of the browser's history of its own (`history`: "push"), so that Back goes
 *  to the step before and, from the first, leaves the lesson; the same step or the
 *  lesson's opening replaces the entry ("replace"); Back and Forward ("none") only
 *  follow the address. */
function openStep(i, how = "push") {
  const from = lesson && views.length ? index : null;
  index = Math.max(0, Math.min(i, lesson.steps.length - 1));
  tried = [];
  views = [{ ...step().view, tryable: step().tryable }];
  settled = null;
  const url = new URL(location.href);
  url.searchParams.set("step", String(index + 1));
  const path = url.pathname + url.search;
  if (how === "push" && from !== index) history.pushState({ step: index + 1 }, "", path);
  else if (how !== "none") history.replaceState({ step: index + 1 }, "", path);
  drawStep();
  intoView(document.querySelector(".goal-box")); // a new step starts at its goal
}

/** The new step's goal, said: the keyboard is on the board below it. */
function tellStep() {
  $("step-told").textContent = `${$("step-count").textContent}. ${step().goal}`;
}

async function attempt(action) {
  if (settled || busy) return;
  busy = true;
  const actions = [...tried, action];
  try {
    const answer = await api(`/api/learn/${encodeURIComponent(lesson.id)}/${index + 1}/try`, { method: "POST", body: { actions } });
    const played = answer.actions.length === actions.length;
    if (played) {
      tried = answer.actions;
      views.push(answer.view);
    }
    busy = false;
    if (answer.status === "met") await met(answer);
    else if (answer.status === "missed") missed(answer, played);
    else explain(answer.words, "info");
    draw(played);
    if (settled === "met") settle($("next").hidden ? $("play-game") : $("next"));
    else if (settled === "missed") settle($("try-again"));
  } catch (err) {
    busy = false;
    const typo = err.data && err.data.code === "bad_try";
    explain(typo ? t("{action} is not an action: actions are written like L3, Tc or xc3-g3.", { action }) : errorWords(err.data, err.message), "error");
    draw();
  }
}

async function met(answer) {
  settled = "met";
  explain(answer.done ? `${answer.words} ${answer.done}` : answer.words, "info");
  await recordSteps(lesson.id, index + 1, !!signedInName());
  drawMarks();
  const last = index + 1 >= lesson.steps.length;
  $("next").hidden = last;
  $("finished").hidden = !last;
}

function missed(answer, played) {
  settled = "missed";
  explain(answer.words, "error");
  $("try-again").hidden = false;
  $("try-again").dataset.undo = played ? "true" : "false";
}

function tryAgain() {
  if ($("try-again").dataset.undo === "true" && tried.length) {
    tried.pop();
    views.pop();
  }
  settled = null;
  $("try-again").hidden = true;
  explain(null);
  draw();
  board.focusFirst();
}

/** A game against the computer's gentlest level, in the lesson's variant and number
 * of players (POST /api/games, as the home page makes one). */
async function playGame() {
  const button = $("play-game");
  button.disabled = true;
  try {
    const gentlest = Math.min(...(await levels()).map((l) => l.level));
    // seats with no name are named by the server, and read in each reader's language
    const seats = [signedInName() ? { name: signedInName(), kind: "human" } : { kind: "human" }];
    for (let i = 1; i < lesson.players; i++) seats.push({ kind: "computer", level: gentlest });
    const game = await api("/api/games", { method: "POST", body: { variant: lesson.variant, players: lesson.players, seats } });
    const mine = game.seats.find((s) => s.join_url);
    rememberGame(game.id, { tokens: { [mine.colour]: tokenOf(mine.join_url) } });
    location.href = localPath(mine.join_url);
  } catch (err) {
    showNotice($("game-error"), t("Could not start the game: {reason}", { reason: errorWords(err.data, err.message) }));
    button.disabled = false;
  }
}

function typed(e) {
  e.preventDefault();
  const input = $("action-input");
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  attempt(text);
}

async function start() {
  try {
    lesson = await api(`/api/learn/${encodeURIComponent(lessonId)}`);
  } catch (err) {
    $("status").textContent = t("The lesson could not be loaded: {reason}", { reason: errorWords(err.data, err.message) });
    return;
  }
  $("lesson-title").textContent = $("lesson-heading").textContent = lesson.title;
  $("lesson-title-bar").textContent = lesson.title;
  document.title = t("{lesson} · Learn · Shiftago", { lesson: lesson.title });
  if (lesson.next) $("next-lesson").href = `/learn/${lesson.next}`;
  $("next-lesson").hidden = !lesson.next;
  const done = localProgress()[lesson.id] || 0;
  openStep(askedStep() ?? (done < lesson.steps.length ? done : 0), "replace");
  // Back and Forward between the steps: the address names the step to show
  window.addEventListener("popstate", () => {
    const asked = askedStep();
    if (asked === null || asked === index) return;
    openStep(asked, "none");
    tellStep();
  });
  $("reset").addEventListener("click", () => openStep(index, "replace"));
  $("try-again").addEventListener("click", tryAgain);
  $("next").addEventListener("click", () => {
    openStep(index + 1);
    board.focusFirst();
    tellStep(); // the keyboard goes to the board: the new step's goal, above it, is said
  });
  $("play-game").addEventListener("click", playGame);
  $("typed").addEventListener("submit", typed);
  const known = new Set([lesson.id]);
  const merge = async () => {
    await syncProgress(true, known);
    drawMarks();
  };
  if (signedInName()) merge();
  document.addEventListener("shiftago:account", (e) => {
    if (e.detail && e.detail.name) merge();
  });
}

start();
