// The Lines of Action board in SVG, drawn from the view's `content.position.board`: eight strings
// from row 8 down to row 1, each `b` (black), `w` (white) or `-` (empty), columns a to h.

import {
  arrowMarker, captureBadge, clickLayer, coordLabels, discGradient, fileRank, liveSquares, routeLine, slideIn, svg,
  targetLayer, uniqueId,
} from "../svg.js";
import { squarePicking } from "./picker.js";

const CELL = 100;
const MARGIN = 44;
const FILES = "abcdefgh";
export const SIZE = 8;

export const PIECE_NAMES = { b: "black", w: "white" };

/** The piece letter on `square` of a view board (rows from 8 down). */
export function pieceAt(board, square) {
  const { file, rank } = fileRank(square);
  const letter = board[SIZE - rank]?.[file] ?? "-";
  return letter === "b" || letter === "w" ? letter : null;
}

/** Every square name, a1..h8. */
export function allSquares() {
  const out = [];
  for (let rank = 1; rank <= SIZE; rank += 1) for (const f of FILES) out.push(`${f}${rank}`);
  return out;
}

function geometry(coords, flip) {
  const margin = coords ? MARGIN : 10;
  const centre = (square) => {
    const { file, rank } = fileRank(square);
    const col = flip ? SIZE - 1 - file : file;
    const row = flip ? rank - 1 : SIZE - rank;
    return { x: margin + col * CELL + CELL / 2, y: margin + row * CELL + CELL / 2 };
  };
  return { margin, span: SIZE * CELL + 2 * margin, centre };
}

function squareLayer(centre, marks) {
  const layer = svg("g", { class: "squares" });
  const selected = new Set(marks.selected ?? []);
  const last = new Set(marks.last ?? []);
  for (const square of allSquares()) {
    const { x, y } = centre(square);
    const { file, rank } = fileRank(square);
    const classes = ["square", (file + rank) % 2 === 0 ? "light" : "dark"];
    if (last.has(square)) classes.push("last");
    if (selected.has(square)) classes.push("selected");
    if (marks.starts?.has(square)) classes.push("pickable");
    if (marks.tint?.[square]) classes.push(marks.tint[square]);
    layer.append(svg("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: classes.join(" "),
      "data-square": square }));
  }
  return layer;
}

function pieceLayer(board, centre, ids, marks, animate) {
  const layer = svg("g", { class: "pieces" });
  const last = marks.last ?? [];
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
    if (animate && last.length >= 2 && square === last[last.length - 1]) slideIn(group, centre(last[0]), { x, y });
    layer.append(group);
  }
  for (const { square, piece } of marks.captured ?? []) {
    layer.append(captureBadge(square, centre, { fill: `url(#${ids[PIECE_NAMES[piece] ?? piece]})` }));
  }
  return layer;
}

/** What a screen reader hears for a square: "e4, black piece". */
function squareName(board, square) {
  const letter = pieceAt(board, square);
  return letter ? `${square}, ${PIECE_NAMES[letter]} piece` : `${square}, empty`;
}

/**
 * The board as an <svg>. `marks` (all optional): last [squares], captured [{square, piece}], selected
 * [squares], targets [{square, capture}], starts (Set), arrows [[from, to]], labels {square: text},
 * tint {square: class}. `options`: flip, onClick(square), focus (square), animate, coords, title.
 */
export function drawLoaBoard(board, marks = {}, options = {}) {
  const { span, margin, centre } = geometry(options.coords !== false, Boolean(options.flip));
  const ids = { black: uniqueId("loa-black"), white: uniqueId("loa-white"), arrow: uniqueId("loa-arrow"),
    hint: uniqueId("loa-hint") };
  const root = svg("svg", { viewBox: `0 0 ${span} ${span}`, class: "board board-loa",
    role: options.onClick ? "group" : "img", "aria-label": options.title ?? "Lines of Action board" });
  root.append(svg("defs", {}, [
    discGradient(ids.black, "#6b6b6b", "#262626", "#050505"), discGradient(ids.white, "#ffffff", "#f3ede0", "#c9bfa8"),
    arrowMarker(ids.arrow, "rgba(214, 120, 20, 0.9)"), arrowMarker(ids.hint, "rgba(31, 111, 180, 0.9)"),
  ]), svg("rect", { x: 0, y: 0, width: span, height: span, rx: 18, class: "board-frame" }), squareLayer(centre, marks));
  if (options.coords !== false) {
    const order = options.flip ? [...FILES].reverse() : [...FILES];
    const ranks = order.map((_, i) => String(options.flip ? i + 1 : SIZE - i));
    root.append(coordLabels({ count: SIZE, cell: CELL, margin, top: order, side: ranks }));
  }
  const last = marks.last ?? [];
  if (last.length >= 2) {
    root.append(routeLine([last[0], last[last.length - 1]], centre, { marker: ids.arrow, cls: "last-arrow" }));
  }
  root.append(pieceLayer(board, centre, ids, marks, options.animate));
  for (const squares of marks.arrows ?? []) root.append(routeLine(squares, centre, { marker: ids.hint, cls: "hint-arrow" }));
  root.append(targetLayer(marks.targets, marks.labels, centre));
  if (options.onClick) {
    root.append(clickLayer({ squares: allSquares(), centre, size: CELL, live: liveSquares(marks), current: options.focus,
      name: (square) => squareName(board, square), onClick: options.onClick }));
  }
  return root;
}

const position = (view) => view?.content?.position ?? {};

/** The last move's marks from the view alone, so a page opened mid-game shows them too: its two
 * squares, and the piece it took (of the other colour than the one now on its square). */
function lastMoveMarks(view) {
  const move = view?.content?.last_move;
  if (!move?.from) return { last: [], captured: [] };
  const mover = pieceAt(position(view).board ?? [], move.to);
  const taken = move.capture ? (mover === "b" ? "w" : "b") : null;
  return { last: [move.from, move.to], captured: taken ? [{ square: move.to, piece: taken }] : [] };
}

const COLOUR_OF_SEAT = ["b", "w"];

/** The squares of the pieces of the page's seat (none for a spectator). */
function ownSquares(board, seat) {
  const letter = COLOUR_OF_SEAT[seat];
  return new Set(letter ? allSquares().filter((square) => pieceAt(board, square) === letter) : []);
}

/** How a click with no piece picked is answered on the page: only a word on what to click. */
function idleHint(board, seat, square) {
  const letter = pieceAt(board, square);
  if (letter && letter !== COLOUR_OF_SEAT[seat]) return `The piece on ${square} is ${PIECE_NAMES[letter]}: pick one of yours.`;
  return `Pick one of your (${PIECE_NAMES[COLOUR_OF_SEAT[seat]] ?? "own"}) pieces first, then where it goes.`;
}

/** The picking of the seat to move: what the person tries is sent as LOA's `from-to` (LOA-4). */
function picking(play) {
  const board = position(play.view).board ?? [];
  return squarePicking(play, {
    own: ownSquares(board, play.seat),
    text: (squares) => (squares.length === 2 ? `${squares[0]}-${squares[1]}` : null),
    hint: (square) => idleHint(board, play.seat, square),
  });
}

export default {
  name: "loa",
  tagline: "Connect all your pieces into one group",
  swatch: (seat) => ["black", "white"][seat] ?? "black",
  mark: (seat) => ["B", "W"][seat] ?? "",
  countNoun: "pieces",
  progress(view) {
    const limit = view.content?.move_limit;
    return `ply ${position(view).plies ?? 0}${limit ? ` of ${limit}` : ""}`;
  },
  counts(view) {
    const all = (position(view).board ?? []).join("");
    return { 0: all.split("b").length - 1, 1: all.split("w").length - 1 };
  },
  thumbnail: () => drawLoaBoard(
    ["-bbbbbb-", "w------w", "w------w", "w------w", "w------w", "w------w", "w------w", "-bbbbbb-"],
    {}, { coords: false, title: "Lines of Action" },
  ),
  remember(memory, before, after) {
    memory.lastMove = lastMoveMarks(after);
  },
  hint(play) {
    const prefix = play.pick.prefix ?? [];
    if (play.legal.length === 1 && play.legal[0].parts.kind === "pass") return "You have no legal move and must pass.";
    if (prefix.length && !picking(play).picker.targets().length) {
      return `The piece on ${prefix[0]} cannot move now: click a square to be told why, or pick another piece.`;
    }
    if (prefix.length) return "Click a marked square to move there (or the piece again to put it back).";
    return "Pick one of your pieces.";
  },
  draw(play) {
    const { picker, click } = picking(play);
    const marks = lastMoveMarks(play.view);
    if (play.legal.length) {
      marks.starts = picker.prefix.length ? new Set() : picker.starts();
      marks.selected = picker.prefix;
      marks.targets = picker.targets();
    }
    return drawLoaBoard(position(play.view).board ?? [], marks, {
      onClick: click, focus: play.focus, animate: play.animate, title: "Lines of Action board",
    });
  },
  captured: (memory) => memory.lastMove?.captured ?? [],
};
