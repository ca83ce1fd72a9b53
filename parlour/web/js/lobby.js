// The lobby: create a match, list open and running ones, join a free seat or watch.

import { boardFor } from "./boards/index.js";
import { ruleText } from "./clocks.js";
import { api, names, tokens } from "./net.js";
import { finalScore, seatLabel } from "./people.js";
import { html } from "./svg.js";

const $ = (id) => document.getElementById(id);
let games = [];

function showError(text) {
  const box = $("lobby-error");
  box.textContent = text;
  box.hidden = !text;
}

function currentGame() {
  const picked = document.querySelector("input[name=game]:checked")?.value;
  return games.find((g) => g.name === picked) ?? games[0];
}

function swatchFor(game, seat, options) {
  const ui = boardFor(game);
  return html("span", { class: `swatch swatch-${ui ? ui.swatch(seat, options) : "white"}` });
}

// ---- the form ----

function renderGameChoice() {
  const box = $("game-choice");
  box.replaceChildren(...games.map((game, i) => {
    const ui = boardFor(game.name);
    const input = html("input", { type: "radio", name: "game", value: game.name, checked: i === 0 });
    input.addEventListener("change", renderForm);
    const players = game.min_players === game.max_players ? `${game.min_players} players` : `${game.min_players}–${game.max_players} players`;
    return html("label", { class: "game-option", "data-game": game.name }, [
      input,
      ui ? decoration(ui.thumbnail()) : null,
      html("span", {}, [game.title]),
      html("span", { class: "sub" }, [ui?.tagline ?? players]),
      html("span", { class: "sub" }, [players, " · ", html("a", { href: game.help ?? `/help/${game.name}`, "aria-label": `rules of ${game.title}` }, ["rules"])]),
    ]);
  }));
}

function renderForm() {
  const game = currentGame();
  if (!game) return;
  const players = $("players");
  const previous = Number(players.value) || game.default_players;
  players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n += 1) players.append(html("option", { value: String(n) }, [String(n)]));
  players.value = String(Math.min(Math.max(previous, game.min_players), game.max_players));
  if (!players.value) players.value = String(game.default_players);
  $("players-row").hidden = game.min_players === game.max_players;
  renderSeats();
  renderOptions(game);
}

function renderSeats() {
  const game = currentGame();
  const count = Number($("players").value) || game.default_players;
  const rows = [];
  for (let seat = 0; seat < count; seat += 1) {
    const select = html("select", { "data-seat": String(seat), "aria-label": `${game.seat_names[seat]} is played by` }, [
      html("option", { value: "you" }, ["You"]),
      html("option", { value: "open" }, ["A friend (open seat)"]),
      ...game.bots.map((bot) => html("option", { value: `bot:${bot.kind}`, title: bot.summary }, [`Computer — ${bot.kind}`])),
    ]);
    const fallbackBot = game.bots.some((b) => b.kind === game.default_bot) ? `bot:${game.default_bot}` : "open";
    select.value = seat === 0 ? "you" : (game.bots.length ? fallbackBot : "open");
    select.addEventListener("change", () => {
      // Only one seat can be yours.
      if (select.value !== "you") return;
      for (const other of document.querySelectorAll("#seat-rows select")) {
        if (other !== select && other.value === "you") other.value = "open";
      }
    });
    rows.push(html("div", { class: "seat-row" }, [
      swatchFor(game.name, seat),
      html("span", {}, [game.seat_names[seat]]),
      select,
    ]));
  }
  $("seat-rows").replaceChildren(...rows);
}

function renderOptions(game) {
  const box = $("options");
  // A server match may take other defaults for its player count (Biloba's quiet limit with 3–4
  // players, so that bots among themselves end): the form starts from those.
  const count = Number($("players").value) || game.default_players;
  const served = game.served_options?.[String(count)] ?? {};
  box.replaceChildren(...game.options.filter((o) => !(o.choices.length === 1)).map((rule) => {
    const option = rule.name in served ? { ...rule, default: served[rule.name] } : rule;
    const id = `opt-${option.name}`;
    let input;
    if (option.choices.length) {
      input = html("select", { id, "data-option": option.name },
        option.choices.map((c) => html("option", { value: c, selected: c === option.default }, [c])));
    } else if (typeof option.default === "boolean") {
      input = html("input", { id, type: "checkbox", "data-option": option.name, checked: option.default });
    } else if (typeof option.default === "string") {
      input = html("input", { id, type: "text", "data-option": option.name, value: option.default });
    } else {
      input = html("input", {
        id, type: "number", "data-option": option.name, min: option.minimum ?? undefined, step: "1",
        value: option.default === null ? "" : String(option.default), placeholder: rule.default === null ? "off" : "",
      });
    }
    return html("div", { class: "form-row" }, [
      html("label", { for: id }, [option.name.replaceAll("_", " ")]),
      input,
      html("span", { class: "help" }, [option.help]),
    ]);
  }));
  $("options-box").hidden = !box.children.length;
}

function readOptions(game) {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const option = game.options.find((o) => o.name === input.dataset.option);
    if (!option) continue;
    if (option.choices.length) options[option.name] = input.value;
    else if (input.type === "checkbox") options[option.name] = input.checked;
    else if (input.type === "text") options[option.name] = input.value.trim() || option.default;
    else if (input.value.trim() === "") options[option.name] = option.default === null ? null : option.default;
    else options[option.name] = Number.parseInt(input.value, 10);
  }
  return options;
}

/** The clock chosen (`{base, increment}`, `{per_move}`), null for none; throws a sentence if it is wrong. */
function readClock() {
  const choice = $("clock").value;
  const whole = (id, low, high, what) => {
    const value = Number($(id).value);
    if (!Number.isInteger(value) || value < low || value > high) throw new Error(`${what}: a whole number from ${low} to ${high}.`);
    return value;
  };
  if (!choice) return null;
  if (choice === "custom") {
    return { base: 60 * whole("clock-base", 1, 600, "Minutes each"), increment: whole("clock-increment", 0, 600, "Seconds added a move") };
  }
  if (choice === "custom_move") return { per_move: whole("clock-per-move", 1, 86400, "Seconds a move") };
  if (choice.startsWith("per_move:")) return { per_move: Number(choice.slice("per_move:".length)) };
  const [minutes, increment] = choice.split("+").map(Number);
  return { base: 60 * minutes, increment };
}

function showClockFields() {
  $("clock-custom").hidden = $("clock").value !== "custom";
  $("clock-custom-move").hidden = $("clock").value !== "custom_move";
}

async function createMatch(event) {
  event.preventDefault();
  showError("");
  const game = currentGame();
  const seats = [...document.querySelectorAll("#seat-rows select")].map((s) => s.value);
  const you = seats.indexOf("you");
  const body = {
    game: game.name,
    players: Number($("players").value) || game.default_players,
    options: readOptions(game),
    seats: seats.map((s) => (s === "you" ? "open" : s)),
    bot_seconds: Number($("bot-seconds").value) || 1,
  };
  try {
    const clock = readClock();
    if (clock) body.clock = clock;
  } catch (error) {
    showError(error.message);
    return;
  }
  const name = $("name").value.trim();
  if (you >= 0) {
    body.join = you;
    if (name) body.name = name;
  }
  const button = $("create-button");
  button.disabled = true;
  try {
    const answer = await api.create(body);
    if (answer.token) tokens.set(answer.match.id, answer.token);
    location.href = answer.match.url ?? `/match/${answer.match.id}`;
  } catch (error) {
    showError(error.message);
    button.disabled = false;
  }
}

// ---- the list ----

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

/** A picture beside the words that name it: hidden from screen readers (the words of a Mille card
 * thumbnail would otherwise be read into the game's name). */
function decoration(picture) {
  picture.setAttribute("aria-hidden", "true");
  return picture;
}

function thumbnail(game) {
  const ui = boardFor(game);
  if (!ui) return html("div", { class: "thumb", "aria-hidden": "true" });
  const picture = decoration(ui.thumbnail());
  picture.classList.add("thumb");
  return picture;
}

function titleOf(match) {
  return match.title ?? games.find((g) => g.name === match.game)?.title ?? match.game;
}

function seatChip(match, seat) {
  let who = seat.player || "player";
  if (seat.kind === "bot") who = `${seat.bot ?? "bot"} bot`;
  if (seat.kind === "open") who = "free";
  // The seat's name is written out: its colour alone would not tell the seats apart for everyone.
  return html("span", { class: "chip" }, [
    swatchFor(match.game, seat.seat, match.options),
    html("span", {}, [html("span", { class: "seat-name" }, [seat.name]), `: ${who}`]),
  ]);
}

function matchActions(match) {
  const url = match.url ?? `/match/${match.id}`;
  const title = titleOf(match);
  const actions = [];
  if (tokens.get(match.id)) {
    actions.push(html("a", { class: "btn btn-felt btn-small", href: url, "data-resume": match.id }, ["Resume"]));
  } else if (match.status === "open") {
    for (const seat of match.seats.filter((s) => s.kind === "open")) {
      actions.push(html("button", {
        class: "btn btn-primary btn-small", type: "button", "data-join": `${match.id}:${seat.seat}`,
        "aria-label": `Play ${seat.name} in ${title}`, onclick: () => joinSeat(match, seat.seat),
      }, [`Play ${seat.name}`]));
    }
  }
  actions.push(html("a", {
    class: "btn btn-small", href: url, "data-watch": match.id, "aria-label": `Watch ${title}`,
  }, ["Watch"]));
  return actions;
}

function resultText(match) {
  if (match.status !== "over" || !match.outcome) return "";
  const { winner } = match.outcome;
  const result = winner === null || winner === undefined ? "Draw" : `${seatLabel(match.seats, winner)} won`;
  const score = boardFor(match.game).scores ? finalScore(match.outcome) : "";
  return score ? `${result} · ${score}` : result;
}

function matchCard(match) {
  const status = match.status === "over" ? "finished" : match.status;
  const result = resultText(match);
  return html("article", { class: "match-card", "data-match": match.id, "aria-label": titleOf(match) }, [
    thumbnail(match.game),
    html("div", { class: "title" }, [
      html("h3", { class: "match-title" }, [titleOf(match)]),
      html("span", { class: `status-pill ${match.status}` }, [status]),
      match.clock ? html("span", { class: "small muted", "data-clock-rule": match.id }, [`clock ${ruleText(match.clock)}`]) : null,
    ]),
    html("div", { class: "seats" }, match.seats.map((seat) => seatChip(match, seat))),
    html("div", { class: "actions" }, [
      ...matchActions(match),
      result ? html("span", { class: "small muted" }, [result]) : null,
      match.status === "running" ? html("span", { class: "small muted" }, [`move ${match.version}`]) : null,
    ]),
  ]);
}

// ---- keeping the list calm ----
// The list is redrawn every few seconds. A card is replaced only when its match changed, focus stays on
// the same button, and only real news (a new match, one starting or ending) goes to the live region,
// never the whole list again.

let shown = new Map(); // match id → the summary its card was drawn from (as JSON)
let listed = null; // match id → status, of the last list; null before the first

/** The attribute that names a control across redraws (join, watch, resume), to put focus back. */
function focusKey(element) {
  for (const name of ["data-join", "data-watch", "data-resume"]) {
    if (element?.hasAttribute?.(name)) return `[${name}="${CSS.escape(element.getAttribute(name))}"]`;
  }
  return null;
}

function drawList(matches) {
  const box = $("matches");
  if (!matches.length) {
    if (!box.querySelector(".empty")) {
      box.replaceChildren(html("div", { class: "empty" }, ["No matches yet. Create one and invite a friend!"]));
    }
    shown = new Map();
    return;
  }
  const focused = box.contains(document.activeElement) ? focusKey(document.activeElement) : null;
  const old = new Map([...box.querySelectorAll(".match-card")].map((card) => [card.dataset.match, card]));
  const next = new Map();
  const cards = matches.map((match) => {
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

async function refresh() {
  try {
    const { matches } = await api.matches($("show-all").checked);
    drawList(matches);
    announce(news(matches));
  } catch (error) {
    showError(error.message);
  }
}

/** The list is not a live region itself (each redraw would be read out again); the news line is. */
function setUpNews() {
  const box = $("matches");
  box.removeAttribute("aria-live");
  if ($("lobby-news")) return;
  box.after(html("p", { id: "lobby-news", class: "visually-hidden", role: "status" }));
}

async function main() {
  $("name").value = names.get();
  $("name").addEventListener("change", () => names.set($("name").value.trim()));
  $("create").addEventListener("submit", createMatch);
  $("clock").addEventListener("change", showClockFields);
  $("players").addEventListener("change", () => { renderSeats(); renderOptions(currentGame()); });
  $("show-all").addEventListener("change", () => {
    listed = null; // a different list, not news
    refresh();
  });
  setUpNews();
  try {
    ({ games } = await api.games());
  } catch (error) {
    showError(error.message);
    return;
  }
  // Every game can be drawn (the generic board stands in for a game without its own); an unlisted
  // game (GameInfo.listed false, such as the example) is played by name only, not offered here.
  games = games.filter((g) => g.listed !== false);
  renderGameChoice();
  renderForm();
  await refresh();
  setInterval(refresh, 4000);
  document.body.dataset.ready = "true";
}

main();
