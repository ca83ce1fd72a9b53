// The page skeleton shared by every page: the top bar with the brand, the connection light (on a
// match page) and the navigation, built from the games the server declares (/api/games), so a
// new game's rules page is linked everywhere without editing any HTML.
//
// A page holds `<header class="topbar" data-page="lobby|match|help"></header>` and loads this module.

import { api } from "./net.js";
import { html } from "./svg.js";

let declared = null;

/** Every game the server offers ({name, title, help, listed, …}), fetched once per page. */
export function games() {
  declared ??= api.games().then((answer) => answer.games ?? [], () => []);
  return declared;
}

/** One game's declaration, or a stand-in with its name when the server does not list it. */
export async function gameInfo(name) {
  const all = await games();
  return all.find((g) => g.name === name) ?? { name, title: name, help: null };
}

function link(href, text) {
  const here = location.pathname === href || (href !== "/" && location.pathname.startsWith(`${href}/`));
  return html("a", { href, "aria-current": here ? "page" : undefined }, [text]);
}

/** Fills the top bar: brand and connection light at once, the games' links once they are known. */
function buildHeader() {
  const header = document.querySelector("header.topbar");
  if (!header) return;
  const nav = html("nav", { "aria-label": "Site" }, [link("/", "Lobby")]);
  header.replaceChildren(...[
    html("a", { class: "brand", href: "/", "aria-label": "parlour" }, [ // its word is hidden on a phone
      html("img", { src: "/static/favicon.svg", alt: "", width: "30", height: "30" }), html("span", {}, ["parlour"]),
    ]),
    header.dataset.page === "match" ? html("span", { id: "conn", class: "conn" }, ["connecting…"]) : null,
    nav,
  ].filter(Boolean));
  // A match page links its own game's rules first; match.js points it at them.
  if (header.dataset.page === "match") nav.append(html("a", { id: "rules-link", href: "/" }, ["Rules"]));
  games().then((all) => {
    for (const game of all.filter((g) => g.listed !== false && g.help)) nav.append(link(game.help, game.title));
    header.dataset.ready = "true";
  });
}

buildHeader();
