// The marbles as they look: a colour and a symbol per colour, so that colour is never
// the only sign (orange plain, green a ring, blue a dot, white a cross).
import { colourName as colourLabel, colourWord } from "../gamewords.js";
import { C } from "./geometry.js";
import { svgEl as el } from "./svg.js";

export const COLOURS = ["o", "g", "b", "w"];

/** A colour's name in the page's language, as it reads inside a sentence ("green"). */
export const colourName = colourWord;

/** A colour's name as a seat's name, at the start of a sentence ("Green"): the label's
 * words of gamewords.js, the one home of the colours' names as labels. */
export function colourTitle(colour) {
  return colourLabel(colour);
}
export const MARBLE_FILL = { o: "#f08a24", g: "#2e9e4f", b: "#2f6bd8", w: "#fafafa" };
export const SYMBOLS = { o: "none", g: "ring", b: "dot", w: "cross" };
const SYMBOL_INK = { o: "#ffffff", g: "#ffffff", b: "#ffffff", w: "#222222" };

/** A marble (group centred on 0,0) with its colour's symbol. */
export function marbleShape(colour, r = C * 0.4, parent = null) {
  const g = el("g", { class: `marble-shape colour-${colour}` }, parent);
  el("circle", { r, fill: MARBLE_FILL[colour] || "#888", stroke: "#1e1e1e", "stroke-width": 2.5, class: "body" }, g);
  const ink = SYMBOL_INK[colour] || "#fff";
  const symbol = SYMBOLS[colour];
  if (symbol === "ring") {
    el("circle", { r: r * 0.5, fill: "none", stroke: ink, "stroke-width": 3.5 * (r / (C * 0.4)) }, g);
  } else if (symbol === "dot") {
    el("circle", { r: r * 0.3, fill: ink }, g);
  } else if (symbol === "cross") {
    const d = r * 0.42;
    el("path", {
      d: `M${-d} ${-d}L${d} ${d}M${-d} ${d}L${d} ${-d}`,
      stroke: ink,
      "stroke-width": 3.5 * (r / (C * 0.4)),
      "stroke-linecap": "round",
      fill: "none",
    }, g);
  }
  return g;
}

/** A small standalone marble icon (for player panels and lists). */
export function marbleIcon(colour, size = 22) {
  const svg = el("svg", { viewBox: "-26 -26 52 52", width: size, height: size, class: "marble-icon", "aria-hidden": "true", focusable: "false" });
  marbleShape(colour, 22, svg);
  return svg;
}
