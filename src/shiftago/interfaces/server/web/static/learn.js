// The list of lessons (/learn): each with what it teaches and how far the player has
// come (learnprogress.js); the server sends the lessons in the page's language.
import { api, el } from "./api.js";
import { signedInName } from "./account.js";
import { errorWords } from "./errors.js";
import { number, t, tn } from "./i18n.js";
import { localProgress, syncProgress } from "./learnprogress.js";

const $ = (id) => document.getElementById(id);
let lessons = [];

function draw(progress) {
  const list = $("lessons");
  list.replaceChildren();
  for (const lesson of lessons) {
    const done = Math.min(progress[lesson.id] || 0, lesson.steps);
    const complete = done >= lesson.steps;
    const mark = complete ? t("Done") : done ? tn("{done} of {n} step", "{done} of {n} steps", lesson.steps, { done: number(done) }) : tn("{n} step", "{n} steps", lesson.steps);
    const link = el("a", { href: `/learn/${lesson.id}`, class: "lesson-link", text: lesson.title });
    const item = el(
      "li",
      { class: complete ? "lesson done" : "lesson", "data-testid": "lesson", "data-lesson": lesson.id, "data-done": String(done), "data-complete": String(complete) },
      el("span", { class: "lesson-mark", "aria-hidden": "true", text: complete ? "✓" : "" }),
      el("div", { class: "lesson-text" }, link, el("p", { class: "hint", text: lesson.summary })),
      el("span", { class: "lesson-progress", "data-testid": "lesson-progress", text: mark }),
    );
    list.append(item);
  }
}

async function start() {
  try {
    lessons = (await api("/api/learn")).lessons;
    $("learn-status").textContent = "";
    $("learn-status").hidden = true;
  } catch (err) {
    $("learn-status").textContent = t("The lessons could not be loaded: {reason}", { reason: errorWords(err.data, err.message) });
    return;
  }
  draw(localProgress());
  const known = new Set(lessons.map((l) => l.id));
  if (signedInName()) draw(await syncProgress(true, known));
  document.addEventListener("shiftago:account", async (e) => {
    if (e.detail && e.detail.name) draw(await syncProgress(true, known));
  });
}

start();
