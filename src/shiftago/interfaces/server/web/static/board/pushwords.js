// The words of a push for a screen reader, which cannot see the marbles slide: which
// marbles it moves, from where to where, nearest the edge first (GAME `motion` and
// `pushes` list them farthest first). With the board before the push, each marble's
// colour too. The server says which marbles move; this only says it.
import { listed, number, t, tn } from "../i18n.js";
import { COLOURS, colourName, colourTitle } from "./marbles.js";

/** Each move's words, nearest the edge first, in one list: "orange a3 to b3 and green
 * b3 to c3" (colours where `board`, a Map of cell to colour before the push, is given). */
function stepsList(moves, board) {
  const steps = [...moves].reverse().map(({ from, to }) => {
    const colour = board && board.get(from);
    return colour ? t("{colour} {from} to {to}", { colour: colourName(colour), from, to }) : t("{from} to {to}", { from, to });
  });
  return listed(steps);
}

/** "2 marbles: orange a3 to b3, green b3 to c3"; "" for no move. */
export function movesWords(moves, board = null) {
  if (!Array.isArray(moves) || !moves.length) return "";
  return tn("{n} marble: {list}", "{n} marbles: {list}", moves.length, { list: stepsList(moves, board) });
}

/** An arrow's description: what its push would move now (the board as it stands). */
export function pushDescription(moves, board) {
  const words = movesWords(moves, board);
  return words ? t("Pushes {moves}.", { moves: words }) : t("Pushes no marble.");
}

/** What a push just did, after the sentence that names it: "2 marbles moved: a3 to b3
 * and b3 to c3." (one colon: "Moved: 2 marbles: …" had two, a French walk heard). */
export function movedWords(moves) {
  if (!Array.isArray(moves) || !moves.length) return "";
  return tn("{n} marble moved: {list}.", "{n} marbles moved: {list}.", moves.length, { list: stepsList(moves, null) });
}

/** What a scoring took off the board: "3 marbles came off: b1, c1 and d1."; "" for
 * none. The server says which cells it emptied (GAME `motion.removed`). */
export function removedWords(cells) {
  if (!Array.isArray(cells) || !cells.length) return "";
  return tn("{n} marble came off: {cells}.", "{n} marbles came off: {cells}.", cells.length, { cells: listed(cells) });
}

/** The board in a sentence per colour, then the empty cells' count: "Orange: a1, b3.
 * Green: c7. 46 empty cells." A screen reader hears it on coming to the board, where
 * the cells one by one are 49 stops (a French walk). `board` maps cell to colour. */
export function boardWords(board, players = 4) {
  const byColour = new Map(COLOURS.slice(0, players).map((c) => [c, []]));
  for (const [cell, colour] of board) if (byColour.has(colour)) byColour.get(colour).push(cell);
  const order = (a, b) => a[1] - b[1] || a.charCodeAt(0) - b.charCodeAt(0);
  const parts = [];
  for (const [colour, cells] of byColour) {
    if (!cells.length) continue;
    cells.sort(order);
    parts.push(t("{colour}: {cells}.", { colour: colourTitle(colour), cells: cells.join(", ") }));
  }
  const empty = 49 - board.size;
  parts.push(tn("{n} empty cell.", "{n} empty cells.", empty, { n: number(empty) }));
  return parts.join(" ");
}
