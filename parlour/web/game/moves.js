// @ts-check
// The move list: the lines the game's face made of the record (numbered pairs for
// chess and checkers, a turn a line for backgammon), each move clickable to look
// back at the position after it.

import { h } from "../dom.js";
import { symbolOf } from "./coach.js";

/** @typedef {import("../types.js").Game} Game */

/**
 * The list's items; the move being looked back at is marked.
 * @param {Game} game
 * @param {number | null} reviewing
 * @param {(version: number) => void} onReview
 * @param {Map<number, {judgement: string | null}>} [marks]  the coach's judgements, by
 *   the version after the move
 * @returns {HTMLElement[]}
 */
export function moveListItems(game, reviewing, onReview, marks = new Map()) {
  return game.move_rows.map((row) => {
    const numbered = row.number !== null;
    return h("li", { class: row.kind === "throw" ? "throw" : "" },
      numbered ? h("span", { class: "num" }, row.number) : null,
      row.cells.map((cell) => {
        const judged = cell.version === null ? undefined : marks.get(cell.version);
        const mark = judged && judged.judgement
          ? h("span", { class: `judgement ${judged.judgement.replace(" ", "-")}`, "data-testid": "judgement", title: judged.judgement }, symbolOf(judged.judgement))
          : null;
        return reviewable(h("span", { class: numbered ? "ply" : "" }, cell.text, mark), cell.version, reviewing, onReview);
      }),
    );
  });
}

/**
 * A move in the list that shows the position after it when clicked.
 * @param {HTMLElement} element
 * @param {number | null} version
 * @param {number | null} reviewing
 * @param {(version: number) => void} onReview
 */
function reviewable(element, version, reviewing, onReview) {
  if (version === null || version === undefined) return element;
  element.classList.add("reviewable");
  element.dataset.version = String(version);
  element.setAttribute("role", "button");
  element.setAttribute("tabindex", "0");
  element.title = "Show the position after this move";
  if (reviewing === version) element.classList.add("reviewed");
  element.addEventListener("click", () => onReview(version));
  element.addEventListener("keydown", (event) => { if (event.key === "Enter") onReview(version); });
  return element;
}
