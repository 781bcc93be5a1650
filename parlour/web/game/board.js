// @ts-check
// The board: drawn by the drawing its data names (board.kind), with the page's
// callbacks; the position looked back at is drawn to look at only. A game with no
// drawing of its own is shown as its text picture, its moves as buttons.

import { renderBackgammon } from "../boards/backgammon.js";
import { renderCheckers } from "../boards/checkers.js";
import { renderChess } from "../boards/chess.js";
import { h } from "../dom.js";
import { explainPoint, moveBySum, step } from "./turn.js";

/** @typedef {import("../types.js").Game} Game */
/** @typedef {import("./page.js").GamePage} GamePage */

/**
 * The generic drawing: the position's text picture, and a button per legal move.
 * @param {Game} game
 * @param {any} ctx
 * @returns {Element}
 */
function renderText(game, ctx) {
  const moves = typeof game.turn === "number" && ctx.canMove(game.turn) ? game.board.moves || [] : [];
  return h("div", { class: "text-board" },
    h("pre", { "data-testid": "text-picture" }, game.board.picture || game.position),
    h("div", { class: "text-moves" },
      moves.map((/** @type {string} */ move) => h("button", { type: "button", "data-testid": `text-move-${move}`, onclick: () => ctx.attempt(move) }, move))),
  );
}

/** @type {Record<string, (game: any, ctx: any) => Element>} */
const DRAWINGS = { chess: renderChess, checkers: renderCheckers, backgammon: renderBackgammon, text: renderText };

/**
 * What a drawing may ask of the page.
 * @param {GamePage} page
 */
function boardContext(page) {
  const state = page.state;
  const g = state.game;
  return {
    flipped: state.flipped,
    // A piece picked up stays picked up when a live update redraws the board.
    selected: state.selected,
    onSelect: (/** @type {string | null} */ name) => {
      state.selected = name;
    },
    // A move just arrived slides its piece: when (performance.now()) it began, so
    // that a redraw meanwhile carries the slide on from where it is.
    animate: state.slide && state.slide.version === g.version && !state.review ? state.slide.since : null,
    animateAfter: state.slide ? state.slide.after : g.version,
    onDragged: () => {
      state.dragged = true;
    },
    // The keyboard's square, kept across redraws, and what is under it, said.
    cursor: state.cursor,
    onCursor: (/** @type {string} */ words, /** @type {number[] | string} */ at) => {
      state.cursor = at;
      page.hear(words);
    },
    // At one screen, backgammon's points are labelled in the side to play's numbering.
    numbering: page.mySides.length === 2 && g.board && typeof g.board.mover === "number" ? g.board.mover : undefined,
    // The squares of a multi-jump clicked so far (its piece's square first).
    route: state.route,
    setRoute: (/** @type {string[]} */ squares) => {
      state.route = squares;
      state.selected = squares.length ? squares[0] : null;
      page.draw();
    },
    canMove: (/** @type {number} */ side) => page.mayAct(side) && g.status === "playing",
    say: page.say,
    attempt: (/** @type {string} */ text) => page.act("move", text),
    choose: page.choose,
    turn: state.turn,
    // The checker moves of the turn being entered (backgammon), to mark them.
    steps: state.steps,
    step: (/** @type {string} */ text) => step(page, text),
    moveBySum: (/** @type {string} */ from) => moveBySum(page, from),
    explainPoint: (/** @type {string} */ where) => explainPoint(page, where),
  };
}

/**
 * The squares of the move ``text`` among the board's moves (a chess move's from and
 * to, a checkers move's first and last square), for an arrow; none if not there.
 * @param {any} board
 * @param {string} text
 * @returns {string[][]}
 */
function arrowsFor(board, text) {
  const move = (board.moves || []).find((/** @type {any} */ m) => m.text === text);
  if (!move) return [];
  return [move.path ? [String(move.path[0]), String(move.path.at(-1))] : [move.from, move.to]];
}

/**
 * Draw the board into ``box``, and note on it what tests and styles read.
 * @param {GamePage} page
 * @param {HTMLElement} box
 */
export function drawBoard(page, box) {
  const state = page.state;
  const g = state.game;
  const ctx = boardContext(page);
  // A redraw replaces the board: one played by keyboard keeps the focus.
  const active = document.activeElement;
  const focused = active instanceof Element && box.contains(active) && active.getAttribute("data-keyboard") === "1";
  if (state.review) {
    // The earlier position, to look at only: no moves, no steps.
    const r = state.review;
    const board = state.arrow && state.arrow.version === r.version && r.board
      ? { ...r.board, arrows: arrowsFor(r.board, state.arrow.text) } : r.board;
    const then = { ...g, board, position: r.position, turn: null, legal_moves: [], outcome: null,
      moves: g.moves.filter((m) => m.version <= r.version) };
    const still = { ...ctx, canMove: () => false, turn: null, selected: null, onSelect: () => {} };
    const render = r.board && DRAWINGS[r.board.kind];
    box.replaceChildren(render ? render(then, still) : h("pre", {}, r.position));
  } else {
    const render = g.board && DRAWINGS[g.board.kind];
    box.replaceChildren(render ? render(g, ctx) : h("pre", {}, g.position));
  }
  // The move slid, for tests: kept while its version is shown.
  const slid = box.querySelector("svg[data-animated]")?.getAttribute("data-animated");
  if (slid) {
    box.dataset.slid = slid;
    box.dataset.slidAt = String(g.version);
  } else if (box.dataset.slidAt !== String(g.version)) {
    delete box.dataset.slid;
  }
  box.classList.toggle("reviewing", Boolean(state.review));
  if (focused) /** @type {HTMLElement | null} */ (box.querySelector("[tabindex]"))?.focus();
  if (!box.dataset.guarded) {
    // While looking back, a click on the board plays nothing: say why, once per click.
    box.addEventListener("click", (event) => {
      if (!page.state.review) return;
      event.stopPropagation();
      page.say("You are looking back at an earlier position: press Escape or \"Back to the game\" to play on.", "warn");
    }, true);
    box.dataset.guarded = "1";
  }
  box.dataset.version = String(g.version);
  box.dataset.turn = String(g.turn);
  box.dataset.steps = String(state.steps.length);
  box.dataset.phase = g.board && g.board.phase ? g.board.phase : "";
  box.dataset.mine = typeof g.turn === "number" && page.mayAct(g.turn) && !g.outcome ? "1" : "0";
  box.dataset.sources = state.turn ? [...new Set(state.turn.options.map((/** @type {any} */ o) => String(o.from)))].join(",") : "";
}
