// The Biloba board in SVG, drawn from the engine's view: `board` is nine strings, row 1 (top,
// orange's side) to row 9, each character `#` (not part of the board), `*` (the empty centre),
// `.` (empty tile) or a pawn `O` `B` `R` `G` (orange, blue, red, green). Columns a to i.

import { arrowMarker, discGradient, svg, uniqueId } from "../svg.js";

const CELL = 100;
const MARGIN = 44;
const FILES = "abcdefghi";
export const SIZE = 9;
export const CENTRE = "e5";

export const COLOURS = {
  O: { name: "orange", light: "#ffd49a", mid: "#f08a24", dark: "#a64d05" },
  B: { name: "blue", light: "#b9d4ff", mid: "#2f6fd6", dark: "#123a80" },
  R: { name: "red", light: "#ffb3ad", mid: "#d8352c", dark: "#7d1410" },
  G: { name: "green", light: "#c4f0c4", mid: "#2f9e4f", dark: "#125a26" },
};
export const LETTERS = ["O", "B", "R", "G"];

function parse(square) {
  return { x: FILES.indexOf(square[0]), y: Number(square.slice(1)) - 1 };
}

export function name(x, y) {
  return `${FILES[x]}${y + 1}`;
}

/** What a view board holds on `square`: "#", "." (empty tile, centre included) or a pawn letter. */
export function cellAt(board, square) {
  const { x, y } = parse(square);
  const ch = board[y]?.[x] ?? "#";
  return ch === "*" ? "." : ch;
}

/** Every playable tile of a view board. */
export function tiles(board) {
  const out = [];
  for (let y = 0; y < SIZE; y += 1) {
    for (let x = 0; x < SIZE; x += 1) if ((board[y]?.[x] ?? "#") !== "#") out.push(name(x, y));
  }
  return out;
}

/** A copy of `board` with `square` set to `ch`. */
export function withCell(board, square, ch) {
  const { x, y } = parse(square);
  return board.map((row, i) => (i === y ? row.slice(0, x) + ch + row.slice(x + 1) : row));
}

/** Display position of logical (x, y) after `turns` quarter turns clockwise. */
function rotate(x, y, turns) {
  switch (((turns % 4) + 4) % 4) {
    case 1: return [SIZE - 1 - y, x];
    case 2: return [SIZE - 1 - x, SIZE - 1 - y];
    case 3: return [y, SIZE - 1 - x];
    default: return [x, y];
  }
}

function unrotate(c, r, turns) {
  switch (((turns % 4) + 4) % 4) {
    case 1: return [r, SIZE - 1 - c];
    case 2: return [SIZE - 1 - c, SIZE - 1 - r];
    case 3: return [SIZE - 1 - r, c];
    default: return [c, r];
  }
}

/** The ginkgo (biloba) leaf that marks the centre tile. */
function leaf(x, y) {
  return svg("g", { class: "centre-leaf", transform: `translate(${x} ${y}) scale(0.9)` }, [
    svg("path", {
      d: "M 0 16 L -34 -6 C -31 -22 -16 -30 -4 -29 L 0 -17 L 4 -29 C 16 -30 31 -22 34 -6 Z",
    }),
    svg("path", { d: "M 0 14 L -20 -20 M 0 14 L -9 -25 M 0 14 L 9 -25 M 0 14 L 20 -20", class: "veins" }),
    svg("path", { d: "M 0 14 L 0 34", class: "stem" }),
  ]);
}

/**
 * The board as an <svg>. `marks` (all optional): last [squares of the last decision], captured
 * [{square, letter}], ghosts [{square, letter}], selected [picked squares], targets [{square}],
 * starts (Set), pending (Set of pawns that must replace), vacated (Set of tiles to fill),
 * arrows [[squares...]], labels {square: text}, tint {square: class}.
 * `options`: rotate (quarter turns), onClick(square), animate, coords (default true), title.
 */
export function drawBilobaBoard(board, marks = {}, options = {}) {
  const turns = options.rotate ?? 0;
  const coords = options.coords !== false;
  const margin = coords ? MARGIN : 12;
  const span = SIZE * CELL + 2 * margin;
  const centre = (square) => {
    const { x, y } = parse(square);
    const [c, r] = rotate(x, y, turns);
    return { x: margin + c * CELL + CELL / 2, y: margin + r * CELL + CELL / 2 };
  };
  const ids = { arrow: uniqueId("bil-arrow"), hint: uniqueId("bil-hint") };
  for (const letter of LETTERS) ids[letter] = uniqueId(`bil-${COLOURS[letter].name}`);
  const root = svg("svg", {
    viewBox: `0 0 ${span} ${span}`, class: "board board-biloba", role: "img",
    "aria-label": options.title ?? "Biloba board",
  });
  root.append(svg("defs", {}, [
    ...LETTERS.map((l) => discGradient(ids[l], COLOURS[l].light, COLOURS[l].mid, COLOURS[l].dark)),
    arrowMarker(ids.arrow, "rgba(120, 60, 10, 0.85)"),
    arrowMarker(ids.hint, "rgba(31, 111, 180, 0.9)"),
  ]));

  // The octagon: the 9×9 square with three cells cut off at each corner.
  const o = (cx, cy) => `${margin + cx * CELL},${margin + cy * CELL}`;
  const pad = 0.16;
  const octagon = [
    o(2 - pad, -pad), o(7 + pad, -pad), o(9 + pad, 2 - pad), o(9 + pad, 7 + pad),
    o(7 + pad, 9 + pad), o(2 - pad, 9 + pad), o(-pad, 7 + pad), o(-pad, 2 - pad),
  ].join(" ");
  root.append(svg("polygon", { points: octagon, class: "octagon-shadow", transform: "translate(6 9)" }));
  root.append(svg("polygon", { points: octagon, class: "octagon" }));

  const selected = new Set(marks.selected ?? []);
  const last = new Set(marks.last ?? []);
  const starts = marks.starts ?? new Set();
  const pending = marks.pending ?? new Set();
  const vacated = marks.vacated ?? new Set();
  const playable = tiles(board);
  const tileLayer = svg("g", { class: "tiles" });
  for (const square of playable) {
    const { x, y } = centre(square);
    const classes = ["tile"];
    if (square === CENTRE) classes.push("centre");
    if (last.has(square)) classes.push("last");
    if (selected.has(square)) classes.push("selected");
    if (starts.has(square)) classes.push("pickable");
    if (vacated.has(square)) classes.push("vacated");
    if (marks.tint?.[square]) classes.push(marks.tint[square]);
    tileLayer.append(svg("rect", {
      x: x - 44, y: y - 44, width: 88, height: 88, rx: 18, class: classes.join(" "), "data-square": square,
    }));
    if (square === CENTRE) tileLayer.append(leaf(x, y));
  }
  root.append(tileLayer);

  if (coords) {
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    const even = turns % 2 === 0;
    for (let i = 0; i < SIZE; i += 1) {
      const along = margin + i * CELL + CELL / 2;
      const [tx, ty] = unrotate(i, 4, turns);
      const [sx, sy] = unrotate(4, i, turns);
      const topText = even ? FILES[tx] : String(ty + 1);
      const sideText = even ? String(sy + 1) : FILES[sx];
      labels.append(svg("text", { x: along, y: margin / 2 + 2 }, [topText]));
      labels.append(svg("text", { x: along, y: span - margin / 2 + 2 }, [topText]));
      labels.append(svg("text", { x: margin / 2, y: along + 2 }, [sideText]));
      labels.append(svg("text", { x: span - margin / 2, y: along + 2 }, [sideText]));
    }
    root.append(labels);
  }

  const route = (squares, marker, cls) => {
    const points = squares.map(centre);
    const a = points[points.length - 2];
    const b = points[points.length - 1];
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const end = { x: b.x - ((b.x - a.x) / len) * 28, y: b.y - ((b.y - a.y) / len) * 28 };
    const d = points.slice(0, -1).map((p, i) => `${i ? "L" : "M"} ${p.x} ${p.y}`).join(" ") + ` L ${end.x} ${end.y}`;
    return svg("path", { d, class: cls, "marker-end": `url(#${marker})` });
  };

  const lastSquares = marks.last ?? [];
  if (lastSquares.length >= 2 && !marks.hideLastArrow) root.append(route(lastSquares, ids.arrow, "last-arrow"));

  const pawns = svg("g", { class: "pieces" });
  const disc = (square, letter, extra = "") => {
    const { x, y } = centre(square);
    return svg("g", {
      class: `piece pawn pawn-${COLOURS[letter].name} ${extra}`.trim(), "data-piece": COLOURS[letter].name,
      "data-square": square,
    }, [
      svg("ellipse", { cx: x + 3, cy: y + 6, rx: 34, ry: 32, class: "piece-shadow" }),
      svg("circle", { cx: x, cy: y, r: 34, fill: `url(#${ids[letter]})`, class: "piece-body" }),
      svg("circle", { cx: x, cy: y, r: 21, class: "piece-ring" }),
    ]);
  };
  for (const { square, letter } of marks.ghosts ?? []) pawns.append(disc(square, letter, "ghost"));
  for (const square of playable) {
    const letter = cellAt(board, square);
    if (!COLOURS[letter]) continue;
    const group = disc(square, letter, pending.has(square) ? "pending" : "");
    if (options.animate && lastSquares.length >= 2 && square === lastSquares[lastSquares.length - 1]) {
      const from = centre(lastSquares[0]);
      const to = centre(square);
      group.style.transform = `translate(${from.x - to.x}px, ${from.y - to.y}px)`;
      group.classList.add("sliding");
      requestAnimationFrame(() => requestAnimationFrame(() => { group.style.transform = ""; }));
    }
    pawns.append(group);
  }
  for (const { square, letter } of marks.captured ?? []) {
    const { x, y } = centre(square);
    const empty = !COLOURS[cellAt(board, square)];
    pawns.append(svg("g", { class: "captured-badge", "data-captured": square }, empty
      ? [
        svg("circle", { cx: x, cy: y, r: 30, fill: `url(#${ids[letter]})`, class: "captured-ghost" }),
        svg("path", { d: `M ${x - 16} ${y - 16} L ${x + 16} ${y + 16} M ${x + 16} ${y - 16} L ${x - 16} ${y + 16}`,
          class: "badge-cross" }),
      ]
      : [
        svg("circle", { cx: x + 30, cy: y - 30, r: 15, fill: `url(#${ids[letter]})`, class: "badge-body" }),
        svg("path", { d: `M ${x + 23} ${y - 37} L ${x + 37} ${y - 23} M ${x + 37} ${y - 37} L ${x + 23} ${y - 23}`,
          class: "badge-cross" }),
      ]));
  }
  root.append(pawns);
  for (const squares of marks.arrows ?? []) root.append(route(squares, ids.hint, "hint-arrow"));

  const overlay = svg("g", { class: "targets" });
  for (const { square } of marks.targets ?? []) {
    const { x, y } = centre(square);
    overlay.append(svg("circle", {
      cx: x, cy: y, r: square === CENTRE ? 20 : 15, class: square === CENTRE ? "target target-centre" : "target",
      "data-target": square,
    }));
  }
  for (const [square, text] of Object.entries(marks.labels ?? {})) {
    const { x, y } = centre(square);
    overlay.append(svg("g", { class: "label-mark" }, [
      svg("circle", { cx: x, cy: y, r: 21 }),
      svg("text", { x, y: y + 1 }, [String(text)]),
    ]));
  }
  root.append(overlay);

  if (options.onClick) {
    const hits = svg("g", { class: "hits" });
    const live = new Set([...starts, ...(marks.targets ?? []).map((t) => t.square), ...selected]);
    for (const square of playable) {
      const { x, y } = centre(square);
      hits.append(svg("rect", {
        x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, "data-hit": square,
        class: live.has(square) ? "hit live" : "hit",
      }));
    }
    hits.addEventListener("click", (event) => {
      const square = event.target?.getAttribute?.("data-hit");
      if (square) options.onClick(square);
    });
    root.append(hits);
  }
  return root;
}
