// The lobby's list of matches, in views: open (seats to take), playing now (to watch), finished,
// all, and "my matches" (the seats this browser holds tokens for); filtered by game, a page at a
// time ("More"). The chosen view and game live in the address (#view=…&game=…), so a reload keeps them.

import { boardFor } from "./boards/index.js";
import { ruleText } from "./clocks.js";
import { decoration, swatchFor } from "./lobby-pictures.js";
import { ApiError, api, tokens } from "./net.js";
import { botName, finalScore, seatLabel } from "./people.js";
import { html } from "./svg.js";

const $ = (id) => document.getElementById(id);
const PAGE = 20; // matches a page: enough to find one's own at a glance, few enough to read
const VIEWS = {
  open: { status: "open", empty: "No free seats right now. Create a match and invite a friend!" },
  playing: { status: "running", empty: "Nobody is playing right now." },
  finished: { status: "over", empty: "No finished matches yet." },
  mine: { status: "open,running,over", empty: "No matches of yours in this browser yet." },
  all: { status: "open,running,over", empty: "No matches yet. Create one and invite a friend!" },
};
let games = [];
let showError = () => {};
let pages = 1; // how many pages the list shows ("More" adds one)
let more = null; // the cursor of the page after the last shown, null when there is none
let clockOffset = 0; // the server's clock minus this page's, in seconds

// ---- the view and filter, kept in the address ----

function chosen() {
  const query = new URLSearchParams(location.hash.slice(1));
  const view = query.get("view") in VIEWS ? query.get("view") : "open";
  const game = games.some((g) => g.name === query.get("game")) ? query.get("game") : "";
  return { view, game };
}

function remember() {
  const view = document.querySelector("input[name=view]:checked")?.value ?? "open";
  const game = $("game-filter").value;
  const query = new URLSearchParams({ view });
  if (game) query.set("game", game);
  history.replaceState(null, "", `#${query}`);
}

// ---- asking the server ----

/** One page of the list, and the server's clock from the answer's `Date` header: the summaries'
 * `updated` is server time, and this page's clock may be off by minutes (the header's whole
 * seconds are plenty for "3 min ago"). */
async function ask(query) {
  const response = await fetch(`/api/matches?${query}`, { headers: { Accept: "application/json" } });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const err = data?.error ?? {};
    throw new ApiError(err.code ?? "http", err.message ?? `The server answered ${response.status}.`, response.status);
  }
  const date = Date.parse(response.headers.get("Date") ?? "");
  if (!Number.isNaN(date)) clockOffset = date / 1000 - Date.now() / 1000;
  return data;
}

const MATCH_ID = /^[A-Za-z0-9_-]{1,40}$/; // the shape of a match id the server takes in `ids`

/** The ids of the matches this browser holds a seat of (net.js keeps a token a match). */
function myIds() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    const id = key?.startsWith("parlour.token.") ? key.slice("parlour.token.".length) : "";
    // Only what can be a match id is asked for: one that cannot would get every batch refused.
    if (MATCH_ID.test(id)) ids.push(id);
  }
  return ids;
}

// The server answers at most `page_size` matches, or ids, at once (docs/protocol.md: 100 unless
// whoever runs it chose otherwise; it does not say). A larger ask is refused with 400: the browser
// then asks for half as many at a time, and remembers it for the page's life.
let pageSize = 100;
let idBatch = 100;

/** Whether a refusal says the ask was too large for the server (and could be made smaller). */
function tooLarge(error, size) {
  return error instanceof ApiError && error.status === 400 && size > 1;
}

/** "My matches": the server answers at most a page of ids at once, newest first; the browser keeps
 * no order of its own, so every batch is asked and the answers are put in order here. */
async function fetchMine(game) {
  const ids = myIds();
  const asked = new Set(ids);
  const found = [];
  for (let start = 0; start < ids.length;) {
    const batch = idBatch;
    const query = new URLSearchParams({ ids: ids.slice(start, start + batch).join(","), status: VIEWS.mine.status });
    if (game) query.set("game", game);
    let answer;
    try {
      answer = await ask(query);
    } catch (error) {
      if (!tooLarge(error, batch)) {
        if (batch === 1) idBatch = 100; // refused one at a time too: the refusal was not of the size
        throw error;
      }
      idBatch = Math.max(1, Math.floor(batch / 2));
      continue; // the same ids again, fewer at a time
    }
    // A server without `ids=` answers the whole list: only the matches asked for count.
    found.push(...answer.matches.filter((m) => asked.has(m.id)));
    start += batch;
  }
  found.sort((a, b) => (b.updated ?? b.created) - (a.updated ?? a.created));
  const shown = found.slice(0, PAGE * pages);
  return { matches: shown, next: found.length > shown.length ? "more" : null };
}

/**
 * The pages of the list shown so far, asked again at every refresh in as few requests as the server
 * allows (one, up to its page size): a tab that pressed "More" often stays within the lobby's rate.
 */
async function fetchView(view, game) {
  if (view === "mine") return fetchMine(game);
  const matches = [];
  let cursor = null;
  while (matches.length < PAGE * pages) {
    const limit = Math.min(PAGE * pages - matches.length, pageSize);
    const query = new URLSearchParams({ status: VIEWS[view].status, limit: String(limit) });
    if (game) query.set("game", game);
    if (cursor) query.set("cursor", cursor);
    let answer;
    try {
      answer = await ask(query);
    } catch (error) {
      if (!tooLarge(error, limit) || limit <= PAGE) throw error;
      pageSize = Math.max(PAGE, Math.floor(limit / 2));
      continue;
    }
    matches.push(...answer.matches);
    cursor = answer.next;
    if (!cursor) break;
  }
  return { matches, next: cursor };
}

// ---- a card ----

function titleOf(match) {
  return match.title ?? games.find((g) => g.name === match.game)?.title ?? match.game;
}

function thumbnail(game) {
  const ui = boardFor(game);
  if (!ui) return html("div", { class: "thumb", "aria-hidden": "true" });
  const picture = decoration(ui.thumbnail());
  picture.classList.add("thumb");
  return picture;
}

function seatChip(match, seat) {
  let who = seat.player || "player";
  if (seat.kind === "bot") who = botName(seat);
  if (seat.kind === "open") who = "free";
  // The seat's name is written out: its colour alone would not tell the seats apart for everyone.
  return html("span", { class: "chip" }, [
    swatchFor(match.game, seat.seat, match.options),
    html("span", {}, [html("span", { class: "seat-name" }, [seat.name]), `: ${who}`]),
  ]);
}

async function joinSeat(match, seat) {
  showError("");
  const name = $("name").value.trim();
  try {
    const answer = await api.join(match.id, name ? { seat, name } : { seat });
    tokens.set(match.id, answer.token);
    location.href = answer.match.url ?? `/match/${match.id}`;
  } catch (error) {
    showError(error.message);
    refresh();
  }
}

function matchActions(match) {
  const url = match.url ?? `/match/${match.id}`;
  const title = titleOf(match);
  const actions = [];
  if (tokens.get(match.id) && match.status !== "over") {
    actions.push(html("a", { class: "btn btn-felt btn-small", href: url, "data-resume": match.id }, ["Resume"]));
  } else if (match.status === "open") {
    for (const seat of match.seats.filter((s) => s.kind === "open")) {
      actions.push(html("button", {
        class: "btn btn-primary btn-small", type: "button", "data-join": `${match.id}:${seat.seat}`,
        "aria-label": `Play ${seat.name} in ${title}`, onclick: () => joinSeat(match, seat.seat),
      }, [`Play ${seat.name}`]));
    }
  }
  const word = match.status === "over" ? "Replay" : "Watch";
  actions.push(html("a", {
    class: "btn btn-small", href: url, "data-watch": match.id, "aria-label": `${word} ${title}`,
  }, [word]));
  return actions;
}

function resultText(match) {
  if (match.status !== "over" || !match.outcome) return "";
  const { winner } = match.outcome;
  const result = winner === null || winner === undefined ? "Draw" : `${seatLabel(match.seats, winner)} won`;
  const score = boardFor(match.game)?.scores ? finalScore(match.outcome) : "";
  return score ? `${result} · ${score}` : result;
}

/** Where the match stands, in a few words: whose turn, who is awaited, or how it ended. */
function standing(match) {
  if (match.status === "over") return resultText(match) || "Finished";
  if (match.status === "open") {
    const free = match.seats.filter((s) => s.kind === "open").length;
    return `Waiting for ${free} player${free === 1 ? "" : "s"}`;
  }
  if (typeof match.to_move === "number") return `${seatLabel(match.seats, match.to_move)} to move`;
  return "Playing";
}

/** "just now", "3 min ago", "2 h ago", "4 days ago" from a server time. */
export function agoText(when, now) {
  const seconds = Math.max(0, now - when);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86400);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}

function serverNow() {
  return Date.now() / 1000 + clockOffset;
}

function lastMoveWords(match) {
  const when = match.updated ?? match.created;
  if (typeof when !== "number") return "";
  const what = match.status === "open" || match.version === 0 ? "created" : "last move";
  return `${what} ${agoText(when, serverNow())}`;
}

function matchCard(match) {
  const status = match.status === "over" ? "finished" : match.status;
  const watching = match.status === "running" && typeof match.watching === "number"
    ? html("span", { class: "watching", "data-watching": String(match.watching) },
      [match.watching === 1 ? "1 watching" : `${match.watching} watching`])
    : null;
  return html("article", { class: "match-card", "data-match": match.id, "aria-label": titleOf(match) }, [
    thumbnail(match.game),
    html("div", { class: "title" }, [
      html("h3", { class: "match-title" }, [titleOf(match)]),
      html("span", { class: `status-pill ${match.status}` }, [status]),
      match.clock ? html("span", { class: "small muted", "data-clock-rule": match.id }, [`clock ${ruleText(match.clock)}`]) : null,
    ]),
    html("div", { class: "seats" }, match.seats.map((seat) => seatChip(match, seat))),
    html("div", { class: "standing small" }, [
      html("span", { class: "to-move" }, [standing(match)]),
      html("span", { class: "ago muted", "data-ago": match.id }, [lastMoveWords(match)]),
      watching,
    ]),
    html("div", { class: "actions" }, matchActions(match)),
  ]);
}

// ---- keeping the list calm ----
// The list is redrawn every few seconds. A card is replaced only when its match changed, focus stays on
// the same button, and only real news (a new match, one starting or ending) goes to the live region,
// never the whole list again.

let shown = new Map(); // match id → the summary its card was drawn from (as JSON)
let listed = null; // match id → status, of the last list; null before the first
let current = []; // the matches drawn

/** The attribute that names a control across redraws (join, watch, resume), to put focus back. */
function focusKey(element) {
  for (const name of ["data-join", "data-watch", "data-resume"]) {
    if (element?.hasAttribute?.(name)) return `[${name}="${CSS.escape(element.getAttribute(name))}"]`;
  }
  return null;
}

function drawList(matches, view) {
  const box = $("matches");
  current = matches;
  if (!matches.length) {
    const empty = box.querySelector(".empty");
    if (!empty || empty.textContent !== VIEWS[view].empty) {
      box.replaceChildren(html("div", { class: "empty" }, [VIEWS[view].empty]));
    }
    shown = new Map();
    return;
  }
  const focused = box.contains(document.activeElement) ? focusKey(document.activeElement) : null;
  const old = new Map([...box.querySelectorAll(".match-card")].map((card) => [card.dataset.match, card]));
  const next = new Map();
  const cards = matches.map((match) => {
    // The time since the last move is left out: it is rewritten in place (tickAges), not redrawn.
    const drawn = JSON.stringify([match, Boolean(tokens.get(match.id))]);
    next.set(match.id, drawn);
    const card = old.get(match.id);
    return card && shown.get(match.id) === drawn ? card : matchCard(match);
  });
  // A changed card takes its old card's place and a gone one leaves, then new ones are slotted in:
  // a card that did not change is never taken out, so a focused button in it keeps its focus.
  box.querySelector(".empty")?.remove();
  const wanted = new Map(cards.map((card) => [card.dataset.match, card]));
  for (const [id, card] of old) {
    if (!wanted.has(id)) card.remove();
    else if (wanted.get(id) !== card) card.replaceWith(wanted.get(id));
  }
  cards.forEach((card, i) => {
    if (box.children[i] !== card) box.insertBefore(card, box.children[i] ?? null);
  });
  shown = next;
  if (focused && !box.contains(document.activeElement)) box.querySelector(focused)?.focus();
  tickAges();
}

/** The "3 min ago" of every card, rewritten only where the words changed. */
function tickAges() {
  for (const match of current) {
    const span = document.querySelector(`[data-ago="${CSS.escape(match.id)}"]`);
    const words = lastMoveWords(match);
    if (span && span.textContent !== words) span.textContent = words;
  }
}

function news(matches) {
  const now = new Map(matches.map((m) => [m.id, m.status]));
  if (listed === null) {
    listed = now;
    return "";
  }
  const said = [];
  for (const match of matches) {
    const before = listed.get(match.id);
    const free = match.seats.filter((s) => s.kind === "open").length;
    if (before === undefined) {
      said.push(`New match: ${titleOf(match)}${free ? `, ${free} free seat${free > 1 ? "s" : ""}` : ""}.`);
    } else if (before !== match.status && match.status === "running") said.push(`${titleOf(match)} started.`);
    else if (before !== match.status && match.status === "over") {
      said.push(`${titleOf(match)} finished${resultText(match) ? `: ${resultText(match)}` : ""}.`);
    }
  }
  listed = now;
  return said.join(" ");
}

function announce(text) {
  if (text) $("lobby-news").textContent = text;
}

let listFailed = false; // the error shown is the list's
let latest = 0; // the number of the last refresh started: only its answer is drawn

export async function refresh() {
  latest += 1;
  const mine = latest;
  const { view, game } = chosen();
  try {
    const { matches, next } = await fetchView(view, game);
    // A later refresh (another view, another page) was started meanwhile: this answer is old.
    if (mine !== latest) return;
    if (listFailed) showError(""); // the list's own error, now over (the form's stay)
    listFailed = false;
    more = next;
    drawList(matches, view);
    $("more").hidden = !more;
    announce(news(matches));
  } catch (error) {
    if (mine !== latest) return;
    listFailed = true;
    showError(error.message);
  }
}

/** Another view or game: a different list, not news; back to its first page. */
async function change() {
  remember();
  listed = null;
  pages = 1;
  await refresh();
  document.body.dataset.view = chosen().view;
}

/** The list is not a live region itself (each redraw would be read out again); the news line is. */
function setUpNews() {
  const box = $("matches");
  box.removeAttribute("aria-live");
  if ($("lobby-news")) return;
  box.after(html("p", { id: "lobby-news", class: "visually-hidden", role: "status" }));
}

function renderFilter() {
  const select = $("game-filter");
  select.replaceChildren(html("option", { value: "" }, ["All games"]),
    ...games.map((g) => html("option", { value: g.name }, [g.title])));
}

export async function setUpList(listed_, onError) {
  games = listed_;
  showError = onError;
  setUpNews();
  renderFilter();
  const { view, game } = chosen();
  const radio = document.querySelector(`input[name=view][value="${view}"]`);
  if (radio) radio.checked = true;
  $("game-filter").value = game;
  document.body.dataset.view = view;
  for (const input of document.querySelectorAll("input[name=view]")) input.addEventListener("change", change);
  $("game-filter").addEventListener("change", change);
  $("more").addEventListener("click", async () => {
    pages += 1;
    await refresh();
  });
  window.addEventListener("hashchange", async () => {
    const now = chosen();
    const checked = document.querySelector(`input[name=view][value="${now.view}"]`);
    if (checked) checked.checked = true;
    $("game-filter").value = now.game;
    listed = null;
    pages = 1;
    await refresh();
  });
  await refresh();
  setInterval(() => { refresh(); }, 4000);
  setInterval(tickAges, 15000);
}
