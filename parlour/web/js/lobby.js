// The lobby: create a match, list open and running ones, join a free seat or watch.

import { gameUi } from "./games.js";
import { api, names, tokens } from "./net.js";
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
  const ui = gameUi(game);
  return html("span", { class: `swatch swatch-${ui ? ui.swatch(seat, options) : "white"}` });
}

// ---- the form ----

function renderGameChoice() {
  const box = $("game-choice");
  box.replaceChildren(...games.map((game, i) => {
    const ui = gameUi(game.name);
    const input = html("input", { type: "radio", name: "game", value: game.name, checked: i === 0 });
    input.addEventListener("change", renderForm);
    const players = game.min_players === game.max_players ? `${game.min_players} players` : `${game.min_players}–${game.max_players} players`;
    return html("label", { class: "game-option", "data-game": game.name }, [
      input,
      ui ? ui.thumbnail() : null,
      html("span", {}, [game.title]),
      html("span", { class: "sub" }, [ui?.tagline ?? players]),
      html("span", { class: "sub" }, [players, " · ", html("a", { href: game.help ?? `/help/${game.name}` }, ["rules"])]),
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
  box.replaceChildren(...game.options.filter((o) => !(o.choices.length === 1)).map((option) => {
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
        value: option.default === null ? "" : String(option.default), placeholder: option.default === null ? "off" : "",
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

function thumbnail(game) {
  const ui = gameUi(game);
  if (!ui) return html("div", { class: "thumb" });
  const picture = ui.thumbnail();
  picture.classList.add("thumb");
  return picture;
}

function matchCard(match) {
  const ui = gameUi(match.game);
  const mine = Boolean(tokens.get(match.id));
  const status = match.status === "over" ? "finished" : match.status;
  const seats = match.seats.map((seat) => {
    let who = seat.player || "player";
    if (seat.kind === "bot") who = `${seat.bot ?? "bot"} bot`;
    if (seat.kind === "open") who = "free";
    return html("span", { class: "chip", title: seat.name }, [swatchFor(match.game, seat.seat, match.options), who]);
  });
  const actions = [];
  const url = match.url ?? `/match/${match.id}`;
  if (mine) actions.push(html("a", { class: "btn btn-felt btn-small", href: url }, ["Resume"]));
  else if (match.status === "open") {
    for (const seat of match.seats.filter((s) => s.kind === "open")) {
      actions.push(html("button", {
        class: "btn btn-primary btn-small", type: "button", "data-join": `${match.id}:${seat.seat}`,
        onclick: () => joinSeat(match, seat.seat),
      }, [`Play ${seat.name}`]));
    }
  }
  actions.push(html("a", { class: "btn btn-small", href: url, "data-watch": match.id }, ["Watch"]));
  let result = "";
  if (match.status === "over" && match.outcome) {
    result = match.outcome.winner === null ? "Draw" : `${match.seats[match.outcome.winner]?.name ?? "?"} won`;
  }
  return html("article", { class: "match-card", "data-match": match.id }, [
    thumbnail(match.game),
    html("div", { class: "title" }, [
      html("strong", {}, [match.title ?? match.game]),
      html("span", { class: `status-pill ${match.status}` }, [status]),
    ]),
    html("div", { class: "seats" }, seats),
    html("div", { class: "actions" }, [
      ...actions,
      result ? html("span", { class: "small muted" }, [result]) : null,
      match.status === "running" ? html("span", { class: "small muted" }, [`move ${match.version}`]) : null,
    ]),
  ]);
}

async function refresh() {
  try {
    const { matches } = await api.matches($("show-all").checked);
    const box = $("matches");
    if (!matches.length) {
      box.replaceChildren(html("div", { class: "empty" }, ["No matches yet. Create one and invite a friend!"]));
    } else box.replaceChildren(...matches.map(matchCard));
  } catch (error) {
    showError(error.message);
  }
}

async function main() {
  $("name").value = names.get();
  $("name").addEventListener("change", () => names.set($("name").value.trim()));
  $("create").addEventListener("submit", createMatch);
  $("players").addEventListener("change", renderSeats);
  $("show-all").addEventListener("change", refresh);
  try {
    ({ games } = await api.games());
  } catch (error) {
    showError(error.message);
    return;
  }
  const drawable = games.filter((g) => gameUi(g.name));
  games = drawable.length ? drawable : games;
  renderGameChoice();
  renderForm();
  await refresh();
  setInterval(refresh, 4000);
  document.body.dataset.ready = "true";
}

main();
