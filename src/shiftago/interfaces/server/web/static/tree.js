// The analysis board's variation tree, as data only: no page, no server. A node holds
// the action that leads to it, what the page keeps about its position (`data`), its
// parent and its children; the first child continues the line, the others are side
// lines. The tree is written as text the way records write variations, each side line
// in brackets after the action it replaces: "Td Tc (L4 Ta) Te". A text without brackets
// is one line, so that the single-line addresses of before still read.

/** A text that is no tree (unbalanced brackets, a bracket with no action before it). */
export class TreeSyntaxError extends Error {}

/** A node; `data` is what the page keeps for its position. */
function makeNode(action, data, parent) {
  return { action, data, parent, children: [] };
}

/** A tree whose root is the start position, with no action. */
export function newTree(data) {
  return makeNode(null, data, null);
}

/** The child of `node` reached by `action` (compared regardless of case), or null. */
export function childBy(node, action) {
  const key = String(action).toLowerCase();
  return node.children.find((c) => String(c.action).toLowerCase() === key) || null;
}

/** The child reached by `action`: the one there already, or a new one after the others
 * (a new side line where the node has a continuation: nothing is cut). */
export function addChild(node, action, data) {
  const known = childBy(node, action);
  if (known) return known;
  const child = makeNode(action, data, node);
  node.children.push(child);
  return child;
}

/** The nodes from the root to `node`, both included. */
export function pathTo(node) {
  const out = [];
  for (let n = node; n; n = n.parent) out.unshift(n);
  return out;
}

/** How many actions lead from the root to `node`. */
export function depth(node) {
  return pathTo(node).length - 1;
}

/** The line shown from `node` on: each node's first child, to the end. */
export function lineEnd(node) {
  let n = node;
  while (n.children.length) n = n.children[0];
  return n;
}

/** True where `node` lies on the main line (every step a first child). */
export function onMainLine(node) {
  return pathTo(node).every((n) => !n.parent || n.parent.children[0] === n);
}

/**
 * The node `step` siblings away (-1 the line above, +1 the line below), at the same
 * branch as `node`, or at the nearest branch above it where `node` has no sibling; null
 * where there is none that way.
 */
export function sibling(node, step) {
  for (let n = node; n && n.parent; n = n.parent) {
    const kids = n.parent.children;
    if (kids.length < 2) continue;
    const i = kids.indexOf(n) + step;
    return i >= 0 && i < kids.length ? kids[i] : null;
  }
  return null;
}

/** Make the line through `node` the main line: at each branch on its way it moves first. */
export function promote(node) {
  for (const n of pathTo(node)) {
    if (!n.parent) continue;
    const kids = n.parent.children;
    kids.splice(kids.indexOf(n), 1);
    kids.unshift(n);
  }
}

/** Remove `node` and all that follows it; answers its parent, where the page goes. */
export function cut(node) {
  if (!node.parent) throw new RangeError("The start position cannot be deleted.");
  const kids = node.parent.children;
  kids.splice(kids.indexOf(node), 1);
  return node.parent;
}

/**
 * The tree's nodes in the order its text writes them (the root first, as 0): the line
 * on, each side line whole right after the action it replaces. The address names the
 * node shown by this number.
 */
export function writtenOrder(root) {
  const out = [root];
  const walk = (node) => {
    for (let n = node; n.children.length; ) {
      const [main, ...sides] = n.children;
      out.push(main);
      for (const side of sides) {
        out.push(side);
        walk(side);
      }
      n = main;
    }
  };
  walk(root);
  return out;
}

/** The tree's actions as text: "Td Tc (L4 Ta) Te". */
export function writeTree(root) {
  const line = (node) => {
    const words = [];
    for (let n = node; n.children.length; ) {
      const [main, ...sides] = n.children;
      words.push(main.action);
      for (const side of sides) words.push(`(${[side.action, ...line(side)].join(" ")})`);
      n = main;
    }
    return words;
  };
  return line(root).join(" ");
}

/**
 * The tree a text writes, its nodes' data null; spaces or commas part the actions (the
 * old single lines). Throws TreeSyntaxError for unbalanced brackets, a side line with
 * no action before it, or an action written twice at one branch.
 */
export function readTree(text) {
  const root = newTree(null);
  const open = []; // the node each open bracket returns to
  let at = root;
  for (const token of String(text).match(/[()]|[^\s(),]+/g) || []) {
    if (token === "(") {
      if (!at.parent) throw new TreeSyntaxError("A side line needs an action before it to replace.");
      open.push(at);
      at = at.parent;
    } else if (token === ")") {
      if (!open.length) throw new TreeSyntaxError("A bracket closes no side line.");
      at = open.pop();
    } else {
      if (childBy(at, token)) throw new TreeSyntaxError(`${token} is written twice at one branch.`);
      at = addChild(at, token, null);
    }
  }
  if (open.length) throw new TreeSyntaxError("A side line is not closed.");
  return root;
}

/** How many actions the tree holds. */
export function size(root) {
  return writtenOrder(root).length - 1;
}
