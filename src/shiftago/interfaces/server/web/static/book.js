// The opening book's panel of the analysis board: at a position the book has (the first
// actions of a game from the empty board), each action with how often it won in the
// computer's games from the start, the deep search's expected score or proof, and the
// computer's own choice; hidden elsewhere. The server finds the position and answers in
// its frame (POST /api/positions/book, docs/web-protocol.md, "The opening book").
import { api, el } from "./api.js";
import { number, t } from "./i18n.js";
import { expectedWords } from "./values.js";

/** Shows the book's lines at `position` in `card` (its table body `rows`); `play(action)`
 * plays a line's action. An answer for a position no longer shown is dropped. */
export class BookPanel {
  constructor(card, rows, play) {
    this.card = card;
    this.rows = rows;
    this.play = play;
    this.asked = null;
  }

  async show(position) {
    this.asked = position;
    let view;
    try {
      view = await api("/api/positions/book", { method: "POST", body: { position } });
    } catch {
      view = { lines: [] }; // the book is an extra: the board goes on without it
    }
    if (this.asked !== position) return;
    this.draw(view.lines || []);
  }

  draw(lines) {
    this.rows.replaceChildren();
    this.card.hidden = !lines.length;
    for (const line of lines) {
      const go = el("button", { type: "button", class: "small line-action", text: line.action, title: t("Play {action}", { action: line.action }) });
      go.addEventListener("click", () => this.play(line.action));
      const score = line.games ? number(Math.round(line.score * 100) / 100, { style: "percent" }) : "–";
      const searched = line.expected === null && !line.proven ? "–" : expectedWords(line.expected, line.proven);
      const chosen = line.chosen ? el("span", { class: "book-choice", title: t("The computer plays this action from the book"), text: "★" }) : null;
      this.rows.append(
        el("tr", { "data-testid": "book-line", "data-action": line.action, "data-games": line.games, class: line.chosen ? "chosen" : null },
          el("th", { scope: "row" }, go, chosen),
          el("td", { text: number(line.games) }),
          el("td", { text: score }),
          el("td", { text: searched })),
      );
    }
  }
}
