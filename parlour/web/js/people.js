// Who sits where, in words for people: "Ann (Black)", "strong bot (White)", and a result with
// its final score. Shared by the lobby's cards and the match page, from a match's `seats`
// ({seat, name, kind, player, bot, level}) and an outcome ({winner, reason, scores, words}).

/** A seat name that only numbers the seat ("Player 2"): it says nothing beside a person's name. */
const NUMBERED = /^(player|seat) \d+$/i;

/** A bot as its players chose it: by its level where it plays at one ("club bot"), else by its kind ("strong bot"). */
export function botName(info) {
  return `${info.level ?? info.bot ?? "a"} bot`;
}

/** Who is in the seat: the person's name, "club bot", or null for a free seat or a nameless person. */
export function occupant(info) {
  if (!info) return null;
  if (info.kind === "bot") return botName(info);
  if (info.kind === "person") return info.player || null;
  return null;
}

/**
 * A seat as people call it: "Ann (Black)", "strong bot (White)", or the seat's name alone while
 * nobody named sits in it. Seats only numbered ("Player 1") give the occupant alone, unless two
 * seats would then read the same ("random bot (Player 1)").
 */
export function seatLabel(seats, seat, seatName = seats?.[seat]?.name ?? `Seat ${seat + 1}`) {
  const who = occupant(seats?.[seat]);
  if (!who) return seatName;
  if (!NUMBERED.test(seatName)) return `${who} (${seatName})`;
  const twins = (seats ?? []).filter((info) => occupant(info) === who).length;
  return twins > 1 ? `${who} (${seatName})` : who;
}

/** A score as written on a card: 5575, not 5575.0; 2.5 stays 2.5. */
export function scoreText(score) {
  return Number.isInteger(score) ? String(score) : String(Math.round(score * 100) / 100);
}

/** "5575–3250": the outcome's scores in seat order, or "" for a game that keeps none. */
export function finalScore(outcome) {
  const scores = outcome?.scores ?? [];
  return scores.length ? scores.map(scoreText).join("–") : "";
}

/** Why a game ended, in the game's words, shown as they are (they complete "Ann (Black) wins: …"). */
export function whyText(outcome) {
  return (outcome?.words ?? "").trim();
}
