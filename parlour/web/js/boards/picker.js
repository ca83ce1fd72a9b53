// Picking a square-to-square action click by click, from the legal actions' parts: the first
// click picks a piece, each next click extends the path (a Biloba centre route takes two more),
// and an action is complete when the clicked path is one legal action's whole path. A click that
// no legal action goes on with, after a piece is picked, is what the person tried: the board writes
// it in the game's notation and sends it, and the server's refusal says why (issue 18).

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
  /**
   * `legal`: [{text, parts}]; `prefix`: the squares picked so far (kept by the board's `pick`);
   * `own`: the squares of the person's own pieces, which may be picked even when they cannot move
   * (to be told why, by trying).
   */
  constructor(legal, prefix = [], own = new Set()) {
    this.actions = legal.map((a) => ({ ...a, path: pathOf(a.parts), capture: a.parts?.kind === "capture" }));
    this.prefix = prefix;
    this.own = own;
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
   * {tried: [squares]} when a picked piece was sent where no legal action goes (the selection
   * stays, to try again), {changed: false} when the click meant nothing (no piece picked).
   * `this.prefix` holds the new selection.
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
    if (this.starts().has(square) || this.own.has(square)) {
      this.prefix = [square];
      return { changed: true };
    }
    if (this.prefix.length) return { tried: [...this.prefix, square] };
    return { changed: false };
  }
}

/**
 * Wires a Picker to a board's `play` context: returns {picker, click(square)}. The board tells
 * `own` (the squares of the person's pieces), `text(squares)` (a tried path in its notation, or
 * null) and `hint(square)` (a few words for a click with nothing picked, or null for silence).
 * Away from the person's turn a click sends nothing: the page says whose turn it is.
 */
export function squarePicking(play, { own = new Set(), text = () => null, hint = () => null } = {}) {
  const picker = new Picker(play.legal, play.pick.prefix ?? [], own);
  const click = (square) => {
    if (!play.legal.length) {
      play.notNow();
      return;
    }
    const result = picker.click(square);
    play.pick.prefix = picker.prefix;
    if (result.action) {
      play.act(result.action.text);
      return;
    }
    if (result.tried) {
      const tried = text(result.tried);
      if (tried) {
        play.act(tried);
        return;
      }
      play.pick.prefix = []; // nothing the notation can say: the piece is put back
    }
    if (result.changed || result.tried) {
      play.redraw();
      return;
    }
    const words = hint(square);
    if (words) play.toast(words);
  };
  return { picker, click };
}
