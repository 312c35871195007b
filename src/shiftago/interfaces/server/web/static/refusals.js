// What a refusal on the game's socket, or of an action on a position (the analysis board's
// and the puzzles' POST /api/positions/play), says to a person, in the page's language: the
// server's `error` event carries a stable `code` (docs/web-protocol.md, "Error codes")
// and, where one code covers several causes, a `reason`; its English `message` is shown
// only for a code this page has no words for.
import { errorWords } from "./errors.js";
import { eitherOf, number, t, tn } from "./i18n.js";

// functions, so that each message is looked up in the catalogue when it is shown
const BY_REASON = {
  not_an_action: (v) => t("'{action}' is not an action: an insertion is a side L, R, T or B and a lane (L3, Tc), a scoring is x and the two end cells of the line (xc3-g3).", v),
  score_first: (v) => t("A line must be scored first; {action} is not allowed now.", v),
  no_line_to_score: (v) => t("There is no line to score; {action} is not allowed now.", v),
  // the game socket's name for a scoring that is not one of the lines to score
  not_legal: (v) => linesWords(v),
  lane_full: (v) => t("{action} cannot be played: its lane is full, and a marble may never be pushed off the board.", v),
  apart: (v) => t("{action} is not allowed: while only your marbles are on the board, they may not touch along a rank or file.", v),
  game_over: () => t("The game is over."),
  chat_too_fast: (v) => tn("You may send at most {n} chat message in {seconds} seconds: wait a little.", "You may send at most {n} chat messages in {seconds} seconds: wait a little.", v.limit, v),
  draw_players: () => t("Draws are offered only in 2-player games."),
  draw_computer: () => t("The computer does not take draw offers."),
  draw_standing: () => t("Your draw offer stands already."),
  draw_to_answer: () => t("Answer the draw offer first."),
  draw_declined: () => t("Your draw offer was declined: offer again after the next action."),
  no_draw_offer: () => t("There is no draw offer to answer."),
  abort_computer: () => t("Only a person's seat aborts the game."),
  abort_under_way: () => t("The game is under way: you have played already (resign instead)."),
  claim_own_seat: () => t("Only another player's seat can be claimed."),
  claim_present: () => t("That player is here."),
  claim_early: () => t("That player has not been away long enough yet."),
  claim_correspondence: () => t("In a game of days per move a player may be away between moves: only their clock ends a move not played."),
  not_finished: () => t("A rematch follows a finished game."),
  rematch_failed: () => t("The rematch could not be made."),
  nothing_to_take_back: () => t("There is no action to take back."),
  takeback_every_seat: () => t("Between people an action is taken back only on a device that holds every seat."),
  next_made: () => t("The next game is made: this game's result stands."),
  spectator: () => t("Spectators can only watch."),
  computer_seat: () => t("The computer plays this seat now; you watch."),
};

/** Why a scoring is refused that is not one of the lines to score, with the lines that
 * are (`v.lines`, as the page's list of choices holds them): the game page said only
 * "xa1-a5 is not legal now", and a blind player heard no way on. */
function linesWords(v) {
  const lines = v.lines || [];
  if (!lines.length) return t("{action} is not one of the lines to score here.", v);
  return tn("{action} is not the line to score: you can score {lines}.", "{action} is not one of the lines to score: you can score {lines}.", lines.length, { ...v, lines: eitherOf(lines) });
}

/** The reasons whose words name the action refused. */
const NAMES_ACTION = new Set(["not_an_action", "score_first", "no_line_to_score", "not_legal", "lane_full", "apart"]);

const BY_CODE = {
  not_found: () => t("This game does not exist."),
  unavailable: () => t("The server cannot reach its database: try again in a few seconds."),
  not_seated: () => t("Spectators can only watch."),
  over: () => t("The game is over."),
  not_your_turn: () => t("It is not your turn."),
  illegal: () => t("That action is not legal now."),
  stale: () => t("The game has moved on: try again."),
  time: () => t("The time has run out."),
  aborted: () => t("The game was aborted: a player did not come or act in time."),
  rate_limited: () => t("Too many messages at once: wait a little and try again."),
  bad_message: () => t("The server could not read that message: reload the page and try again."),
  not_allowed: () => t("That is not allowed now."),
};

/** The words of a socket's `error` event `msg` in the page's language; `action` is
 *  the action this page sent, named by the words of a refused action, and `lines` the
 *  scorings the game offers now (GAME `scoring`), named by a refused scoring's. */
export function refusalWords(msg, action = "", lines = []) {
  const data = msg && typeof msg === "object" ? msg : {};
  const byReason = BY_REASON[data.reason];
  // a refused action's words name it: without the action, the code's words
  const values = { action, lines, limit: Number(data.limit) || 0, seconds: number(Number(data.seconds) || 0) };
  if (byReason && (action || !NAMES_ACTION.has(data.reason))) return byReason(values);
  if (BY_CODE[data.code]) return BY_CODE[data.code]();
  if (typeof data.message === "string" && data.message) return data.message;
  return t("The server refused that ({code}).", { code: String(data.code ?? "") });
}

/** Why POST /api/positions/play refused an action, by the answer's `reason`
 * (docs/web-protocol.md, "The analysis board"): `{action}` the action, `{name}` the
 * colour to act. The analysis board and the puzzles share them: the puzzles page showed
 * the core's English words ("illegal move: xa1-a5 (no such scoring line)"). */
const ACTION_REFUSALS = {
  not_an_action: (v) => t("{action} is not an action: actions are written like L3, Tc or xc3-g3.", v),
  game_over: () => t("The game is over in this position."),
  score_first: (v) => t("{name} must score a line first: {action} is not possible now.", v),
  nothing_to_score: (v) => t("There is no line to score: {action} is not possible now.", v),
  no_such_line: (v) => t("{action} is not one of the lines to score here.", v),
  not_allowed: (v) => t("{action} is not allowed here: its lane is full, or it breaks the rule of the first marbles.", v),
};

/** The words of a refused request (`err`, as api.js throws it): the core's refusal
 * (code `invalid`, its English words) by its `reason` from `table`, else `words`; any
 * other code errors.js's. */
export function invalidWords(err, table, words, values = {}) {
  const data = err && err.data;
  if (!data || typeof data !== "object") return words;
  if (data.code !== "invalid") return errorWords(data, words);
  const said = table[data.reason];
  return said ? said(values) : words;
}

/** Why an action on a position was refused, in words: `values.action` the action,
 * `values.name` the colour to act. */
export function positionActionWords(err, values) {
  return invalidWords(err, ACTION_REFUSALS, t("That action is not possible here."), values);
}
