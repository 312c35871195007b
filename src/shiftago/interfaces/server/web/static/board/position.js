// Reading a position string (PROTOCOL.md): the server writes it, the page only reads it.
import { FILES } from "./geometry.js";

/** The position string of PROTOCOL.md as an object; the board a Map cell -> colour. */
export function parsePosition(text) {
  const f = String(text || "").trim().split(/\s+/);
  if (f.length !== 8) return null;
  const board = new Map();
  const ranks = f[2].split("/");
  ranks.forEach((row, i) => {
    const rank = 7 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-7]/.test(ch)) file += +ch;
      else {
        board.set(FILES[file] + rank, ch);
        file += 1;
      }
    }
  });
  const nums = (s) => s.split(",").map(Number);
  return {
    variant: f[0],
    players: +f[1],
    board,
    turn: f[3],
    phase: f[4],
    supplies: nums(f[5]),
    scores: nums(f[6]),
    skips: nums(f[7]),
  };
}
