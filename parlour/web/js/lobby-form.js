// The lobby's "new match" form: the game, who plays each seat, the clock and a proper control for
// every rules option (a select for choices, a number, a checkbox, an explicit "off", colour toggles
// for the seats a game lets one choose), each with its help and a link to the rules page section.

import { boardFor } from "./boards/index.js";
import { boards } from "./editor-file.js";
import { decoration, swatchFor } from "./lobby-pictures.js";
import { api, names, tokens } from "./net.js";
import { html } from "./svg.js";

const $ = (id) => document.getElementById(id);
let games = [];
let showError = () => {};

function currentGame() {
  const picked = document.querySelector("input[name=game]:checked")?.value;
  return games.find((g) => g.name === picked) ?? games[0];
}

// ---- the game and its seats ----

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

function playerCount(game) {
  return Number($("players").value) || game.default_players;
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
  renderOptions(game);
  renderSeats();
}

/** The seats chosen with the colour toggles (1-based, as the option takes them), or null without them. */
function chosenSeats() {
  const toggles = [...document.querySelectorAll("[data-seat-toggle]")];
  if (!toggles.length) return null;
  return toggles.filter((t) => t.checked).map((t) => Number(t.dataset.seatToggle));
}

/** The name of a seat of the new match: its colour's when the seats option picks the colours. */
function seatName(game, seat) {
  const seats = chosenSeats();
  const colour = seats && seats.length >= playerCount(game) ? seats[seat] - 1 : seat;
  return game.seat_names[colour] ?? `Seat ${seat + 1}`;
}

// ---- levels: computers placed by the ladder (`parlour ladder GAME --levels`) ----

/** The levels of the game at a player count, easiest first (none where no ladder placed them). */
function levelsOf(game, count) {
  return game.levels?.[String(count)] ?? [];
}

/** The level a computer seat starts at: club, the middle one, where the game has levels. */
function defaultLevel(levels) {
  return levels.find((level) => level.name === "club") ?? levels[Math.floor(levels.length / 2)];
}

function ratingText(points) {
  return points === 0 ? "0" : `${points > 0 ? "+" : "−"}${Math.abs(points)}`;
}

function levelTitle(level) {
  const budget = level.seconds === null ? "" : ` at ${level.seconds} s a move`;
  return `The ${level.kind} bot${budget}; rated ${ratingText(level.low)} to ${ratingText(level.high)} `
    + `(95 %) over ${level.games} games, random = 0`;
}

function seatOptions(game, levels) {
  const kinds = game.bots.map((bot) => html("option", { value: `bot:${bot.kind}`, title: bot.summary }, [`Computer — ${bot.kind}`]));
  const people = [html("option", { value: "you" }, ["You"]), html("option", { value: "open" }, ["A friend (open seat)"])];
  if (!levels.length) return [...people, ...kinds];
  return [...people,
    html("optgroup", { label: "Computer by level" }, levels.map((level) => html("option",
      { value: `level:${level.name}`, title: levelTitle(level) }, [`Computer — ${level.name} (rated ${ratingText(level.rating)})`]))),
    html("optgroup", { label: "Computer by kind" }, kinds)];
}

/**
 * The computers' thinking time the seats' levels ask for: `{seconds}` (null when no level sets one:
 * the "Bot thinking time" menu's), or `{problem}` in words when two levels want different times, as
 * the server keeps one time for every computer of a match.
 */
function levelTime(game, choices) {
  const levels = levelsOf(game, playerCount(game));
  const chosen = choices.filter((c) => c.startsWith("level:")).map((c) => levels.find((l) => `level:${l.name}` === c));
  const timed = [...new Map(chosen.filter((l) => l && l.seconds !== null).map((l) => [l.name, l])).values()];
  const times = [...new Set(timed.map((level) => level.seconds))];
  if (times.length > 1) {
    const listed = timed.map((level) => `${level.name} thinks ${level.seconds} s a move`).join(", ");
    return { problem: `The computers of a match all think for the same time, and these levels do not (${listed}). Choose levels with the same time, or one level.` };
  }
  return { seconds: times.length ? times[0] : null, level: timed[0] ?? null };
}

function seatChoices() {
  return [...document.querySelectorAll("#seat-rows select")].map((s) => s.value);
}

/** Says what the levels chosen mean for the thinking time, in place of the menu when a level sets it. */
function showLevelTime() {
  const game = currentGame();
  const note = $("level-note");
  const time = levelTime(game, seatChoices());
  // The menu's time would not be the one used: it goes, and the note says which is.
  $("bot-seconds").closest("label").hidden = Boolean(time.problem) || time.seconds !== null;
  note.classList.toggle("short", Boolean(time.problem));
  if (time.problem) note.textContent = time.problem;
  else if (time.seconds !== null) note.textContent = `The computers think ${time.seconds} s a move: the ${time.level.name} level's time.`;
  note.hidden = !time.problem && time.seconds === null;
}

function renderSeats() {
  const game = currentGame();
  const count = playerCount(game);
  const seats = chosenSeats();
  const levels = levelsOf(game, count);
  const rows = [];
  for (let seat = 0; seat < count; seat += 1) {
    const name = seatName(game, seat);
    const select = html("select", { "data-seat": String(seat), "aria-label": `${name} is played by` }, seatOptions(game, levels));
    const fallbackBot = levels.length ? `level:${defaultLevel(levels).name}`
      : (game.bots.some((b) => b.kind === game.default_bot) ? `bot:${game.default_bot}` : "open");
    select.value = seat === 0 ? "you" : (game.bots.length ? fallbackBot : "open");
    select.addEventListener("change", () => {
      showLevelTime();
      // Only one seat can be yours.
      if (select.value !== "you") return;
      for (const other of document.querySelectorAll("#seat-rows select")) {
        if (other !== select && other.value === "you") other.value = "open";
      }
    });
    rows.push(html("div", { class: "seat-row" }, [
      swatchFor(game.name, seat, seats ? { seats } : undefined),
      html("span", {}, [name]),
      select,
    ]));
  }
  $("seat-rows").replaceChildren(...rows);
  showLevelTime();
}

// ---- the rules options ----

/** Where a rules page explains each option: the section whose words name it ("move limit"), the
 * page's "options" section first. The pages are the one place the rules are written for people, so
 * the lobby reads them rather than keep a second list of section names. */
const sectionsOf = new Map(); // game name → Promise of [section id, its text in lower case][]

function rulesSections(game) {
  if (!game.help) return Promise.resolve([]);
  if (!sectionsOf.has(game.name)) {
    sectionsOf.set(game.name, fetch(game.help).then((r) => (r.ok ? r.text() : "")).then((text) => {
      const page = new DOMParser().parseFromString(text, "text/html");
      const sections = [...page.querySelectorAll("section[id]")].map((s) => [s.id, s.textContent.toLowerCase()]);
      sections.sort(([a], [b]) => Number(b === "options") - Number(a === "options"));
      return sections;
    }).catch(() => []));
  }
  return sectionsOf.get(game.name);
}

async function linkHelp(game) {
  const sections = await rulesSections(game);
  for (const link of document.querySelectorAll("#options a[data-rules-for]")) {
    const words = link.dataset.rulesFor.replaceAll("_", " ");
    const found = sections.find(([, text]) => text.includes(words));
    link.href = found ? `${game.help}#${found[0]}` : game.help;
  }
}

function labelOf(option) {
  const words = option.name.replaceAll("_", " ");
  return words[0].toUpperCase() + words.slice(1);
}

/** The number last written in a nullable option's field, given back when "off" is unticked. */
const remembered = new Map();

function nullableNumber(game, option, id) {
  const served = Object.values(game.served_options ?? {}).find((o) => option.name in o)?.[option.name];
  remembered.set(option.name, remembered.get(option.name) ?? served ?? option.minimum ?? 1);
  const input = html("input", {
    id, type: "number", "data-option": option.name, min: option.minimum ?? undefined, step: "1",
    value: option.default === null ? "" : String(option.default), placeholder: "off", class: "opt-number",
  });
  const off = html("input", { id: `${id}-off`, type: "checkbox", checked: option.default === null });
  // The field and the box say the same thing: an empty field is off, a number is on.
  input.addEventListener("input", () => {
    off.checked = input.value.trim() === "";
    if (!off.checked) remembered.set(option.name, input.value);
  });
  off.addEventListener("change", () => {
    input.value = off.checked ? "" : String(remembered.get(option.name));
  });
  return [input, html("label", { class: "opt-off", for: `${id}-off` }, [off, "Off"])];
}

function seatToggles(game, option, id) {
  const count = playerCount(game);
  const toggles = game.seat_names.map((name, i) => {
    const box = html("input", { type: "checkbox", "data-seat-toggle": String(i + 1), checked: i < count });
    box.addEventListener("change", () => {
      // The player count follows the colours ticked; too few is allowed on the way to another choice
      // (Red and Orange to Red and Yellow), and said at once.
      const seats = chosenSeats();
      const enough = seats.length >= game.min_players;
      $("opt-seats-short").hidden = enough;
      if (!enough) return;
      $("players").value = String(seats.length);
      renderSeats();
    });
    return html("label", { class: "seat-toggle" }, [
      box, swatchFor(game.name, 0, { seats: [i + 1] }), name,
    ]);
  });
  return [html("fieldset", { id, class: "seat-toggles", "data-option": option.name }, [
    html("legend", { class: "visually-hidden" }, [`${labelOf(option)}: the colours that play`]),
    ...toggles,
  ]), html("span", { id: "opt-seats-short", class: "help short", role: "status", hidden: true },
    [`Tick at least ${game.min_players} colours.`])];
}

// ---- a game's boards (a library people draw and share: Conflict's maps) ----

const boardLists = new Map(); // game name → Promise of its boards' entries (asked once a page)
const boardDrawings = new Map(); // "game/name" → Promise of the board's drawing
const boardChosen = new Map(); // game name → the board last chosen (kept when the form is drawn again)
/** Every board of the game's library, shipped first then saved, newest first (asked once a page). */
function boardList(game) {
  if (!boardLists.has(game.name)) {
    const listing = boards.list(game.name);
    listing.catch(() => boardLists.delete(game.name)); // asked again next time the form is drawn
    boardLists.set(game.name, listing);
  }
  return boardLists.get(game.name);
}

function boardDrawing(game, name) {
  const key = `${game.name}/${name}`;
  if (!boardDrawings.has(key)) {
    const drawing = boards.open(game.name, name).then((a) => a.board);
    drawing.catch(() => boardDrawings.delete(key));
    boardDrawings.set(key, drawing);
  }
  return boardDrawings.get(key);
}

/** "ring (26×26, recommended)", "bay (16×12) by Ann": a board's entry in the menu. */
function boardLabel(entry) {
  const notes = [`${entry.cols}×${entry.rows}`, entry.recommended ? "recommended" : null].filter(Boolean).join(", ");
  return `${entry.name} (${notes})${entry.author ? ` by ${entry.author}` : ""}`;
}

/**
 * The board option of a game with a library (`game.boards` in GET /api/games): a menu of the
 * shipped and saved boards, the recommended one chosen first, a small drawing of the board chosen
 * and a link to the editor. Without the library's answer: the option's default alone, drawn from
 * the game's start, as before the library.
 */
function boardPicker(game, option, id) {
  const { noun, recommended } = game.boards;
  const first = boardChosen.get(game.name) ?? recommended ?? option.default;
  const select = html("select", { id, "data-option": option.name }, [html("option", { value: first }, [first])]);
  const ui = boardFor(game.name);
  const caption = (words) => html("figcaption", { class: "small muted" }, [words]);
  const figure = html("figure", { class: "map-preview", id: `${id}-preview`, "data-preview": "game" },
    [decoration(ui.thumbnail()), caption(`The picture of ${game.title}`)]);
  const show = (name, picture) => {
    if (!picture || select.value !== name) return; // another board was chosen meanwhile
    figure.replaceChildren(decoration(picture), caption(`The ${noun}: ${name}`));
    figure.dataset.preview = "map";
    figure.dataset.board = name;
  };
  const preview = (name) => {
    if (!ui.mapPicture) return;
    boardDrawing(game, name).then((board) => show(name, ui.mapPicture({ content: { board } }, `The ${noun} ${name}`)))
      .catch(() => {}); // the picture before stays
  };
  select.addEventListener("change", () => {
    boardChosen.set(game.name, select.value);
    preview(select.value);
  });
  boardList(game).then((entries) => {
    const group = (label, list) => (list.length ? html("optgroup", { label }, list.map((entry) =>
      html("option", { value: entry.name, "data-shipped": String(entry.shipped) }, [boardLabel(entry)]))) : null);
    const plural = `${noun}s`;
    select.replaceChildren(...[group(`Shipped ${plural}`, entries.filter((e) => e.shipped)),
      group(`Saved ${plural}`, entries.filter((e) => !e.shipped))].filter(Boolean));
    const wanted = [first, entries.find((e) => e.recommended)?.name, entries[0]?.name];
    select.value = wanted.find((name) => entries.some((e) => e.name === name)) ?? "";
    preview(select.value);
  }).catch(() => {
    // No library (an older server): the option's default, drawn from the game's start.
    select.replaceChildren(html("option", { value: option.default }, [option.default]));
    if (!ui.mapPicture) return;
    api.start(game.name).then(({ view }) => show(option.default, ui.mapPicture(view, `The ${noun} ${option.default}`))).catch(() => {});
  });
  const editor = html("a", { href: `/games/${encodeURIComponent(game.name)}/editor`, class: "small", id: `${id}-editor` },
    [`Draw your own ${noun}`]);
  return [select, figure, editor];
}

function controlFor(game, option, id) {
  if (option.name === "seats" && option.default === null && !option.choices.length) return seatToggles(game, option, id);
  if (game.boards?.option === option.name) return boardPicker(game, option, id);
  if (option.choices.length) {
    return [html("select", { id, "data-option": option.name },
      option.choices.map((c) => html("option", { value: c, selected: c === option.default }, [String(c)])))];
  }
  if (typeof option.default === "boolean") {
    return [html("input", { id, type: "checkbox", "data-option": option.name, checked: option.default })];
  }
  if (option.default === null) return nullableNumber(game, option, id);
  if (typeof option.default === "string") {
    return [html("input", { id, type: "text", "data-option": option.name, value: option.default })];
  }
  return [html("input", {
    id, type: "number", "data-option": option.name, min: option.minimum ?? undefined, step: "1",
    value: String(option.default), class: "opt-number",
  })];
}

function renderOptions(game) {
  const box = $("options");
  // A server match may take other defaults for its player count (Biloba's quiet limit with 3–4
  // players, so that bots among themselves end): the form starts from those.
  const served = game.served_options?.[String(playerCount(game))] ?? {};
  box.replaceChildren(...game.options.filter((o) => o.choices.length !== 1).map((rule) => {
    const option = rule.name in served ? { ...rule, default: served[rule.name] } : rule;
    const id = `opt-${option.name}`;
    const help = html("span", { class: "help", id: `${id}-help` }, [
      option.help, " ",
      game.help ? html("a", { href: game.help, "data-rules-for": option.name, "aria-label": `${labelOf(option)} in the rules` }, ["rules"]) : null,
    ]);
    const controls = controlFor(game, option, id);
    controls[0].setAttribute("aria-describedby", help.id);
    const isGroup = controls[0].tagName === "FIELDSET";
    return html("div", { class: `form-row option-row${["seats", "board"].includes(option.name) ? " wide" : ""}`, "data-option-row": option.name }, [
      isGroup ? html("span", { class: "option-label" }, [labelOf(option)]) : html("label", { for: id }, [labelOf(option)]),
      html("div", { class: "option-control" }, controls),
      help,
    ]);
  }));
  $("options-box").hidden = !box.children.length;
  linkHelp(game);
}

function readOptions(game) {
  const options = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const option = game.options.find((o) => o.name === input.dataset.option);
    if (!option) continue;
    if (input.tagName === "FIELDSET") {
      const seats = chosenSeats();
      if (seats.length < game.min_players) throw new Error(`${labelOf(option)}: tick at least ${game.min_players} colours.`);
      // The first colours in order are the rules' default: sent as such (null), any other choice as the list.
      options[option.name] = seats.every((s, i) => s === i + 1) ? null : seats;
    } else if (option.choices.length || input.tagName === "SELECT") options[option.name] = input.value;
    else if (input.type === "checkbox") options[option.name] = input.checked;
    else if (input.type === "text") options[option.name] = input.value.trim() || option.default;
    else if (input.value.trim() === "") options[option.name] = option.default === null ? null : option.default;
    else {
      const value = Number(input.value);
      if (!Number.isInteger(value) || (option.minimum !== null && value < option.minimum)) {
        throw new Error(`${labelOf(option)}: a whole number${option.minimum !== null ? ` from ${option.minimum}` : ""}.`);
      }
      options[option.name] = value;
    }
  }
  return options;
}

// ---- the clock ----

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

// ---- creating ----

/** Sends the match and goes to its page; `button` is kept disabled meanwhile (no second match). */
async function send(body, button) {
  const name = $("name").value.trim();
  if (body.join !== undefined && name) body.name = name;
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

async function createMatch(event) {
  event.preventDefault();
  showError("");
  const game = currentGame();
  const seats = seatChoices();
  const you = seats.indexOf("you");
  const time = levelTime(game, seats);
  if (time.problem) {
    showError(time.problem);
    return;
  }
  const levels = levelsOf(game, playerCount(game));
  // A level is a bot kind at a time: the server is sent the kind, and the level's time for every computer.
  const seatSent = (s) => {
    if (s === "you") return "open";
    if (!s.startsWith("level:")) return s;
    return `bot:${levels.find((level) => `level:${level.name}` === s).kind}`;
  };
  const body = {
    game: game.name,
    players: playerCount(game),
    seats: seats.map(seatSent),
    bot_seconds: time.seconds ?? (Number($("bot-seconds").value) || 1),
  };
  try {
    body.options = readOptions(game);
    const clock = readClock();
    if (clock) body.clock = clock;
  } catch (error) {
    showError(error.message);
    return;
  }
  if (you >= 0) body.join = you;
  await send(body, $("create-button"));
}

/** The computer "Play the computer" sets against you: the club level where the game has levels at
 * its usual player count, else the lobby's default bot (its strongest) at 1 s a move. */
function quickOpponent(game) {
  const levels = levelsOf(game, game.default_players);
  if (!levels.length) return { seat: `bot:${game.default_bot}`, seconds: 1, level: null };
  const level = defaultLevel(levels);
  return { seat: `bot:${level.kind}`, seconds: level.seconds ?? 1, level };
}

/** "Play the computer": you in the first seat against `quickOpponent`, the game's usual player
 * count and options, no clock; on the recommended board of a game with a library of boards (the
 * lobby's default, as in the form). */
function quickStart(game, button) {
  showError("");
  const { seat, seconds } = quickOpponent(game);
  const seats = ["open", ...Array.from({ length: game.default_players - 1 }, () => seat)];
  const body = { game: game.name, players: game.default_players, seats, join: 0, bot_seconds: seconds };
  if (game.boards?.recommended) body.options = { [game.boards.option]: game.boards.recommended };
  send(body, button);
}

function renderQuickStart() {
  const box = $("quick-start");
  box.replaceChildren(...games.filter((g) => g.default_bot).map((game) => {
    const ui = boardFor(game.name);
    // Its name, read out, is "Play Biloba against the computer"; the eye reads the game's name under
    // the heading "Play the computer".
    const button = html("button", { type: "button", class: "btn quick-button", "data-quick": game.name }, [
      ui ? decoration(ui.thumbnail()) : null,
      html("span", {}, [
        html("span", { class: "visually-hidden" }, ["Play "]), game.title,
        html("span", { class: "visually-hidden" }, [" against the computer"]),
      ]),
    ]);
    const { level } = quickOpponent(game);
    if (level) button.title = `Against the ${level.name} level (rated ${ratingText(level.rating)})`;
    button.addEventListener("click", () => quickStart(game, button));
    return button;
  }));
}

export function setUpForm(listed, onError) {
  games = listed;
  showError = onError;
  $("name").value = names.get();
  $("name").addEventListener("change", () => names.set($("name").value.trim()));
  $("create").addEventListener("submit", createMatch);
  $("clock").addEventListener("change", showClockFields);
  $("players").addEventListener("change", () => { renderOptions(currentGame()); renderSeats(); });
  renderQuickStart();
  renderGameChoice();
  renderForm();
}
