// A small still picture of a board (the home and how-to pages): a position string or
// {cell: colour}, with marks; nothing in it can be played or focused.
import { parsePosition } from "./position.js";
import { BoardView } from "./view.js";

/** A small picture for the how-to page: a position string or {cell: colour}, with marks
 * (`motion` as GAME's: the cells the `last` scoring emptied). */
export function drawPicture(container, { position, cells, players = 2, last = null, lastBoard = null, motion = null, highlight = [], winLine = [], scoring = [], arrows = false, legal = [], turn = null, label = "" }) {
  let board;
  if (position) board = parsePosition(position).board;
  else board = new Map(Object.entries(cells || {}));
  const view = new BoardView(container, { arrows, interactive: false, label, picture: true });
  view.svg.classList.add("picture");
  view.update({
    board,
    players,
    last,
    lastBoard: lastBoard ? new Map(Object.entries(lastBoard)) : null,
    motion,
    highlight,
    winLine,
    scoring,
    legal: new Set(legal),
    active: false,
    turn,
    phase: "insert",
  });
  // a picture, not controls (the view makes it one image): nothing in it a Tab or a
  // click reaches (Chromium focuses an SVG element that has focus listeners unless its
  // tabindex is -1)
  for (const node of view.svg.querySelectorAll("[data-action]")) {
    node.removeAttribute("role");
    node.setAttribute("tabindex", "-1");
    node.removeAttribute("data-action");
  }
  return view;
}
