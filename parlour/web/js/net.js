// Talking to `parlour serve`: the HTTP lobby API and one WebSocket per match (docs/protocol.md).

/** A refusal from the server: its error code and words, and what some refusals add (a map's
 * `problems`, a 429's Retry-After in seconds). */
export class ApiError extends Error {
  constructor(code, message, status, problems = [], retryAfter = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.problems = problems;
    this.retryAfter = retryAfter;
  }
}

export async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError("network", "The server cannot be reached.", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const err = data?.error ?? {};
    const problems = data?.problems ?? err.problems ?? [];
    const retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw new ApiError(err.code ?? "http", err.message ?? `The server answered ${response.status}.`, response.status,
      problems, retryAfter);
  }
  return data;
}

let gamesAnswer = null;
const startAnswers = new Map(); // game → its start's answer: it does not change while a page is open

export const api = {
  // The games do not change while a page is open: asked once, shared by the page skeleton and the page.
  games: () => {
    gamesAnswer ??= request("GET", "/api/games");
    return gamesAnswer;
  },
  // One page of the list, newest first: open and running matches, finished ones too when asked;
  // the answer's `next` (null on the last page) is the cursor of the page after it.
  matches: (finished = false, cursor = null) => {
    const query = new URLSearchParams({ status: finished ? "open,running,over" : "open,running" });
    if (cursor) query.set("cursor", cursor);
    return request("GET", `/api/matches?${query}`);
  },
  // A game's set-up with its default options, as a spectator sees it (pictures of its default board).
  start: (game) => {
    if (!startAnswers.has(game)) startAnswers.set(game, request("GET", `/api/games/${encodeURIComponent(game)}/start`));
    return startAnswers.get(game);
  },
  match: (id) => request("GET", `/api/matches/${encodeURIComponent(id)}`),
  create: (body) => request("POST", "/api/matches", body),
  join: (id, body) => request("POST", `/api/matches/${encodeURIComponent(id)}/join`, body),
};

/** Seat tokens live in localStorage under `parlour.token.{id}`, so a reload gets the seat back. */
export const tokens = {
  get: (id) => localStorage.getItem(`parlour.token.${id}`),
  set: (id, token) => localStorage.setItem(`parlour.token.${id}`, token),
  drop: (id) => localStorage.removeItem(`parlour.token.${id}`),
};

export const names = {
  get: () => localStorage.getItem("parlour.name") ?? "",
  set: (name) => localStorage.setItem("parlour.name", name),
};

/**
 * The match connection: says `hello` (with the seat token, or as a spectator), reconnects with
 * `last_version` when the socket drops, and hands every server message to `onMessage`.
 */
export class MatchSocket {
  constructor(matchId, { onMessage, onStatus }) {
    this.matchId = matchId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.version = null;
    this.closed = false;
    this.retries = 0;
    this.socket = null;
    this.pingTimer = null;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/matches/${encodeURIComponent(this.matchId)}`;
  }

  connect() {
    this.onStatus?.("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retries = 0;
      this.onStatus?.("online");
      this.hello();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      // Only the messages that carry the match's history count its versions (seats, offers and
      // the like only say the version they were sent at).
      if (typeof message.version === "number" && (message.type === "state" || message.type === "update")) {
        if (message.type === "update" && this.version !== null && message.version !== this.version + 1) {
          // A gap: ask again from what we have (protocol: "a client that sees a gap reconnects").
          this.socket.close();
          return;
        }
        this.version = message.version;
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket) return;
      if (this.closed || event.code === 4404) {
        this.onStatus?.("closed");
        return;
      }
      this.onStatus?.("offline");
      this.retries += 1;
      const delay = Math.min(8000, 400 * 2 ** Math.min(this.retries, 5));
      setTimeout(() => { if (!this.closed) this.connect(); }, delay);
    });
  }

  hello() {
    // The answer is a `state` with the whole move list, on a first connection as on a reconnection.
    const token = tokens.get(this.matchId);
    this.send(token ? { type: "hello", token } : { type: "hello", spectator: true });
  }

  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    this.socket?.close();
  }
}
