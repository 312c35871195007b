// The account widget of every page's header: sign up, sign in, sign out, the name
// linked to the profile, and adopting the games this browser holds (docs/web-protocol.md,
// "Accounts and ratings"). Playing never needs it.

import { api, el, knownGames } from "./api.js";
import { errorWords } from "./errors.js";
import { lang, t, tn } from "./i18n.js";
import { joinAccount } from "./learnprogress.js";

const state = { name: null };

/** The signed-in name, or null (after the widget has asked the server). */
export function signedInName() {
  return state.name;
}

function slot() {
  let box = document.getElementById("account");
  if (box) return box;
  const header = document.querySelector("header.top");
  if (!header) return null;
  box = el("span", { id: "account", class: "account", "data-testid": "account" });
  const nav = header.querySelector("nav");
  header.insertBefore(box, nav);
  return box;
}

/** The seat secrets this browser holds (localStorage), for adopting: of each game that
 *  it plays one seat of. A game of several seats here is people taking turns at one
 *  screen, whose seats nobody can tell apart: it is never adopted, as a game started
 *  so is not (docs/web-protocol.md, "Games of an account"). */
function heldTokens() {
  const tokens = [];
  for (const entry of Object.values(knownGames())) {
    if (entry && entry.tokens && typeof entry.tokens === "object") {
      const held = Object.values(entry.tokens).filter((t) => typeof t === "string" && t);
      if (held.length === 1) tokens.push(held[0]);
    }
  }
  return tokens;
}

/** Whether the account's language is not the page's, and nothing outranks it: neither
 *  the address's ?lang= nor the language cookie (WEBAPI.md, "Languages"). */
function speaksOtherLanguage(accountLanguage) {
  if (!accountLanguage || accountLanguage === lang) return false;
  const chosen = new URL(location.href).searchParams.has("lang") || document.cookie.split("; ").some((c) => c.startsWith("lang="));
  return !chosen;
}

function signedOut(box) {
  // visible labels, not placeholders: a placeholder is gone once one types (a low-vision walk)
  const name = el("input", { type: "text", name: "name", autocomplete: "username", required: true });
  const password = el("input", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const error = el("p", { id: "account-error", class: "error", role: "alert", hidden: true, "data-testid": "account-error" });
  const rules = el("p", { id: "account-rules", class: "hint", text: t("Names: 3-20 of a-z 0-9 _ - (no accents; capitals become small letters). Passwords: 8 or more characters, none of the most common. Playing needs no account.") });
  const form = el("form", { class: "account-form", hidden: true, "data-testid": "account-form" });
  // the fields are described by the rules, and the one at fault by the error too
  const fields = { name, password };
  const mark = (wrong) => {
    for (const [key, field] of Object.entries(fields)) {
      field.setAttribute("aria-describedby", key === wrong ? "account-error account-rules" : "account-rules");
      if (key === wrong) field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
    }
  };
  mark(null);
  const submit = (path) => async (event) => {
    event.preventDefault();
    error.hidden = true;
    mark(null);
    try {
      const answer = await api(path, { method: "POST", body: { name: name.value, password: password.value } });
      state.name = answer.name;
      await joinAccount();
      if (speaksOtherLanguage(answer.language)) {
        location.reload(); // the server now serves the page in the account's language
        return;
      }
      render();
      // the form is gone: the focus goes to what took its place, not to the page's start
      slot()?.querySelector("[data-testid=account-name]")?.focus();
    } catch (err) {
      error.textContent = errorWords(err.data, err.status === 429 ? t("Too many tries: wait a moment and try again.") : err.message);
      error.hidden = false;
      const wrong = err.data && fields[err.data.field] ? err.data.field : null;
      mark(wrong);
      if (wrong) fields[wrong].focus(); // to the field to mend, its error read with it
    }
  };
  form.append(
    el("label", { class: "account-field" }, el("span", { text: t("Account name") }), name),
    el("label", { class: "account-field" }, el("span", { text: t("Password") }), password),
    el("button", { type: "submit", class: "small primary", "data-testid": "sign-in", onclick: submit("/api/session") }, t("Sign in")),
    el("button", { type: "button", class: "small", "data-testid": "sign-up", onclick: submit("/api/accounts") }, t("Create account")),
    rules,
    error,
  );
  const toggle = el("button", { type: "button", class: "small", "data-testid": "account-open", "aria-expanded": "false" }, t("Sign in"));
  toggle.addEventListener("click", () => {
    form.hidden = !form.hidden;
    toggle.setAttribute("aria-expanded", String(!form.hidden));
    if (!form.hidden) name.focus();
  });
  // Escape closes the form and gives the keyboard back to the button that opened it
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    form.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
    toggle.focus();
  });
  box.replaceChildren(toggle, form);
}

/** The button that adds the browser's games to the account, offered only when the server
 * says some of the seats this browser holds have no account yet (how many, in words). */
async function offerAdopting(box, note) {
  const tokens = heldTokens();
  if (!tokens.length) return;
  let count = 0;
  try {
    const answer = await api("/api/session/adopt", { method: "POST", body: { tokens, check: true } });
    count = (answer.games || []).length;
  } catch {
    return; // nothing offered: the games stay where they are
  }
  if (!count || !box.isConnected || box.querySelector("[data-testid=adopt]")) return;
  const adopt = el("button", {
    type: "button",
    class: "small",
    "data-testid": "adopt",
    title: t("Add the games this browser holds to my account"),
    onclick: async () => {
      try {
        const answer = await api("/api/session/adopt", { method: "POST", body: { tokens } });
        const n = (answer.games || []).length;
        note.textContent = n ? tn("{n} game added", "{n} games added", n) : t("Nothing new to add");
        adopt.remove();
      } catch (err) {
        note.textContent = errorWords(err.data, err.message);
      }
    },
  }, tn("Add {n} game from this browser", "Add {n} games from this browser", count));
  box.insertBefore(adopt, box.querySelector("[data-testid=sign-out]"));
}

function signedIn(box) {
  const who = el("a", { href: `/players/${encodeURIComponent(state.name)}`, class: "account-name", "data-testid": "account-name", text: state.name });
  const note = el("span", { class: "account-note", role: "status", "aria-live": "polite" });
  const out = el("button", {
    type: "button",
    class: "small",
    "data-testid": "sign-out",
    onclick: async () => {
      try {
        await api("/api/session", { method: "DELETE" });
      } finally {
        state.name = null;
        render();
        slot()?.querySelector("[data-testid=account-open]")?.focus();
      }
    },
  }, t("Sign out"));
  box.replaceChildren(who, out, note);
  offerAdopting(box, note);
}

function render() {
  const box = slot();
  if (!box) return;
  if (state.name) signedIn(box);
  else signedOut(box);
  document.dispatchEvent(new CustomEvent("shiftago:account", { detail: { name: state.name } }));
}

async function start() {
  try {
    const answer = await api("/api/session");
    state.name = answer && answer.name ? answer.name : null;
  } catch {
    state.name = null;
  }
  render();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
