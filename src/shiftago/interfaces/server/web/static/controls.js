// The seat holders' controls: take back, resign, claiming a seat that has been away
// (to the computer at a chosen level, or ending the game), and the share panel with
// every link this browser knows. What is allowed is the server's word: GAME `may` and
// `takeback`, presence `claimable_at`.
import { colourName, marbleIcon } from "./board.js";
import { api, copyText, el, escapeSaysNo, gameEntry } from "./api.js";
import { levelLabel, nameBesideColour } from "./gamewords.js";
import { t } from "./i18n.js";
import { rememberedLevel } from "./welcome.js";
import { fmtSeconds, awayFor, notCome } from "./panels.js";
import {
  $, ctx, held, heldThatMay, heldTokens, holdsEverySeat, holdsEveryPerson, isOver, seatIndex, seatOf, who,
} from "./state.js";

/** How this screen may take back now: {kind: "action" | "turn", colour} or null. */
export function takebackNow() {
  const g = ctx.game;
  if (!g || !g.takeback || ctx.pending) return null;
  if (g.takeback === "action") return holdsEverySeat() ? { kind: "action", colour: null } : null;
  const colour = heldThatMay("takeback")[0];
  // another person's actions are never undone: with several people, only a screen
  // that holds every person's seat takes back (RULES.md section 9)
  return colour && holdsEveryPerson() ? { kind: "turn", colour } : null;
}

/** The message that takes back: one action, or the requester's turn; with the tokens
 *  of every seat held, which prove that no other person's actions are undone. */
export function takebackMessage() {
  return { type: "takeback", tokens: heldTokens() };
}

/** The held colour that does `what` (resign, offer a draw): the one to act, or the
 *  first that may; null if none may or the game is over. */
function actorFor(what) {
  if (isOver()) return null;
  const mayDo = heldThatMay(what);
  return mayDo.includes(ctx.game.turn) ? ctx.game.turn : mayDo[0] || null;
}

/** The held colour that resigns. */
export function resigner() {
  return actorFor("resign");
}

/** Where a draw offer's answers are in sight: beside the board with the other controls
 *  in two columns; in one (a phone), where those lie a screen below, under the board. */
const oneColumn = matchMedia("(max-width: 56.25em)");
let lastSend = null;
oneColumn.addEventListener("change", () => ctx.game && lastSend && renderControls(lastSend));

function placeDrawOffer() {
  const box = $("draw-offered");
  if (!oneColumn.matches) {
    if (box.parentNode !== $("controls")) $("claims").before(box);
  } else if (box.previousElementSibling !== $("board")) $("board").after(box);
}

/** The controls that ask before they act, each with its `-confirm` box. */
const CONFIRMS = ["takeback", "resign", "abort"];

export function renderControls(send) {
  lastSend = send;
  placeDrawOffer();
  const tb = takebackNow();
  $("takeback").hidden = !tb || !$("takeback-confirm").hidden;
  if (!tb) $("takeback-confirm").hidden = true;
  $("takeback").textContent = tb && tb.kind === "action" ? t("Take back one action") : t("Take back");
  // against the computer a take-back goes back to the player's last turn: the
  // computer's winning action goes too
  const question = tb && tb.kind === "turn"
    ? t("The game is over: take back to your last turn and play on?")
    : t("The game is over: take back its last action and play on?");
  if ($("takeback-question").textContent !== question) $("takeback-question").textContent = question;
  const r = resigner();
  const canResign = !!r && !isOver();
  $("resign").hidden = !canResign || !$("resign-confirm").hidden;
  if (!canResign) $("resign-confirm").hidden = true;
  $("resign").textContent = held().length > 1 && r ? t("Resign ({colour})", { colour: colourName(r) }) : t("Resign");
  // with 3 or 4 players a resignation ends the game for everyone, the others sharing the
  // win (docs/web-protocol.md): the question says so, as a player would not guess it
  $("resign-question").textContent = (ctx.game.seats || []).length > 2
    ? t("Really resign? The game ends for everyone: the others share the win.")
    : t("Really resign?");
  renderClaims(send);
  renderDrawAndAbort(send);
  // while a question is asked ("Really resign?") it stands alone: no other button
  // beside its answers to be taken for one of them
  const asking = CONFIRMS.find((id) => !$(`${id}-confirm`).hidden);
  if (asking) for (const id of [...CONFIRMS, "offer-draw"]) if (id !== asking) $(id).hidden = true;
  const shown = ["takeback", "takeback-confirm", "resign", "resign-confirm", "offer-draw", "abort", "abort-confirm"].some((id) => !$(id).hidden) || $("claims").children.length > 0
    || (!$("draw-offered").hidden && $("controls").contains($("draw-offered")));
  $("controls").hidden = !shown;
}

/** The draw offer that stands, for a page that holds a seat: {offer: its colour,
 *  answerer: the held colour that answers it, or null (the page's own offer)}. */
function drawOffer() {
  const mine = held();
  const offer = isOver() || !mine.length ? null : ctx.game.draw_offer || null;
  return { offer, answerer: offer ? mine.find((c) => c !== offer) || null : null };
}

/** The draw offer that stands, as words for a seat's holder ("" while none does): the
 *  banner by the board and the status line say it, as the answer is this screen's. */
export function drawOfferWords() {
  const { offer, answerer } = drawOffer();
  if (!offer) return "";
  return answerer ? t("{name} offers a draw.", { name: who(offer) }) : t("You offered a draw.");
}

/** Draw offers (GAME `draw_offer`, `may.draw`) and aborting (`may.abort`); the server decides. */
function renderDrawAndAbort(send) {
  const over = isOver();
  // at one screen, the offer is the seat's to act, and the button says whose it is
  const offerer = actorFor("draw");
  $("offer-draw").hidden = !offerer;
  $("offer-draw").textContent = held().length > 1 && offerer ? t("Offer a draw ({colour})", { colour: colourName(offerer) }) : t("Offer a draw");
  $("offer-draw").onclick = () => offerer && send({ type: "draw", offer: true }, offerer);
  const { offer, answerer } = drawOffer();
  $("draw-offered").hidden = !offer;
  $("draw-offered-text").textContent = drawOfferWords();
  $("accept-draw").hidden = !answerer;
  $("decline-draw").hidden = !answerer;
  $("accept-draw").onclick = () => answerer && send({ type: "draw", accept: true }, answerer);
  $("decline-draw").onclick = () => answerer && send({ type: "draw", accept: false }, answerer);
  const aborter = over ? null : heldThatMay("abort")[0] || null;
  $("abort").hidden = !aborter || !$("abort-confirm").hidden;
  if (!aborter) $("abort-confirm").hidden = true;
}

/** GET /api/levels, once: {levels: [{level, name}], default}. */
function levelList() {
  if (!ctx.levels) ctx.levels = api("/api/levels").catch(() => ({ levels: [], default: null }));
  return ctx.levels;
}

function claimButtons(colour, send) {
  const idx = seatIndex(colour);
  const select = el("select", { "data-testid": "claim-level", "data-seat": idx, "aria-label": t("Level of the computer for {colour}", { colour: colourName(colour) }) });
  levelList().then((data) => {
    const list = (data && data.levels) || [];
    select.replaceChildren(...list.map((l) => el("option", { value: l.level, text: levelLabel(l) })));
    // a level chosen earlier for this seat survives the row being drawn anew (a late
    // presence may show the seat back for a moment)
    // else the level this browser last chose for the computer (the home page's), which
    // on a first visit is a gentle one, not the strongest
    const chosen = ctx.claimLevels[colour] ?? String(rememberedLevel());
    if (list.some((l) => String(l.level) === chosen)) select.value = chosen;
    else if (data && data.default !== null && data.default !== undefined) select.value = String(data.default);
  });
  select.addEventListener("change", () => {
    ctx.claimLevels[colour] = select.value;
  });
  const choices = el("span", { class: "claim-choices" },
    el("button", {
      type: "button", "data-claim": "computer", "data-seat": idx,
      // a game with a computer is never rated: ending it is what gives a rated result
      text: ctx.game && ctx.game.rated ? t("Let the computer play (the game is then unrated)") : t("Let the computer play"),
      onclick: () => send({ type: "claim", seat: idx, to: "computer", level: +select.value || undefined }),
    }),
    " ", select, " ",
  );
  // ending the game cannot be taken back: it asks first, as resigning and aborting do,
  // and its question stands alone in the row
  // the question is the group's name, heard as the focus moves to its "yes"
  const question = el("span", { id: `claim-end-question-${colour}`, text: t("Really end the game?") });
  const yes = el("button", { type: "button", "data-claim": "end-yes", "data-seat": idx, text: t("Yes, end it"), onclick: () => send({ type: "claim", seat: idx, to: "end" }) });
  const no = el("button", { type: "button", "data-claim": "end-no", text: t("No"), onclick: () => ask(false) });
  const confirm = el("span", { class: "confirm", role: "group", "aria-labelledby": question.id, hidden: true, "data-testid": "claim-end-confirm" },
    question, " ", yes, " ", no,
  );
  escapeSaysNo(confirm, no);
  const end = el("button", { type: "button", "data-claim": "end", "data-seat": idx, text: t("End the game"), onclick: () => ask(true) });
  function ask(asking) {
    choices.hidden = end.hidden = asking;
    confirm.hidden = !asking;
    (asking ? yes : end).focus();
  }
  return el("span", { class: "claim-buttons" }, choices, end, confirm);
}

/** Claims for the seats that are away, from the time the server names (claimable_at). */
function renderClaims(send) {
  const box = $("claims");
  const mine = held();
  const seats = ctx.presence && ctx.presence.seats ? ctx.presence.seats : [];
  const wanted = [];
  if (mine.length && !isOver()) {
    for (const p of seats) {
      if (mine.includes(p.colour) || p.connected) continue;
      const seat = seatOf(p.colour);
      if (seat && seat.kind === "computer") continue;
      const from = p.claimable_at ? Date.parse(p.claimable_at) : NaN;
      if (!Number.isFinite(from)) continue;
      const away = awayFor(p);
      const name = who(p.colour);
      const time = away !== null ? fmtSeconds(away) : null;
      const never = notCome(p);
      if (Date.now() < from) {
        const wait = fmtSeconds((from - Date.now()) / 1000);
        const text = never
          ? t("{name} has not come yet; in {wait} you may hand the seat to the computer or end the game.", { name, wait })
          : time
            ? t("{name} has been away {time}; in {wait} you may hand the seat to the computer or end the game.", { name, time, wait })
            : t("{name} has been away; in {wait} you may hand the seat to the computer or end the game.", { name, wait });
        wanted.push({ key: `${p.colour}:wait`, text });
      } else {
        const text = never
          ? t("{name} has not come yet.", { name })
          : time ? t("{name} has been away {time}.", { name, time }) : t("{name} has been away.", { name });
        wanted.push({ key: `${p.colour}:claim`, colour: p.colour, text: `${text} ` });
      }
    }
  }
  // keep a claim's row (and its level select) while it stays; update the words
  const rows = new Map([...box.children].map((n) => [n.dataset.key, n]));
  const keep = new Set(wanted.map((w) => w.key));
  for (const [key, node] of rows) if (!keep.has(key)) node.remove();
  for (const w of wanted) {
    let row = rows.get(w.key);
    if (!row) {
      row = el("p", { "data-key": w.key, "data-testid": "claim" }, el("span", { class: "claim-text" }));
      if (w.colour) row.append(claimButtons(w.colour, send));
      box.append(row);
    }
    row.querySelector(".claim-text").textContent = w.text;
  }
}

function linkRow(kind, colour, label, url) {
  const input = el("input", { type: "text", readonly: true, value: url, "aria-label": label, "data-testid": `share-${kind}${colour ? `-${colour}` : ""}` });
  // each Copy button is named with its link's label ("Copy Your seat"), not "Copy" alone
  const key = `${kind}${colour ? `-${colour}` : ""}`;
  const copy = el("button", { type: "button", class: "small", id: `share-copy-${key}`, "aria-labelledby": `share-copy-${key} share-label-${key}`, text: t("Copy") });
  copy.addEventListener("click", async () => (copy.textContent = (await copyText(url)) ? t("Copied") : t("Copy failed")));
  return el("li", { "data-kind": kind, "data-colour": colour }, colour ? marbleIcon(colour, 18) : null, el("span", { class: "share-label", id: `share-label-${key}`, text: label }), input, copy);
}

/** Every seat link this browser knows (its own seats', the invites it made) and the watch link. */
export function renderShare() {
  const list = $("share-list");
  const entry = gameEntry(ctx.gameId);
  const base = location.origin;
  const id = encodeURIComponent(ctx.gameId);
  const rows = [];
  const listed = new Set();
  for (const s of ctx.game.seats || []) {
    const token = entry.tokens && entry.tokens[s.colour];
    if (token) {
      rows.push(linkRow("seat", s.colour, t("Your seat ({colour})", { colour: colourName(s.colour) }), `${base}/play/${id}?seat=${encodeURIComponent(token)}`));
      listed.add(s.colour);
    }
  }
  for (const [colour, url] of Object.entries(entry.invites || {})) {
    if (listed.has(colour) || !url) continue;
    const values = { name: nameBesideColour(seatOf(colour) || { colour }), colour: colourName(colour) };
    const label = values.name ? t("Link for {name} ({colour})", values) : t("Link for {colour}", values);
    rows.push(linkRow("seat", colour, label, new URL(url, base).href));
  }
  rows.push(linkRow("watch", null, t("Watch"), `${base}/watch/${id}`));
  const key = rows.map((r) => r.querySelector("input").value).join(" ");
  if (list.dataset.key === key) return; // unchanged: keep the "Copied" words
  list.dataset.key = key;
  list.replaceChildren(...rows);
}
