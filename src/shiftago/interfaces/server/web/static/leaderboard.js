// The leaderboard (/leaderboard): the best settled ratings of a category, picked here
// (the choice is kept in the address's #fragment), and "Find a player": the names that
// begin with what is typed are offered, and the player's page opens.

import { api, el } from "./api.js";
import { errorWords } from "./errors.js";
import { variantName } from "./gamewords.js";
import { number, t, tn } from "./i18n.js";

/** A rating category ("express-2") in the page's words ("Express, 2 players"). */
function categoryWords(category) {
  const [variant, players] = String(category).split("-");
  if (!["express", "expert", "extreme"].includes(variant) || !/^[2-4]$/.test(players || "")) {
    return String(category);
  }
  const n = Number(players);
  return tn("{variant}, {n} player", "{variant}, {n} players", n, { variant: variantName(variant) });
}

const select = document.getElementById("category");

async function show(category) {
  const table = document.getElementById("board");
  const empty = document.getElementById("board-empty");
  try {
    const answer = await api(`/api/leaderboard/${encodeURIComponent(category)}`);
    if (!select.options.length) {
      select.replaceChildren(...answer.categories.map((c) => el("option", { value: c, text: categoryWords(c) })));
    }
    select.value = answer.category;
    const players = answer.players || [];
    empty.hidden = players.length > 0;
    table.hidden = players.length === 0;
    table.tBodies[0].replaceChildren(
      ...players.map((p, i) =>
        el(
          "tr",
          {},
          el("td", { text: number(i + 1) }),
          el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.name)}`, text: p.name })),
          el("td", { class: "strong", text: number(Math.round(p.rating)) }),
          el("td", { text: t("±{deviation}", { deviation: number(Math.round(p.deviation)) }) }),
          el("td", { text: number(p.games) }),
        ),
      ),
    );
  } catch (err) {
    empty.textContent = errorWords(err.data, t("The leaderboard could not be loaded."));
    empty.hidden = false;
  }
}

select.addEventListener("change", () => {
  history.replaceState(null, "", `#${select.value}`);
  show(select.value);
});
show(location.hash.slice(1) || "express-2");

// ---- find a player ------------------------------------------------------------------
const findName = document.getElementById("find-name");
const findError = document.getElementById("find-error");
const NAME_PREFIX = /^[a-z0-9_-]{1,20}$/;
let asked = null; // the timer of the next question while the player types

function showFindError(text) {
  findError.textContent = text;
  findError.hidden = !text;
}

/** The names that begin with what is typed, offered in the field's list. */
async function offerNames() {
  const prefix = findName.value.trim().toLowerCase();
  const list = document.getElementById("find-names");
  if (!NAME_PREFIX.test(prefix)) return list.replaceChildren();
  try {
    const answer = await api(`/api/players?prefix=${encodeURIComponent(prefix)}`);
    if (findName.value.trim().toLowerCase() !== prefix) return; // typed on meanwhile
    list.replaceChildren(...answer.players.map((name) => el("option", { value: name })));
  } catch {
    list.replaceChildren(); // only a help: the page of a typed name still opens
  }
}

findName.addEventListener("input", () => {
  showFindError("");
  clearTimeout(asked);
  asked = setTimeout(offerNames, 150);
});

/** The open accounts whose names begin with `typed` (none for what no name begins with). */
async function namesBeginning(typed) {
  const prefix = typed.toLowerCase();
  if (!NAME_PREFIX.test(prefix)) return [];
  try {
    return (await api(`/api/players?prefix=${encodeURIComponent(prefix)}`)).players;
  } catch {
    return []; // the exact name is still asked for below
  }
}

document.getElementById("find-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = findName.value.trim();
  if (!name) return showFindError(t("Type a name first."));
  // the beginning of one name is enough; of several, they are named
  const names = await namesBeginning(name);
  const exact = names.find((n) => n === name.toLowerCase());
  if (exact || names.length === 1) {
    location.href = `/players/${encodeURIComponent(exact || names[0])}`;
    return;
  }
  if (names.length > 1) return showFindError(t("Several names begin with {name}: {names}.", { name, names: names.join(", ") }));
  try {
    const player = await api(`/api/players/${encodeURIComponent(name)}`);
    location.href = `/players/${encodeURIComponent(player.name)}`;
  } catch (err) {
    showFindError(err.status === 404 ? t("There is no player {name}.", { name }) : errorWords(err.data, err.message));
  }
});
