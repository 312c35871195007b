// The names a person reads for the colours (as labels), the variants and the computer's
// levels, in the page's language: every page says them through here (api.js passes them
// on). Functions, so that each word is looked up in the catalogue when it is shown.
import { number, t } from "./i18n.js";

const COLOUR_WORDS = {
  o: () => t("Orange"),
  g: () => t("Green"),
  b: () => t("Blue"),
  w: () => t("White"),
};

// the variants' names are the rulebook's in every language
const VARIANT_WORDS = {
  express: () => t("Express"),
  expert: () => t("Expert"),
  extreme: () => t("Extreme"),
};

/** A colour's name ("o" -> "Orange"); an unknown letter as it is. */
export function colourName(colour) {
  const words = COLOUR_WORDS[colour];
  return words ? words() : String(colour ?? "");
}

/** A variant's name ("express" -> "Express"); an unknown one as it is. */
export function variantName(variant) {
  const words = VARIANT_WORDS[variant];
  return words ? words() : String(variant ?? "");
}

// the computer's levels by the names the server gives them (engine/levels.py)
const LEVEL_WORDS = {
  beginner: () => t("beginner"),
  greedy: () => t("greedy"),
  novice: () => t("novice"),
  casual: () => t("casual"),
  club: () => t("club"),
  strong: () => t("strong"),
  maximum: () => t("maximum"),
};

/** A level's name ("club") in the page's words; a name not listed as the server says it. */
export function levelName(name) {
  const words = Object.hasOwn(LEVEL_WORDS, name) ? LEVEL_WORDS[name] : null;
  return words ? words() : String(name ?? "");
}

/** A level as a choice reads it ("3: novice"); a level without a name as its number. */
export function levelWords({ level, name }) {
  if (!name) return number(level);
  return t("{level}: {name}", { level: number(level), name: levelName(name) });
}
