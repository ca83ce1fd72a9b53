// The lobby's view of the games' looks (seat colours, thumbnails, taglines): each game's board
// (boards/index.js), or the generic board for a game without one, so every game can be listed.

import { boardFor } from "./boards/index.js";

/** The board of game `name` (never null: a game without a board module gets the generic one). */
export function gameUi(name) {
  return boardFor(name);
}
