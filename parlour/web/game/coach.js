// @ts-check
// The coach on the game page: once a game is over (at one screen: at any time),
// "Analyse" asks the server's coach to judge every move; its findings come in while
// it works (a progress bar, the judged moves marked in the list), then the
// evaluation graph (a click goes to that position) and each side's summary. Looking
// back at a judged move says what was better. The server decides every judgement;
// the page only shows them.

import { api } from "../api.js";
import { h } from "../dom.js";
import { svg } from "../svg.js";
import { review } from "./review.js";

/** @typedef {import("./page.js").GamePage} GamePage */

/**
 * @typedef {object} JudgedMove  One decision as the coach judged it.
 * @property {number} ply
 * @property {number} side
 * @property {string} kind
 * @property {string} move
 * @property {string} best
 * @property {number} loss
 * @property {string | null} judgement
 * @property {string[]} best_line
 */

/**
 * @typedef {object} Analysis  The coach's state for the game in play, from the server.
 * @property {string} status  "none", "running", "done" or "failed"
 * @property {number} [done]
 * @property {number} [total]
 * @property {JudgedMove[]} [moves]
 * @property {any} [review]
 * @property {string | null} [error]
 */

/** The annotation glyph of each judgement, as players write it. */
const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??", doubtful: "?!", bad: "?", "very bad": "??" };

/** @type {Record<string, string>} */
const PLURALS = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };

/** How often a running analysis is asked for its findings (ms). */
const POLL_MS = 700;

/** How grave each judgement is: the tutor's thresholds compare by this. */
const SEVERITY = { inaccuracy: 1, doubtful: 1, mistake: 2, bad: 2, blunder: 3, "very bad": 3 };

/**
 * @param {string | null | undefined} judgement
 * @returns {number}
 */
function severity(judgement) {
  return judgement ? SEVERITY[/** @type {keyof typeof SEVERITY} */ (judgement)] || 0 : 0;
}

/**
 * The tutor: before ``move`` is played, ask the coach how good it is; at or past
 * the game's threshold, say so and let the player choose. Resolves true to play
 * the move. Without a tutor, or where the coach cannot judge, the move is played.
 * @param {GamePage} page
 * @param {string} move
 * @returns {Promise<boolean>}
 */
export async function tutorAllows(page, move) {
  if (!page.tutor || page.state.game.outcome) return true;
  let judged;
  try {
    const turn = page.state.game.turn;
    const token = typeof turn === "number" ? page.tokenFor(turn) : undefined;
    judged = await api(`/api/games/${page.gameId}/judge`, { method: "POST", body: { version: page.state.game.version, move }, token });
  } catch {
    return true; // the rules will explain an illegal move; a busy coach does not stop play
  }
  if (severity(judged.judgement) < severity(page.tutor)) return true;
  for (;;) {
    const answer = await page.ask(
      `The tutor: ${judged.move} looks like a ${judged.judgement}.`,
      [
        { label: "Play anyway", value: "play", testid: "tutor-play" },
        { label: "Think again", value: "think", testid: "tutor-think" },
        { label: "Show the hint", value: "hint", testid: "tutor-hint" },
      ],
    );
    if (answer === "play") return true;
    if (answer === "think") {
      page.say("");
      return false;
    }
    page.say(`The tutor suggests ${judged.best}${judged.best_line.length > 1 ? ` (${judged.best_line.join(" ")})` : ""}.`, "hint");
  }
}

/**
 * The symbol of a judgement ("" for none).
 * @param {string | null} judgement
 */
export function symbolOf(judgement) {
  return judgement ? SYMBOLS[/** @type {keyof typeof SYMBOLS} */ (judgement)] || "" : "";
}

/**
 * The judged moves by the version of the position after them (the move list's cells).
 * @param {GamePage} page
 * @returns {Map<number, JudgedMove>}
 */
export function marksOf(page) {
  const analysis = page.state.coach;
  /** @type {Map<number, JudgedMove>} */
  const marks = new Map();
  if (!analysis || !analysis.moves) return marks;
  const record = page.state.game.moves;
  for (const move of analysis.moves) {
    const entry = record[move.ply - 1];
    if (entry) marks.set(entry.version, move);
  }
  return marks;
}

/**
 * Whether the coach may analyse the game now: once it is over, or at any time when
 * both seats are one person's (a game at one screen, or imported from a file);
 * during a game between others the analysis would be help.
 * @param {import("../types.js").Game} game
 */
export function analysable(game) {
  return Boolean(game.outcome) || (game.options.opponent === "local" && game.moves.length > 0);
}

/**
 * Ask what the coach has of this game (a finished game may have been analysed
 * before); keep asking while it works.
 * @param {GamePage} page
 */
export async function loadAnalysis(page) {
  if (!analysable(page.state.game)) return;
  try {
    page.state.coach = await api(`/api/games/${page.gameId}/analysis`);
  } catch {
    page.state.coach = null;
    return;
  }
  page.draw();
  if (page.state.coach && page.state.coach.status === "running") follow(page);
}

/**
 * Begin the analysis.
 * @param {GamePage} page
 */
async function analyse(page) {
  try {
    page.state.coach = await api(`/api/games/${page.gameId}/analysis`, { method: "POST", body: {} });
    page.say("");
  } catch (error) {
    page.say(error instanceof Error ? error.message : String(error), "error");
    return;
  }
  page.draw();
  follow(page);
}

/**
 * Poll a running analysis until it ends, drawing what comes in.
 * @param {GamePage} page
 */
function follow(page) {
  const gameId = page.gameId;
  const tick = async () => {
    if (page.gameId !== gameId || !page.state.coach || page.state.coach.status !== "running") return;
    try {
      page.state.coach = await api(`/api/games/${gameId}/analysis`);
    } catch (error) {
      page.say(error instanceof Error ? error.message : String(error), "error");
      return;
    }
    page.draw();
    if (page.state.coach && page.state.coach.status === "running") setTimeout(tick, POLL_MS);
  };
  setTimeout(tick, POLL_MS);
}

/**
 * The coach's part of the panel.
 * @param {GamePage} page
 * @param {HTMLElement} box
 */
export function drawCoach(page, box) {
  const { game, coach } = page.state;
  box.hidden = !analysable(game);
  if (box.hidden) return;
  if (!coach || coach.status === "none" || coach.status === "failed") {
    const label = game.outcome ? "Analyse" : "Analyse the game so far";
    const button = h("button", { type: "button", "data-testid": "analyse", onclick: () => analyse(page) }, label);
    if (coach && coach.error) box.replaceChildren(button, h("p", { class: "error" }, coach.error));
    else box.replaceChildren(button);
    return;
  }
  if (coach.status === "running") {
    const done = coach.done || 0;
    const total = coach.total || 0;
    box.replaceChildren(
      h("p", {}, `Analysing… ${done} of ${total} positions`),
      h("progress", { "data-testid": "analysis-progress", value: String(done), max: String(Math.max(total, 1)) }),
    );
    return;
  }
  const result = coach.review;
  box.replaceChildren(
    h("h2", {}, "Analysis"),
    graph(page, result),
    ...summaryLines(result),
    page.state.lesson ? lessonPart(page) : note(page),
    lessonButton(page),
  );
}

/**
 * The mistakes (or worse) of the sides this browser played, oldest first.
 * @param {GamePage} page
 * @returns {JudgedMove[]}
 */
function ownMistakes(page) {
  const moves = (page.state.coach && page.state.coach.moves) || [];
  return moves.filter((m) => severity(m.judgement) >= 2 && page.mySides.includes(m.side));
}

/**
 * "Learn from your mistakes": a button to begin, or to stop.
 * @param {GamePage} page
 */
function lessonButton(page) {
  const mistakes = ownMistakes(page);
  if (!mistakes.length) return h("p", { class: "small" }, page.mySides.length ? "No mistakes of yours to learn from." : "");
  if (page.state.lesson) {
    return h("button", { type: "button", class: "secondary", "data-testid": "lesson-stop", onclick: () => { page.state.lesson = null; review(page, null); } }, "Stop the lesson");
  }
  return h("button", { type: "button", "data-testid": "lesson-start", onclick: () => showMistake(page, 0) },
    `Learn from your mistakes (${mistakes.length})`);
}

/**
 * Go to the position before mistake number ``index`` and ask for a better move.
 * @param {GamePage} page
 * @param {number} index
 */
async function showMistake(page, index) {
  const mistakes = ownMistakes(page);
  if (index >= mistakes.length) {
    page.state.lesson = null;
    page.say("That was your last mistake of this game.", "hint");
    await review(page, null);
    return;
  }
  const mistake = mistakes[index];
  const entry = page.state.game.moves[mistake.ply - 1];
  page.state.lesson = { index, mistake, before: entry.version - 1, answer: null };
  await review(page, entry.version - 1);
}

/**
 * The lesson's part of the panel: the mistake, a field for a better move, and
 * what the coach thought of the last answer.
 * @param {GamePage} page
 */
function lessonPart(page) {
  const lesson = page.state.lesson;
  const mistake = /** @type {JudgedMove} */ (lesson.mistake);
  const field = /** @type {HTMLInputElement} */ (h("input", { type: "text", "data-testid": "lesson-move", placeholder: "a better move", autocomplete: "off" }));
  const tryIt = async () => {
    const move = field.value.trim();
    if (!move) return;
    try {
      const judged = await api(`/api/games/${page.gameId}/judge`, { method: "POST", body: { version: lesson.before, move } });
      lesson.answer = judged.judgement
        ? { good: false, text: `${judged.move} is still a ${judged.judgement}: try again.` }
        : { good: true, text: `${judged.move}: good — that holds (best: ${judged.best}).` };
    } catch (error) {
      lesson.answer = { good: false, text: error instanceof Error ? error.message : String(error) };
    }
    page.draw();
  };
  field.addEventListener("keydown", (event) => { if (event.key === "Enter") tryIt(); });
  const answer = lesson.answer;
  return h("div", { class: "lesson", "data-testid": "lesson" },
    h("p", {}, `You played ${mistake.move}${symbolOf(mistake.judgement)} here. Find a better move.`),
    h("div", { class: "lesson-row" },
      field,
      h("button", { type: "button", "data-testid": "lesson-try", onclick: tryIt }, "Try"),
      h("button", { type: "button", class: "secondary", "data-testid": "lesson-show", onclick: () => {
        lesson.answer = { good: false, text: `The coach's move: ${mistake.best_line.join(" ")}.` };
        page.state.arrow = { version: lesson.before, text: mistake.best };
        page.draw();
      } }, "Show the answer"),
      h("button", { type: "button", class: "secondary", "data-testid": "lesson-next", onclick: () => showMistake(page, lesson.index + 1) }, "Next"),
    ),
    answer ? h("p", { "data-testid": "lesson-answer", class: answer.good ? "good" : "error" }, answer.text) : null,
  );
}

/**
 * The evaluation graph: the first side's winning chances (or equity) after each
 * move, each point a way to that position.
 * @param {GamePage} page
 * @param {any} result
 */
function graph(page, result) {
  const curve = /** @type {number[]} */ (result.curve);
  const equity = result.judged_by === "equity";
  const width = 300;
  const height = 80;
  const top = equity ? 3 : 1;
  const x = (/** @type {number} */ i) => (curve.length > 1 ? (i * width) / (curve.length - 1) : 0);
  const y = (/** @type {number} */ v) => height / 2 - (Math.max(-top, Math.min(top, v)) * (height / 2)) / top;
  const points = curve.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const marks = marksOf(page);
  const record = page.state.game.moves;
  const dots = curve.slice(1).map((v, i) => {
    const entry = record[i];
    const judged = entry ? marks.get(entry.version) : undefined;
    const cls = judged && judged.judgement ? `dot ${judged.judgement.replace(" ", "-")}` : "dot";
    return svg("circle", {
      class: cls, cx: x(i + 1), cy: y(v), r: judged && judged.judgement ? 3.5 : 2.5,
      "data-ply": i + 1,
    });
  });
  // As lichess draws it: the first side's share in white, rising with its chances.
  const area = `0,${height} ${points} ${width},${height}`;
  const chart = svg("svg", { class: "eval-graph", viewBox: `0 0 ${width} ${height}`, "data-testid": "eval-graph", role: "img", "aria-label": "the evaluation after each move" },
    svg("rect", { class: "advantage-second", x: 0, y: 0, width, height }),
    svg("polygon", { class: "advantage-first", points: area }),
    svg("line", { class: "even", x1: 0, y1: height / 2, x2: width, y2: height / 2 }),
    svg("polyline", { class: "curve", points }),
    ...dots,
  );
  chart.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    const ply = Number(target.getAttribute("data-ply"));
    const entry = ply ? record[ply - 1] : undefined;
    if (entry) review(page, entry.version);
  });
  return chart;
}

/**
 * Each side's summary: accuracy or error rate, and the count of each judgement.
 * @param {any} result
 */
function summaryLines(result) {
  return Object.entries(result.summary).map(([sideName, s]) => {
    const counts = Object.entries(s.counts).map(([word, n]) => `${n} ${n === 1 ? word : PLURALS[word] || word}`).join(", ");
    const score = s.accuracy !== null && s.accuracy !== undefined
      ? `accuracy ${Math.round(s.accuracy)} %`
      : `error rate ${s.error_rate.toFixed(1)} (${s.rating})`;
    // A player's own name (an imported game's, the computer's level) beside the side's.
    const who = s.name && s.name !== sideName ? `${sideName} (${s.name})` : sideName;
    return h("p", { class: "summary", "data-testid": `summary-${s.side}` }, `${who}: ${score}; ${counts}`);
  });
}

/**
 * What the coach says of the move being looked back at.
 * @param {GamePage} page
 */
function note(page) {
  const shown = page.state.review;
  if (!shown) return h("p", { class: "small" }, "Click a move or a point of the graph to see the coach's note.");
  const arrow = page.state.arrow;
  if (arrow && arrow.version === shown.version) {
    return h("p", { "data-testid": "coach-note" }, `The better move here: ${arrow.text}, drawn on the board.`);
  }
  const judged = marksOf(page).get(shown.version);
  if (!judged) return h("p", { class: "small" }, "");
  if (!judged.judgement) return h("p", { "data-testid": "coach-note" }, `${judged.move}: good.`);
  const line = judged.best_line && judged.best_line.length > 1 ? ` (${judged.best_line.join(" ")})` : "";
  const before = shown.version - 1;
  return h("div", {},
    h("p", { "data-testid": "coach-note", class: judged.judgement.replace(" ", "-") },
      `${judged.move}${symbolOf(judged.judgement)} is a ${judged.judgement}: ${judged.best} was better${line}.`),
    h("button", { type: "button", class: "secondary", "data-testid": "show-better", onclick: () => showBetter(page, before, judged.best) },
      "Show the better move"));
}

/**
 * The position before a judged move, with the better move drawn on the board.
 * @param {GamePage} page
 * @param {number} version
 * @param {string} text
 */
function showBetter(page, version, text) {
  page.state.arrow = { version, text };
  review(page, version);
}
