// The board's geometry: cell names, the 28 insertions and their lanes, straight lines
// between two cells, and the drawing's layout in user units. Geometry only: which
// marbles an action moves is the server's to say (GAME `motion` and `pushes`).

export const FILES = "abcdefg";

// Layout in user units, as the Python SVG board (formats/svg_board.py).
export const C = 60;
export const PAD = 8;
export const LABELS = 22;
export const ARROWS = 34;
export const HIT_OUT = 4; // how far an arrow's hit area reaches beyond the arrow, outwards
export const HIT_IN = 16; // and into the board's first cell

/** The space around the cells: frame, coordinates and (with `arrows`) the arrows. */
export function margin(arrows) {
  return PAD + LABELS + (arrows ? ARROWS : 0) + 6;
}

export const INSERTIONS = [];
for (const side of "LR") for (let r = 1; r <= 7; r++) INSERTIONS.push(side + r);
for (const side of "TB") for (const f of FILES) INSERTIONS.push(side + f);

/** The cells of an insertion's lane, entry cell first. */
export function laneCells(action) {
  const side = action[0].toUpperCase();
  const lane = action.slice(1).toLowerCase();
  const out = [];
  for (let i = 0; i < 7; i++) {
    if (side === "L") out.push(FILES[i] + lane);
    else if (side === "R") out.push(FILES[6 - i] + lane);
    else if (side === "T") out.push(lane + (7 - i));
    else out.push(lane + (i + 1));
  }
  return out;
}

export function isInsertion(action) {
  return /^[LRTB][a-g1-7]$/i.test(action || "");
}

export function isScoring(action) {
  return /^x[a-g][1-7]-[a-g][1-7]$/i.test(action || "");
}

/** The cells from one end of a straight line to the other, both ends included. */
export function lineCells(from, to) {
  const f0 = FILES.indexOf(from[0]);
  const r0 = +from[1];
  const f1 = FILES.indexOf(to[0]);
  const r1 = +to[1];
  const n = Math.max(Math.abs(f1 - f0), Math.abs(r1 - r0));
  const df = Math.sign(f1 - f0);
  const dr = Math.sign(r1 - r0);
  const out = [];
  for (let i = 0; i <= n; i++) out.push(FILES[f0 + i * df] + (r0 + i * dr));
  return out;
}

/** The middle of a cell, on a board whose cells start `m` user units in. */
export function cellCentre(cell, m) {
  const f = FILES.indexOf(cell[0]);
  const r = +cell[1] - 1;
  return [m + C * f + C / 2, m + C * (6 - r) + C / 2];
}

/** Where an insertion comes in from, outside its entry cell: the middle of its arrow
 * (a board drawn with `arrows`), or just outside the cells. */
export function entryPoint(action, m, arrows = true) {
  const side = action[0].toUpperCase();
  const [ex, ey] = cellCentre(laneCells(action)[0], m);
  const out = arrows ? PAD + ARROWS / 2 : PAD / 2;
  const low = m - out;
  const high = m + 7 * C + out;
  if (side === "L") return [low, ey];
  if (side === "R") return [high, ey];
  if (side === "T") return [ex, low];
  return [ex, high];
}

/**
 * The hint arrow of an insertion: from outside the edge where its marble enters,
 * along the push, to the farthest cell the push fills (`moves`: the marbles it
 * shifts, GAME `pushes`; none known or none pushed: the entry cell). `reach` names
 * that cell; `tail` and `tip` are its ends in user units.
 */
export function insertionHint(action, moves, m, arrows = true) {
  const lane = laneCells(action);
  const filled = (moves || []).map((move) => lane.indexOf(String(move.to).toLowerCase())).filter((i) => i >= 0);
  const reach = lane[Math.max(0, ...filled)];
  return { entry: lane[0], reach, tail: entryPoint(action, m, arrows), tip: cellCentre(reach, m) };
}

/** A scoring action's two ends as written (`xa1-e1`: a1, then e1). */
export function scoringEnds(action) {
  return action.toLowerCase().slice(1).split("-");
}

/** The cells of a scoring action's line, from the end written first. */
export function scoringLine(action) {
  const [a, b] = scoringEnds(action);
  return lineCells(a, b);
}
