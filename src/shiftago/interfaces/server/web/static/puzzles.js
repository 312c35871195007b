// The puzzles page: /puzzles (the next puzzle near the player's rating, of the theme
// chosen), /puzzles/{id} (one puzzle, for a shared link) and /puzzles?daily=1 (the
// day's). The server says what a puzzle is (GET /api/puzzles/...), what each action
// leads to (POST /api/positions/play, as the analysis board) and whether it is right
// (POST /api/puzzles/{id}/attempt: the defence's reply, the refutation of a wrong
// action, the solution); the page draws it, plays the replies on the board, and keeps
// a signed-out player's progress in the browser (localStorage: solved ids, streak).
import { BoardView, COLOURS, marbleIcon, parsePosition } from "./board.js";
import { Announcer, actionDone } from "./announce.js";
import { api, el, showNotice } from "./api.js";
import { errorWords } from "./errors.js";
import { listed, number, t, tn } from "./i18n.js";
import { positionActionWords } from "./refusals.js";
import { colourName, colourWord, variantName } from "./gamewords.js";
import { playSound } from "./prefs.js";
import { drawScoreList } from "./scorelist.js";
import { drawSeatChips } from "./seatchips.js";
import { onChosen } from "./chosen.js";
import { keep, progress } from "./puzzleprogress.js";
import { ratingChange, ratingText } from "./rated.js";

const $ = (id) => document.getElementById(id);

/** The themes (engine/puzzles/puzzle.py THEMES, in its order) and their words. */
const THEME_WORDS = {
  "win-in-1": () => t("Win in 1"),
  "win-in-2": () => t("Win in 2"),
  "win-in-3": () => t("Win in 3"),
  "score-the-right-line": () => t("Score the right line"),
  defend: () => t("Defend: parry a threat while you win"),
  express: () => t("Express"),
  expert: () => t("Expert"),
  extreme: () => t("Extreme"),
  "players-2": () => t("2 players"),
  "players-3": () => t("3 players"),
  "players-4": () => t("4 players"),
};

/** Milliseconds between two actions the page plays (the defence's, the solution's). */
const REPLY_PAUSE = 450;
/** How many times `next` is asked again for a puzzle the browser has played already. */
const FRESH_TRIES = 4;

// ---- state -----------------------------------------------------------------------
let puzzle = null; // the puzzle as the API answers it
let start = null; // its position's view (POST /api/positions)
let shown = null; // the view on the board
let lastMove = null; // the action that led to it (marked on the board), or null
let tried = []; // the solver's actions so far
let stage = "loading"; // loading | solving | waiting | solved | failed (setStage)
let solutionViews = null; // the solution's views, the start first, once asked for
let solutionAt = 0;
let player = null; // the signed-in player's puzzle rating (GET /api/puzzles/me), or null
let failedOnce = false; // this puzzle was failed since it was opened (a retry is no first try)
let boardOwner = 0; // counts the board's hand-overs: a reply played out draws only while its own

const boardView = new BoardView($("board"), { arrows: true, interactive: true, onAction: play, label: t("Puzzle board") });
const announcer = new Announcer($("announcer"));

/** The page's stage, also on the status line (`data-stage`, `data-tried`: a stable
 * hook for tests and styles). */
function setStage(next) {
  stage = next;
  $("status").dataset.stage = next;
  $("status").dataset.tried = String(tried.length);
}

function notice(text, kind = "error") {
  showNotice($("notice"), text, kind);
}

// ---- progress in the browser -----------------------------------------------------
/** Note a finished puzzle in the browser: solved ids, the streak, the streak mode's run.
 * As the server counts a signed-in player's (docs/puzzles.md), the streak counts first
 * attempts only: a puzzle solved after a failure, or solved before, leaves it as it is. */
function remember(id, solved) {
  const p = progress();
  const firstTry = !failedOnce && !p.solved.includes(id) && !p.failed.includes(id);
  const solvedIds = solved && !p.solved.includes(id) ? [...p.solved, id] : p.solved;
  const failed = !solved && !p.failed.includes(id) ? [...p.failed, id] : p.failed;
  const streak = solved ? p.streak + (firstTry ? 1 : 0) : firstTry ? 0 : p.streak;
  const run = p.streakMode ? (solved ? p.run + 1 : p.run) : 0;
  const signedOut = solved && !player && !p.signedOut.includes(id) ? [...p.signedOut, id] : p.signedOut;
  return keep({ solved: solvedIds, failed, signedOut, streak, best: Math.max(p.best, streak), run });
}

// ---- loading a puzzle --------------------------------------------------------------
/** The puzzle the address asks for: /puzzles/{id}, ?daily=1, else the next one. */
async function firstPuzzle() {
  const match = location.pathname.match(/^\/puzzles\/([^/]+)$/);
  if (match) return api(`/api/puzzles/${match[1]}`);
  if (new URLSearchParams(location.search).get("daily")) return api("/api/puzzles/daily");
  return nextPuzzle();
}

/** The next puzzle of the theme chosen; the one just played, and one the browser
 * solved or failed already, is asked again a few times (the server knows a signed-in
 * player's attempts, not a browser's). */
async function nextPuzzle() {
  const theme = $("theme").value;
  const path = theme ? `/api/puzzles/next?theme=${encodeURIComponent(theme)}` : "/api/puzzles/next";
  const p = progress();
  const played = new Set(player ? [] : [...p.solved, ...p.failed]);
  if (puzzle) played.add(puzzle.id);
  let found = await api(path);
  for (let i = 0; i < FRESH_TRIES && played.has(found.id); i++) found = await api(path);
  return found;
}

async function open(loader) {
  handBoardOn();
  setStage("loading");
  $("status").textContent = t("Loading the puzzle…");
  try {
    const found = await loader();
    const view = await api("/api/positions", { method: "POST", body: { position: found.position } });
    puzzle = found;
    failedOnce = false;
    start = view;
    showPuzzle(true);
    nameTheDaily(puzzle.id);
    begin();
    history.replaceState(null, "", `/puzzles/${encodeURIComponent(puzzle.id)}`);
  } catch (err) {
    setStage("failed");
    // no board to play on: the page offers the next puzzle instead
    showPuzzle(false);
    const missing = err && err.status === 404;
    $("status").textContent = missing ? t("There is no such puzzle.") : errorWords(err && err.data, "") || t("The puzzle could not be loaded.");
    $("outcome").hidden = false;
    $("outcome-words").textContent = "";
    $("show-solution").hidden = true;
    $("retry").hidden = true;
  }
}

let dailyId = null; // the day's puzzle's id, once asked ("" where there is none)

/** The card's title says "Puzzle of the day" while the day's puzzle is shown (an
 *  Italian walk opened it from the home page and found no word of it). */
async function nameTheDaily(id) {
  if (dailyId === null) {
    try {
      dailyId = (await api("/api/puzzles/daily")).id;
    } catch {
      dailyId = "";
    }
  }
  if (!puzzle || puzzle.id !== id) return; // another puzzle came meanwhile
  const daily = id === dailyId;
  $("puzzle-title").textContent = daily ? t("Puzzle of the day") : t("The puzzle");
  $("puzzle-title").dataset.daily = String(daily);
}

/** Show the puzzle's board, action field and card, or hide them (none loaded). */
function showPuzzle(shown) {
  for (const part of [$("board"), $("typed"), document.querySelector(".puzzle-card")]) part.hidden = !shown;
}

/** Start the puzzle (again): its position, nothing tried. */
function begin() {
  handBoardOn();
  announcer.clear(); // "Solved!" or the last try's words are of the puzzle before
  tried = [];
  solutionViews = null;
  setStage("solving");
  $("outcome").hidden = true;
  $("solution-bar").hidden = true;
  $("solution-line").hidden = true;
  $("rating-change").hidden = true;
  describe();
  draw(start);
  say();
  boardView.focusFirst();
}

// ---- drawing -----------------------------------------------------------------------
/** The puzzle's card: whose seat, the goal, the themes, its rating and link. */
function describe() {
  const solver = colourWord(start.turn);
  $("solver").replaceChildren(
    marbleIcon(start.turn),
    document.createTextNode(" " + tn("You play {colour} ({variant}, {n} player).", "You play {colour} ({variant}, {n} players).", puzzle.players, { colour: solver, variant: variantName(puzzle.variant) })),
  );
  $("solver").dataset.colour = start.turn;
  $("goal").textContent = puzzle.goal;
  $("themes").replaceChildren(
    ...puzzle.themes.map((theme) => el("li", { "data-theme": theme, text: THEME_WORDS[theme] ? THEME_WORDS[theme]() : theme })),
  );
  $("puzzle-rating-words").textContent = t("Puzzle rating {rating}", { rating: ratingText(puzzle.rating, false) });
  $("puzzle-link").href = `/puzzles/${encodeURIComponent(puzzle.id)}`;
  document.title = t("Puzzle · {variant} · Shiftago", { variant: variantName(puzzle.variant) });
}

/** Draw `view`; `animate` (the action that led here, the board before it, its motion)
 * slides the marbles in, and its action stays marked until the next one. */
function draw(view, animate = null) {
  if (animate) lastMove = animate;
  else if (view !== shown) lastMove = null;
  shown = view;
  const pos = parsePosition(view.position) || { board: new Map() };
  const legal = new Set([...(view.legal || []), ...(view.scoring || []).map((s) => s.action)]);
  const mine = stage === "solving" && !view.result && view.turn === start.turn;
  const players = view.players || pos.players;
  const scoring = view.phase === "score" && !view.result ? view.scoring || [] : [];
  boardView.update(
    {
      board: pos.board,
      players,
      turn: view.turn,
      phase: view.result ? "over" : view.phase,
      legal,
      active: mine && legal.size > 0,
      last: lastMove ? lastMove.action : null,
      lastBoard: lastMove ? lastMove.board : null,
      motion: view.motion,
      pushes: view.pushes || {},
      scoring,
      winLine: view.result && view.result.line ? view.result.line : [],
    },
    { animate },
  );
  $("action-input").disabled = !mine;
  drawScoreList($("score-choices"), $("score-list"), scoring, players, mine, play, boardView);
  drawSeatChips($("seats"), view);
}

/** The status line and the actions left while solving. */
function say() {
  const left = puzzle.actions - tried.length;
  $("actions-left").textContent = tn("{n} action of yours to go.", "{n} actions of yours to go.", left, { n: number(left) });
  if (stage !== "solving") return;
  const colour = colourName(start.turn);
  if (tried.length === 0 && puzzle.actions > 1) {
    // the win takes several actions: the status says so, as the goal above it does
    const n = number(puzzle.actions);
    $("status").textContent = shown.phase === "score" ? t("{colour} to score: find the win in {n} actions.", { colour, n }) : t("{colour} to act: find the win in {n} actions.", { colour, n });
  } else if (tried.length === 0) {
    $("status").textContent = shown.phase === "score" ? t("{colour} to score: find the winning action.", { colour }) : t("{colour} to act: find the winning action.", { colour });
  } else {
    $("status").textContent = t("Right! {colour} to act.", { colour });
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An action played from `view` (to `next`) in words, with the marbles it moved. */
function playedWords(view, action, next) {
  return actionDone(colourName(view.turn), { action, motion: next.motion }, puzzle.players);
}

/** Play `actions` on the board one after another, animated; the views they lead to.
 *  Once the board is handed on (the solution shown, a retry, another puzzle) the rest
 *  is worked out but no longer drawn: its reply would cover what the board shows now.
 *  Nothing is said here: the answer is said once, whole, when it is on the board. */
async function playOut(from, actions) {
  const owner = boardOwner;
  let view = from;
  const views = [];
  for (const action of actions) {
    if (owner === boardOwner) await sleep(REPLY_PAUSE);
    const next = await api("/api/positions/play", { method: "POST", body: { position: view.position, action } });
    if (owner === boardOwner) {
      draw(next, { action, board: parsePosition(view.position).board, motion: next.motion });
      playSound("action");
    }
    view = next;
    views.push(next);
  }
  return views;
}

/** The other players' answer (`actions`, played from `from` to `views`) in one
 *  sentence: "The answer: Green Tc, Blue L4 and White R2." A screen reader heard each
 *  of its actions said apart, seven times in a row in a walk. */
function answerWords(from, actions, views) {
  const movers = [from, ...views];
  const each = actions.map((action, i) => t("{colour} {action}", { colour: colourName(movers[i].turn), action }));
  return t("The answer: {actions}.", { actions: listed(each) });
}

/** The board goes to something else: a reply still being played out stops drawing. */
function handBoardOn() {
  boardOwner += 1;
}

/** The action as the server's legal list spells it (a typed one may differ in case). */
function canonical(view, action) {
  const all = [...(view.legal || []), ...(view.scoring || []).map((s) => s.action)];
  return all.find((a) => a.toLowerCase() === String(action).trim().toLowerCase()) || String(action).trim();
}

// ---- solving -----------------------------------------------------------------------
async function play(action) {
  if (stage !== "solving" || !shown || shown.turn !== start.turn) return;
  const from = shown;
  action = canonical(from, action);
  setStage("waiting");
  let next;
  try {
    next = await api("/api/positions/play", { method: "POST", body: { position: from.position, action } });
  } catch (err) {
    setStage("solving");
    draw(from);
    notice(positionActionWords(err, { action, name: colourName(from.turn) }));
    return;
  }
  notice("");
  tried.push(action);
  draw(next, { action, board: parsePosition(from.position).board, motion: next.motion });
  // the server's judging may take a second or two: the status says what happens
  $("status").textContent = t("Checking {action}…", { action });
  playSound("action");
  announcer.say(playedWords(from, action, next));
  let verdict;
  try {
    verdict = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/attempt`, { method: "POST", body: { actions: tried } });
  } catch (err) {
    tried.pop();
    setStage("solving");
    draw(from);
    const words = err && err.status === 429 ? t("Too many attempts from your address: wait a minute and try again.") : t("The attempt could not be judged.");
    notice(errorWords(err && err.data, words) || words);
    return;
  }
  if (!verdict.correct) return failed(next, action, verdict, from);
  if (verdict.solved) return solved(verdict);
  const owner = boardOwner;
  const answer = await playOut(next, verdict.reply);
  if (owner !== boardOwner) return; // another puzzle came meanwhile
  if (answer.length) {
    announcer.say(answerWords(next, verdict.reply, answer));
    await sleep(0); // said before the status's "Right!" that follows it
  }
  setStage("solving");
  draw(shown); // the solver's turn again: the board is playable
  say();
  boardView.focusFirst();
}

/** Whether the keyboard is in the action field, or on the page's body that the field's
 * closing while an action is checked dropped it to: the end of a try then hands it on
 * to what comes next, rather than to the page's start. */
function keyboardDropped() {
  const focus = document.activeElement;
  return !focus || focus === document.body || focus === $("action-input");
}

function solved(verdict) {
  const lost = keyboardDropped(); // the next puzzle comes next, as from the board
  setStage("solved");
  draw(shown);
  $("actions-left").textContent = "";
  const p = remember(puzzle.id, true);
  playSound("turn");
  // said once, by the status, a live region (the announcer said it too, a walk heard)
  $("status").textContent = t("Solved!");
  outcome(t("Solved! Well played."), verdict.player);
  $("show-solution").hidden = true;
  $("retry").hidden = true;
  progressWords(p);
  if (progress().streakMode || lost) $("next").focus();
}

/** The most actions of the other players' answer that the words name (the board plays
 *  the whole of it). */
const NAMED_REPLY = 3;

/** Why `action` (played from the view `from`, leading to `after`) does not win, as far
 *  as the answer's end need not be known: a scoring short of the points that win, a
 *  win that takes more actions than the puzzle allows (`winsIn`: the server's count of
 *  them all), else only that it does not win (`answeredWords` says more once the other
 *  players' answer is on the board). */
function failedWords(from, after, action, refutation, winsIn) {
  const seat = COLOURS.indexOf(from.turn);
  const scores = from.scores || [];
  const last = tried.length === puzzle.actions; // a scoring that had to win now
  if (last && action.startsWith("x") && !refutation.length && seat >= 0 && after.scores && scores.length) {
    const points = after.scores[seat] - scores[seat];
    const need = 10 - scores[seat];
    if (points < need) {
      const scored = tn("{action} scores {n} point.", "{action} scores {n} points.", points, { action, n: number(points) });
      const wanted = tn("{n} point would have won.", "{n} points would have won.", need, { n: number(need) });
      return `${scored} ${wanted}`;
    }
  }
  if (Number.isInteger(winsIn)) {
    return tn("{action} also wins, but takes {n} action; the puzzle asks for {m}.", "{action} also wins, but takes {n} actions; the puzzle asks for {m}.", winsIn, { action, n: number(winsIn), m: number(puzzle.actions) });
  }
  return t("{action} does not win.", { action });
}

/** What the other players' answer to a wrong `action` did, once played (`end`: the view
 *  it led to): someone else won, or no win is left in the solver's actions to go; null
 *  when there was no answer. */
function answeredWords(action, refutation, end) {
  if (!refutation.length) return null;
  const reply = refutation.slice(0, NAMED_REPLY).join(" ") + (refutation.length > NAMED_REPLY ? " …" : "");
  const winners = (end.result && end.result.winners) || [];
  if (winners.length === 1 && winners[0] !== start.turn) {
    return t("{action} does not win: after the answer {reply}, {colour} wins.", { action, reply, colour: colourWord(winners[0]) });
  }
  if (end.phase === "over") return t("{action} does not win: after the answer {reply}, the game ends without your win.", { action, reply });
  const left = puzzle.actions - tried.length;
  if (left < 1) return t("{action} does not win, and it was your last action.", { action });
  return tn("{action} does not win: after the answer {reply}, no win in {n} action is left.", "{action} does not win: after the answer {reply}, no win in {n} actions is left.", left, { action, reply, n: number(left) });
}

async function failed(after, action, verdict, from) {
  // trying again, or the solution, comes next; also from the arrow the answer closed
  const lost = keyboardDropped() || !!document.activeElement?.closest?.(".shiftago-board");
  setStage("failed");
  draw(after);
  $("actions-left").textContent = "";
  const refutation = verdict.refutation || verdict.reply || [];
  const p = remember(puzzle.id, false);
  failedOnce = true;
  const words = failedWords(from, after, action, refutation, verdict.wins_in);
  // the streak mode's run ends here: said with the failure, in the outcome and aloud
  const ended = p.streakMode ? tn("Streak over: {n} solved in a row.", "Streak over: {n} solved in a row.", p.run, { n: number(p.run) }) : "";
  const told = [words, ended].filter(Boolean).join(" ");
  $("status").textContent = told; // a live region: said there, not by the announcer too
  outcome(words, verdict.player);
  $("show-solution").hidden = false;
  $("retry").hidden = p.streakMode;
  if (lost) ($("retry").hidden ? $("show-solution") : $("retry")).focus();
  solutionViews = null;
  $("solution-line").textContent = t("The solution: {line}", { line: (verdict.solution || []).join(" ") });
  $("solution-line").dataset.line = (verdict.solution || []).join(" ");
  if (ended) $("outcome-words").textContent = told;
  if (p.streakMode) keep({ run: 0 });
  progressWords(progress());
  const owner = boardOwner;
  const views = await playOut(after, refutation);
  // a slower win's words stand; else the answer's end says why the action fails
  const answered = Number.isInteger(verdict.wins_in) ? null : answeredWords(action, refutation, views.at(-1) || after);
  if (answered && stage === "failed") {
    const told = [answered, ended].filter(Boolean).join(" ");
    $("status").textContent = told; // it names the answer: the announcer says nothing
    $("outcome-words").textContent = told;
  } else if (views.length && owner === boardOwner) announcer.say(answerWords(after, refutation, views));
  $("outcome").dataset.refuted = "true";
}

/** The outcome box: its words, and the rating change of a signed-in player. */
function outcome(words, rated) {
  $("outcome").hidden = false;
  $("outcome").dataset.refuted = "false";
  $("outcome-words").textContent = words;
  const change = $("rating-change");
  change.hidden = true;
  if (rated) {
    player = rated;
    if (rated.rated) {
      // a rating as every page writes one: 1624, not 1.624 (a Dutch walk)
      const ratingWords = { rating: ratingText(rated.rating, false), change: ratingChange(Math.round(rated.change)) };
      change.textContent = t("Your puzzle rating: {rating} ({change})", ratingWords);
      change.hidden = false;
    }
  }
}

// ---- the solution, step by step ------------------------------------------------------
async function showSolution() {
  handBoardOn();
  const line = ($("solution-line").dataset.line || "").split(" ").filter(Boolean);
  $("solution-line").hidden = false;
  $("solution-bar").hidden = false;
  if (!solutionViews) {
    solutionViews = [start];
    let view = start;
    try {
      for (const action of line) {
        view = await api("/api/positions/play", { method: "POST", body: { position: view.position, action } });
        solutionViews.push(view);
      }
    } catch {
      notice(t("The solution could not be shown."));
      return;
    }
    solutionViews.line = line;
  }
  solutionStep(0);
  $("solution-forward").focus();
  // the line in words: the button said nothing of what it showed
  announcer.say($("solution-line").textContent);
}

function solutionStep(at) {
  if (!solutionViews) return;
  const last = solutionViews.length - 1;
  solutionAt = Math.max(0, Math.min(last, at));
  const view = solutionViews[solutionAt];
  const action = solutionAt ? solutionViews.line[solutionAt - 1] : null;
  const before = solutionAt ? solutionViews[solutionAt - 1] : null;
  draw(view, action ? { action, board: parsePosition(before.position).board, motion: view.motion } : null);
  $("solution-step").textContent = action
    ? t("Action {n} of {total}: {action}", { n: number(solutionAt), total: number(last), action })
    : t("The puzzle's position");
  $("solution-step").dataset.step = String(solutionAt);
  // at either end the keyboard, if on the button that end closes, goes to the other
  const [back, forward] = [$("solution-back"), $("solution-forward")];
  if (solutionAt === 0 && document.activeElement === back && last > 0) forward.focus();
  if (solutionAt === last && document.activeElement === forward && last > 0) back.focus();
  back.disabled = solutionAt === 0;
  forward.disabled = solutionAt === last;
  if (action) announcer.say(playedWords(before, action, view));
}

// ---- the player's figures ----------------------------------------------------------------
/** The figures of the account signed in, else of this browser, never a mix of both (a
 * walk saw the account's streak beside the browser's count of solves), and signed in
 * the solves made here signed out in a sentence of their own; the first-try run is
 * named apart from the streak mode's. */
function progressWords(p) {
  const streak = player ? { n: player.streak, best: player.best_streak } : { n: p.streak, best: p.best };
  $("streak").textContent = t("Solved at the first try in a row: {n} (best {best})", { n: number(streak.n), best: number(streak.best) });
  $("streak").dataset.streak = String(streak.n);
  $("player-rating").textContent = player ? t("Your puzzle rating: {rating}", { rating: ratingText(player.rating, false) }) : t("Sign in to get a puzzle rating; your progress is kept in this browser.");
  $("player-rating").dataset.rating = player ? String(player.rating) : "";
  const count = player
    ? tn("{n} puzzle played with your account.", "{n} puzzles played with your account.", player.puzzles, { n: number(player.puzzles) })
    : tn("{n} puzzle solved in this browser.", "{n} puzzles solved in this browser.", p.solved.length, { n: number(p.solved.length) });
  // signed in, the solves made here while signed out are still named, apart: signing up
  // seemed to lose them (an Italian walk), and the account's rating never saw them
  const before = player && p.signedOut.length
    ? tn("{n} puzzle solved in this browser while signed out (not in your rating).", "{n} puzzles solved in this browser while signed out (not in your rating).", p.signedOut.length, { n: number(p.signedOut.length) })
    : "";
  const run = p.streakMode ? tn("Streak mode: {n} solved in a row.", "Streak mode: {n} solved in a row.", p.run, { n: number(p.run) }) : "";
  $("solved-count").textContent = [count, before, run].filter(Boolean).join(" ");
  $("solved-count").dataset.run = String(p.run);
}

/** The signed-in player's puzzle rating, or null signed out (the browser keeps the
 * progress then); asked again when the header's account widget signs in or out. */
async function loadPlayer() {
  try {
    const session = await api("/api/session");
    player = session && session.name ? await api("/api/puzzles/me") : null;
  } catch {
    player = null;
  }
  progressWords(progress());
}
document.addEventListener("shiftago:account", loadPlayer);

// ---- wiring ------------------------------------------------------------------------
function themePicker() {
  const picker = $("theme");
  picker.replaceChildren(
    el("option", { value: "", text: t("Any theme") }),
    ...Object.keys(THEME_WORDS).map((theme) => el("option", { value: theme, text: THEME_WORDS[theme]() })),
  );
  const kept = progress().theme;
  if (Object.hasOwn(THEME_WORDS, kept)) picker.value = kept;
  onChosen(picker, (theme) => {
    keep({ theme });
    open(nextPuzzle);
  });
  const mode = $("streak-mode");
  mode.checked = progress().streakMode;
  mode.addEventListener("change", () => {
    keep({ streakMode: mode.checked, run: 0 });
    progressWords(progress());
  });
}

$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("action-input");
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  play(text);
});
$("next").addEventListener("click", () => {
  if (progress().streakMode && stage === "failed") keep({ run: 0 });
  open(nextPuzzle);
});
$("retry").addEventListener("click", () => begin());
$("show-solution").addEventListener("click", showSolution);
$("solution-back").addEventListener("click", () => solutionStep(solutionAt - 1));
$("solution-forward").addEventListener("click", () => solutionStep(solutionAt + 1));
document.addEventListener("keydown", (e) => {
  if (!solutionViews || $("solution-bar").hidden || e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowLeft") solutionStep(solutionAt - 1);
  else if (e.key === "ArrowRight") solutionStep(solutionAt + 1);
});

themePicker();
await loadPlayer();
await open(firstPuzzle);
