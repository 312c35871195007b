// The names a page gives seats and people (static/gamewords.js): the names the server
// stores in English when none is typed read in the page's words; run by Node's own test
// runner through test_web_scripts.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { personName, seatName } from "../../../src/shiftago/interfaces/server/web/static/gamewords.js";

test("a guest who typed no name is a Guest, a name typed stays as typed", () => {
  assert.equal(personName("Guest", null), "Guest");
  assert.equal(personName("Ann", null), "Ann");
  const seats = [
    { colour: "o", name: "Guest", kind: "human", account: null },
    { colour: "g", name: "ann", kind: "human", account: "ann" },
  ];
  assert.equal(seatName(seats[0], seats), "Guest");
  assert.equal(seatName(seats[1], seats), "ann");
  assert.equal(seatName({ colour: "g", name: "green" }), "Green");
});
