// Challenges to a named player (docs/web-protocol.md, "Challenges to a player"): the
// form on another player's profile that sends one, and the signed-in player's list of
// those received (accept, decline) and sent (cancel), asked for every few seconds. When
// a challenge is accepted, the challenger's page goes to the game.

import { VARIANTS, api, el, localPath, csrfToken, variantName } from "./api.js";
import { errorWords } from "./errors.js";
import { t } from "./i18n.js";
import { controlLabel, mountTimeControl } from "./timecontrol.js";

const POLL_MS = 5000;

// every visible string of this module, whole; functions, so that each message is
// looked up in the catalogue when it is shown
const WORDS = {
  received: (from, what) => t("{name} challenges you: {challenge}", { name: from, challenge: what }),
  sent: (to, what) => t("You challenged {name}: {challenge}. Waiting for an answer.", { name: to, challenge: what }),
  declined: (to) => t("{name} declined your challenge.", { name: to }),
  rated: (variant, clock) => t("{variant}, {clock}, rated", { variant, clock }),
  casual: (variant, clock) => t("{variant}, {clock}, casual", { variant, clock }),
  accept: () => t("Accept"),
  decline: () => t("Decline"),
  cancel: () => t("Cancel"),
  failed: (reason) => t("That did not work: {reason}", { reason }),
};

function what(c) {
  const variant = variantName(c.variant);
  const clock = controlLabel(c.clock);
  return c.rated ? WORDS.rated(variant, clock) : WORDS.casual(variant, clock);
}

function button(text, testid, onclick) {
  return el("button", { type: "button", class: "small", "data-testid": testid, onclick }, text);
}

/**
 * Keep `card` (a section holding a `ul` and a `.challenge-note`) showing the
 * signed-in player's open challenges; hidden while there are none and nothing to say.
 * Answers `refresh()`, which asks at once.
 */
export function mountChallengeList(card) {
  const list = card.querySelector("ul");
  const note = card.querySelector(".challenge-note");
  let sent = new Map(); // the open challenges sent, at the last look
  let timer = null;

  const say = (text) => {
    note.textContent = text;
    note.hidden = !text;
    card.hidden = !list.children.length && !text;
  };

  const act = async (path, method, after) => {
    try {
      const answer = await api(path, { method });
      after(answer);
    } catch (err) {
      say(WORDS.failed(errorWords(err.data, err.message)));
    }
    refresh();
  };

  const draw = (data) => {
    const items = [];
    for (const c of data.received || []) {
      const path = `/api/challenges/${encodeURIComponent(c.id)}`;
      items.push(el("li", { "data-testid": "challenge-received", "data-challenge": c.id },
        el("span", { text: WORDS.received(c.from, what(c)) }),
        button(WORDS.accept(), "challenge-accept", () => act(`${path}/accept`, "POST", (a) => {
          if (a && a.url) location.href = localPath(a.url);
        })),
        button(WORDS.decline(), "challenge-decline", () => act(`${path}/decline`, "POST", () => {}))));
    }
    for (const c of data.sent || []) {
      const path = `/api/challenges/${encodeURIComponent(c.id)}`;
      items.push(el("li", { "data-testid": "challenge-sent", "data-challenge": c.id },
        el("span", { text: WORDS.sent(c.to, what(c)) }),
        button(WORDS.cancel(), "challenge-cancel", () => act(path, "DELETE", () => {}))));
    }
    list.replaceChildren(...items);
    card.hidden = !items.length && note.hidden;
  };

  /** A sent challenge no longer open: accepted (go to the game) or declined (say so). */
  const answered = async (c) => {
    try {
      const now = await api(`/api/challenges/${encodeURIComponent(c.id)}`);
      if (now.status === "accepted" && now.url) location.href = localPath(now.url);
      else if (now.status === "declined") say(WORDS.declined(c.to));
    } catch {
      /* gone: cancelled here or elsewhere */
    }
  };

  async function refresh() {
    clearTimeout(timer);
    if (!csrfToken()) return; // signed out: no challenges to ask for
    try {
      const data = await api("/api/challenges");
      const open = new Map((data.sent || []).map((c) => [c.id, c]));
      for (const [id, c] of sent) if (!open.has(id)) answered(c);
      sent = open;
      draw(data);
      // the header's count follows this list at once (waiting.js)
      document.dispatchEvent(new CustomEvent("shiftago:challenges", { detail: { received: data.received || [] } }));
    } catch {
      sent = new Map();
      list.replaceChildren();
      card.hidden = true; // signed out
    }
    timer = setTimeout(refresh, POLL_MS);
  }

  document.addEventListener("shiftago:account", () => refresh());
  window.addEventListener("focus", () => refresh());
  refresh();
  return { refresh };
}

/** The form on a profile that challenges the player `name`; `sent()` follows a send. */
export function mountChallengeForm(form, name, sent) {
  const $ = (id) => document.getElementById(id);
  const variant = $("challenge-variant");
  for (const [key, v] of Object.entries(VARIANTS)) variant.append(el("option", { value: key, text: v.name }));
  const time = mountTimeControl("challenge-time", "challenge", { initial: "10+5" });
  const error = $("challenge-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const wrong = time.error();
    error.textContent = wrong;
    error.hidden = !wrong;
    if (wrong) return;
    const body = { to: name, variant: variant.value, players: 2, rated: $("challenge-rated").checked };
    const clock = time.clock();
    if (clock) body.clock = clock;
    const send = $("challenge-send");
    send.disabled = true;
    try {
      await api("/api/challenges", { method: "POST", body });
      sent();
    } catch (err) {
      error.textContent = errorWords(err.data, err.message);
      error.hidden = false;
    } finally {
      send.disabled = false;
    }
  });
}
