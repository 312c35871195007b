// A player's profile (/players/{name}): ratings per category, a rating-history plot
// (SVG drawn here), recent games with their results and the link to download them as
// records; on one's own page, "Your account" (a new password, closing the account).

import { api, categoryName, el } from "./api.js";
import { errorWords } from "./errors.js";
import { seatName } from "./gamewords.js";
import { ratingChange, ratingText } from "./rated.js";
import { date, number, t, tn } from "./i18n.js";
import { signedInName } from "./account.js";
import { mountChallengeForm, mountChallengeList } from "./challenges.js";

const SVG = "http://www.w3.org/2000/svg";
// functions, so that each word is looked up in the catalogue when it is shown
const OUTCOMES = { win: () => t("Won"), shared: () => t("Shared win"), loss: () => t("Lost"), draw: () => t("Draw"), aborted: () => t("Aborted") };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

/** A rating in the page's digits, never grouped ("1663", as the leaderboard's players
 * read it), with no mark: the plot's axis and points. */
const rating = (x) => ratingText(x, false);


/** The categories played (the API lists every one, those not played at 0 games). */
const played = (ratings) => Object.entries(ratings).filter(([, r]) => r.games > 0);

function renderRatings(ratings) {
  const rows = played(ratings);
  const table = document.getElementById("ratings");
  document.getElementById("no-ratings").hidden = rows.length > 0;
  table.hidden = rows.length === 0;
  table.tBodies[0].replaceChildren(
    ...rows.map(([category, r]) =>
      el(
        "tr",
        { "data-category": category },
        el("td", { text: categoryName(category) }),
        el("td", { class: "strong", text: ratingText(r.rating, r.provisional), title: r.provisional ? t("provisional") : null }),
        el("td", { text: t("±{deviation}", { deviation: number(Math.round(r.deviation)) }) }),
        el("td", { text: number(r.games) }),
      ),
    ),
  );
}

/** The plot of ratings after each game: a line and a band of ±deviation, drawn `width`
 * pixels wide (its box's width, so that its labels keep their size on a phone). */
export function plot(points, width = 640) {
  const height = 220;
  const pad = { left: 46, right: 12, top: 12, bottom: 24 };
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("Rating after each rated game"), class: "plot" });
  if (!points.length) return box;
  const all = [1500, ...points.flatMap((p) => [p.rating - p.deviation, p.rating + p.deviation, p.before])];
  let low = Math.floor(Math.min(...all) / 50) * 50;
  let high = Math.ceil(Math.max(...all) / 50) * 50;
  if (high - low < 100) high = low + 100;
  const n = points.length;
  const x = (i) => pad.left + ((width - pad.left - pad.right) * (n === 1 ? 0.5 : i / (n - 1)));
  const y = (r) => pad.top + (height - pad.top - pad.bottom) * (1 - (r - low) / (high - low));
  const step = (high - low) / 4;
  for (let k = 0; k <= 4; k++) {
    const value = low + k * step;
    box.append(
      svg("line", { x1: pad.left, x2: width - pad.right, y1: y(value), y2: y(value), class: "grid" }),
      svg("text", { x: pad.left - 6, y: y(value) + 4, "text-anchor": "end", class: "axis" }, document.createTextNode(rating(value))),
    );
  }
  const upper = points.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`);
  const lower = points.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse();
  box.append(svg("polygon", { points: [...upper, ...lower].join(" "), class: "band" }));
  box.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  points.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(p.rating), r: 3.5, class: "dot" });
    dot.append(svg("title", {}, document.createTextNode(t("{rating} after game {game}", { rating: rating(p.rating), game: number(p.game) }))));
    box.append(dot);
  });
  box.append(svg("text", { x: width - pad.right, y: height - 6, "text-anchor": "end", class: "axis" }, document.createTextNode(tn("{n} rated game", "{n} rated games", n))));
  return box;
}

async function renderHistory(name, categories) {
  const card = document.getElementById("history-card");
  card.hidden = categories.length === 0;
  if (!categories.length) return;
  const select = document.getElementById("history-category");
  select.replaceChildren(...categories.map((c) => el("option", { value: c, text: categoryName(c) })));
  const box = document.getElementById("history-plot");
  let points = [];
  const width = () => Math.round(Math.min(720, Math.max(280, box.clientWidth || 640)));
  let drawnWidth = 0;
  const redraw = () => {
    drawnWidth = width();
    box.replaceChildren(plot(points, drawnWidth));
  };
  const draw = async () => {
    const answer = await api(`/api/players/${encodeURIComponent(name)}/history?category=${encodeURIComponent(select.value)}`);
    points = answer.history || [];
    redraw();
  };
  select.addEventListener("change", draw);
  window.addEventListener("resize", () => {
    if (width() !== drawnWidth) redraw();
  });
  await draw();
}

/** A game's link: for the signed-in player on their own profile, a game opens their seat
 * (the session is its credential), as the home page's list of their games does: a finished
 * one with its rematch and analysis; else the game is watched. */
function gameHref(g, own) {
  return own && g.id ? `/play/${encodeURIComponent(g.id)}` : g.watch_url;
}

/** The names of a game's other seats: an account's as it is, a name the server gave a
 * seat in the page's words. */
function opponents(g) {
  if (!Array.isArray(g.seats)) return g.opponents || [];
  const others = g.seats.filter((s) => s.account !== shownPlayer);
  return others.map((s) => s.account || seatName(s, g.seats));
}

let shownGames = [];
let shownPlayer = null;

function renderGames(games) {
  shownGames = games;
  const own = !!shownPlayer && signedInName() === shownPlayer;
  const table = document.getElementById("games");
  const none = document.getElementById("no-games");
  none.hidden = games.length > 0;
  // a visitor is shown public and rated games only: unlisted ones stay their players' own
  none.textContent = own ? t("No games yet.") : t("No public or rated games yet.");
  document.getElementById("records-part").hidden = games.length === 0;
  document.getElementById("records-link").href = `/api/players/${encodeURIComponent(shownPlayer || "")}/records`;
  table.hidden = games.length === 0;
  // each cell carries its column's name, which a phone shows above it (style.css)
  const labels = [...table.tHead.rows[0].cells].map((th) => th.textContent);
  const cell = (i, attrs, ...children) => el("td", { role: "cell", "data-label": labels[i], ...attrs }, ...children);
  table.tBodies[0].replaceChildren(
    ...games.map((g) => {
      const change = g.rating_after !== null && g.rating_before !== null ? Math.round(g.rating_after) - Math.round(g.rating_before) : null;
      return el(
        "tr",
        { role: "row" },
        cell(0, {}, el("a", { href: gameHref(g, own), "data-testid": g.finished ? "finished-link" : "playing-link", text: date(g.created, { dateStyle: "short", timeStyle: "short" }) })),
        cell(1, { text: g.rated ? t("{category}, rated", { category: categoryName(g.category) }) : categoryName(g.category) }),
        cell(2, { text: opponents(g).join(", ") }),
        cell(3, { text: g.outcome && OUTCOMES[g.outcome] ? OUTCOMES[g.outcome]() : g.finished ? "—" : t("Playing") }),
        cell(4, { text: change === null ? "" : t("{rating} ({change})", { rating: ratingText(g.rating_after, g.provisional_after), change: ratingChange(change) }) }),
      );
    }),
  );
}

/** The password and the closing of one's own account, on one's own page. */
function mountOwnAccount(name) {
  const $ = (id) => document.getElementById(id);
  $("password-form-name").value = name; // for the browser's password manager
  const show = (box, text) => {
    box.textContent = text;
    box.hidden = !text;
  };
  $("password-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    show($("password-error"), "");
    $("password-done").hidden = true;
    const fresh = $("new-password").value;
    if (fresh !== $("new-password-again").value) {
      show($("password-error"), t("The two new passwords differ."));
      $("new-password-again").focus();
      return;
    }
    const button = $("password-change");
    button.disabled = true;
    try {
      await api("/api/account/password", { method: "PUT", body: { password: $("current-password").value, new_password: fresh } });
      for (const id of ["current-password", "new-password", "new-password-again"]) $(id).value = "";
      $("password-done").hidden = false;
    } catch (err) {
      show($("password-error"), errorWords(err.data, err.message));
      const field = err.data && err.data.field === "new_password" ? "new-password" : "current-password";
      $(field).focus();
    } finally {
      button.disabled = false;
    }
  });
  $("close-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    show($("close-error"), "");
    const button = $("close-account");
    button.disabled = true;
    try {
      await api("/api/account/close", { method: "POST", body: { password: $("close-password").value } });
      location.reload(); // the page of a closed account, signed out
    } catch (err) {
      show($("close-error"), errorWords(err.data, err.message));
      $("close-password").focus();
      button.disabled = false;
    }
  });
}

async function start() {
  const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const title = document.getElementById("player-name");
  try {
    const player = await api(`/api/players/${encodeURIComponent(name)}`);
    title.textContent = player.name;
    shownPlayer = player.name;
    const list = mountChallengeList(document.getElementById("challenges"));
    mountOwnAccount(player.name);
    const others = () => {
      const me = signedInName();
      document.getElementById("challenge-card").hidden = !me || me === player.name || player.closed;
      document.getElementById("own-account").hidden = !me || me !== player.name || player.closed;
      renderGames(shownGames); // the links of one's own games open one's seats
    };
    mountChallengeForm(document.getElementById("challenge-form"), player.name, () => list.refresh());
    document.addEventListener("shiftago:account", others);
    others();
    document.title = t("{name} · Shiftago", { name: player.name });
    document.getElementById("player-closed").hidden = !player.closed;
    renderRatings(player.ratings || {});
    const recent = await api(`/api/players/${encodeURIComponent(name)}/games`);
    renderGames(recent.games || []);
    await renderHistory(player.name, played(player.ratings || {}).map(([category]) => category));
  } catch (err) {
    const box = document.getElementById("player-error");
    box.textContent = err.status === 404 ? t("There is no player {name}.", { name }) : errorWords(err.data, err.message);
    box.hidden = false;
    if (err.status === 404) {
      // nothing to show of a player who does not exist
      document.getElementById("ratings-part").hidden = true;
      document.getElementById("games-card").hidden = true;
    }
  }
}

start();
