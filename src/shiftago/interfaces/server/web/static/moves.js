// The action list, numbered as records number turns (GAME `history[].turn`), with the
// points of each scoring, the turns skipped by a handicap, and the review's marks. In a
// finished game an entry is a button that shows the position after it.
import { colourName, lineCells, marbleIcon } from "./board.js";
import { el } from "./api.js";
import { number, t, tn } from "./i18n.js";
import { $, ctx, history, isOver, nameOf, shownStep, together, who } from "./state.js";

// the review's judgements of an action, named (functions: looked up when shown)
const JUDGEMENTS = {
  inaccuracy: () => t("inaccuracy"),
  mistake: () => t("mistake"),
  blunder: () => t("blunder"),
};

/** A judgement's name in the page's language ("" for none). */
function judgementWords(judgement) {
  const words = JUDGEMENTS[judgement];
  return words ? words() : judgement || "";
}

function pointsText(points) {
  return points > 0 ? ` +${number(points)}` : ` ${number(points)}`;
}

/** The turns a handicap skipped, by the skipping seats' names ("Green skips"). */
function skipNode(colours) {
  const names = together(colours.map(nameOf));
  const words = colours.length === 1 ? t("{names} skips", { names }) : t("{names} skip", { names });
  return el("span", {
    class: "skip", "data-testid": "skip",
    title: colours.map((c) => t("{colour} skips a turn (handicap)", { colour: colourName(c) })).join("; "),
  }, ...colours.map((c) => marbleIcon(c, 12)), words);
}

/** Draw the list; `onJump(step)` shows the position after an action (finished games). */
export function renderMoves({ onJump }) {
  const box = $("moves");
  const g = ctx.game;
  if (!g) return;
  const step = shownStep();
  const jumps = isOver();
  box.replaceChildren();
  if ((g.skipped_at_start || []).length) box.append(el("li", { class: "turn-line start" }, skipNode(g.skipped_at_start)));
  let item = null;
  let turn;
  history().forEach((h, i) => {
    const index = h.index ?? i;
    if (!item || h.turn === null || h.turn === undefined || h.turn !== turn) {
      turn = h.turn;
      item = el("li", { class: "turn-line", "data-turn": turn ?? null });
      if (turn !== null && turn !== undefined) item.append(el("span", { class: "turn-no", text: `${number(turn)}.` }));
      if (h.seat) item.append(marbleIcon(h.seat, 14), el("span", { class: "visually-hidden", text: t("{colour}: ", { colour: colourName(h.seat) }) }));
      box.append(item);
    }
    const j = ctx.review ? ctx.review.judgementOf(index) : null;
    const node = el("span", {
      class: `move${index === step - 1 ? " current" : ""}`,
      "data-index": index,
      "data-judgement": (j && j.judgement) || "",
      "aria-current": index === step - 1 ? "step" : null,
    }, el("span", { class: "act", text: h.action }));
    if (h.points !== null && h.points !== undefined) {
      node.append(el("span", { class: `pts${h.points === 0 ? " zero" : ""}`, text: pointsText(h.points) }));
    }
    if (j && j.mark) node.append(el("span", { class: `mark ${j.judgement || ""}`, title: judgementWords(j.judgement), text: j.mark }));
    if (jumps) {
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.title = t("Show the position after {action}", { action: h.action });
      node.addEventListener("click", () => onJump(index + 1));
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onJump(index + 1);
        }
      });
    }
    item.append(node, " ");
    if ((h.skipped || []).length) item.append(skipNode(h.skipped), " ");
  });
  const cur = box.querySelector(".current");
  if (cur && box.scrollHeight > box.clientHeight) box.scrollTop = cur.offsetTop - box.clientHeight / 2;
}

/** What the last action shown did beside its marble: the scorings of its turn so far
 *  (kept through the scorer's extra insertion) and the turns a handicap skipped right
 *  after it. */
export function actionNews() {
  const hist = history();
  const step = shownStep();
  const last = hist[step - 1];
  const scored = (h) => h.points !== null && h.points !== undefined;
  // the scorings of the last action's turn so far (a scorer's turn goes on: a computer
  // may score twice before a person sees the board)
  const run = [];
  for (let i = step - 1; last && i >= 0 && hist[i].seat === last.seat && hist[i].turn === last.turn; i--) {
    if (scored(hist[i])) run.unshift(hist[i]);
  }
  const skipped = step === 0 ? ctx.game.skipped_at_start || [] : (last && last.skipped) || [];
  const news = [];
  if (run.length) {
    // the line in words, its notation after it: a newcomer reads "a line of 4", not xa4-a1
    const one = (s) => {
      const [a, b] = s.action.toLowerCase().slice(1).split("-");
      const length = number(lineCells(a, b).length);
      return s.points === 0
        ? t("a line of {length} ({action}) worth 0 points", { length, action: s.action })
        : tn("a line of {length} ({action}) for {n} point", "a line of {length} ({action}) for {n} points", s.points, { length, action: s.action });
    };
    const lines = together(run.map(one));
    news.push(run[0].seat ? t("{name} scored {lines}.", { name: who(run[0].seat), lines }) : t("The mover scored {lines}.", { lines }));
  }
  if (skipped.length) news.push(skipsWords(skipped));
  return news.join(" ");
}

/** The sentence for the seats (colours) a handicap skipped: "Ben skips a turn
 *  (handicap)."; the news line and the announcer say it alike. */
export function skipsWords(skipped) {
  const names = together(skipped.map(who));
  return skipped.length > 1 ? t("{names} skip a turn (handicap).", { names }) : t("{names} skips a turn (handicap).", { names });
}
