// The game's WebSocket (docs/web-protocol.md): one Conn per held seat, or one for a
// spectator. A Conn says hello with the version this page has seen, hands every
// message to the page, and reconnects by itself (retry.js) until the page closes it or
// the game turns out not to exist.

import { onJson, openSocket } from "./api.js";
import { t } from "./i18n.js";
import { Retry } from "./retry.js";

export class Conn {
  /**
   * @param {string} gameId
   * @param {string|null} token  the seat's secret, or null for a spectator
   * @param {{seen: () => number, onMessage: (conn, msg) => void, onChange: () => void, onGone: () => void, account?: () => boolean}} hooks
   */
  constructor(gameId, token, hooks) {
    this.gameId = gameId;
    this.token = token;
    this.hooks = hooks;
    this.colour = null;
    this.seat = null;
    this.invalid = false; // a token the game does not know: closed, the page watches
    this.ws = null;
    this.welcomed = false;
    this.retry = new Retry(() => this.connect(), 300);
    this.closedByUs = false;
    this.connect();
  }

  isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  connect() {
    const ws = openSocket(`/ws/games/${encodeURIComponent(this.gameId)}`);
    this.ws = ws;
    this.welcomed = false;
    ws.addEventListener("open", () => {
      this.retry.opened();
      const hello = { type: "hello", token: this.token, seen: Math.max(this.hooks.seen(), 0) };
      // speak for the signed-in account: its seat opens by the session (docs/web-protocol.md)
      if (this.hooks.account && this.hooks.account()) hello.account = true;
      ws.send(JSON.stringify(hello));
    });
    onJson(ws, (msg) => this.hooks.onMessage(this, msg));
    ws.addEventListener("close", (e) => {
      this.welcomed = false;
      if (this.ws !== ws) return;
      this.hooks.onChange();
      if (this.closedByUs || this.invalid) return;
      if (e.code === 4404 || e.code === 4004) {
        this.hooks.onGone();
        return;
      }
      this.retry.later();
    });
    ws.addEventListener("error", () => this.hooks.onChange());
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  close() {
    this.closedByUs = true;
    this.retry.stop();
    if (this.ws) this.ws.close();
  }
}

/** The connection badge: connected, partly (some held seats reconnecting) or reconnecting. */
export function showConnection(box, conns, watching) {
  const wanted = conns.filter((c) => !c.invalid);
  const open = wanted.filter((c) => c.isOpen()).length;
  let state;
  if (!wanted.length) state = "waiting"; // no socket yet (the page asks something first)
  else if (open === wanted.length) state = "connected";
  else if (open) state = "partly";
  else state = "reconnecting";
  box.dataset.state = state;
  box.setAttribute("data-testid", "connection");
  const words = {
    waiting: () => t("Not connected yet"),
    partly: () => t("Reconnecting some seats…"),
    reconnecting: () => t("Reconnecting…"),
    connected: () => (watching ? t("Watching live") : t("Connected")),
  };
  const text = words[state]();
  if (box.textContent !== text) box.textContent = text; // a live region: said once
}

/**
 * The seat a link's token holds in a game: its number, null when it holds none, or
 * undefined when the server could not be asked. Asked over a socket of its own that
 * says hello and closes at the welcome, before the page holds the seat.
 */
export function seatOfToken(gameId, token) {
  return new Promise((resolve) => {
    const ws = openSocket(`/ws/games/${encodeURIComponent(gameId)}`);
    let answered = false;
    const answer = (seat) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      resolve(seat);
      if (ws.readyState <= WebSocket.OPEN) ws.close();
    };
    const timer = setTimeout(() => answer(undefined), 10000);
    ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", token, seen: 0 })));
    onJson(ws, (msg) => {
      if (msg.type === "welcome") answer(Number.isInteger(msg.seat) ? msg.seat : null);
    });
    ws.addEventListener("close", () => answer(undefined));
  });
}
