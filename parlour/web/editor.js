// @ts-check
// The board editor (#editor=chess, #editor=checkers): a position set up piece by
// piece, or pasted as its text, then played on against the computer or a friend.
// The text (FEN, PDN FEN) follows the board, and the board follows the text when it
// can be read; the server checks the position by the game's rules when the game is
// made, and its refusal is shown here, on the editor.

import { api, gamesOffered, openGame, store } from "./api.js";
import { coordinates as chessCoordinates, drawPiece as drawChessman } from "./boards/chess.js";
import { drawPiece as drawCheckersPiece, numbers, place as checkersPlace, squareAt as checkersSquareAt } from "./boards/checkers.js";
import { squareBoard } from "./boards/squares.js";
import { h, mainArea } from "./dom.js";
import { levelChoice } from "./levels.js";
import { pointerAt, svg } from "./svg.js";

/**
 * @typedef {object} Position  A position being set up.
 * @property {Record<string, string>} pieces  square -> piece letter, as the boards draw them
 * @property {number} turn  the side to move: 0 for the first side (chess's White, checkers' Black)
 * @property {Set<string>} castling  the castling rights chosen (KQkq); one counts only
 *   while its king and rook stand on their home squares
 * @property {string | null} ep  the en passant square chosen
 * @property {number} halfmove  chess's halfmove clock
 * @property {number} fullmove  chess's move number
 */

/**
 * @typedef {object} Kind  What the editor knows of a game.
 * @property {string} textName  what the position's text is called
 * @property {{letter: string, words: string}[]} palette  the pieces one may put down
 * @property {string} start  the starting position's text
 * @property {(text: string) => Position} read  the position of a text (an Error in plain words if it cannot be read)
 * @property {(position: Position) => string} write  the text of a position
 * @property {(row: number, col: number) => string | null} squareAt
 * @property {(name: string) => number[]} place
 * @property {(letter: string) => Element} drawPiece
 * @property {(flipped: boolean) => Element} coordinates
 */

// -- chess --------------------------------------------------------------------------

const FILES = "abcdefgh";
const CHESS_NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };

/** The castling rights: each one's king and rook, on their home squares. */
const CASTLING = [
  { letter: "K", king: "e1", rook: "h1", words: "White kingside (O-O)" },
  { letter: "Q", king: "e1", rook: "a1", words: "White queenside (O-O-O)" },
  { letter: "k", king: "e8", rook: "h8", words: "Black kingside (O-O)" },
  { letter: "q", king: "e8", rook: "a8", words: "Black queenside (O-O-O)" },
];

/**
 * The castling rights the pieces allow: king and rook on their home squares.
 * @param {Record<string, string>} pieces
 * @returns {string[]}
 */
function castlingPossible(pieces) {
  return CASTLING.filter(({ letter, king, rook }) => {
    const white = letter === "K" || letter === "Q";
    return pieces[king] === (white ? "K" : "k") && pieces[rook] === (white ? "R" : "r");
  }).map(({ letter }) => letter);
}

/**
 * The en passant squares possible: behind a pawn of the side that has just moved,
 * which passed it from its starting square (both empty), with a pawn of the side
 * to move beside it to take it.
 * @param {Position} position
 * @returns {string[]}
 */
function enPassantPossible(position) {
  const white = position.turn === 0;
  const [behind, stands, came] = white ? [6, 5, 7] : [3, 4, 2];
  const passed = white ? "p" : "P";
  const taker = white ? "P" : "p";
  const pieces = position.pieces;
  return [...FILES]
    .filter((file, i) => pieces[file + stands] === passed && !pieces[file + behind] && !pieces[file + came]
      && [FILES[i - 1], FILES[i + 1]].some((side) => side && pieces[side + stands] === taker))
    .map((file) => file + behind);
}

/**
 * The FEN of a position: the castling rights and en passant square only where the
 * pieces allow them.
 * @param {Position} position
 */
function writeFen(position) {
  const ranks = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = "";
    let empty = 0;
    for (const file of FILES) {
      const letter = position.pieces[file + rank];
      if (!letter) {
        empty += 1;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += letter;
    }
    if (empty) row += String(empty);
    ranks.push(row);
  }
  const castling = castlingPossible(position.pieces).filter((letter) => position.castling.has(letter)).join("") || "-";
  const ep = position.ep && enPassantPossible(position).includes(position.ep) ? position.ep : "-";
  return `${ranks.join("/")} ${position.turn === 0 ? "w" : "b"} ${castling} ${ep} ${position.halfmove} ${position.fullmove}`;
}

/**
 * Read a FEN as far as drawing it goes (the server checks the rest: the kings, the
 * checks, the pawns on the back ranks...).
 * @param {string} text
 * @returns {Position}
 */
function readFen(text) {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 4 && fields.length !== 6) {
    throw new Error("a FEN has 6 parts: the pieces, the side to move, castling, en passant and two move counters (the counters may be left out)");
  }
  const [placement, side, castling, ep] = fields;
  const [halfmove, fullmove] = fields.length === 6 ? fields.slice(4) : ["0", "1"];
  const ranks = placement.split("/");
  if (ranks.length !== 8) throw new Error(`the pieces are given for ${ranks.length} ranks, a board has 8 (ranks are parted by /)`);
  /** @type {Record<string, string>} */
  const pieces = {};
  ranks.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    let digit = false;
    for (const char of row) {
      if ("12345678".includes(char)) {
        if (digit) throw new Error(`rank ${rank} has two digits in a row: one digit counts all the empty squares of a run`);
        file += Number(char);
        digit = true;
      } else if ("kqrbnp".includes(char.toLowerCase())) {
        if (file < 8) pieces[FILES[file] + rank] = char;
        file += 1;
        digit = false;
      } else {
        throw new Error(`"${char}" on rank ${rank} is not a piece: KQRBNP are White's, kqrbnp Black's, digits count empty squares`);
      }
    }
    if (file !== 8) throw new Error(`rank ${rank} has ${file} squares, a rank has 8`);
  });
  if (side !== "w" && side !== "b") throw new Error(`the side to move is w or b, not "${side}"`);
  const turn = side === "w" ? 0 : 1;
  const rights = new Set();
  if (castling !== "-") {
    for (const letter of castling) {
      if (!"KQkq".includes(letter)) throw new Error(`castling is - or letters of KQkq, not "${castling}"`);
      if (rights.has(letter)) throw new Error(`the castling letter ${letter} is there twice`);
      rights.add(letter);
    }
    const possible = castlingPossible(pieces);
    for (const right of CASTLING) {
      if (rights.has(right.letter) && !possible.includes(right.letter)) {
        const who = right.letter === right.letter.toUpperCase() ? "White" : "Black";
        throw new Error(`${who} cannot castle (${right.letter}) without the king on ${right.king} and a rook on ${right.rook}`);
      }
    }
  }
  /** @type {Position} */
  const position = { pieces, turn, castling: rights, ep: null, halfmove: 0, fullmove: 1 };
  if (ep !== "-") {
    if (!/^[a-h][36]$/.test(ep)) throw new Error(`en passant is - or a square on rank 3 or 6, not "${ep}"`);
    const behind = turn === 0 ? "6" : "3";
    const [stands, came] = turn === 0 ? ["5", "7"] : ["4", "2"];
    if (ep[1] !== behind || pieces[ep[0] + stands] !== (turn === 0 ? "p" : "P") || pieces[ep] || pieces[ep[0] + came]) {
      throw new Error(`en passant on ${ep} is impossible: no pawn has just passed it`);
    }
    // Kept only where a pawn can take there, as the server keeps it.
    position.ep = enPassantPossible(position).includes(ep) ? ep : null;
  }
  if (!/^\d+$/.test(halfmove)) throw new Error(`the halfmove clock is a whole number, not "${halfmove}"`);
  if (!/^\d+$/.test(fullmove) || Number(fullmove) < 1) throw new Error(`the move number is a whole number from 1, not "${fullmove}"`);
  position.halfmove = Number(halfmove);
  position.fullmove = Number(fullmove);
  return position;
}

// -- checkers -----------------------------------------------------------------------

/**
 * The PDN FEN of a position, as the server writes it: the side to move, then
 * White's squares and Black's, K before a king.
 * @param {Position} position
 */
function writePdnFen(position) {
  const squares = Object.keys(position.pieces).map(Number).sort((a, b) => a - b);
  /** @param {string} man */
  const list = (man) => squares
    .filter((n) => position.pieces[n].toLowerCase() === man)
    .map((n) => (position.pieces[n] === man ? String(n) : `K${n}`))
    .join(",");
  return `${position.turn === 0 ? "B" : "W"}:W${list("w")}:B${list("b")}`;
}

/**
 * Read a PDN FEN ("W:W21,22,K23:B1,2,K3", ranges like 1-12 too) as far as drawing
 * it goes (the server checks the rest).
 * @param {string} text
 * @returns {Position}
 */
function readPdnFen(text) {
  let value = text.trim();
  const tag = /^\[\s*FEN\s+"([^"]*)"\s*\]$/i.exec(value);
  if (tag) value = tag[1].trim();
  value = value.replace(/^"|"$/g, "").trim().replace(/\.$/, "");
  if (!value) throw new Error("it is empty: it is the side to move, then each side's squares, e.g. B:W21,22:B1,2");
  const fields = value.split(":").map((part) => part.trim());
  const turnLetter = fields[0].toUpperCase();
  if (turnLetter !== "B" && turnLetter !== "W") throw new Error(`it starts with the side to move, B or W, not "${fields[0]}"`);
  /** @type {Record<string, string>} */
  const pieces = {};
  const listed = new Set();
  for (const part of fields.slice(1)) {
    if (/^[HhFf]\d+$/.test(part)) continue; // a move counter some programs add
    const side = part[0] ? part[0].toLowerCase() : "";
    if (side !== "b" && side !== "w") throw new Error(`each side's squares start with W or B, not "${part}"`);
    const name = side === "b" ? "Black" : "White";
    if (listed.has(side)) throw new Error(`${name}'s squares are given twice`);
    listed.add(side);
    const entries = part.slice(1).split(",").map((entry) => entry.trim());
    if (entries.length > 1 && entries[entries.length - 1] === "") entries.pop();
    for (const entry of entries) {
      if (entry === "" && entries.length === 1) break;
      const match = /^([Kk]?)(\d+)(?:-(\d+))?$/.exec(entry);
      if (!match) throw new Error(`"${entry}" in ${name}'s squares is not a square: a number 1 to 32, K before a king`);
      const first = Number(match[2]);
      const last = Number(match[3] || match[2]);
      for (const square of [first, last]) {
        if (square < 1 || square > 32) throw new Error(`square ${square} is not on the board: the squares are 1 to 32`);
      }
      if (last < first) throw new Error(`the squares ${entry} run backwards`);
      for (let square = first; square <= last; square++) {
        if (pieces[square]) throw new Error(`square ${square} is given twice`);
        pieces[square] = match[1] ? side.toUpperCase() : side;
      }
    }
  }
  for (const [side, name] of [["w", "White"], ["b", "Black"]]) {
    if (!listed.has(side)) throw new Error(`${name}'s squares are missing (${side.toUpperCase()}...)`);
  }
  return { pieces, turn: turnLetter === "B" ? 0 : 1, castling: new Set(), ep: null, halfmove: 0, fullmove: 1 };
}

// -- the games ----------------------------------------------------------------------

/** @type {Record<string, Kind>} */
const KINDS = {
  chess: {
    textName: "FEN",
    palette: [..."KQRBNPkqrbnp"].map((letter) => ({
      letter,
      words: `${letter === letter.toUpperCase() ? "White" : "Black"} ${CHESS_NAMES[letter.toLowerCase()]}`,
    })),
    start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    read: readFen,
    write: writeFen,
    squareAt: (row, col) => FILES[col] + (8 - row),
    place: (name) => [8 - Number(name[1]), FILES.indexOf(name[0])],
    drawPiece: drawChessman,
    coordinates: chessCoordinates,
  },
  checkers: {
    textName: "PDN FEN",
    palette: [["b", "Black man"], ["B", "Black king"], ["w", "White man"], ["W", "White king"]]
      .map(([letter, words]) => ({ letter, words })),
    start: "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    read: readPdnFen,
    write: writePdnFen,
    squareAt: checkersSquareAt,
    place: checkersPlace,
    drawPiece: drawCheckersPiece,
    coordinates: numbers,
  },
};

/**
 * A piece of the palette drawn as on the board (or the eraser's cross).
 * @param {Kind} kind
 * @param {string} letter  "" for the eraser
 */
function swatch(kind, letter) {
  const drawing = svg("svg", { viewBox: "0 0 1 1", class: "palette-swatch", "aria-hidden": "true", focusable: "false" });
  if (letter) {
    drawing.append(kind.drawPiece(letter));
  } else {
    drawing.append(svg("path", { d: "M0.28 0.28 L0.72 0.72 M0.72 0.28 L0.28 0.72", class: "eraser" }));
  }
  return drawing;
}

// -- the page -----------------------------------------------------------------------

/**
 * The board editor of a game (chess or checkers).
 * @param {string} name  the game's name, from the URL
 */
export async function showEditor(name) {
  const main = mainArea();
  const kind = Object.hasOwn(KINDS, name) ? KINDS[name] : undefined;
  if (!kind) {
    main.replaceChildren(
      h("p", { class: "error", "data-testid": "editor-missing" }, `There is no board editor for "${name}": positions of chess and checkers can be set up on a board.`),
      h("p", {}, h("a", { href: "#" }, "Go to the home page"), "."),
    );
    return;
  }
  main.replaceChildren(h("p", {}, "Loading…"));
  let catalogue;
  try {
    catalogue = await gamesOffered();
  } catch (error) {
    main.replaceChildren(h("p", { class: "error" }, `The server did not answer: ${error instanceof Error ? error.message : error}`));
    return;
  }
  const game = catalogue.games.find((/** @type {any} */ g) => g.name === name);
  if (!game) {
    main.replaceChildren(h("p", { class: "error" }, `This server does not offer ${name}.`));
    return;
  }
  document.title = `Parlour: set up a ${game.title.toLowerCase()} position`;
  main.replaceChildren(editorPage(kind, game));
}

/**
 * The editor's page.
 * @param {Kind} kind
 * @param {any} game  the catalogue's entry
 * @returns {HTMLElement}
 */
function editorPage(kind, game) {
  const id = (/** @type {string} */ part) => `editor-${part}`;
  /** @type {Position} */
  let position = kind.read(kind.start);
  let flipped = false;
  /** @type {number[]} */
  let cursor = [7, 0];
  /** @param {string} letter */
  const wordsOf = (letter) => kind.palette.find((p) => p.letter === letter)?.words || letter;

  const announcer = h("p", { class: "visually-hidden", "aria-live": "polite", "data-testid": "editor-announce" });
  const hear = (/** @type {string} */ words) => {
    announcer.textContent = words;
  };
  const boardBox = h("div", { id: "editor-board", class: `board-box ${game.name}`, "data-testid": "editor-board" });

  // The palette: the piece to put down (or the eraser), one of a radio group.
  const paletteChoice = (/** @type {string} */ letter, /** @type {string} */ words, /** @type {boolean} */ checked) =>
    h("label", { class: "palette-choice", title: words, "data-testid": `palette-${letter || "eraser"}` },
      h("input", { type: "radio", name: id("piece"), value: letter, checked, class: "visually-hidden" }),
      swatch(kind, letter),
      h("span", { class: "visually-hidden" }, words));
  const palette = h("fieldset", { class: "palette", "data-testid": "editor-palette" },
    h("legend", {}, "Piece to put on the board"),
    kind.palette.map(({ letter, words }, i) => paletteChoice(letter, words, i === 0)),
    paletteChoice("", "Eraser (takes a piece off)", false),
  );
  const chosen = () => {
    const input = /** @type {HTMLInputElement | null} */ (palette.querySelector("input:checked"));
    return input ? input.value : "";
  };

  const turnSelect = /** @type {HTMLSelectElement} */ (h("select", { id: id("turn"), "data-testid": "editor-turn" },
    game.side_names.map((/** @type {string} */ side, /** @type {number} */ i) => h("option", { value: String(i) }, side))));

  // Chess only: the castling rights and the en passant square.
  const castlingBoxes = CASTLING.map((right) => {
    const input = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", value: right.letter, "data-testid": `editor-castle-${right.letter}` }));
    const label = h("label", { class: "editor-check" }, input, " ", right.words);
    input.addEventListener("change", () => {
      if (input.checked) position.castling.add(right.letter);
      else position.castling.delete(right.letter);
      changed();
    });
    return { right, input, label };
  });
  const noCastling = h("p", { class: "small editor-none" }, "No castling: no king and rook stand on their home squares.");
  const castlingSet = h("fieldset", { class: "editor-castling", "data-testid": "editor-castling" },
    h("legend", {}, "Castling still allowed"), castlingBoxes.map((box) => box.label), noCastling);
  const epSelect = /** @type {HTMLSelectElement} */ (h("select", { id: id("ep"), "data-testid": "editor-ep" }));
  const chessOnly = game.name === "chess"
    ? [castlingSet, h("label", { class: "editor-row", for: epSelect.id, title: "The square a pawn has just passed, moving two squares, where a pawn beside it may take it" }, "En passant square: ", epSelect)]
    : [];

  // A text area, so that the whole text shows (wrapped); Enter ends the typing.
  const field = /** @type {HTMLTextAreaElement} */ (h("textarea", {
    id: id("text"), rows: "2", spellcheck: "false", autocomplete: "off", autocapitalize: "off",
    "aria-describedby": id("text-note"), "data-testid": "editor-text",
  }));
  const fieldNote = h("p", { id: id("text-note"), class: "small", role: "status", "data-testid": "editor-text-note" });
  const flipButton = h("button", { type: "button", "aria-pressed": "false", "data-testid": "editor-flip" }, "Flip board");

  /** Draw the board; one played by keyboard keeps the focus. */
  function drawBoard() {
    const active = document.activeElement;
    const focused = active instanceof Element && boardBox.contains(active) && active.getAttribute("data-keyboard") === "1";
    const root = squareBoard({
      label: `${game.title} board`,
      squareAt: kind.squareAt,
      place: kind.place,
      dark: (/** @type {number} */ row, /** @type {number} */ col) => (row + col) % 2 === 1,
      pieces: position.pieces,
      drawPiece: kind.drawPiece,
      coordinates: kind.coordinates,
      flipped,
      cursor,
      onCursor: (/** @type {string} */ words, /** @type {number[]} */ at) => {
        cursor = at;
        hear(words);
      },
      pieceWords: wordsOf,
      last: [],
      check: null,
      arrows: [],
      // Nothing is picked up: a click or Enter puts the chosen piece (below).
      mine: () => false,
      destinations: () => [],
      onPick: () => {},
      onMove: () => {},
    });
    root.setAttribute("aria-label", `${game.title} board being set up: arrow keys move over the squares, Enter puts the chosen piece on the square, or takes it off`);
    root.addEventListener("click", (event) => {
      const at = pointerAt(root, event);
      let [row, col] = [Math.floor(at.y), Math.floor(at.x)];
      if (row < 0 || row > 7 || col < 0 || col > 7) return;
      if (flipped) [row, col] = [7 - row, 7 - col];
      const square = kind.squareAt(row, col);
      if (square !== null) put(square);
    });
    root.addEventListener("keydown", (event) => {
      if (root.dataset.keyboard !== "1" || (event.key !== "Enter" && event.key !== " ")) return;
      const square = root.querySelector("[data-cursor]")?.getAttribute("data-cursor");
      if (square) put(square);
    });
    boardBox.replaceChildren(root);
    if (focused) root.focus();
  }

  /**
   * Put the chosen piece on a square; the eraser, or the same piece there, takes
   * the piece off.
   * @param {string} square
   */
  function put(square) {
    const letter = chosen();
    const there = position.pieces[square];
    if (!letter || there === letter) {
      delete position.pieces[square];
      hear(there ? `${wordsOf(there)} taken off ${square}` : `${square}: empty`);
    } else {
      position.pieces[square] = letter;
      hear(`${wordsOf(letter)} put on ${square}`);
    }
    changed();
  }

  /**
   * The position has changed: the board, the choices and the text follow it.
   * @param {{fromText?: boolean}} [how]  fromText: the text field changed it (its text stays as typed)
   */
  function changed({ fromText = false } = {}) {
    turnSelect.value = String(position.turn);
    if (game.name === "chess") {
      const possible = castlingPossible(position.pieces);
      for (const { right, input, label } of castlingBoxes) {
        label.hidden = !possible.includes(right.letter);
        input.checked = position.castling.has(right.letter);
      }
      noCastling.hidden = possible.length > 0;
      const squares = enPassantPossible(position);
      if (position.ep && !squares.includes(position.ep)) position.ep = null;
      epSelect.replaceChildren(
        h("option", { value: "" }, "none"),
        ...squares.map((square) => h("option", { value: square }, square)),
      );
      epSelect.value = position.ep || "";
      epSelect.disabled = !squares.length;
    }
    if (!fromText) {
      field.value = kind.write(position);
      field.removeAttribute("aria-invalid");
      fieldNote.className = "small";
      fieldNote.textContent = "";
    }
    playError.textContent = "";
    drawBoard();
  }

  field.addEventListener("input", () => {
    try {
      position = kind.read(field.value);
    } catch (error) {
      field.setAttribute("aria-invalid", "true");
      fieldNote.className = "small error";
      fieldNote.textContent = `The board cannot show this ${kind.textName}: ${error instanceof Error ? error.message : error}. It shows the last position that could be read.`;
      return;
    }
    field.removeAttribute("aria-invalid");
    fieldNote.className = "small";
    fieldNote.textContent = "";
    changed({ fromText: true });
  });
  // Done typing: a text read is written out as the board has it.
  const typed = () => {
    if (field.getAttribute("aria-invalid") !== "true") field.value = kind.write(position);
  };
  field.addEventListener("change", typed);
  field.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    typed();
  });
  turnSelect.addEventListener("change", () => {
    position.turn = Number(turnSelect.value);
    changed();
  });
  epSelect.addEventListener("change", () => {
    position.ep = epSelect.value || null;
    changed();
  });
  flipButton.addEventListener("click", () => {
    flipped = !flipped;
    flipButton.setAttribute("aria-pressed", String(flipped));
    drawBoard();
  });

  const tools = h("div", { class: "panel editor-tools" },
    palette,
    h("div", { class: "controls" },
      h("button", { type: "button", "data-testid": "editor-start", onclick: () => {
        position = kind.read(kind.start);
        hear("The starting position.");
        changed();
      } }, "Starting position"),
      h("button", { type: "button", "data-testid": "editor-clear", onclick: () => {
        position = { pieces: {}, turn: position.turn, castling: new Set(), ep: null, halfmove: 0, fullmove: 1 };
        hear("The board is empty.");
        changed();
      } }, "Clear board"),
      flipButton,
    ),
    h("label", { class: "editor-row", for: turnSelect.id }, "Side to move: ", turnSelect),
    chessOnly,
    h("label", { class: "editor-text-label", for: field.id }, `Position as ${kind.textName} (type or paste one here)`),
    field,
    fieldNote,
  );

  // Then the game: the opponent and the side, as on the home page's card.
  const { select: levelSelect, note: levelNote } = levelChoice(game, id("level"), "editor-level");
  const opponent = (/** @type {string} */ value, /** @type {any} */ label, /** @type {boolean} */ checked) =>
    h("label", { class: "choice" },
      h("input", { type: "radio", name: id("opponent"), value, checked, "data-testid": `editor-opponent-${value}` }),
      " ", label);
  const sideSelect = /** @type {HTMLSelectElement} */ (h("select", { name: "side", "data-testid": "editor-side" },
    game.side_names.map((/** @type {string} */ side, /** @type {number} */ i) => h("option", { value: String(i) }, side))));
  const playButton = /** @type {HTMLButtonElement} */ (h("button", { type: "submit", class: "primary", "data-testid": "editor-play" }, "Play from here"));
  const playError = h("p", { class: "error", role: "alert", "data-testid": "editor-error" });
  const form = h("form", { class: "card editor-play" },
    h("h2", {}, "Play from this position"),
    h("fieldset", {},
      h("legend", {}, "Opponent"),
      opponent("computer", h("span", {}, "The computer at ", levelSelect), true),
      levelNote,
      opponent("local", "A friend at this screen", false),
      opponent("friend", "A friend anywhere (send a link)", false),
    ),
    h("label", { class: "side" }, "Play as ", sideSelect),
    playButton,
    playError,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (playButton.disabled) return; // one game per click
    const checked = /** @type {HTMLInputElement} */ (form.querySelector(`input[name="${id("opponent")}"]:checked`));
    /** @type {Record<string, any>} */
    const body = { game: game.name, opponent: checked.value, side: Number(sideSelect.value), start: field.value.trim() };
    if (checked.value === "computer") body.level = levelSelect.value;
    playError.textContent = "";
    playButton.disabled = true;
    try {
      const made = await api("/api/games", { method: "POST", body });
      if (made.invite_url) store.setInvite(made.game.id, new URL(made.invite_url, location.origin).href);
      openGame(made.game.id, made.seats, game.title);
    } catch (error) {
      // The rules' refusal, on this page: the position stays to be mended.
      playError.textContent = error instanceof Error ? error.message : String(error);
    } finally {
      playButton.disabled = false;
    }
  });

  const page = h("section", { class: `editor ${game.name}`, "data-testid": "editor", "data-game": game.name },
    h("h1", {}, `Set up a ${game.title.toLowerCase()} position`),
    h("p", {}, "Choose a piece, then click the squares to put it there; click a square again, or use the eraser, to take it off. Then choose your opponent and play from here."),
    h("div", { class: "editor-layout" }, boardBox, h("div", { class: "editor-side" }, tools, form)),
    announcer,
  );
  changed();
  return page;
}
