// The replay of a finished game: the step shown (0 = the start) lives in ctx.step and
// in the URL (`?step=k`, so a link opens at that step); the positions come from
// GET /api/games/{id}/steps. Buttons, the slider and the keys Left/Right/Home/End step.
import { api } from "./api.js";
import { number, t } from "./i18n.js";
import { $, ctx, isOver, lastStep, setText, shownStep } from "./state.js";

let loadingFor = null;
let failedFor = null; // the game's length when the steps could not be read (no retry)

/** Whether the positions of every step of the game as it stands are here. */
export function stepsReady() {
  return !!ctx.steps && ctx.steps.length === lastStep() + 1;
}

/** Fetch the steps of the game (again when it has more actions); `done()` when they come. */
export function loadSteps(done, failed) {
  const n = lastStep();
  if (stepsReady() || loadingFor === n || failedFor === n) return;
  loadingFor = n;
  api(`/api/games/${encodeURIComponent(ctx.gameId)}/steps`)
    .then((data) => {
      const steps = data && Array.isArray(data.steps) ? data.steps : null;
      if (steps && lastStep() === n) {
        ctx.steps = steps;
        done();
      }
    })
    .catch((err) => {
      failedFor = n;
      failed(err);
    })
    .finally(() => {
      if (loadingFor === n) loadingFor = null;
    });
}

/** The step asked for by the URL, or null. */
export function stepFromUrl() {
  const raw = ctx.params.get("step");
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return +raw;
}

/** Show step `k` (clamped) and write it into the URL. */
export function setStep(k) {
  const n = lastStep();
  const step = Math.max(0, Math.min(Number.isFinite(k) ? k : n, n));
  ctx.step = step;
  const url = new URL(location.href);
  url.searchParams.set("step", String(step));
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}

/** The replay bar, shown for a finished game. */
export function renderReplay() {
  const over = isOver();
  $("replay").hidden = !over;
  if (!over) return;
  const n = lastStep();
  const k = shownStep();
  $("rp-range").max = String(n);
  $("rp-range").value = String(k);
  setText("rp-step", number(k));
  setText("rp-total", number(n));
  $("rp-where").setAttribute("aria-label", t("Showing the position after {step} of {steps} actions", { step: number(k), steps: number(n) }));
  const ends = [["rp-first", k === 0], ["rp-prev", k === 0], ["rp-next", k === n], ["rp-last", k === n]];
  for (const [id, end] of ends) {
    // a button the keyboard is on and that the end of the game disables hands the
    // keyboard to the slider, which goes both ways: else it fell to the page's start
    if (end && document.activeElement === $(id)) $("rp-range").focus();
    $(id).disabled = end;
  }
}

/** Buttons, slider and keys call `goto(step)`. */
export function wireReplay(goto) {
  $("rp-first").addEventListener("click", () => goto(0));
  $("rp-prev").addEventListener("click", () => goto(shownStep() - 1));
  $("rp-next").addEventListener("click", () => goto(shownStep() + 1));
  $("rp-last").addEventListener("click", () => goto(lastStep()));
  $("rp-range").addEventListener("input", (e) => goto(+e.target.value));
  document.addEventListener("keydown", (e) => {
    if (!isOver() || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    const t = e.target;
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
    const to = { ArrowLeft: shownStep() - 1, ArrowRight: shownStep() + 1, Home: 0, End: lastStep() }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goto(to);
  });
}
