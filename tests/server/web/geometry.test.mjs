// The board's geometry (static/board/geometry.js): where the hint arrow of an insertion
// runs, on every side, run by Node's own test runner through test_web_scripts.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { C, cellCentre, insertionHint, laneCells, margin } from "../../../src/shiftago/interfaces/server/web/static/board/geometry.js";

const M = margin(true);
const LOW = M; // the cells' first edge (left, top)
const HIGH = M + 7 * C; // and their last (right, bottom)

// each side: an action, its entry cell, the push direction in user units (y grows down,
// rank 7 on top), and the edge the marble comes in over
const SIDES = {
  L3: { entry: "a3", dir: [1, 0], outside: ([x]) => x < LOW },
  R3: { entry: "g3", dir: [-1, 0], outside: ([x]) => x > HIGH },
  Te: { entry: "e7", dir: [0, 1], outside: ([, y]) => y < LOW },
  Be: { entry: "e1", dir: [0, -1], outside: ([, y]) => y > HIGH },
};

test("each side's arrow starts outside the edge its marble enters by", () => {
  for (const [action, side] of Object.entries(SIDES)) {
    const arrow = insertionHint(action, [], M);
    assert.equal(arrow.entry, side.entry, action);
    assert.ok(side.outside(arrow.tail), `${action}: tail ${arrow.tail} is not outside its edge`);
    // on the lane's axis, pointing along the push, and no further than the entry cell
    assert.deepEqual(arrow.tip, cellCentre(side.entry, M), action);
    const [dx, dy] = [arrow.tip[0] - arrow.tail[0], arrow.tip[1] - arrow.tail[1]];
    const len = Math.hypot(dx, dy);
    assert.deepEqual([dx / len, dy / len], side.dir, action);
    assert.ok(len < C, `${action}: an entry arrow of ${len} units`);
  }
});

test("each side's arrow reaches as far as the push goes", () => {
  for (const [action, side] of Object.entries(SIDES)) {
    const lane = laneCells(action);
    // two marbles on the lane's first cells: each moves one cell on, the farthest first
    const moves = [{ from: lane[1], to: lane[2] }, { from: lane[0], to: lane[1] }];
    const arrow = insertionHint(action, moves, M);
    assert.equal(arrow.reach, lane[2], action);
    assert.deepEqual(arrow.tip, cellCentre(lane[2], M), action);
    assert.ok(side.outside(arrow.tail), action);
    const [dx, dy] = [arrow.tip[0] - arrow.tail[0], arrow.tip[1] - arrow.tail[1]];
    const len = Math.hypot(dx, dy);
    assert.deepEqual([dx / len, dy / len], side.dir, action);
  }
});

test("Te's arrow comes in at e7 from the top, never from e1", () => {
  const arrow = insertionHint("Te", [{ from: "e7", to: "e6" }], M);
  assert.equal(arrow.entry, "e7");
  assert.equal(arrow.reach, "e6");
  assert.ok(arrow.tail[1] < cellCentre("e7", M)[1]);
  assert.ok(arrow.tip[1] < cellCentre("e1", M)[1]);
});

test("a board without arrows starts the arrow just outside the cells", () => {
  const m = margin(false);
  const arrow = insertionHint("L1", [], m, false);
  assert.ok(arrow.tail[0] < m && arrow.tail[0] > m - C / 2, String(arrow.tail));
});
