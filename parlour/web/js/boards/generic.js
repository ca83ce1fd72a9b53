// The generic board: any registered game without a board module of its own is playable with it.
// It shows the view's content as readable text and the legal actions as buttons, grouped by their
// parts (by kind, then by the square, card or piece they start from).

import { html, roving } from "../svg.js";

const SWATCHES = ["blue", "red", "green", "orange", "black", "white"];

const WIDTH = 72;
const words = (key) => key.replaceAll("_", " ");

/** A value on one line: `[a, b]`, `{key: value, …}`. */
function inline(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  return `{${Object.entries(value).map(([k, v]) => `${words(k)}: ${inline(v)}`).join(", ")}}`;
}

/** Strings of one length, such as a board's rows: shown one under the other. */
function isRows(value) {
  return Array.isArray(value) && value.length > 1 && value.every((v) => typeof v === "string" && v.length > 1 && v.length === value[0].length);
}

/** Whether a board's rows are somewhere inside a value (then it is never squeezed onto one line). */
function holdsRows(value) {
  if (isRows(value)) return true;
  return value !== null && typeof value === "object" && Object.values(value).some(holdsRows);
}

/** A JSON value as indented lines: what fits on a line stays on it, a board's rows go one per line. */
function readable(value, indent = "") {
  if (isRows(value)) return value.map((row) => `${indent}${row}`);
  const flat = inline(value);
  const fits = indent.length + flat.length <= WIDTH && !holdsRows(value);
  if (value === null || typeof value !== "object" || fits) return [`${indent}${flat}`];
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) {
    // A long list of plain values (a discard pile): as many to a line as fit.
    const lines = [];
    for (const item of value.map(inline)) {
      const last = lines[lines.length - 1];
      if (last !== undefined && last.length + item.length + 2 <= WIDTH) lines[lines.length - 1] = `${last}, ${item}`;
      else lines.push(`${indent}${item}`);
    }
    return lines;
  }
  if (Array.isArray(value)) {
    return value.flatMap((v) => {
      const inner = readable(v, `${indent}  `);
      return [`${indent}- ${inner[0].trimStart()}`, ...inner.slice(1)];
    });
  }
  return Object.entries(value).flatMap(([key, v]) => {
    const inner = readable(v, `${indent}  `);
    const label = `${indent}${words(key)}:`;
    return inner.length === 1 ? [`${label} ${inner[0].trimStart()}`] : [label, ...inner];
  });
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
    // One tab stop per kind of action, the arrow keys through its buttons.
    sections.push(roving(html("section", { class: "generic-kind", "data-kind": kind, "aria-label": kind }, [
      html("h3", {}, [kind]), ...rows,
    ]), "button"));
  }
  return sections;
}

/**
 * A line to type any action in the game's notation and try it: the legal ones are the buttons above,
 * and anything else is sent as typed for the server to refuse with the engine's reason (issue 18).
 * What is typed is kept in `pick` (the board is drawn again on a refusal) until the match moves on.
 */
function tryForm(play) {
  const send = (event) => {
    event.preventDefault();
    const text = (play.pick.typed ?? "").trim();
    if (text) play.act(text);
  };
  return html("form", { class: "form-inline generic-try", onsubmit: send }, [
    html("label", { for: "generic-try" }, ["Or type an action"]),
    html("input", { id: "generic-try", type: "text", maxlength: "200", autocomplete: "off", value: play.pick.typed ?? "",
      "data-try": "text", oninput: (event) => { play.pick.typed = event.target.value; } }),
    html("button", { type: "submit", class: "btn btn-small", "data-try": "send" }, ["Try it"]),
  ]);
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
      play.legal.length ? tryForm(play) : null,
    ]);
  },
};
