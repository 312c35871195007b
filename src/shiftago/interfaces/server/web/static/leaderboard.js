// The leaderboard (/leaderboard): the best settled ratings of a category, picked here
// (the choice is kept in the address's #fragment).

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
