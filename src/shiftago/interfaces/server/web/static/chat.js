// The game's chat panel (docs/web-protocol.md, "Chat"): the messages of this page's room
// (the players', or the spectators'), a line to write in, and a toggle that hides the
// chat, remembered in localStorage. Every text is the person's own: it is shown with
// textContent, never as HTML. A page that holds several seats hears each message once
// per seat: messages are kept by their id, so each shows once. A refusal of a message
// is said under the line it came from, and a message that comes while the chat is out of
// sight (below the board on a phone) is called by a button that leads to it.
import { seatName } from "./gamewords.js";
import { date, number, t, tn } from "./i18n.js";

const HIDDEN_KEY = "shiftago.chat";
/** The name the server gives a speaker with none (a spectator): a word, shown translated. */
const GUEST = "Guest";
const MAX_LENGTH = 300;
const KEPT = 200;

function read() {
  try {
    return localStorage.getItem(HIDDEN_KEY);
  } catch {
    return null;
  }
}

function write(value) {
  try {
    localStorage.setItem(HIDDEN_KEY, value);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

/** Whether this browser hides the chat. */
export function chatHidden() {
  return read() === "off";
}

/** Who said ``m``: a seat's holder without an account under its seat's name in this
 * page's language (a colour where none was typed), an account by its name, a spectator
 * with no name as "Guest". */
function speaker(m) {
  if (!m.name || m.name === GUEST) return t("Guest");
  return m.seat && m.guest ? seatName({ name: m.name, colour: m.seat }) : m.name;
}

/** The mark beside a guest's name (WEBAPI: a chat line's and a seat's `guest`). */
function guestMark() {
  return node("span", { class: "badge guest", "data-testid": "guest-mark", title: t("Not signed in to an account.") }, t("guest"));
}

function node(tag, attrs = {}, text = null) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== null) n.textContent = text;
  return n;
}

function clock(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? "" : date(d, { hour: "2-digit", minute: "2-digit" });
}

export class ChatPanel {
  /**
   * @param {HTMLElement} box  the panel's section (data-testid "chat")
   * @param {{send: (msg) => boolean}} hooks  send a message on the page's socket
   */
  constructor(box, hooks) {
    this.box = box;
    this.hooks = hooks;
    this.messages = new Map(); // id -> message, in the order they came
    this.room = null;
    this.unread = 0; // messages that came while the chat was hidden
    box.setAttribute("data-testid", "chat");
    const head = node("div", { class: "chat-head" });
    this.title = node("h2", { id: "chat-title" }, t("Chat"));
    this.toggle = node("button", { type: "button", class: "small", "data-testid": "chat-mute" });
    this.toggle.addEventListener("click", () => {
      write(chatHidden() ? "on" : "off");
      this.show();
    });
    head.append(this.title, this.toggle);
    this.body = node("div", { class: "chat-body", id: "chat-body" });
    this.toggle.setAttribute("aria-controls", "chat-body");
    this.list = node("ol", { class: "chat-list", "aria-live": "polite", "aria-labelledby": "chat-title" });
    this.form = node("form", { class: "chat-form", autocomplete: "off" });
    // no maxlength: it cut a pasted text silently (a French walk lost 94% of one); a
    // text too long is refused in words instead, and stays in the box to shorten
    this.input = node("input", {
      type: "text", "data-testid": "chat-input",
      "aria-label": t("Your message"), placeholder: t("Say something"),
    });
    const go = node("button", { type: "submit" }, t("Send"));
    this.form.append(this.input, go);
    this.error = node("p", { class: "error chat-error", role: "alert", "data-testid": "chat-error" });
    this.error.hidden = true;
    this.input.addEventListener("input", () => {
      if (this.input.value.trim().length <= MAX_LENGTH && this.error.dataset.why === "long") this.refused("");
    });
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (text.length > MAX_LENGTH) {
        const words = t("A chat message has at most {most} characters; this one has {n}.", { most: number(MAX_LENGTH), n: number(text.length) });
        this.refused(words, "long");
        return;
      }
      if (this.hooks.send({ type: "chat", text })) {
        this.refused("");
        this.unsent = text; // until the room echoes it: a refusal gives it back (restore)
        this.input.value = "";
      }
    });
    this.body.append(this.list, this.form, this.error);
    box.append(head, this.body);
    this.callOut();
    window.addEventListener("storage", (e) => {
      if (e.key === HIDDEN_KEY) this.show();
    });
    this.show();
  }

  /** A `chat_history` event: the room's last messages. */
  history(msg) {
    this.room = msg.room || this.room;
    for (const m of msg.messages || []) this.keep(m);
    this.draw();
  }

  /** A `chat` event. */
  add(msg) {
    const own = msg && msg.text === this.unsent;
    if (own) this.unsent = null;
    this.room = msg.room || this.room;
    const fresh = this.keep(msg);
    if (fresh && chatHidden()) {
      this.unread += 1;
      this.show();
    } else if (fresh && !own && !this.inSight && !this.box.hidden) {
      this.unseen += 1;
      this.drawCaller();
    }
    this.draw();
  }

  /** The last message sent was refused (too many at once): put it back to send again,
   * and say why under it (`words`), where the writer looks. */
  restore(words = "") {
    if (this.unsent && !this.input.value) this.input.value = this.unsent;
    this.unsent = null;
    if (words) this.refused(words);
  }

  /** Say under the line why a message was not sent ("" clears it); `why` names the
   * cause, so that shortening a text too long clears only that. */
  refused(words, why = "") {
    this.error.textContent = words;
    this.error.hidden = !words;
    this.error.dataset.why = why;
  }

  /** A button fixed at the foot of the screen that says how many messages came while
   * the chat was out of sight, and leads to it; gone once the chat is seen. */
  callOut() {
    this.unseen = 0;
    this.inSight = true;
    this.caller = node("button", { type: "button", class: "chat-caller", "data-testid": "chat-caller" });
    this.caller.hidden = true;
    this.caller.addEventListener("click", () => {
      this.box.scrollIntoView({ block: "center" });
      this.input.focus({ preventScroll: true });
    });
    this.box.after(this.caller);
    if (!("IntersectionObserver" in window)) return;
    new IntersectionObserver((entries) => {
      this.inSight = entries.some((entry) => entry.isIntersecting);
      if (this.inSight) this.unseen = 0;
      this.drawCaller();
    }).observe(this.box);
  }

  drawCaller() {
    this.caller.hidden = !this.unseen || this.inSight;
    this.caller.textContent = tn("{n} new chat message", "{n} new chat messages", this.unseen, { n: number(this.unseen) });
  }

  /** Keep a message once (a page that holds several seats hears it once per seat);
   *  whether it is new. */
  keep(m) {
    if (!m || typeof m.text !== "string") return false;
    const id = m.id ?? `${m.at}:${m.name}:${m.text}`;
    if (this.messages.has(id)) return false;
    this.messages.set(id, m);
    while (this.messages.size > KEPT) this.messages.delete(this.messages.keys().next().value);
    return true;
  }

  draw() {
    this.title.textContent = this.room === "spectators" ? t("Spectators' chat") : this.room === "players" ? t("Players' chat") : t("Chat");
    const items = [...this.messages.values()].map((m) => {
      const li = node("li", { "data-testid": "chat-message", class: m.seat ? `chat-seat-${m.seat}` : "chat-spectator" });
      li.append(node("time", { datetime: m.at || "" }, clock(m.at)), " ", node("b", {}, speaker(m)), " ");
      // a guest (no account) is marked, so that a guest named like an account is never
      // taken for it; the plain "Guest" of a spectator says so already
      if (m.guest && m.name && m.name !== GUEST) li.append(guestMark(), " ");
      li.append(node("span", { class: "chat-text" }, m.text));
      return li;
    });
    const atEnd = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.replaceChildren(...items);
    if (atEnd) this.list.scrollTop = this.list.scrollHeight;
  }

  show() {
    const hidden = chatHidden();
    this.body.hidden = hidden;
    this.box.classList.toggle("chat-hidden", hidden);
    if (!hidden) this.unread = 0;
    const unread = this.unread;
    const words = unread ? tn("Show chat ({n} new)", "Show chat ({n} new)", unread) : t("Show chat");
    this.toggle.textContent = hidden ? words : t("Hide chat");
    // the words say what a press does; aria-expanded says whether the chat shows
    this.toggle.setAttribute("aria-expanded", hidden ? "false" : "true");
  }
}
