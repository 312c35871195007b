// The page's language (the <html lang> the server chose) and its words: the catalogue
// GET /static/i18n/{lang}.json, which the server builds from the language's .po, is
// loaded once before any script that imports this module runs (top-level await).
//
//   t("Hello {name}", {name})           a message, its placeholders filled in
//   tn("{n} game", "{n} games", n, {})  the plural form the language's rule picks
//   number(x, options)  date(d, options)  duration(seconds)  clock(seconds)
//                                       numbers, dates and times in the page's language
//
// Messages are whole sentences with named placeholders, never glued pieces; an English
// msgid is its own text, and a message missing from a catalogue shows in English.

/** The page's language: "en", "de", ... */
export const lang = globalThis.document?.documentElement.lang || "en";

/** The catalogue: msgid -> text, or -> the plural forms in gettext's order. */
let messages = {};
/** The CLDR plural categories of the catalogue's forms, in their order. */
let categories = ["one", "other"];

if (lang !== "en") {
  try {
    const answer = await fetch(`/static/i18n/${encodeURIComponent(lang)}.json`);
    if (answer.ok) {
      const catalogue = await answer.json();
      messages = catalogue.messages || {};
      categories = catalogue.plural || categories;
    }
  } catch {
    /* no catalogue reachable: the page shows its English words */
  }
}

const rules = new Intl.PluralRules(lang);

function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (whole, name) =>
    values && Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** The message `msgid` in the page's language, with `{name}` placeholders filled. */
export function t(msgid, values = {}) {
  const found = messages[msgid];
  const text = typeof found === "string" ? found : Array.isArray(found) ? found[0] : msgid;
  return fill(text, values);
}

/** The index of `n`'s plural form: the category Intl gives, at its place in gettext's
 * order (the server sends that order with the catalogue); "other" when not listed. */
export function pluralIndex(n, list = categories, select = (x) => rules.select(x)) {
  const index = list.indexOf(select(Math.abs(n)));
  return index >= 0 ? index : list.length - 1;
}

/** The plural message for `n`; `{n}` is the number in the page's forms. */
export function tn(singular, plural, n, values = {}) {
  const forms = messages[singular];
  let text;
  if (Array.isArray(forms) && forms.length === categories.length) text = forms[pluralIndex(n)];
  else text = n === 1 ? singular : plural;
  return fill(text, { n: number(n), ...values });
}

/** A number in the page's language ("1.234,5" in German). */
export function number(x, options = {}) {
  return new Intl.NumberFormat(lang, options).format(x);
}

/** A date (and, with options, its time) in the page's language. */
export function date(d, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(lang, options).format(d instanceof Date ? d : new Date(d));
}

/** A span of time in words ("2 hours, 5 minutes"; "2 Stunden und 5 Minuten"). */
export function duration(seconds) {
  const whole = Math.max(0, Math.round(seconds));
  const parts = [
    ["day", Math.floor(whole / 86400)],
    ["hour", Math.floor((whole % 86400) / 3600)],
    ["minute", Math.floor((whole % 3600) / 60)],
    ["second", whole % 60],
  ].filter(([, amount], i, all) => amount > 0 || (i === all.length - 1 && whole === 0));
  const words = parts.map(([unit, amount]) =>
    new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(amount),
  );
  return new Intl.ListFormat(lang, { style: "long", type: "unit" }).format(words);
}

/** Words joined as the page's language lists them: "a", "a and b", "a, b and c". */
export function listed(words) {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(words);
}

/** Choices joined as the page's language offers them: "a", "a or b", "a, b or c". */
export function eitherOf(words) {
  return new Intl.ListFormat(lang, { style: "long", type: "disjunction" }).format(words);
}

/** A clock's time: "4:05", "1:02:03", or "9.5" under ten seconds, digits of the page. */
export function clock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return number(Math.floor(s * 10) / 10, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const total = Math.floor(s);
  const two = (x) => number(x, { minimumIntegerDigits: 2 });
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const rest = two(total % 60);
  return h ? `${number(h)}:${two(m)}:${rest}` : `${number(m)}:${rest}`;
}
