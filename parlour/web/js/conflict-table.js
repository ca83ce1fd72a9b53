// The Conflict match view: board, dice, message area, rows, and the path drawn click by click
// (CON-68). The page knows the geometry of squares and the notation; the server judges the path.

import { html } from "./svg.js";
import {
  adjacent, boardPieces, controllerOf, diceState, dieFace, drawConflictBoard, eventMarks, KIND_NAMES, LETTER, mapOf,
  parseDecision, pieceRows, SEAT_COLOURS,
} from "./boards/conflict.js";

const capital = (s) => `${s[0].toUpperCase()}${s.slice(1)}`;

/** The selection kept on the page between clicks: reset whenever the match moves on. */
function selection(page, version) {
  if (!page.cf || page.cf.version !== version) page.cf = { version, pick: null, path: [] };
  return page.cf;
}

/** Legal decisions of the picked piece: moves from its square, or entries of its (seat, type). */
function decisionsFor(pick, decisions) {
  if (!pick) return [];
  if (pick.kind === "board") return decisions.filter((d) => d.kind === "move" && d.from === pick.square);
  return decisions.filter((d) => d.kind === "enter" && LETTER[d.type] === pick.type && (d.seat === null || d.seat === pick.seat));
}

function startOf(pick, view) {
  if (!pick) return null;
  return pick.kind === "board" ? pick.square : mapOf(view).bases[pick.seat];
}

/** The text that moves the picked piece along `path` with the die `die`. */
function moveText(pick, options, die, path) {
  if (pick.kind === "board") return `${pick.square} ${die}: ${path.join(" ")}`;
  const token = options[0]?.token ?? Object.keys(LETTER).find((k) => LETTER[k] === pick.type);
  return `enter ${token} ${die}: ${path.join(" ")}`;
}

/**
 * The events whose marks the board shows: the last action's (`event_data`). A bare roll of the dice
 * (the server rolls at once after a roll ends) keeps the marks of the action before it.
 */
function markedEvents(page, view) {
  const events = view.event_data ?? [];
  const version = page.snap.version;
  if (page.cfEvents?.version !== version) {
    const bareRoll = events.length > 0 && events.every((e) => e.kind === "roll");
    page.cfEvents = { version, events: bareRoll ? [...(page.cfEvents?.events ?? []), ...events] : events };
  }
  return page.cfEvents.events;
}

export function drawConflictTable(view, ctx) {
  const { page, legal, act } = ctx;
  const snap = page.snap;
  const state = selection(page, snap.version);
  const decisions = (legal ?? []).map(parseDecision);
  const mine = decisions.length > 0;
  const options = decisionsFor(state.pick, decisions);
  const start = startOf(state.pick, view);
  const unused = [...new Set(view.unused ?? [])].sort();
  const maxDie = Math.max(0, ...unused);

  const redraw = () => page.render();
  const pickBoard = (square) => {
    state.pick = { kind: "board", square };
    state.path = [];
  };
  const click = (square) => {
    if (!mine) return;
    const movers = new Set(decisions.filter((d) => d.kind === "move").map((d) => d.from));
    if (!state.pick) {
      if (!movers.has(square)) return;
      pickBoard(square);
    } else if (state.path.includes(square)) {
      state.path = state.path.slice(0, state.path.indexOf(square) + 1); // back to that square
    } else if (square === start) {
      if (state.path.length) state.path = [];
      else state.pick = null;
    } else if (adjacent(state.path[state.path.length - 1] ?? start, square) && state.path.length < maxDie) {
      state.path = [...state.path, square];
    } else {
      // A marked destination: take the server's own path there (the smallest die first).
      const there = state.path.length ? null
        : options.filter((d) => d.path[d.path.length - 1] === square).sort((a, b) => a.die - b.die)[0];
      if (there) state.path = [...there.path];
      else if (movers.has(square)) pickBoard(square);
      else page.toast("Click a square next to the end of the path, or a marked destination.");
    }
    redraw();
  };

  const destinations = new Map();
  if (mine && state.pick && !state.path.length) {
    for (const d of options) {
      const end = d.path[d.path.length - 1];
      destinations.set(end, [...new Set([...(destinations.get(end) ?? []), d.die])].sort());
    }
  }
  const lastMove = parseDecision(page.moves?.[page.moves.length - 1]?.action ?? "");
  const last = lastMove.path ? [...(lastMove.from ? [lastMove.from] : []), ...lastMove.path] : [];
  const marks = {
    ...eventMarks(markedEvents(page, view)),
    last,
    movable: mine && !state.pick ? new Set(decisions.filter((d) => d.kind === "move").map((d) => d.from)) : new Set(),
    selected: state.pick?.kind === "board" ? state.pick.square : null,
    start,
    path: state.path,
    destinations,
  };
  const board = drawConflictBoard(view, marks, { onClick: click, title: "Conflict board" });
  board.classList.toggle("interactive", mine);

  // Dice and the roll's controls.
  const dice = diceState(view);
  const activations = decisions.filter((d) => d.kind === "activate");
  const controls = [];
  if (mine && state.pick) {
    const name = state.pick.kind === "board"
      ? `the ${KIND_NAMES[boardPieces(view).find((p) => p.square === state.pick.square)?.kind] ?? "piece"} on ${state.pick.square}`
      : `a new ${KIND_NAMES[state.pick.type]} from the base`;
    const fits = unused.filter((d) => state.path.length && state.path.length <= d);
    // CON-68: warn before a walk that meets a hostile mine (the mine's controller is not ours).
    const mover = view.seats?.[snap.seat];
    const mines = mapOf(view).mines;
    const hostile = state.path.find((sq) => mines[sq] && controllerOf(view, mines[sq]) !== mover);
    if (hostile) controls.push(html("div", { class: "notice error", id: "cf-mine-warning" }, [`Careful: ${hostile} is a hostile mine — the piece will be destroyed there.`]));
    controls.push(html("div", { class: "cf-pick", id: "cf-pick" }, [
      html("span", {}, [`Moving ${name}: `, html("strong", { id: "cf-path-text" }, [state.path.length ? state.path.join(" ") : "click squares to draw its path"])]),
      ...fits.map((d) => html("button", {
        type: "button", class: `btn btn-small ${d === state.path.length ? "btn-primary" : ""}`, "data-confirm": String(d),
        onclick: () => act(moveText(state.pick, options, d, state.path)),
      }, [`Move with the ${d}`])),
      state.path.length ? html("button", { type: "button", class: "btn btn-small", "data-undo-step": "true", onclick: () => { state.path = state.path.slice(0, -1); redraw(); } }, ["Back one square"]) : null,
      html("button", { type: "button", class: "btn btn-small", "data-cancel": "true", onclick: () => { state.pick = null; state.path = []; redraw(); } }, ["Cancel"]),
    ]));
  }
  if (mine) {
    controls.push(html("div", { class: "form-inline cf-buttons" }, [
      ...activations.map((d) => html("button", { type: "button", class: "btn btn-small btn-felt", "data-action": d.text, onclick: () => act(d.text) },
        [`7: activate a ${KIND_NAMES[LETTER[d.type]]}${d.seat ? ` of seat ${d.seat}` : ""}`])),
      decisions.some((d) => d.kind === "end")
        ? html("button", { type: "button", class: "btn btn-small", "data-action": "end", onclick: () => act("end") }, ["End the roll"]) : null,
    ]));
  }

  const me = snap.seat === null ? null : view.seats?.[snap.seat];
  const mover = typeof view.to_move === "number" ? view.seats?.[view.to_move] : null;
  const who = me ? `You are ${capital(SEAT_COLOURS[me - 1])} (seat ${me}).` : "You are watching.";
  let turn = "";
  if (snap.status === "over") turn = "The game is over.";
  else if (mine) turn = "Your roll.";
  else if (view.phase === "chance") turn = `${capital(SEAT_COLOURS[(view.seat ?? 1) - 1])} is about to roll.`;
  else if (mover) turn = `${capital(SEAT_COLOURS[mover - 1])}'s roll.`;
  const log = page.eventLog ?? [];
  const messages = html("div", { class: "cf-messages", id: "cf-messages", role: "log", "aria-live": "polite" }, [
    html("div", { class: "cf-who" }, [who, " ", html("strong", {}, [turn])]),
    page.lastError ? html("div", { class: "cf-error", id: "cf-error" }, [`Refused: ${page.lastError}`]) : null,
    html("ol", {}, log.slice(-8).map((line) => html("li", { class: /takes over|destroyed|captured|is out|wins|draw/.test(line) ? "big-event" : "" }, [line]))),
  ]);

  const enterable = new Set(decisions.filter((d) => d.kind === "enter").map((d) => {
    if (d.seat !== null) return `${d.seat}${LETTER[d.type]}`;
    // Without @seat only one controlled seat has that kind available (CON-64).
    const seat = [1, 2, 3, 4].find((s) => (view.available?.[s] ?? "").includes(LETTER[d.type]) && view.controllers?.[s - 1] === view.seats?.[snap.seat]);
    return `${seat}${LETTER[d.type]}`;
  }));
  const rows = pieceRows(view, {
    picked: state.pick?.kind === "enter" ? `${state.pick.seat}${state.pick.type}` : null,
    enterable: mine ? enterable : new Set(),
    onPick: (key) => {
      state.pick = { kind: "enter", seat: Number(key[0]), type: key[1] };
      state.path = [];
      redraw();
    },
  });

  return html("div", { class: "cf-table" }, [
    html("div", { class: "cf-board-wrap" }, [board]),
    html("div", { class: "cf-panel" }, [
      html("div", { class: "cf-dice", id: "cf-dice" }, [
        ...dice.map((d) => dieFace(d.value, d.used)),
        view.activation ? html("span", { class: "badge", id: "cf-seven" }, ["7: a reserve piece may be activated"]) : null,
        html("span", { class: "muted small" }, [`roll ${view.rolls ?? 0}`]),
      ]),
      ...controls,
      messages,
      html("div", { class: "cf-rows" }, rows),
    ]),
  ]);
}
