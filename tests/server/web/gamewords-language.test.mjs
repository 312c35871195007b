// The names the server stores in English (a guest's "Guest") read in the page's language
// (static/gamewords.js with a German catalogue, as i18n.js fetches it); run by Node's
// own test runner through test_web_scripts.py.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.document = { documentElement: { lang: "de" } };
globalThis.fetch = async () => ({ ok: true, json: async () => ({ messages: { Guest: "Gast", Computer: "Computer" } }) });
const { personName, seatName } = await import("../../../src/shiftago/interfaces/server/web/static/gamewords.js");

test("a guest without a name reads as the page's word for a guest", () => {
  const seats = [
    { colour: "o", name: "Guest", kind: "human", account: null },
    { colour: "g", name: "Gustav", kind: "human", account: null },
  ];
  assert.equal(seatName(seats[0], seats), "Gast");
  assert.equal(seatName(seats[1], seats), "Gustav");
  assert.equal(personName("Guest", null), "Gast");
});
