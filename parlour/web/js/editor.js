// The map editor page (/games/{game}/editor): draw a map, see the engine's check on the squares it
// concerns (asked as the map changes, a moment after the last change), mirror it for fairness, try
// it against a bot, save it to the server's library, download and upload map files.
//
// The drawing is kept in the browser (localStorage, as JSON of the drawing) as it changes, so leaving
// the page to try the map, or a reload, loses nothing; Undo takes back each stroke, mirror, load or new map.
//
// This page knows no game: the game named in its address has an editor module (EDITORS, as
// boards/index.js gives the match page its board; the interface is described in boards/conflict-editor.js)
// that draws the grid, holds the tools and reads and writes the game's board files.

import { gameInfo } from "./page.js";
import { names } from "./net.js";
import { html } from "./svg.js";
import conflict from "./boards/conflict-editor.js";
import { DEFAULT_MAX_CHARACTERS, boards, download, readMapFile, tryAgainstBots } from "./editor-file.js";
import { makeChecker, plural } from "./editor-check.js";

const EDITORS = { conflict };

const $ = (id) => document.getElementById(id);
const GAME = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const EDITOR = EDITORS[GAME] ?? null;
const STORE_KEY = `parlour.editor.${GAME}`;
const NAME_RULE = /^[a-z0-9][a-z0-9-]*$/;

const state = {
  drawing: null,
  bySquare: new Map(), // the check's problems by square
  undo: [],
  strokeOpen: false,
  info: null,
  lastKind: "",
  maxCharacters: DEFAULT_MAX_CHARACTERS, // the server's limit on a board's text (GET /api/games)
  extension: ".txt", // the ending of the game's board files (GET /api/games)
};

let tools; // the game's tools on this page (EDITOR.create)
let grid;
let checker;

function announce(text) {
  // The same words twice in a row are still said: the region is emptied first.
  const region = $("announce");
  region.textContent = "";
  requestAnimationFrame(() => { region.textContent = text; });
}

// ---- changing the drawing ----

/** Makes `next` the drawing: drawn at once, kept, checked a moment later. `undoable`: a step of its own;
 * `kind` "name" for the name typed, letter by letter one step for Undo. */
function setDrawing(next, { undoable = true, kind = "drawing" } = {}) {
  if (next === state.drawing) return;
  const sameStep = state.strokeOpen || (kind === "name" && state.lastKind === "name");
  state.lastKind = kind;
  if (undoable && state.drawing && !sameStep) {
    state.undo.push(state.drawing);
    if (state.undo.length > 200) state.undo.shift();
  }
  if (next.cols !== state.drawing?.cols || next.rows !== state.drawing?.rows) {
    [$("ed-cols").value, $("ed-rows").value] = [next.cols, next.rows]; // a new blank map starts at this size
  }
  state.drawing = next;
  $("ed-undo").disabled = state.undo.length === 0;
  if (document.activeElement !== $("ed-name")) $("ed-name").value = next.name;
  draw();
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(next));
  } catch (error) {
    // A full or forbidden storage only loses the copy kept for a reload.
  }
  checker.schedule();
}

function use(square, { drag }) {
  const before = state.drawing;
  const next = tools.use(before, square, { drag });
  setDrawing(next);
  if (next !== before) state.strokeOpen = true; // the rest of a drag is the same step for Undo
}

function endStroke() {
  state.strokeOpen = false;
}

/** A key used on a square: the square is said again as it now is (a focused cell's new name is
 * not read out by itself). */
function keyUse(square) {
  use(square, { drag: false });
  endStroke();
  announce(grid.describe(square));
}

function undo() {
  const previous = state.undo.pop();
  if (!previous) return;
  state.strokeOpen = false;
  setDrawing(previous, { undoable: false });
  announce("Undone");
}

// ---- drawing the grid at a size that fits the window ----

function fitCells() {
  const { cols, rows } = state.drawing;
  const host = $("ed-grid");
  const box = host.getBoundingClientRect();
  const width = host.parentElement.getBoundingClientRect().right - box.left - 8;
  const height = window.innerHeight - (box.top + window.scrollY) - 12;
  // One more column and row than the map: the coordinates.
  const cell = Math.floor(Math.min(width / (cols + 1), Math.max(height, 240) / (rows + 1)));
  host.style.setProperty("--cell", `${Math.max(14, Math.min(44, cell))}px`);
}

function draw() {
  grid.draw(state.drawing, state.bySquare);
  fitCells();
  $("ed-grid").setAttribute("aria-label", `Map ${state.drawing.name}, ${state.drawing.cols} columns by ${state.drawing.rows} rows`);
}

// ---- map files and the library ----

function showFileProblems(title, lines) {
  const box = $("ed-file-problems");
  box.hidden = !title;
  if (!title) return;
  box.replaceChildren(html("strong", {}, [title]), html("ul", {}, lines.map((line) => html("li", {}, [line]))));
  box.scrollIntoView({ block: "nearest" }); // under a long list of problems it may start below the fold
}

function problemLine(problem) {
  const where = problem.line ? `line ${problem.line}: ` : problem.squares?.length ? `${problem.squares.join(" ")}: ` : "";
  return `${where}${problem.message}`;
}

/** An uploaded file: opened when the engine finds no error in it; otherwise its problems are listed
 * and the drawing stays as it was. */
async function upload(file) {
  showFileProblems("");
  let text;
  try {
    text = await readMapFile(file, state.maxCharacters);
  } catch (error) {
    showFileProblems(`${file.name} was not opened.`, [error.message]);
    return;
  }
  let answer;
  try {
    answer = await boards.check(GAME, text);
  } catch (error) {
    showFileProblems(`${file.name} was not opened: it could not be checked.`, [error.message]);
    return;
  }
  const errors = (answer.problems ?? []).filter((p) => p.severity === "error");
  // A map the engine accepts comes drawn; one it refuses is read as far as the grid can hold it.
  const read = answer.board ? { drawing: EDITOR.fromBoard(answer.board) } : EDITOR.fromText(text);
  if (errors.length || !read.drawing) {
    const lines = errors.length ? errors.map(problemLine) : [read.error];
    showFileProblems(`${file.name} was not opened: ${plural(lines.length, "problem")}. Your drawing is unchanged.`, lines);
    announce(`${file.name} was not opened. Your drawing is unchanged.`);
    if (read.drawing) {
      // A file the grid can hold may be opened to mend it, by choice (Undo brings the drawing back).
      $("ed-file-problems").append(html("button", {
        type: "button", class: "btn btn-small", id: "ed-open-anyway",
        onclick: () => { showFileProblems(""); setDrawing(read.drawing); announce(`Opened ${file.name} to fix it`); },
      }, ["Open it anyway to fix it"]));
    }
    return;
  }
  setDrawing(read.drawing);
  announce(`Opened ${file.name}`);
}

async function save() {
  const box = $("ed-saved");
  box.hidden = true;
  showFileProblems("");
  const name = state.drawing.name;
  if (!NAME_RULE.test(name)) {
    showFileProblems("Not saved.", ["The name takes small letters, digits and “-”, and starts with a letter or digit."]);
    $("ed-name").focus();
    return;
  }
  $("ed-save").disabled = true;
  try {
    const author = names.get().trim() || undefined;
    const answer = await boards.save(GAME, { name, text: EDITOR.toText(state.drawing), author });
    box.className = "notice";
    box.replaceChildren(`Saved as “${answer.name}”. It is offered when `, html("a", { href: "/" }, ["creating a match"]), ".");
    box.hidden = false;
    box.dataset.saved = answer.name;
    box.scrollIntoView({ block: "nearest" });
    announce(`Saved as ${answer.name}`);
    refreshLibrary(answer.name);
  } catch (error) {
    const lines = error.code === "board_exists"
      ? [`A map called “${name}” is already in the library (saved maps never change): choose another name.`]
      : error.code === "bad_board" ? [`${error.message}. Every problem is listed under Check, on its square.`] : [error.message];
    showFileProblems("Not saved.", lines);
  } finally {
    $("ed-save").disabled = false;
  }
}

async function tryIt() {
  showFileProblems("");
  $("ed-try").disabled = true;
  try {
    const info = await state.info;
    const option = info.boards?.option ?? "board";
    location.href = await tryAgainstBots(GAME, {
      option, text: EDITOR.toText(state.drawing), bot: info.default_bot ?? "greedy", players: Number($("ed-players").value), name: names.get().trim(),
    });
  } catch (error) {
    showFileProblems("The match was not created.", [error.message]);
    $("ed-try").disabled = false;
  }
}

async function refreshLibrary(select = null) {
  const choice = $("ed-open-choice");
  let list;
  try {
    list = await boards.list(GAME);
  } catch (error) {
    choice.replaceChildren(html("option", { value: "" }, ["(the library cannot be read)"]));
    return;
  }
  const group = (label, items) => html("optgroup", { label }, items.map((b) => html("option", { value: b.name },
    [`${b.name} (${b.cols}×${b.rows}${b.recommended ? ", recommended" : ""}${b.author ? `, by ${b.author}` : ""})`])));
  choice.replaceChildren(group("Shipped", list.filter((b) => b.shipped)), group("Saved", list.filter((b) => !b.shipped)));
  if (select) choice.value = select;
  choice.dataset.ready = "true";
}

async function openFromLibrary() {
  const name = $("ed-open-choice").value;
  if (!name) return;
  showFileProblems("");
  try {
    const answer = await boards.open(GAME, name);
    const drawing = EDITOR.fromBoard(answer.board); // the library holds only maps the engine accepts
    const { maxCols, maxRows } = EDITOR.size;
    if (drawing.cols > maxCols || drawing.rows > maxRows) throw new Error(`${name} is larger than the editor draws.`);
    setDrawing(EDITOR.rename(drawing, answer.name ?? name));
    announce(`Opened ${name}`);
  } catch (error) {
    showFileProblems(`${name} was not opened.`, [error.message]);
  }
}

/** The size asked in the fields, or null (and why) if the editor does not draw it. */
function sizeAsked() {
  const cols = Number($("ed-cols").value);
  const rows = Number($("ed-rows").value);
  const { minCols, maxCols, minRows, maxRows } = EDITOR.size;
  if (cols >= minCols && cols <= maxCols && rows >= minRows && rows <= maxRows) return [cols, rows];
  showFileProblems("The size was not changed.", [`Choose ${minCols}–${maxCols} columns and ${minRows}–${maxRows} rows.`]);
  return null;
}

function newBlank() {
  const size = sizeAsked();
  if (!size) return;
  showFileProblems("");
  setDrawing(EDITOR.blank(...size, state.drawing?.name ?? "my-map"));
  announce(`New blank map, ${size[0]} by ${size[1]}`);
}

function resizeDrawing() {
  const size = sizeAsked();
  if (!size) return;
  showFileProblems("");
  setDrawing(EDITOR.resize(state.drawing, ...size));
  announce(`Resized to ${size[0]} by ${size[1]}`);
}

function nameTyped() {
  // A name is what the file says after "name": small letters, digits and "-" (CON-10).
  const input = $("ed-name");
  const cleaned = input.value.toLowerCase().replace(/\s+/g, "-");
  if (cleaned !== input.value) input.value = cleaned;
  setDrawing(EDITOR.rename(state.drawing, cleaned || "my-map"), { kind: "name" });
}

// ---- the page ----

/** The sizes the game's boards take, as the server says them (the fields' limits and the help line). */
function sizeFrom(limits) {
  const size = EDITOR.size;
  Object.assign(size, { minCols: limits.min_cols, maxCols: limits.max_cols, minRows: limits.min_rows, maxRows: limits.max_rows });
  Object.assign($("ed-cols"), { min: size.minCols, max: size.maxCols });
  Object.assign($("ed-rows"), { min: size.minRows, max: size.maxRows });
  $("ed-size-help").textContent = EDITOR.sizeHelp();
}

/** The drawing kept from the last visit (JSON of it), or a new blank map. */
function startingDrawing() {
  let raw = null;
  try {
    raw = localStorage.getItem(STORE_KEY);
  } catch (error) {
    // Storage refused: start afresh.
  }
  let kept = null;
  try {
    kept = EDITOR.fromKept(JSON.parse(raw ?? "null"));
  } catch (error) {
    kept = EDITOR.fromText(raw).drawing ?? null; // a copy kept by an older page, as the map's text
  }
  return kept ?? EDITOR.blank(20, 20, "my-map");
}

function wire(seatNames) {
  tools = EDITOR.create({ toolbar: $("ed-toolbar"), announce, seatNames });
  grid = tools.makeGrid($("ed-grid"), { onUse: use, onStroke: endStroke, onKeyUse: keyUse });
  $("ed-keys").textContent = EDITOR.keysHelp;
  $("ed-mirror").hidden = !EDITOR.mirror;
  $("ed-mirror-help").textContent = EDITOR.mirrorHelp ?? "";
  checker = makeChecker({
    game: GAME, status: $("ed-status"), list: $("ed-problems"), text: () => EDITOR.toText(state.drawing), announce,
    onProblems: (problems) => { state.bySquare = problems; draw(); },
    onGoTo: (square) => grid.focus(square),
  });
  $("ed-undo").addEventListener("click", undo);
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z" && !event.target.matches("input, select, textarea")) {
      event.preventDefault();
      undo();
    }
  });
  for (const button of document.querySelectorAll("[data-mirror]")) {
    button.addEventListener("click", () => {
      setDrawing(EDITOR.mirror(state.drawing, button.dataset.mirror));
      announce(`Mirrored: ${button.textContent}`);
    });
  }
  $("ed-name").addEventListener("input", nameTyped);
  $("ed-name").addEventListener("change", () => { $("ed-name").value = state.drawing.name; });
  $("ed-blank").addEventListener("click", newBlank);
  $("ed-resize").addEventListener("click", resizeDrawing);
  $("ed-open").addEventListener("click", openFromLibrary);
  $("ed-save").addEventListener("click", save);
  $("ed-try").addEventListener("click", tryIt);
  $("ed-download").addEventListener("click", () => download(`${state.drawing.name}${state.extension}`, EDITOR.toText(state.drawing)));
  $("ed-upload").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    event.target.value = ""; // the same file may be chosen again after fixing it
    if (file) await upload(file);
  });
  window.addEventListener("resize", fitCells);
}

/** The page of a game with boards but no editor module: it says so, and draws nothing. */
function noEditor(info) {
  $("ed-title").textContent = `${info.title}: no editor`;
  $("ed-status").textContent = `The browser has no editor for ${info.title}'s boards yet.`;
  for (const part of document.querySelectorAll(".ed-board, .ed-side > .ed-card:not(:first-child)")) part.hidden = true;
}

async function main() {
  state.info = gameInfo(GAME);
  const info = await state.info;
  if (!EDITOR) {
    noEditor(info);
    return;
  }
  // Before the drawing is read back: the sizes it may have are the server's.
  if (info.boards) sizeFrom(info.boards);
  state.maxCharacters = info.boards?.max_characters ?? DEFAULT_MAX_CHARACTERS;
  state.extension = info.boards?.extension ?? ".txt";
  $("ed-upload").accept = `${state.extension},text/plain`;
  wire(info.seat_names?.length === 4 ? info.seat_names : undefined);
  setDrawing(startingDrawing(), { undoable: false });
  const noun = info.boards?.noun ?? "board"; // Conflict's boards are maps
  document.title = `${info.title} ${noun} editor — parlour`;
  $("ed-title").textContent = `${info.title} ${noun} editor`;
  await refreshLibrary();
  window.parlourEditor = { text: () => EDITOR.toText(state.drawing) }; // what the page would save, for tests
  document.body.dataset.ready = "true";
}

main();
