// @ts-check
// A turn entered a piece at a time (backgammon's checkers): the page sends the steps
// so far and the server answers with the board as it would stand, the steps that
// may come next, and whether the play is complete.

import { api } from "../api.js";

/** @typedef {import("./page.js").GamePage} GamePage */

/**
 * Ask the server about the steps entered so far (none: the turn is not being
 * entered here); a refused step is taken back and explained.
 * @param {GamePage} page
 */
export async function loadTurn(page) {
  const state = page.state;
  const g = state.game;
  const stepwise = g.board && g.board.phase === "play" && "steps" in g.board;
  if (!stepwise || typeof g.turn !== "number" || !page.mayAct(g.turn)) {
    state.turn = null;
    return;
  }
  const path = `/api/games/${page.gameId}/steps`;
  try {
    state.turn = await api(path, { method: "POST", body: { steps: state.steps } });
  } catch (error) {
    page.say(error instanceof Error ? error.message : String(error), "error");
    state.steps.pop();
    state.turn = await api(path, { method: "POST", body: { steps: state.steps } });
  }
}

/**
 * One more step of the turn.
 * @param {GamePage} page
 * @param {string} text
 */
export async function step(page, text) {
  page.state.steps.push(text);
  page.say("");
  await loadTurn(page);
  page.draw();
}

/**
 * A checker moved by both dice at once (a double-click): bear it off if it can be,
 * else its first step and, when the checker may go on, a second.
 * @param {GamePage} page
 * @param {string} from
 */
export async function moveBySum(page, from) {
  const state = page.state;
  const turn = state.turn;
  if (!turn) return;
  /** @type {{text: string, from: any, to: any}[]} */
  const options = turn.options;
  const bearOff = options.find((o) => String(o.from) === from && o.to === "off");
  const first = bearOff || options.find((o) => String(o.from) === from);
  if (!first) return;
  state.steps.push(first.text);
  await loadTurn(page);
  if (!bearOff && state.turn) {
    /** @type {{text: string, from: any}[]} */
    const next = state.turn.options;
    const second = next.find((o) => String(o.from) === String(first.to));
    if (second) {
      state.steps.push(second.text);
      await loadTurn(page);
    }
  }
  page.draw();
}

/**
 * Why no checker moves from ``where``, as the server explained it.
 * @param {GamePage} page
 * @param {string} where
 */
export function explainPoint(page, where) {
  const source = page.state.turn || page.state.game.board;
  const note = source.notes && source.notes[where];
  if (note) page.say(note, "warn");
}
