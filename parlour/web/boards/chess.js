// @ts-check
// The chess board: the server's board data drawn on squares; a picked-up piece
// shows its legal destinations; a pawn reaching the last rank asks what it becomes.

import { svg } from "../svg.js";
import { squareBoard } from "./squares.js";

const FILES = "abcdefgh";
// Solid glyphs for both sides, filled in each side's colour: clearer than outlines.
const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const NAMES = { q: "queen", r: "rook", b: "bishop", n: "knight" };

export function drawPiece(letter) {
  const white = letter === letter.toUpperCase();
  return svg(
    "text",
    {
      x: 0.5, y: 0.5,
      class: white ? "chessman white" : "chessman black",
      "text-anchor": "middle",
      "dominant-baseline": "central",
    },
    GLYPHS[letter.toLowerCase()],
  );
}

export function coordinates(flipped) {
  const group = svg("g", { class: "coords" });
  for (let i = 0; i < 8; i++) {
    const file = flipped ? FILES[7 - i] : FILES[i];
    const rank = flipped ? i + 1 : 8 - i;
    group.append(svg("text", { x: i + 0.94, y: 7.95, "text-anchor": "end" }, file));
    group.append(svg("text", { x: 0.04, y: i + 0.2 }, String(rank)));
  }
  return group;
}

/** Draw ``game`` (the server's game JSON); ``ctx`` carries the page's callbacks. */
export function renderChess(game, ctx) {
  const board = game.board;
  const turnSide = game.turn;
  const moves = board.moves;
  const mayMove = typeof turnSide === "number" && ctx.canMove(turnSide);
  const white = turnSide === 0;
  return squareBoard({
    label: "chess board",
    squareAt: (row, col) => FILES[col] + (8 - row),
    place: (name) => [8 - Number(name[1]), FILES.indexOf(name[0])],
    dark: (row, col) => (row + col) % 2 === 1,
    pieces: board.pieces,
    drawPiece,
    coordinates,
    flipped: ctx.flipped,
    selected: ctx.selected,
    onSelect: ctx.onSelect,
    cursor: ctx.cursor,
    onCursor: ctx.onCursor,
    animate: ctx.animate !== null ? board.last : null,
    animateSince: ctx.animate,
    onDragged: ctx.onDragged,
    pieceWords: (letter) => `${letter === letter.toUpperCase() ? game.side_names[0] : game.side_names[1]} ${pieceName(letter)}`,
    last: board.last,
    check: board.check,
    arrows: board.arrows,
    mine: (letter) => mayMove && (letter === letter.toUpperCase()) === white,
    destinations: (from) => [...new Set(moves.filter((m) => m.from === from).map((m) => m.to))],
    onPick: (name) => {
      const letter = board.pieces[name];
      if (!mayMove) return;
      if ((letter === letter.toUpperCase()) !== white) {
        ctx.say(`That is not your piece: it is ${game.side_names[turnSide]}'s move.`);
      } else if (!moves.some((m) => m.from === name)) {
        ctx.say(`The ${pieceName(letter)} on ${name} has no legal move.`, "warn");
      } else {
        ctx.say("");
      }
    },
    onMove: (from, to) => {
      if (!mayMove) return;
      const choices = moves.filter((m) => m.from === from && m.to === to);
      if (choices.length > 1) {
        ctx.choose(
          "Promote the pawn to:",
          choices.map((m) => ({
            label: `${GLYPHS[m.promotion]} ${NAMES[m.promotion]}`,
            value: m.text,
            testid: `promote-${m.promotion}`,
          })),
        );
      } else if (choices.length === 1) {
        ctx.attempt(choices[0].text);
      } else {
        // Not legal: the server says which rule forbids it.
        ctx.attempt(from + to);
      }
    },
  });
}

function pieceName(letter) {
  return { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" }[letter.toLowerCase()];
}
