// What the browser needs to know about each game's looks: seat colours, how to draw the board
// from the view, the rules page. Rules themselves stay on the server.

import { drawBilobaBoard, cellAt, COLOURS, LETTERS } from "./boards/biloba.js";
import { drawLoaBoard, pieceAt } from "./boards/loa.js";
import { squaresOf } from "./notation.js";
import { cardName, drawCard, drawMilleTable, scoreTable } from "./boards/mille.js";
import { html } from "./svg.js";
import { drawConflictBoard, boardPieces, SEAT_COLOURS as CONFLICT_COLOURS } from "./boards/conflict.js";
import { drawConflictTable } from "./conflict-table.js";

/** The score card of the last hand (MIL-53), with "Another hand" to put it away. */
function milleSideCard(view, { names, dismissed, dismiss }) {
  const last = view.match?.last_hand;
  const serial = view.match?.hand_serial;
  if (!last) return null;
  if (dismissed === serial) {
    return html("button", { type: "button", class: "btn btn-small", id: "show-scores", onclick: () => dismiss(null) },
      ["Show the last hand's scores"]);
  }
  const over = Boolean(view.match?.result);
  return html("div", {}, [
    scoreTable(last, names),
    over ? null : html("button", { type: "button", class: "btn btn-primary", id: "another-hand", onclick: () => dismiss(serial) },
      [`Another hand (hand ${view.match.hand_no})`]),
  ]);
}

function milleHint(snap, chosen) {
  const legal = snap.legal ?? [];
  if (legal.some((t) => t.startsWith("extend"))) return "You reached 700: extend the trip to 1000, or stop here.";
  if (legal.some((t) => t.startsWith("coup"))) return "Coup fourré! Play your safety now, or draw.";
  if (legal.includes("draw")) return "Click the draw pile to draw a card.";
  if (chosen !== null) return "Play it or discard it with the buttons under your hand.";
  return "Click a card of your hand to play or discard it.";
}

/** A picture of a Conflict board for the lobby (a match's own map comes with its view). */
const CONFLICT_SKETCH = {
  cols: 8,
  rows: 8,
  terrain: ["........", ".+~~~~+.", ".~~~~~~.", ".~~..~~.", ".~~..~~.", ".~~~~~~.", ".+~~~~+.", "........"],
  bases: { 1: "b2", 2: "g2", 3: "b7", 4: "g7" },
  mines: { a1: 1, h1: 2, a8: 3, h8: 4 },
};

const BILOBA_SEATS = ["orange", "blue", "red", "green"];

/** Biloba turns the board so that the seat's home side is at the bottom (BIL-5 allows it). */
function bilobaRotation(seat, players) {
  if (seat === null || seat === undefined) return 0;
  if (players === 2) return seat === 0 ? 2 : 0;
  return [2, 1, 0, 3][seat] ?? 0;
}

/**
 * Pawns of `before` that are gone in `after`: [{square, letter}] (captures and eliminations). A pawn
 * that made the move and was then captured (it stepped between two enemies) is shown where it went.
 */
function bilobaRemoved(before, after, event) {
  const out = [];
  if (!before?.pawns || !after?.pawns) return out;
  const path = squaresOf(event?.action);
  const moved = path.length >= 2 ? { from: path[0], to: path[path.length - 1] } : null;
  LETTERS.forEach((letter) => {
    const name = COLOURS[letter].name;
    const old = before.pawns[name] ?? [];
    const now = after.pawns[name] ?? [];
    old.forEach((square, i) => {
      if (square && !now[i]) out.push({ square: moved && square === moved.from ? moved.to : square, letter });
    });
  });
  return out;
}

export const GAMES = {
  conflict: {
    title: "Conflict",
    tagline: "Land, sea and air: take your rivals' bases — 2 to 4 players",
    // The option `seats` (CON-17) picks which colours play: seat i has the colour of seats[i].
    swatch: (seat, options) => CONFLICT_COLOURS[(options?.seats?.[seat] ?? seat + 1) - 1] ?? "red",
    rotation: () => 0,
    // A map given as text (CON-10) is shown by its name.
    optionText: (name, value, view) => (name === "board" ? view?.board?.name : undefined),
    table: drawConflictTable,
    hint(snap) {
      const legal = snap.legal ?? [];
      if (legal.some((t) => t.startsWith("activate"))) return "A 7! You may activate a reserve piece, and move a piece with each die.";
      return "Pick a piece on the board or in your available row, draw its path, then confirm.";
    },
    captures: () => [],
    counts(view) {
      const per = {};
      (view.seats ?? []).forEach((seat, i) => {
        const on = boardPieces(view).filter((p) => p.seat === seat).length;
        per[i] = on + (view.available?.[seat] ?? "").length + (view.reserve?.[seat] ?? "").length;
      });
      return per;
    },
    progress: (view) => `roll ${view.rolls ?? 0}${view.record?.options?.roll_limit ? ` of ${view.record.options.roll_limit}` : ""}`,
    thumbnail: () => drawConflictBoard({ board: CONFLICT_SKETCH, pieces: ["1C a2", "1S c4", "2A g1", "2S f3", "3U c6", "4G h7"], controllers: [1, 2, 3, 4] },
      {}, { title: "Conflict" }),
    help: "/help/conflict",
  },
  mille: {
    title: "Mille Bornes",
    tagline: "Race to 700 miles and stop your rival — 2 players",
    swatch: (seat) => ["blue", "red"][seat] ?? "blue",
    rotation: () => 0,
    table: drawMilleTable,
    sideCard: milleSideCard,
    hint: milleHint,
    captures: () => [],
    counts: () => ({}),
    progress: (view) => `game ${view.match?.game_no ?? 1} · hand ${view.match?.hand_no ?? 1}`,
    thumbnail() {
      const box = html("div", { class: "mille-thumb", role: "img", "aria-label": "Mille Bornes" },
        ["200", "stop", "go", "right-of-way"].map((t) => drawCard(t, { title: cardName(t) })));
      return box;
    },
    help: "/help/mille",
  },
  loa: {
    title: "Lines of Action",
    tagline: "Connect all your pieces into one group",
    swatch: (seat) => ["black", "white"][seat] ?? "black",
    rotation: () => 0,
    draw: (view, marks, options) => drawLoaBoard(view.board, marks, options),
    /** Captures made by the last action (`after` follows `before` by one action). */
    captures(before, after, event) {
      const squares = squaresOf(event?.action);
      if (!before || squares.length < 2) return [];
      const to = squares[squares.length - 1];
      const piece = pieceAt(before.board, to);
      return piece && piece !== pieceAt(after.board, to) ? [{ square: to, piece }] : [];
    },
    progress: (view) => `ply ${view.plies}${view.move_limit ? ` of ${view.move_limit}` : ""}`,
    counts(view) {
      const all = view.board.join("");
      return [all.split("b").length - 1, all.split("w").length - 1];
    },
    thumbnail: () => drawLoaBoard(
      ["-bbbbbb-", "w------w", "w------w", "w------w", "w------w", "w------w", "w------w", "-bbbbbb-"],
      {}, { coords: false, title: "Lines of Action" },
    ),
    help: "/help/loa",
  },
  biloba: {
    title: "Biloba",
    tagline: "Flank, capture and fill the gaps — 2 to 4 players",
    swatch: (seat) => BILOBA_SEATS[seat] ?? "orange",
    rotation: bilobaRotation,
    draw: (view, marks, options) => drawBilobaBoard(view.board, marks, options),
    captures: bilobaRemoved,
    counts: (view) => view.pawn_counts ?? [],
    progress(view) {
      const limit = view.record?.options?.quiet_limit;
      return `turn ${view.turn}${limit ? ` · quiet ${view.quiet}/${limit}` : ""}`;
    },
    /** The tiles that pending pawns may fill during a replacement. */
    vacated(view) {
      const tiles = new Set();
      for (const list of Object.values(view.pending ?? {})) for (const t of list) tiles.add(t);
      return tiles;
    },
    pending: (view) => new Set(Object.keys(view.pending ?? {})),
    cellAt,
    thumbnail: () => drawBilobaBoard(
      ["##..O..##", "#..OOO..#", "..OOOOO..", ".OOOOOOO.", "....*....", ".BBBBBBB.", "..BBBBB..",
        "#..BBB..#", "##..B..##"],
      {}, { coords: false, title: "Biloba" },
    ),
    help: "/help/biloba",
  },
};

/** The game's UI description, or a plain fallback for a game the browser cannot draw yet. */
export function gameUi(name) {
  return GAMES[name] ?? null;
}
