// Making SVG elements: the one helper of every script that draws in SVG.
const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with its attributes (null and undefined left out), added to `parent`. */
export function svgEl(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}
