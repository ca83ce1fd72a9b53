// The match page: one WebSocket, a board drawn from each snapshot's view, clicks turned into the
// legal actions the server listed.

import { gameUi } from "./games.js";
import { html } from "./svg.js";
import { MatchSocket, names, tokens } from "./net.js";
import { Picker, parseAction, squaresOf } from "./notation.js";
import { CENTRE, withCell } from "./boards/biloba.js";

const REASONS = {
  connected: "all pieces connected",
  simultaneous: "both sides connected at once",
  repetition: "the same position a third time",
  "move-limit": "the move limit was reached",
  blocked: "neither side can move",
  "last-player": "the last player with pawns",
  "lone-pawn": "the last survivor has a single pawn",
  "two-against-two": "two pawns against two",
  "no-pawns": "no pawns left",
  "quiet-limit": "too long without a capture",
  deadlock: "no player can move",
};

const $ = (id) => document.getElementById(id);

function matchIdFromUrl() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "match" && parts[1]) return decodeURIComponent(parts[1]);
  return new URLSearchParams(location.search).get("id");
}

class MatchPage {
  constructor(id) {
    this.id = id;
    this.snap = null;        // the latest state/update snapshot
    this.ui = null;          // the game's UI description
    this.picker = new Picker([]);
    this.moves = [];         // [{version, seat, action, captures}]
    this.captured = [];      // capture marks of the last turn
    this.animate = false;
    this.waiting = false;    // an action was sent; its update has not come back yet
    this.socket = new MatchSocket(id, {
      onMessage: (m) => this.receive(m),
      onStatus: (s) => this.connection(s),
    });
  }

  start() {
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.picker.prefix.length) {
        this.picker.reset();
        this.render();
      }
    });
    this.socket.connect();
  }

  // ---- messages ----

  receive(message) {
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
    this.snap = message;
    this.ui = gameUi(message.game);
    const known = this.moves.length ? this.moves[this.moves.length - 1].version : 0;
    if (message.resync) this.moves = [];
    const missed = (message.missed ?? []).filter((e) => e.version > known);
    for (const event of missed) this.moves.push({ ...event, captures: [] });
    if (before && missed.length === 1 && before.version === message.version - 1) {
      this.noteCaptures(before.view, message.view, missed[0]);
    } else if (missed.length) {
      this.captured = [];
    }
    this.animate = missed.length === 1;
    this.eventLog = [...(message.view?.events ?? [])];
    this.newPosition();
  }

  onUpdate(message) {
    const before = this.snap;
    this.snap = { ...message, missed: [] };
    this.moves.push({ ...message.event, captures: [] });
    if (before) this.noteCaptures(before.view, message.view, message.event);
    this.eventLog = [...(this.eventLog ?? []), ...(message.view?.events ?? [])].slice(-200);
    this.animate = true;
    this.newPosition();
  }

  onSeats(message) {
    if (!this.snap) return;
    this.snap = { ...this.snap, seats: message.seats, status: message.status };
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
    this.toast(message.message ?? message.code);
    this.picker.reset();
    this.render();
  }

  noteCaptures(before, after, event) {
    const captures = this.ui?.captures(before, after, event) ?? [];
    const entry = this.moves[this.moves.length - 1];
    if (entry) entry.captures = captures;
    const replacement = parseAction(event?.action ?? "").kind === "replace";
    // Biloba: the captures of a move stay marked while its replacements are chosen.
    this.captured = replacement ? [...this.captured, ...captures] : captures;
  }

  newPosition() {
    this.waiting = false;
    this.lastError = null;
    this.picker = new Picker(this.snap.legal ?? []);
    this.render();
  }

  connection(status) {
    const el = $("conn");
    el.className = `conn ${status}`;
    el.textContent = { online: "connected", offline: "reconnecting…", connecting: "connecting…", closed: "closed" }[status];
  }

  // ---- actions ----

  play(text) {
    if (this.waiting || !this.snap) return;
    const ok = this.socket.send({ type: "action", text, version: this.snap.version });
    if (!ok) {
      this.toast("Not connected: the move was not sent.");
      return;
    }
    this.waiting = true;
    this.picker.reset();
    this.render();
  }

  clickSquare(square) {
    if (!this.myTurn() || this.waiting) return;
    const result = this.picker.click(square);
    if (result.action) this.play(result.action.text);
    else if (result.changed) {
      this.animate = false;
      this.render();
    }
  }

  takeSeat(seat) {
    const name = ($("player-name")?.value ?? names.get()).trim();
    if (name) names.set(name);
    const message = { type: "join", seat };
    if (name) message.name = name.slice(0, 40);
    this.socket.send(message);
  }

  // ---- what the page knows ----

  myTurn() {
    const s = this.snap;
    return Boolean(s && s.status === "running" && s.seat !== null && s.seat === s.to_move && (s.legal ?? []).length);
  }

  seatName(seat) {
    return this.snap?.seats?.[seat]?.name ?? `Seat ${seat}`;
  }

  /** A seat's colour: the game's, for the seats this match's options chose. */
  colour(seat) {
    return this.ui.swatch(seat, this.snap?.view?.record?.options);
  }

  personName(seat) {
    const info = this.snap?.seats?.[seat];
    if (!info) return this.seatName(seat);
    if (info.kind === "bot") return `${info.bot ?? "bot"} bot`;
    if (info.kind === "open") return "open seat";
    return info.player || "a player";
  }

  replacing() {
    return Boolean(this.snap?.view?.pending);
  }

  // ---- drawing ----

  render() {
    const s = this.snap;
    if (!s) return;
    if (!this.ui) {
      $("board").replaceChildren(html("div", { class: "notice" }, [`This browser page cannot draw ${s.game} yet.`]));
      return;
    }
    this.renderHeader();
    this.renderBanner();
    if (this.ui.table) this.renderTable();
    else this.renderBoard();
    this.renderSeats();
    this.renderInvite();
    this.renderMoves();
    this.renderLegal();
    this.renderResult();
    document.body.dataset.status = s.status;
    document.body.dataset.myTurn = String(this.myTurn());
    document.body.dataset.version = String(s.version);
    document.body.dataset.seat = s.seat === null ? "spectator" : String(s.seat);
  }

  renderHeader() {
    $("game-title").textContent = this.ui.title;
    const rules = $("rules-link");
    rules.href = this.ui.help;
    const options = Object.entries(this.snap.view?.record?.options ?? {})
      .map(([k, v]) => `${k.replaceAll("_", " ")}: ${this.ui.optionText?.(k, v, this.snap.view) ?? (v === null ? "off" : v)}`)
      .join(" · ");
    $("match-info").textContent = `${this.snap.players} players${options ? ` · ${options}` : ""}`;
    $("progress").textContent = this.ui.progress(this.snap.view);
    const turn = this.myTurn() ? "Your move · " : "";
    document.title = `${turn}${this.ui.title} — parlour`;
  }

  renderBanner() {
    const s = this.snap;
    const banner = $("turn");
    const swatch = (seat) => html("span", { class: `swatch swatch-${this.colour(seat)}` });
    let cls = "turn-banner";
    let head;
    let hint = "";
    let extra = null;
    if (s.status === "open") {
      const free = (s.seats ?? []).filter((x) => x.kind === "open").length;
      head = [`Waiting for ${free} more player${free === 1 ? "" : "s"}`];
      hint = s.seat === null ? "Take a free seat to play, or stay and watch." : "Share this page's link with a friend.";
    } else if (s.status === "over") {
      cls += " over";
      head = [this.resultText()];
      hint = REASONS[s.outcome?.reason] ?? s.outcome?.reason ?? "";
    } else if (this.myTurn()) {
      cls += " yours";
      head = [swatch(s.seat), "Your turn"];
      if (this.waiting) hint = "Sending…";
      else if (this.ui.hint) hint = this.ui.hint(s, this.chosen ?? null);
      else if ((s.legal ?? []).length === 1 && s.legal[0] === "pass") {
        hint = "You have no legal move and must pass.";
        extra = html("button", { class: "btn btn-primary btn-small", "data-action": "pass", onclick: () => this.play("pass") },
          ["Pass"]);
      } else if (this.replacing()) {
        hint = this.picker.prefix.length
          ? "Now click the highlighted tile it moves into."
          : "Replacement: pick a pulsing pawn, then the empty tile it fills.";
      } else if (this.picker.prefix.length > 1 && this.picker.selected === CENTRE) {
        hint = "Centre! Step on from e5 to a free tile next to it.";
      } else if (this.picker.prefix.length) {
        hint = "Click a marked square to move there (or the piece again to put it back).";
      } else hint = "Pick one of your pieces.";
    } else {
      const seat = s.to_move;
      const bot = s.seats?.[seat]?.kind === "bot";
      head = [swatch(seat), `${this.seatName(seat)} to move`];
      hint = bot ? "The bot is thinking…" : `Waiting for ${this.personName(seat)}.`;
      if (this.replacing()) hint = `${this.seatName(seat)} chooses replacements.`;
      if (s.seat === null) hint = `You are watching. ${hint}`;
    }
    banner.className = cls;
    const parts = [html("div", {}, [
      html("div", { class: "head" }, head.flatMap((h, i) => (i ? [" ", h] : [h]))),
      html("span", { class: "hint" }, [hint]),
    ])];
    if (extra) parts.push(html("div", { style: "margin-left:auto" }, [extra]));
    banner.replaceChildren(...parts);
  }

  resultText() {
    const outcome = this.snap.outcome;
    if (!outcome) return "Game over";
    if (outcome.winner === null || outcome.winner === undefined) return "Draw";
    if (outcome.winner === this.snap.seat) return "You win!";
    return `${this.seatName(outcome.winner)} wins`;
  }

  renderBoard() {
    const s = this.snap;
    let board = s.view.board;
    const marks = {
      last: squaresOf(s.view.last_move),
      captured: this.captured,
    };
    if (this.myTurn() && !this.waiting) {
      marks.starts = this.picker.prefix.length ? new Set() : this.picker.starts();
      marks.selected = this.picker.prefix;
      marks.targets = this.picker.targets();
    }
    if (this.ui.pending && this.replacing()) {
      marks.pending = this.ui.pending(s.view);
      marks.vacated = this.ui.vacated(s.view);
    }
    const prefix = this.picker.prefix;
    if (s.game === "biloba" && prefix.length === 2 && prefix[1] === CENTRE) {
      // Half-way through a centre route: show the pawn on e5 and a ghost where it came from.
      const letter = this.ui.cellAt(board, prefix[0]);
      board = withCell(withCell(board, prefix[0], "."), CENTRE, letter);
      marks.ghosts = [{ square: prefix[0], letter }];
      marks.last = [];
      marks.hideLastArrow = true;
    }
    const svgBoard = this.ui.draw({ ...s.view, board }, marks, {
      rotate: this.ui.rotation(s.seat, s.players),
      onClick: (square) => this.clickSquare(square),
      animate: this.animate,
      title: `${this.ui.title} board`,
    });
    this.animate = false;
    svgBoard.classList.toggle("interactive", this.myTurn());
    $("board").replaceChildren(svgBoard);
  }

  /** Card games: the table is HTML and SVG cards drawn by the game's UI from the view. */
  renderTable() {
    const s = this.snap;
    if (this.tableVersion !== s.version) {
      this.chosen = null;
      this.tableVersion = s.version;
    }
    const mine = this.myTurn() && !this.waiting;
    const table = this.ui.table(s.view, {
      legal: mine ? s.legal : [],
      names: (seat) => (seat === s.seat ? "You" : this.seatName(seat)),
      act: (text) => this.play(text),
      chosen: mine ? this.chosen : null,
      choose: (slot) => {
        this.chosen = slot;
        this.render();
      },
      page: this,
    });
    table.classList.toggle("interactive", this.myTurn());
    $("board").classList.add("table-mode");
    $("board").replaceChildren(table);
    const extra = this.ui.sideCard?.(s.view, {
      names: (seat) => (seat === s.seat ? "You" : this.seatName(seat)),
      dismissed: this.dismissedHand,
      dismiss: (serial) => {
        this.dismissedHand = serial;
        this.render();
      },
    }) ?? null;
    const box = $("game-extra");
    if (box) {
      box.hidden = !extra;
      box.replaceChildren(...(extra ? [extra] : []));
    }
  }

  renderSeats() {
    const s = this.snap;
    const counts = this.ui.counts(s.view);
    const canJoin = s.seat === null && s.status === "open";
    const items = (s.seats ?? []).map((info) => {
      const classes = [];
      if (s.status === "running" && s.to_move === info.seat) classes.push("to-move");
      if (s.seat === info.seat) classes.push("me");
      if (s.status !== "open" && counts[info.seat] === 0) classes.push("out");
      let presence;
      if (info.kind === "bot") presence = html("span", { class: "presence bot" }, ["bot"]);
      else if (info.kind === "open") {
        presence = canJoin
          ? html("button", { class: "btn btn-primary btn-small", "data-join": String(info.seat),
            onclick: () => this.takeSeat(info.seat) }, ["Take seat"])
          : html("span", { class: "presence" }, ["free"]);
      } else presence = html("span", { class: `presence ${info.connected ? "online" : ""}` }, [info.connected ? "online" : "away"]);
      const who = info.kind === "bot" ? `${info.bot ?? "bot"} bot` : info.kind === "open" ? "Open seat" : (info.player || "Player");
      return html("li", { class: classes.join(" "), "data-seat": String(info.seat) }, [
        html("span", { class: `swatch swatch-${this.colour(info.seat)}` }),
        html("div", {}, [
          html("span", { class: "who" }, [who]),
          html("span", { class: "what" }, [
            info.name,
            counts[info.seat] !== undefined ? ` · ${counts[info.seat]} ${s.game === "biloba" ? "pawns" : "pieces"}` : "",
          ]),
        ]),
        presence,
      ]);
    });
    $("seats").replaceChildren(...items);
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

  renderMoves() {
    const list = $("moves");
    const names = (seat) => (seat === "chance" ? "Chance" : this.seatName(seat));
    list.replaceChildren(...this.moves.map((move) => {
      const action = move.action ?? "(hidden)";
      const capture = move.captures?.length
        ? html("span", { class: "muted", title: "captured" }, [` ✕${move.captures.map((c) => c.square).join(" ")}`])
        : null;
      return html("li", { "data-version": String(move.version) }, [
        html("span", { class: "n" }, [`${move.version}.`]),
        html("span", { class: `swatch swatch-${typeof move.seat === "number" ? this.colour(move.seat) : "white"}` }),
        html("span", {}, [`${names(move.seat)} ${action}`]),
        capture,
      ]);
    }));
    if (!this.moves.length) list.append(html("li", { class: "muted" }, ["No moves yet."]));
    list.scrollTop = list.scrollHeight;
  }

  renderLegal() {
    const legal = this.myTurn() && !this.waiting ? this.snap.legal : [];
    $("legal-count").textContent = String(legal.length);
    $("legal-wrap").hidden = !this.myTurn();
    $("legal").replaceChildren(...legal.map((text) => html("button", {
      type: "button", "data-action": text, onclick: () => this.play(text),
    }, [text])));
  }

  renderResult() {
    const s = this.snap;
    const card = $("result");
    if (s.status !== "over") {
      card.hidden = true;
      return;
    }
    card.hidden = false;
    const winner = s.outcome?.winner;
    card.replaceChildren(...[
      winner !== null && winner !== undefined ? html("span", { class: `swatch swatch-${this.colour(winner)}`, style: "width:2.2rem;height:2.2rem" }) : null,
      html("div", { class: "big", id: "result-text" }, [this.resultText()]),
      html("div", { class: "muted" }, [REASONS[s.outcome?.reason] ?? s.outcome?.reason ?? ""]),
      html("div", { class: "form-inline result-actions" }, [
        html("a", { class: "btn btn-primary", href: "/" }, ["New match"]),
        html("a", { class: "btn", href: this.ui.help }, ["Rules"]),
      ]),
    ].filter(Boolean));
  }

  // ---- small things ----

  toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
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
