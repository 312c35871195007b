// The pictures of a game to share (GET /api/games/{id}.png?step=N and .gif): the PNG of
// the position shown, the GIF of the whole game; links that open or download them.
import { el } from "./api.js";
import { t } from "./i18n.js";

/** The words of the links, in one place (looked up when shown). */
const WORDS = {
  png: () => t("Picture of this position (PNG)"),
  gif: () => t("The game, animated (GIF)"),
};

/** Point the Share card's picture links (in `box`) at game `gameId`, step `step`. */
export function renderPictureLinks(box, gameId, step) {
  const id = encodeURIComponent(gameId);
  const png = `/api/games/${id}.png?step=${step}`;
  const gif = `/api/games/${id}.gif`;
  if (box.dataset.key === png) return;
  box.dataset.key = png;
  box.replaceChildren(
    el("a", { class: "button small", href: png, download: `shiftago-${gameId}-${step}.png`, "data-testid": "share-png", text: WORDS.png() }),
    el("a", { class: "button small", href: gif, download: `shiftago-${gameId}.gif`, "data-testid": "share-gif", text: WORDS.gif() }),
  );
}
