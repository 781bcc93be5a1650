// @ts-check
// The checkers board: squares 1-32 on the dark squares, Black's men starting on
// 1-12 at the top of the standard diagram. A picked-up piece shows where it may go;
// when a jump is compulsory, picking up a piece that cannot jump says why.

import { svg } from "../svg.js";
import { squareBoard } from "./squares.js";

export function place(name) {
  const n = Number(name) - 1;
  const row = Math.floor(n / 4);
  const col = 2 * (n % 4) + (row % 2 === 0 ? 1 : 0);
  return [row, col];
}

export function squareAt(row, col) {
  if ((row + col) % 2 === 0) return null;
  return String(row * 4 + Math.floor(col / 2) + 1);
}

export function drawPiece(letter) {
  const black = letter.toLowerCase() === "b";
  const group = svg("g", { class: black ? "man black" : "man white" });
  group.append(svg("circle", { cx: 0.5, cy: 0.53, r: 0.38, class: "rim" }));
  group.append(svg("circle", { cx: 0.5, cy: 0.49, r: 0.38, class: "face" }));
  group.append(svg("circle", { cx: 0.5, cy: 0.49, r: 0.27, class: "ring" }));
  if (letter === letter.toUpperCase()) {
    group.append(
      svg("path", {
        d: "M0.32 0.58 L0.30 0.40 L0.40 0.48 L0.50 0.36 L0.60 0.48 L0.70 0.40 L0.68 0.58 Z",
        class: "crown",
      }),
    );
  }
  return group;
}

export function numbers(flipped) {
  const group = svg("g", { class: "coords" });
  for (let n = 1; n <= 32; n++) {
    let [row, col] = place(String(n));
    if (flipped) [row, col] = [7 - row, 7 - col];
    group.append(svg("text", { x: col + 0.06, y: row + 0.2 }, String(n)));
  }
  return group;
}

/**
 * The legal moves whose path begins with ``prefix`` (squares as text).
 * @param {any[]} moves
 * @param {string[]} prefix
 */
function following(moves, prefix) {
  return moves.filter((m) => prefix.every((square, i) => String(m.path[i]) === square));
}

export function renderCheckers(game, ctx) {
  const board = game.board;
  const turnSide = game.turn;
  const moves = board.moves;
  const mayMove = typeof turnSide === "number" && ctx.canMove(turnSide);
  const mineLetter = turnSide === 0 ? "b" : "w";
  // A multi-jump entered landing by landing: the squares clicked so far.
  const route = (ctx.route || []).length && following(moves, ctx.route).length ? ctx.route : [];
  return squareBoard({
    label: "checkers board",
    squareAt,
    place,
    dark: (row, col) => (row + col) % 2 === 1,
    pieces: board.pieces,
    drawPiece,
    coordinates: numbers,
    flipped: ctx.flipped,
    selected: ctx.selected,
    onSelect: ctx.onSelect,
    cursor: ctx.cursor,
    onCursor: ctx.onCursor,
    animate: ctx.animate !== null ? board.last : null,
    animateSince: ctx.animate,
    onDragged: ctx.onDragged,
    pieceWords: (letter) => `${letter.toLowerCase() === "b" ? game.side_names[0] : game.side_names[1]} ${letter === letter.toUpperCase() ? "king" : "man"}`,
    // The route of a jump being entered is shown as a last move is.
    last: route.length ? route : board.last ? [board.last[0], board.last[board.last.length - 1]].map(String) : [],
    check: null,
    arrows: board.arrows,
    mine: (letter) => mayMove && letter.toLowerCase() === mineLetter,
    // Where the picked piece may land next (each jump of a multi-jump, one by one)
    // and where its moves end (a move ending in one place is made in one click).
    destinations: (from) => {
      const prefix = route.length && route[0] === from ? route : [from];
      const next = following(moves, prefix).filter((m) => m.path.length > prefix.length);
      return [...new Set(next.flatMap((m) => [String(m.path[prefix.length]), String(m.path.at(-1))]))];
    },
    onPick: (name) => {
      if (!mayMove) return;
      if (route.length && name !== route[0]) ctx.setRoute([]);
      const letter = board.pieces[name];
      if (letter.toLowerCase() !== mineLetter) {
        ctx.say(`That piece is not yours: it is ${game.side_names[turnSide]}'s move.`, "warn");
        return;
      }
      if (moves.some((m) => String(m.path[0]) === name)) {
        ctx.say("");
        return;
      }
      if (board.must_capture) {
        const jumps = moves.map((m) => m.text).join(", ");
        ctx.say(
          `A jump is available, and jumping is compulsory: this piece cannot jump, so it may not move. Play ${jumps}.`,
          "warn",
        );
      } else {
        ctx.say(`The piece on ${name} has no move: it is blocked.`, "warn");
      }
    },
    onMove: (from, to) => {
      if (!mayMove) return;
      const prefix = route.length && route[0] === from ? route : [from];
      const candidates = following(moves, prefix);
      const ending = candidates.filter((m) => String(m.path.at(-1)) === to);
      const through = following(candidates, [...prefix, to]);
      if (ending.length === 1 && (through.length <= 1 || through[0] === ending[0])) {
        ctx.setRoute([]);
        ctx.attempt(ending[0].text);
      } else if (through.length === 1 && through[0].path.length === prefix.length + 1) {
        ctx.setRoute([]);
        ctx.attempt(through[0].text);
      } else if (through.length) {
        // A landing square of a longer jump: go on from there.
        ctx.setRoute([...prefix, to]);
        ctx.say(`Jumped to ${to}: now click where the piece jumps next.`, "hint");
      } else {
        ctx.setRoute([]);
        const [r1] = place(from);
        const [r2] = place(to);
        ctx.attempt(Math.abs(r1 - r2) === 2 ? `${from}x${to}` : `${from}-${to}`);
      }
    },
  });
}
