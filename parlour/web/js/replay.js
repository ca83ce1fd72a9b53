// Stepping through a match (docs/protocol.md, "Replay steps"): first, back, forward, last, the arrow
// keys (Left/Right; Home/End from the replay bar or the moves list) and a click on a move of the
// scoresheet. The steps come from the server a page of 50 at a time, as the reader gets to them,
// and are kept: a finished match's views are open (every hand shown), a running match's are this
// page's own seat's (or a spectator's).
// `at` null is the live position; a number is the version shown, whose board is drawn from that
// step's view with its last move marked (the board's `remember`, from the step before).

import { tokens } from "./net.js";
import { html } from "./svg.js";

const PAGE = 50;

/** Keys that step, and where to: from the version shown and the last one. */
const KEYS = {
  ArrowLeft: (at) => at - 1,
  ArrowRight: (at) => at + 1,
  Home: () => 0,
  End: (at, last) => last,
};

/** Keys that step only from the replay's own controls: elsewhere Home and End scroll the page. */
const OWN_KEYS = new Set(["Home", "End"]);

/** Whether a key pressed on `target` is someone else's business: typing, or the board, whose squares,
 * cards and rows move the focus with the arrow keys. */
function keyTaken(target) {
  return target instanceof Element && Boolean(target.closest("#board, input, textarea, select, [contenteditable], dialog"));
}

export class Replay {
  constructor(page) {
    this.page = page;
    this.steps = new Map(); // version → {version, event, view}
    this.asked = new Map(); // first version of a page → its promise
    this.at = null;         // the version shown, or null for the live position
    this.perspective = undefined;
    this.failed = null;     // the last error, in words
    this.finalAsked = false; // the open view of a finished match's end has been asked for
  }

  get id() {
    return this.page.id;
  }

  /** The last version there is: the live one. */
  get last() {
    return this.page.snap?.version ?? 0;
  }

  /** The version on the board. */
  get shown() {
    return this.at ?? this.last;
  }

  /** A match with moves made and play under way or over can be stepped through. */
  available() {
    const s = this.page.snap;
    return Boolean(s && s.status !== "open" && s.version > 0);
  }

  start() {
    document.addEventListener("keydown", (event) => this.key(event));
  }

  key(event) {
    const move = KEYS[event.key];
    if (!move || !this.available() || event.altKey || event.ctrlKey || event.metaKey || keyTaken(event.target)) return;
    // On one's own turn an arrow pressed with the focus astray must not take the board away: the
    // replay's own controls (its bar, the moves list) step it then.
    const ours = event.target instanceof Element && event.target.closest("#replay, #moves");
    if (OWN_KEYS.has(event.key) && !ours) return;
    if (this.at === null && this.page.myTurn() && !ours) return;
    event.preventDefault();
    this.go(move(this.shown, this.last));
  }

  /** Shows version `v` (clamped to the match); the last one is the live position again. */
  async go(v) {
    const target = Math.max(0, Math.min(this.last, v));
    if (target === this.last) {
      this.at = null;
      this.page.render();
      return;
    }
    this.at = target;
    this.page.render(); // the controls say where the reader is at once; the board follows its step
    await this.load(target);
    if (this.at === target) this.page.render();
  }

  /** Fetches the steps around `v` (it and the one before, for the last move's marks) not yet kept. */
  async load(v) {
    const want = [v, Math.max(0, v - 1)].filter((x) => !this.steps.has(x));
    await Promise.all([...new Set(want.map((x) => Math.floor(x / PAGE) * PAGE))].map((from) => this.fetchPage(from)));
  }

  fetchPage(from) {
    if (!this.asked.has(from)) {
      const promise = this.request(from).finally(() => {
        if (!this.pageComplete(from)) this.asked.delete(from); // a failed or short page may be asked again
      });
      this.asked.set(from, promise);
    }
    return this.asked.get(from);
  }

  pageComplete(from) {
    for (let v = from; v < Math.min(from + PAGE, this.last + 1); v += 1) if (!this.steps.has(v)) return false;
    return true;
  }

  async request(from, count = PAGE) {
    const query = new URLSearchParams({ from: String(from), count: String(count) });
    const token = tokens.get(this.id);
    if (token) query.set("token", token);
    try {
      const response = await fetch(`/api/matches/${encodeURIComponent(this.id)}/replay?${query}`,
        { headers: { Accept: "application/json" } });
      const data = await response.json().catch(() => null);
      if (!response.ok) {
        this.failed = data?.error?.message ?? `The server answered ${response.status}.`;
        this.page.toast(`The replay could not be loaded: ${this.failed}`);
        return;
      }
      this.failed = null;
      // A running match's steps are its seat's (or a spectator's) views; once over they are open: the
      // steps kept from before the end are asked again.
      if (this.perspective !== undefined && data.perspective !== this.perspective) {
        this.steps.clear();
        this.asked.clear();
      }
      this.perspective = data.perspective;
      for (const step of data.steps ?? []) this.steps.set(step.version, step);
      this.page.renderMoves?.();
    } catch (error) {
      this.failed = "the server cannot be reached";
      this.page.toast("The replay could not be loaded: the server cannot be reached.");
    }
  }

  /** The event of version `v` as the replay knows it (fuller than the page's once over), or null. */
  event(v) {
    return this.steps.get(v)?.event ?? null;
  }

  /**
   * The match went on (an update) or ended: steps kept stay good, but an end opens every view. Once
   * over, the final position is asked for open too (one step), so the end shows every hand.
   */
  onStatus(status) {
    if (status !== "over") return;
    if (this.perspective !== undefined && this.perspective !== "all") {
      this.steps.clear();
      this.asked.clear();
      this.perspective = undefined;
      if (this.at !== null) this.load(this.at).then(() => this.page.render());
    }
    if (!this.finalAsked) {
      this.finalAsked = true;
      this.request(this.last, 1).then(() => this.page.render());
    }
  }

  /** A finished match's live board drawn from its open final view (every hand shown), once it has
   * come; null before, or while the match is not over. The page's own marks stay. */
  finalContext(live) {
    const step = this.page.snap?.status === "over" ? this.steps.get(this.last) : null;
    return step ? { ...live, view: step.view } : null;
  }

  /** The step on the board, or null while it loads (or when live). */
  step() {
    return this.at === null ? null : this.steps.get(this.at) ?? null;
  }

  /**
   * The context the board draws the step in (boards/index.js): nothing to play, its last move marked
   * by the board's own `remember` from the step before.
   */
  context(base) {
    const step = this.step();
    if (!step) return null;
    const before = step.version > 0 ? this.steps.get(step.version - 1)?.view ?? null : null;
    const memory = {};
    this.page.board.remember?.(memory, before, step.view, step.event);
    const seat = typeof this.perspective === "number" ? this.perspective : null;
    return {
      ...base, view: step.view, legal: [], seat, status: step.version === this.last ? base.status : "replay",
      version: step.version, moves: [], pick: {}, memory, animate: false, lastError: null,
      act: () => {}, redraw: () => {},
    };
  }

  // ---- drawing ----

  /** The bar of replay controls under the board: first, back, "move 12 of 84", forward, last. */
  controls() {
    const at = this.shown;
    const last = this.last;
    const button = (label, text, target, disabled, id) => html("button", {
      type: "button", class: "btn btn-small replay-btn", id, "aria-label": label, title: label, disabled: disabled || undefined,
      onclick: () => this.go(target()),
    }, [text]);
    const where = at === last
      ? (this.page.snap?.status === "over" ? `End · step ${last}` : `Now · step ${last}`)
      : `Step ${at} of ${last}`;
    return html("div", { class: "replay-bar", id: "replay-bar", role: "group", "aria-label": "Replay",
      "data-at": String(at), "data-live": String(this.at === null) }, [
      button("First position", "«", () => 0, at === 0, "replay-first"),
      button("Back one move", "‹", () => this.shown - 1, at === 0, "replay-back"),
      html("span", { class: "replay-where", id: "replay-where", "aria-live": "polite" }, [where]),
      button("Forward one move", "›", () => this.shown + 1, at === last, "replay-forward"),
      button(this.page.snap?.status === "over" ? "Last position" : "Back to the game", "»", () => this.last, at === last,
        "replay-last"),
    ]);
  }
}
