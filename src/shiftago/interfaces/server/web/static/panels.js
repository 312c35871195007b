// What the page says about the game at the step shown: the status line, the players
// (marbles, points, skips, who acts), the score phase's choices with their points,
// the result with rematch, and the tournament's score. Words only: every fact is the
// server's (GAME) or the step's position string.
import { COLOURS, COLOUR_NAMES, marbleIcon } from "./board.js";
import { el } from "./api.js";
import { renderClocks } from "./clock.js";
import { seatRating } from "./rated.js";
import { $, ctx, held, heldThatMay, isOver, lastStep, nameOf, seatOf, setText, together, who } from "./state.js";

const ENDINGS = {
  line: " with a line",
  points: " on points",
  resignation: " by resignation",
  abandoned: " (the others left the game)",
  time: " on time",
  agreement: " by agreement",
  "board full": " (the board is full)",
  "no marbles": " (the player to move has no marble left)",
  "action limit": " (the action limit is reached)",
};

// Endings where, with 3-4 players, the seats left share the win (WEBAPI.md, clocks)
const SHARED_WINS = new Set(["resignation", "abandoned", "time"]);
// Endings that the most points decide in Expert and Extreme (RULES.md section 7)
const ON_POINTS = new Set(["board full", "no marbles", "action limit"]);

/** The result in words; `sentence` starts them with a capital (a name keeps its case). */
function resultText(result, sentence = false) {
  const r = result || {};
  const winners = r.winners || [];
  const by = (r.by || []).map(who).join(" and ");
  // who left is named where known: "the others" reads wrong when there is one
  const why = r.reason === "abandoned" && by ? ` (${by} left the game)` : ENDINGS[r.reason] || "";
  const first = (words) => (sentence ? words.replace(/^./, (c) => c.toUpperCase()) : words);
  if (r.reason === "aborted") {
    return first(by ? `the game was aborted by ${by} (no result).` : "the game was aborted (no result).");
  }
  const names = winners.map(who);
  if (winners.length > 1 && SHARED_WINS.has(r.reason)) return `${together(names)} share the win${why}.`;
  if (winners.length > 1) return first(`draw between ${together(names)}${why}.`);
  const byPoints = ctx.game && ctx.game.variant !== "express" && ON_POINTS.has(r.reason);
  if (winners.length === 1) return `${names[0]} wins${byPoints ? " on points" : ""}${why}.`;
  return first("nobody wins.");
}

/** The status line for the view `v` (see state.shown). */
export function statusText(v, canAct) {
  const g = ctx.game;
  if (!g) return "Loading the game…";
  const doing = v.phase === "score" ? "to score a line" : "to play";
  if (!v.final) return `Step ${v.step} of ${lastStep()}: ${v.turn ? `${who(v.turn)} ${doing}` : "the game is over"}.`;
  if (v.over) return `Game over: ${resultText(v.result)}`;
  if (!v.turn) return "Waiting for the game…";
  const seat = seatOf(v.turn);
  if (ctx.thinking === v.turn || (seat && seat.kind === "computer")) return `${who(v.turn)} is thinking…`;
  const mine = held().includes(v.turn);
  if (v.phase === "score") {
    return mine && canAct ? `Your turn, ${who(v.turn)}: score a line (choose it on the board or below).` : `${who(v.turn)} ${doing}.`;
  }
  return mine && canAct ? `Your turn, ${who(v.turn)}: push a marble in.` : `${who(v.turn)} ${doing}.`;
}

function presenceOf(colour) {
  return ctx.presence && ctx.presence.seats ? ctx.presence.seats.find((s) => s.colour === colour) : null;
}

export function fmtSeconds(s) {
  s = Math.max(0, Math.round(s));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
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
      el("dt", { text: "Marbles" }), el("dd", { "data-testid": `supply-${colour}`, text: v.supplies[i] ?? "–" }));
    if (g.variant !== "express") stats.append(el("dt", { text: "Points" }), el("dd", { "data-testid": `score-${colour}`, text: v.scores[i] ?? 0 }));
    if ((v.skips[i] || 0) > 0) stats.append(el("dt", { text: "Skips" }), el("dd", { "data-testid": `skips-${colour}`, text: v.skips[i] }));
    const badges = el("span", { class: "badges" });
    if (mine.includes(colour)) badges.append(el("span", { class: "badge you", text: "you" }));
    // a person's seat without an account: shown as a guest's, never as an account's
    if (seat.guest) badges.append(el("span", { class: "badge guest", "data-testid": `guest-${colour}`, title: "Not signed in to an account.", text: "guest" }));
    if (seat.kind === "computer") badges.append(el("span", { class: "badge", text: seat.level ? `computer, level ${seat.level}` : "computer" }));
    const p = presenceOf(colour);
    const connected = p ? p.connected : seat.connected;
    if (!over && seat.kind !== "computer" && typeof connected === "boolean") {
      const away = awayFor(p);
      const text = connected ? "connected" : away !== null ? `away ${fmtSeconds(away)}` : "away";
      badges.append(el("span", { class: `badge ${connected ? "here" : "away"}`, "data-testid": `presence-${colour}`, text }));
    }
    let turnText = "";
    // a computer thinks only in the game as it stands, never at a step of the replay
    const thinks = v.final && (ctx.thinking === colour || seat.kind === "computer");
    if (toAct) turnText = thinks ? "thinking…" : v.phase === "score" ? "to score" : "to play";
    if (isWinner) turnText = winners.length > 1 ? "draw" : "winner";
    box.append(
      el("article", {
        class: `player colour-${colour}${toAct ? " to-act" : ""}${isWinner ? " winner" : ""}`,
        "data-testid": `player-${colour}`, "aria-current": toAct ? "true" : null,
      },
      el("div", { class: "player-head" }, marbleIcon(colour, 28),
        el("span", { class: "player-name", text: nameOf(colour) }),
        g.rated && seat.account ? el("span", { class: "player-rating", "data-testid": `rating-${colour}`, title: "Rating", text: seatRating(g, { ...seat, colour }) }) : null,
        el("span", { class: "visually-hidden", text: ` (${COLOUR_NAMES[colour]})` }),
        el("span", { class: "turn", text: turnText })),
      badges, stats),
    );
  });
  renderStrip(v);
  renderClocks(g, v.final, held());
  const watching = spectators();
  if (watching > 0) box.append(el("p", { class: "watching", "data-testid": "spectators", text: `${watching} watching` }));
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
  points: (n) => (n === 1 ? "1 point" : `${n} points`),
};

/** How many watch the game (presence `spectators`, over every server process). */
function spectators() {
  const n = ctx.presence ? ctx.presence.spectators : 0;
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** The score phase's choices as a list, each with its points (0-point lines apart). */
export function renderScoreChoices(v, canAct, onAct) {
  const box = $("score-choices");
  const list = $("score-list");
  const choices = v.final && v.phase === "score" ? ctx.game.scoring || [] : [];
  list.replaceChildren();
  for (const c of choices) {
    const zero = c.points === 0;
    const pts = `${c.points} point${c.points === 1 ? "" : "s"}`;
    // with 3-4 players the first end named stays on the board
    const keep = ctx.game.players > 2 ? `keep ${c.action.slice(1, 3)}` : "";
    const button = el("button", {
      type: "button", class: `score-choice${zero ? " zero" : ""}`, "data-action": c.action,
      "data-points": c.points, disabled: !canAct, onclick: () => onAct(c.action),
    }, el("code", { text: c.action }), keep ? el("span", { class: "keep", text: keep }) : null, el("span", { class: "pts", text: pts }));
    list.append(el("li", {}, button));
  }
  box.hidden = !choices.length;
}

export function renderResult(v) {
  const g = ctx.game;
  const showing = v.final && v.over;
  $("result").hidden = !showing;
  if (showing) setText("result-text", resultText(v.result, true));
  const t = g.tournament && typeof g.tournament === "object" ? g.tournament : null;
  const done = !!(t && t.winner);
  const rematchers = heldThatMay("rematch");
  const offer = rematchOffer(rematchers);
  const rematch = $("rematch");
  const nextGame = $("next-game");
  rematch.hidden = !(showing && rematchers.length && !g.next && (!t || done));
  nextGame.hidden = !(showing && rematchers.length && !g.next && t && !done);
  rematch.textContent = offer.mineAsked ? "Rematch asked" : offer.others.length ? "Accept the rematch" : "Rematch";
  nextGame.textContent = offer.mineAsked ? "Next game asked" : offer.others.length ? "Accept the next game" : "Next game";
  rematch.disabled = nextGame.disabled = offer.mineAsked;
  setText("rematch-note", showing && !g.next ? offer.words : "");
  $("rematch-note").hidden = !$("rematch-note").textContent;
  const follow = $("follow-next");
  follow.hidden = !(showing && g.next);
  if (g.next) follow.href = `/${held().length ? "play" : "watch"}/${encodeURIComponent(g.next)}`;
  $("result").classList.toggle("offers", [rematch, nextGame, follow, $("rematch-note")].some((n) => !n.hidden));
  renderTournament(t);
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
  const names = (colours) => colours.map(who).join(" and ");
  const t = g.tournament && typeof g.tournament === "object" ? g.tournament : null;
  const what = t && !t.winner ? "the next game" : "a rematch";
  let words = "";
  if (mineAsked && waiting.length) words = `Waiting for ${names(waiting.map((s) => s.colour))} to agree to ${what}.`;
  else if (others.length && !mineAsked) words = `${names(others)} ${others.length > 1 ? "ask" : "asks"} for ${what}.`;
  return { asked, mineAsked, others, words };
}

function renderTournament(t) {
  const box = $("tournament");
  if (!t) {
    box.hidden = true;
    return;
  }
  const seats = ctx.game.seats || [];
  const wins = (c, i) => (Array.isArray(t.wins) ? t.wins[i] : t.wins && t.wins[c]) ?? 0;
  const line = seats.map((s, i) => `${nameOf(s.colour)} ${wins(s.colour, i)}`).join(" · ");
  const target = Number.isFinite(t.target) ? t.target : null;
  const parts = [
    el("h2", { text: target ? `Tournament to ${target} wins` : "Tournament" }),
    el("p", { "data-testid": "tournament-score", text: line }),
  ];
  if (t.winner) parts.push(el("p", { class: "strong", text: `${nameOf(t.winner)} wins the tournament!` }));
  const words = parts.map((p) => p.textContent).join("\n");
  if (box.dataset.words !== words) {  // a live region: the same words are not said again
    box.dataset.words = words;
    box.replaceChildren(...parts);
  }
  box.hidden = false;
}
