// The names a person reads for the colours (as labels and inside sentences), the
// variants, the computer's levels and the seats, in the page's language: every page
// says them through here (api.js passes some on). Functions, so that each word is
// looked up in the catalogue when it is shown.
import { listed, number, t } from "./i18n.js";

const COLOUR_WORDS = {
  o: () => t("Orange"),
  g: () => t("Green"),
  b: () => t("Blue"),
  w: () => t("White"),
};

// the colours as they read inside a sentence ("green")
const COLOUR_IN_SENTENCE = {
  o: () => t("orange"),
  g: () => t("green"),
  b: () => t("blue"),
  w: () => t("white"),
};

// the variants' names are the rulebook's in every language
const VARIANT_WORDS = {
  express: () => t("Express"),
  expert: () => t("Expert"),
  extreme: () => t("Extreme"),
};

/** The colours' English names, as the server names a seat with none: a key the pages
 * compare names with, not words to show. */
export const COLOUR_NAMES = { o: "orange", g: "green", b: "blue", w: "white" };

/** The name the server gives a computer's seat with none (games/routes.py): a word. */
const COMPUTER = "Computer";
// the name the lobby gives a seat whose guest typed none (seeks/routes.py)
const GUEST = "Guest";

/** A colour's name ("o" -> "Orange"); an unknown letter as it is. */
export function colourName(colour) {
  const words = COLOUR_WORDS[colour];
  return words ? words() : String(colour ?? "");
}

/** A colour's name as it reads inside a sentence ("o" -> "orange"). */
export function colourWord(colour) {
  const words = COLOUR_IN_SENTENCE[colour];
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
  easy: () => t("easy"),
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

/** A level as a list of levels names it: "Level 3 (novice)", or "Level 3" without a name. */
export function levelLabel({ level, name }) {
  return name ? t("Level {level} ({name})", { level: number(level), name: levelName(name) }) : t("Level {level}", { level: number(level) });
}

/** A level as a choice reads it ("3: novice"); a level without a name as its number. */
export function levelWords({ level, name }) {
  if (!name) return number(level);
  return t("{level}: {name}", { level: number(level), name: levelName(name) });
}

/** A person's name as typed, but the name the lobby gives a guest who typed none
 * ("Guest", a word the server stores in English), which reads in the page's language. */
export function personName(name, account) {
  return name === GUEST && !account ? t("Guest") : String(name ?? "");
}

/** Whether `seat` is a computer's with the name the server gives it when none is typed. */
function namedComputer(seat) {
  return !!seat && seat.kind === "computer" && seat.name === COMPUTER;
}

/** A seat's name as a person reads it: the names the server gives seats with none (a
 * computer's, or the seat's colour in English) in the page's language, other names as
 * typed. A computer so named in a game with two or more of them also says its colour,
 * so that "Computer (green) wins" tells which. `seats`: the game's seats. */
export function seatName(seat, seats = []) {
  if (!seat || !seat.name) return colourName(seat && seat.colour);
  if (namedComputer(seat)) {
    const twins = seats.filter(namedComputer).length > 1;
    return twins ? t("{name} ({colour})", { name: t("Computer"), colour: colourWord(seat.colour) }) : t("Computer");
  }
  if (seat.name === GUEST && !seat.account) return personName(seat.name, null);
  return seat.name.toLowerCase() === COLOUR_NAMES[seat.colour] ? colourName(seat.colour) : seat.name;
}

/** A seat's name where it says more than its colour ("Ann", "Computer"), else "": a
 * seat named by its colour is not named twice. */
export function nameBesideColour(seat) {
  const name = seatName(seat);
  return name.toLowerCase() === colourName(seat.colour).toLowerCase() ? "" : name;
}

/** A seat as words with its colour ("Ann (green)", "Computer (green)"), or its colour
 * alone where its name is that colour: for the places that name one seat among others
 * without its marble beside it. */
export function seatWithColour(seat) {
  const name = nameBesideColour(seat);
  return name ? t("{name} ({colour})", { name, colour: colourWord(seat.colour) }) : colourName(seat.colour);
}

/** The question about another seat's link: the colours this browser plays (`mine`),
 *  the colour the link is for (undefined: not known). */
export function anotherSeatWords(mine, colour) {
  const values = { mine: listed(mine.map(colourWord)), theirs: colour === undefined ? "" : colourWord(colour) };
  if (!mine.length && colour === undefined) {
    return t("This browser already plays a seat in this game, and this link is for another seat. If you made it for a friend, send it to them; play it here only if both seats are played on this screen.");
  }
  if (!mine.length) {
    return t("This browser already plays a seat in this game, and this link is for {theirs}. If you made it for a friend, send it to them; play it here only if both seats are played on this screen.", values);
  }
  if (colour === undefined) {
    return t("This browser already plays {mine} in this game, and this link is for another seat. If you made it for a friend, send it to them; play it here only if both seats are played on this screen.", values);
  }
  return t("This browser already plays {mine} in this game, and this link is for {theirs}. If you made it for a friend, send it to them; play it here only if both seats are played on this screen.", values);
}
