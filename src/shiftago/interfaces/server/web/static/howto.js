// The pictures of the how-to page, drawn by board.js from fixed positions (a scored
// line with the cells it emptied, written out as the server sends them).
import { drawPicture } from "./board.js";
import { t } from "./i18n.js";

function cells(text) {
  // "a3:o b3:g" -> {a3: "o", b3: "g"}
  return Object.fromEntries(text.trim().split(/\s+/).map((p) => p.split(":")));
}

const row = (rank, files) => files.map((f) => `${f}${rank}`);
const pics = {
  "pic-marbles": {
    players: 4, cells: cells("b4:o c4:g d4:b e4:w b3:w c5:o e5:g f3:b"),
    label: t("Two marbles of each colour: orange plain, green with a ring, blue with a dot, white with a cross"),
  },
  "pic-push-before": {
    cells: cells("a3:o b3:g c3:o e3:g d5:g c6:o"), arrows: true, legal: ["L3"], turn: "g",
    label: t("Before: green is about to push in at L3"),
  },
  "pic-push-after": {
    cells: cells("a3:g b3:o c3:g d3:o e3:g d5:g c6:o"), last: "L3", arrows: true,
    label: t("After L3: a3 green, b3 orange, c3 green, d3 orange, e3 green"),
  },
  "pic-win": {
    cells: cells("a4:o b4:o c4:o d4:o e4:o b5:g c3:g d5:g e5:g f4:g a2:o"), last: "L4", winLine: row(4, ["a", "b", "c", "d", "e"]),
    label: t("Orange wins with the line a4 to e4"),
  },
  "pic-score": {
    cells: cells("a1:o b1:o c1:o d1:o e1:o a7:g b7:g c7:g d7:g"),
    scoring: [{ action: "xa1-e1", cells: row(1, ["a", "b", "c", "d", "e"]), removed: ["b1", "c1", "d1"], points: 2 }],
    label: t("Orange must score the line a1 to e1"),
  },
  "pic-scored": {
    cells: cells("a1:o e1:o a7:g b7:g c7:g d7:g"), last: "xa1-e1",
    lastBoard: cells("a1:o b1:o c1:o d1:o e1:o"), motion: { moves: [], entry: null, side: null, removed: ["b1", "c1", "d1"] },
    label: t("After scoring: a1 and e1 stay, b1 to d1 are removed"),
  },
  "pic-keep": {
    players: 3,
    cells: cells("c2:g c3:g c4:g c5:g d3:o e4:b b5:o f6:b"),
    scoring: [
      { action: "xc2-c5", cells: ["c2", "c3", "c4", "c5"], removed: ["c3", "c4", "c5"], points: 2 },
      { action: "xc5-c2", cells: ["c5", "c4", "c3", "c2"], removed: ["c4", "c3", "c2"], points: 2 },
    ],
    label: t("Green chooses which end of c2 to c5 to keep"),
  },
  "pic-kept": {
    players: 3,
    cells: cells("c2:g d3:o e4:b b5:o f6:b"), last: "xc2-c5",
    lastBoard: cells("c2:g c3:g c4:g c5:g"), motion: { moves: [], entry: null, side: null, removed: ["c3", "c4", "c5"] },
    label: t("After xc2-c5: c2 stays, c3 to c5 are removed"),
  },
};

for (const [id, spec] of Object.entries(pics)) {
  const box = document.getElementById(id);
  if (!box) continue;
  drawPicture(box, spec);
}
