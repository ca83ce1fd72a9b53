// The engine's check of the map being drawn (POST …/boards/check), asked a moment after the last
// change: the status line (how many errors and warnings), every problem in a list (those with
// squares with a button to go to them), the problems by square for the grid, and the first
// problem said aloud when it changes.

import { html } from "./svg.js";
import { boards } from "./editor-file.js";

const CHECK_DELAY_MS = 400; // after the last change: not one check for every square of a stroke

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The problems that name squares, by square: Map(square → [problem]). */
function bySquare(problems) {
  const grouped = new Map();
  for (const problem of problems) {
    for (const square of problem.squares ?? []) {
      if (!grouped.has(square)) grouped.set(square, []);
      grouped.get(square).push(problem);
    }
  }
  return grouped;
}

function summaryOf(problems) {
  const errors = problems.filter((p) => p.severity === "error").length;
  const warnings = problems.length - errors;
  if (errors) return `${plural(errors, "error")}${warnings ? ` and ${plural(warnings, "warning")}` : ""}: the map cannot be played yet.`;
  return warnings ? `Playable, with ${plural(warnings, "warning")}.` : "The map is ready to play.";
}

function problemItem(problem, onGoTo) {
  const squares = problem.squares ?? [];
  const where = squares.length
    ? html("button", { type: "button", class: "ed-where", onclick: () => onGoTo(squares[0]), "aria-label": `Go to ${squares.join(", ")}` }, [squares.join(" ")])
    : null;
  return html("li", { class: `ed-problem ${problem.severity}`, "data-severity": problem.severity, "data-squares": squares.join(" ") }, [
    html("span", { class: "ed-sev" }, [problem.severity === "error" ? "Error" : "Warning"]),
    ...(where ? [" ", where] : []),
    " ", html("span", { class: "ed-msg" }, [problem.message]),
  ]);
}

/**
 * `status` and `list`: the page's elements; `text()`: the map file as it now is; `onProblems(bySquare)`
 * when an answer comes; `onGoTo(square)`; `announce(words)`. Returns {schedule()}: call it on every change.
 */
export function makeChecker({ game, status, list, text, onProblems, onGoTo, announce }) {
  let timer = null;
  let asked = 0;
  let heard = "";

  function showStatus(words, kind) {
    status.textContent = words;
    status.dataset.state = kind;
  }

  function show(problems, ok) {
    onProblems(bySquare(problems));
    const summary = summaryOf(problems);
    const errors = problems.some((p) => p.severity === "error");
    showStatus(summary, errors ? "errors" : ok ? "ok" : "unknown");
    // Said aloud when it changes: the count and the first problem, where it is.
    const first = problems.find((p) => p.severity === "error") ?? problems[0];
    const words = first ? `${summary} ${first.squares?.length ? `${first.squares.join(", ")}: ` : ""}${first.message}` : summary;
    if (words !== heard) announce(words);
    heard = words;
    list.replaceChildren(...problems.map((problem) => problemItem(problem, onGoTo)));
  }

  async function run(number) {
    let answer;
    try {
      answer = await boards.check(game, text());
    } catch (error) {
      if (number !== asked) return;
      if (error.status === 429) {
        // The server's budget of checks (a minute's worth) is spent: ask again when it says.
        showStatus("Too many checks for a moment: checking again shortly…", "checking");
        timer = setTimeout(() => run(number), 1000 * Math.min(error.retryAfter ?? 2, 30));
        return;
      }
      showStatus(`The map cannot be checked: ${error.message}`, "unknown");
      return;
    }
    if (number !== asked) return; // the map has changed since: its own check is on its way
    show(answer.problems ?? [], answer.ok);
  }

  function schedule() {
    clearTimeout(timer);
    status.dataset.state = "checking";
    const number = (asked += 1); // an answer still on its way is about an older drawing
    timer = setTimeout(() => run(number), CHECK_DELAY_MS);
  }

  return { schedule };
}
