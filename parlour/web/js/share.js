// A small card beside the match: the link that lets a friend watch (the page's address carries no
// seat: the seat's token stays in this browser's storage, so whoever opens the link is a spectator),
// and, for a seat, the switch of the "your turn" tone (sound.js).

import { html } from "./svg.js";
import { setSoundOn, soundOn } from "./sound.js";

const $ = (id) => document.getElementById(id);

/** The address of the match page, with nothing else (no query: no board override, no seat). */
export function spectatorLink(matchId) {
  return `${location.origin}/match/${encodeURIComponent(matchId)}`;
}

export class ShareCard {
  /** `page`: the match page (its id, snapshot and copy). */
  constructor(page) {
    this.page = page;
    const link = spectatorLink(page.id);
    this.card = html("section", { class: "card share-card", id: "share", "aria-label": "Share and sound", hidden: true }, [
      html("div", { id: "share-watch" }, [
        html("label", { for: "share-link" }, ["Link for spectators"]),
        html("div", { class: "form-inline" }, [
          html("input", { id: "share-link", type: "text", readonly: true, value: link, class: "share-link" }),
          html("button", { type: "button", class: "btn btn-small", id: "share-copy", "aria-label": "Copy the link for spectators",
            onclick: () => this.page.copy(link) }, ["Copy"]),
        ]),
        html("p", { class: "small muted share-note" }, ["Whoever opens it watches the match; it gives no seat."]),
      ]),
      html("label", { class: "switch", id: "sound-switch" }, [
        html("input", { type: "checkbox", id: "sound-on", checked: soundOn(),
          onchange: (event) => setSoundOn(event.target.checked) }),
        " A sound when it is my turn and I am on another page",
      ]),
    ]);
    document.querySelector(".side")?.append(this.card);
  }

  /** While the match waits for players the page's own invitation is the link; a spectator has no turn. */
  render() {
    const s = this.page.snap;
    if (!s) return;
    const watch = s.status !== "open";
    const sound = s.seat !== null && s.status !== "over";
    $("share-watch").hidden = !watch;
    $("sound-switch").hidden = !sound;
    this.card.hidden = !watch && !sound;
  }
}
