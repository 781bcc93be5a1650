// @ts-check
// Looking back over the game: the position after an earlier move, drawn from the
// server's replay of the log; the game goes on meanwhile, and "Back to the game"
// (or Escape) returns to it.

import { api } from "../api.js";
import { h } from "../dom.js";

/** @typedef {import("./page.js").GamePage} GamePage */

/**
 * Look at the position after ``version`` (null: back to the game).
 * @param {GamePage} page
 * @param {number | null} version
 */
export async function review(page, version) {
  const state = page.state;
  if (version === null || version >= state.game.version) {
    state.review = null;
    page.draw();
    return;
  }
  try {
    state.review = await api(`/api/games/${page.gameId}/at?version=${version}`);
  } catch (error) {
    page.say(error instanceof Error ? error.message : String(error), "error");
  }
  page.draw();
}

/**
 * One move further back (-1) or forward (+1); forward from the last is the game.
 * @param {GamePage} page
 * @param {number} delta
 */
export function reviewStep(page, delta) {
  const state = page.state;
  const versions = state.game.moves.map((m) => m.version);
  if (!versions.length) return;
  const now = state.review ? versions.indexOf(state.review.version) : versions.length - 1;
  const next = Math.max(0, Math.min(versions.length - 1, (now < 0 ? versions.length - 1 : now) + delta));
  review(page, next === versions.length - 1 && delta > 0 ? null : versions[next]);
}

/**
 * The arrow keys step through the moves; Escape returns to the game.
 * @param {GamePage} page
 * @returns {(event: KeyboardEvent) => void}
 */
export function reviewKeys(page) {
  return (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowLeft") reviewStep(page, -1);
    else if (event.key === "ArrowRight" && page.state.review) reviewStep(page, 1);
    else if (event.key === "Escape" && page.state.review) review(page, null);
    else return;
    event.preventDefault();
  };
}

/**
 * The bar over the board while looking back: what is shown, and the way back.
 * @param {GamePage} page
 * @param {HTMLElement} bar
 */
export function drawReviewBar(page, bar) {
  const { game, review: shown } = page.state;
  bar.hidden = !shown;
  if (!shown) return;
  const entry = game.moves.find((m) => m.version === shown.version);
  const who = entry && entry.side !== null ? `${game.side_names[entry.side]}'s ` : "";
  const what = entry ? (entry.side === null ? `the throw ${entry.text}` : `${who}${entry.text}`) : "the start";
  bar.replaceChildren(
    h("span", {}, `Looking back: the position after ${what}.`),
    h("button", { type: "button", "data-testid": "review-previous", title: "Previous move (←)", onclick: () => reviewStep(page, -1) }, "◀"),
    h("button", { type: "button", "data-testid": "review-next", title: "Next move (→)", onclick: () => reviewStep(page, 1) }, "▶"),
    h("button", { type: "button", class: "primary", "data-testid": "review-back", onclick: () => review(page, null) }, "Back to the game"),
  );
}
