// The Lines of Action board in SVG, drawn from the engine's view: `board` is eight strings from
// row 8 down to row 1, each `b` (black), `w` (white) or `-` (empty), columns a to h.

import { arrowMarker, discGradient, svg, uniqueId } from "../svg.js";

const CELL = 100;
const MARGIN = 44;
const FILES = "abcdefgh";
export const SIZE = 8;

export const PIECE_NAMES = { b: "black", w: "white" };

/** Column 0..7 and row 1..8 of a square name like "d3". */
function parse(square) {
  return { file: FILES.indexOf(square[0]), rank: Number(square.slice(1)) };
}

/** The piece letter on `square` of a view board (rows from 8 down). */
export function pieceAt(board, square) {
  const { file, rank } = parse(square);
  const row = board[SIZE - rank];
  const letter = row ? row[file] : "-";
  return letter === "b" || letter === "w" ? letter : null;
}

/** Every square name, a1..h8. */
export function allSquares() {
  const out = [];
  for (let rank = 1; rank <= SIZE; rank += 1) for (const f of FILES) out.push(`${f}${rank}`);
  return out;
}

/**
 * The board as an <svg>. `marks` (all optional): last [squares of the last move], captured
 * [{square, piece}], selected [picked squares], targets [{square, capture}], starts (Set of
 * pickable squares), arrows [[from, to, kind]], labels {square: text}, tint {square: class}.
 * `options`: flip (White at the bottom), onClick(square), animate (slide the last move in),
 * coords (default true), title.
 */
export function drawLoaBoard(board, marks = {}, options = {}) {
  const flip = Boolean(options.flip);
  const coords = options.coords !== false;
  const margin = coords ? MARGIN : 10;
  const span = SIZE * CELL + 2 * margin;
  const centre = (square) => {
    const { file, rank } = parse(square);
    const col = flip ? SIZE - 1 - file : file;
    const row = flip ? rank - 1 : SIZE - rank;
    return { x: margin + col * CELL + CELL / 2, y: margin + row * CELL + CELL / 2 };
  };
  const ids = { black: uniqueId("loa-black"), white: uniqueId("loa-white"), arrow: uniqueId("loa-arrow"),
    hint: uniqueId("loa-hint") };
  const root = svg("svg", {
    viewBox: `0 0 ${span} ${span}`, class: "board board-loa", role: "img",
    "aria-label": options.title ?? "Lines of Action board",
  });
  root.append(svg("defs", {}, [
    discGradient(ids.black, "#6b6b6b", "#262626", "#050505"),
    discGradient(ids.white, "#ffffff", "#f3ede0", "#c9bfa8"),
    arrowMarker(ids.arrow, "rgba(214, 120, 20, 0.9)"),
    arrowMarker(ids.hint, "rgba(31, 111, 180, 0.9)"),
  ]));
  root.append(svg("rect", { x: 0, y: 0, width: span, height: span, rx: 18, class: "board-frame" }));

  const squares = svg("g", { class: "squares" });
  const selected = new Set(marks.selected ?? []);
  const last = new Set(marks.last ?? []);
  const starts = marks.starts ?? new Set();
  for (const square of allSquares()) {
    const { x, y } = centre(square);
    const { file, rank } = parse(square);
    const dark = (file + rank) % 2 === 0 ? "light" : "dark";
    const classes = ["square", dark];
    if (last.has(square)) classes.push("last");
    if (selected.has(square)) classes.push("selected");
    if (starts.has(square)) classes.push("pickable");
    if (marks.tint?.[square]) classes.push(marks.tint[square]);
    squares.append(svg("rect", {
      x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: classes.join(" "),
      "data-square": square,
    }));
  }
  root.append(squares);

  if (coords) {
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let i = 0; i < SIZE; i += 1) {
      const fileName = flip ? FILES[SIZE - 1 - i] : FILES[i];
      const rankName = String(flip ? i + 1 : SIZE - i);
      const along = margin + i * CELL + CELL / 2;
      labels.append(svg("text", { x: along, y: margin / 2 + 2 }, [fileName]));
      labels.append(svg("text", { x: along, y: span - margin / 2 + 2 }, [fileName]));
      labels.append(svg("text", { x: margin / 2, y: along + 2 }, [rankName]));
      labels.append(svg("text", { x: span - margin / 2, y: along + 2 }, [rankName]));
    }
    root.append(labels);
  }

  const moveLine = (from, to, marker, cls) => {
    const a = centre(from);
    const b = centre(to);
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const shorten = 30;
    return svg("line", {
      x1: a.x, y1: a.y, x2: b.x - ((b.x - a.x) / len) * shorten, y2: b.y - ((b.y - a.y) / len) * shorten,
      class: cls, "marker-end": `url(#${marker})`,
    });
  };

  const pieces = svg("g", { class: "pieces" });
  const lastMove = marks.last ?? [];
  for (const square of allSquares()) {
    const letter = pieceAt(board, square);
    if (!letter) continue;
    const { x, y } = centre(square);
    const name = PIECE_NAMES[letter];
    const group = svg("g", { class: `piece piece-${name}`, "data-piece": name, "data-square": square }, [
      svg("ellipse", { cx: x + 3, cy: y + 6, rx: 36, ry: 34, class: "piece-shadow" }),
      svg("circle", { cx: x, cy: y, r: 36, fill: `url(#${ids[name]})`, class: "piece-body" }),
      svg("circle", { cx: x, cy: y, r: 24, class: "piece-ring" }),
    ]);
    if (options.animate && lastMove.length >= 2 && square === lastMove[lastMove.length - 1]) {
      const from = centre(lastMove[0]);
      group.style.transform = `translate(${from.x - x}px, ${from.y - y}px)`;
      group.classList.add("sliding");
      requestAnimationFrame(() => requestAnimationFrame(() => { group.style.transform = ""; }));
    }
    pieces.append(group);
  }

  for (const { square, piece } of marks.captured ?? []) {
    const { x, y } = centre(square);
    const name = PIECE_NAMES[piece] ?? piece;
    pieces.append(svg("g", { class: "captured-badge", "data-captured": square }, [
      svg("circle", { cx: x + 32, cy: y - 32, r: 17, fill: `url(#${ids[name]})`, class: "badge-body" }),
      svg("path", { d: `M ${x + 24} ${y - 40} L ${x + 40} ${y - 24} M ${x + 40} ${y - 40} L ${x + 24} ${y - 24}`,
        class: "badge-cross" }),
    ]));
  }

  if (lastMove.length >= 2 && !marks.hideLastArrow) {
    root.append(moveLine(lastMove[0], lastMove[lastMove.length - 1], ids.arrow, "last-arrow"));
  }
  root.append(pieces);
  for (const [from, to] of marks.arrows ?? []) root.append(moveLine(from, to, ids.hint, "hint-arrow"));

  const overlay = svg("g", { class: "targets" });
  for (const { square, capture } of marks.targets ?? []) {
    const { x, y } = centre(square);
    overlay.append(capture
      ? svg("circle", { cx: x, cy: y, r: 43, class: "target target-capture", "data-target": square })
      : svg("circle", { cx: x, cy: y, r: 15, class: "target", "data-target": square }));
  }
  for (const [square, text] of Object.entries(marks.labels ?? {})) {
    const { x, y } = centre(square);
    overlay.append(svg("g", { class: "label-mark" }, [
      svg("circle", { cx: x, cy: y, r: 22 }),
      svg("text", { x, y: y + 1 }, [String(text)]),
    ]));
  }
  root.append(overlay);

  if (options.onClick) {
    // One transparent hit area per square on top, so clicks land on a square whatever is drawn.
    const hits = svg("g", { class: "hits" });
    const live = new Set([...starts, ...(marks.targets ?? []).map((t) => t.square), ...selected]);
    for (const square of allSquares()) {
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
