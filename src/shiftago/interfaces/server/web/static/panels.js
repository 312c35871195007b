// What the page says about the game at the step shown: the status line, the players
// (marbles, points, skips, who acts), the score phase's choices with their points,
// the result with rematch, and the tournament's score. Words only: every fact is the
// server's (GAME) or the step's position string.
import { COLOURS, colourName, isScoring, marbleIcon } from "./board.js";
import { el } from "./api.js";
import { nameBesideColour } from "./gamewords.js";
import { renderClocks } from "./clock.js";
import { resultSentence } from "./results.js";
import { drawScoreList } from "./scorelist.js";
import { number, t, tn } from "./i18n.js";
import { seatRating } from "./rated.js";
import { $, anyConn, connFor, ctx, held, heldThatMay, history, isOver, lastStep, nameOf, seatOf, setText, together, who } from "./state.js";

/** The result in words, a whole sentence (a name keeps its case). */
function resultText(result) {
  return resultSentence(result, ctx.game && ctx.game.variant, who);
}

/** The status line for the view `v` (see state.shown). */
export function statusText(v, canAct) {
  const g = ctx.game;
  if (!g) return t("Loading the game…");
  const name = v.turn ? who(v.turn) : "";
  const scoring = v.phase === "score";
  if (!v.final) {
    const at = { step: number(v.step), steps: number(lastStep()), name };
    if (!v.turn) return t("Step {step} of {steps}: the game is over.", at);
    // the move the list and the review's key moments number ("37. Tb"), where the
    // steps count actions, scorings included: a walk could not match 37 with step 48
    const next = (g.history || [])[v.step];
    if (next && Number.isInteger(next.turn)) {
      const move = { ...at, move: number(next.turn) };
      return scoring ? t("Step {step} of {steps}, move {move}: {name} to score a line.", move) : t("Step {step} of {steps}, move {move}: {name} to play.", move);
    }
    return scoring ? t("Step {step} of {steps}: {name} to score a line.", at) : t("Step {step} of {steps}: {name} to play.", at);
  }
  // an aborted game was never played out: its sentence says so without "Game over"
  if (v.over && v.result && v.result.reason === "aborted") return resultText(v.result);
  if (v.over) return t("Game over: {result}", { result: resultText(v.result) });
  if (!v.turn) return t("Waiting for the game…");
  const seat = seatOf(v.turn);
  if (ctx.thinking === v.turn || (seat && seat.kind === "computer")) return t("{name} is thinking…", { name });
  const mine = held().includes(v.turn);
  // the player's action is on its way: not "Orange to play" to the player who just played
  // (a blind player's walk heard it after each of their own actions)
  if (mine && ctx.pending && ctx.pending.version === ctx.version) return t("Playing {action}…", { action: ctx.pending.action });
  if (scoring) {
    return mine && canAct ? t("Your turn, {name}: score a line (choose it on the board or below).", { name }) : t("{name} to score a line.", { name });
  }
  // a seat that has just scored moves again (RULES.md): said, or a newcomer wonders why
  const played = history();
  const last = played[played.length - 1];
  if (last && last.seat === v.turn && isScoring(last.action)) {
    return mine && canAct ? t("You scored, {name}: push a marble in again.", { name }) : t("{name} scored and plays again.", { name });
  }
  return mine && canAct ? t("Your turn, {name}: push a marble in.", { name }) : t("{name} to play.", { name });
}

function presenceOf(colour) {
  return ctx.presence && ctx.presence.seats ? ctx.presence.seats.find((s) => s.colour === colour) : null;
}

/** Whole seconds as minutes and seconds ("4:05"), in the page's digits. */
export function fmtSeconds(s) {
  const whole = Math.max(0, Math.round(s));
  return `${number(Math.floor(whole / 60))}:${number(whole % 60, { minimumIntegerDigits: 2 })}`;
}

/** A count in the page's digits, or `none` when there is no count. */
function count(n, none) {
  return n === null || n === undefined ? none : number(n);
}

/** Whether a seat's person has never come (a friend who has not followed the link
 *  yet): presence `came` false. */
export function notCome(p) {
  return !!p && !p.connected && p.came === false;
}

/** Seconds since a seat went away (presence `away_since`), or null. */
export function awayFor(p) {
  if (!p || p.connected || p.away_since === null || p.away_since === undefined) return null;
  const t = Date.parse(p.away_since);
  return Number.isFinite(t) ? (Date.now() - t) / 1000 : null;
}

export function renderPlayers(v) {
  const g = ctx.game;
  const box = $("players");
  box.replaceChildren();
  const mine = held();
  const over = isOver();
  const winners = v.final && v.result ? v.result.winners || [] : [];
  (g.seats || []).forEach((seat, i) => {
    const colour = seat.colour || COLOURS[i];
    const toAct = !v.over && v.turn === colour;
    const isWinner = winners.includes(colour);
    const stats = el("dl", { class: "stats" },
      el("dt", { text: t("Marbles") }), el("dd", { "data-testid": `supply-${colour}`, text: count(v.supplies[i], "–") }));
    if (g.variant !== "express") stats.append(el("dt", { text: t("Points") }), el("dd", { "data-testid": `score-${colour}`, text: count(v.scores[i], number(0)) }));
    if ((v.skips[i] || 0) > 0) stats.append(el("dt", { text: t("Skips") }), el("dd", { "data-testid": `skips-${colour}`, text: count(v.skips[i], "") }));
    const badges = el("span", { class: "badges" });
    if (mine.includes(colour)) badges.append(el("span", { class: "badge you", text: t("you") }));
    // a person's seat without an account: shown as a guest's, never as an account's
    if (seat.guest) badges.append(el("span", { class: "badge guest", "data-testid": `guest-${colour}`, title: t("Not signed in to an account."), text: t("guest") }));
    if (seat.kind === "computer") badges.append(el("span", { class: "badge", text: seat.level ? t("computer, level {level}", { level: seat.level }) : t("computer") }));
    const p = presenceOf(colour);
    const connected = p ? p.connected : seat.connected;
    // this page's own seat whose socket is down is not connected, whatever the server
    // said last; and with no socket open, what it said of the others is not known now
    const reconnecting = mine.includes(colour) && !connFor(colour);
    const known = !!anyConn() || reconnecting;
    if (!over && seat.kind !== "computer" && typeof connected === "boolean" && known) {
      const away = awayFor(p);
      const text = reconnecting ? t("reconnecting…")
        : connected ? t("connected")
          : notCome(p) ? t("not here yet")
            : away !== null ? t("away {time}", { time: fmtSeconds(away) }) : t("away");
      const here = connected && !reconnecting;
      badges.append(el("span", { class: `badge ${here ? "here" : "away"}`, "data-testid": `presence-${colour}`, text }));
    }
    let turnText = "";
    // a computer thinks only in the game as it stands, never at a step of the replay
    const thinks = v.final && (ctx.thinking === colour || seat.kind === "computer");
    if (toAct) turnText = thinks ? t("thinking…") : v.phase === "score" ? t("to score") : t("to play");
    // a draw is a result every seat shares; two of three sharing a win are winners
    if (isWinner) turnText = winners.length > 1 && winners.length === (g.seats || []).length ? t("draw") : t("winner");
    box.append(
      el("article", {
        class: `player colour-${colour}${toAct ? " to-act" : ""}${isWinner ? " winner" : ""}`,
        "data-testid": `player-${colour}`, "aria-current": toAct ? "true" : null,
        // named by its head (the name, the colour, whose turn), not read as one run
        "aria-labelledby": `player-head-${colour}`,
      },
      el("div", { class: "player-head", id: `player-head-${colour}` }, marbleIcon(colour, 28),
        el("span", { class: "player-name", text: nameOf(colour) }),
        g.rated && seat.account ? el("span", { class: "player-rating", "data-testid": `rating-${colour}`, title: t("Rating"), text: seatRating(g, { ...seat, colour }) }) : null,
        // a screen reader hears the colour after a name, not after the colour itself,
        // nor twice after a name that holds it ("Computer (green)" beside another)
        nameBesideColour({ ...seat, colour }) && !nameOf(colour).toLowerCase().includes(colourName(colour).toLowerCase())
          ? el("span", { class: "visually-hidden", text: " " + t("({colour})", { colour: colourName(colour) }) })
          : null,
        " ", // the name and the turn apart in the panel's name (a flex row shows no gap for it)
        el("span", { class: "turn", text: turnText })),
      badges, stats),
    );
  });
  renderStrip(v);
  renderClocks(g, v.final, held());
  const watching = spectators();
  if (watching > 0) box.append(el("p", { class: "watching", "data-testid": "spectators", text: tn("{n} watching", "{n} watching", watching) }));
}

/** The strip above the board that a phone shows (its cards are below the board there):
 * each seat's points in a variant that scores, and its clock in a timed game at the last
 * step (clock.js ticks it); hidden where it would hold nothing but marbles. */
function renderStrip(v) {
  const g = ctx.game;
  const strip = $("clock-strip");
  if (!strip) return;
  const scores = g.variant !== "express";
  const clock = !!g.clock && v.final;
  strip.hidden = !scores && !clock;
  strip.classList.toggle("with-points", scores);
  const seats = (g.seats || []).map((seat, i) => seat.colour || COLOURS[i]);
  // drawn again only when what it holds changes: a redraw keeps the same nodes
  const shape = `${seats.join("")} ${scores} ${clock}`;
  if (strip.dataset.shape !== shape) {
    strip.dataset.shape = shape;
    strip.replaceChildren(...seats.map((colour) =>
      el("span", { class: "strip-seat", "data-seat": colour },
        marbleIcon(colour, 16),
        el("span", { class: "visually-hidden", text: nameOf(colour) }),
        scores ? el("span", { class: "strip-points", "data-testid": `strip-score-${colour}` }) : null,
        clock ? el("span", { class: "clock", "data-clock": colour, "aria-hidden": "true" }) : null)));
  }
  seats.forEach((colour, i) => {
    const seat = strip.querySelector(`[data-seat="${colour}"]`);
    seat.classList.toggle("to-act", !v.over && v.turn === colour);
    const points = seat.querySelector(".strip-points");
    const words = STRIP_WORDS.points(v.scores[i] ?? 0);
    if (points && points.textContent !== words) points.textContent = words;
  });
}

const STRIP_WORDS = {
  points: (n) => tn("{n} point", "{n} points", n),
};

/** How many watch the game (presence `spectators`, over every server process). */
function spectators() {
  const n = ctx.presence ? ctx.presence.spectators : 0;
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** The score phase's choices as a list, each with its points (scorelist.js). */
export function renderScoreChoices(v, canAct, onAct) {
  const choices = v.final && v.phase === "score" ? ctx.game.scoring || [] : [];
  drawScoreList($("score-choices"), $("score-list"), choices, ctx.game.players, canAct, onAct, ctx.boardView);
}

let wasOver = null; // whether the game was over at the last drawing (null: none yet)

/** A game that ends while a keyboard player's focus is on the board, where nothing is
 *  left to play, hands the focus to the result's words, brought into view (above the
 *  board on a laptop, it was out of sight): read at once, its buttons one Tab on. Not to
 *  the rematch: a blind player's walk heard "Rematch" cut the result short, and the
 *  next Enter started a new game. */
function focusTheEnd() {
  $("result-text").focus({ preventScroll: true });
  $("result").scrollIntoView({ block: "nearest" });
}

export function renderResult(v) {
  const g = ctx.game;
  const ended = wasOver === false && isOver();
  wasOver = isOver();
  const showing = v.final && v.over;
  // a finished game stepped back through keeps its result card's room beside the board
  // (style.css, .replaying): the cards under it jumped up and down with each step, a
  // key moment's chip away from the pointer that had just clicked it
  $("result").hidden = !showing && !(isOver() && !v.final);
  $("result").classList.toggle("replaying", !showing);
  if (showing) setText("result-text", resultText(v.result));
  const tour = g.tournament && typeof g.tournament === "object" ? g.tournament : null;
  const done = !!(tour && tour.winner);
  const rematchers = heldThatMay("rematch");
  const offer = rematchOffer(rematchers);
  const rematch = $("rematch");
  const nextGame = $("next-game");
  rematch.hidden = !(showing && rematchers.length && !g.next && (!tour || done));
  nextGame.hidden = !(showing && rematchers.length && !g.next && tour && !done);
  rematch.textContent = offer.mineAsked ? t("Rematch asked") : offer.others.length ? t("Accept the rematch") : t("Rematch");
  nextGame.textContent = offer.mineAsked ? t("Next game asked") : offer.others.length ? t("Accept the next game") : t("Next game");
  rematch.disabled = nextGame.disabled = offer.mineAsked;
  setText("rematch-note", showing && !g.next ? offer.words : "");
  $("rematch-note").hidden = !$("rematch-note").textContent;
  const follow = $("follow-next");
  follow.hidden = !(showing && g.next);
  if (g.next) follow.href = `/${held().length ? "play" : "watch"}/${encodeURIComponent(g.next)}`;
  $("result").classList.toggle("offers", [rematch, nextGame, follow, $("rematch-note")].some((n) => !n.hidden));
  if (ended && showing && $("board").contains(document.activeElement)) focusTheEnd();
  // between a tournament's games the score stands beside the button that goes on
  const standing = showing && tour ? t("Tournament score: {score}", { score: tournamentLine(tour) }) : "";
  setText("result-tournament", standing);
  $("result-tournament").hidden = !standing;
  renderTournament(tour);
}

/** Each seat's wins in the tournament, in seat order: "Ann 1 · Ben 0". */
function tournamentLine(tour) {
  const seats = ctx.game.seats || [];
  const wins = (c, i) => (Array.isArray(tour.wins) ? tour.wins[i] : tour.wins && tour.wins[c]) ?? 0;
  return seats.map((s, i) => `${nameOf(s.colour)} ${number(wins(s.colour, i))}`).join(" · ");
}

/** Who asked for the next game (GAME's rematch_asked) as this page sees it: whether
 *  its own seats have all asked, the others that have, and words for the result card. */
export function rematchOffer(rematchers = heldThatMay("rematch")) {
  const g = ctx.game || {};
  const asked = Array.isArray(g.rematch_asked) ? g.rematch_asked : [];
  const mine = held();
  const mineAsked = rematchers.length > 0 && rematchers.every((c) => asked.includes(c));
  const others = asked.filter((c) => !mine.includes(c));
  const waiting = (g.seats || []).filter((s) => s.kind === "human" && !asked.includes(s.colour) && !mine.includes(s.colour));
  const names = (colours) => together(colours.map(who));
  const tour = g.tournament && typeof g.tournament === "object" ? g.tournament : null;
  const next = tour && !tour.winner;
  let words = "";
  if (mineAsked && waiting.length) {
    const values = { names: names(waiting.map((s) => s.colour)) };
    words = next ? t("Waiting for {names} to agree to the next game.", values) : t("Waiting for {names} to agree to a rematch.", values);
  } else if (others.length && !mineAsked) {
    const values = { names: names(others) };
    if (others.length > 1) words = next ? t("{names} ask for the next game.", values) : t("{names} ask for a rematch.", values);
    else words = next ? t("{names} asks for the next game.", values) : t("{names} asks for a rematch.", values);
  }
  return { asked, mineAsked, others, words };
}

function renderTournament(tour) {
  const box = $("tournament");
  if (!tour) {
    box.hidden = true;
    return;
  }
  const line = tournamentLine(tour);
  const target = Number.isFinite(tour.target) ? tour.target : null;
  const parts = [
    el("h2", { text: target ? tn("Tournament to {n} win", "Tournament to {n} wins", target) : t("Tournament") }),
    el("p", { "data-testid": "tournament-score", text: line }),
  ];
  if (tour.winner) parts.push(el("p", { class: "strong", text: t("{name} wins the tournament!", { name: nameOf(tour.winner) }) }));
  const words = parts.map((p) => p.textContent).join("\n");
  if (box.dataset.words !== words) {  // a live region: the same words are not said again
    box.dataset.words = words;
    box.replaceChildren(...parts);
  }
  box.hidden = false;
}
