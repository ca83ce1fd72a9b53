// Picking a square-to-square action click by click, from the legal actions' parts: the first
// click picks a piece, each next click extends the path (a Biloba centre route takes two more),
// and an action is complete when the clicked path is one legal action's whole path.

/** The squares an action walks: its `path` when it has one (with `from` first), else from → to. */
export function pathOf(parts) {
  if (Array.isArray(parts?.path) && parts.path.length) {
    return parts.path[0] === parts.from ? parts.path : [parts.from, ...parts.path];
  }
  return parts?.from && parts?.to ? [parts.from, parts.to] : [];
}

function startsWith(path, prefix) {
  return prefix.every((square, i) => path[i] === square);
}

export class Picker {
  /** `legal`: [{text, parts}]; `prefix`: the squares picked so far (kept by the board's `pick`). */
  constructor(legal, prefix = []) {
    this.actions = legal.map((a) => ({ ...a, path: pathOf(a.parts), capture: a.parts?.kind === "capture" }));
    this.prefix = prefix;
  }

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

  /**
   * A click on `square`: {action} when it completes one, {changed: true} when the selection moved,
   * {changed: false} when the click meant nothing. `this.prefix` holds the new selection.
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

/** Wires a Picker to a board's `play` context: returns {picker, click(square)}. */
export function squarePicking(play) {
  const picker = new Picker(play.legal, play.pick.prefix ?? []);
  const click = (square) => {
    if (!play.legal.length) return;
    const result = picker.click(square);
    play.pick.prefix = picker.prefix;
    if (result.action) play.act(result.action.text);
    else if (result.changed) play.redraw();
  };
  return { picker, click };
}
