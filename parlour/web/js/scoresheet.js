// The moves list as a scoresheet: one row per turn number (the server numbers each event's `turn`,
// docs/protocol.md), the seat's person, then what the turn did in a few words, each a step of the
// replay to jump to. What a game's events say is its board's business (a board's `phrases`,
// boards/index.js: Mille folds a draw and its card into "draws", Conflict's roll leads its moves);
// here only the game-neutral folding into turns.
//
// A row is {turn, seat, runs, from}: `seat` the seat whose turn it is, `from` the index of its first
// event. Its `runs` are the turn's events between seats leaving: {seat, lead: [PHRASE], phrases:
// [PHRASE], leaving}, `lead` what belongs to the turn but to no seat (the deal), said before the
// person; a leaving (a seat resigning, even in the middle of another seat's turn, or the table's
// agreed draw) is a run of its own, `leaving` its event. A PHRASE is {version, text, alone, leads}.

const capital = (s) => (s ? `${s[0].toUpperCase()}${s.slice(1)}` : s);
/** The seat of an event that is a seat's own decision (not chance, not the table's). */
const seated = (event) => typeof event.seat === "number";
const isLeaving = (event) => Boolean(event.leaving) || event.seat === null;

/** Any game without words of its own: the event's own notation ("e2-c2", "f5>g4"). */
export function plainPhrases(events) {
  return events.map((event) => ({ version: event.version, text: event.action ?? "(hidden)" }));
}

/** The events from index `from` on in runs of one turn: the server's `turn` (else, from an older
 * server, one event a turn), each with the index of its first event. */
function byTurn(events, from) {
  const turns = [];
  for (let i = from; i < events.length; i += 1) {
    const event = events[i];
    const turn = event.turn ?? event.version;
    const last = turns[turns.length - 1];
    if (last && last.turn === turn) last.events.push(event);
    else turns.push({ turn, from: i, events: [event] });
  }
  return turns;
}

/** A turn's events cut at each leaving, which stands alone: [[event, …], [leaving], [event, …]]. */
function cutAtLeaving(events) {
  const runs = [];
  for (const event of events) {
    const last = runs[runs.length - 1];
    if (last && !isLeaving(event) && !isLeaving(last[0])) last.push(event);
    else runs.push([event]);
  }
  return runs;
}

function runOf(events, phrasesOf) {
  const first = events[0];
  if (isLeaving(first)) {
    return { seat: seated(first) ? first.seat : null, lead: [], phrases: [{ version: first.version, text: first.action ?? "" }], leaving: first };
  }
  const phrases = phrasesOf(events);
  const seat = events.find(seated)?.seat ?? (first.seat === "chance" ? "chance" : null);
  return { seat, lead: phrases.filter((p) => p.alone), phrases: phrases.filter((p) => !p.alone), leaving: null };
}

function rowOf({ turn, from, events }, phrasesOf) {
  const runs = cutAtLeaving(events).map((run) => runOf(run, phrasesOf));
  // The row's seat is the one whose turn it is: that of its moves, else of who left.
  const seat = (runs.find((run) => !run.leaving && run.seat !== null) ?? runs[0]).seat;
  return { turn, seat, runs, from };
}

/**
 * The scoresheet of a game from its events ({version, seat, action, leaving, turn}), one row a turn
 * number: {rows, count}. `phrasesOf` is the board's `phrases` (or none). `before`, the scoresheet of
 * the first `before.count` of these same events, is extended: its rows are kept but the last (a
 * turn may go on), so that a new action folds one turn, not the whole match.
 */
export function scoresheet(phrasesOf, events, before = null) {
  const say = phrasesOf ?? plainPhrases;
  const extend = before && before.rows.length && before.count <= events.length;
  const kept = extend ? before.rows.slice(0, -1) : [];
  const from = extend ? before.rows[before.rows.length - 1].from : 0;
  return { rows: [...kept, ...byTurn(events, from).map((turn) => rowOf(turn, say))], count: events.length };
}

/** Every phrase of a row, in order. */
export function rowPhrases(row) {
  return row.runs.flatMap((run) => [...run.lead, ...run.phrases]);
}

/** What separates phrase `i` from the one before it: a phrase that leads puts a colon after it. */
export function joiner(phrases, i) {
  if (i === 0 || i >= phrases.length) return "";
  return phrases[i - 1].leads ? ": " : ", ";
}

/**
 * A leaving for people: the seat's own words with the person put for the seat ("Black resigned"
 * → "Ann (Black) resigned"), the table's decisions ("draw agreed") capitalised.
 */
export function leavingText(event, seatName, label) {
  const action = event.action ?? "";
  if (!seated(event)) return capital(action);
  const name = seatName(event.seat);
  if (action.startsWith(`${name} `)) return `${label(event.seat)}${action.slice(name.length)}`;
  return `${label(event.seat)}: ${action}`;
}
