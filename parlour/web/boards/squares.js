// @ts-check
// A board of squares (chess and checkers share it): draws the squares, the pieces
// and the marks, and turns clicks, drags and keys into "from -> to" attempts.

import { keyboardFocus, svg, pointerAt } from "../svg.js";

/**
 * options: {
 *   squareAt(row, col) -> name or null,   place(name) -> [row, col]   (unflipped)
 *   dark(row, col) -> bool, pieces: {name: letter}, drawPiece(letter) -> SVG group,
 *   mine(letter) -> bool (may be picked up now), destinations(name) -> [names],
 *   onPick(name) (a piece picked up), onMove(from, to),
 *   last: [names], check: name or null, flipped, labels: bool,
 *   arrows: [[from, to]] (a move to point out: the coach's better move),
 *   cursor: [row, col] on screen (the keyboard's square), pieceWords(letter) -> words,
 *   onCursor(words, [row, col]) (the cursor moved: what is under it, to be said),
 *   animate: [names] (the squares of a move just made: its piece slides along them),
 *   animateSince: when the slide began (performance.now(): a redraw carries it on),
 *   onDragged() (a piece was dragged to its move: it is there already, not slid)
 * }
 */
export function squareBoard(options) {
  const root = svg("svg", {
    viewBox: "0 0 8 8",
    class: "board squares",
    role: "application",
    "aria-label": `${options.label || "board"}: arrow keys move over the squares, Enter picks up and puts down`,
  });
  const where = (name) => {
    const [row, col] = options.place(name);
    return options.flipped ? [7 - row, 7 - col] : [row, col];
  };
  const nameAt = (x, y) => {
    let row = Math.floor(y);
    let col = Math.floor(x);
    if (row < 0 || row > 7 || col < 0 || col > 7) return null;
    if (options.flipped) [row, col] = [7 - row, 7 - col];
    return options.squareAt(row, col);
  };
  const squares = svg("g");
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const [r, c] = options.flipped ? [7 - row, 7 - col] : [row, col];
      const name = options.squareAt(r, c);
      squares.append(
        svg("rect", {
          x: col, y: row, width: 1, height: 1,
          class: options.dark(r, c) ? "sq dark" : "sq light",
          "data-square": name,
        }),
      );
    }
  }
  root.append(squares);
  if (options.coordinates) root.append(options.coordinates(options.flipped));
  const marks = svg("g", { class: "marks" });
  root.append(marks);
  for (const name of options.last || []) {
    const [row, col] = where(name);
    marks.append(svg("rect", { x: col, y: row, width: 1, height: 1, class: "last-move" }));
  }
  if (options.check) {
    const [row, col] = where(options.check);
    marks.append(
      svg("circle", { cx: col + 0.5, cy: row + 0.5, r: 0.48, class: "in-check", "data-check": options.check }),
    );
  }
  const pieceLayer = svg("g", { class: "pieces" });
  root.append(pieceLayer);
  /** @type {Record<string, SVGElement>} */
  const pieceNodes = {};
  for (const [name, letter] of Object.entries(options.pieces)) {
    const [row, col] = where(name);
    const node = svg(
      "g",
      { transform: `translate(${col} ${row})`, class: "piece", "data-piece": letter, "data-on": name },
      options.drawPiece(letter),
    );
    pieceNodes[name] = node;
    pieceLayer.append(node);
  }
  slide(options.animate, options.animateSince, pieceNodes, where, root);
  // Arrows over the pieces, as analysis boards draw them (clicks go through).
  const arrows = svg("g", { class: "arrows" });
  for (const [from, to] of options.arrows || []) arrows.append(arrow(where(from), where(to)));
  root.append(arrows);
  const hints = svg("g", { class: "hints" });
  root.append(hints);

  let selected = null;
  let drag = null;
  // The keyboard's square, in screen rows and columns (drawn while the board has the focus).
  let cursor = options.cursor || [7, 0];
  const cursorMark = svg("rect", { width: 1, height: 1, class: "cursor", "data-cursor": "" });
  root.append(cursorMark);

  function showDestinations(name) {
    hints.replaceChildren();
    if (!name) return;
    const [row, col] = where(name);
    hints.append(svg("rect", { x: col, y: row, width: 1, height: 1, class: "selected" }));
    for (const target of options.destinations(name)) {
      const [r, c] = where(target);
      const taken = options.pieces[target] !== undefined;
      hints.append(
        taken
          ? svg("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.46, class: "dest capture", "data-dest": target })
          : svg("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.16, class: "dest", "data-dest": target }),
      );
    }
  }

  function select(name) {
    selected = name;
    showDestinations(name);
    if (options.onSelect) options.onSelect(name);
  }
  if (options.selected && options.pieces[options.selected] && options.mine(options.pieces[options.selected])) {
    select(options.selected);
  }

  // A press on a square, by pointer or key: put down the piece picked up, or pick
  // up one's own piece there (true: a pointer may now drag it).
  function press(name) {
    const letter = options.pieces[name];
    if (selected && name !== selected && !(letter && options.mine(letter))) {
      const from = selected;
      select(null);
      options.onMove(from, name);
      return false;
    }
    if (letter && options.mine(letter)) {
      select(name);
      options.onPick(name);
      return true;
    }
    if (letter) options.onPick(name);
    return false;
  }

  const byKeyboard = keyboardFocus(root);
  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const at = pointerAt(root, event);
    const name = nameAt(at.x, at.y);
    if (name === null) return;
    if (press(name)) {
      event.preventDefault();
      drag = { from: name, node: pieceNodes[name], moved: false, x: at.x, y: at.y };
      root.setPointerCapture(event.pointerId);
    }
  });

  const underCursor = () => nameAt(cursor[1] + 0.5, cursor[0] + 0.5);
  function showCursor() {
    cursorMark.setAttribute("x", String(cursor[1]));
    cursorMark.setAttribute("y", String(cursor[0]));
    cursorMark.dataset.cursor = underCursor() || "";
  }
  showCursor();
  const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  root.addEventListener("keydown", (event) => {
    if (!byKeyboard()) return;
    const delta = STEPS[event.key];
    const name = underCursor();
    if (delta) {
      cursor = [Math.max(0, Math.min(7, cursor[0] + delta[0])), Math.max(0, Math.min(7, cursor[1] + delta[1]))];
      showCursor();
      const there = underCursor();
      const letter = there && options.pieces[there];
      const words = there === null ? "a light square" : `${there}: ${letter ? options.pieceWords(letter) : "empty"}`;
      if (options.onCursor) options.onCursor(words, cursor);
    } else if ((event.key === "Enter" || event.key === " ") && name !== null) {
      press(name);
    } else if (event.key === "Escape" && selected) {
      select(null);
    } else {
      return;
    }
    // The board's keys are the board's: not the page's (whose arrows look back).
    event.preventDefault();
    event.stopPropagation();
  });
  root.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const at = pointerAt(root, event);
    if (!drag.moved && Math.hypot(at.x - drag.x, at.y - drag.y) < 0.2) return;
    drag.moved = true;
    drag.node.classList.add("dragging");
    drag.node.setAttribute("transform", `translate(${at.x - 0.5} ${at.y - 0.5})`);
  });
  const drop = (event) => {
    if (!drag) return;
    const current = drag;
    drag = null;
    if (!current.moved) return;
    const at = pointerAt(root, event);
    const target = nameAt(at.x, at.y);
    const [row, col] = where(current.from);
    current.node.classList.remove("dragging");
    current.node.setAttribute("transform", `translate(${col} ${row})`);
    if (target && target !== current.from) {
      select(null);
      if (options.onDragged) options.onDragged();
      options.onMove(current.from, target);
    }
  };
  root.addEventListener("pointerup", drop);
  root.addEventListener("pointercancel", () => {
    drag = null;
  });
  return root;
}

/**
 * Slide the piece that has just arrived on the last of ``path`` along the path's
 * squares (a multi-jump's landings too), as a move is shown on lichess; nothing
 * for those who ask their system for less motion. The board is marked
 * ``data-animated`` with the path.
 * @param {(string | number)[] | null | undefined} path
 * @param {number} since
 * @param {Record<string, SVGElement>} pieceNodes
 * @param {(name: string) => number[]} where
 * @param {SVGElement} root
 */
function slide(path, since, pieceNodes, where, root) {
  if (!path || path.length < 2 || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const squares = path.map(String);
  const node = pieceNodes[squares[squares.length - 1]];
  if (!node || typeof node.animate !== "function") return;
  // CSS lengths on an SVG element are in its user units: one square is 1px here.
  const frames = squares.map((name) => {
    const [row, col] = where(name);
    return { transform: `translate(${col}px, ${row}px)` };
  });
  const duration = 120 + 150 * (squares.length - 1);
  const elapsed = performance.now() - since;
  if (elapsed >= duration) return;
  node.animate(frames, { duration, delay: -elapsed, easing: "ease-out" });
  root.dataset.animated = squares.join("-");
}

/**
 * An arrow from the centre of one square to the next, as analysis boards draw the
 * better move: a shaft and a head, in board units.
 * @param {number[]} start  [row, col]
 * @param {number[]} end  [row, col]
 */
function arrow(start, end) {
  const [x1, y1] = [start[1] + 0.5, start[0] + 0.5];
  const [x2, y2] = [end[1] + 0.5, end[0] + 0.5];
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  const head = 0.38;
  const [bx, by] = [x2 - ux * head, y2 - uy * head];
  const [px, py] = [-uy * 0.22, ux * 0.22];
  return svg("g", { class: "arrow", "data-arrow": "1" },
    svg("line", { x1, y1, x2: bx, y2: by }),
    svg("polygon", { points: `${x2},${y2} ${bx + px},${by + py} ${bx - px},${by - py}` }),
  );
}
