// Small helpers for building SVG and HTML without a framework.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children (strings become text nodes). */
export function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** An HTML element: `html("button", {class: "btn", onclick: f}, ["Play"])`. */
export function html(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

let uniqueCounter = 0;
/** An id that is unique in the page (gradients and markers live in one document-wide namespace). */
export function uniqueId(prefix) {
  uniqueCounter += 1;
  return `${prefix}-${uniqueCounter}`;
}

/** A glossy disc gradient: light spot up-left, darker rim. */
export function discGradient(id, light, mid, dark) {
  return svg("radialGradient", { id, cx: "35%", cy: "30%", r: "75%" }, [
    svg("stop", { offset: "0%", "stop-color": light }),
    svg("stop", { offset: "45%", "stop-color": mid }),
    svg("stop", { offset: "100%", "stop-color": dark }),
  ]);
}

/** An arrow marker for move lines. */
export function arrowMarker(id, colour) {
  return svg("marker", {
    id, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto-start-reverse",
  }, [svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour })]);
}
