// The small pictures the lobby's form and its list of matches share: a game's thumbnail beside its
// name, a seat's colour.

import { boardFor } from "./boards/index.js";
import { html } from "./svg.js";

/** A picture beside the words that name it: hidden from screen readers (the words of a Mille card
 * thumbnail would otherwise be read into the game's name). */
export function decoration(picture) {
  picture.setAttribute("aria-hidden", "true");
  return picture;
}

/** The colour of `seat` in a match of `game` with these options, as a swatch. */
export function swatchFor(game, seat, options) {
  const ui = boardFor(game);
  return html("span", { class: `swatch swatch-${ui ? ui.swatch(seat, options) : "white"}` });
}
