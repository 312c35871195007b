// What an API error says to a person, in the page's language: every error answer
// carries a stable `code` (WEBAPI.md, "Languages"); its words are here, one message per
// code, and an error whose code has no words here shows the server's English message.
import { t } from "./i18n.js";

// functions, so that each message is looked up in the catalogue when it is shown
const WORDS = {
  not_found: () => t("This is not there (any more)."),
  invalid: () => t("That input is not valid."),
  signed_out: () => t("Sign in first."),
  sign_in: () => t("Sign in first."),
  wrong_credentials: () => t("Wrong name or password."),
  account_closed: () => t("This account is closed."),
  csrf: () => t("The page is out of date: reload it and try again."),
  origin: () => t("The page is out of date: reload it and try again."),
  method_not_allowed: () => t("The server does not do that here."),
  too_large: () => t("That is too much to send at once."),
  too_many: () => t("Too many tries: wait a moment and try again."),
  busy: () => t("The server is busy: try again in a few seconds."),
  unavailable: () => t("The server cannot reach its database: try again in a few seconds."),
  server_error: () => t("The server failed to answer: please try again later."),
};

/** The words of an API error's answer (`data`: its JSON body), or "" when none. */
export function errorWords(data, fallback = "") {
  const words = data && typeof data === "object" ? WORDS[data.code] : undefined;
  if (words) return words();
  if (data && typeof data === "object" && typeof data.message === "string") return data.message;
  return fallback;
}
