// The words a screen reader hears after an action (static/announce.js), run by Node's
// own test runner through test_web_scripts.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Announcer, WORDS, actionDone, actionWords, computerActionsAtEnd, fill, resultWords } from "../../../src/shiftago/interfaces/server/web/static/announce.js";

test("an insertion says the side and the lane its marble comes in by", () => {
  assert.equal(actionWords("Green", "Td"), "Green pushed in at the top of column d.");
  assert.equal(actionWords("Green", "tD"), "Green pushed in at the top of column d.");
  assert.equal(actionWords("Ann", "Be"), "Ann pushed in at the bottom of column e.");
  assert.equal(actionWords("Ann", "L3"), "Ann pushed in at the left of row 3.");
  assert.equal(actionWords("Ann", "R7"), "Ann pushed in at the right of row 7.");
});

test("a scoring says the line's length, its points and where it ran", () => {
  assert.equal(actionWords("Orange", "xa1-e1", 2), "Orange scored a line of 5 for 2 points. The line ran from a1 to e1.");
  assert.equal(actionWords("Orange", "xa1-a6", 1), "Orange scored a line of 6 for 1 point. The line ran from a1 to a6.");
  assert.equal(actionWords("Blue", "xc3-f6", 0), "Blue scored a line of 4 for no points. The line ran from c3 to f6.");
  assert.equal(actionWords("Blue", "xc3-f6"), "Blue scored a line of 4. The line ran from c3 to f6.");
});

test("with the number of seats known a scoring says which end marbles stayed", () => {
  // a blind player could not tell which marbles came off: 2 players keep both ends,
  // 3-4 players the end the action names first
  assert.equal(
    actionWords("Orange", "xe1-a1", 2, 2),
    "Orange scored a line of 5 for 2 points. The line ran from e1 to a1. The marbles on a1 and e1 stayed on the board.",
  );
  assert.equal(
    actionWords("Green", "xf6-c3", 2, 3),
    "Green scored a line of 4 for 2 points. The line ran from f6 to c3. The marble on f6 stayed on the board.",
  );
});

test("the end of a game names its winners", () => {
  assert.equal(resultWords(false, ["Blue"]), "");
  assert.equal(resultWords(true, ["Blue"]), "Blue won.");
  assert.equal(resultWords(true, ["Blue", "Green"], 3), "Blue and Green share the win.");
  assert.equal(resultWords(true, ["Blue", "Green"], 2), "Draw between Blue and Green.");
  assert.equal(resultWords(true, []), WORDS.overNoWinner);
});

test("a template is filled by name and keeps what it is not given", () => {
  assert.equal(fill("{a} and {b}", { a: 1 }), "1 and {b}");
});

test("sentences said in one task are read together, not the last alone", async () => {
  const node = { textContent: "" };
  const announcer = new Announcer(node);
  announcer.say("Orange scored a line of 4 for 2 points.");
  announcer.say("Orange pushed in at the left of row 3.");
  await new Promise((done) => setTimeout(done, 5));
  assert.equal(node.textContent, "Orange scored a line of 4 for 2 points. Orange pushed in at the left of row 3.");
  announcer.say("Green won.");
  await new Promise((done) => setTimeout(done, 5));
  assert.equal(node.textContent, "Green won.");
});

test("an action done says the marbles its push moved, with their new cells", () => {
  // a replay's step said only the push, not which marbles it moved (a blind player's walk)
  const motion = { moves: [{ from: "b1", to: "c1" }, { from: "a1", to: "b1" }], entry: "a1", side: "L", removed: [] };
  assert.equal(
    actionDone("Orange", { action: "L1", points: null, motion }, 2),
    "Orange pushed in at the left of row 1. 2 marbles moved: a1 to b1 and b1 to c1.",
  );
  assert.equal(actionDone("Green", { action: "Tc", motion: { moves: [], entry: "c7", side: "T", removed: [] } }), "Green pushed in at the top of column c.");
  assert.equal(actionDone("Green", { action: "Tc" }), "Green pushed in at the top of column c.");
});

test("a scoring done says the marbles that came off the board", () => {
  const motion = { moves: [], entry: null, side: null, removed: ["b1", "c1", "d1"] };
  assert.equal(
    actionDone("Orange", { action: "xa1-e1", points: 2, motion }, 2),
    "Orange scored a line of 5 for 2 points. The line ran from a1 to e1. The marbles on a1 and e1 stayed on the board. 3 marbles came off: b1, c1, and d1.",
  );
});

test("the computer's actions at the end are those since a person last acted", () => {
  const seats = [{ colour: "o", kind: "human" }, { colour: "g", kind: "computer" }, { colour: "b", kind: "computer" }];
  const entries = [{ seat: "o", action: "L1" }, { seat: "g", action: "L7" }, { seat: "b", action: "Tc" }];
  assert.deepEqual(computerActionsAtEnd(entries, seats), entries.slice(1));
  // a person acted last: nothing the page did not see them do
  assert.deepEqual(computerActionsAtEnd([...entries, { seat: "o", action: "L2" }], seats), []);
  assert.deepEqual(computerActionsAtEnd([], seats), []);
  // a game of computers only: its last action
  const bots = seats.map((s) => ({ ...s, kind: "computer" }));
  assert.deepEqual(computerActionsAtEnd(entries, bots), entries.slice(2));
});
