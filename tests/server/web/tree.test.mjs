// The analysis board's variation tree (static/tree.js), run by Node's own test runner
// through tests/server/test_web_scripts.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  TreeSyntaxError, addChild, childBy, cut, depth, lineEnd, newTree, onMainLine, pathTo,
  promote, readTree, sibling, size, writeTree, writtenOrder,
} from "../../../src/shiftago/interfaces/server/web/static/tree.js";

/** The issue's case: Td, Tc, Te; Back twice; L4. */
function issueTree() {
  const root = newTree("start");
  const td = addChild(root, "Td", 1);
  const tc = addChild(td, "Tc", 2);
  const te = addChild(tc, "Te", 3);
  const l4 = addChild(td, "L4", 4);
  return { root, td, tc, te, l4 };
}

test("an action after Back starts a side line and cuts nothing", () => {
  const { root, td, tc, te, l4 } = issueTree();
  assert.deepEqual(td.children, [tc, l4]);
  assert.equal(writeTree(root), "Td Tc (L4) Te");
  assert.equal(lineEnd(root), te);
  assert.equal(depth(l4), 2);
  assert.ok(onMainLine(te));
  assert.ok(!onMainLine(l4));
});

test("an action already tried is reached, not added again", () => {
  const { td, tc } = issueTree();
  assert.equal(addChild(td, "tc", 99), tc);
  assert.equal(tc.data, 2);
  assert.equal(childBy(td, "TC"), tc);
  assert.equal(childBy(td, "Ta"), null);
});

test("the text reads back into the same tree, nested lines included", () => {
  for (const text of ["", "Td", "Td Tc (L4) Te", "Td Tc (L4 Ta (Tb) R1) (L5) Te (Ba Bb)", "L1 (L2 L4) (L3)"]) {
    assert.equal(writeTree(readTree(text)), text);
  }
  // a side line of a side line at its first action is one more line at that branch
  assert.equal(writeTree(readTree("L1 (L2 (L3) L4)")), "L1 (L2 L4) (L3)");
  // the single lines of before: spaces or commas between actions
  assert.equal(writeTree(readTree("L4,Tc  Te")), "L4 Tc Te");
});

test("a text that is no tree is refused", () => {
  for (const text of ["(L4)", "Td (L4", "Td L4)", "Td ((L4))", "Td (Td)"]) {
    assert.throws(() => readTree(text), TreeSyntaxError, text);
  }
});

test("the written order numbers the nodes as the text writes them", () => {
  const root = readTree("Td Tc (L4 Ta (Tb)) Te");
  const order = writtenOrder(root).map((n) => n.action);
  assert.deepEqual(order, [null, "Td", "Tc", "L4", "Ta", "Tb", "Te"]);
  assert.equal(size(root), 6);
  const tb = writtenOrder(root)[5];
  assert.deepEqual(pathTo(tb).map((n) => n.action), [null, "Td", "L4", "Tb"]);
});

test("Up and Down go between sibling lines, from the nearest branch", () => {
  const { tc, te, l4 } = issueTree();
  assert.equal(sibling(tc, 1), l4);
  assert.equal(sibling(l4, -1), tc);
  assert.equal(sibling(tc, -1), null);
  assert.equal(sibling(l4, 1), null);
  // Te has no sibling: the branch above it (Tc or L4) is switched
  assert.equal(sibling(te, 1), l4);
  assert.equal(sibling(newTree(0), 1), null);
});

test("promoting makes a side line the main line at every branch on its way", () => {
  const root = readTree("Td Tc (L4 Ta (Tb)) Te");
  const tb = writtenOrder(root)[5];
  promote(tb);
  assert.equal(writeTree(root), "Td L4 (Tc Te) Tb (Ta)");
  assert.ok(onMainLine(tb));
  promote(tb); // the main line already: nothing changes
  assert.equal(writeTree(root), "Td L4 (Tc Te) Tb (Ta)");
});

test("deleting removes the node and all after it, and answers its parent", () => {
  const { root, td, tc, l4 } = issueTree();
  assert.equal(cut(l4), td);
  assert.equal(writeTree(root), "Td Tc Te");
  assert.equal(cut(tc), td);
  assert.equal(writeTree(root), "Td");
  assert.throws(() => cut(root), RangeError);
  assert.equal(writeTree(root), "Td");
});
