// A Conflict map being drawn in the editor, as plain data, and what can be done to it: paint a square,
// place a base or a mine, mirror a half or a quarter onto the rest, write the map file (CON-10).
// No page here: conflict-editor-cells.js draws it, conflict-editor.js is the editor page's interface.
//
// A drawing: {name, cols, rows, terrain: [glyph per square in reading order, one of ". ~ # +"],
// bases: {seat (1-4): square | null}, mines: {square: seat}}. Squares are named as the game names
// them (CON-4): a letter for the column, the row from 1 at the top ("a1" is the upper-left corner).

export const SIZE = { minCols: 5, maxCols: 26, minRows: 5, maxRows: 40 }; // the page takes the server's figures when it says them
export const SEATS = [1, 2, 3, 4];
const GLYPHS = /^[.~#+]$/;

/** The square in column `col`, row `row` (both from 0). */
export function squareAt(col, row) {
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}

/** [col, row] (both from 0) of a square name, or null if it is not one of `cols`×`rows`. */
export function colRow(square, cols, rows) {
  const match = /^([a-z])([1-9][0-9]*)$/.exec(square ?? "");
  if (!match) return null;
  const col = match[1].charCodeAt(0) - 97;
  const row = Number(match[2]) - 1;
  return col < cols && row < rows ? [col, row] : null;
}

function index(drawing, square) {
  const at = colRow(square, drawing.cols, drawing.rows);
  return at ? at[1] * drawing.cols + at[0] : -1;
}

export function glyphAt(drawing, square) {
  return drawing.terrain[index(drawing, square)];
}

/** The seat whose base is on `square`, or null. */
export function baseSeatAt(drawing, square) {
  const seat = SEATS.find((s) => drawing.bases[s] === square);
  return seat ?? null;
}

export function copy(drawing) {
  return { ...drawing, terrain: [...drawing.terrain], bases: { ...drawing.bases }, mines: { ...drawing.mines } };
}

function empty(name, cols, rows, glyph = ".") {
  return { name, cols, rows, terrain: Array(cols * rows).fill(glyph), bases: { 1: null, 2: null, 3: null, 4: null }, mines: {} };
}

/**
 * A sensible start: all land with a band of water across the middle (land left at both edges, so
 * land routes go round it), Red's base on the band's upper shore in the upper-left quarter, two of
 * Red's mines near its corner, and the same mirrored for the other seats.
 */
export function blank(cols, rows, name = "my-map") {
  const drawing = empty(name, cols, rows);
  const bandTop = rows % 2 ? (rows - 1) / 2 : rows / 2 - 1;
  const bandRows = rows % 2 ? 1 : 2;
  for (let row = bandTop; row < bandTop + bandRows; row += 1) {
    for (let col = 1; col < cols - 1; col += 1) drawing.terrain[row * cols + col] = "~";
  }
  const quarterCol = Math.max(1, Math.floor(cols / 4));
  const baseSquare = squareAt(quarterCol, bandTop - 1);
  drawing.terrain[(bandTop - 1) * cols + quarterCol] = "+";
  drawing.bases[1] = baseSquare;
  drawing.mines[squareAt(0, 0)] = 1;
  drawing.mines[squareAt(quarterCol, Math.max(0, bandTop - 3))] = 1;
  return mirror(drawing, "both");
}

/** A drawing of the map a server sent (a view's or the check's "board": terrain rows, bases, mines). */
export function fromBoard(board) {
  const drawing = empty(board.name ?? "my-map", board.cols, board.rows);
  drawing.terrain = board.terrain.join("").split("");
  for (const [seat, square] of Object.entries(board.bases ?? {})) drawing.bases[Number(seat)] = square;
  for (const [square, seat] of Object.entries(board.mines ?? {})) drawing.mines[square] = Number(seat);
  return drawing;
}

/** The map file (CON-10): what the engine checks, the server saves and a person downloads. */
export function toText(drawing) {
  const lines = ["conflict-map 1", `name ${drawing.name}`, `size ${drawing.cols}x${drawing.rows}`, "terrain"];
  for (let row = 0; row < drawing.rows; row += 1) {
    lines.push(drawing.terrain.slice(row * drawing.cols, (row + 1) * drawing.cols).join(""));
  }
  lines.push("end");
  for (const seat of SEATS) if (drawing.bases[seat]) lines.push(`base ${seat} ${drawing.bases[seat]}`);
  const mines = Object.entries(drawing.mines).sort(([a, sa], [b, sb]) => sa - sb || index(drawing, a) - index(drawing, b));
  for (const [square, seat] of mines) lines.push(`mine ${seat} ${square}`);
  return `${lines.join("\n")}\n`;
}

/** A drawing kept in the browser (JSON of the drawing itself), or null if it is not one the editor
 * draws (an older page's copy, a size out of range, anything else). */
export function fromKept(kept) {
  const { name, cols, rows, terrain, bases, mines } = kept ?? {};
  const sized = Number.isInteger(cols) && Number.isInteger(rows) && cols >= SIZE.minCols && cols <= SIZE.maxCols
    && rows >= SIZE.minRows && rows <= SIZE.maxRows;
  if (!sized || typeof name !== "string" || !Array.isArray(terrain) || terrain.length !== cols * rows
    || !terrain.every((glyph) => GLYPHS.test(glyph)) || typeof bases !== "object" || typeof mines !== "object") return null;
  const drawing = empty(name, cols, rows);
  drawing.terrain = [...terrain];
  for (const seat of SEATS) if (colRow(bases?.[seat], cols, rows)) drawing.bases[seat] = bases[seat];
  for (const [square, seat] of Object.entries(mines ?? {})) if (colRow(square, cols, rows) && SEATS.includes(seat)) drawing.mines[square] = seat;
  return drawing;
}

/**
 * Reads a map file the engine refused as far as a drawing can hold it, to open it and mend it
 * (the upload's "Open it anyway"; a map the engine accepts comes as the check's drawing), checking only what the drawing needs (a size in
 * the editor's range, a full terrain block of known glyphs): the engine's check says the rest.
 * Returns {drawing} or {error: "line N: …"}.
 */
export function fromText(text) {
  const lines = text.split(/\r?\n/);
  let name = "my-map";
  let size = null;
  let sizeLine = 0;
  const places = [];
  let terrain = null;
  for (let i = 0; i < lines.length; i += 1) {
    const fields = lines[i].split(";", 1)[0].trim().split(/\s+/).filter(Boolean);
    if (!fields.length) continue;
    const [directive, ...rest] = fields;
    if (directive === "name" && rest.length === 1) name = rest[0];
    else if (directive === "size") [size, sizeLine] = [/^([0-9]+)x([0-9]+)$/.exec(rest[0] ?? ""), i + 1];
    else if ((directive === "base" || directive === "mine") && rest.length === 2) places.push([directive, Number(rest[0]), rest[1].toLowerCase()]);
    else if (directive === "terrain") {
      if (!size) return { error: `line ${i + 1}: the terrain comes before the size` };
      const [cols, rows] = [Number(size[1]), Number(size[2])];
      if (cols < SIZE.minCols || cols > SIZE.maxCols || rows < SIZE.minRows || rows > SIZE.maxRows) {
        return { error: `line ${sizeLine}: the editor draws ${SIZE.minCols}–${SIZE.maxCols} columns and ${SIZE.minRows}–${SIZE.maxRows} rows, not ${cols}×${rows}` };
      }
      const block = lines.slice(i + 1, i + 1 + rows).map((line) => line.trimEnd());
      const bad = block.findIndex((line) => line.length !== cols || /[^.~#+]/.test(line));
      if (block.length < rows || bad >= 0) {
        return { error: `line ${i + 2 + (bad >= 0 ? bad : block.length)}: the terrain block needs ${rows} lines of ${cols} of . ~ # +` };
      }
      terrain = block.join("").split("");
      i += rows;
    }
  }
  if (!terrain) return { error: "the file has no terrain block (is it a map file?)" };
  const drawing = empty(name, Number(size[1]), Number(size[2]));
  drawing.terrain = terrain;
  for (const [directive, seat, square] of places) {
    if (!SEATS.includes(seat) || index(drawing, square) < 0) continue; // the check names these
    if (directive === "base") drawing.bases[seat] = square;
    else drawing.mines[square] = seat;
  }
  return { drawing };
}

// ---- changes: each returns a new drawing, the one given is left as it was ----

/** Paints `square` with land, water or impassable ground; a base there goes (its seat has none). */
export function paint(drawing, square, glyph) {
  const at = index(drawing, square);
  if (at < 0 || drawing.terrain[at] === glyph) return drawing;
  const next = copy(drawing);
  next.terrain[at] = glyph;
  const seat = baseSeatAt(drawing, square);
  if (seat) next.bases[seat] = null;
  return next;
}

/** Moves `seat`'s base to `square` (a "+" square; its old square becomes land, a mine there goes). */
export function placeBase(drawing, square, seat) {
  const at = index(drawing, square);
  if (at < 0 || drawing.bases[seat] === square) return drawing;
  const next = copy(drawing);
  const old = drawing.bases[seat];
  if (old) next.terrain[index(drawing, old)] = ".";
  const other = baseSeatAt(drawing, square);
  if (other) next.bases[other] = null;
  next.terrain[at] = "+";
  next.bases[seat] = square;
  delete next.mines[square];
  return next;
}

/**
 * Puts one of `seat`'s mines on `square` (CON-12 item 6: two a seat): a mine of that seat already
 * there is taken away; a seat with two mines already loses the one laid first. A base there goes.
 */
export function placeMine(drawing, square, seat) {
  if (index(drawing, square) < 0) return drawing;
  const next = copy(drawing);
  if (drawing.mines[square] === seat) {
    delete next.mines[square];
    return next;
  }
  const own = Object.keys(drawing.mines).filter((s) => drawing.mines[s] === seat);
  if (own.length >= 2) delete next.mines[own[0]];
  const base = baseSeatAt(drawing, square);
  if (base) {
    next.bases[base] = null;
    next.terrain[index(drawing, square)] = ".";
  }
  next.mines[square] = seat; // insertion order keeps "laid first"
  return next;
}

/** The drawing on `cols`×`rows` squares: what fits keeps its place from the upper-left corner, new
 * squares are land; bases and mines off the new edges go. */
export function resize(drawing, cols, rows) {
  const next = empty(drawing.name, cols, rows);
  for (let row = 0; row < Math.min(rows, drawing.rows); row += 1) {
    for (let col = 0; col < Math.min(cols, drawing.cols); col += 1) next.terrain[row * cols + col] = drawing.terrain[row * drawing.cols + col];
  }
  for (const seat of SEATS) if (colRow(drawing.bases[seat], cols, rows)) next.bases[seat] = drawing.bases[seat];
  for (const [square, seat] of Object.entries(drawing.mines)) if (colRow(square, cols, rows)) next.mines[square] = seat;
  return next;
}

/** Changes the name written in the file (the server saves a map under its own name). */
export function rename(drawing, name) {
  return { ...copy(drawing), name };
}

// ---- mirroring (for fair maps): a half or the upper-left quarter copied onto the rest ----

const SEAT_ACROSS = { lr: { 1: 2, 2: 1, 3: 4, 4: 3 }, tb: { 1: 3, 3: 1, 2: 4, 4: 2 } };
/** Seats sit in the corners (CON-13 item 2: 1 upper-left, 2 upper-right, 3 lower-left, 4 lower-right),
 * so mirroring left to right gives seat 1's things to seat 2, top to bottom to seat 3. */

function reflections(mode) {
  if (mode === "lr") return [["lr"]];
  if (mode === "tb") return [["tb"]];
  return [["lr"], ["tb"], ["lr", "tb"]];
}

function reflect(drawing, col, row, axes) {
  let [c, r] = [col, row];
  if (axes.includes("lr")) c = drawing.cols - 1 - c;
  if (axes.includes("tb")) r = drawing.rows - 1 - r;
  return [c, r];
}

function seatAcross(seat, axes) {
  return axes.reduce((s, axis) => SEAT_ACROSS[axis][s], seat);
}

/** Whether (col, row) is in the part that is copied: the left half ("lr"), the upper half ("tb"),
 * the upper-left quarter ("both"). A middle column or row of an odd size is its own mirror. */
function inSource(drawing, col, row, mode) {
  const left = 2 * col + 1 <= drawing.cols;
  const top = 2 * row + 1 <= drawing.rows;
  return mode === "lr" ? left : mode === "tb" ? top : left && top;
}

/**
 * The drawing with its left half mirrored onto the right ("lr"), its upper half onto the lower
 * ("tb"), or its upper-left quarter onto the three others ("both"); bases and mines go with the
 * squares, to the seat of the corner they land in. What was in the overwritten part is dropped.
 */
export function mirror(drawing, mode) {
  const next = copy(drawing);
  const overwritten = (col, row) => !inSource(drawing, col, row, mode)
    && reflections(mode).some((axes) => { const [c, r] = reflect(drawing, col, row, axes); return inSource(drawing, c, r, mode); });
  next.mines = {};
  for (const [square, seat] of Object.entries(drawing.mines)) {
    const [col, row] = colRow(square, drawing.cols, drawing.rows);
    if (!overwritten(col, row)) next.mines[square] = seat;
  }
  for (const seat of SEATS) {
    const square = drawing.bases[seat];
    if (!square) continue;
    const [col, row] = colRow(square, drawing.cols, drawing.rows);
    if (overwritten(col, row)) next.bases[seat] = null;
  }
  for (let row = 0; row < drawing.rows; row += 1) {
    for (let col = 0; col < drawing.cols; col += 1) {
      if (!inSource(drawing, col, row, mode)) continue;
      const from = squareAt(col, row);
      for (const axes of reflections(mode)) {
        const [c, r] = reflect(drawing, col, row, axes);
        if (inSource(drawing, c, r, mode)) continue; // a middle line: its own mirror
        const to = squareAt(c, r);
        next.terrain[r * drawing.cols + c] = drawing.terrain[row * drawing.cols + col];
        if (drawing.mines[from]) next.mines[to] = seatAcross(drawing.mines[from], axes);
        const seat = baseSeatAt(drawing, from);
        if (seat) next.bases[seatAcross(seat, axes)] = to;
      }
    }
  }
  // A base moved across leaves a "+" square of its seat's old place that no base names: land again.
  const named = new Set(Object.values(next.bases).filter(Boolean));
  next.terrain.forEach((glyph, at) => {
    if (glyph === "+" && !named.has(squareAt(at % drawing.cols, Math.floor(at / drawing.cols)))) next.terrain[at] = ".";
  });
  return next;
}
