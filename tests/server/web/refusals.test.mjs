// The words of the game socket's refusals (static/refusals.js): chosen by the error's
// `reason`, else its `code`, the server's English message only for a code without
// words; run by Node's own test runner through test_web_scripts.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { refusalWords } from "../../../src/shiftago/interfaces/server/web/static/refusals.js";

test("a reason names the cause where one code covers several", () => {
  const declined = { type: "error", code: "not_allowed", reason: "draw_declined", message: "your draw offer was declined: offer again after the next action" };
  assert.equal(refusalWords(declined), "Your draw offer was declined: offer again after the next action.");
  const early = { type: "error", code: "not_allowed", reason: "claim_early", message: "g has not been away for 60 s" };
  assert.equal(refusalWords(early), "That player has not been away long enough yet.");
});

test("a reason's words name the numbers the error carries", () => {
  const fast = { code: "rate_limited", reason: "chat_too_fast", limit: 5, seconds: 10, message: "at most 5 ..." };
  assert.equal(refusalWords(fast), "You may send at most 5 chat messages in 10 seconds: wait a little.");
});

test("a code without a reason has its own words, not the server's", () => {
  assert.equal(refusalWords({ code: "not_your_turn", message: "it is g's turn" }), "It is not your turn.");
  assert.equal(refusalWords({ code: "not_allowed", reason: "a new cause", message: "no" }), "That is not allowed now.");
  assert.equal(refusalWords({ code: "over", message: "the game is over" }), "The game is over.");
});

test("an unknown code shows the server's message, or names the code", () => {
  assert.equal(refusalWords({ code: "brand_new", message: "something new" }), "something new");
  assert.equal(refusalWords({ code: "brand_new" }), "The server refused that (brand_new).");
  assert.equal(refusalWords(null), "The server refused that ().");
});

test("a refused action is named in the page's words, when the page knows it", () => {
  const parse = { code: "illegal", reason: "not_an_action", message: "'Q9' is not an action: ..." };
  assert.match(refusalWords(parse, "Q9"), /^'Q9' is not an action: an insertion is a side L, R, T or B/);
  assert.equal(refusalWords({ code: "illegal", reason: "not_legal" }), "That action is not legal now.");
  assert.match(refusalWords({ code: "illegal", reason: "lane_full" }, "L1"), /^L1 cannot be played: its lane is full/);
  assert.match(refusalWords({ code: "illegal", reason: "apart" }, "L2"), /^L2 is not allowed: while only your marbles/);
});

test("a refused scoring says it is not a line to score, and which lines are", () => {
  // the game socket's reason for a scoring that is not one of the choices: the page said
  // only "xa1-a5 is not legal now", and a blind player heard no reason and no way on
  const refused = { code: "illegal", reason: "not_legal", message: "illegal move: xa1-a5 (no such scoring line)" };
  assert.equal(refusalWords(refused, "xa1-a5", ["xa1-e1"]), "xa1-a5 is not the line to score: you can score xa1-e1.");
  assert.equal(refusalWords(refused, "xa1-a5", ["xa1-d1", "xd1-a1"]), "xa1-a5 is not one of the lines to score: you can score xa1-d1 or xd1-a1.");
  assert.equal(refusalWords(refused, "xa1-a5", ["xa1-d1", "xd1-a1", "xc3-c6"]), "xa1-a5 is not one of the lines to score: you can score xa1-d1, xd1-a1, or xc3-c6.");
  // the lines not known: the reason alone
  assert.equal(refusalWords(refused, "xa1-a5"), "xa1-a5 is not one of the lines to score here.");
  // nothing sent known: the code's words
  assert.equal(refusalWords(refused), "That action is not legal now.");
});
