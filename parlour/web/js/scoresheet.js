// The moves list as a scoresheet: one row per turn (the server numbers each event's `turn`,
// docs/protocol.md), the seat's person, then what the turn did in a few words, each a step of the
// replay to jump to. A game whose events read badly one by one folds them here: Mille's draw and
// the card drawn become "draws", its deal one "cards dealt"; Conflict's roll leads its moves
// ("rolls 3 and 5: moves d5–b7 (3), …").
//
// A row is {turn, seat, lead: [PHRASE], phrases: [PHRASE], leaving}: `lead` holds what belongs to the
// turn but to no seat (the deal), said before the person; a PHRASE is {version, text}.

const capital = (s) => (s ? `${s[0].toUpperCase()}${s.slice(1)}` : s);
const cardWords = (card) => card.replaceAll("-", " ");
/** The seat of an event that is a seat's own decision (not chance, not the table's). */
const seated = (event) => typeof event.seat === "number";

// ---- Mille Bornes: `draw`, `card K` (chance; `card ?` to whoever may not see it), `play K`,
// `discard K`, `coup K`, `extend yes|no`, each maybe with `@SLOT` ----

const MILLE_VERBS = { play: "plays", discard: "discards", coup: "plays a coup fourré:" };

function milleText(action) {
  const [verb, rest = ""] = action.replace(/@\S+/, "").split(/\s+/, 2);
  if (MILLE_VERBS[verb]) return `${MILLE_VERBS[verb]} ${cardWords(rest)}`;
  if (verb === "extend") return rest === "yes" ? "extends the trip" : "does not extend the trip";
  return action;
}

/** Mille: a draw and the card it brings are one phrase ("draws", "draws 100" once cards are shown);
 * cards that come with no draw before them are the deal. */
function millePhrases(events) {
  const out = [];
  let drawing = false;
  for (const event of events) {
    const action = event.action ?? "";
    if (event.seat === "chance" && action.startsWith("card")) {
      const card = action.slice(5).trim();
      if (drawing) {
        const last = out[out.length - 1];
        Object.assign(last, { version: event.version, text: card && card !== "?" ? `draws ${cardWords(card)}` : "draws" });
        drawing = false;
      } else if (out.length && out[out.length - 1].deal) {
        out[out.length - 1].version = event.version;
      } else {
        out.push({ version: event.version, text: "cards dealt", deal: true, alone: true });
      }
      continue;
    }
    drawing = seated(event) && action === "draw";
    out.push({ version: event.version, text: drawing ? "draws" : milleText(action), event });
  }
  return out;
}

// ---- Conflict: `roll A-B` (chance), `SQ D: path`, `enter KIND[@S] D: path`, `activate KIND[@S]`, `end` ----

const CONFLICT_KINDS = { aagun: "anti-aircraft gun", airplane: "airplane", cannon: "cannon", ship: "ship", submarine: "submarine" };
const article = (word) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

function conflictText(action) {
  const roll = /^roll (\d)-(\d)$/.exec(action);
  if (roll) return `rolls ${roll[1]} and ${roll[2]}`;
  const enter = /^enter (\w+)(?:@\d)? (\d): (.*)$/.exec(action);
  if (enter) {
    const path = enter[3].split(" ");
    return `enters ${article(CONFLICT_KINDS[enter[1]] ?? enter[1])} to ${path[path.length - 1]} (${enter[2]})`;
  }
  const move = /^([a-z]\d+) (\d): (.*)$/.exec(action);
  if (move) {
    const path = move[3].split(" ");
    return `moves ${move[1]}–${path[path.length - 1]} (${move[2]})`;
  }
  const activate = /^activate (\w+)/.exec(action);
  if (activate) return `activates ${article(CONFLICT_KINDS[activate[1]] ?? activate[1])}`;
  if (action === "end") return "ends the roll";
  return action;
}

/** Conflict: the roll leads the turn it belongs to, the moves follow it after a colon. */
function conflictPhrases(events) {
  return events.map((event) => ({
    version: event.version, text: conflictText(event.action ?? ""), event, roll: /^roll /.test(event.action ?? ""),
  }));
}

/** Any other game: the event's own notation ("e2-c2", "f5>g4"). */
function plainPhrases(events) {
  return events.map((event) => ({ version: event.version, text: event.action ?? "(hidden)", event }));
}

const PHRASES = { mille: millePhrases, conflict: conflictPhrases };

/** The events in runs of one turn: the server's `turn`, else (an older server) one event a turn. */
function byTurn(events) {
  const turns = [];
  for (const event of events) {
    const turn = event.turn ?? event.version;
    const last = turns[turns.length - 1];
    // A leaving action carries the current turn but is a row of its own: it is no move of that turn.
    if (last && last.turn === turn && !event.leaving && !last.leaving) last.events.push(event);
    else turns.push({ turn, events: [event], leaving: Boolean(event.leaving) || event.seat === null });
  }
  return turns;
}

/** The scoresheet of `game` from its events ({version, seat, action, leaving, turn}), one row a turn. */
export function scoresheet(game, events) {
  const phrasesOf = PHRASES[game] ?? plainPhrases;
  return byTurn(events).map(({ turn, events: run, leaving }) => {
    const seat = run.find(seated)?.seat ?? (run[0].seat === "chance" ? "chance" : null);
    if (leaving) return { turn, seat, lead: [], phrases: [{ version: run[0].version, text: run[0].action ?? "" }], leaving: run[0] };
    const phrases = phrasesOf(run);
    return { turn, seat, lead: phrases.filter((p) => p.alone), phrases: phrases.filter((p) => !p.alone), leaving: null };
  });
}

/** What separates phrase `i` from the one before it: a roll leads the moves after it with a colon. */
export function joiner(phrases, i) {
  if (i === 0 || i >= phrases.length) return "";
  return phrases[i - 1].roll ? ": " : ", ";
}

/**
 * A leaving row for people: the seat's own words with the person put for the seat ("Black resigned"
 * → "Ann (Black) resigned"), the table's decisions ("draw agreed") capitalised.
 */
export function leavingText(event, seatName, label) {
  const action = event.action ?? "";
  if (!seated(event)) return capital(action);
  const name = seatName(event.seat);
  if (action.startsWith(`${name} `)) return `${label(event.seat)}${action.slice(name.length)}`;
  return `${label(event.seat)}: ${action}`;
}
