// The Conflict map editor (issue 16), behind the editor page's interface: ../editor.js knows no game;
// it asks the module of the game named in its address (EDITORS there, as boards/index.js does for the
// match page) and calls the members below. The drawing is plain data (conflict-editor-grid.js), the
// grid its cells (conflict-editor-cells.js); here: the tools and seats, and a press of the mouse or a
// key turned into a change of the drawing.
//
// An editor module's default export: {name, size, blank(cols, rows, name), fromBoard(board),
// fromKept(json), fromText(text) → {drawing} | {error}, toText(drawing), resize, rename,
// mirror(drawing, mode) (optional), sizeHelp(), mirrorHelp, keysHelp,
// create({toolbar, announce, seatNames}) → {makeGrid(host, {onUse, onStroke, onKeyUse}), use(drawing, square, {drag})}}.
// A drawing has at least {name, cols, rows}.

import { html } from "../svg.js";
import { capitalise, SEAT_COLOURS } from "./conflict.js";
import { makeGrid } from "./conflict-editor-cells.js";
import {
  SEATS, SIZE, blank, fromBoard, fromKept, fromText, mirror, paint, placeBase, placeMine, rename, resize, toText,
} from "./conflict-editor-grid.js";

const TOOLS = [
  { value: "land", label: "Land", key: "L", swatch: "t-land" },
  { value: "water", label: "Water", key: "W", swatch: "t-water" },
  { value: "block", label: "Impassable", key: "I", swatch: "t-block" }, // CON-7's word
  { value: "base", label: "Base", key: "B", swatch: "t-base" },
  { value: "mine", label: "Mine", key: "M", swatch: "ed-swatch-mine" },
];
const GLYPH = { land: ".", water: "~", block: "#" };

function radio(name, value, checked, label, className, swatch, key) {
  return html("label", { class: className }, [
    html("input", { type: "radio", name, value, checked: checked || undefined }), " ",
    html("span", { class: swatch, "aria-hidden": "true" }), ` ${label} `, html("kbd", {}, [key]),
  ]);
}

/** The tools and the seats, as fieldsets for the page's toolbar. */
function toolFieldsets(seatNames) {
  return [
    html("fieldset", { class: "ed-tools" }, [html("legend", { class: "visually-hidden" }, ["Paint with"]),
      ...TOOLS.map((t, i) => radio("tool", t.value, i === 0, t.label, "ed-tool", `ed-swatch ${t.swatch}`, t.key))]),
    html("fieldset", { class: "ed-seats" }, [html("legend", { class: "ed-legend" }, ["Seat"]),
      ...SEATS.map((seat) => radio("seat", String(seat), seat === 1, seatNames[seat - 1], "ed-seat",
        `swatch swatch-${SEAT_COLOURS[seat - 1]}`, String(seat)))]),
  ];
}

/** One editing page's tools: `toolbar` the element they go in (before what it holds), `announce(words)`. */
function create({ toolbar, announce, seatNames = SEAT_COLOURS.map(capitalise) }) {
  toolbar.prepend(...toolFieldsets(seatNames));
  const tool = () => toolbar.querySelector("input[name='tool']:checked").value;
  const seat = () => Number(toolbar.querySelector("input[name='seat']:checked").value);
  const chooseTool = (name) => { toolbar.querySelector(`input[name='tool'][value='${name}']`).checked = true; };
  const chooseSeat = (number) => {
    toolbar.querySelector(`input[name='seat'][value='${number}']`).checked = true;
    announce(`${seatNames[number - 1]} (seat ${number})`);
  };

  /** The drawing after the current tool is used on `square` (the same drawing when nothing changes). */
  function use(drawing, square, { drag }) {
    const chosen = tool();
    if (drag && (chosen === "base" || chosen === "mine")) return drawing; // placed one click at a time
    if (chosen === "base") return placeBase(drawing, square, seat());
    if (chosen === "mine") return placeMine(drawing, square, seat());
    return paint(drawing, square, GLYPH[chosen]);
  }

  function grid(host, { onUse, onStroke, onKeyUse }) {
    return makeGrid(host, {
      onUse,
      onStroke,
      onSeat: chooseSeat,
      onKeyTool: (name, square) => {
        if (name) chooseTool(name);
        onKeyUse(square);
      },
    });
  }

  return { makeGrid: grid, use };
}

function sizeHelp() {
  return `${SIZE.minCols}–${SIZE.maxCols} columns and ${SIZE.minRows}–${SIZE.maxRows} rows: `
    + `squares are named by a letter and a number (a1 to ${String.fromCharCode(96 + SIZE.maxCols)}${SIZE.maxRows}), `
    + `so a map has at most ${SIZE.maxCols} columns (the rules' CON-4).`;
}

export default {
  name: "conflict",
  size: SIZE,
  blank,
  fromBoard,
  fromKept,
  fromText,
  toText,
  resize,
  rename,
  mirror,
  sizeHelp,
  mirrorHelp: "Bases and mines go with their squares to the seat of the corner they land in.",
  keysHelp: "Click or drag to paint. On the map: arrows move, Space paints, Shift+arrows paint as they go, "
    + "L W I B M pick a tool, 1–4 a seat, Ctrl+Z undoes.",
  create,
};
