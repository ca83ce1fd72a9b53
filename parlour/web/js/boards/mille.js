// Mille Bornes cards drawn in SVG, and the table built from a seat's view (MIL-57). The page
// knows only card names and what the view says; the decisions come from the legal actions' parts:
// a card of the hand, then "play" or "discard" (or "coup"), the draw pile, the extension question.

import { html, roving, svg } from "../svg.js";

export const CARDS = {
  25: { name: "25", type: "distance" },
  50: { name: "50", type: "distance" },
  75: { name: "75", type: "distance" },
  100: { name: "100", type: "distance" },
  200: { name: "200", type: "distance" },
  "out-of-gas": { name: "Out of Gas", type: "hazard" },
  "flat-tire": { name: "Flat Tire", type: "hazard" },
  accident: { name: "Accident", type: "hazard" },
  stop: { name: "Stop", type: "hazard" },
  "speed-limit": { name: "Speed Limit", type: "hazard" },
  gasoline: { name: "Gasoline", type: "remedy" },
  "spare-tire": { name: "Spare Tire", type: "remedy" },
  repairs: { name: "Repairs", type: "remedy" },
  go: { name: "Go", type: "remedy" },
  "end-of-limit": { name: "End of Limit", type: "remedy" },
  "extra-tank": { name: "Extra Tank", type: "safety" },
  "puncture-proof": { name: "Puncture Proof", type: "safety" },
  "driving-ace": { name: "Driving Ace", type: "safety" },
  "right-of-way": { name: "Right of Way", type: "safety" },
};

export const SAFETIES = ["extra-tank", "puncture-proof", "driving-ace", "right-of-way"];

const STYLE = {
  distance: { band: "#1f6fb4", face: "#f4f8fd", label: "miles" },
  hazard: { band: "#c0392b", face: "#fdf3f1", label: "hazard" },
  remedy: { band: "#2e8b57", face: "#f1faf4", label: "remedy" },
  safety: { band: "#b8860b", face: "#fff8e3", label: "safety" },
};

/** The name of a card token ("out-of-gas" → "Out of Gas"). */
export function cardName(token) {
  return CARDS[token]?.name ?? String(token);
}

function words(name) {
  const parts = name.split(" ");
  if (parts.length <= 1) return [name];
  if (parts.length === 2) return parts;
  return [parts.slice(0, parts.length - 1).join(" "), parts[parts.length - 1]];
}

/**
 * One card face as an SVG (60×90 units). `token` null draws an empty place; "back" draws the back
 * of a card. Options: {coup: true} marks a coup fourré, {title} for assistive text.
 */
export function drawCard(token, options = {}) {
  const root = svg("svg", {
    viewBox: "0 0 60 90", class: `mille-card${token ? "" : " empty"}`, role: "img",
    "aria-label": options.title ?? (token ? cardName(token) : "empty"),
  });
  if (!token) {
    root.append(svg("rect", { x: 2, y: 2, width: 56, height: 86, rx: 6, class: "card-place" }));
    if (options.label) root.append(svg("text", { x: 30, y: 49, "text-anchor": "middle", class: "card-place-label" }, [options.label]));
    return root;
  }
  if (token === "back") {
    root.append(
      svg("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, fill: "#1f4d3f", stroke: "#0f2a22", "stroke-width": 1.5 }),
      svg("rect", { x: 6, y: 6, width: 48, height: 78, rx: 4, fill: "none", stroke: "#d9b36b", "stroke-width": 1.5 }),
      svg("text", { x: 30, y: 42, "text-anchor": "middle", fill: "#f3e3bd", "font-size": 11, "font-weight": 700 }, ["MILLE"]),
      svg("text", { x: 30, y: 56, "text-anchor": "middle", fill: "#f3e3bd", "font-size": 11, "font-weight": 700 }, ["BORNES"]),
    );
    return root;
  }
  const type = CARDS[token]?.type ?? "distance";
  const style = STYLE[type];
  root.append(
    svg("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, fill: style.face, stroke: style.band, "stroke-width": 2 }),
    svg("rect", { x: 1, y: 1, width: 58, height: 16, rx: 6, fill: style.band }),
    svg("rect", { x: 1, y: 10, width: 58, height: 7, fill: style.band }),
    svg("text", { x: 30, y: 13, "text-anchor": "middle", fill: "#fff", "font-size": 9, "font-weight": 600 }, [style.label]),
  );
  if (type === "distance") {
    root.append(svg("text", { x: 30, y: 60, "text-anchor": "middle", fill: style.band, "font-size": token === "25" || token === "50" || token === "75" ? 26 : 22, "font-weight": 800 }, [token]));
  } else {
    const lines = words(cardName(token));
    const top = lines.length === 1 ? 56 : 49;
    lines.forEach((line, i) => root.append(svg("text", {
      x: 30, y: top + i * 13, "text-anchor": "middle", fill: style.band, "font-size": line.length > 7 ? 9.5 : 11.5, "font-weight": 700,
    }, [line])));
    if (type === "hazard") root.append(svg("path", { d: "M30 22 L40 38 L20 38 Z", fill: "none", stroke: style.band, "stroke-width": 2 }));
    if (type === "remedy") root.append(svg("circle", { cx: 30, cy: 30, r: 7, fill: "none", stroke: style.band, "stroke-width": 2 }));
    if (type === "safety") root.append(svg("path", { d: "M30 21 L39 25 L37 35 L30 39 L23 35 L21 25 Z", fill: "none", stroke: style.band, "stroke-width": 2 }));
  }
  if (options.coup) {
    root.append(
      svg("g", { transform: "rotate(-10 30 76)", class: "coup-mark" }, [
        svg("rect", { x: 5, y: 70, width: 50, height: 11, rx: 3, fill: "#c0392b" }),
        svg("text", { x: 30, y: 78.5, "text-anchor": "middle", fill: "#fff", "font-size": 6.6, "font-weight": 700 }, ["COUP FOURRÉ"]),
      ]),
    );
  }
  return root;
}

// ---- the table ----

const LINES = [
  ["milestones", "Milestones played"],
  ["safeties", "Each safety"],
  ["all_four", "All 4 safeties"],
  ["coups", "Each coup fourré"],
  ["trip", "Trip completed"],
  ["safe_trip", "Safe trip (no 200s)"],
  ["delayed_action", "Delayed action"],
  ["extension", "Extension"],
  ["shut_out", "Shut-out"],
  ["hand_total", "Hand total"],
  ["game_total", "Game total"],
];

const HOW = { trip: "the trip was completed", declined: "the extension was declined", 1000: "1000 miles were reached", "play-out": "no one could play any more" };

/** Legal decisions by card: {token: {play, discard, coup}} (legal texts), and the others by kind. */
export function decisionsByCard(legal) {
  const cards = {};
  const other = {};
  for (const { text, parts } of legal ?? []) {
    if (["play", "discard", "coup"].includes(parts.kind) && parts.card) {
      cards[parts.card] = { ...(cards[parts.card] ?? {}), [parts.kind]: text };
    } else (other[parts.kind] ??= []).push({ text, parts });
  }
  return { cards, other };
}

function pile(title, top, cls = "", extra = {}) {
  return html("div", { class: `mille-pile ${cls}`, ...extra }, [
    drawCard(top ?? null, { label: top ? undefined : "—", title: `${title}: ${top ? cardName(top) : "empty"}` }),
    html("span", { class: "pile-label" }, [title]),
  ]);
}

function milesRow(seatView) {
  const miles = seatView.miles ?? {};
  const chips = ["25", "50", "75", "100", "200"].filter((d) => miles[d]).map((d) => html("span", { class: "miles-chip" }, [`${d} × ${miles[d]}`]));
  return html("div", { class: "miles-row" }, chips.length ? chips : [html("span", { class: "muted small" }, ["no miles yet"])]);
}

function safetiesRow(seatView) {
  const played = new Map((seatView.safeties ?? []).map((s) => [s.card, s.coup]));
  return html("div", { class: "safety-row" }, SAFETIES.map((token) => html("div", {
    class: `safety-slot${played.has(token) ? " played" : ""}`, "data-safety": token, "data-coup": played.get(token) ? "true" : undefined,
  }, [played.has(token) ? drawCard(token, { coup: played.get(token) }) : drawCard(null, { label: "", title: `${cardName(token)} not played` })])));
}

/** "Ann's hand", or "Your hand" for this page's seat (whose name reads "You"). */
function handOf(name) {
  return name === "You" ? "Your hand" : `${name}'s hand`;
}

/**
 * A seat's hand of cards face up, labelled with its name: the open view of a finished match
 * (`content.hands`, each seat's slots as its own view has them) shows every hand, as at a real
 * table once the game is over. The cards it just received (`content.received`) are marked.
 */
function openHand(content, seat, name) {
  const slots = content.hands[seat] ?? [];
  const fresh = new Set(content.received?.[seat] ?? []);
  const label = handOf(name(seat));
  const cards = slots.map((token, i) => {
    if (!token) return null;
    const justDrawn = i === 0 && fresh.has(token);
    return html("div", { class: `hand-slot${i === 0 ? " picked" : ""}${justDrawn ? " fresh" : ""}`, "data-card": token },
      [drawCard(token, { title: cardLabel(token, justDrawn) })]);
  }).filter(Boolean);
  return html("div", { class: "open-hand", "data-hand": String(seat) }, [
    html("span", { class: "pile-label" }, [label]),
    html("div", { class: "hand-row", role: "group", "aria-label": label },
      cards.length ? cards : [html("span", { class: "pile-label" }, ["no cards"])]),
  ]);
}

/** One seat's side of the table: name, miles, battle/speed piles, safeties; the seat's hand face
 * down, or face up when the view shows every hand (`content.hands`). */
function seatArea(content, seat, name, mine) {
  const hand = content.hand;
  const s = hand.seats[seat];
  const goal = hand.goal ?? 700;
  const progress = Math.min(100, (100 * (s.mileage ?? 0)) / goal);
  const status = [s.rolling ? "rolling" : "stopped", s.limited ? "speed limit" : null].filter(Boolean).join(" · ");
  return html("section", { class: `mille-seat${mine ? " mine" : ""}`, "data-seat-area": String(seat), "aria-label": name(seat) }, [
    html("div", { class: "mille-seat-head" }, [
      html("strong", {}, [name(seat)]),
      html("span", { class: "muted small" }, [` ${status}`]),
      html("span", { class: "mille-score", "data-score": String(seat) }, [
        `hand ${s.hand_total} · game ${s.game_total}`, s.games_won ? ` · games won ${s.games_won}` : "",
      ]),
    ]),
    html("div", { class: "mileage" }, [
      html("div", { class: "mileage-bar" }, [html("div", { style: `width:${progress}%` })]),
      html("span", { class: "mileage-text", "data-miles": String(seat) }, [`${s.mileage} / ${goal} miles`]),
    ]),
    html("div", { class: "mille-piles" }, [
      pile("battle", s.battle, "battle", { "data-battle": String(seat) }),
      pile("speed", s.speed, "speed", { "data-speed": String(seat) }),
      html("div", { class: "mille-safeties" }, [safetiesRow(s), milesRow(s)]),
    ]),
    content.hands ? openHand(content, seat, name)
      : mine ? null : html("div", { class: "opponent-hand", role: "img", "aria-label": `${name(seat)} holds ${s.cards} cards` },
        Array.from({ length: s.cards ?? 0 }, () => drawCard("back"))),
  ]);
}

/** The end-of-hand score table (MIL-53), every line named. */
export function scoreTable(lastHand, names) {
  if (!lastHand) return null;
  const seats = lastHand.seats ?? [];
  return html("div", { class: "mille-scores", id: "mille-scores" }, [
    html("h3", {}, [`Last hand: ${HOW[lastHand.how] ?? lastHand.how}`]),
    html("table", { class: "score-table" }, [
      html("thead", {}, [html("tr", {}, [html("th", {}, [""]), ...seats.map((_, i) => html("th", {}, [names(i)]))])]),
      html("tbody", {}, LINES.map(([key, label]) => html("tr", { class: key.endsWith("total") ? "total" : "", "data-line": key }, [
        html("th", {}, [label]), ...seats.map((s) => html("td", {}, [String(s[key] ?? 0)])),
      ]))),
    ]),
  ]);
}

function centreArea(content, other, act) {
  const hand = content.hand;
  const draw = other.draw?.[0];
  return html("div", { class: "mille-centre" }, [
    html("button", {
      type: "button", class: `mille-pile draw-pile${draw ? " can" : ""}`, "data-draw": "true", disabled: !draw,
      onclick: () => draw && act(draw.text),
    }, [hidden(drawCard(hand.pile_size ? "back" : null, { label: "empty" })),
      html("span", { class: "pile-label", id: "pile-size" }, [`draw pile ${hand.pile_size}`])]),
    pile("discards", (hand.discards ?? [])[hand.discards.length - 1], "discard-pile", { id: "discard-pile" }),
    html("div", { class: "mille-goal" }, [
      html("strong", {}, [`Goal ${hand.goal ?? 700}`]), hand.extended ? html("span", { class: "badge" }, ["extended"]) : null,
      html("span", { class: "muted small" }, [`game ${content.match.game_no} · hand ${content.match.hand_no}`]),
    ]),
  ]);
}

function extendQuestion(choices, act) {
  const yes = choices.find((c) => c.parts.yes);
  const no = choices.find((c) => !c.parts.yes);
  return html("div", { class: "notice extend-question", id: "extend-question" }, [
    html("strong", {}, ["You reached 700 miles. Extend the trip to 1000?"]),
    html("div", { class: "form-inline" }, [
      yes ? html("button", { type: "button", class: "btn btn-primary", "data-action": yes.text, onclick: () => act(yes.text) }, ["Extend to 1000"]) : null,
      no ? html("button", { type: "button", class: "btn", "data-action": no.text, onclick: () => act(no.text) }, ["Stop at 700"]) : null,
    ]),
  ]);
}

/** Decisions of kinds this table has no place for: plain buttons, so that none is out of reach. */
function otherButtons(other, act) {
  const rest = Object.entries(other).filter(([kind]) => !["draw", "extend"].includes(kind)).flatMap(([, list]) => list);
  if (!rest.length) return null;
  return html("div", { class: "form-inline mille-other" }, rest.map((a) => html("button", {
    type: "button", class: "btn btn-small", "data-action": a.text, onclick: () => act(a.text) }, [a.text])));
}

/** The whole table for a `play` context (boards/index.js). */
export function drawMilleTable(play) {
  const content = play.view.content;
  const me = typeof play.view.seat === "number" ? play.view.seat : null;
  const { cards, other } = decisionsByCard(play.legal);
  const opponents = [0, 1].filter((seat) => seat !== me);
  const parts = opponents.map((seat) => seatArea(content, seat, play.name, false));
  parts.push(centreArea(content, other, play.act));
  // A view that shows every hand draws this seat's in its area: no second row of it.
  if (me !== null) parts.push(seatArea(content, me, play.name, true), content.hands ? null : handRow(content, cards, play));
  if (other.extend) parts.push(extendQuestion(other.extend, play.act));
  parts.push(otherButtons(other, play.act));
  return html("div", { class: "mille-table" }, parts);
}

/** A picture whose words its button already says. */
function hidden(picture) {
  picture.setAttribute("aria-hidden", "true");
  return picture;
}

/** A card of the hand as a screen reader says it: "Speed Limit, hazard, just drawn". */
function cardLabel(token, fresh) {
  return [cardName(token), CARDS[token]?.type === "distance" ? "miles" : CARDS[token]?.type, fresh ? "just drawn" : null]
    .filter(Boolean).join(", ");
}

/**
 * The buttons of the card chosen: its legal decisions, and for a play or a discard the rules do not
 * allow now, "Why not play 75?", which sends `play 75` (MIL-64) for the server to refuse with the
 * engine's reason ("distance is played only while rolling …"): a card that cannot be played says so.
 */
function handButtons(token, d, act) {
  if (!token) return [];
  const button = (text, label, primary) => html("button", { type: "button", class: `btn${primary ? " btn-primary" : ""}`,
    "data-action": text, onclick: () => act(text) }, [label]);
  const why = (verb) => html("button", { type: "button", class: "btn btn-why", "data-why": `${verb} ${token}`,
    onclick: () => act(`${verb} ${token}`) }, [`Why not ${verb} ${cardName(token)}?`]);
  return [
    d.coup ? button(d.coup, `Coup fourré: ${cardName(token)}!`, true) : null,
    d.play ? button(d.play, `Play ${cardName(token)}`, true) : why("play"),
    d.discard ? button(d.discard, `Discard ${cardName(token)}`, false) : why("discard"),
  ].filter(Boolean);
}

function handRow(content, cards, play) {
  const slots = content.private?.slots ?? [];
  const fresh = new Set(content.private?.received ?? []);
  const chosen = play.pick.slot ?? null;
  const coupOffer = Object.entries(cards).filter(([, d]) => d.coup);
  const choose = (i) => {
    play.pick.slot = chosen === i ? null : i;
    play.redraw();
  };
  const items = slots.map((token, i) => {
    if (!token) return html("div", { class: "hand-slot empty", "data-slot": String(i) }, [drawCard(null, { label: "" })]);
    const d = cards[token] ?? {};
    const can = Boolean(d.play || d.discard || d.coup);
    const justDrawn = i === 0 && fresh.has(token);
    // At the person's turn every card may be chosen, a card with no decision too: its buttons ask why
    // not (handButtons). Away from it, a click says whose turn it is.
    const turn = play.legal.length > 0;
    return html("button", {
      type: "button", class: `hand-slot${can ? " can" : ""}${chosen === i ? " chosen" : ""}${i === 0 ? " picked" : ""}${justDrawn ? " fresh" : ""}`,
      "data-slot": String(i), "data-card": token, "aria-disabled": turn ? undefined : "true", "aria-pressed": String(chosen === i),
      // Named by its picture ("Speed Limit, hazard, just drawn"): no aria-label that could differ from
      // the words the card shows.
      onclick: () => (turn ? choose(i) : play.notNow()), title: cardLabel(token, justDrawn),
    }, [drawCard(token, { title: cardLabel(token, justDrawn) })]);
  });
  const token = chosen !== null ? slots[chosen] : null;
  return html("section", { class: "mille-hand", "aria-label": "Your hand" }, [
    coupOffer.length ? html("div", { class: "notice coup-offer", id: "coup-offer" }, [
      html("strong", {}, ["Coup fourré! "]), "You hold the safety for the hazard just played on you: ",
      ...coupOffer.map(([card, d]) => html("button", { type: "button", class: "btn btn-primary btn-small", "data-action": d.coup,
        onclick: () => play.act(d.coup) }, [`play ${cardName(card)} as a coup fourré`])),
    ]) : null,
    roving(html("div", { class: "hand-row", role: "group", "aria-label": "Cards in your hand" }, items), ".hand-slot[data-card]",
      chosen ?? null),
    html("div", { class: "form-inline hand-actions", id: "hand-actions" }, handButtons(token, token ? cards[token] ?? {} : {}, play.act)),
  ]);
}

/** The score card of the last hand (MIL-53), with "Another hand" to put it away. */
function scoreCard(play) {
  const match = play.view.content?.match ?? {};
  if (!match.last_hand) return null;
  const dismiss = (serial) => {
    play.memory.dismissed = serial;
    play.redraw();
  };
  if (play.memory.dismissed === match.hand_serial) {
    return html("button", { type: "button", class: "btn btn-small", id: "show-scores", onclick: () => dismiss(null) },
      ["Show the last hand's scores"]);
  }
  return html("div", {}, [
    scoreTable(match.last_hand, play.name),
    match.result ? null : html("button", { type: "button", class: "btn btn-primary", id: "another-hand",
      onclick: () => dismiss(match.hand_serial) }, [`Another hand (hand ${match.hand_no})`]),
  ]);
}

// ---- the scoresheet (../scoresheet.js): `draw`, `card K` (chance; `card ?` to whoever may not see
// it), `play K`, `discard K`, `coup K`, `extend yes|no`, each maybe with `@SLOT` ----

const VERBS = { play: "plays", discard: "discards", coup: "plays a coup fourré:" };
const cardWords = (card) => card.replaceAll("-", " ");

function actionWords(action) {
  const [verb, rest = ""] = action.replace(/@\S+/, "").split(/\s+/, 2);
  if (VERBS[verb]) return `${VERBS[verb]} ${cardWords(rest)}`;
  if (verb === "extend") return rest === "yes" ? "extends the trip" : "does not extend the trip";
  return action;
}

/** One turn's events in words: a draw and the card it brings are one phrase ("draws", "draws 100"
 * once cards are shown); cards that come with no draw before them are the deal, said on its own. */
export function millePhrases(events) {
  const out = [];
  let drawing = false;
  for (const event of events) {
    const action = event.action ?? "";
    if (event.seat === "chance" && action.startsWith("card")) {
      const card = action.slice(5).trim();
      if (drawing) {
        Object.assign(out[out.length - 1], { version: event.version, text: card && card !== "?" ? `draws ${cardWords(card)}` : "draws" });
        drawing = false;
      } else if (out.length && out[out.length - 1].alone) {
        out[out.length - 1].version = event.version;
      } else {
        out.push({ version: event.version, text: "cards dealt", alone: true });
      }
      continue;
    }
    drawing = typeof event.seat === "number" && action === "draw";
    out.push({ version: event.version, text: drawing ? "draws" : actionWords(action) });
  }
  return out;
}

export default {
  name: "mille",
  tagline: "Race to 700 miles and stop your rival — 2 players",
  swatch: (seat) => ["blue", "red"][seat] ?? "blue",
  mark: (seat) => String(seat + 1),
  scores: true, // the outcome's scores are the game totals (MIL-55)
  progress: (view) => `game ${view.content?.match?.game_no ?? 1} · hand ${view.content?.match?.hand_no ?? 1}`,
  thumbnail: () => html("div", { class: "mille-thumb", role: "img", "aria-label": "Mille Bornes" },
    ["200", "stop", "go", "right-of-way"].map((t) => drawCard(t, { title: cardName(t) }))),
  hint(play) {
    const kinds = new Set(play.legal.map((a) => a.parts.kind));
    if (kinds.has("extend")) return "You reached 700: extend the trip to 1000, or stop here.";
    if (kinds.has("coup")) return "Coup fourré! Play your safety now, or draw.";
    if (kinds.has("draw")) return "Click the draw pile to draw a card.";
    if (play.pick.slot !== undefined && play.pick.slot !== null) {
      return "Play it or discard it with the buttons under your hand (a “Why not” button asks the rules why not).";
    }
    return "Click a card of your hand to play or discard it.";
  },
  draw: drawMilleTable,
  /** A new turn starts where its first decision is taken: the pile, the question, the coup, the hand. */
  focusTarget(play) {
    if (play.pick.slot !== undefined && play.pick.slot !== null) return null;
    const kinds = new Set(play.legal.map((a) => a.parts.kind));
    if (kinds.has("coup")) return "#coup-offer [data-action]";
    if (kinds.has("extend")) return "#extend-question [data-action]";
    if (kinds.has("draw")) return "[data-draw]";
    return kinds.has("play") || kinds.has("discard") ? ".hand-slot[tabindex='0']" : null;
  },
  side: scoreCard,
  phrases: millePhrases,
};
