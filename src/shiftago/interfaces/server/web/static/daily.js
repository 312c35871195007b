// The puzzle of the day on the home page: a small picture of its position, whose seat
// the solver is and its goal, as one link to /puzzles?daily=1, which opens it. The card
// stays hidden when the server has no puzzle to give. Once this browser solved it, the
// card says so.
import { drawPicture } from "./board.js";
import { api } from "./api.js";
import { t } from "./i18n.js";
import { colourName } from "./gamewords.js";
import { progress } from "./puzzleprogress.js";

/** Fill the card `box` (hidden until the day's puzzle has come). */
export async function mountDaily(box) {
  if (!box) return;
  let puzzle;
  try {
    puzzle = await api("/api/puzzles/daily");
  } catch {
    return; // no puzzle today: the home page goes on without the card
  }
  const turn = String(puzzle.position).split(/\s+/)[3] || "o";
  const colour = colourName(turn);
  // the picture names the puzzle only: the goal's words beside it in the same link say
  // whose turn it is (both did, and the link read "Green to act Green to act")
  const label = t("Puzzle of the day");
  drawPicture(box.querySelector("#daily-board"), { position: puzzle.position, players: puzzle.players, turn, label });
  box.querySelector("#daily-goal").textContent = t("{colour} to act. {goal}", { colour, goal: puzzle.goal });
  box.querySelector("#daily-link").dataset.puzzle = puzzle.id;
  // solved in this browser: said on the card (an Italian walk saw no sign of it)
  const solved = progress().solved.includes(puzzle.id);
  box.querySelector("#daily-solved").hidden = !solved;
  box.dataset.solved = String(solved);
  box.hidden = false;
}
