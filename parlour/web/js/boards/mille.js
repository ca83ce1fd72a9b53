// Mille Bornes cards drawn in SVG, and the table built from a seat's view (MIL-57). The page
// knows only card names and what the view says; legality comes from the server's list.

import { html, svg } from "../svg.js";

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

/** Legal decisions grouped per card: {token: {play, discard, coup}}; and the rest (draw, extend). */
export function decisionsByCard(legal) {
  const cards = {};
  const other = [];
  for (const text of legal ?? []) {
    const [verb, token] = text.split(" ");
    if (["play", "discard", "coup"].includes(verb) && token) {
      cards[token] = { ...(cards[token] ?? {}), [verb]: text };
    } else other.push(text);
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

/** One seat's side of the table: name, miles, battle/speed piles, safeties. */
function seatArea(view, seat, names, goal, mine) {
  const s = view.hand.seats[seat];
  const progress = Math.min(100, (100 * (s.mileage ?? 0)) / goal);
  const status = [s.rolling ? "rolling" : "stopped", s.limited ? "speed limit" : null].filter(Boolean).join(" · ");
  return html("section", { class: `mille-seat${mine ? " mine" : ""}`, "data-seat-area": String(seat) }, [
    html("div", { class: "mille-seat-head" }, [
      html("strong", {}, [names(seat)]),
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
    mine ? null : html("div", { class: "opponent-hand", "aria-label": `${names(seat)} holds ${s.cards} cards` },
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

/**
 * The whole table for `view`. `act` is called with a decision text; `legal` the seat's decisions
 * now (empty when it is not this seat's turn); `chosen`/`choose` the card picked in hand.
 */
export function drawMilleTable(view, { legal, names, act, chosen, choose }) {
  const me = typeof view.viewer === "number" ? view.viewer : null;
  const hand = view.hand;
  const goal = hand.goal ?? 700;
  const { cards, other } = decisionsByCard(legal);
  const opponents = [0, 1].filter((seat) => seat !== me);
  const mySide = me === null ? [1] : [me];
  const drawable = other.includes("draw");

  const centre = html("div", { class: "mille-centre" }, [
    html("button", {
      type: "button", class: `mille-pile draw-pile${drawable ? " can" : ""}`, "data-draw": "true", disabled: !drawable,
      onclick: () => drawable && act("draw"), "aria-label": `Draw pile, ${hand.pile_size} cards`,
    }, [drawCard(hand.pile_size ? "back" : null, { label: "empty" }), html("span", { class: "pile-label", id: "pile-size" }, [`draw pile ${hand.pile_size}`])]),
    pile("discards", (hand.discards ?? [])[hand.discards.length - 1], "discard-pile", { id: "discard-pile" }),
    html("div", { class: "mille-goal" }, [
      html("strong", {}, [`Goal ${goal}`]), hand.extended ? html("span", { class: "badge" }, ["extended"]) : null,
      html("span", { class: "muted small" }, [`game ${view.match.game_no} · hand ${view.match.hand_no}`]),
    ]),
  ]);

  const parts = [];
  for (const seat of opponents) parts.push(seatArea(view, seat, names, goal, false));
  parts.push(centre);
  if (me !== null) {
    parts.push(seatArea(view, me, names, goal, true));
    parts.push(handRow(view, cards, chosen, choose, act));
  } else for (const seat of mySide.filter((s) => !opponents.includes(s))) parts.push(seatArea(view, seat, names, goal, false));
  if (other.some((t) => t.startsWith("extend"))) {
    parts.push(html("div", { class: "notice extend-question", id: "extend-question" }, [
      html("strong", {}, ["You reached 700 miles. Extend the trip to 1000?"]),
      html("div", { class: "form-inline" }, [
        html("button", { type: "button", class: "btn btn-primary", "data-action": "extend yes", onclick: () => act("extend yes") }, ["Extend to 1000"]),
        html("button", { type: "button", class: "btn", "data-action": "extend no", onclick: () => act("extend no") }, ["Stop at 700"]),
      ]),
    ]));
  }
  return html("div", { class: "mille-table" }, parts);
}

function handRow(view, cards, chosen, choose, act) {
  const priv = view.private ?? {};
  const slots = priv.slots ?? [];
  const fresh = new Set(priv.received ?? []);
  const coupOffer = Object.values(cards).map((d) => d.coup).filter(Boolean);
  const items = slots.map((token, i) => {
    if (!token) return html("div", { class: "hand-slot empty", "data-slot": String(i) }, [drawCard(null, { label: "" })]);
    const d = cards[token] ?? {};
    const can = Boolean(d.play || d.discard || d.coup);
    return html("button", {
      type: "button", class: `hand-slot${can ? " can" : ""}${chosen === i ? " chosen" : ""}${i === 0 ? " picked" : ""}${fresh.has(token) && i === 0 ? " fresh" : ""}`,
      "data-slot": String(i), "data-card": token, disabled: !can,
      onclick: () => choose(chosen === i ? null : i),
      title: i === 0 ? `${cardName(token)} (just drawn)` : cardName(token),
    }, [drawCard(token)]);
  });
  const token = chosen !== null && chosen !== undefined ? slots[chosen] : null;
  const d = token ? cards[token] ?? {} : {};
  const buttons = token ? [
    d.coup ? html("button", { type: "button", class: "btn btn-primary", "data-action": d.coup, onclick: () => act(d.coup) }, [`Coup fourré: ${cardName(token)}!`]) : null,
    d.play ? html("button", { type: "button", class: "btn btn-primary", "data-action": d.play, onclick: () => act(d.play) }, [`Play ${cardName(token)}`]) : null,
    d.discard ? html("button", { type: "button", class: "btn", "data-action": d.discard, onclick: () => act(d.discard) }, [`Discard ${cardName(token)}`]) : null,
  ] : [];
  return html("section", { class: "mille-hand", "aria-label": "Your hand" }, [
    coupOffer.length ? html("div", { class: "notice coup-offer", id: "coup-offer" }, [
      html("strong", {}, ["Coup fourré! "]), "You hold the safety for the hazard just played on you: ",
      ...coupOffer.map((text) => html("button", { type: "button", class: "btn btn-primary btn-small", "data-action": text, onclick: () => act(text) }, [`play ${cardName(text.split(" ")[1])} as a coup fourré`])),
    ]) : null,
    html("div", { class: "hand-row" }, items),
    html("div", { class: "form-inline hand-actions", id: "hand-actions" }, buttons.filter(Boolean)),
  ]);
}
