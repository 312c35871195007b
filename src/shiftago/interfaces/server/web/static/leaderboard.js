// The leaderboard (/leaderboard): the best settled ratings of a category, picked here
// (the choice is kept in the address's #fragment).

import { api, categoryName, el, errorText } from "./api.js";

const select = document.getElementById("category");

async function show(category) {
  const table = document.getElementById("board");
  const empty = document.getElementById("board-empty");
  try {
    const answer = await api(`/api/leaderboard/${encodeURIComponent(category)}`);
    if (!select.options.length) {
      select.replaceChildren(...answer.categories.map((c) => el("option", { value: c, text: categoryName(c) })));
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
          el("td", { text: i + 1 }),
          el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.name)}`, text: p.name })),
          el("td", { class: "strong", text: Math.round(p.rating) }),
          el("td", { text: `±${Math.round(p.deviation)}` }),
          el("td", { text: p.games }),
        ),
      ),
    );
  } catch (err) {
    empty.textContent = errorText(err.data) || err.message;
    empty.hidden = false;
  }
}

select.addEventListener("change", () => {
  history.replaceState(null, "", `#${select.value}`);
  show(select.value);
});
show(location.hash.slice(1) || "express-2");
