// Trying a dropped socket again (static/retry.js): waits that double up to 5 s, drawn
// within ±20%; the shortest again once open; at once when the page is shown again or
// the network comes back, and never after the page stopped it. Run by Node's own test
// runner through test_web_scripts.py, with the page's window and document stood in.
import assert from "node:assert/strict";
import { test } from "node:test";

/** A window or document that keeps its listeners, so that a test can fire them. */
function target() {
  const listeners = {};
  return {
    listeners,
    hidden: false,
    addEventListener(type, f) {
      (listeners[type] ||= new Set()).add(f);
    },
    removeEventListener(type, f) {
      listeners[type]?.delete(f);
    },
    fire(type) {
      for (const f of listeners[type] || []) f();
    },
  };
}

globalThis.window = target();
globalThis.document = target();
const { Retry } = await import("../../../src/shiftago/interfaces/server/web/static/retry.js");

/** A Retry whose tries are counted, under mocked timers and a fixed draw of the wait. */
function counted(t, draw = 0.5) {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  t.mock.method(Math, "random", () => draw);
  const tries = { n: 0 };
  return { retry: new Retry(() => tries.n++, 300), tries };
}

test("each wait doubles up to 5 s, and an open socket makes it the shortest again", (t) => {
  const { retry, tries } = counted(t);
  const waits = [];
  for (let i = 0; i < 7; i++) {
    waits.push(retry.wait);
    retry.later();
    t.mock.timers.tick(retry.wait); // past the drawn wait (0.5: the wait itself)
  }
  assert.deepEqual(waits, [300, 600, 1200, 2400, 4800, 5000, 5000]);
  assert.equal(tries.n, 7);
  retry.opened();
  assert.equal(retry.wait, 300);
  retry.stop();
});

test("a wait is drawn within 20% of its length", (t) => {
  for (const [draw, early, late] of [[0, 239, 240], [0.999999, 359, 360]]) {
    const { retry, tries } = counted(t, draw);
    retry.later();
    t.mock.timers.tick(early);
    assert.equal(tries.n, 0);
    t.mock.timers.tick(late - early);
    assert.equal(tries.n, 1);
    retry.stop();
    t.mock.timers.reset();
  }
});

test("a page shown again or a network back tries at once, once", (t) => {
  const { retry, tries } = counted(t);
  retry.later();
  document.fire("visibilitychange");
  assert.equal(tries.n, 1);
  t.mock.timers.tick(5000); // the try that waited is not made as well
  assert.equal(tries.n, 1);
  retry.later();
  window.fire("online");
  assert.equal(tries.n, 2);
  // nothing waits (the socket is open or opening): the page shown again does nothing
  document.fire("visibilitychange");
  assert.equal(tries.n, 2);
  retry.stop();
});

test("a hidden page waits, and a stopped Retry never tries again", (t) => {
  const { retry, tries } = counted(t);
  retry.later();
  document.hidden = true;
  document.fire("visibilitychange");
  assert.equal(tries.n, 0);
  document.hidden = false;
  retry.stop();
  t.mock.timers.tick(5000);
  document.fire("visibilitychange");
  window.fire("online");
  assert.equal(tries.n, 0);
  assert.equal(document.listeners.visibilitychange.size, 0);
  assert.equal(window.listeners.online.size, 0);
});
