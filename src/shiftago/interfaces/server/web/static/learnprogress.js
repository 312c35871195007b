// The player's progress in the lessons (/learn): the steps completed per lesson, kept
// in this browser (localStorage) for everyone and, for a signed-in player, in the
// account too (GET/PUT /api/account/learn). Progress only grows: merging two records
// keeps the most of each lesson, so a browser's progress joins the account's at sign-in.
import { api } from "./api.js";

const KEY = "shiftago.learn";

/** The progress this browser holds: {lesson: steps completed}. */
export function localProgress() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? clean(data) : {};
  } catch {
    return {};
  }
}

function clean(data) {
  const out = {};
  for (const [lesson, steps] of Object.entries(data)) if (Number.isInteger(steps) && steps > 0) out[lesson] = steps;
  return out;
}

function saveLocal(progress) {
  try {
    localStorage.setItem(KEY, JSON.stringify(progress));
  } catch {
    /* private mode: the progress lives as long as the page */
  }
}

/** Two records of progress as one: the most steps of each lesson. */
export function merged(a, b) {
  const out = { ...a };
  for (const [lesson, steps] of Object.entries(clean(b || {}))) if (steps > (out[lesson] || 0)) out[lesson] = steps;
  return out;
}

/** The browser's progress added to the signed-in account's, and the account's to the
 * browser's: the progress of both, kept in both (only this browser's when the server
 * does not keep it: signed out, or offline). `known` is only those lessons the server
 * knows (an old lesson in the browser is left out of the request). */
export async function syncProgress(signedIn, known = null) {
  let progress = localProgress();
  if (!signedIn) return progress;
  const sent = known ? Object.fromEntries(Object.entries(progress).filter(([lesson]) => known.has(lesson))) : progress;
  try {
    const answer = await api("/api/account/learn", { method: "PUT", body: { lessons: sent } });
    progress = merged(progress, answer.lessons);
    saveLocal(progress);
  } catch {
    /* the account keeps what it had; the browser still has its own */
  }
  return progress;
}

/** At a sign-in or sign-up from any page: the browser's progress joins the account's at
 * once, where it waited for the lessons page to be opened again here (an Italian walk
 * signed up on a tablet and saw no lesson done on her phone). */
export async function joinAccount() {
  if (!Object.keys(localProgress()).length) return;
  try {
    const lessons = (await api("/api/learn")).lessons;
    await syncProgress(true, new Set(lessons.map((l) => l.id)));
  } catch {
    /* the lessons page joins them the next time it opens */
  }
}

/** Mark `steps` steps of `lesson` completed, here and in the account when signed in. */
export async function recordSteps(lesson, steps, signedIn) {
  const progress = merged(localProgress(), { [lesson]: steps });
  saveLocal(progress);
  if (!signedIn) return progress;
  try {
    await api("/api/account/learn", { method: "PUT", body: { lessons: { [lesson]: steps } } });
  } catch {
    /* kept in the browser; the next visit signed in merges it */
  }
  return progress;
}
