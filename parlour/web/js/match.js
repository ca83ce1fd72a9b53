// The match page: one WebSocket, a board drawn from each message's view through the board
// interface (boards/index.js), clicks turned into the legal actions the server listed. This file
// knows no game: what a game looks like and how its decisions are picked is its board's business.

import { boardFor } from "./boards/index.js";
import { Chat } from "./chat.js";
import { gameInfo } from "./page.js";
import { html } from "./svg.js";
import { Table } from "./table.js";
import { Clocks, clockText, ruleText, spanText } from "./clocks.js";
import { MatchSocket, names, tokens } from "./net.js";
import { botName, finalScore, scoreText, seatLabel, whyText } from "./people.js";
import { Replay } from "./replay.js";
import { joiner, leavingText, rowPhrases, scoresheet } from "./scoresheet.js";
import { ShareCard } from "./share.js";
import { TurnSound } from "./sound.js";

const $ = (id) => document.getElementById(id);
const NO_ACTIONS = Object.freeze([]);

function matchIdFromUrl() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "match" && parts[1]) return decodeURIComponent(parts[1]);
  return new URLSearchParams(location.search).get("id");
}

/** Where the keyboard focus is on the board, as a selector that finds the same thing after a redraw. */
function focusSelector(board) {
  const el = document.activeElement;
  if (!el || !board.contains(el)) return null;
  for (const name of ["data-hit", "data-action", "data-generic-action", "data-slot", "data-available", "data-draw", "data-try"]) {
    const value = el.getAttribute(name);
    if (value !== null) return `[${name}="${CSS.escape(value)}"]`;
  }
  return "[tabindex='0']";
}

/** Whether the keyboard may land on `el` now (an empty card place is no control; a roving item off). */
function canFocus(el) {
  return el.matches("button, a[href], input, select, [tabindex]") && !el.disabled && el.getAttribute("tabindex") !== "-1";
}

/**
 * After a card is redrawn with the answer to one of its controls, the keyboard stays on it: on the
 * same control when it is still there, else on the card itself (never on a new button that one more
 * Enter would press, as "Withdraw the offer" after "Offer a draw").
 */
function keepFocus(card, id) {
  const same = id ? card.querySelector(`#${CSS.escape(id)}`) : null;
  if (same) {
    same.focus();
    return;
  }
  card.setAttribute("tabindex", "-1");
  card.focus();
}

class MatchPage {
  constructor(id) {
    this.id = id;
    this.snap = null;        // the latest state/update: view (the envelope), legal [{text, parts}], …
    this.info = null;        // the game's declaration from /api/games
    this.board = null;       // the game's board (boards/index.js)
    this.force = new URLSearchParams(location.search).get("board");
    this.moves = [];         // [{version, seat, action}]
    this.pick = {};          // the board's half-made choice, emptied when the match moves on
    this.memory = {};        // what the board remembers between actions (capture marks)
    this.focus = null;       // the board square that last held the keyboard focus
    this.animate = false;
    this.waiting = false;    // an action was sent; its update has not come back yet
    this.movesShown = null;  // what the move list and the legal list were last drawn from
    this.legalShown = null;
    this.sheetOf = null;     // the scoresheet drawn last and what it was folded from (sheet())
    this.rowWords = new WeakMap(); // a scoresheet row → its words as drawn (drawRows)
    this.rowPeople = null;   // the people the rows' words name
    this.table = new Table(this); // resign, offers, rematch, seats out
    this.clocks = new Clocks(() => this.tick()); // the seats' clocks, and how long a seat has been away
    this.ticked = null;      // what the last tick drew of the away notices (redrawn when it changes)
    this.replay = new Replay(this); // stepping back through the match, and the scoresheet's steps
    this.share = new ShareCard(this); // the spectators' link and the your-turn sound switch (share.js)
    this.chat = new Chat(this);       // the match's chat and its mute (chat.js)
    this.sound = new TurnSound();     // the your-turn tone (sound.js)
    this.socket = new MatchSocket(id, { onMessage: (m) => this.receive(m), onStatus: (s) => this.connection(s) });
  }

  start() {
    document.addEventListener("keydown", (event) => this.selectionKey(event));
    this.replay.start();
    $("board").addEventListener("focusin", (event) => {
      this.focus = event.target?.getAttribute?.("data-hit") ?? this.focus;
    });
    this.socket.connect();
  }

  /**
   * Escape cancels the board's half-made choice; Enter confirms it where the board has a step to
   * confirm (Conflict's drawn path), unless the key belongs to a control that has the focus (a
   * square of the board clicks itself with Enter, a button presses).
   */
  selectionKey(event) {
    if (event.target instanceof Element && event.target.closest("dialog")) return;
    if (event.key === "Escape" && Object.keys(this.pick).length) {
      this.pick = {};
      this.render();
      return;
    }
    const control = event.target instanceof Element
      && event.target.closest("button, a[href], input, textarea, select, summary, [data-hit], [role='button']");
    if (event.key !== "Enter" || control || this.replay.at !== null || !this.myTurn() || this.waiting) return;
    if (this.board.confirm?.(this.context())) event.preventDefault();
  }

  // ---- messages ----

  receive(message) {
    if (this.chat.receive(message)) return undefined; // chat messages and their refusals; reads a state's chat
    if (this.table.receive(message)) return undefined;
    switch (message.type) {
      case "state": return this.onState(message);
      case "update": return this.onUpdate(message);
      case "seats": return this.onSeats(message);
      case "joined": return this.onJoined(message);
      case "error": return this.onError(message);
      default: return undefined;
    }
  }

  onState(message) {
    const before = this.snap;
    const game = message.view.game;
    this.snap = { ...message, legal: message.legal ?? [] };
    this.clocks.read(message);
    this.table.fromState(message);
    this.board = boardFor(game, this.force);
    if (!this.info) {
      gameInfo(game).then((info) => {
        this.info = info;
        this.render();
      });
    }
    // A state carries the whole move list (on connect and on resync): what is new since the last
    // one tells whether the board may show the last action as a step from the previous view.
    const known = this.moves.length ? this.moves[this.moves.length - 1].version : 0;
    const fresh = (message.events ?? []).filter((e) => e.version > known);
    this.moves = [...(message.events ?? [])];
    const oneStep = before && fresh.length === 1 && before.version === message.version - 1;
    this.board.remember?.(this.memory, oneStep ? before.view : null, message.view, fresh[fresh.length - 1] ?? null);
    this.animate = Boolean(oneStep);
    this.replay.onStatus(message.status);
    this.newPosition();
  }

  onUpdate(message) {
    const before = this.snap;
    this.snap = { ...before, ...message, legal: message.legal ?? [] };
    this.clocks.read(message);
    this.moves.push(message.event);
    this.table.onEvent(message.event);
    this.board.remember?.(this.memory, before?.view ?? null, message.view, message.event);
    this.announce(message.event);
    this.animate = true;
    this.replay.onStatus(this.snap.status);
    this.newPosition();
  }

  onSeats(message) {
    if (!this.snap) return;
    this.snap = { ...this.snap, seats: message.seats, status: message.status };
    this.clocks.read(message); // the server's time, for how long a seat has been away
    this.render();
  }

  onJoined(message) {
    tokens.set(this.id, message.token);
    this.toast(`You are ${this.seatName(message.seat)}.`);
  }

  onError(message) {
    this.waiting = false;
    this.lastError = message.message ?? message.code;
    if (message.code === "bad_token") {
      // The seat's token is no longer valid here (a different server?): watch instead.
      tokens.drop(this.id);
      this.socket.version = null;
      this.socket.socket?.close();
    }
    if (message.code === "no_match") {
      $("board").replaceChildren(html("div", { class: "notice error" }, [
        "There is no such match. ", html("a", { href: "/" }, ["Back to the lobby"]),
      ]));
      $("turn").textContent = "Match not found";
      document.querySelector(".side").hidden = true;
      return;
    }
    // A refused move says why, in the engine's words ("b1-b4: a piece on b1 moves exactly 2 squares
    // along that line (LOA-7)"): long enough to read, so it stays longer than a passing note.
    const refused = message.code === "illegal_action" || message.code === "bad_notation";
    const text = message.message ?? message.code;
    this.toast(refused ? `Refused: ${text}` : text, refused ? 9000 : 3500);
    this.render();
  }

  /** Another seat's action, read out by the live region (the page's own moves need no telling). */
  announce(event) {
    if (!event || event.seat === this.snap.seat) return;
    const text = this.board.describe?.(event, this.context()) ?? this.eventText(event, ": ");
    $("announce").textContent = text;
  }

  newPosition() {
    this.waiting = false;
    this.lastError = null;
    this.pick = {};
    this.render();
  }

  connection(status) {
    const el = $("conn");
    if (!el) return;
    el.className = `conn ${status}`;
    el.textContent = { online: "connected", offline: "reconnecting…", connecting: "connecting…", closed: "closed" }[status];
    // The banner says so too: "the bot is thinking" would be a guess while nothing can arrive.
    const offline = status === "offline";
    if (offline !== Boolean(this.offline)) {
      this.offline = offline;
      if (this.snap) this.render();
    }
  }

  // ---- actions ----

  /**
   * Sends `text`: one of the legal texts, or a text a board built in the game's notation from what the
   * person meant that the legal list does not offer (a click on a square no move reaches): the server
   * refuses it with the engine's reason and changes nothing, which the toast shows (onError). The
   * boards' clicks come through the context's `act`, which sends only at the person's turn.
   */
  play(text) {
    if (this.waiting || !this.snap) return;
    const ok = this.socket.send({ type: "action", text, version: this.snap.version });
    if (!ok) {
      this.toast("Not connected: the move was not sent.");
      return;
    }
    // The board's half-made choice stays until the match moves on: a refused action (Conflict's
    // drawn path) leaves it on screen to be mended.
    this.waiting = true;
    this.render();
  }

  /**
   * Why a click on the board does nothing now, said on the page and never asked of the server: whose
   * turn it is ("It is Bob (White)'s turn"), or that the page only watches, or shows a past position.
   */
  notNow() {
    this.toast(this.notNowText());
  }

  notNowText() {
    const s = this.snap;
    if (!s) return "The match is not here yet.";
    if (this.replay.at !== null) return "The board shows an earlier position: press End or » to go back to the game.";
    if (s.status === "over") return "The game is over.";
    if (s.status === "open") return "The match starts when every seat is taken.";
    if (s.seat === null) return "You are watching: only the players move.";
    if (this.waiting) return "Your move is on its way.";
    if (this.myOut()) return `You are out of the game: ${this.myOut()}.`;
    const mover = this.view.to_move;
    if (mover === "chance") return "It is chance's turn: the cards or the dice decide.";
    if (typeof mover === "number" && mover !== s.seat) return `It is ${this.label(mover)}'s turn, not yours.`;
    return "Nothing to do on the board now.";
  }

  takeSeat(seat) {
    const name = ($("player-name")?.value ?? names.get()).trim();
    if (name) names.set(name);
    const message = { type: "join", seat };
    if (name) message.name = name.slice(0, 40);
    this.socket.send(message);
  }

  // ---- what the page knows ----

  get view() {
    return this.snap?.view ?? {};
  }

  myTurn() {
    const s = this.snap;
    return Boolean(s && s.status === "running" && s.seat !== null && s.seat === this.view.to_move && s.legal.length);
  }

  seatName(seat) {
    return this.view.seats?.[seat] ?? this.snap?.seats?.[seat]?.name ?? `Seat ${seat}`;
  }

  /** The seat as people call it: "Ann (Black)", "strong bot (White)" (people.js). */
  label(seat) {
    return seatLabel(this.snap?.seats, seat, this.seatName(seat));
  }

  colour(seat) {
    return this.board.swatch(seat, this.view.options ?? {});
  }

  swatch(seat, extra = {}) {
    const mark = typeof seat === "number" ? this.board.mark?.(seat, this.view.options ?? {}) : "";
    return html("span", { class: `swatch swatch-${typeof seat === "number" ? this.colour(seat) : "white"}`, "aria-hidden": "true",
      ...extra }, mark ? [html("span", { class: "swatch-mark" }, [mark])] : []);
  }

  personName(seat) {
    const info = this.snap?.seats?.[seat];
    if (!info) return this.seatName(seat);
    if (info.kind === "bot") return botName(info);
    if (info.kind === "open") return "open seat";
    return info.player || "a player";
  }

  /** The context a board draws in (boards/index.js). */
  context() {
    const mine = this.myTurn() && !this.waiting;
    return {
      view: this.view,
      legal: mine ? this.snap.legal : [],
      seat: this.snap.seat,
      status: this.snap.status,
      version: this.snap.version,
      moves: this.moves,
      pick: this.pick,
      memory: this.memory,
      animate: this.animate,
      focus: this.focus,
      lastError: this.lastError,
      // Nothing leaves the page when it is not the person's turn: the page says why instead.
      act: (text) => (this.myTurn() && !this.waiting ? this.play(text) : this.notNow()),
      notNow: () => this.notNow(),
      redraw: () => {
        this.animate = false;
        this.render();
      },
      name: (seat) => (seat === this.snap.seat ? "You" : this.label(seat)),
      toast: (text) => this.toast(text),
    };
  }

  // ---- drawing ----

  render() {
    const s = this.snap;
    if (!s || !this.board || !this.info) return; // the game's declaration comes once, soon after the first state
    const play = this.context();
    this.renderHeader();
    this.renderBanner(play);
    this.renderBoard(play);
    this.renderReplay();
    this.renderSeats();
    this.renderInvite();
    this.renderMoves();
    this.renderLegal();
    this.renderResult();
    this.renderTable();
    this.tick();
    this.chat.render();
    this.share.render();
    this.sound.notice(this.myTurn());
    document.body.dataset.status = s.status;
    document.body.dataset.myTurn = String(this.myTurn());
    document.body.dataset.version = String(s.version);
    document.body.dataset.seat = s.seat === null ? "spectator" : String(s.seat);
    document.body.dataset.board = this.board.name;
    document.body.dataset.replay = this.replay.at === null ? "live" : String(this.replay.at);
  }

  renderHeader() {
    const title = this.info?.title ?? this.view.game;
    $("game-title").textContent = title;
    const rules = $("rules-link");
    if (rules) {
      rules.hidden = !this.info?.help; // a game without a rules page (an example) links nowhere
      if (this.info?.help) rules.href = this.info.help;
    }
    const options = Object.entries(this.view.options ?? {})
      .map(([k, v]) => `${k.replaceAll("_", " ")}: ${this.board.optionText?.(k, v, this.view) ?? (v === null ? "off" : v)}`)
      .join(" · ");
    const clock = this.clocks.timed ? ` · clock ${ruleText(this.clocks.clock.rule)}` : "";
    $("match-info").textContent = `${(this.view.seats ?? []).length} players${clock}${options ? ` · ${options}` : ""}`;
    // How far the game is, at the position on the board (a replay's step, or now).
    $("progress").textContent = this.board.progress?.(this.replay.step()?.view ?? this.view) ?? "";
    document.title = `${this.myTurn() ? "Your move · " : ""}${title} — parlour`;
  }

  /** The banner's head, hint and an optional button, by the match's status. */
  bannerParts(play) {
    const s = this.snap;
    if (s.status === "open") {
      const free = (s.seats ?? []).filter((x) => x.kind === "open").length;
      return { cls: "", head: [`Waiting for ${free} more player${free === 1 ? "" : "s"}`],
        hint: s.seat === null ? "Take a free seat to play, or stay and watch." : "Share this page's link with a friend." };
    }
    if (s.status === "over") return { cls: "over", head: [this.resultText()], hint: this.whyLine() };
    if (this.offline) {
      return { cls: "", head: ["Connection lost"],
        hint: "Reconnecting… the game waits here as it was: every move the board shows is kept." };
    }
    const out = this.table.outWords();
    if (out) {
      // The same words at every move of the others: the live region says them once.
      return { cls: "out", head: [this.swatch(s.seat), `You are out: ${out}`],
        hint: "You can watch the others play on, or leave the table." };
    }
    if (this.myTurn()) {
      const pass = s.legal.length === 1 && s.legal[0].parts.kind === "pass" ? s.legal[0] : null;
      const extra = pass && !this.waiting ? html("button", { class: "btn btn-primary btn-small", "data-action": pass.text,
        onclick: () => this.play(pass.text) }, ["Pass"]) : null;
      return { cls: "yours", head: [this.swatch(s.seat), "Your turn"], extra,
        hint: this.waiting ? "Sending…" : (this.board.hint?.(play) ?? "") };
    }
    const seat = this.view.to_move;
    if (seat === "chance") return { cls: "", head: ["Chance"], hint: "The cards or the dice decide…" };
    const bot = s.seats?.[seat]?.kind === "bot";
    let hint = bot ? "The bot is thinking…" : `Waiting for ${this.personName(seat)}.`;
    hint = this.board.waitingHint?.(play, this.label(seat)) ?? hint;
    if (s.seat === null) hint = `You are watching. ${hint}`;
    return { cls: "", head: [this.swatch(seat), `${this.label(seat)} to move`], hint };
  }

  renderBanner(play) {
    const said = this.bannerParts(play);
    const { cls, head, extra } = said;
    // A past position on the board: the banner says so once (the replay bar says which step), and
    // how to get back.
    const back = this.snap.status === "over" ? "the end" : "the game";
    const hint = this.replay.at === null ? said.hint
      : `The board shows an earlier position: press End or » to go back to ${back}.`;
    const banner = $("turn");
    banner.className = `turn-banner ${cls}`.trim();
    const parts = [html("div", {}, [
      html("div", { class: "head" }, head.flatMap((h, i) => (i ? [" ", h] : [h]))),
      html("span", { class: "hint" }, [hint]),
    ])];
    if (extra) parts.push(html("div", { style: "margin-left:auto" }, [extra]));
    // The banner is a live region: redrawn with the same words it would be read out again at
    // every update. Its buttons (extra) belong to this update's play, so those are always new.
    const key = `${banner.className}|${parts.map((part) => part.textContent).join("|")}`;
    if (!extra && banner.dataset.said === key) return;
    banner.dataset.said = key;
    banner.replaceChildren(...parts);
  }

  resultText() {
    const outcome = this.view.outcome;
    if (!outcome) return "Game over";
    if (outcome.winner === null || outcome.winner === undefined) {
      // With seats out (3–4 players), the draw is among those still in play: say whose it is.
      const out = this.view.out ?? [];
      const stayed = (this.view.seats ?? []).map((_, seat) => seat).filter((seat) => !out[seat]);
      if (!out.some(Boolean) || stayed.length < 2) return "Draw";
      const names = stayed.map((seat) => (seat === this.snap.seat ? "you" : this.label(seat)));
      return `Draw between ${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
    }
    if (outcome.winner === this.snap.seat) return "You win!";
    return `${this.label(outcome.winner)} wins`;
  }

  renderBoard(live) {
    const box = $("board");
    // A step of the replay, once it has come (until then the board stays as it was).
    const play = this.replay.at === null ? this.replay.finalContext(live) ?? live : this.replay.context(live);
    if (!play) return;
    const focused = focusSelector(box);
    const drawn = this.board.draw(play);
    this.animate = false;
    drawn.classList.toggle("interactive", play === live && this.myTurn());
    box.classList.toggle("table-mode", !(drawn instanceof SVGElement));
    box.replaceChildren(drawn);
    box.dataset.version = String(play.version); // the position on the board: the live one or a replay's step
    if (focused) {
      // Where play goes on, if the board says (Mille's draw pile at the start of a turn), else the same
      // square, card or button when it is still there and enabled, else the board's tab stop.
      const next = this.board.focusTarget?.(play);
      const again = [...(next ? box.querySelectorAll(next) : []), ...box.querySelectorAll(focused),
        ...box.querySelectorAll("[tabindex='0'], button")];
      again.find(canFocus)?.focus();
    }
    const extra = this.board.side?.(play) ?? null;
    const side = $("game-extra");
    side.hidden = !extra;
    side.replaceChildren(...(extra ? [extra] : []));
  }

  renderSeats() {
    const s = this.snap;
    const counts = this.board.counts?.(this.view) ?? {};
    const canJoin = s.seat === null && s.status === "open";
    const items = (s.seats ?? []).map((info) => {
      const classes = [];
      if (s.status === "running" && this.view.to_move === info.seat) classes.push("to-move");
      if (s.seat === info.seat) classes.push("me");
      const out = this.view.out?.[info.seat] ?? null;
      if (s.status !== "open" && (counts[info.seat] === 0 || out)) classes.push("out");
      let presence;
      if (info.kind === "bot") presence = html("span", { class: "presence bot" }, ["bot"]);
      else if (info.kind === "open") {
        presence = canJoin
          ? html("button", { class: "btn btn-primary btn-small", "data-join": String(info.seat),
            onclick: () => this.takeSeat(info.seat) }, ["Take seat"])
          : html("span", { class: "presence" }, ["free"]);
      } else {
        presence = html("span", { class: `presence ${info.connected ? "online" : ""}`, "data-presence": String(info.seat) },
          [info.connected ? "online" : this.awayText(info)]);
      }
      const who = info.kind === "bot" ? botName(info) : info.kind === "open" ? "Open seat" : (info.player || "Player");
      const count = counts[info.seat] !== undefined ? ` · ${counts[info.seat]} ${this.board.countNoun ?? "pieces"}` : "";
      return html("li", { class: classes.join(" "), "data-seat": String(info.seat) }, [
        this.swatch(info.seat),
        html("div", {}, [
          html("span", { class: "who" }, [who]),
          html("span", { class: "what" }, [info.name, count]),
          out ? html("span", { class: "what out-why", "data-out": String(info.seat) }, [`Out: ${out}`]) : null,
        ]),
        html("div", { class: "seat-end" }, [this.clockOf(info.seat, out), presence]),
      ]);
    });
    $("seats").replaceChildren(...items);
  }

  /** A seat's clock in the list of seats (null in a match without one), ticked by `tick`. */
  clockOf(seat, out) {
    if (!this.clocks.timed) return null;
    const flagged = this.ranOut(seat, out);
    return html("span", { class: "clock", "data-clock": String(seat), role: "timer", "aria-label": `${this.label(seat)}'s clock` },
      [flagged ? "out of time" : clockText(this.clocks.left(seat))]);
  }

  /** "away", "away 3 min": how long a person's seat has had no connection. */
  awayText(info) {
    const away = this.clocks.away(info);
    return away === null || away < 60 ? "away" : `away ${spanText(away)}`;
  }

  /**
   * Once a fifth of a second: the running clock counts down, low time is marked, and how long a
   * seat has been away grows; the table's card is redrawn only when a claim becomes possible.
   */
  tick() {
    const s = this.snap;
    if (!s) return;
    const running = this.clocks.clock?.running;
    for (const el of document.querySelectorAll("[data-clock]")) {
      const seat = Number(el.dataset.clock);
      if (el.textContent === "out of time") continue;
      const text = clockText(this.clocks.left(seat));
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("running", s.status === "running" && running === seat);
      el.classList.toggle("low", s.status === "running" && this.clocks.low(seat));
    }
    for (const el of document.querySelectorAll("[data-presence]")) {
      const info = s.seats?.[Number(el.dataset.presence)];
      if (info && !info.connected) el.textContent = this.awayText(info);
    }
    const someoneAway = s.status === "running" && (s.seats ?? []).some((info) => this.clocks.away(info) !== null);
    this.clocks.keepTicking(someoneAway);
    const key = this.table.claimable().map((seat) => `${seat}:${Math.floor(this.clocks.away(s.seats[seat]) / 60)}`).join(" ");
    if (key !== this.ticked) {
      this.ticked = key;
      this.renderTable();
    }
  }

  /** Whether `seat` lost on time: out for it (3–4 players), or the game ended so (2). */
  ranOut(seat, out = this.view.out?.[seat]) {
    if (out === "ran out of time") return true;
    const outcome = this.view.outcome;
    return outcome?.reason === "out-of-time" && this.leaver() === seat;
  }

  /** The seat the last event took out of the game (resigned, ran out of time, gone), or null. */
  leaver() {
    const last = this.moves[this.moves.length - 1];
    if (last?.leaving) return last.leaving.kind === "retire" ? last.leaving.seat : null;
    const outcome = this.view.outcome;
    if (!["resigned", "out-of-time", "gone"].includes(outcome?.reason)) return null;
    return typeof last?.seat === "number" && last.seat !== outcome.winner ? last.seat : null;
  }

  /** Why the game ended: who left and how ("Bob (White) ran out of time"), else the game's words. */
  /** Why this seat left the game before its end (the view's words), or null. */
  myOut() {
    const seat = this.snap.seat;
    return typeof seat === "number" ? this.view.out?.[seat] ?? null : null;
  }

  whyLine() {
    const seat = this.leaver();
    if (seat !== null && this.view.outcome) return this.eventText(this.moves[this.moves.length - 1]);
    return whyText(this.view.outcome);
  }

  renderInvite() {
    const s = this.snap;
    const box = $("invite");
    if (s.status !== "open") {
      box.replaceChildren();
      return;
    }
    const link = location.href;
    const parts = [];
    if (s.seat === null) {
      parts.push(html("label", { for: "player-name" }, ["Your name"]),
        html("input", { id: "player-name", type: "text", maxlength: "40", value: names.get(), placeholder: "Player",
          autocomplete: "nickname" }));
    }
    parts.push(html("p", { class: "small muted" }, ["Invite a friend with this link:"]),
      html("div", { class: "form-inline" }, [
        html("input", { type: "text", readonly: true, value: link, style: "flex:1;min-width:0", "aria-label": "Match link" }),
        html("button", { class: "btn btn-small", onclick: () => this.copy(link) }, ["Copy"]),
      ]));
    if (!box.querySelector("#player-name") || s.seat !== null) box.replaceChildren(...parts);
  }

  /** The replay's controls under the board, for a match with moves made (not while seats are open). */
  renderReplay() {
    const box = $("replay");
    if (!box) return;
    box.hidden = !this.replay.available();
    if (box.hidden) return;
    const had = box.contains(document.activeElement) ? document.activeElement.id : null;
    box.replaceChildren(this.replay.controls());
    if (had) {
      // The button pressed stays focused while it applies; at either end, the one that goes back.
      const same = $(had);
      const next = same && !same.disabled ? same : box.querySelector("button:not([disabled])");
      next?.focus();
    }
  }

  /**
   * The moves list as a scoresheet (scoresheet.js): a row a turn, the person, then each step of the
   * turn, a button that shows it. The events are the replay's where it has them (once over, the full
   * texts: the cards drawn), else the page's own.
   */
  renderMoves() {
    const list = $("moves");
    const captured = this.replay.at === null ? this.board.captured?.(this.memory) ?? [] : [];
    const shown = this.replay.shown;
    // A redraw within one position (a click of a half-made choice) leaves the list as it is: it can
    // be a long one, and a reader who scrolled it up keeps their place.
    const key = `${this.moves.length}|${this.moves[this.moves.length - 1]?.version}|${captured.map((c) => c.square).join(" ")}`
      + `|${shown}|${this.replay.steps.size}`;
    if (key === this.movesShown) return;
    this.movesShown = key;
    const rows = this.sheet().rows;
    // The step shown is in the first phrase that reaches it (a folded phrase covers several versions).
    const current = this.replay.at === null ? null
      : rows.flatMap(rowPhrases).find((p) => p.version >= shown)?.version ?? null;
    const marked = captured.map((c) => c.square).join(" ");
    this.drawRows(list, rows, marked, current);
    if (!rows.length) list.replaceChildren(html("li", { class: "muted" }, ["No moves yet."]));
    this.scrollMoves(list);
  }

  /**
   * The scoresheet of the match so far. An update adds an event to the same move list: only the
   * last turn is folded again. A new move list (a state) or more of the replay's events (fuller
   * once over) fold it all again.
   */
  sheet() {
    const source = { moves: this.moves, steps: this.replay.steps.size, perspective: this.replay.perspective };
    const before = this.sheetOf;
    const same = before && before.source.moves === source.moves && before.source.steps === source.steps
      && before.source.perspective === source.perspective;
    const events = this.moves.map((move) => this.replay.event(move.version) ?? move);
    const sheet = scoresheet(boardFor(this.view.game).phrases, events, same ? before.sheet : null);
    this.sheetOf = { source, sheet };
    return sheet;
  }

  /**
   * Draws the rows that changed only (a bot's fast game adds a row a move to a list of hundreds;
   * stepping the replay moves the mark of the step shown from one row to another). A row kept from
   * the scoresheet before keeps its drawn words (`rowWords`), worked out once.
   */
  drawRows(list, rows, marked, current) {
    // The words name the people: a seat taken by someone else draws every row again.
    const people = (this.view.seats ?? []).map((_, seat) => this.label(seat)).join("|");
    if (people !== this.rowPeople) {
      this.rowPeople = people;
      this.rowWords = new WeakMap();
    }
    const keyOf = (row, i) => {
      if (!this.rowWords.has(row)) {
        this.rowWords.set(row, JSON.stringify([row.turn, row.runs.map((run) => [
          typeof run.seat === "number" ? this.label(run.seat) : run.seat, run.lead, run.phrases])]));
      }
      const marks = i === rows.length - 1 ? marked : "";
      // Which step of the row is shown, not only whether one is: stepping within a turn moves the mark.
      const here = current !== null && rowPhrases(row).some((p) => p.version === current) ? current : "";
      return `${this.rowWords.get(row)}|${marks}|${here}`;
    };
    const old = list.querySelector("li:not([data-turn])") ? [] : this.rowKeys ?? [];
    const items = old.length ? [...list.children] : [];
    if (!old.length) list.replaceChildren();
    this.rowKeys = rows.map(keyOf);
    rows.forEach((row, i) => {
      if (this.rowKeys[i] === old[i] && items[i]) return;
      const marks = i === rows.length - 1 && marked
        ? html("span", { class: "muted capture-marks", title: "captured" }, [` ✕${marked}`]) : null;
      const item = this.moveRow(row, current, marks);
      if (items[i]) items[i].replaceWith(item);
      else list.append(item);
    });
    items.slice(rows.length).forEach((item) => item.remove());
  }

  /** The list scrolled to the step shown (within the list only: the page stays where it is), or to its end. */
  scrollMoves(list) {
    const here = this.replay.at === null ? null : list.querySelector("[aria-current='step']");
    if (!here) {
      list.scrollTop = list.scrollHeight;
      return;
    }
    const box = list.getBoundingClientRect();
    const at = here.getBoundingClientRect();
    if (at.top < box.top) list.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
  }

  /**
   * One turn of the scoresheet: "12. [swatch] Ann (Black) draws, plays 100", each step a button; a
   * seat that left during the turn is said in its place in the row ("· Carl (Green) resigned ·").
   */
  moveRow(row, current, marks) {
    // A span, not a <button>: a button is a box of its own, so a step that wraps would push the
    // comma after it to the far side of the list; a span's words flow as the row's.
    const step = (phrase, text) => html("span", {
      role: "button", class: "move-step", tabindex: "-1", "data-step": String(phrase.version),
      "aria-current": phrase.version === current ? "step" : undefined, onclick: () => this.replay.go(phrase.version),
    }, [text]);
    const parts = [];
    row.runs.forEach((run, i) => {
      if (i) parts.push(" · ");
      parts.push(...this.runParts(run, step));
    });
    return html("li", { "data-version": String(rowPhrases(row).at(-1)?.version), "data-turn": String(row.turn) }, [
      html("span", { class: "n" }, [`${row.turn}.`]),
      this.swatch(row.seat),
      html("span", { class: "move" }, parts.filter((part) => part !== "")),
      marks,
    ]);
  }

  /** The words of one run of a turn (scoresheet.js): the deal, the person, each step of theirs. */
  runParts(run, step) {
    if (run.leaving) {
      const words = leavingText(run.leaving, (seat) => this.seatName(seat), (seat) => this.label(seat));
      return [html("span", { class: "move-leaving" }, [step(run.phrases[0], words)])];
    }
    const parts = [];
    run.lead.forEach((phrase, i) => parts.push(i ? ", " : "", step(phrase, phrase.text[0].toUpperCase() + phrase.text.slice(1))));
    if (run.lead.length && run.phrases.length) parts.push(" · ");
    if (!run.phrases.length) return parts;
    if (typeof run.seat === "number") parts.push(`${this.label(run.seat)} `);
    else if (run.seat === "chance") parts.push("Chance ");
    // Each step keeps the comma or colon after it on its line (a line never starts with one).
    run.phrases.forEach((phrase, i) => {
      const after = joiner(run.phrases, i + 1).trim();
      parts.push(i ? " " : "", html("span", { class: "move-steps" }, [step(phrase, phrase.text), after]));
    });
    return parts;
  }

  /**
   * An event for people: "Ann (Black) b1-d3". An action whose text names its own seat (leaving the
   * table: "Black resigned") names the person instead; the table's own decisions ("draw agreed",
   * no seat) stand alone.
   */
  eventText(event, between = " ") {
    const action = event.action ?? "(hidden)";
    if (event.seat === null || event.seat === undefined) return `${action[0].toUpperCase()}${action.slice(1)}`;
    if (event.seat === "chance") return `Chance${between}${action}`;
    const name = this.seatName(event.seat);
    // A seat leaving (the server's `leaving`) reads "<seat> resigned": the person is put for the seat.
    if (event.leaving?.kind === "retire" && action.startsWith(`${name} `)) return `${this.label(event.seat)}${action.slice(name.length)}`;
    return `${this.label(event.seat)}${between}${action}`;
  }

  renderLegal() {
    const legal = this.myTurn() && !this.waiting ? this.snap.legal : NO_ACTIONS;
    $("legal-wrap").hidden = !this.myTurn();
    if (legal === this.legalShown) return; // the same list (it may be hundreds of buttons)
    this.legalShown = legal;
    $("legal-count").textContent = String(legal.length);
    $("legal").replaceChildren(...legal.map(({ text }) => html("button", {
      type: "button", "data-action": text, onclick: () => this.play(text),
    }, [text])));
  }

  renderResult() {
    const card = $("result");
    if (this.snap.status !== "over") {
      card.hidden = true;
      return;
    }
    card.hidden = false;
    const winner = this.view.outcome?.winner;
    const rematch = this.table.rematchControls();
    const had = card.contains(document.activeElement) ? document.activeElement.id : null;
    card.replaceChildren(...[
      typeof winner === "number" ? this.swatch(winner, { style: "width:2.2rem;height:2.2rem" }) : null,
      html("div", { class: "big", id: "result-text" }, [this.resultText()]),
      html("div", { class: "muted", id: "result-why" }, [this.whyLine()]),
      this.myOut() ? html("p", { class: "small", id: "result-out" }, [`You were out: ${this.myOut()}.`]) : null,
      this.finalScore(),
      rematch ? html("div", { class: "result-rematch", id: "rematch-box" }, [rematch]) : null,
      html("div", { class: "form-inline result-actions" }, [
        html("a", { class: rematch ? "btn" : "btn btn-primary", href: "/" }, ["New match"]),
        this.info?.help ? html("a", { class: "btn", href: this.info.help }, ["Rules"]) : null,
        html("a", { class: "btn", id: "download-record", href: `/api/matches/${encodeURIComponent(this.id)}/record`, download: "",
          title: "The match's record (JSON): parlour play --replay FILE steps through it" }, ["Download the record"]),
      ]),
    ].filter(Boolean));
    if (had !== null) keepFocus(card, had);
  }

  renderTable() {
    const card = $("table-actions");
    const controls = this.table.gameControls();
    card.hidden = !controls;
    const had = card.contains(document.activeElement) ? document.activeElement.id : null;
    card.replaceChildren(...(controls ? [controls] : []));
    if (had !== null && controls) keepFocus(card, had);
  }

  /** The final score by seat, for a game whose outcome scores are points (the board says so). */
  finalScore() {
    const outcome = this.view.outcome;
    const scores = outcome?.scores ?? [];
    if (!this.board.scores || !scores.length) return null;
    return html("table", { class: "final-score", id: "final-score" }, [
      html("caption", {}, [`Final score ${finalScore(outcome)}`]),
      html("tbody", {}, scores.map((score, seat) => html("tr", {
        class: outcome.winner === seat ? "winner" : undefined, "data-score-seat": String(seat),
      }, [
        html("th", { scope: "row" }, [this.swatch(seat), " ", this.label(seat)]),
        html("td", {}, [scoreText(score)]),
      ]))),
    ]);
  }

  // ---- small things ----

  toast(text, ms = 3500) {
    const el = $("toast");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { el.hidden = true; }, ms);
  }

  async copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      this.toast("Link copied.");
    } catch (error) {
      this.toast("Copy the link from the box.");
    }
  }
}

const id = matchIdFromUrl();
if (id) {
  const page = new MatchPage(id);
  window.parlourMatch = page;
  page.start();
} else {
  document.getElementById("turn").textContent = "No match given.";
}
