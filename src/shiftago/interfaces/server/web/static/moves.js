// The action list, numbered as records number turns (GAME `history[].turn`), with the
// points of each scoring, the turns skipped by a handicap, and the review's marks. In a
// finished game an entry is a button that shows the position after it.
import { COLOUR_NAMES, marbleIcon } from "./board.js";
import { el } from "./api.js";
import { $, ctx, history, isOver, nameOf, shownStep, together, who } from "./state.js";

function pointsText(points) {
  return points > 0 ? ` +${points}` : ` ${points}`;
}

/** The turns a handicap skipped, by the skipping seats' names ("Green skips"). */
function skipNode(colours) {
  const words = `${colours.map(nameOf).join(", ")} skip${colours.length === 1 ? "s" : ""}`;
  return el("span", {
    class: "skip", "data-testid": "skip", title: colours.map((c) => `${COLOUR_NAMES[c]} skips a turn (handicap)`).join("; "),
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
      if (turn !== null && turn !== undefined) item.append(el("span", { class: "turn-no", text: `${turn}.` }));
      if (h.seat) item.append(marbleIcon(h.seat, 14), el("span", { class: "visually-hidden", text: `${COLOUR_NAMES[h.seat]}: ` }));
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
    if (j && j.mark) node.append(el("span", { class: `mark ${j.judgement || ""}`, title: j.judgement || "", text: j.mark }));
    if (jumps) {
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.title = `Show the position after ${h.action}`;
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
    const by = run[0].seat ? who(run[0].seat) : "The mover";
    const one = (s) => (s.points === 0 ? `${s.action}, a line worth 0 points` : `${s.action} for ${s.points} point${s.points === 1 ? "" : "s"}`);
    news.push(`${by} scored ${together(run.map(one))}.`);
  }
  if (skipped.length) news.push(`${together(skipped.map(who))} ${skipped.length > 1 ? "skip" : "skips"} a turn (handicap).`);
  return news.join(" ");
}
