// The board interface: everything the match page and the lobby know about a game's looks and
// clicks goes through one object per game. match.js knows no game: it asks `boardFor(name)` and
// calls the methods below. A game without a module of its own gets the generic board, so a new
// game is playable in the browser the day it is registered on the server.
//
// A board is an object with:
//   name                      the game's registry name ("loa"), or "generic"
//   tagline                   one line for the lobby (optional)
//   thumbnail()               a small picture for the lobby (an element)
//   mapPicture(view, title)   a small drawing of the map of a view, for the lobby's map picker (optional)
//   swatch(seat, options)     the colour of a seat: a `swatch-<colour>` CSS class suffix
//   mark(seat, options)       a letter telling the seat apart without its colour (optional)
//   progress(view)            a few words on how far the game is ("ply 12 of 60")
//   counts(view)              {seat: pieces left} and `countNoun` ("pieces") (optional)
//   hint(play)                the banner's line for the player to move (optional)
//   draw(play)                the board (or table) as an element, clicks wired to play.act
//   side(play)                an extra card beside the board, or null (optional)
//   remember(memory, before, after, event)  notes what an action changed (capture marks) in
//                             `memory`, which lives as long as the page (optional)
//   describe(event, play)     how the live region announces another seat's action (optional)
//   focusTarget(play)         a selector of where the keyboard focus goes on a redraw that found it
//                             on the board, when play goes on elsewhere than where it was (optional)
//   captured(memory)          the capture marks of the last action, [{square}] (optional)
//   scores                    true when the outcome's scores are points to show on the result
//                             card (Mille's game totals), not who won and who drew (optional)
//   optionText(name, value, view)  how the match's header shows an option's value (optional)
//   waitingHint(play, mover)  the banner's line while another seat decides (optional)
//   phrases(events)           one turn's events ({version, seat, action}) in the scoresheet's words:
//                             [{version, text, alone, leads}], a phrase per step or per run of steps
//                             said as one (its last version); `alone`: said before the person (Mille's
//                             deal); `leads`: the phrases after it follow a colon (Conflict's roll).
//                             Absent: each event's own notation (optional; ../scoresheet.js)
//
// `play`, the context of one drawing, holds:
//   view      the engine's view envelope {game, seat, seats, options, to_move, outcome, content}
//   legal     [{text, parts}] this page's seat may play now ([] when not its turn)
//   seat      this page's seat (null for a spectator)
//   moves     the move list [{version, seat, action}]
//   pick      an object the board keeps its half-made choice in; emptied when the match moves on
//   memory    the object `remember` wrote into
//   animate   true when the last action is new (slide it in)
//   focus     the square that last held the keyboard focus on the board, or null
//   act(text) sends an action at the person's turn (else says whose turn it is, sending nothing)
//   notNow()  says on the page why a click does nothing now ("It is Bob (White)'s turn")
//   redraw()  draws again after a change of `pick`
//   name(seat) the seat's name ("You" for this page's seat);  toast(text) a short message
//
// Boards build actions from `legal[].parts` (kind, from, to, path, card, slot, piece, seat, die,
// dice …), never by reading the notation; what they send is one of the legal texts, with two
// exceptions the server judges: Conflict's path drawn square by square (CON-68 lets a player walk
// any path), and what a person tries that no legal action offers (a piece picked, then a square it
// cannot reach: LOA's `b1-b4`; a card's "Why not play it?": `play 75`). A board writes that in the
// game's notation as the person meant it and sends it, so that the server's refusal says why in the
// engine's words (issue 18); where no text can say what was meant, it gives a short hint instead.

// A new game needs nothing here to be played in the browser (the generic board). To draw it, add a
// module `boards/<name>.js` whose default export is a board as above, built with the helpers of
// ../svg.js (coordinates, route lines, slide-in, capture marks, targets, clickLayer for the mouse and
// the keyboard), and one line in BOARDS below; `?board=generic` on a match page still shows the
// generic board, to compare.

import biloba from "./biloba.js";
import conflict from "./conflict-table.js";
import generic from "./generic.js";
import loa from "./loa.js";
import mille from "./mille.js";

const BOARDS = { biloba, conflict, loa, mille };

/** The board of `game`: its own module, or the generic board (also when `force` is "generic"). */
export function boardFor(game, force = null) {
  if (force === "generic") return generic;
  return BOARDS[game] ?? generic;
}
