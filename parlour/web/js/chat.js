// The match's chat (docs/protocol.md, "chat"): the players talk among themselves, the spectators
// among themselves; a spectator reads the players too, a player reads the spectators only once the
// game is over (the server sends each connection what it may read). Every text from the network is
// put on the page as text, never as markup. A player may mute the chat: it is hidden, counts nothing
// and says nothing, in this browser, until unmuted.

import { tokens } from "./net.js";
import { html } from "./svg.js";

export const CHAT_LONGEST = 500;
const MUTED_KEY = "parlour.chat.muted";
const $ = (id) => document.getElementById(id);

/** The characters of `text` as the server counts them (code points: an emoji is one). */
export function chatLength(text) {
  return [...text].length;
}

/** "14:05": the server's time of a message, in the reader's own clock. */
export function chatTime(at) {
  return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * One message as a list item: who, when and what; the spectators' messages are marked as theirs.
 * `swatch(seat)` draws a seat's colour (the match page's), or is absent (a replay before its board).
 */
export function chatItem(message, swatch = null) {
  const watching = message.room === "spectators";
  return html("li", { class: `chat-message${watching ? " from-spectators" : ""}`, "data-chat-id": String(message.id) }, [
    typeof message.seat === "number" && swatch ? swatch(message.seat) : null,
    html("span", { class: "chat-name" }, [message.name ?? "someone"]),
    watching ? html("span", { class: "chat-room" }, [" (watching)"]) : null,
    html("time", { class: "chat-time", datetime: new Date(message.at * 1000).toISOString() }, [chatTime(message.at)]),
    html("span", { class: "chat-text" }, [message.text]),
  ]);
}

export function chatMuted() {
  return localStorage.getItem(MUTED_KEY) === "1";
}

function setChatMuted(muted) {
  if (muted) localStorage.setItem(MUTED_KEY, "1");
  else localStorage.removeItem(MUTED_KEY);
}

/** What a message's refusal means for the person who wrote it. */
function refusalText(error) {
  if (error.code === "rate_limited") {
    const wait = error.retry_after ? ` Wait ${error.retry_after} s, then send it again.` : " Wait a moment, then send it again.";
    return `Too many messages at once: this one was not sent.${wait}`;
  }
  return `The message was not sent: ${error.message ?? error.code}`;
}

export class Chat {
  /** `page`: the match page (its socket, its snapshot, its seats' swatches). */
  constructor(page) {
    this.page = page;
    this.messages = new Map(); // id → message, as the server numbered them
    this.drawn = null;         // the ids on the page, in order (null: nothing drawn yet)
    this.sent = new Map();     // our message id → text, to give a refused text back
    this.serial = 0;
    this.loaded = false;       // a finished match's whole chat was asked for
    this.unread = 0;
    this.seen = true;          // whether the log is on the screen
    this.card = this.build();
    document.querySelector(".side")?.append(this.card);
    this.watchSeen();
    this.showMuted();
  }

  build() {
    return html("section", { class: "card chat-card", id: "chat", "aria-labelledby": "chat-title" }, [
      html("div", { class: "chat-head" }, [
        html("h2", { id: "chat-title" }, ["Chat ", html("span", { id: "chat-unread", class: "badge", hidden: true }, [])]),
        html("button", { type: "button", class: "btn btn-small", id: "chat-mute", "aria-pressed": "false",
          onclick: () => this.mute(!chatMuted()) }, ["Mute"]),
      ]),
      html("div", { id: "chat-body" }, [
        html("p", { id: "chat-note", class: "small muted chat-note" }, []),
        html("ol", { id: "chat-log", class: "chat-log", "aria-label": "Messages", tabindex: "0" }, []),
        html("form", { id: "chat-form", class: "chat-form", onsubmit: (event) => this.send(event) }, [
          html("label", { for: "chat-text", class: "visually-hidden" }, ["Message"]),
          html("input", { id: "chat-text", type: "text", autocomplete: "off", placeholder: "Say something…",
            "aria-describedby": "chat-note chat-count chat-error", oninput: () => this.counted() }),
          html("button", { type: "submit", class: "btn btn-small btn-primary", id: "chat-send" }, ["Send"]),
        ]),
        html("div", { class: "chat-foot" }, [
          html("span", { id: "chat-error", class: "chat-error small", "aria-live": "polite" }, []),
          html("span", { id: "chat-count", class: "chat-count small muted" }, [`0 / ${CHAT_LONGEST}`]),
        ]),
      ]),
      html("p", { id: "chat-muted-note", class: "small muted", hidden: true }, ["The chat is muted in this browser."]),
      // New messages of the others are read out here, politely: the focus stays where it is.
      html("div", { id: "chat-live", class: "visually-hidden", "aria-live": "polite" }, []),
    ]);
  }

  // ---- messages ----

  /** Takes what is the chat's (returns true); a `state` is only read (its `chat`), never taken. */
  receive(message) {
    if (message.type === "state") {
      // A state carries only the last messages this connection may read: they are merged into what
      // is held (a finished match's older messages, asked for once, stay), keeping only the rooms
      // this connection may read now (a spectator who took a seat no longer reads the spectators).
      const spectatorsHidden = message.status !== "over" && typeof message.seat === "number";
      for (const m of message.chat ?? []) this.messages.set(m.id, m);
      if (spectatorsHidden) {
        for (const [id, m] of this.messages) if (m.room === "spectators") this.messages.delete(id);
      }
      this.drawn = null;
      return false;
    }
    if (message.type === "chat") {
      this.messages.set(message.id, message);
      this.draw();
      this.arrived(message);
      return true;
    }
    if (message.type === "error" && (message.code === "bad_chat" || String(message.id ?? "").startsWith("chat-"))) {
      this.refused(message);
      return true;
    }
    return false;
  }

  /** A new message: read out and counted while unseen, unless it is our own or the chat is muted. */
  arrived(message) {
    if (this.mine(message) || chatMuted()) return;
    $("chat-live").textContent = `${message.name ?? "someone"}${message.room === "spectators" ? " (watching)" : ""}: ${message.text}`;
    if (!this.seen || document.visibilityState === "hidden") {
      this.unread += 1;
      this.showUnread();
    }
  }

  /** Whether we wrote it: a seat's by its seat; a spectator's (no seat) by a text we sent. */
  mine(message) {
    const seat = this.page.snap?.seat ?? null;
    if (seat !== null) return message.seat === seat;
    const ours = [...this.sent.entries()].find(([, text]) => text === message.text && message.seat === null);
    if (ours) this.sent.delete(ours[0]);
    return Boolean(ours);
  }

  /**
   * A finished match's whole conversation (a state carries only its last messages), as its replay
   * shows it: asked once, merged with what came meanwhile.
   */
  async loadAll() {
    if (this.loaded) return;
    this.loaded = true;
    const token = tokens.get(this.page.id);
    const query = token ? `?${new URLSearchParams({ token })}` : "";
    try {
      const response = await fetch(`/api/matches/${encodeURIComponent(this.page.id)}/chat${query}`);
      if (!response.ok) return;
      const answer = await response.json();
      for (const m of answer.chat ?? []) this.messages.set(m.id, m);
      this.draw();
    } catch (error) {
      // The last messages the state carried stay on the page.
    }
  }

  // ---- writing ----

  counted() {
    const length = chatLength($("chat-text").value.trim());
    const count = $("chat-count");
    count.textContent = `${length} / ${CHAT_LONGEST}`;
    count.classList.toggle("over", length > CHAT_LONGEST);
  }

  send(event) {
    event.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    const length = chatLength(text);
    if (!length) return this.say("Write something first.");
    if (length > CHAT_LONGEST) return this.say(`A message has at most ${CHAT_LONGEST} characters; this one has ${length}.`);
    this.serial += 1;
    const id = `chat-${this.serial}`;
    if (!this.page.socket.send({ type: "chat", text, id })) return this.say("Not connected: the message was not sent.");
    this.sent.set(id, text);
    if (this.sent.size > 20) this.sent.delete(this.sent.keys().next().value);
    input.value = "";
    this.counted();
    return this.say("");
  }

  /** A refused message: why, and its text back in the box (unless something new is being written). */
  refused(error) {
    const text = this.sent.get(error.id);
    this.sent.delete(error.id);
    const input = $("chat-text");
    if (text !== undefined && !input.value) {
      input.value = text;
      this.counted();
    }
    this.say(refusalText(error));
  }

  say(words) {
    $("chat-error").textContent = words;
    return undefined;
  }

  // ---- drawing ----

  /** The log: new messages appended; redrawn whole after a state. */
  draw() {
    const log = $("chat-log");
    const ordered = [...this.messages.values()].sort((a, b) => a.id - b.id);
    const swatch = this.page.board ? (seat) => this.page.swatch(seat) : null;
    const drawn = this.drawn ?? [];
    const grows = drawn.length > 0 && drawn.every((id, i) => ordered[i]?.id === id);
    const stuck = log.scrollTop + log.clientHeight >= log.scrollHeight - 8; // at the bottom: stays there
    if (grows) log.append(...ordered.slice(drawn.length).map((m) => chatItem(m, swatch)));
    else log.replaceChildren(...ordered.map((m) => chatItem(m, swatch)));
    if (!ordered.length) log.replaceChildren(html("li", { class: "muted chat-empty" }, ["No messages yet."]));
    this.drawn = ordered.map((m) => m.id);
    if (stuck || !grows) log.scrollTop = log.scrollHeight;
  }

  /** At each redraw of the page: the words about who reads what, and the log once the board is known. */
  render() {
    const s = this.page.snap;
    if (!s) return;
    if (this.drawn === null) this.draw();
    if (s.status === "over") this.loadAll(); // once over, the spectators' talk is everyone's: all of it
    const note = this.noteText(s);
    if ($("chat-note").textContent !== note) $("chat-note").textContent = note;
  }

  noteText(s) {
    if (s.status === "over") return "The game is over: the players' and the spectators' messages are shown.";
    if (s.seat === null) return "You are watching: you talk with the other spectators and read the players.";
    return "You talk with the other players. The spectators' messages are shown when the game is over.";
  }

  // ---- mute and unread ----

  mute(muted) {
    setChatMuted(muted);
    this.unread = 0;
    this.showMuted();
  }

  showMuted() {
    const muted = chatMuted();
    $("chat-body").hidden = muted;
    $("chat-muted-note").hidden = !muted;
    const button = $("chat-mute");
    button.textContent = muted ? "Unmute" : "Mute";
    button.setAttribute("aria-pressed", String(muted));
    button.setAttribute("aria-label", muted ? "Unmute the chat" : "Mute the chat");
    this.card.classList.toggle("muted-chat", muted);
    this.showUnread();
  }

  showUnread() {
    const badge = $("chat-unread");
    badge.hidden = chatMuted() || this.unread === 0;
    badge.textContent = `${this.unread} new`;
    this.card.dataset.unread = String(chatMuted() ? 0 : this.unread);
  }

  /** The count of unread messages clears when the log is on the screen of a page in front. */
  watchSeen() {
    const clear = () => {
      if (this.seen && document.visibilityState === "visible" && this.unread) {
        this.unread = 0;
        this.showUnread();
      }
    };
    document.addEventListener("visibilitychange", clear);
    if (!("IntersectionObserver" in window)) return;
    new IntersectionObserver((entries) => {
      this.seen = entries.some((entry) => entry.isIntersecting);
      clear();
    }).observe($("chat-log"));
  }
}
