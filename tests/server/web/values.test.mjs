// The words for the computer's values (static/values.js, unitWords): an even
// share is a half only with two players; run by Node's own test runner through
// test_web_scripts.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { unitWords } from "../../../src/shiftago/interfaces/server/web/static/values.js";

const PLAYOUTS = "the mover's mean reward over its playouts";

test("the expected share of the win is even at a half with two players", () => {
  const words = unitWords(PLAYOUTS, { variant: "express", players: 2 });
  assert.match(words, /\(0\.5 an even game\)\.$/);
});

test("with three or four players an even share is a third or a quarter", () => {
  assert.match(unitWords(PLAYOUTS, { variant: "expert", players: 3 }), /with 3 players an even share is 0\.33\)\.$/);
  assert.match(unitWords(PLAYOUTS, { variant: "expert", players: 4 }), /with 4 players an even share is 0\.25\)\.$/);
});
