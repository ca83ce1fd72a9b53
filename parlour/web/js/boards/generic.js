// The generic board: any registered game without a board module of its own is playable with it.
// It shows the view's content as readable text and the legal actions as buttons, grouped by their
// parts (by kind, then by the square, card or piece they start from).

import { html } from "../svg.js";

const SWATCHES = ["blue", "red", "green", "orange", "black", "white"];

/** A JSON value as indented lines: lists of strings (boards, mostly) one per line. */
function readable(value, indent = "") {
  if (value === null || value === undefined) return [`${indent}—`];
  if (Array.isArray(value)) {
    if (!value.length) return [`${indent}(none)`];
    if (value.every((v) => typeof v !== "object" || v === null)) {
      const plain = value.map((v) => (v === null ? "—" : String(v)));
      return plain.join(" ").length <= 60 ? [`${indent}${plain.join(" ")}`] : plain.map((v) => `${indent}${v}`);
    }
    return value.flatMap((v, i) => [`${indent}${i + 1}.`, ...readable(v, `${indent}  `)]);
  }
  if (typeof value === "object") {
    return Object.entries(value).flatMap(([key, v]) => {
      const inner = readable(v, `${indent}  `);
      const label = `${indent}${key.replaceAll("_", " ")}:`;
      return inner.length === 1 ? [`${label} ${inner[0].trim()}`] : [label, ...inner];
    });
  }
  return [`${indent}${value}`];
}

/** The first part that tells actions of one kind apart: where they start from, or what they use. */
function groupKey(parts) {
  for (const key of ["from", "card", "piece", "slot", "seat"]) {
    if (parts[key] !== undefined && parts[key] !== null) return `${key} ${parts[key]}`;
  }
  return "";
}

/** The legal actions as {kind: {group: [actions]}}, in the order the server listed them. */
function grouped(legal) {
  const kinds = new Map();
  for (const action of legal) {
    const kind = action.parts?.kind ?? "other";
    if (!kinds.has(kind)) kinds.set(kind, new Map());
    const groups = kinds.get(kind);
    const key = groupKey(action.parts ?? {});
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(action);
  }
  return kinds;
}

function actionButtons(play) {
  const sections = [];
  for (const [kind, groups] of grouped(play.legal)) {
    const rows = [...groups].map(([key, actions]) => html("div", { class: "generic-group", "data-group": key || kind }, [
      key ? html("span", { class: "generic-group-name" }, [key]) : null,
      ...actions.map((a) => html("button", {
        type: "button", class: "btn btn-small", "data-generic-action": a.text, onclick: () => play.act(a.text),
      }, [a.text])),
    ]));
    sections.push(html("section", { class: "generic-kind", "data-kind": kind }, [html("h3", {}, [kind]), ...rows]));
  }
  return sections;
}

export default {
  name: "generic",
  tagline: "",
  swatch: (seat) => SWATCHES[seat % SWATCHES.length],
  mark: (seat) => String(seat + 1),
  progress: () => "",
  thumbnail: () => html("div", { class: "generic-thumb", role: "img", "aria-label": "game" }, ["♟"]),
  hint: (play) => (play.legal.length ? "Pick one of the actions under the position." : ""),
  draw(play) {
    const text = readable(play.view.content ?? {}).join("\n");
    return html("div", { class: "generic-board", "data-board": "generic" }, [
      html("pre", { class: "generic-view", "aria-label": "The position" }, [text]),
      play.legal.length
        ? html("div", { class: "generic-actions", role: "group", "aria-label": "Your possible actions" }, actionButtons(play))
        : null,
    ]);
  },
};
