// The client knows no rules: it reads the legal actions the server sends as text and turns them
// into click paths. LOA: `b1-d3` (`b1xd3` marks a capture), `pass`. Biloba: steps and jumps
// `d4-d5`, `c3-c5`, centre routes `d4-e5-f5`, replacements `c3>c4`.

const SQUARE = /^[a-i][1-9]$/;

/** One legal action as {text, kind: "move" | "replace" | "pass" | "other", path: [squares], capture}. */
export function parseAction(text) {
  const clean = String(text).trim();
  if (clean === "pass") return { text: clean, kind: "pass", path: [], capture: false };
  const replacement = clean.split(">");
  if (replacement.length === 2 && replacement.every((s) => SQUARE.test(s))) {
    return { text: clean, kind: "replace", path: replacement, capture: false };
  }
  const parts = clean.split(/[-x]/);
  if (parts.length >= 2 && parts.every((s) => SQUARE.test(s))) {
    return { text: clean, kind: "move", path: parts, capture: clean.includes("x") };
  }
  return { text: clean, kind: "other", path: [], capture: false };
}

/** The squares of a move text (`d4-e5-f5` → ["d4", "e5", "f5"]); [] for a pass or nonsense. */
export function squaresOf(text) {
  return text ? parseAction(text).path : [];
}

function startsWith(path, prefix) {
  return prefix.every((square, i) => path[i] === square);
}

/**
 * Picks an action click by click: the first click picks a piece, each next click extends the
 * path (a Biloba centre route takes two more), and an action is complete when the clicked path
 * equals one legal action's path.
 */
export class Picker {
  constructor(texts) {
    this.actions = texts.map(parseAction);
    this.prefix = [];
  }

  /** The actions still possible given the squares picked so far. */
  candidates() {
    return this.actions.filter((a) => a.path.length > this.prefix.length && startsWith(a.path, this.prefix));
  }

  /** Squares that start some action (pieces that can move, pawns that can replace). */
  starts() {
    return new Set(this.actions.filter((a) => a.path.length).map((a) => a.path[0]));
  }

  /** Where the next click may go: [{square, capture}] (empty before a piece is picked). */
  targets() {
    if (!this.prefix.length) return [];
    const seen = new Map();
    for (const action of this.candidates()) {
      const square = action.path[this.prefix.length];
      const done = action.path.length === this.prefix.length + 1;
      const prior = seen.get(square);
      seen.set(square, { square, capture: (prior?.capture ?? false) || (done && action.capture) });
    }
    return [...seen.values()];
  }

  get selected() {
    return this.prefix.length ? this.prefix[this.prefix.length - 1] : null;
  }

  reset() {
    this.prefix = [];
  }

  /**
   * A click on `square`: returns {action} when it completes one, {changed: true} when the
   * selection moved, {changed: false} when the click meant nothing.
   */
  click(square) {
    if (this.prefix.length && this.targets().some((t) => t.square === square)) {
      this.prefix = [...this.prefix, square];
      const done = this.actions.find((a) => a.path.length === this.prefix.length && startsWith(a.path, this.prefix));
      if (done && !this.candidates().length) {
        this.prefix = [];
        return { action: done };
      }
      return { changed: true };
    }
    if (this.prefix.length === 1 && this.prefix[0] === square) {
      this.prefix = [];
      return { changed: true };
    }
    if (this.starts().has(square)) {
      this.prefix = [square];
      return { changed: true };
    }
    if (this.prefix.length) {
      this.prefix = [];
      return { changed: true };
    }
    return { changed: false };
  }
}
