// A player's puzzle progress as this browser keeps it (localStorage): the ids solved
// (and those solved signed out) and failed, the first-try streak, the streak mode's run, the
// theme chosen. The puzzles page writes it; the home page's daily card reads it.

/** Where the browser keeps a player's progress (signed out, and the streak mode's run). */
const STORE = "shiftago.puzzles";
/** The most solved ids kept in the browser (the oldest are forgotten first). */
const MOST_KEPT = 2000;

/** The progress kept, each field checked (a default where it is missing or broken). */
export function progress() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "{}");
    return {
      solved: Array.isArray(kept.solved) ? kept.solved.filter((x) => typeof x === "string") : [],
      // the ones failed (a later solve is no first try, and the next puzzle is another)
      failed: Array.isArray(kept.failed) ? kept.failed.filter((x) => typeof x === "string") : [],
      // the ones solved while signed out: an account's figures leave them out
      signedOut: Array.isArray(kept.signedOut) ? kept.signedOut.filter((x) => typeof x === "string") : [],
      streak: Number.isInteger(kept.streak) ? kept.streak : 0,
      best: Number.isInteger(kept.best) ? kept.best : 0,
      run: Number.isInteger(kept.run) ? kept.run : 0,
      theme: typeof kept.theme === "string" ? kept.theme : "",
      streakMode: kept.streakMode === true,
    };
  } catch {
    return { solved: [], failed: [], signedOut: [], streak: 0, best: 0, run: 0, theme: "", streakMode: false };
  }
}

/** Keep `changes` over the progress kept; the progress after them. */
export function keep(changes) {
  const next = { ...progress(), ...changes };
  next.solved = next.solved.slice(-MOST_KEPT);
  next.failed = next.failed.slice(-MOST_KEPT);
  next.signedOut = next.signedOut.slice(-MOST_KEPT);
  try {
    localStorage.setItem(STORE, JSON.stringify(next));
  } catch {
    /* a browser that keeps nothing: the progress lives as long as the page */
  }
  return next;
}
