// The choice of a time control, one for the new-game form and the lobby's challenges
// (docs/online.md, "How time works"): the presets, a custom control of 10 seconds to 3
// hours plus an increment, correspondence days, or untimed. The server checks it again.
import { el } from "./api.js";
import { number, t, tn } from "./i18n.js";

const PRESETS = [[1, 0], [3, 0], [3, 2], [5, 3], [10, 5], [15, 10]];
const DAYS = [1, 2, 3, 5, 7, 14];
const LEAST = 10; // seconds
const MOST = 3 * 3600;
const MOST_INCREMENT = 180;

/** "3+2" for whole minutes, "0:10+2" or "1:30+0" otherwise, "2 days a turn" or
 * "untimed": what the server writes as `clock.control`, in the page's words. */
export function controlLabel(clock) {
  if (!clock) return t("untimed");
  if (clock.days) return tn("{n} day a turn", "{n} days a turn", clock.days);
  const minutes = Math.floor(clock.initial / 60);
  const seconds = +(clock.initial - minutes * 60).toFixed(3);
  const two = { minimumIntegerDigits: 2, maximumFractionDigits: 3 };
  const start = seconds ? `${number(minutes)}:${number(seconds, two)}` : number(minutes);
  return `${start}+${number(+(+clock.increment).toFixed(3), { maximumFractionDigits: 3 })}`;
}

// the kinds of game by their length, as the server names them, in the page's words
const SPEEDS = { bullet: () => t("bullet"), blitz: () => t("blitz"), rapid: () => t("rapid"), classical: () => t("classical") };

/** Fill `select` (id) with the choices and show the custom fields of `prefix`
 * (`${prefix}-custom`, `-minutes`, `-seconds`, `-increment`) when it is chosen; answers
 * the chosen clock (null for untimed) and what is wrong with the custom fields ("" when
 * nothing is). */
export function mountTimeControl(selectId, prefix, { initial = "none", untimedFirst = false } = {}) {
  const $ = (id) => document.getElementById(id);
  const select = $(selectId);
  const untimed = el("option", { value: "none", text: t("Untimed") });
  const timed = el("optgroup", { label: t("Real time (minutes + seconds a turn)") });
  for (const [m, s] of PRESETS) {
    const clock = { initial: m * 60, increment: s };
    timed.append(el("option", { value: `${m}+${s}`, text: t("{control} {speed}", { control: controlLabel(clock), speed: SPEEDS[speed(clock)]() }) }));
  }
  timed.append(el("option", { value: "custom", text: t("Custom…") }));
  const days = el("optgroup", { label: t("Correspondence") });
  for (const d of DAYS) days.append(el("option", { value: `days:${d}`, text: controlLabel({ days: d }) }));
  if (untimedFirst) select.append(untimed, timed, days);
  else select.append(timed, days, untimed);
  select.value = initial;
  const sync = () => {
    $(`${prefix}-custom`).hidden = select.value !== "custom";
  };
  select.addEventListener("change", sync);
  sync();

  const whole = (id, low, high) => {
    const text = $(`${prefix}-${id}`).value.trim();
    return /^\d+$/.test(text) && +text >= low && +text <= high ? +text : null;
  };
  return {
    clock() {
      const value = select.value;
      if (value === "none") return null;
      if (value.startsWith("days:")) return { days: +value.slice(5) };
      if (value === "custom") {
        return {
          initial: whole("minutes", 0, 180) * 60 + whole("seconds", 0, 59),
          increment: whole("increment", 0, MOST_INCREMENT),
        };
      }
      const [m, s] = value.split("+").map(Number);
      return { initial: m * 60, increment: s };
    },
    error() {
      if (select.value !== "custom") return "";
      const minutes = whole("minutes", 0, 180);
      const seconds = whole("seconds", 0, 59);
      if (minutes === null) return t("The minutes of a custom time are a whole number from 0 to 180.");
      if (seconds === null) return t("The seconds of a custom time are a whole number from 0 to 59.");
      const total = minutes * 60 + seconds;
      if (total < LEAST || total > MOST) return t("A custom time is 10 seconds to 3 hours.");
      if (whole("increment", 0, MOST_INCREMENT) === null) {
        return t("The increment of a custom time is a whole number of seconds from 0 to 180.");
      }
      return "";
    },
  };
}

/** The kind of game by its expected length (40 turns a seat), as the server names it. */
function speed(clock) {
  const expected = clock.initial + 40 * clock.increment;
  if (expected < 180) return "bullet";
  if (expected < 480) return "blitz";
  if (expected < 1500) return "rapid";
  return "classical";
}
