// A page opened at an address inside it (the menu's "/#lobby") shows that part. The
// browser scrolls to it once, on load, before the scripts fill what lies above it: on
// a phone the new-game form, the puzzle of the day and the player's games stack above
// the lobby and pushed it a thousand pixels down (a French phone walk). While the page
// settles, the target is brought back to the top after each change of the page's size,
// until the reader scrolls, taps or types, or the page has had time to settle.

const SETTLE_MS = 5000; // the page's own requests answer well within this
const READER_ACTS = ["wheel", "touchstart", "keydown", "mousedown"];

/** Keep the element that the address's `#id` names in view while the page settles. */
export function keepHashTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target || !("ResizeObserver" in window)) return;
  const observer = new ResizeObserver(() => target.scrollIntoView({ block: "start" }));
  const stop = () => {
    observer.disconnect();
    for (const kind of READER_ACTS) removeEventListener(kind, stop, true);
  };
  for (const kind of READER_ACTS) addEventListener(kind, stop, { capture: true, passive: true });
  observer.observe(document.body);
  setTimeout(stop, SETTLE_MS);
}
