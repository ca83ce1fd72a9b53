// Conflict in SVG: the map's terrain, bases and mines in their owner's colour, pieces by kind and
// seat (each with its seat's letter, so seats are told apart by more than colour), the dice, the
// rows of available and reserve pieces. The match view (conflict-table.js) draws from `flat(view)`:
// the view's `content.position` with the content's map, controllers and events beside it.

import { clickLayer, crossPath, fileRank, html, roving, squareName, svg } from "../svg.js";

export const SEAT_COLOURS = ["red", "orange", "green", "yellow"];
const FILL = { red: "#d8352c", orange: "#f08a24", green: "#2f9e4f", yellow: "#e8c420" };
const DARK = { red: "#7d1410", orange: "#a64d05", green: "#125a26", yellow: "#8a7000" };
/** The map's ground by its glyph (CON-10), in the rules' words (CON-7: "impassable"). */
export const TERRAIN_NAMES = { ".": "land", "~": "water", "#": "impassable", "+": "base" };
export const KINDS = { C: "cannon", G: "aagun", A: "airplane", S: "ship", U: "submarine" };
const KIND_NAMES = { C: "cannon", G: "anti-aircraft gun", A: "airplane", S: "ship", U: "submarine" };
const LETTER = Object.fromEntries(Object.entries(KINDS).map(([k, v]) => [v, k]));
const ORDER = "CGASU";
const CELL = 30;
const MARGIN = 18;
export const capitalise = (s) => `${s[0].toUpperCase()}${s.slice(1)}`;

// ---- the map (CON-10, CON-11) ----

/** The square at column `col`, row `row`, both counted from 0 (svg.js names squares by rank, from 1). */
function squareAt(col, row) {
  return squareName(col, row + 1);
}

function colRow(square) {
  const { file, rank } = fileRank(square);
  return [file, rank - 1];
}

/** Squares touch across a side or a corner (CON-6). */
export function adjacent(a, b) {
  const [ac, ar] = colRow(a);
  const [bc, br] = colRow(b);
  return a !== b && Math.abs(ac - bc) <= 1 && Math.abs(ar - br) <= 1;
}

/** The map of a view, as the server sends it: {cols, rows, terrain: [row strings], bases: {seat: square}, mines: {square: seat}}. */
export function mapOf(view) {
  return view.board ?? { cols: 0, rows: 0, terrain: [], bases: {}, mines: {} };
}

// ---- the decisions (CON-64), from the legal actions' parts ----

/** One legal action as {kind: "move" | "enter" | "activate" | "end" | …, text, from, die, path,
 * letter (the piece's type letter), seat (1-4)}: the parts name a piece `1S` (seat, type letter). */
export function decisionOf({ text, parts }) {
  const letter = typeof parts.piece === "string" ? parts.piece.slice(-1) : null;
  return { kind: parts.kind, text, from: parts.from, die: parts.die, path: parts.path ?? [], letter, seat: parts.seat ?? null };
}

/** The view as the drawing reads it: the position, with the content's map, controllers and events. */
export function flat(view) {
  const content = view?.content ?? {};
  // The envelope says in words why a seat is out, by match seat (the occupied seats in order).
  const outWords = Object.fromEntries((content.position?.seats ?? []).map((seat, index) => [seat, view?.out?.[index]]));
  return { ...(content.position ?? {}), controllers: content.controllers, board: content.board, events: content.events,
    event_data: content.event_data, to_move: view?.to_move, out_words: outWords, threats: content.threats ?? [] };
}

/** Pieces on the board: [{seat (1-4), kind letter, square}]. */
export function boardPieces(view) {
  return (view.pieces ?? []).map((p) => {
    const [code, square] = p.split(" ");
    return { seat: Number(code[0]), kind: code[1], square };
  });
}

/** The controller (1-4) of seat s (1-4). */
export function controllerOf(view, seat) {
  return view.controllers?.[seat - 1] ?? seat;
}

// ---- drawing ----

function pieceGlyph(kind, seat, x, y, size, controller) {
  const colour = SEAT_COLOURS[seat - 1];
  const r = size * 0.42;
  const shape = {
    C: svg("rect", { x: x - r, y: y - r * 0.8, width: 2 * r, height: 1.6 * r, rx: 3 }),
    G: svg("polygon", { points: `${x},${y - r} ${x + r},${y + r * 0.8} ${x - r},${y + r * 0.8}` }),
    A: svg("polygon", { points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}` }),
    S: svg("ellipse", { cx: x, cy: y, rx: r, ry: r * 0.62 }),
    U: svg("ellipse", { cx: x, cy: y, rx: r, ry: r * 0.45 }),
  }[kind];
  shape.setAttribute("fill", FILL[colour]);
  shape.setAttribute("stroke", DARK[colour]);
  shape.setAttribute("stroke-width", 1.5);
  const parts = [shape, svg("text", {
    x, y: y + size * 0.13, "text-anchor": "middle", "font-size": size * 0.38, "font-weight": 800,
    fill: colour === "yellow" || colour === "orange" ? "#2a1d00" : "#fff", class: "piece-letter",
  }, [kind]), svg("text", {
    // The seat's initial in a corner: the owner is told by more than the colour.
    x: x + size * 0.34, y: y + size * 0.46, "text-anchor": "middle", "font-size": size * 0.24, "font-weight": 800,
    fill: DARK[colour], stroke: "#fff", "stroke-width": size * 0.02, class: "seat-letter", "aria-hidden": "true",
  }, [colour[0].toUpperCase()])];
  if (controller && controller !== seat) {
    // Taken over: a ring in the controller's colour (CON-67 item 6).
    parts.unshift(svg("circle", { cx: x, cy: y, r: size * 0.48, fill: "none", stroke: FILL[SEAT_COLOURS[controller - 1]], "stroke-width": 3, "stroke-dasharray": "4 2" }));
  }
  return parts;
}

/** A small piece drawn on its terrain swatch (CON-67 item 5), as a standalone SVG. */
export function rowPiece(kind, seat, controller, attrs = {}) {
  const land = "#c9a46a";
  const water = "#5d9bd3";
  const swatch = kind === "A"
    ? [svg("rect", { x: 0, y: 0, width: 15, height: 30, fill: land }), svg("rect", { x: 15, y: 0, width: 15, height: 30, fill: water })]
    : [svg("rect", { x: 0, y: 0, width: 30, height: 30, fill: "CG".includes(kind) ? land : water })];
  return svg("svg", { viewBox: "0 0 30 30", class: "row-piece", role: "img", "aria-label": `${SEAT_COLOURS[seat - 1]} ${KIND_NAMES[kind]}`, ...attrs }, [
    svg("rect", { x: 0, y: 0, width: 30, height: 30, rx: 5, fill: "#fff" }),
    ...swatch, ...pieceGlyph(kind, seat, 15, 15, 28, controller),
  ]);
}

function terrainDefs() {
  return svg("defs", {}, [
    svg("pattern", { id: "cf-land", width: 10, height: 10, patternUnits: "userSpaceOnUse" }, [
      svg("rect", { width: 10, height: 10, fill: "#c9a46a" }),
      svg("circle", { cx: 2, cy: 3, r: 0.9, fill: "#a9844b" }), svg("circle", { cx: 7, cy: 8, r: 0.9, fill: "#a9844b" }),
    ]),
    svg("pattern", { id: "cf-water", width: 12, height: 8, patternUnits: "userSpaceOnUse" }, [
      svg("rect", { width: 12, height: 8, fill: "#5d9bd3" }),
      svg("path", { d: "M0 4 q3 -3 6 0 t6 0", fill: "none", stroke: "#8cc0ec", "stroke-width": 1 }),
    ]),
    svg("pattern", { id: "cf-danger", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, [
      svg("rect", { width: 3, height: 6, fill: "rgba(200, 30, 20, 0.45)" }),
    ]),
    svg("pattern", { id: "cf-block", width: 6, height: 6, patternUnits: "userSpaceOnUse" }, [
      svg("rect", { width: 6, height: 6, fill: "#f4f4f2" }),
      svg("path", { d: "M0 6 L6 0", stroke: "#d5d2c8", "stroke-width": 1 }),
    ]),
  ]);
}

function mineGlyph(x, y, seat, land) {
  const colour = FILL[SEAT_COLOURS[seat - 1]];
  const spikes = [];
  for (let i = 0; i < 8; i += 1) {
    const a = (Math.PI * i) / 4;
    spikes.push(`M${x + Math.cos(a) * 5} ${y + Math.sin(a) * 5} L${x + Math.cos(a) * 10} ${y + Math.sin(a) * 10}`);
  }
  return svg("g", { class: "mine" }, [
    svg("path", { d: spikes.join(" "), stroke: colour, "stroke-width": 2.2 }),
    svg("circle", { cx: x, cy: y, r: 6.5, fill: colour, stroke: land ? "#3b2a10" : "#0d2d4d", "stroke-width": 1.2 }),
  ]);
}

function groundSquare(view, map, baseSeat, square, col, row) {
  const ch = map.terrain[row]?.[col] ?? "#";
  const x = col * CELL;
  const y = row * CELL;
  const parts = [];
  if (ch === "+") {
    const seat = baseSeat[square];
    const colour = FILL[SEAT_COLOURS[seat - 1]];
    parts.push(
      svg("rect", { x, y, width: CELL, height: CELL, fill: "#5d9bd3" }),
      svg("polygon", { points: `${x},${y} ${x + CELL},${y} ${x},${y + CELL}`, fill: "#c9a46a" }),
      svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, fill: "none", stroke: colour, "stroke-width": 3.5, rx: 3, class: "base", "data-base": String(seat) }),
      svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 7, "text-anchor": "middle", "font-size": 22, "font-weight": 900, fill: colour, stroke: "#fff", "stroke-width": 0.8 }, ["+"]),
    );
    const controller = controllerOf(view, seat);
    if (controller !== seat) parts.push(svg("circle", { cx: x + CELL - 5, cy: y + 5, r: 4.5, fill: FILL[SEAT_COLOURS[controller - 1]], stroke: "#fff", "stroke-width": 1 }));
  } else {
    parts.push(svg("rect", { x, y, width: CELL, height: CELL, fill: { ".": "url(#cf-land)", "~": "url(#cf-water)", "#": "url(#cf-block)" }[ch] }));
  }
  if (map.mines[square]) parts.push(mineGlyph(x + CELL / 2, y + CELL / 2, map.mines[square], ch === "."));
  return parts;
}

/** Terrain, bases, mines, the grid and the coordinates. */
function groundLayer(view, map) {
  const ground = svg("g", {});
  const baseSeat = Object.fromEntries(Object.entries(map.bases).map(([seat, sq]) => [sq, Number(seat)]));
  for (let row = 0; row < map.rows; row += 1) {
    for (let col = 0; col < map.cols; col += 1) ground.append(...groundSquare(view, map, baseSeat, squareAt(col, row), col, row));
  }
  const grid = [];
  for (let c = 0; c <= map.cols; c += 1) grid.push(`M${c * CELL} 0 V${map.rows * CELL}`);
  for (let r = 0; r <= map.rows; r += 1) grid.push(`M0 ${r * CELL} H${map.cols * CELL}`);
  ground.append(svg("path", { d: grid.join(" "), stroke: "rgba(0,0,0,0.12)", "stroke-width": 0.6, fill: "none" }));
  const coords = svg("g", { "aria-hidden": "true" });
  for (let c = 0; c < map.cols; c += 1) coords.append(svg("text", { x: c * CELL + CELL / 2, y: -5, "text-anchor": "middle", class: "coord" }, [String.fromCharCode(97 + c)]));
  for (let r = 0; r < map.rows; r += 1) coords.append(svg("text", { x: -4, y: r * CELL + CELL / 2 + 4, "text-anchor": "end", class: "coord" }, [String(r + 1)]));
  ground.append(coords);
  return ground;
}

const at = (square) => {
  const [c, r] = colRow(square);
  return [c * CELL, r * CELL];
};

/** The last move, the destinations of the picked piece and the path drawn so far. */
function markLayer(marks) {
  const overlay = svg("g", {});
  for (const square of marks.last ?? []) {
    const [x, y] = at(square);
    overlay.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, class: "cf-last", "data-last": square }));
  }
  for (const [square, dice] of marks.destinations ?? []) {
    const [x, y] = at(square);
    overlay.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 6, class: "cf-dest", "data-target": square }),
      svg("text", { x: x + CELL - 4, y: y + 10, "text-anchor": "end", class: "cf-dest-die" }, [dice.join("")]));
  }
  if (marks.start && (marks.path ?? []).length) {
    const points = [marks.start, ...marks.path].map((s) => at(s).map((v) => v + CELL / 2).join(",")).join(" ");
    overlay.append(svg("polyline", { points, class: "cf-path-line" }));
  }
  if (marks.pointer) {
    // The how-to card's "3": the base to guard.
    const [x, y] = at(marks.pointer.square);
    overlay.append(svg("g", { class: "howto-mark-svg", "data-howto-mark": marks.pointer.label }, [
      svg("circle", { cx: x + CELL, cy: y, r: 10 }), svg("text", { x: x + CELL, y: y + 4.5, "text-anchor": "middle" }, [marks.pointer.label]),
    ]));
  }
  (marks.path ?? []).forEach((square, i) => {
    const [x, y] = at(square);
    overlay.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 5, class: "cf-path", "data-path": square }),
      svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 5, "text-anchor": "middle", class: "cf-path-n" }, [String(i + 1)]));
  });
  return overlay;
}

/** Threats (a view's `content.threats`, most dangerous first) by the square they concern, each square
 * in the order of its most dangerous threat. */
export function threatsBySquare(threats) {
  const found = new Map();
  for (const threat of threats ?? []) found.set(threat.square, [...(found.get(threat.square) ?? []), threat]);
  return found;
}

/**
 * Squares an enemy piece can reach on its player's next roll: a dashed ring in the enemy's colour
 * (one ring per enemy colour, inside one another), hatched red on a base — what loses the game.
 */
function threatLayer(view) {
  const layer = svg("g", { class: "cf-threat-layer", "aria-hidden": "true" });
  for (const [square, threats] of threatsBySquare(view.threats)) {
    const [x, y] = at(square);
    const base = threats.some((t) => t.target === "base");
    const group = svg("g", { class: `cf-threat${base ? " on-base" : ""}`, "data-threat": square });
    if (base) group.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, fill: "url(#cf-danger)" }));
    const seats = [...new Set(threats.map((t) => t.by))];
    seats.forEach((seat, i) => {
      const inset = 2 + i * 4.5;
      const ring = { x: x + inset, y: y + inset, width: CELL - 2 * inset, height: CELL - 2 * inset, rx: 4, fill: "none" };
      // A white chain under the colour's dashes: seen on land and on water alike.
      group.append(svg("rect", { ...ring, stroke: "#fff", "stroke-width": 4, class: "cf-threat-ring" }), svg("rect", {
        ...ring, stroke: FILL[SEAT_COLOURS[seat - 1]], "stroke-width": 3, "stroke-dasharray": "5 3", class: "cf-threat-ring",
        "data-threat-by": String(seat),
      }));
    });
    layer.append(group);
  }
  return layer;
}

function pieceLayer(view, marks) {
  const layer = svg("g", { class: "pieces" });
  for (const piece of boardPieces(view)) {
    const [x, y] = at(piece.square);
    const cls = ["cf-piece"];
    if (marks.movable?.has(piece.square)) cls.push("movable");
    if (marks.selected === piece.square) cls.push("selected");
    layer.append(svg("g", { class: cls.join(" "), "data-piece": `${piece.seat}${piece.kind}`, "data-square": piece.square },
      pieceGlyph(piece.kind, piece.seat, x + CELL / 2, y + CELL / 2, CELL, controllerOf(view, piece.seat))));
  }
  return layer;
}

function star(cx, cy) {
  const points = [];
  for (let i = 0; i < 16; i += 1) {
    const radius = i % 2 ? 7 : 15;
    points.push(`${cx + Math.cos((Math.PI * i) / 8) * radius},${cy + Math.sin((Math.PI * i) / 8) * radius}`);
  }
  return points.join(" ");
}

/** Mine explosions, captures and taken bases of the last action. */
function effectLayer(marks) {
  const effects = svg("g", {});
  for (const square of marks.exploded ?? []) {
    const [x, y] = at(square);
    effects.append(svg("polygon", { points: star(x + CELL / 2, y + CELL / 2), class: "cf-boom", "data-exploded": square }));
  }
  for (const square of marks.captured ?? []) {
    const [x, y] = at(square);
    effects.append(svg("path", { d: crossPath(x + CELL / 2, y + CELL / 2, CELL / 2 - 6), class: "cf-captured", "data-captured": square }));
  }
  for (const square of marks.takenBases ?? []) {
    const [x, y] = at(square);
    effects.append(svg("rect", { x: x - 3, y: y - 3, width: CELL + 6, height: CELL + 6, rx: 6, class: "cf-taken", "data-taken": square }));
  }
  return effects;
}

/** What a screen reader says of a square: "e5, land, red base, red cannon". */
function squareText(view, map, square) {
  const [col, row] = colRow(square);
  const ground = TERRAIN_NAMES[map.terrain[row]?.[col]] ?? "";
  const piece = boardPieces(view).find((p) => p.square === square);
  const mine = map.mines[square] ? `${SEAT_COLOURS[map.mines[square] - 1]} mine` : null;
  // The threats' words (the server's "Your base is open: …"), so a screen reader hears the danger the rings show.
  const danger = (threatsBySquare(view.threats).get(square) ?? []).map((t) => `in danger: ${t.text}`);
  return [square, ground, mine, piece ? `${SEAT_COLOURS[piece.seat - 1]} ${KIND_NAMES[piece.kind]}` : null, ...danger]
    .filter(Boolean).join(", ");
}

/** The drawing's size in its own units, and a square's (the page fits the board to the window by them). */
export function boardSize(view) {
  const map = mapOf(view);
  return { width: map.cols * CELL + MARGIN + 2, height: map.rows * CELL + MARGIN + 2, cell: CELL };
}

/**
 * The board of `view` (as `flat` gives it). `marks`: {selected: square, start: square, path: [squares],
 * destinations: Map(square → [dice]), movable: Set(squares), last: [squares], exploded: [squares],
 * captured: [squares], takenBases: [squares]}. `options`: onClick(square), focus (square), title.
 * The view's threats (`flat`'s `threats`) are ringed in the enemy's colour.
 */
export function drawConflictBoard(view, marks = {}, options = {}) {
  const map = mapOf(view);
  const { width, height } = boardSize(view);
  const root = svg("svg", {
    viewBox: `${-MARGIN} ${-MARGIN} ${width} ${height}`, class: "conflict-board",
    role: options.onClick ? "group" : "img", "aria-label": options.title ?? "Conflict board",
  });
  root.append(terrainDefs(), groundLayer(view, map), threatLayer(view), markLayer(marks), pieceLayer(view, marks), effectLayer(marks));
  if (options.onClick) {
    const squares = [];
    for (let row = 0; row < map.rows; row += 1) for (let col = 0; col < map.cols; col += 1) squares.push(squareAt(col, row));
    const live = new Set([...(marks.movable ?? []), ...(marks.destinations?.keys() ?? []), ...(marks.path ?? [])]);
    root.append(clickLayer({
      squares, size: CELL, live, current: options.focus, onClick: options.onClick,
      centre: (square) => ({ x: at(square)[0] + CELL / 2, y: at(square)[1] + CELL / 2 }),
      name: (square) => squareText(view, map, square),
    }));
  }
  return root;
}

/** One die face. */
export function dieFace(value, used) {
  const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] }[value] ?? [];
  return svg("svg", { viewBox: "0 0 40 40", class: `die${used ? " used" : ""}`, role: "img", "aria-label": `die ${value}${used ? " (used)" : ""}`, "data-die": String(value), "data-used": used ? "true" : "false" }, [
    svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, fill: "#fffdf8", stroke: "#5f574a", "stroke-width": 2 }),
    ...pips.map(([c, r]) => svg("circle", { cx: c * 10, cy: r * 10, r: 3.6, fill: "#23201b" })),
  ]);
}

/** Which dice are still unused: [{value, used}] for the two dice (CON-62). */
export function diceState(view) {
  const left = [...(view.unused ?? [])];
  return (view.dice ?? []).map((value) => {
    const i = left.indexOf(value);
    if (i >= 0) left.splice(i, 1);
    return { value, used: i < 0 };
  });
}

/** The rows of available pieces per player, and the reserves per seat (CON-67 items 3, 4). */
export function pieceRows(view, { onPick, picked, enterable, asker = null }) {
  const seats = view.seats ?? [];
  const rows = [];
  for (const player of seats) {
    if (view.out?.[player] !== undefined || controllerOf(view, player) !== player) continue;
    const controlled = [1, 2, 3, 4].filter((s) => controllerOf(view, s) === player);
    const available = [];
    for (const letter of ORDER) {
      for (const s of controlled) {
        const count = [...(view.available?.[s] ?? "")].filter((k) => k === letter).length;
        for (let i = 0; i < count; i += 1) available.push({ seat: s, kind: letter, first: i === 0 });
      }
    }
    const chips = available.map((p) => {
      const key = `${p.seat}${p.kind}`;
      const can = p.first && enterable.has(key);
      // The player on roll may pick a piece that cannot enter too, and try a path: the server says why not.
      const ask = p.first && !can && asker === player;
      const piece = rowPiece(p.kind, p.seat, player);
      return can || ask
        ? html("button", { type: "button", class: `row-slot${can ? " can" : ""}${picked === key ? " picked" : ""}`, "data-available": key, onclick: () => onPick(key), title: `enter a ${KIND_NAMES[p.kind]}` }, [piece])
        : html("span", { class: "row-slot", "data-available-piece": key }, [piece]);
    });
    const reserve = controlled.map((s) => {
      const letters = [...(view.reserve?.[s] ?? "")];
      if (!letters.length) return null;
      return html("span", { class: "reserve-group", "data-reserve": String(s) }, letters.map((k) => rowPiece(k, s, player)));
    }).filter(Boolean);
    const links = controlled.filter((s) => s !== player).map((s) => `${s}→${player}`).join(" ");
    rows.push(html("div", { class: "cf-row", "data-player": String(player) }, [
      html("div", { class: "cf-row-head" }, [
        html("span", { class: `swatch swatch-${SEAT_COLOURS[player - 1]}` }),
        html("strong", {}, [`${capitalise(SEAT_COLOURS[player - 1])} (seat ${player})`]),
        links ? html("span", { class: "muted small" }, [` controls ${links}`]) : null,
      ]),
      // The pieces that may enter are one tab stop per row, the arrow keys between them.
      roving(html("div", { class: "cf-row-line" }, [html("span", { class: "row-label" }, ["available"]), ...(chips.length ? chips : [html("span", { class: "muted small" }, ["none"])])]),
        "button.row-slot"),
      html("div", { class: "cf-row-line" }, [html("span", { class: "row-label" }, ["reserve"]), ...(reserve.length ? reserve : [html("span", { class: "muted small" }, ["none"])])]),
    ]));
  }
  const outs = Object.entries(view.out ?? {}).map(([seat, why]) => html("div", { class: "cf-row out" }, [
    html("span", { class: `swatch swatch-${SEAT_COLOURS[seat - 1]}` }),
    ` ${capitalise(SEAT_COLOURS[seat - 1])} is out: ${view.out_words?.[seat] ?? why}`,
  ]));
  return [...rows, ...outs];
}

/** Squares named by the events given (the view's `event_data`): mine explosions, captures, taken bases. */
export function eventMarks(events) {
  const exploded = new Set();
  const captured = [];
  const takenBases = [];
  for (const event of events ?? []) {
    if (event.kind === "mine") exploded.add(event.square);
    else if (event.kind === "capture") captured.push(event.square);
    else if (event.kind === "takeover") takenBases.push(event.base);
  }
  return { exploded: [...exploded], captured, takenBases };
}

export { LETTER, KIND_NAMES };
