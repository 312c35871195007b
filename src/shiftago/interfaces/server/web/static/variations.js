// The analysis board's move list: the main line of the variation tree (tree.js), each
// side line in brackets right after the action it replaces, nested as deep as it goes.
// Every action is a button that shows the position after it; `data-node` is the
// node's number in the tree's written order (the address's `at=`).
import { marbleIcon } from "./board.js";
import { el } from "./api.js";
import { number, t } from "./i18n.js";
import { colourName } from "./gamewords.js";
import { depth, onMainLine, pathTo, writtenOrder } from "./tree.js";

/** The list's words, whole sentences (functions: looked up when shown). */
const WORDS = {
  start: () => t("Start"),
  label: (values) => t("{step}. {action} by {who}", values),
  labelSide: (values) => t("{step}. {action} by {who}, side line", values),
};

/** What a node's button and label name: its step, its action, its mover. */
function valuesOf(node) {
  const mover = moverOf(node);
  return { step: number(depth(node)), action: node.action, who: mover ? colourName(mover) : "" };
}

/** The mover of `node`'s action: the side to act in the position before it. */
function moverOf(node) {
  return node.parent && node.parent.data ? node.parent.data.turn : null;
}

/**
 * Draw the tree into `box`; `current` is the node shown, `go(node)` shows another. The
 * nodes on the way to the current one are marked (`.on-path`).
 */
export function drawVariations(box, root, current, go) {
  const order = new Map(writtenOrder(root).map((n, i) => [n, i]));
  const onPath = new Set(pathTo(current));
  const button = (node) => {
    const attrs = {
      type: "button",
      class: `var-move small${node === current ? " current" : ""}${onPath.has(node) ? " on-path" : ""}`,
      "data-node": order.get(node),
      "aria-current": node === current ? "step" : null,
    };
    if (!node.parent) {
      const b = el("button", { ...attrs, text: WORDS.start() });
      b.addEventListener("click", () => go(node));
      return b;
    }
    const mover = moverOf(node);
    const values = valuesOf(node);
    attrs["data-move"] = node.action;
    attrs["aria-label"] = onMainLine(node) ? WORDS.label(values) : WORDS.labelSide(values);
    // the step's number and the action's notation: no words to translate
    const b = el("button", attrs, marbleIcon(mover || "o", 14), ` ${values.step}. ${node.action}`);
    b.addEventListener("click", () => go(node));
    return b;
  };
  // a line from `node` on: each first child, each other child bracketed after it
  const line = (node, into) => {
    for (let n = node; n.children.length; ) {
      const [main, ...sides] = n.children;
      into.append(button(main));
      for (const side of sides) {
        const group = el("span", { class: "var-side", role: "group", "aria-label": WORDS.labelSide(valuesOf(side)) });
        group.append(el("span", { class: "var-bracket", "aria-hidden": "true", text: "(" }), button(side));
        line(side, group);
        group.append(el("span", { class: "var-bracket", "aria-hidden": "true", text: ")" }));
        into.append(group);
      }
      n = main;
    }
  };
  box.replaceChildren(button(root));
  line(root, box);
  const cur = box.querySelector(".current");
  if (cur && box.scrollHeight > box.clientHeight) box.scrollTop = cur.offsetTop - box.clientHeight / 2;
}
