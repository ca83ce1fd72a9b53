// The Conflict match view: board, dice, message area, rows, and the path drawn click by click
// (CON-68), behind the board interface (index.js). The decisions come from the legal actions'
// parts; the path the player draws is sent as the legal text of that piece and die with the drawn
// squares in place of the canonical path (CON-64), and the server judges it.

import { html } from "../svg.js";
import {
  adjacent, boardPieces, boardSize, capitalise, controllerOf, decisionOf, diceState, dieFace, drawConflictBoard, eventMarks,
  flat, KIND_NAMES, KINDS, mapOf, pieceRows, SEAT_COLOURS, threatsBySquare,
} from "./conflict.js";
import { boardViewport } from "./conflict-zoom.js";

/** Legal decisions of the picked piece: moves from its square, or entries of its (seat, type). */
function decisionsFor(pick, decisions) {
  if (!pick) return [];
  if (pick.kind === "board") return decisions.filter((d) => d.kind === "move" && d.from === pick.square);
  return decisions.filter((d) => d.kind === "enter" && d.letter === pick.type && d.seat === pick.seat);
}

function startOf(pick, view) {
  if (!pick) return null;
  return pick.kind === "board" ? pick.square : mapOf(view).bases[pick.seat];
}

/** The text that moves the picked piece along `path` with the die `die`: a legal text of the piece
 * with its die and path replaced by the ones the player chose (CON-68: any path may be drawn). A
 * piece no legal move has (it moved this roll already, or cannot enter) is written as CON-64 writes
 * it, `d5 3: d6 d7 d8` or `enter ship@1 2: e4 f4`, for the server to say why not (issue 18). */
function moveText(options, die, path, piece) {
  const base = options.find((d) => d.die === die) ?? options[0];
  if (base) return base.text.replace(/\d: .*$/, `${die}: ${path.join(" ")}`);
  const who = piece.kind === "board" ? piece.square : `enter ${KINDS[piece.type]}@${piece.seat}`;
  return `${who} ${die}: ${path.join(" ")}`;
}

/** The squares of the board pieces the player controls: pieces that may be picked even when they
 * cannot move, to be told why by trying. */
function ownSquares(cv, me) {
  return new Set(me ? boardPieces(cv).filter((p) => controllerOf(cv, p.seat) === me).map((p) => p.square) : []);
}

/** A click with no piece picked on a square that holds none of the player's: a word on what to click. */
function idleWords(cv, square) {
  const piece = boardPieces(cv).find((p) => p.square === square);
  if (piece) {
    return `The ${KIND_NAMES[piece.kind] ?? "piece"} on ${square} is ${capitalise(SEAT_COLOURS[piece.seat - 1])}'s: `
      + "pick one of your pieces, on the board or in your available row.";
  }
  return "Pick one of your pieces first, on the board or in your available row, then draw its path.";
}

/** The squares of the last move among the marked events. */
function lastSquares(events) {
  const move = [...events].reverse().find((e) => e.kind === "move");
  return move ? [move.from, move.to].filter(Boolean) : [];
}

/** The die the drawn path uses up exactly (its length), when one is unused: what Enter confirms. */
function exactDie(pick, unused) {
  return pick.piece && pick.path?.length ? unused.find((d) => d === pick.path.length) ?? null : null;
}

/**
 * A click on the board while picking: a piece, the next square of the path, or a destination. The
 * end of the path clicked again (Enter on it, for the keyboard) moves there with the die it uses up.
 */
function clickSquare(square, { pick, decisions, options, start, maxDie, unused, own, cv, play }) {
  const movers = new Set(decisions.filter((d) => d.kind === "move").map((d) => d.from));
  const die = exactDie(pick, unused);
  if (die !== null && square === pick.path[pick.path.length - 1]) {
    play.act(moveText(options, die, pick.path, pick.piece));
    return;
  }
  if (!pick.piece) {
    if (!movers.has(square) && !own.has(square)) {
      play.toast(idleWords(cv, square));
      return;
    }
    Object.assign(pick, { piece: { kind: "board", square }, path: [] });
  } else if (pick.path.includes(square)) {
    pick.path = pick.path.slice(0, pick.path.indexOf(square) + 1); // back to that square
  } else if (square === start) {
    if (pick.path.length) pick.path = [];
    else pick.piece = null;
  } else if (adjacent(pick.path[pick.path.length - 1] ?? start, square) && pick.path.length < maxDie) {
    pick.path = [...pick.path, square];
  } else {
    // A marked destination: take the server's own path there (the smallest die first).
    const there = pick.path.length ? null
      : options.filter((d) => d.path[d.path.length - 1] === square).sort((a, b) => a.die - b.die)[0];
    if (there) pick.path = [...there.path];
    else if (movers.has(square) || own.has(square)) Object.assign(pick, { piece: { kind: "board", square }, path: [] });
    else play.toast("Click a square next to the end of the path, or a marked destination.");
  }
  play.redraw();
}

function pickControls(play, cv, { pick, options, unused }) {
  const piece = pick.piece;
  const name = piece.kind === "board"
    ? `the ${KIND_NAMES[boardPieces(cv).find((p) => p.square === piece.square)?.kind] ?? "piece"} on ${piece.square}`
    : `a new ${KIND_NAMES[piece.type]} from the base`;
  const fits = unused.filter((d) => pick.path.length && pick.path.length <= d);
  const controls = [];
  // CON-68: warn before a walk that meets a hostile mine (the mine's controller is not ours).
  const mover = cv.seats?.[play.seat];
  const mines = mapOf(cv).mines;
  const hostile = pick.path.find((sq) => mines[sq] && controllerOf(cv, mines[sq]) !== mover);
  if (hostile) controls.push(html("div", { class: "notice error", id: "cf-mine-warning" }, [`Careful: ${hostile} is a hostile mine — the piece will be destroyed there.`]));
  controls.push(html("div", { class: "cf-pick", id: "cf-pick" }, [
    html("span", {}, [`Moving ${name}: `, html("strong", { id: "cf-path-text" }, [pick.path.length ? pick.path.join(" ") : "click squares to draw its path"])]),
    ...fits.map((d) => html("button", {
      type: "button", class: `btn btn-small ${d === pick.path.length ? "btn-primary" : ""}`, "data-confirm": String(d),
      onclick: () => play.act(moveText(options, d, pick.path, piece)),
    }, [`Move with the ${d}`])),
    pick.path.length ? html("button", { type: "button", class: "btn btn-small", "data-undo-step": "true", onclick: () => { pick.path = pick.path.slice(0, -1); play.redraw(); } }, ["Back one square"]) : null,
    html("button", { type: "button", class: "btn btn-small", "data-cancel": "true", onclick: () => { pick.piece = null; pick.path = []; play.redraw(); } }, ["Cancel"]),
  ]));
  return controls;
}

function rollButtons(play, decisions) {
  const activations = decisions.filter((d) => d.kind === "activate");
  const end = decisions.find((d) => d.kind === "end");
  return html("div", { class: "form-inline cf-buttons" }, [
    ...activations.map((d) => html("button", { type: "button", class: "btn btn-small btn-felt", "data-action": d.text, onclick: () => play.act(d.text) },
      [`7: activate a ${KIND_NAMES[d.letter]} of ${capitalise(SEAT_COLOURS[d.seat - 1])}`])),
    end ? html("button", { type: "button", class: "btn btn-small", "data-action": end.text, onclick: () => play.act(end.text) }, ["End the roll"]) : null,
  ]);
}

/** Who plays a colour (1–4), as the page names people ("Ann (Red)"), else the colour alone. */
function player(play, cv, colour) {
  const seat = (cv.seats ?? []).indexOf(colour);
  return seat >= 0 ? play.name(seat) : capitalise(SEAT_COLOURS[colour - 1]);
}

function messageArea(play, cv, mine) {
  const me = play.seat === null ? null : cv.seats?.[play.seat];
  const mover = typeof cv.to_move === "number" ? cv.seats?.[cv.to_move] : null;
  const who = me ? `You are ${capitalise(SEAT_COLOURS[me - 1])} (seat ${me}).` : "You are watching.";
  let turn = "";
  if (play.status === "over") turn = "The game is over.";
  else if (mine) turn = "Your roll.";
  else if (cv.phase === "chance") turn = `${player(play, cv, cv.seat ?? 1)} is about to roll.`;
  else if (mover) turn = `${player(play, cv, mover)} to roll.`;
  const log = play.memory.log ?? [];
  return html("div", { class: "cf-messages", id: "cf-messages" }, [
    html("div", { class: "cf-who" }, [who, " ", html("strong", {}, [turn])]),
    play.lastError ? html("div", { class: "cf-error", id: "cf-error", role: "alert" }, [`Refused: ${play.lastError}`]) : null,
    html("ol", {}, log.slice(-8).map((line) => html("li", { class: /takes over|destroyed|captured|is out|wins|draw/.test(line) ? "big-event" : "" }, [line]))),
  ]);
}

/** Threats grouped by the square they concern, in the order of the most dangerous of each. */
const groups = (threats) => [...threatsBySquare(threats).values()];

/**
 * One square in danger: the most dangerous rival's threat in words (its likeliest piece, and how many
 * more of its pieces can: `others`), the other rivals' folded under it.
 */
function threatItem(group) {
  const [first, ...others] = group;
  const line = (t) => [html("span", { class: `swatch swatch-${SEAT_COLOURS[t.by - 1]}`, "aria-hidden": "true" }), " ", t.text];
  return html("li", { "data-threat-item": first.square, "data-threat-target": first.target }, [
    html("span", { class: "cf-threat-first" }, line(first)),
    others.length ? html("details", { class: "cf-threat-more" }, [
      html("summary", {}, [`${others.length} more ${others.length === 1 ? "rival" : "rivals"} can reach ${first.square}`]),
      html("ul", {}, others.map((t) => html("li", {}, line(t)))),
    ]) : null,
  ]);
}

/**
 * The threats against the player in words (`threatsToMe`, most dangerous first), a line a square:
 * the home base first, in a warning of its own, then the pieces (five, the rest folded away).
 */
function threatList(play, cv) {
  const threats = play.status === "over" ? [] : cv.threats ?? [];
  if (!threats.length) return null;
  const onBase = groups(threats.filter((t) => t.target === "base"));
  const onPieces = groups(threats.filter((t) => t.target !== "base"));
  const shown = onPieces.slice(0, 5);
  const more = onPieces.slice(5);
  return html("section", { class: "cf-threats", id: "cf-threats", "aria-labelledby": "cf-threats-title" }, [
    html("h3", { id: "cf-threats-title" }, ["In danger on the next roll"]),
    onBase.length ? html("ul", { class: "cf-base-danger", id: "cf-base-danger" }, onBase.map(threatItem)) : null,
    shown.length ? html("ul", { class: "cf-piece-danger" }, shown.map(threatItem)) : null,
    more.length ? html("details", {}, [html("summary", {}, [`${more.length} more of your pieces`]),
      html("ul", { class: "cf-piece-danger" }, more.map(threatItem))]) : null,
  ]);
}

// ---- "how to play", shown the first time a person plays Conflict on this browser ----

const HOWTO_KEY = "parlour.howto.conflict";

function howtoSeen() {
  try {
    return localStorage.getItem(HOWTO_KEY) === "seen";
  } catch {
    return true; // storage refused: do not nag on every page
  }
}

/** Whether the card is open: the first time a person plays, until closed; its button opens it again. */
function howtoOpen(play) {
  play.memory.howto ??= play.seat !== null && play.status !== "over" && !howtoSeen();
  return play.memory.howto;
}

function setHowto(play, open) {
  play.memory.howto = open;
  if (!open) {
    try {
      localStorage.setItem(HOWTO_KEY, "seen");
    } catch {
      // nothing to remember it in: it shows again next time
    }
  }
  play.redraw();
}

const mark = (label) => html("span", { class: "howto-mark", "data-howto-mark": label, "aria-hidden": "true" }, [label]);

function howtoCard(play, cv) {
  const me = play.seat === null ? null : cv.seats?.[play.seat];
  const base = me ? mapOf(cv).bases[me] : null;
  return html("section", { class: "cf-howto", id: "cf-howto", "aria-labelledby": "cf-howto-title" }, [
    html("h3", { id: "cf-howto-title" }, ["How to play"]),
    html("ol", {}, [
      html("li", {}, [mark("1"), html("strong", {}, [" The dice: "]),
        "move one piece with each die, exactly that many squares (or end the roll)."]),
      html("li", {}, [mark("2"), html("strong", {}, [" Your pieces to enter: "]),
        "pick one, click squares from your base to draw its path, confirm with the die."]),
      html("li", {}, [mark("3"), html("strong", {}, [` Your base${base ? ` (${base})` : ""}: `]),
        "a rival landing on it takes you over. On your roll, squares rivals can reach on their next roll are ringed in their colour."]),
    ]),
    html("p", { class: "small" }, ["Land on a rival's base to take them over; the last player in wins. ",
      html("a", { href: "/help/conflict" }, ["All the rules"])]),
    html("button", { type: "button", class: "btn btn-small btn-primary", id: "cf-howto-close", onclick: () => setHowto(play, false) }, ["Got it"]),
  ]);
}

/** The threats against the seats the page's player controls: the view lists the player on roll's
 * (the one deciding before its roll ends), `against` naming whose base or piece, the same for every
 * viewer, so only the player on roll is warned; a spectator never. */
function threatsToMe(cv, me) {
  if (!me) return [];
  return (cv.threats ?? []).filter((t) => controllerOf(cv, t.against ?? me) === me);
}

function drawTable(play) {
  const cv = flat(play.view);
  const me = play.seat === null ? null : cv.seats?.[play.seat] ?? null; // the player's colour (1-4)
  cv.threats = threatsToMe(cv, me);
  const { pick } = play;
  pick.path ??= [];
  const decisions = play.legal.map(decisionOf);
  const mine = decisions.length > 0;
  const options = decisionsFor(pick.piece, decisions);
  const start = startOf(pick.piece, cv);
  const unused = [...new Set(cv.unused ?? [])].sort();
  const destinations = new Map();
  if (mine && pick.piece && !pick.path.length) {
    for (const d of options) {
      const end = d.path[d.path.length - 1];
      destinations.set(end, [...new Set([...(destinations.get(end) ?? []), d.die])].sort());
    }
  }
  const marked = play.memory.marked ?? [];
  const marks = {
    ...eventMarks(marked), last: lastSquares(marked), start, path: pick.path, destinations,
    movable: mine && !pick.piece ? new Set(decisions.filter((d) => d.kind === "move").map((d) => d.from)) : new Set(),
    selected: pick.piece?.kind === "board" ? pick.piece.square : null,
  };
  const howto = howtoOpen(play);
  if (howto && me && mapOf(cv).bases[me]) marks.pointer = { square: mapOf(cv).bases[me], label: "3" };
  const context = { pick, decisions, options, start, maxDie: Math.max(0, ...unused), unused, own: ownSquares(cv, me), cv, play };
  // Away from the player's roll a click sends nothing: the page says whose turn it is.
  const onClick = (square) => (mine ? clickSquare(square, context) : play.notNow());
  const board = drawConflictBoard(cv, marks, { onClick, focus: play.focus, title: "Conflict board" });
  board.classList.toggle("interactive", mine);
  const controls = mine && pick.piece ? pickControls(play, cv, { pick, options, unused }) : [];
  const enterable = new Set(decisions.filter((d) => d.kind === "enter").map((d) => `${d.seat}${d.letter}`));
  const rows = pieceRows(cv, {
    picked: pick.piece?.kind === "enter" ? `${pick.piece.seat}${pick.piece.type}` : null,
    enterable: mine ? enterable : new Set(),
    asker: mine ? me : null,
    onPick: (key) => {
      Object.assign(pick, { piece: { kind: "enter", seat: Number(key[0]), type: key[1] }, path: [] });
      play.redraw();
    },
  });
  const ownRow = me ? rows.find((row) => row.dataset?.player === String(me)) ?? null : null;
  if (howto) ownRow?.querySelector(".cf-row-line")?.prepend(mark("2"));
  const size = boardSize(cv);
  return html("div", { class: "cf-table" }, [
    boardViewport(play.memory, board, size, pick.piece && !pick.path.length ? start : null),
    html("div", { class: "cf-panel" }, [
      html("div", { class: "cf-dice", id: "cf-dice" }, [
        howto ? mark("1") : null,
        ...diceState(cv).map((d) => dieFace(d.value, d.used)),
        cv.activation ? html("span", { class: "badge", id: "cf-seven" }, ["7: a reserve piece may be activated"]) : null,
        html("span", { class: "muted small" }, [`roll ${cv.rolls ?? 0}`]),
        howto ? null : html("button", {
          type: "button", class: "btn btn-small cf-howto-open", id: "cf-howto-open", onclick: () => setHowto(play, true),
        }, ["How to play"]),
      ]),
      ...controls,
      mine ? rollButtons(play, decisions) : null,
      threatList(play, cv),
      // The player's own row (the pieces to enter) next to the controls, the others' below.
      ownRow ? html("div", { class: "cf-rows" }, [ownRow]) : null,
      howto ? howtoCard(play, cv) : null,
      messageArea(play, cv, mine),
      html("div", { class: "cf-rows" }, rows.filter((row) => row !== ownRow)),
    ]),
  ]);
}

// ---- the scoresheet (../scoresheet.js): `roll A-B` (chance), `SQ D: path`, `enter KIND[@S] D: path`,
// `activate KIND[@S]`, `end` ----

const PIECE_WORDS = { aagun: "anti-aircraft gun", airplane: "airplane", cannon: "cannon", ship: "ship", submarine: "submarine" };
const article = (word) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
const pieceWords = (kind) => article(PIECE_WORDS[kind] ?? kind);
const pathEnd = (path) => path.split(" ").at(-1);

function actionWords(action) {
  const roll = /^roll (\d)-(\d)$/.exec(action);
  if (roll) return `rolls ${roll[1]} and ${roll[2]}`;
  const enter = /^enter (\w+)(?:@\d)? (\d): (.*)$/.exec(action);
  if (enter) return `enters ${pieceWords(enter[1])} to ${pathEnd(enter[3])} (${enter[2]})`;
  const move = /^([a-z]\d+) (\d): (.*)$/.exec(action);
  if (move) return `moves ${move[1]}–${pathEnd(move[3])} (${move[2]})`;
  const activate = /^activate (\w+)/.exec(action);
  if (activate) return `activates ${pieceWords(activate[1])}`;
  if (action === "end") return "ends the roll";
  return action;
}

/** One turn's events in words: the roll leads the moves it allows ("rolls 3 and 5: moves d5–b7 (3), …"). */
export function conflictPhrases(events) {
  return events.map((event) => ({
    version: event.version, text: actionWords(event.action ?? ""), leads: /^roll /.test(event.action ?? ""),
  }));
}

/** A picture of a Conflict board for the lobby (a match's own map comes with its view). */
const SKETCH = {
  cols: 8,
  rows: 8,
  terrain: ["........", ".+~~~~+.", ".~~~~~~.", ".~~..~~.", ".~~..~~.", ".~~~~~~.", ".+~~~~+.", "........"],
  bases: { 1: "b2", 2: "g2", 3: "b7", 4: "g7" },
  mines: { a1: 1, h1: 2, a8: 3, h8: 4 },
};

export default {
  name: "conflict",
  tagline: "Land, sea and air: take your rivals' bases — 2 to 4 players",
  // The option `seats` (CON-17) picks which colours play: seat i has the colour of seats[i].
  swatch: (seat, options) => SEAT_COLOURS[(options?.seats?.[seat] ?? seat + 1) - 1] ?? "red",
  mark: (seat, options) => (SEAT_COLOURS[(options?.seats?.[seat] ?? seat + 1) - 1] ?? "?")[0].toUpperCase(),
  // A map given as text (CON-10) is shown by its name.
  optionText: (name, value, view) => (name === "board" ? view?.content?.board?.name : undefined),
  progress(view) {
    const limit = view.options?.roll_limit;
    return `roll ${view.content?.position?.rolls ?? 0}${limit ? ` of ${limit}` : ""}`;
  },
  counts(view) {
    const cv = flat(view);
    const per = {};
    (cv.seats ?? []).forEach((seat, i) => {
      const on = boardPieces(cv).filter((p) => p.seat === seat).length;
      per[i] = on + (cv.available?.[seat] ?? "").length + (cv.reserve?.[seat] ?? "").length;
    });
    return per;
  },
  /** A small drawing of a view's map (the lobby's map picker draws the default one from the game's start). */
  mapPicture: (view, title) => drawConflictBoard({ ...flat(view), pieces: [], threats: [] }, {}, { title }),
  thumbnail: () => drawConflictBoard({ board: SKETCH, pieces: ["1C a2", "1S c4", "2A g1", "2S f3", "3U c6", "4G h7"], controllers: [1, 2, 3, 4] },
    {}, { title: "Conflict" }),
  hint(play) {
    if (play.legal.some((a) => a.parts.kind === "activate")) return "A 7! You may activate a reserve piece, and move a piece with each die.";
    return "Pick a piece on the board or in your available row, draw its path, then confirm.";
  },
  remember(memory, before, after) {
    const cv = flat(after);
    const events = cv.event_data ?? [];
    // A bare roll of the dice (the server rolls at once after a roll ends) keeps the marks of the action before it.
    const bareRoll = before && events.length > 0 && events.every((e) => e.kind === "roll");
    memory.marked = bareRoll ? [...(memory.marked ?? []), ...events] : events;
    memory.log = [...(before ? memory.log ?? [] : []), ...(cv.events ?? [])].slice(-200);
  },
  draw: drawTable,
  /** Enter: the path drawn is moved along with the die it uses up exactly; false when none fits. */
  confirm(play) {
    const { pick } = play;
    const die = exactDie(pick, [...new Set(flat(play.view).unused ?? [])]);
    if (die === null) return false;
    play.act(moveText(decisionsFor(pick.piece, play.legal.map(decisionOf)), die, pick.path, pick.piece));
    return true;
  },
  phrases: conflictPhrases,
};
