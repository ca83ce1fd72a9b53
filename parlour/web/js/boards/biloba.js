// The Biloba board in SVG, drawn from the view's `content.position.board`: nine strings, row 1 (top,
// orange's side) to row 9, each character `#` (not part of the board), `*` (the empty centre), `.`
// (empty tile) or a pawn `O` `B` `R` `G` (orange, blue, red, green). Columns a to i. Each pawn
// carries its colour's letter, so that seats are told apart by more than colour.

import {
  arrowMarker, captureBadge, clickLayer, coordLabels, crossPath, discGradient, liveSquares, routeLine, slideIn, svg,
  targetLayer, uniqueId,
} from "../svg.js";
import { Picker, squarePicking } from "./picker.js";

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
  return rotate(c, r, 4 - (((turns % 4) + 4) % 4));
}

/** The ginkgo (biloba) leaf that marks the centre tile. */
function leaf(x, y) {
  return svg("g", { class: "centre-leaf", transform: `translate(${x} ${y}) scale(0.9)` }, [
    svg("path", { d: "M 0 16 L -34 -6 C -31 -22 -16 -30 -4 -29 L 0 -17 L 4 -29 C 16 -30 31 -22 34 -6 Z" }),
    svg("path", { d: "M 0 14 L -20 -20 M 0 14 L -9 -25 M 0 14 L 9 -25 M 0 14 L 20 -20", class: "veins" }),
    svg("path", { d: "M 0 14 L 0 34", class: "stem" }),
  ]);
}

/** The octagon: the 9×9 square with three cells cut off at each corner. */
function octagon(margin) {
  const o = (cx, cy) => `${margin + cx * CELL},${margin + cy * CELL}`;
  const pad = 0.16;
  const points = [o(2 - pad, -pad), o(7 + pad, -pad), o(9 + pad, 2 - pad), o(9 + pad, 7 + pad),
    o(7 + pad, 9 + pad), o(2 - pad, 9 + pad), o(-pad, 7 + pad), o(-pad, 2 - pad)].join(" ");
  return [
    svg("polygon", { points, class: "octagon-shadow", transform: "translate(6 9)" }), svg("polygon", { points, class: "octagon" }),
  ];
}

function tileLayer(board, centre, marks) {
  const layer = svg("g", { class: "tiles" });
  const has = (key, square) => (marks[key] instanceof Set ? marks[key].has(square) : (marks[key] ?? []).includes(square));
  for (const square of tiles(board)) {
    const { x, y } = centre(square);
    const classes = ["tile"];
    if (square === CENTRE) classes.push("centre");
    for (const [key, cls] of [["last", "last"], ["selected", "selected"], ["starts", "pickable"], ["vacated", "vacated"]]) {
      if (has(key, square)) classes.push(cls);
    }
    if (marks.tint?.[square]) classes.push(marks.tint[square]);
    layer.append(svg("rect", {
      x: x - 44, y: y - 44, width: 88, height: 88, rx: 18, class: classes.join(" "), "data-square": square,
    }));
    if (square === CENTRE) layer.append(leaf(x, y));
  }
  return layer;
}

function disc(square, letter, centre, ids, extra = "") {
  const { x, y } = centre(square);
  return svg("g", { class: `piece pawn pawn-${COLOURS[letter].name} ${extra}`.trim(), "data-piece": COLOURS[letter].name,
    "data-square": square }, [
    svg("ellipse", { cx: x + 3, cy: y + 6, rx: 34, ry: 32, class: "piece-shadow" }),
    svg("circle", { cx: x, cy: y, r: 34, fill: `url(#${ids[letter]})`, class: "piece-body" }),
    svg("circle", { cx: x, cy: y, r: 21, class: "piece-ring" }),
    svg("text", { x, y: y + 1, class: "pawn-letter", "aria-hidden": "true" }, [letter]),
  ]);
}

function pawnLayer(board, centre, ids, marks, animate) {
  const layer = svg("g", { class: "pieces" });
  const last = marks.last ?? [];
  const pending = marks.pending ?? new Set();
  for (const { square, letter } of marks.ghosts ?? []) layer.append(disc(square, letter, centre, ids, "ghost"));
  for (const square of tiles(board)) {
    const letter = cellAt(board, square);
    if (!COLOURS[letter]) continue;
    const group = disc(square, letter, centre, ids, pending.has(square) ? "pending" : "");
    if (animate && last.length >= 2 && square === last[last.length - 1]) slideIn(group, centre(last[0]), centre(square));
    layer.append(group);
  }
  for (const { square, letter } of marks.captured ?? []) {
    const fill = `url(#${ids[letter] ?? ids.O})`;
    if (COLOURS[cellAt(board, square)]) {
      layer.append(captureBadge(square, centre, { fill, offset: 30, r: 15 }));
      continue;
    }
    const { x, y } = centre(square);
    layer.append(svg("g", { class: "captured-badge", "data-captured": square }, [
      svg("circle", { cx: x, cy: y, r: 30, fill, class: "captured-ghost" }),
      svg("path", { d: crossPath(x, y, 16), class: "badge-cross" }),
    ]));
  }
  return layer;
}

function tileName(board, square) {
  const letter = cellAt(board, square);
  const what = COLOURS[letter] ? `${COLOURS[letter].name} pawn` : "empty";
  return `${square}${square === CENTRE ? " (centre)" : ""}, ${what}`;
}

/**
 * The board as an <svg>. `marks` (all optional): last [squares], captured [{square, letter}], ghosts
 * [{square, letter}], selected [squares], targets [{square}], starts, pending, vacated (Sets), arrows
 * [[squares…]], labels {square: text}, tint {square: class}. `options`: rotate (quarter turns),
 * onClick(square), focus (square), animate, coords (default true), title.
 */
export function drawBilobaBoard(board, marks = {}, options = {}) {
  const turns = options.rotate ?? 0;
  const margin = options.coords !== false ? MARGIN : 12;
  const span = SIZE * CELL + 2 * margin;
  const centre = (square) => {
    const [c, r] = rotate(parse(square).x, parse(square).y, turns);
    return { x: margin + c * CELL + CELL / 2, y: margin + r * CELL + CELL / 2 };
  };
  const ids = { arrow: uniqueId("bil-arrow"), hint: uniqueId("bil-hint") };
  for (const letter of LETTERS) ids[letter] = uniqueId(`bil-${COLOURS[letter].name}`);
  const root = svg("svg", { viewBox: `0 0 ${span} ${span}`, class: "board board-biloba",
    role: options.onClick ? "group" : "img", "aria-label": options.title ?? "Biloba board" });
  root.append(svg("defs", {}, [
    ...LETTERS.map((l) => discGradient(ids[l], COLOURS[l].light, COLOURS[l].mid, COLOURS[l].dark)),
    arrowMarker(ids.arrow, "rgba(120, 60, 10, 0.85)"), arrowMarker(ids.hint, "rgba(31, 111, 180, 0.9)"),
  ]), ...octagon(margin), tileLayer(board, centre, marks));
  if (options.coords !== false) {
    const even = turns % 2 === 0;
    // Across the top a file (or, turned a quarter, a row); down the side the other.
    const label = (x, y, file) => (file ? FILES[x] : String(y + 1));
    const top = [...Array(SIZE).keys()].map((i) => label(...unrotate(i, 4, turns), even));
    const side = [...Array(SIZE).keys()].map((i) => label(...unrotate(4, i, turns), !even));
    root.append(coordLabels({ count: SIZE, cell: CELL, margin, top, side }));
  }
  const last = marks.last ?? [];
  if (last.length >= 2 && !marks.hideLastArrow) {
    root.append(routeLine(last, centre, { marker: ids.arrow, cls: "last-arrow", shorten: 28 }));
  }
  root.append(pawnLayer(board, centre, ids, marks, options.animate));
  for (const squares of marks.arrows ?? []) {
    root.append(routeLine(squares, centre, { marker: ids.hint, cls: "hint-arrow", shorten: 28 }));
  }
  root.append(targetLayer(marks.targets, marks.labels, centre, { big: new Set([CENTRE]) }));
  if (options.onClick) {
    root.append(clickLayer({ squares: tiles(board), centre, size: CELL, live: liveSquares(marks), current: options.focus,
      name: (square) => tileName(board, square), onClick: options.onClick }));
  }
  return root;
}

// ---- the board interface ----

const SEATS = ["orange", "blue", "red", "green"];
const position = (view) => view?.content?.position ?? {};

/** Biloba turns the board so that the seat's home side is at the bottom (BIL-5 allows it). */
function rotation(seat, players) {
  if (seat === null || seat === undefined) return 0;
  if (players === 2) return seat === 0 ? 2 : 0;
  return [2, 1, 0, 3][seat] ?? 0;
}

/** The move of the last action, from the pawn lists: [from, to] of the pawn whose tile changed. */
function movedPawn(before, after) {
  for (const [colour, now] of Object.entries(after.pawns ?? {})) {
    const old = before.pawns?.[colour] ?? [];
    const i = now.findIndex((square, k) => square && old[k] && square !== old[k]);
    if (i >= 0) return [old[i], now[i]];
  }
  return [];
}

/** The letters of the colours that lost a pawn from `before` to `after` (position pawn lists). */
function losers(before, after) {
  return LETTERS.filter((letter) => {
    const colour = COLOURS[letter].name;
    return (before?.pawns?.[colour] ?? []).some((square, i) => square && !after.pawns?.[colour]?.[i]);
  });
}

/** What the capture events of a view took: [{square, letter}]. A pawn captured where it had just
 * stepped is not on the board before: its colour is the one that lost a pawn. */
function capturesOf(view, before) {
  const lost = losers(before, position(view));
  return (view.content?.events ?? []).filter((e) => e.kind === "capture").flatMap((e) => e.tiles.map((square) => {
    const there = before?.board ? cellAt(before.board, square) : null;
    const other = LETTERS.find((l, seat) => seat !== e.seat && (lost.includes(l) || !lost.length)) ?? "B";
    return { square, letter: COLOURS[there] ? there : other };
  }));
}

/** How a click with no pawn picked is answered on the page: only a word on what to click. */
function idleHint(board, seat, square) {
  const letter = cellAt(board, square);
  if (COLOURS[letter] && letter !== LETTERS[seat]) return `The pawn on ${square} is ${COLOURS[letter].name}: pick one of yours.`;
  return `Pick one of your (${COLOURS[LETTERS[seat]]?.name ?? "own"}) pawns first, then where it goes.`;
}

/**
 * What the person tried, in Biloba's notation (BIL-21, BIL-30): a replacement `c3>c4` while captures
 * are being replaced, else a move `d4-d5` or a centre route `d4-e5-f5`.
 */
function triedText(squares, replacing) {
  if (replacing) return squares.length === 2 ? `${squares[0]}>${squares[1]}` : null;
  return squares.length <= 3 ? squares.join("-") : null;
}

/** The picking marks of the seat to move: pickable pawns, the path so far, the next tiles. */
function pickMarks(play, board) {
  const letter = LETTERS[play.seat];
  const replacing = Object.keys(position(play.view).pending ?? {}).length > 0;
  const { picker, click } = squarePicking(play, {
    own: new Set(tiles(board).filter((square) => cellAt(board, square) === letter)),
    text: (squares) => triedText(squares, replacing),
    hint: (square) => idleHint(board, play.seat, square),
  });
  const marks = {
    starts: picker.prefix.length ? new Set() : picker.starts(), selected: picker.prefix, targets: picker.targets(),
  };
  let shown = board;
  if (picker.prefix.length === 2 && picker.prefix[1] === CENTRE) {
    // Half-way through a centre route: the pawn on e5, a ghost where it came from.
    const letter = cellAt(board, picker.prefix[0]);
    shown = withCell(withCell(board, picker.prefix[0], "."), CENTRE, letter);
    Object.assign(marks, { ghosts: [{ square: picker.prefix[0], letter }], last: [], hideLastArrow: true });
  }
  return { marks, shown, click };
}

export default {
  name: "biloba",
  tagline: "Flank, capture and fill the gaps — 2 to 4 players",
  swatch: (seat) => SEATS[seat] ?? "orange",
  mark: (seat) => LETTERS[seat] ?? "",
  countNoun: "pawns",
  counts: (view) => ({ ...(view.content?.pawn_counts ?? []) }),
  progress(view) {
    const limit = view.options?.quiet_limit;
    return `turn ${view.content?.turn ?? 1}${limit ? ` · quiet ${position(view).quiet}/${limit}` : ""}`;
  },
  thumbnail: () => drawBilobaBoard(
    ["##..O..##", "#..OOO..#", "..OOOOO..", ".OOOOOOO.", "....*....", ".BBBBBBB.", "..BBBBB..", "#..BBB..#", "##..B..##"],
    {}, { coords: false, title: "Biloba" },
  ),
  remember(memory, before, after) {
    const was = before ? position(before) : null;
    const captured = capturesOf(after, was);
    // The captures of a move stay marked while its replacements are chosen.
    const replacing = was?.pending && Object.keys(was.pending).length;
    memory.captured = replacing ? [...(memory.captured ?? []), ...captured] : captured;
    memory.last = was ? movedPawn(was, position(after)) : [];
  },
  captured: (memory) => memory.captured ?? [],
  hint(play) {
    const prefix = play.pick.prefix ?? [];
    if (position(play.view).pending) {
      if (prefix.length) return "Now click the highlighted tile it moves into.";
      return "Replacement: pick a pulsing pawn, then the empty tile it fills.";
    }
    if (prefix.length > 1 && prefix[prefix.length - 1] === CENTRE) return "Centre! Step on from e5 to a free tile next to it.";
    if (prefix.length && !new Picker(play.legal, prefix).targets().length) {
      return `The pawn on ${prefix[0]} cannot go anywhere now: click a tile to be told why, or pick another pawn.`;
    }
    if (prefix.length) return "Click a marked square to move there (or the piece again to put it back).";
    return "Pick one of your pieces.";
  },
  waitingHint: (play, mover) => (position(play.view).pending ? `${mover} chooses replacements.` : null),
  draw(play) {
    const board = position(play.view).board ?? [];
    const pending = position(play.view).pending ?? {};
    let marks = { last: play.memory.last ?? [], captured: play.memory.captured ?? [] };
    let shown = board;
    let click = () => play.notNow();
    if (play.legal.length) {
      const picked = pickMarks(play, board);
      marks = { ...marks, ...picked.marks };
      ({ shown, click } = picked);
    }
    marks.pending = new Set(Object.keys(pending));
    marks.vacated = new Set(Object.values(pending).flat());
    return drawBilobaBoard(shown, marks, {
      rotate: rotation(play.seat, play.view.seats?.length ?? 2), onClick: click, focus: play.focus,
      animate: play.animate, title: "Biloba board",
    });
  },
};
