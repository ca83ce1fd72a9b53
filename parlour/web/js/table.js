// The table around a game (docs/protocol.md): resigning after a confirmation, offering a draw (two
// seats in play) or ending the game here (three or four), claiming a seat gone too long, a rematch
// once the game is over, and a seat that is out told so. The server's `offers`, `out` and `rematch` messages are kept here;
// match.js draws the board and the rest of the page, and asks this module for the controls, which
// appear only when they apply: to a seat still in play, not to spectators, after the end only the
// rematch.

import { spanText } from "./clocks.js";
import { tokens } from "./net.js";
import { html } from "./svg.js";

const $ = (id) => document.getElementById(id);

/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
function together(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * A question in a modal dialog: resolves true when `yes` is chosen, false on `no` or Escape.
 * The dialog is the page's own (`<dialog>`): it holds the focus while open and gives it back.
 */
export function confirmStep({ title, text, yes, no }) {
  let dialog = $("confirm");
  if (!dialog) {
    dialog = html("dialog", { id: "confirm", class: "confirm", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" }, [
      html("form", { method: "dialog" }, [
        html("h2", { id: "confirm-title" }),
        html("p", { id: "confirm-text" }),
        html("div", { class: "form-inline confirm-actions" }, [
          html("button", { class: "btn btn-danger", value: "yes", id: "confirm-yes" }),
          html("button", { class: "btn", value: "no", id: "confirm-no" }),
        ]),
      ]),
    ]);
    document.body.append(dialog);
  }
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = no;
  const opener = document.activeElement;
  dialog.returnValue = "";
  dialog.showModal();
  $("confirm-no").focus(); // the safe answer first: Enter alone never resigns
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      if (opener?.isConnected) opener.focus();
      resolve(dialog.returnValue === "yes");
    }, { once: true });
  });
}

export class Table {
  constructor(page) {
    this.page = page;
    this.offers = [];      // pending offers: [{what: "draw"|"rematch", by, agreed: [seats], waiting: [seats]}]
    this.rematch = null;   // once made: {match, url, seat, token}
    this.declined = false; // this seat's draw offer was declined: it may offer again once it has moved
  }

  /** Handles the table's messages; false for any other. */
  receive(message) {
    switch (message.type) {
      case "offers": this.onOffers(message); return true;
      case "out": this.onOut(message); return true;
      case "rematch": this.onRematch(message); return true;
      default: return false;
    }
  }

  /**
   * A `state` says the offers pending and, once made, the rematch with this seat's place in it (a
   * page opened again on the old match): its token is kept, and the way there shown, not taken.
   */
  fromState(message) {
    if (Array.isArray(message.offers)) this.offers = message.offers;
    // The server remembers whose draw offer was declined (a reloaded page must not offer again).
    if (Array.isArray(message.declined)) this.declined = message.declined.includes(message.seat);
    if (message.rematch) {
      this.rematch = message.rematch;
      if (this.rematch.token && !tokens.get(this.rematch.match)) tokens.set(this.rematch.match, this.rematch.token);
    }
  }

  /** An update: a seat whose draw offer was declined may offer again after its own next move. */
  onEvent(event) {
    if (event?.seat === this.me) this.declined = false;
  }

  onOffers(message) {
    const before = this.offer("draw");
    this.offers = message.offers ?? [];
    const news = message.news;
    if (Array.isArray(message.declined)) this.declined = this.me !== null && message.declined.includes(this.me);
    else if (news?.what === "draw" && news.change === "declined" && before?.by === this.me && this.me !== null) this.declined = true;
    // What the page's own seat did needs no telling; what the others did, or an offer lapsing, does.
    if (news?.words && (news.seat !== this.me || news.change === "lapsed")) this.page.toast(this.newsText(news));
    this.page.render();
  }

  /** An offer's news with the person's name ("Ann (Black) offers a draw."); the server's words otherwise. */
  newsText(news) {
    const many = this.inPlay().length > 2;
    const said = {
      draw: { made: many ? "proposes to end the game here" : "offers a draw", agreed: "agrees to end the game here",
        accepted: "accepts: the game is drawn", declined: many ? "refuses to end the game here" : "declines the draw",
        withdrawn: "withdraws the draw offer" },
      rematch: { made: "offers a rematch", agreed: "agrees to a rematch", accepted: "accepts: the rematch is on",
        declined: "declines the rematch", withdrawn: "withdraws the rematch offer" },
    }[news.what]?.[news.change];
    return said && typeof news.seat === "number" ? `${this.page.label(news.seat)} ${said}.` : news.words;
  }

  onOut(message) {
    if (message.seat === this.page.snap?.seat) this.page.toast(message.words);
    else $("announce").textContent = message.words;
    this.page.render();
  }

  onRematch(message) {
    this.rematch = message.rematch;
    const { token, url, match } = this.rematch;
    if (token) {
      // Every person is taken to the new match, with its seat's token kept as the page keeps any.
      tokens.set(match, token);
      location.assign(url);
      return;
    }
    this.page.render();
  }

  send(message) {
    if (!this.page.socket.send(message)) this.page.toast("Not connected: nothing was sent.");
  }

  // ---- what applies ----

  get me() {
    return this.page.snap?.seat ?? null;
  }

  inPlay() {
    const view = this.page.view;
    return (view.seats ?? []).map((_, seat) => seat).filter((seat) => !view.out?.[seat]);
  }

  offer(what) {
    return this.offers.find((o) => o.what === what) ?? null;
  }

  /** Why the page's seat is out of a running game, or null. */
  outWords() {
    const s = this.page.snap;
    if (!s || s.status !== "running" || this.me === null) return null;
    return this.page.view.out?.[this.me] ?? null;
  }

  // ---- drawing ----

  /** The controls of a running game for a seat still in play, or what to do once out; else null. */
  gameControls() {
    const s = this.page.snap;
    if (!s || s.status !== "running" || this.me === null) return null;
    const out = this.outWords();
    if (out) {
      return html("div", { class: "table-out", id: "out-notice" }, [
        html("p", {}, [html("strong", {}, [`You are out: ${out}.`]), " You can watch the others play on, or leave the table."]),
        html("a", { class: "btn btn-small", href: "/", id: "leave-table" }, ["Leave the table"]),
      ]);
    }
    const resign = html("button", { type: "button", class: "btn btn-small", id: "resign", onclick: () => this.resign() }, ["Resign…"]);
    const draw = this.drawPart();
    const claims = this.claimParts();
    // An offer to answer stands above the row of buttons; a button to offer one sits in it.
    if (draw?.tagName === "BUTTON" && !claims.length) return html("div", { class: "table-controls form-inline" }, [draw, resign]);
    const row = draw?.tagName === "BUTTON" ? [draw, resign] : [resign];
    return html("div", { class: "table-controls" }, [...claims, draw?.tagName === "BUTTON" ? null : draw,
      html("div", { class: "form-inline" }, row)].filter(Boolean));
  }

  /** The seats in play, not this one, gone long enough to be claimed (their `away_since`). */
  claimable() {
    const s = this.page.snap;
    if (!s || s.status !== "running" || this.me === null || this.outWords()) return [];
    const clocks = this.page.clocks;
    return this.inPlay().filter((seat) => seat !== this.me
      && (clocks.away(s.seats?.[seat]) ?? -1) >= clocks.goneLimit());
  }

  /** "Bob has been away 2 min" and the claim it allows: the win (two in play) or the seat (more). */
  claimParts() {
    const page = this.page;
    const two = this.inPlay().length === 2;
    return this.claimable().map((seat) => {
      const who = page.personName(seat);
      const away = spanText(page.clocks.away(page.snap.seats[seat]));
      return html("div", { class: "offer notice claim", id: `claim-${seat}`, role: "group", "aria-label": `${who} is away` }, [
        html("p", {}, [`${who} has been away ${away}.`]),
        html("button", { type: "button", class: "btn btn-primary btn-small", id: `claim-seat-${seat}`, "data-claim": String(seat),
          onclick: () => this.claim(seat) }, [two ? "Claim the win…" : `Retire ${who}'s seat…`]),
      ]);
    });
  }

  async claim(seat) {
    const page = this.page;
    const who = page.personName(seat);
    const two = this.inPlay().length === 2;
    const away = spanText(page.clocks.away(page.snap.seats[seat]));
    const sure = await confirmStep(two
      ? { title: "Claim the win?", text: `${page.label(seat)} has been away ${away}. You win the game: ${who} was gone too long.`,
        yes: "Claim the win", no: `Wait for ${who}` }
      : { title: `Retire ${who}'s seat?`, text: `${page.label(seat)} has been away ${away}. The seat leaves the game, and the others play on.`,
        yes: "Retire the seat", no: `Wait for ${who}` });
    if (sure) this.send({ type: "claim", seat });
  }

  /** A draw offer (two seats in play) or ending the game here (more): made, answered, or to make. */
  drawPart() {
    const page = this.page;
    const inPlay = this.inPlay();
    const many = inPlay.length > 2;
    const pending = this.offer("draw");
    if (pending) {
      const waiting = pending.waiting ?? [];
      const names = together(waiting.map((seat) => page.label(seat)));
      if (waiting.includes(this.me)) {
        const by = page.label(pending.by);
        const text = many
          ? `${by} proposes to end the game here, a draw among ${together(inPlay.map((seat) => page.label(seat)))}.`
          : `${by} offers a draw.`;
        return html("div", { class: "offer notice", id: "draw-offer", role: "group", "aria-label": many ? "End the game here" : "Draw offer" }, [
          html("p", {}, [text]),
          html("div", { class: "form-inline" }, [
            html("button", { type: "button", class: "btn btn-primary btn-small", id: "accept-draw",
              onclick: () => this.send({ type: "accept", what: "draw" }) }, [many ? "Agree to end here" : "Accept the draw"]),
            html("button", { type: "button", class: "btn btn-small", id: "decline-draw",
              onclick: () => this.send({ type: "decline", what: "draw" }) }, ["Decline"]),
          ]),
        ]);
      }
      const mine = pending.by === this.me ? (many ? "You proposed ending the game here" : "You offered a draw")
        : "You agreed to end the game here";
      return html("div", { class: "offer", id: "draw-offer" }, [
        html("p", {}, [`${mine}: waiting for ${names}.`]),
        pending.by === this.me ? html("button", { type: "button", class: "btn btn-small", id: "withdraw-draw",
          onclick: () => this.send({ type: "decline", what: "draw" }) }, ["Withdraw the offer"]) : null,
      ]);
    }
    // Bots play every game to its end: a draw is for tables of people alone. A declined offer is
    // made again only after a move of one's own.
    if (inPlay.some((seat) => page.snap.seats?.[seat]?.kind === "bot") || this.declined) return null;
    return html("button", { type: "button", class: "btn btn-small", id: "offer-draw",
      onclick: () => this.send({ type: "offer", what: "draw" }) }, [many ? "Propose ending the game here" : "Offer a draw"]);
  }

  async resign() {
    const page = this.page;
    const others = this.inPlay().filter((seat) => seat !== this.me);
    const text = others.length === 1
      ? `${page.label(others[0])} wins the game.`
      : "You leave the game, and the others play on without you.";
    const sure = await confirmStep({ title: "Resign this game?", text, yes: "Resign", no: "Keep playing" });
    if (sure) this.send({ type: "resign" });
  }

  /** The rematch, on the result card: to propose, to answer, or to go to once made; else null. */
  rematchControls() {
    const page = this.page;
    const s = page.snap;
    if (!s || s.status !== "over") return null;
    if (this.rematch) {
      return html("a", { class: "btn btn-primary", href: this.rematch.url, id: "go-rematch" },
        [this.me === null ? "Watch the rematch" : "Go to the rematch"]);
    }
    if (this.me === null) return null;
    const pending = this.offer("rematch");
    if (!pending) {
      return html("button", { type: "button", class: "btn btn-primary", id: "offer-rematch",
        onclick: () => this.send({ type: "offer", what: "rematch" }) }, ["Rematch"]);
    }
    const waiting = pending.waiting ?? [];
    if (waiting.includes(this.me)) {
      return html("div", { class: "offer notice", id: "rematch-offer", role: "group", "aria-label": "Rematch offer" }, [
        html("p", {}, [`${page.label(pending.by)} offers a rematch.`]),
        html("div", { class: "form-inline" }, [
          html("button", { type: "button", class: "btn btn-primary btn-small", id: "accept-rematch",
            onclick: () => this.send({ type: "accept", what: "rematch" }) }, ["Accept the rematch"]),
          html("button", { type: "button", class: "btn btn-small", id: "decline-rematch",
            onclick: () => this.send({ type: "decline", what: "rematch" }) }, ["Decline"]),
        ]),
      ]);
    }
    return html("div", { class: "offer", id: "rematch-offer" }, [
      html("p", {}, [`${pending.by === this.me ? "You offered a rematch" : "You agreed to a rematch"}: waiting for ${
        together(waiting.map((seat) => page.label(seat)))}.`]),
      pending.by === this.me ? html("button", { type: "button", class: "btn btn-small", id: "withdraw-rematch",
        onclick: () => this.send({ type: "decline", what: "rematch" }) }, ["Withdraw the offer"]) : null,
    ]);
  }
}
