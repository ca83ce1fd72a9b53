// The lobby: "play the computer" at the top, the form for a new match (lobby-form.js) and the
// list of matches in views (lobby-list.js).

import { api } from "./net.js";
import { setUpForm } from "./lobby-form.js";
import { setUpList } from "./lobby-list.js";

function showError(text) {
  const box = document.getElementById("lobby-error");
  box.textContent = text;
  box.hidden = !text;
}

async function main() {
  let games;
  try {
    ({ games } = await api.games());
  } catch (error) {
    showError(error.message);
    return;
  }
  // Every game can be drawn (the generic board stands in for a game without its own); an unlisted
  // game (GameInfo.listed false, such as the example) is played by name only, not offered here.
  games = games.filter((g) => g.listed !== false);
  setUpForm(games, showError);
  await setUpList(games, showError);
  document.body.dataset.ready = "true";
}

main();
