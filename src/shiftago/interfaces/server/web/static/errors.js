// What an API error says to a person, in the page's language: every error answer
// carries a stable `code` (WEBAPI.md, "Languages"); its words are here, one message per
// code, and an error whose code has no words here shows the server's English message.
import { number, t } from "./i18n.js";

// functions, so that each message is looked up in the catalogue when it is shown
const WORDS = {
  not_found: () => t("This is not there (any more)."),
  invalid: () => t("That input is not valid."),
  signed_out: () => t("Sign in first."),
  sign_in: () => t("Sign in first."),
  wrong_credentials: () => t("Wrong name or password."),
  wrong_password: () => t("Wrong password."),
  account_closed: () => t("This account is closed."),
  csrf: () => t("The page is out of date: reload it and try again."),
  origin: () => t("The page is out of date: reload it and try again."),
  method_not_allowed: () => t("The server does not do that here."),
  too_large: () => t("That is too much to send at once."),
  too_many: () => t("Too many tries: wait a moment and try again."),
  busy: () => t("The server is busy: try again in a few seconds."),
  unavailable: () => t("The server cannot reach its database: try again in a few seconds."),
  server_error: () => t("The server failed to answer: please try again later."),
  rate_limited: () => t("Too many tries: wait a moment and try again."),
  // accounts: the rule a name or password breaks
  name_form: () => t("A name is 3 to 20 characters: the letters a-z without accents, digits, _ or -."),
  name_letter: () => t("A name needs at least one letter or digit."),
  name_reserved: () => t("This name is kept for the site: choose another."),
  name_taken: () => t("This name is taken: choose another."),
  name_too_like: () => t("This name is too like an existing name: choose another."),
  password_length: () => t("A password has {least} to {most} characters.", { least: number(8), most: number(200) }),
  password_common: () => t("This password is one of the most common ones, which are guessed first: choose another."),
  // challenges, open and to a player
  not_yours: () => t("This challenge is not yours to answer."),
  own: () => t("This challenge is your own."),
  filled: () => t("Another player took the last place first."),
  declined: () => t("This challenge was declined."),
  gone: () => t("This challenge is gone: its creator left or cancelled it."),
  not_creator: () => t("Only the challenge's creator can cancel it."),
  rating_range: () => t("Your rating is outside this challenge's range."),
  account_name: () => t("This name belongs to an account: sign in to play under it, or choose another."),
  too_many_challenges: () => t("You have too many open challenges: cancel one first."),
  no_player: () => t("There is no player of that name."),
};

/** The words of an API error's answer (`data`: its JSON body), or "" when none: the
 * reason the server said in the page's language (`words`, a refused record's missing
 * header) first, else the words of its code. */
export function errorWords(data, fallback = "") {
  if (data && typeof data === "object" && typeof data.words === "string" && data.words) return data.words;
  const words = data && typeof data === "object" ? WORDS[data.code] : undefined;
  if (words) return words();
  if (data && typeof data === "object" && typeof data.message === "string") return data.message;
  return fallback;
}
