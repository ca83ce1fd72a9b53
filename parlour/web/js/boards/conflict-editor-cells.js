// The Conflict map editor's grid: one cell a square (role "grid", one tab stop, the arrow keys between squares),
// painted with the mouse or a finger (press and drag) or the keyboard, each cell showing its
// ground, its base or mine in the seat's colour, and the problems the engine's check found there.

import { html } from "../svg.js";
import { SEAT_COLOURS, TERRAIN_NAMES } from "./conflict.js";
import { SEATS, baseSeatAt, colRow, glyphAt, squareAt } from "./conflict-editor-grid.js";

const GROUND_CLASS = { ".": "t-land", "~": "t-water", "#": "t-block", "+": "t-base" };
const STEP = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
/** Keys that choose a tool and use it on the square with the focus ("a key per terrain"). */
export const TOOL_KEYS = { l: "land", ".": "land", w: "water", "~": "water", i: "block", "#": "block", b: "base", m: "mine" };
const SEAT_WORD = (seat) => SEAT_COLOURS[seat - 1];

/** What a screen reader says of a square: "c3, land, red mine (seat 1), error: …". */
function cellText(drawing, square, problems) {
  const glyph = glyphAt(drawing, square);
  const seat = baseSeatAt(drawing, square);
  // The seat's number is written on its base and mines: the name says it too.
  const parts = [square, glyph === "+" && seat ? `${SEAT_WORD(seat)} base (seat ${seat})` : TERRAIN_NAMES[glyph]];
  if (drawing.mines[square]) parts.push(`${SEAT_WORD(drawing.mines[square])} mine (seat ${drawing.mines[square]})`);
  for (const problem of problems ?? []) parts.push(`${problem.severity}: ${problem.message}`);
  return parts.join(", ");
}

/** What the cell of `square` shows, as one string: a cell is redrawn only when it changes. */
function signature(drawing, square, problems) {
  const severities = (problems ?? []).map((p) => p.severity).join(",");
  return `${glyphAt(drawing, square)}|${baseSeatAt(drawing, square) ?? ""}|${drawing.mines[square] ?? ""}|${severities}|${cellText(drawing, square, problems)}`;
}

function drawCell(cell, drawing, square, problems) {
  const glyph = glyphAt(drawing, square);
  const seat = baseSeatAt(drawing, square);
  const mine = drawing.mines[square];
  const severity = (problems ?? []).some((p) => p.severity === "error") ? "error" : (problems?.length ? "warning" : null);
  cell.className = `ed-cell ${GROUND_CLASS[glyph] ?? "t-block"}${severity ? ` has-${severity}` : ""}`;
  cell.setAttribute("aria-label", cellText(drawing, square, problems));
  cell.title = (problems ?? []).map((p) => p.message).join("\n");
  if (seat) cell.dataset.base = String(seat); else delete cell.dataset.base;
  if (mine) cell.dataset.mine = String(mine); else delete cell.dataset.mine;
  if (severity) cell.dataset.problem = severity; else delete cell.dataset.problem;
  // The marks' figures are the stylesheet's (data-mark): the cell's name already says them, in words.
  const marks = [];
  if (glyph === "+") marks.push(html("span", { class: `ed-base seat-${seat ?? 0}`, "data-mark": seat ? String(seat) : "+" }));
  if (mine) marks.push(html("span", { class: `ed-mine seat-${mine}`, "data-mark": String(mine) }));
  if (severity) marks.push(html("span", { class: "ed-flag", "data-mark": severity === "error" ? "!" : "?" }));
  cell.replaceChildren(...marks);
}

/**
 * The grid in `host`. `onUse(square, {drag})` applies the current tool to a square (a press, each
 * square a drag goes over); `onKeyTool(tool, square)` a tool's key on a square (null: Enter or Space, the
 * tool chosen);
 * `onSeat(seat)` a seat's number key. Returns {draw(drawing, problemsBySquare), focus(square), focused(),
 * describe(square): what the square's name says now}.
 */
export function makeGrid(host, { onUse, onKeyTool, onSeat, onStroke }) {
  let cells = new Map();
  let signatures = new Map();
  let shape = "";
  let current = "a1";
  let drawing = null;
  let dragging = false;
  let lastDragged = null;

  function cellAt(x, y) {
    const target = document.elementFromPoint(x, y)?.closest?.("[data-square]");
    return target && host.contains(target) ? target : null;
  }

  function build() {
    const { cols, rows } = drawing;
    host.style.setProperty("--cols", String(cols));
    host.setAttribute("aria-rowcount", String(rows));
    host.setAttribute("aria-colcount", String(cols));
    const header = html("div", { class: "ed-row ed-coords", "aria-hidden": "true" }, [html("span", { class: "ed-corner" }),
      ...Array.from({ length: cols }, (_, c) => html("span", { class: "ed-coord" }, [String.fromCharCode(97 + c)]))]);
    const lines = [header];
    cells = new Map();
    for (let row = 0; row < rows; row += 1) {
      const line = html("div", { class: "ed-row", role: "row", "aria-rowindex": String(row + 1) },
        [html("span", { class: "ed-coord ed-rank", "aria-hidden": "true" }, [String(row + 1)])]);
      for (let col = 0; col < cols; col += 1) {
        const square = squareAt(col, row);
        const cell = html("div", { role: "gridcell", tabindex: "-1", "data-square": square, "aria-colindex": String(col + 1) });
        cells.set(square, cell);
        line.append(cell);
      }
      lines.push(line);
    }
    host.replaceChildren(...lines);
    signatures = new Map();
    if (!colRow(current, cols, rows)) current = "a1";
    cells.get(current).tabIndex = 0;
  }

  function draw(next, problems) {
    drawing = next;
    if (shape !== `${next.cols}x${next.rows}`) {
      shape = `${next.cols}x${next.rows}`;
      build();
    }
    for (const [square, cell] of cells) {
      const sig = signature(next, square, problems.get(square));
      if (signatures.get(square) === sig) continue;
      signatures.set(square, sig);
      drawCell(cell, next, square, problems.get(square));
    }
  }

  function focus(square) {
    const cell = cells.get(square);
    if (!cell) return;
    cells.get(current)?.setAttribute("tabindex", "-1");
    current = square;
    cell.tabIndex = 0;
    cell.focus();
  }

  // The tab stop follows the focus, however it came (a click, a problem's "go to" button).
  host.addEventListener("focusin", (event) => {
    const square = event.target.closest?.("[data-square]")?.dataset.square;
    if (!square || square === current) return;
    cells.get(current)?.setAttribute("tabindex", "-1");
    current = square;
    event.target.tabIndex = 0;
  });
  host.addEventListener("pointerdown", (event) => {
    const cell = event.target.closest?.("[data-square]");
    if (!cell || event.button > 0) return;
    event.preventDefault(); // no text selection or scrolling while painting
    focus(cell.dataset.square);
    dragging = true;
    lastDragged = cell.dataset.square;
    onUse(cell.dataset.square, { drag: false });
  });
  host.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    const cell = cellAt(event.clientX, event.clientY);
    if (!cell || cell.dataset.square === lastDragged) return;
    lastDragged = cell.dataset.square;
    onUse(cell.dataset.square, { drag: true });
  });
  const stop = () => {
    if (!dragging) return;
    dragging = false;
    onStroke();
  };
  window.addEventListener("pointerup", stop);
  window.addEventListener("pointercancel", stop);

  host.addEventListener("keydown", (event) => {
    const square = event.target.closest?.("[data-square]")?.dataset.square;
    if (!square || event.ctrlKey || event.metaKey || event.altKey) return;
    const step = STEP[event.key];
    if (step) {
      event.preventDefault();
      const [col, row] = colRow(square, drawing.cols, drawing.rows);
      const next = squareAt(Math.min(Math.max(col + step[0], 0), drawing.cols - 1), Math.min(Math.max(row + step[1], 0), drawing.rows - 1));
      if (event.shiftKey) { // Shift and an arrow paint as they go, the square left and the one reached
        onUse(square, { drag: true });
        onUse(next, { drag: true }); // before the focus moves, so the square is named as painted
        onStroke();
      }
      focus(next);
      return;
    }
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onKeyTool(null, square); // the current tool
      return;
    }
    const key = event.key.toLowerCase();
    if (TOOL_KEYS[key]) {
      event.preventDefault();
      onKeyTool(TOOL_KEYS[key], square);
      return;
    }
    if (SEATS.includes(Number(key))) {
      event.preventDefault();
      onSeat(Number(key));
    }
  });

  return { draw, focus, focused: () => current, describe: (square) => cells.get(square)?.getAttribute("aria-label") ?? square };
}
