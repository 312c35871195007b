// A finished game's result in one sentence, by how it ended (GAME's `result`): the game
// page's result card and status line, and the home page's list of the player's games,
// say it in the same words.
import { listed, t } from "./i18n.js";

// Endings where, with 3-4 players, the seats left share the win (WEBAPI.md, clocks)
const SHARED_WINS = new Set(["resignation", "abandoned", "time"]);
// Endings that the most points decide in Expert and Extreme (RULES.md section 7)
const ON_POINTS = new Set(["board full", "no marbles", "action limit"]);

/** One winner's sentence, by the game's end reason: whole sentences, each looked up
 *  in the catalogue when shown. */
const ONE_WINS = {
  line: (v) => t("{name} wins with a line.", v),
  points: (v) => t("{name} wins by reaching 10 points.", v),
  resignation: (v) => t("{name} wins by resignation.", v),
  abandoned: (v) => t("{name} wins (the others left the game).", v),
  abandonedBy: (v) => t("{name} wins ({by} left the game).", v),
  time: (v) => t("{name} wins on time.", v),
  agreement: (v) => t("{name} wins by agreement.", v),
  "board full": (v) => t("{name} wins (the board is full).", v),
  "board fullOnPoints": (v) => t("{name} wins on points (the board is full).", v),
  "no marbles": (v) => t("{name} wins (the player to move has no marble left).", v),
  "no marblesOnPoints": (v) => t("{name} wins on points (the player to move has no marble left).", v),
  "action limit": (v) => t("{name} wins (the action limit is reached).", v),
  "action limitOnPoints": (v) => t("{name} wins on points (the action limit is reached).", v),
  other: (v) => t("{name} wins.", v),
};

/** The seats left sharing the win (3-4 players), by the end reason. */
const SHARED = {
  resignation: (v) => t("{names} share the win by resignation.", v),
  abandoned: (v) => t("{names} share the win (the others left the game).", v),
  abandonedBy: (v) => t("{names} share the win ({by} left the game).", v),
  time: (v) => t("{names} share the win on time.", v),
};

/** A draw between several seats, by the end reason. */
const DRAWS = {
  line: (v) => t("Draw between {names} with a line.", v),
  points: (v) => t("Draw between {names} on points.", v),
  agreement: (v) => t("Draw between {names} by agreement.", v),
  "board full": (v) => t("Draw between {names} (the board is full).", v),
  "no marbles": (v) => t("Draw between {names} (the player to move has no marble left).", v),
  "action limit": (v) => t("Draw between {names} (the action limit is reached).", v),
  other: (v) => t("Draw between {names}.", v),
};

/** A finished game's `result` (GAME's: winners, reason, by, waited) in a whole sentence;
 *  `variant` tells a win on points from a win by the end alone, `who` names a colour. */
export function resultSentence(result, variant, who) {
  const r = result || {};
  const winners = r.winners || [];
  // who left is named where known: "the others" reads wrong when there is one
  const by = listed((r.by || []).map(who));
  if (r.reason === "aborted") {
    // a seat the clock waited for in vain did not choose to abort: say what happened
    if (r.waited && by) return t("The game was aborted: {by} did not come or act in time (no result).", { by });
    return by ? t("The game was aborted by {by}: no result.", { by }) : t("The game was aborted (no result).");
  }
  const reason = r.reason === "abandoned" && by ? "abandonedBy" : r.reason;
  const names = listed(winners.map(who));
  if (winners.length > 1 && SHARED_WINS.has(r.reason)) return SHARED[reason]({ names, by });
  if (winners.length > 1) return (DRAWS[reason] || DRAWS.other)({ names, by });
  if (winners.length === 1) {
    const byPoints = !!variant && variant !== "express" && ON_POINTS.has(r.reason);
    const name = who(winners[0]);
    return (ONE_WINS[byPoints ? `${reason}OnPoints` : reason] || ONE_WINS.other)({ name, by });
  }
  return t("Nobody wins.");
}
