// Challenges to a named player (docs/web-protocol.md, "Challenges to a player"): the
// form on another player's profile that sends one, and the signed-in player's list of
// those received (accept, decline) and sent (cancel), asked for every few seconds. When
// a challenge is accepted, the challenger's page goes to the game.

import { VARIANTS, api, el, errorText, localPath, csrfToken } from "./api.js";
import { controlLabel, mountTimeControl } from "./timecontrol.js";

const POLL_MS = 5000;

// every visible string of this module, whole
const WORDS = {
  received: (from, what) => `${from} challenges you: ${what}`,
  sent: (to, what) => `You challenged ${to}: ${what}. Waiting for an answer.`,
  declined: (to) => `${to} declined your challenge.`,
  rated: (variant, clock) => `${variant}, ${clock}, rated`,
  casual: (variant, clock) => `${variant}, ${clock}, casual`,
  accept: "Accept",
  decline: "Decline",
  cancel: "Cancel",
  failed: "That did not work: ",
};

function what(c) {
  const variant = VARIANTS[c.variant] ? VARIANTS[c.variant].name : c.variant;
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
      say(WORDS.failed + (errorText(err.data) || err.message));
    }
    refresh();
  };

  const draw = (data) => {
    const items = [];
    for (const c of data.received || []) {
      const path = `/api/challenges/${encodeURIComponent(c.id)}`;
      items.push(el("li", { "data-testid": "challenge-received", "data-challenge": c.id },
        el("span", { text: WORDS.received(c.from, what(c)) }),
        button(WORDS.accept, "challenge-accept", () => act(`${path}/accept`, "POST", (a) => {
          if (a && a.url) location.href = localPath(a.url);
        })),
        button(WORDS.decline, "challenge-decline", () => act(`${path}/decline`, "POST", () => {}))));
    }
    for (const c of data.sent || []) {
      const path = `/api/challenges/${encodeURIComponent(c.id)}`;
      items.push(el("li", { "data-testid": "challenge-sent", "data-challenge": c.id },
        el("span", { text: WORDS.sent(c.to, what(c)) }),
        button(WORDS.cancel, "challenge-cancel", () => act(path, "DELETE", () => {}))));
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
      error.textContent = errorText(err.data) || err.message;
      error.hidden = false;
    } finally {
      send.disabled = false;
    }
  });
}
