// The rules pages: the text is in the HTML; each <figure data-diagram="NAME"> gets its board
// drawn here, from positions written as text like the engine's views.

import { drawBilobaBoard, withCell } from "./boards/biloba.js";
import { drawLoaBoard } from "./boards/loa.js";
import { drawCard } from "./boards/mille.js";
import { drawConflictBoard, flat } from "./boards/conflict.js";
import { games } from "./page.js";
import { svg } from "./svg.js";

const LOA_START = ["-bbbbbb-", "w------w", "w------w", "w------w", "w------w", "w------w", "w------w", "-bbbbbb-"];
const LOA_W2 = ["-bbbbbb-", "w------w", "w------w", "w------w", "w------w", "w--b---w", "w------w", "--bbbbb-"];
const LOA_W3 = ["-bbbbbb-", "w------w", "w------w", "w------w", "w------w", "---w---w", "w------w", "--bbbbb-"];
const LOA_W10_END = ["------b-", "-ww-----", "---w---b", "--bb----", "-b-b----", "---b-b--", "--------", "------b-"];

const loa = (board, marks = {}, title = "") => drawLoaBoard(board, marks, { title });
const row = (rank) => [..."abcdefgh"].map((f) => `${f}${rank}`);
const tint = (squares, cls) => Object.fromEntries(squares.map((s) => [s, cls]));

const LOA_DIAGRAMS = {
  "loa-start": () => loa(LOA_START, {}, "The starting position"),
  "loa-moves": () => loa(LOA_START, {
    selected: ["b1"],
    targets: [{ square: "b3" }, { square: "d3" }, { square: "h1" }],
    arrows: [["b1", "b3"], ["b1", "d3"], ["b1", "h1"]],
  }, "The three moves of the piece on b1"),
  "loa-count": () => loa(LOA_W2, {
    tint: tint(["a3", "d3", "h3"], "tint-good"),
    arrows: [["a3", "d3"]],
    targets: [{ square: "d3", capture: true }],
  }, "Row 3 holds three pieces: a3 moves three squares and captures on d3"),
  "loa-jump-own": () => loa(LOA_W3, {
    tint: tint(row(1).filter((s) => s !== "a1" && s !== "b1" && s !== "h1"), "tint-good"),
    arrows: [["f1", "a1"]],
    targets: [{ square: "a1" }],
  }, "f1 jumps over its own pieces to a1"),
  "loa-blocked": () => loa(LOA_W3, {
    tint: { d1: "tint-good", d3: "tint-bad", d4: "tint-bad", d8: "tint-good" },
    selected: ["d1"],
  }, "d1 may not cross the white piece on d3"),
  "loa-win": () => loa(LOA_W10_END, {
    last: ["b6", "c7"],
    tint: tint(["b7", "c7", "d6"], "tint-good"),
  }, "White's three pieces touch: White wins"),
};

// ---- Biloba ----

const BIL_EMPTY = ["##.....##", "#.......#", ".........", ".........", "....*....", ".........", ".........",
  "#.......#", "##.....##"];
const BIL_TWO = ["##..O..##", "#..OOO..#", "..OOOOO..", ".OOOOOOO.", "....*....", ".BBBBBBB.", "..BBBBB..",
  "#..BBB..#", "##..B..##"];
const BIL_FOUR = ["##OO.OO##", "#..OOO..#", "G...O...B", "GG.....BB", ".GG.*.BB.", "GG.....BB", "G...R...B",
  "#..RRR..#", "##RR.RR##"];

function place(pawns, board = BIL_EMPTY) {
  let out = board;
  for (const [letter, squares] of Object.entries(pawns)) {
    for (const square of squares.split(" ").filter(Boolean)) out = withCell(out, square, letter);
  }
  return out;
}

const bil = (board, marks = {}, title = "") => drawBilobaBoard(board, marks, { title });

const BILOBA_DIAGRAMS = {
  "bil-two": () => bil(BIL_TWO, {}, "The two-player start"),
  "bil-four": () => bil(BIL_FOUR, {}, "The three- and four-player start"),
  "bil-steps": () => bil(place({ O: "c4", B: "d5" }), {
    selected: ["c4"],
    targets: ["b3", "c3", "d3", "b4", "d4", "b5", "c5"].map((square) => ({ square })),
  }, "A step goes to any free neighbouring tile, backwards too"),
  "bil-jumps": () => bil(place({ O: "d3 d4 d5", B: "c4" }), {
    selected: ["d4"],
    arrows: [["d4", "b4"], ["d4", "d6"]],
    targets: [{ square: "b4" }, { square: "d6" }],
    tint: { d2: "tint-bad" },
  }, "d4 jumps over c4 sideways or over its own d5 forwards, never back over d3"),
  "bil-centre": () => bil(place({ O: "d4 e4", B: "d6 e6" }), {
    arrows: [["d4", "e5", "f4"]],
    selected: ["d4"],
    targets: ["d5", "f4", "f5", "f6"].map((square) => ({ square })),
  }, "Through the centre: d4-e5-f4 is one move"),
  "bil-capture": () => bil(place({ O: "b6 e6 d4", B: "d6 c7" }), {
    arrows: [["b6", "c6"]],
    selected: ["b6"],
  }, "Orange steps b6-c6: blue d6 is flanked by c6 and e6"),
  "bil-replace": () => bil(place({ O: "c6 e6 d4", B: "c7" }), {
    captured: [{ square: "d6", letter: "B" }],
    pending: new Set(["c6", "e6"]),
    vacated: new Set(["d6"]),
    arrows: [["e6", "d6"]],
  }, "d6 is captured; c6 or e6 must move into it"),
  "bil-between": () => bil(place({ O: "c7 e7", B: "d8 f8" }), {
    arrows: [["d8", "d7"]],
    tint: { c7: "tint-bad", e7: "tint-bad" },
  }, "Blue may step between two orange pawns; orange captures it at the start of its turn"),
};

// ---- Mille Bornes ----

/** Rows of cards in one SVG: rows = [[token, {coup, label}], …] per row, with an optional row label. */
function cards(rows, title) {
  const width = Math.max(...rows.map((r) => r.cards.length)) * 66 + 90;
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${rows.length * 100 + 4}`, class: "board cards-diagram", role: "img", "aria-label": title,
    style: `max-width:${width}px`,
  });
  rows.forEach((row, r) => {
    root.append(svg("text", { x: 4, y: r * 100 + 50, class: "diagram-label" }, [row.label ?? ""]));
    row.cards.forEach((card, i) => {
      const [token, options] = Array.isArray(card) ? card : [card, {}];
      const face = drawCard(token, options);
      face.setAttribute("x", String(90 + i * 66));
      face.setAttribute("y", String(r * 100 + 4));
      face.setAttribute("width", "60");
      face.setAttribute("height", "90");
      root.append(face);
    });
  });
  return root;
}

const MILLE_DIAGRAMS = {
  "mil-kinds": () => cards([
    { label: "distance", cards: ["25", "50", "75", "100", "200"] },
    { label: "hazards", cards: ["out-of-gas", "flat-tire", "accident", "stop", "speed-limit"] },
    { label: "remedies", cards: ["gasoline", "spare-tire", "repairs", "go", "end-of-limit"] },
    { label: "safeties", cards: ["extra-tank", "puncture-proof", "driving-ace", "right-of-way"] },
  ], "The kinds of card"),
  "mil-families": () => cards([
    { label: "gas", cards: ["out-of-gas", "gasoline", "extra-tank"] },
    { label: "tires", cards: ["flat-tire", "spare-tire", "puncture-proof"] },
    { label: "accident", cards: ["accident", "repairs", "driving-ace"] },
    { label: "stop", cards: ["stop", "go", "right-of-way"] },
    { label: "speed", cards: ["speed-limit", "end-of-limit", "right-of-way"] },
  ], "Each hazard with its remedy and its safety"),
  "mil-rolling": () => cards([
    { label: "battle", cards: ["stop", "go"] },
    { label: "speed", cards: ["speed-limit", [null, { label: "" }]] },
    { label: "miles", cards: ["100", "50", "25"] },
  ], "Rolling under a speed limit"),
  "mil-coup": () => cards([
    { label: "opponent", cards: ["stop"] },
    { label: "you", cards: [["right-of-way", { coup: true }]] },
  ], "A coup fourré"),
};

// ---- Conflict ----

/** A small map of the page's own, drawn as the server sends a match's map (the view's `board`). */
const SMALL_MAP = {
  cols: 9,
  rows: 6,
  terrain: [".........", "..+~~~~..", "...~~~~..", "...~~~+..", "....#....", "........."],
  bases: { 1: "c2", 2: "g4" },
  mines: { b5: 1, e3: 2 },
};

const cf = (pieces, marks = {}, title = "") => drawConflictBoard(
  { board: SMALL_MAP, pieces, controllers: [1, 2, 3, 4] }, marks, { title },
);

/** The default board, from the server's own set-up of a Conflict game. */
async function defaultBoard() {
  const answer = await fetch("/api/games/conflict/start");
  const { view } = await answer.json();
  return drawConflictBoard(flat(view), {}, { title: `The default board, ${view.content.board.name}` });
}

const CONFLICT_DIAGRAMS = {
  "cf-board": defaultBoard,
  "cf-pieces": () => cf(["1C a1", "1G b1", "1A c3", "1S d2", "1U e2", "2C h6", "2S f4"], {}, "Cannon, AA gun, airplane, ship, submarine"),
  "cf-path": () => cf(["1S d2", "2C h6"], { start: "d2", path: ["e2", "f3", "f4"], selected: "d2" }, "A ship's path of three squares"),
  "cf-destinations": () => cf(["1C b3"], {
    selected: "b3", destinations: new Map(["a2", "c4", "a4", "d5", "b1", "d1"].map((square) => [square, [2]])),
  }, "Some squares where the cannon on b3 may end with a 2"),
  "cf-mine": () => cf(["2C a5"], { start: "a5", path: ["b5"], exploded: ["b5"] }, "A hostile mine destroys the piece"),
  "cf-takeover": () => cf(["1S g4"], { last: ["f3", "g4"], takenBases: ["g4"] }, "Red lands on Orange's base and takes it over"),
};

/** Draws every figure (a diagram may be fetched from the server), then marks the page ready once the
 * navigation is built too. */
async function drawAll(diagrams) {
  const figures = [...document.querySelectorAll("figure[data-diagram]")];
  await Promise.all([games(), ...figures.map(async (figure) => {
    const make = diagrams[figure.dataset.diagram];
    if (make) figure.prepend(await make());
  })]);
  document.body.dataset.ready = "true";
}

drawAll({ ...LOA_DIAGRAMS, ...BILOBA_DIAGRAMS, ...MILLE_DIAGRAMS, ...CONFLICT_DIAGRAMS });
