// The editor and the server (docs/protocol.md: a game's boards), and map files on the person's own
// computer: check, list, open and save maps, create a match on a drawing, download and upload.

import { request, tokens } from "./net.js";

/** The characters a board's text may have when the server does not say (GET /api/games: a game's
 * boards' `max_characters`): the server refuses longer ones (a 26×40 map is under 2 KB). */
export const DEFAULT_MAX_CHARACTERS = 16 * 1024;

const MOST_PAGES = 5; // 100 boards a page: up to 500 listed

const boardsPath = (game) => `/api/games/${encodeURIComponent(game)}/boards`;

export const boards = {
  /** {ok, problems, board}: every problem of the engine's map check (a question, not a refusal). */
  check: (game, text) => request("POST", `${boardsPath(game)}/check`, { text }),
  /** Every map the server offers: shipped first, then saved ones newest first (the editor's menu and
   * the lobby's picker; up to MOST_PAGES pages: the rest are a name away). */
  list: async (game) => {
    const all = [];
    let cursor = null;
    for (let page = 0; page < MOST_PAGES; page += 1) {
      const answer = await request("GET", `${boardsPath(game)}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`);
      all.push(...(answer.boards ?? []));
      cursor = answer.next;
      if (!cursor) break;
    }
    return all;
  },
  /** {name, text, board, shipped, problems}. */
  open: (game, name) => request("GET", `${boardsPath(game)}/${encodeURIComponent(name)}`),
  save: (game, body) => request("POST", boardsPath(game), body),
};

/**
 * Creates a match of `players` on the drawn map (its text as the `board` option), the person in the
 * first seat and the game's default bot in the others; keeps the seat's token as the lobby does and
 * returns the match page's address.
 */
export async function tryAgainstBots(game, { option, text, bot, players, name }) {
  const seats = ["open", ...Array(players - 1).fill(`bot:${bot}`)];
  const body = { game, players, seats, join: 0, bot_seconds: 1, options: { [option]: text } };
  if (name) body.name = name;
  const answer = await request("POST", "/api/matches", body);
  if (answer.token) tokens.set(answer.match.id, answer.token);
  return answer.match.url ?? `/match/${answer.match.id}`;
}

/** Offers `text` as a file called `filename` (the browser's download). */
export function download(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The text of a file the person chose; a clear error for one longer than the server takes
 * (`maxCharacters`) or not text. */
export async function readMapFile(file, maxCharacters = DEFAULT_MAX_CHARACTERS) {
  const tooLong = () => new Error(`${file.name} is ${Math.ceil(file.size / 1024)} KB: the server takes map files of `
    + `${maxCharacters.toLocaleString("en")} characters at most (${Math.floor(maxCharacters / 1024)} KB).`);
  if (file.size > 4 * maxCharacters) throw tooLong(); // not read at all: even 4-byte characters would be too many
  const text = await file.text();
  if (text.length > maxCharacters) throw tooLong();
  if (text.includes("\u0000")) throw new Error(`${file.name} is not a text file.`);
  return text;
}
