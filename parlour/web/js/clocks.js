// The match's clocks (docs/protocol.md, Clocks) and how long a seat has been away. The server sends
// the clocks only with each action; the page ticks the running one itself, from the server's time
// as it last learned it (a state's `now`, an update's `since`), so no message comes per second.

/** "4:52", "12:05", "1:02:09"; tenths under ten seconds ("7.3") where they matter. */
export function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return (Math.floor(s * 10) / 10).toFixed(1);
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** "5+3", "1 min a move", "30 s a move": the clock as a player picks it. */
export function ruleText(rule) {
  if (!rule) return "no clock";
  if (rule.per_move !== undefined) {
    const s = rule.per_move;
    return s % 60 === 0 ? `${s / 60} min a move` : `${s} s a move`;
  }
  const base = rule.base % 60 === 0 ? String(rule.base / 60) : `${Math.round((rule.base / 60) * 100) / 100}`;
  return `${base}+${rule.increment ?? 0}`;
}

/** "2 min", "45 s", "1 h 5 min": how long, in the words people use. */
export function spanText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ""}`;
}

export class Clocks {
  constructor(onTick) {
    this.clock = null;   // {rule, remaining: [seconds], running: seat|null, since}
    this.offset = null;  // server time minus this page's time, seconds
    this.goneSeconds = null; // how long a seat may be away before it can be claimed (the server's limit)
    this.onTick = onTick;
    this.timer = null;
  }

  /** A state, update or seats message: the clocks as the server left them, its time, its limits. */
  read(message) {
    const local = Date.now() / 1000;
    if (typeof message.now === "number") this.offset = message.now - local;
    if (typeof message.gone_seconds === "number") this.goneSeconds = message.gone_seconds;
    if (!("clock" in message)) return;
    this.clock = message.clock ?? null;
    if (typeof this.clock?.now === "number") this.offset = this.clock.now - local;
    else if (typeof this.clock?.since === "number" && this.clock.since > this.now()) {
      // An update was made at `since`: the server is at least that far on.
      this.offset = this.clock.since - local;
    }
    this.keepTicking();
  }

  /** The server's time now, as far as the page can tell. */
  now() {
    return Date.now() / 1000 + (this.offset ?? 0);
  }

  get timed() {
    return Boolean(this.clock);
  }

  /** Seconds `seat` has left now. */
  left(seat) {
    const c = this.clock;
    if (!c) return null;
    let left = c.remaining?.[seat] ?? 0;
    if (c.running === seat) left -= Math.max(0, this.now() - c.since);
    return Math.max(0, left);
  }

  /** Whether `seat`'s time is short: under a fifth of its start, and at most 30 seconds. */
  low(seat) {
    const rule = this.clock?.rule;
    if (!rule) return false;
    const start = rule.per_move ?? rule.base;
    return this.left(seat) <= Math.min(30, start / 5);
  }

  /** Seconds a seat has been without a connection (`away_since` of the seats), or null. */
  away(info) {
    if (!info || info.kind !== "person" || info.connected || typeof info.away_since !== "number") return null;
    return Math.max(0, this.now() - info.away_since);
  }

  /** Seconds after which a seat away may be claimed, as the server said (never, before it did). */
  goneLimit() {
    return this.goneSeconds ?? Infinity;
  }

  /** The page redraws the clocks (and the away notices) once a second while anything runs. */
  keepTicking(force = false) {
    const running = this.clock && this.clock.running !== null && this.clock.running !== undefined;
    if ((running || force) && !this.timer) this.timer = setInterval(() => this.onTick(), 200);
    if (!running && !force && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
