// @ts-check
// Choosing the computer's level: the catalogue's levels in a list, and under it what
// the chosen level is, as measured (the server's words for it, from the engine).

import { h } from "./dom.js";

/**
 * A level's name in the list: "level 3 of 10", the first one a beginner.
 * @param {any} game  the catalogue's entry
 * @param {any} level  one of its levels
 */
function levelName(game, level) {
  if (level.name === "random") return "random moves (test)";
  return `level ${level.name} of ${game.levels.length - 1}${level.name === "1" ? " (beginner)" : ""}`;
}

/**
 * The level list and a note saying what the chosen level is, kept in step.
 * @param {any} game  the catalogue's entry
 * @param {string} id  the list's element id
 * @param {string} testId  the list's test id (the note's is this with "-note")
 */
export function levelChoice(game, id, testId) {
  const select = /** @type {HTMLSelectElement} */ (h("select", { id, name: "level", "data-testid": testId },
    game.levels.map((/** @type {any} */ level) =>
      h("option", { value: level.name, selected: level.name === game.default_level, title: level.about }, levelName(game, level))),
  ));
  const note = h("p", { class: "small level-note", "aria-live": "polite", "data-testid": `${testId}-note` });
  const show = () => {
    const chosen = game.levels.find((/** @type {any} */ level) => level.name === select.value);
    note.textContent = chosen ? chosen.about : "";
  };
  select.addEventListener("change", show);
  show();
  return { select, note };
}
