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

// ---- squares ----

/** "d3" → {file: 3, rank: 3} (file from 0, rank as written; ranks may have two digits). */
export function fileRank(square) {
  return { file: square.charCodeAt(0) - 97, rank: Number(square.slice(1)) };
}

/** The name of the square in column `file` (from 0) and row `rank` (as written). */
export function squareName(file, rank) {
  return `${String.fromCharCode(97 + file)}${rank}`;
}

/**
 * Coordinates around a square board: `top[i]` over column i and `side[i]` beside row i, on all
 * four sides, in a margin of `margin` around `count` cells of `cell` units.
 */
export function coordLabels({ count, cell, margin, top, side }) {
  const span = count * cell + 2 * margin;
  const labels = svg("g", { class: "coords", "aria-hidden": "true" });
  for (let i = 0; i < count; i += 1) {
    const along = margin + i * cell + cell / 2;
    labels.append(
      svg("text", { x: along, y: margin / 2 + 2 }, [top[i]]),
      svg("text", { x: along, y: span - margin / 2 + 2 }, [top[i]]),
      svg("text", { x: margin / 2, y: along + 2 }, [side[i]]),
      svg("text", { x: span - margin / 2, y: along + 2 }, [side[i]]),
    );
  }
  return labels;
}

/** A line through the centres of `squares`, stopped `shorten` short of the last so its arrow shows. */
export function routeLine(squares, centre, { marker, cls, shorten = 30 }) {
  const points = squares.map(centre);
  const a = points[points.length - 2];
  const b = points[points.length - 1];
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const end = { x: b.x - ((b.x - a.x) / len) * shorten, y: b.y - ((b.y - a.y) / len) * shorten };
  const d = points.slice(0, -1).map((p, i) => `${i ? "L" : "M"} ${p.x} ${p.y}`).join(" ") + ` L ${end.x} ${end.y}`;
  return svg("path", { d, class: cls, "marker-end": `url(#${marker})` });
}

/** Slides `group` (drawn at `to`) in from `from` once it is in the page. */
export function slideIn(group, from, to) {
  group.style.transform = `translate(${from.x - to.x}px, ${from.y - to.y}px)`;
  group.classList.add("sliding");
  requestAnimationFrame(() => requestAnimationFrame(() => { group.style.transform = ""; }));
  return group;
}

/** The path of an ✕ of half-width `r` centred on (x, y): the mark of a capture. */
export function crossPath(x, y, r) {
  return `M ${x - r} ${y - r} L ${x + r} ${y + r} M ${x + r} ${y - r} L ${x - r} ${y + r}`;
}

/** A capture mark on `square`: a small disc of what was taken with an ✕, up-right of the centre. */
export function captureBadge(square, centre, { fill, offset = 32, r = 17 }) {
  const { x, y } = centre(square);
  return svg("g", { class: "captured-badge", "data-captured": square }, [
    svg("circle", { cx: x + offset, cy: y - offset, r, fill, class: "badge-body" }),
    svg("path", { d: crossPath(x + offset, y - offset, r / 2), class: "badge-cross" }),
  ]);
}

/** Destination dots (`targets` [{square, capture}]) and numbered labels ({square: text}). */
export function targetLayer(targets, labels, centre, { dot = 15, ring = 43, big = new Set() } = {}) {
  const layer = svg("g", { class: "targets" });
  for (const { square, capture } of targets ?? []) {
    const { x, y } = centre(square);
    let cls = "target";
    if (capture) cls += " target-capture";
    if (big.has(square)) cls += " target-centre";
    layer.append(svg("circle", { cx: x, cy: y, r: capture ? ring : (big.has(square) ? dot + 5 : dot), class: cls,
      "data-target": square }));
  }
  for (const [square, text] of Object.entries(labels ?? {})) {
    const { x, y } = centre(square);
    layer.append(svg("g", { class: "label-mark" }, [
      svg("circle", { cx: x, cy: y, r: 22 }), svg("text", { x, y: y + 1 }, [String(text)]),
    ]));
  }
  return layer;
}

// ---- the click layer: mouse, touch and keyboard ----

/** The squares a click means something on, from a board's marks: pickable, picked, targets. */
export function liveSquares(marks) {
  return new Set([...(marks.starts ?? []), ...(marks.selected ?? []), ...(marks.targets ?? []).map((t) => t.square)]);
}

/** The square in the direction (dx, dy) from `from`, among `cells` [{square, x, y}]: the nearest one
 * that lies more in that direction than across it. */
function neighbour(cells, from, dx, dy) {
  let best = null;
  let bestScore = Infinity;
  for (const cell of cells) {
    const along = (cell.x - from.x) * dx + (cell.y - from.y) * dy;
    const across = Math.abs((cell.x - from.x) * dy - (cell.y - from.y) * dx);
    if (along <= 0 || across > along) continue;
    const score = along + 2 * across;
    if (score < bestScore) {
      best = cell;
      bestScore = score;
    }
  }
  return best;
}

const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/**
 * One hit area per square on top of everything, so that a click lands on a square whatever is
 * drawn there, and one tab stop for the whole board: the arrow keys move between squares (roving
 * tabindex), Enter or Space clicks. `squares`: names; `centre(square)` → {x, y}; `size`: the side of
 * a hit area; `live`: Set of squares a click means something on; `name(square)` → what a screen
 * reader says ("e4, black piece"); `current`: the square that holds the tab stop.
 */
export function clickLayer({ squares, centre, size, live = new Set(), name = (s) => s, current = null, onClick }) {
  const hits = svg("g", { class: "hits" });
  const cells = squares.map((square) => ({ square, ...centre(square) }));
  const stop = squares.includes(current) ? current : (squares.find((s) => live.has(s)) ?? squares[0]);
  const byName = new Map();
  for (const { square, x, y } of cells) {
    const hit = svg("rect", {
      x: x - size / 2, y: y - size / 2, width: size, height: size, "data-hit": square, role: "button",
      tabindex: square === stop ? 0 : -1, "aria-label": name(square), class: live.has(square) ? "hit live" : "hit",
    });
    byName.set(square, hit);
    hits.append(hit);
  }
  hits.addEventListener("click", (event) => {
    const square = event.target?.getAttribute?.("data-hit");
    if (square) onClick(square);
  });
  hits.addEventListener("keydown", (event) => {
    const square = event.target?.getAttribute?.("data-hit");
    if (!square) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onClick(square);
      return;
    }
    const step = ARROWS[event.key];
    if (!step) return;
    event.preventDefault();
    const next = neighbour(cells, cells.find((c) => c.square === square), ...step);
    if (!next) return;
    byName.get(square).setAttribute("tabindex", "-1");
    const target = byName.get(next.square);
    target.setAttribute("tabindex", "0");
    target.focus();
  });
  return hits;
}

/**
 * One tab stop for a row of HTML items (cards of a hand, pieces of a row): the items matching
 * `selector` inside `container` take turns holding tabindex 0, the arrow keys move between them.
 * `current` (an index) holds the stop first. Returns `container`.
 */
export function roving(container, selector, current = null) {
  const items = () => [...container.querySelectorAll(selector)];
  const all = items();
  const start = all[current ?? -1] ? current : 0;
  all.forEach((item, i) => item.setAttribute("tabindex", i === start ? "0" : "-1"));
  container.addEventListener("keydown", (event) => {
    const list = items();
    const at = list.indexOf(event.target);
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (at < 0 || !step) return;
    event.preventDefault();
    const next = list[(at + step + list.length) % list.length];
    list[at].setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });
  return container;
}
