// @ts-check
// The backgammon board: 24 points as triangles, checkers stacked on them (a number
// on the top checker when the stack is taller than five), the bar, the trays of
// checkers borne off, the dice and the cube. Points are numbered from the first
// side's point of view; the first side's home board is bottom right unless flipped.
//
// Entering a turn: click a checker to pick it up (its destinations are marked),
// then click a destination; clicking the picked-up checker again moves it by a
// die; a double-click moves it by both dice (or bears it off).

import { keyboardFocus, svg } from "../svg.js";

const W = 20; // a point's width
const H = 100; // a point's height
const R = 9.4; // a checker's radius
// Across the board, left to right: a thin frame, six points, the bar, six points, the
// trays. The frame and the trays are kept narrow so that on a phone, where the board
// spans the screen, the points are as wide as they can be (27 px wide on a screen 390 px wide).
const X0 = 3; // the left half's left edge
const HALF = 6 * W;
const BAR_X = X0 + HALF; // the bar's left edge
const BAR_W = 20;
const RIGHT_X = BAR_X + BAR_W; // the right half's left edge
const TRAY_X = RIGHT_X + HALF + 3;
const TRAY_W = 22;
const WIDTH = TRAY_X + TRAY_W + 3;
const BAR_MID = BAR_X + BAR_W / 2;

/** Where point p (1..24, first side's numbering) is drawn: [x of its left edge, top?]. */
/**
 * Where point ``p`` is drawn: its left edge, and whether it hangs from the top.
 * @param {number} p
 * @param {boolean} flipped
 * @returns {[number, boolean]}
 */
function spot(p, flipped) {
  const q = flipped ? 25 - p : p;
  if (q <= 12) {
    const k = q - 1;
    return [k < 6 ? RIGHT_X + HALF - W * (k + 1) : BAR_X - W * (k - 5), false];
  }
  const k = q - 13;
  return [k < 6 ? X0 + W * k : RIGHT_X + W * (k - 6), true];
}

function checker(x, y, side, label) {
  const group = svg("g", { class: side === 0 ? "checker first" : "checker second" });
  group.append(svg("circle", { cx: x, cy: y, r: R }));
  group.append(svg("circle", { cx: x, cy: y, r: R * 0.62, class: "inner" }));
  if (label) group.append(svg("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", class: "count" }, label));
  return group;
}

/** The checkers drawn on a stack, bottom first (what a play arriving there slides). */
function stack(group, x, baseY, down, count, side) {
  const shown = Math.min(count, 5);
  const drawn = [];
  for (let i = 0; i < shown; i++) {
    const label = i === shown - 1 && count > 5 ? String(count) : null;
    drawn.push(checker(x, stackY(baseY, down, i), side, label));
  }
  group.append(...drawn);
  return drawn;
}

/** The height of the ``i``th checker of a stack (the sixth and more sit on the fifth). */
function stackY(baseY, down, i) {
  const slot = Math.min(i, 4);
  return down ? baseY + R + slot * 2 * R : baseY - R - slot * 2 * R;
}

function die(x, y, value, used) {
  const group = svg("g", { class: used ? "die used" : "die", "data-die": value });
  group.append(svg("rect", { x, y, width: 18, height: 18, rx: 3 }));
  const spots = {
    1: [[9, 9]],
    2: [[4.5, 4.5], [13.5, 13.5]],
    3: [[4.5, 4.5], [9, 9], [13.5, 13.5]],
    4: [[4.5, 4.5], [13.5, 4.5], [4.5, 13.5], [13.5, 13.5]],
    5: [[4.5, 4.5], [13.5, 4.5], [9, 9], [4.5, 13.5], [13.5, 13.5]],
    6: [[4.5, 4], [13.5, 4], [4.5, 9], [13.5, 9], [4.5, 14], [13.5, 14]],
  }[value];
  for (const [dx, dy] of spots) group.append(svg("circle", { cx: x + dx, cy: y + dy, r: 1.8, class: "pip" }));
  return group;
}

/**
 * The points a play's text touches ("24/18 13/11", "bar/22*", "8/5(2)", written in
 * ``side``'s numbering) as [[point, "from" | "to"], ...] in the first side's.
 * @param {string} text
 * @param {number} side
 */
function playMarks(text, side) {
  const absolute = (/** @type {string} */ word) =>
    word === "bar" || word === "off" ? word : side === 0 ? Number(word) : 25 - Number(word);
  const marks = [];
  for (const token of text.split(" ")) {
    const hops = token.replace(/\(\d+\)$/, "").replaceAll("*", "").split("/");
    hops.forEach((hop, i) => marks.push([absolute(hop), i === 0 ? "from" : "to"]));
  }
  return marks;
}

/** The last checker play of the game (its move record), or undefined. */
function lastPlayEntry(game) {
  return [...game.moves].reverse().find((m) => m.side !== null && m.text.includes("/"));
}

/** The points of the last checker play, as :func:`playMarks` gives them. */
function lastPlay(game) {
  const entry = lastPlayEntry(game);
  return entry ? playMarks(entry.text, entry.side) : null;
}

/**
 * Slide the checkers of a play just made from where they left to where they stand
 * (from the bar too; not those borne off), unless the system asks for less motion.
 * The board is marked ``data-animated`` with the play.
 */
function slidePlay(game, ctx, root, layout, onPoint, flipped) {
  const entry = lastPlayEntry(game);
  if (!entry || entry.version <= ctx.animateAfter) return; // a roll, not a play, is new
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const absolute = (/** @type {string} */ word) =>
    word === "bar" || word === "off" ? word : entry.side === 0 ? Number(word) : 25 - Number(word);
  const elapsed = performance.now() - ctx.animate;
  const duration = 320;
  if (elapsed >= duration) return;
  const taken = new Map(); // checkers of a point already slid (two arriving, say)
  for (const token of entry.text.split(" ")) {
    const times = Number((token.match(/\((\d+)\)$/) || [0, 1])[1]);
    const hops = token.replace(/\(\d+\)$/, "").replaceAll("*", "").split("/").map(absolute);
    const [from, to] = [hops[0], hops[hops.length - 1]];
    if (to === "off" || typeof to !== "number") continue;
    const arrived = onPoint.get(to) || [];
    for (let n = 0; n < times; n++) {
      const index = arrived.length - 1 - (taken.get(to) || 0) - n;
      const node = arrived[index];
      if (!node || typeof node.animate !== "function") continue;
      const circle = node.querySelector("circle");
      const [ex, ey] = [Number(circle?.getAttribute("cx")), Number(circle?.getAttribute("cy"))];
      let sx = BAR_MID;
      let sy = 125; // from the bar
      if (typeof from === "number") {
        const [x, top] = spot(from, flipped);
        sx = x + W / 2;
        sy = stackY(top ? 10 : 240, top, Math.abs(layout.points[from - 1]) + n);
      }
      node.animate([{ transform: `translate(${sx - ex}px, ${sy - ey}px)` }, { transform: "translate(0px, 0px)" }],
        { duration, delay: -elapsed, easing: "ease-out" });
    }
    taken.set(to, (taken.get(to) || 0) + times);
  }
  root.dataset.animated = entry.text;
}

export function renderBackgammon(game, ctx) {
  const board = game.board;
  const layout = ctx.turn || board;
  const flipped = ctx.flipped;
  const options = ctx.turn ? ctx.turn.options : [];
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} 250`, class: "board backgammon", role: "application",
    "aria-label": "backgammon board: arrow keys move along the points, Enter picks up and puts down, Shift+Enter moves by both dice" });
  root.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: 250, rx: 4, class: "frame" }));
  root.append(svg("rect", { x: X0, y: 10, width: HALF, height: 230, class: "felt" }));
  root.append(svg("rect", { x: RIGHT_X, y: 10, width: HALF, height: 230, class: "felt" }));
  root.append(svg("rect", { x: BAR_X, y: 10, width: BAR_W, height: 230, class: "bar", "data-point": "bar" }));
  const bottomSide = flipped ? 1 : 0;
  // Whose numbering the points are labelled in: the player's own (the side at the
  // bottom), or at one screen the side to play's, as its moves are written.
  const numbering = typeof ctx.numbering === "number" ? ctx.numbering : bottomSide;
  const trays = svg("g", { class: "trays" });
  trays.append(svg("rect", { x: TRAY_X, y: 10, width: TRAY_W, height: 100, class: "tray", "data-point": "off", "data-tray": 1 - bottomSide }));
  trays.append(svg("rect", { x: TRAY_X, y: 140, width: TRAY_W, height: 100, class: "tray", "data-point": "off", "data-tray": bottomSide }));
  root.append(trays);

  const points = svg("g", { class: "points" });
  const pieces = svg("g", { class: "checkers" });
  /** @type {Map<number, SVGElement[]>} the checkers drawn on each point */
  const onPoint = new Map();
  const marks = svg("g", { class: "marks" });
  for (let p = 1; p <= 24; p++) {
    const [x, top] = spot(p, flipped);
    const tip = top ? 10 + H : 240 - H;
    const base = top ? 10 : 240;
    points.append(
      svg("polygon", {
        points: `${x},${base} ${x + W},${base} ${x + W / 2},${tip}`,
        class: p % 2 === 0 ? "point even" : "point odd",
      }),
    );
    points.append(
      svg("text", { x: x + W / 2, y: top ? 7.5 : 247.5, "text-anchor": "middle", class: "point-number" }, String(numbering === 1 ? 25 - p : p)),
    );
    const count = layout.points[p - 1];
    if (count !== 0) onPoint.set(p, stack(pieces, x + W / 2, base, top, Math.abs(count), count > 0 ? 0 : 1));
    marks.append(
      svg("rect", { x, y: top ? 10 : 240 - H - 10, width: W, height: H + 10, class: "hit-area", "data-point": p, "data-count": count }),
    );
  }
  root.append(points, pieces);
  marks.append(svg("rect", { x: BAR_X, y: 10, width: BAR_W, height: 230, class: "hit-area", "data-point": "bar" }));
  marks.append(svg("rect", { x: TRAY_X, y: 10, width: TRAY_W, height: 230, class: "hit-area", "data-point": "off" }));

  // The bar: the bottom player's checkers above the middle (they enter at the top).
  for (const side of [0, 1]) {
    const n = layout.bar[side];
    if (!n) continue;
    const up = side === bottomSide;
    stack(pieces, BAR_MID, up ? 120 : 130, !up, n, side);
  }
  // Checkers borne off, as slabs in each player's tray.
  for (const side of [0, 1]) {
    const n = layout.off[side];
    const bottom = side === bottomSide;
    for (let i = 0; i < n; i++) {
      const y = bottom ? 236 - i * 6.4 : 10 + i * 6.4;
      pieces.append(svg("rect", { x: TRAY_X + 2, y, width: TRAY_W - 4, height: 5.4, rx: 1.5, class: side === 0 ? "slab first" : "slab second" }));
    }
    if (n) pieces.append(svg("text", { x: TRAY_X + TRAY_W / 2, y: bottom ? 132 : 123, "text-anchor": "middle", class: "off-count" }, `${n} off`));
  }

  // The cube: in the middle of the bar when centred, else by its owner.
  const cube = board.cube;
  let cubeY = 116;
  if (cube.owner !== null) cubeY = cube.owner === bottomSide ? 210 : 22;
  const cubeX = BAR_X + 1;
  if (!(cube.owner === null && (layout.bar[0] || layout.bar[1]))) {
    root.append(
      svg("g", { class: "cube", "data-cube": cube.value },
        svg("rect", { x: cubeX, y: cubeY, width: 18, height: 18, rx: 2 }),
        // A long number (a cube of 32768 where there is no limit) is squeezed to fit.
        svg("text", { x: cubeX + 9, y: cubeY + 9.5, "text-anchor": "middle", "dominant-baseline": "central",
          ...(String(cube.value).length > 3 ? { textLength: 15, lengthAdjust: "spacingAndGlyphs" } : {}) },
        String(cube.value === 1 ? 64 : cube.value)),
      ),
    );
  }

  // The dice, on the mover's half of the board.
  // A double is four dice; the dice the checkers moved so far have used are greyed.
  if (board.dice) {
    const [a, b] = board.dice;
    const all = a === b ? [a, a, a, a] : [a, b];
    const left = [...(ctx.turn && ctx.turn.dice_left ? ctx.turn.dice_left : all)];
    const width = all.length * 24 - 6;
    const x0 = (board.mover === 0 ? RIGHT_X : X0) + HALF / 2 - width / 2;
    all.forEach((value, i) => {
      const at = left.indexOf(value);
      if (at >= 0) left.splice(at, 1);
      root.append(die(x0 + 24 * i, 116, value, at < 0));
    });
  }

  // The last play stays marked: where its checkers left from and arrived. While a
  // turn is being entered, its own steps are marked instead, in another colour, so
  // that one's own unconfirmed moves are not taken for the opponent's.
  const steps = ctx.steps || [];
  const own = steps.length ? playMarks(steps.join(" "), board.mover) : [];
  const last = own.length ? own : lastPlay(game);
  if (last) {
    for (const [where, kind] of last) {
      if (where === "bar" || where === "off") continue;
      const [x, top] = spot(where, flipped);
      const y = top ? 10 : 240 - H;
      const name = own.length ? `step-${kind}` : `last-${kind}`;
      const mark = svg("rect", { x: x + 1, y, width: W - 2, height: H, rx: 2, class: name, "data-last": where });
      root.insertBefore(mark, pieces);
    }
  }

  if (ctx.animate !== null && ctx.animate !== undefined && !steps.length) slidePlay(game, ctx, root, layout, onPoint, flipped);

  root.append(marks);
  const highlight = svg("g", { class: "hints" });
  root.append(highlight);

  const fromOf = (o) => String(o.from);
  const sources = new Set(options.map(fromOf));
  let selected = null;

  function area(where) {
    if (where === "bar") {
      const side = board.mover;
      const up = side === bottomSide;
      return { x: BAR_X, y: up ? 70 : 130, width: BAR_W, height: 50 };
    }
    if (where === "off") {
      const bottom = board.mover === bottomSide;
      return { x: TRAY_X, y: bottom ? 140 : 10, width: TRAY_W, height: 100 };
    }
    const [x, top] = spot(Number(where), flipped);
    return { x, y: top ? 10 : 140, width: W, height: H };
  }

  function mark() {
    highlight.replaceChildren();
    for (const s of sources) {
      highlight.append(svg("rect", { ...area(s), class: s === selected ? "source selected" : "source" }));
    }
    if (selected === null) return;
    for (const option of options.filter((o) => fromOf(o) === selected)) {
      highlight.append(svg("rect", { ...area(String(option.to)), class: "dest-area", "data-dest": option.to }));
    }
  }
  mark();

  function whereClicked(event) {
    const target = event.target.closest("[data-point]");
    if (target) return target.getAttribute("data-point");
    const dest = event.target.closest("[data-dest]");
    return dest ? dest.getAttribute("data-dest") : null;
  }

  let clickTimer = null;
  root.addEventListener("click", (event) => {
    if (!ctx.turn) return;
    const where = whereClicked(event);
    if (where === null) return;
    if (clickTimer) clearTimeout(clickTimer);
    // Wait a moment: a second click makes a double-click (both dice).
    clickTimer = setTimeout(() => {
      clickTimer = null;
      single(where);
    }, event.detail >= 2 ? 0 : 220);
    if (event.detail >= 2) {
      clearTimeout(clickTimer);
      clickTimer = null;
    }
  });
  // A checker moved by both dice at once (a double-click, or Shift+Enter).
  function bySum(where) {
    if (!ctx.turn || where === null || !sources.has(where)) return;
    selected = null;
    ctx.moveBySum(where);
  }
  root.addEventListener("dblclick", (event) => bySum(whereClicked(event)));

  // A point of the first side's numbering in the mover's own, as move text has it.
  function moverPoint(where) {
    if (where === "bar" || where === "off") return where;
    return board.mover === 0 ? where : String(25 - Number(where));
  }

  function single(where) {
    if (selected !== null && where !== selected) {
      const from = selected;
      const option = options.find((o) => fromOf(o) === selected && String(o.to) === where);
      selected = null;
      mark();
      // Not offered: the server says which rule forbids it.
      ctx.step(option ? option.text : `${moverPoint(from)}/${moverPoint(where)}`);
      return;
    }
    if (selected !== null && where === selected) {
      // The picked-up checker clicked again: move it by a die (the higher first).
      const option = options.find((o) => fromOf(o) === where);
      selected = null;
      mark();
      if (option) ctx.step(option.text);
      return;
    }
    if (sources.has(where)) {
      const targets = new Set(options.filter((o) => fromOf(o) === where).map((o) => String(o.to)));
      if (targets.size === 1) {
        ctx.step(options.find((o) => fromOf(o) === where).text);
        return;
      }
      selected = where;
      mark();
      ctx.say("");
      return;
    }
    ctx.explainPoint(where);
  }

  // The keyboard: a cursor along the bar, the points in the mover's direction (its
  // 24 down to its 1) and the tray; Enter is a click there, Shift+Enter a double-click.
  const byKeyboard = keyboardFocus(root);
  const places = ["bar", ...Array.from({ length: 24 }, (_, i) => moverPoint(String(24 - i))), "off"];
  let cursor = typeof ctx.cursor === "string" && places.includes(ctx.cursor) ? ctx.cursor : places[1];
  const cursorMark = svg("rect", { class: "cursor", "data-cursor": cursor });
  root.append(cursorMark);
  function showCursor() {
    const box = area(cursor);
    for (const [name, value] of Object.entries(box)) cursorMark.setAttribute(name, String(value));
    cursorMark.setAttribute("data-cursor", cursor);
  }
  showCursor();
  function placeWords(where) {
    const names = game.side_names;
    const tell = (count, side) => `${count} ${names[side]} checker${count === 1 ? "" : "s"}`;
    if (where === "bar" || where === "off") {
      const counts = layout[where];
      const held = [0, 1].filter((side) => counts[side]).map((side) => tell(counts[side], side));
      return `${where === "bar" ? "the bar" : "borne off"}: ${held.join(", ") || "empty"}`;
    }
    const count = layout.points[Number(where) - 1];
    return `point ${moverPoint(where)}: ${count ? tell(Math.abs(count), count > 0 ? 0 : 1) : "empty"}`;
  }
  root.addEventListener("keydown", (event) => {
    if (!byKeyboard()) return;
    const forward = event.key === "ArrowRight" || event.key === "ArrowDown";
    if (forward || event.key === "ArrowLeft" || event.key === "ArrowUp") {
      const at = places.indexOf(cursor) + (forward ? 1 : -1);
      cursor = places[Math.max(0, Math.min(places.length - 1, at))];
      showCursor();
      if (ctx.onCursor) ctx.onCursor(placeWords(cursor), cursor);
    } else if (event.key === "Enter" && event.shiftKey && ctx.turn && sources.has(cursor)) {
      bySum(cursor);
    } else if ((event.key === "Enter" || event.key === " ") && ctx.turn) {
      single(cursor);
    } else if (event.key === "Escape" && selected !== null) {
      selected = null;
      mark();
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });
  return root;
}
