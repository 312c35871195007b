// Trying a dropped socket again (static/retry.js): waits that double up to 5 s, drawn
// within ±20%; the shortest again once open; at once when the page is shown again or
// the network comes back, and never after the page stopped it. Run by Node's own test
// runner through test_web_scripts.py, with the page's window, document, timers and
// draw stood in (plain stand-ins, so that any Node the tests meet runs them).
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

/** A clock of its own: timers fire only when `tick` moves it past them. */
const clock = {
  now: 0,
  next: 1,
  timers: new Map(), // id -> {at, f}
  tick(ms) {
    this.now += ms;
    for (const [id, timer] of [...this.timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at <= this.now) {
        this.timers.delete(id);
        timer.f();
      }
    }
  },
};

globalThis.window = target();
globalThis.document = target();
globalThis.setTimeout = (f, ms) => {
  const id = clock.next++;
  clock.timers.set(id, { at: clock.now + ms, f });
  return id;
};
globalThis.clearTimeout = (id) => clock.timers.delete(id);
let draw = 0.5;
Math.random = () => draw;
const { Retry } = await import("../../../src/shiftago/interfaces/server/web/static/retry.js");

/** A Retry whose tries are counted, with the wait drawn as `drawn` says. */
function counted(drawn = 0.5) {
  draw = drawn;
  clock.timers.clear();
  const tries = { n: 0 };
  return { retry: new Retry(() => tries.n++, 300), tries };
}

test("each wait doubles up to 5 s, and an open socket makes it the shortest again", () => {
  const { retry, tries } = counted();
  const waits = [];
  for (let i = 0; i < 7; i++) {
    waits.push(retry.wait);
    retry.later();
    clock.tick(retry.wait); // past the drawn wait (0.5: the wait itself)
  }
  assert.deepEqual(waits, [300, 600, 1200, 2400, 4800, 5000, 5000]);
  assert.equal(tries.n, 7);
  retry.opened();
  assert.equal(retry.wait, 300);
  retry.stop();
});

test("a wait is drawn within 20% of its length", () => {
  for (const [drawn, early, late] of [[0, 239, 240], [0.999999, 359, 360]]) {
    const { retry, tries } = counted(drawn);
    retry.later();
    clock.tick(early);
    assert.equal(tries.n, 0);
    clock.tick(late - early);
    assert.equal(tries.n, 1);
    retry.stop();
  }
});

test("a page shown again or a network back tries at once, once", () => {
  const { retry, tries } = counted();
  retry.later();
  document.fire("visibilitychange");
  assert.equal(tries.n, 1);
  clock.tick(5000); // the try that waited is not made as well
  assert.equal(tries.n, 1);
  retry.later();
  window.fire("online");
  assert.equal(tries.n, 2);
  // nothing waits (the socket is open or opening): the page shown again does nothing
  document.fire("visibilitychange");
  assert.equal(tries.n, 2);
  retry.stop();
});

test("a hidden page waits, and a stopped Retry never tries again", () => {
  const { retry, tries } = counted();
  retry.later();
  document.hidden = true;
  document.fire("visibilitychange");
  assert.equal(tries.n, 0);
  document.hidden = false;
  retry.stop();
  clock.tick(5000);
  document.fire("visibilitychange");
  window.fire("online");
  assert.equal(tries.n, 0);
  assert.equal(document.listeners.visibilitychange.size, 0);
  assert.equal(window.listeners.online.size, 0);
});
