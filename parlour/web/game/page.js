// @ts-check
// The game page: the board, the panel and the move list of one game, kept up to date
// live. The server decides everything; the page draws what it is told and sends what
// the player does. This module holds the page's state and the one way an action is
// sent; the board, the panel, looking back, the turn being entered and the live
// connection each have a module of their own.

import { ApiError, api, store } from "../api.js";
import { h, mainArea } from "../dom.js";
import { drawBoard } from "./board.js";
import { drawCoach, loadAnalysis, marksOf, tutorAllows } from "./coach.js";
import { controlButtons, infoLines, outcomeText, statusText } from "./controls.js";
import { followLive } from "./live.js";
import { moveListItems } from "./moves.js";
import { drawReviewBar, review, reviewKeys } from "./review.js";
import { loadTurn } from "./turn.js";
import { drawClocks, serverOffset, tickClocks } from "./clocks.js";
import { playSound } from "../settings.js";

/** @typedef {import("../types.js").Game} Game */
/** @typedef {import("../types.js").Seat} Seat */

/**
 * @typedef {object} PageState
 * @property {Game} game  the game as the server last sent it
 * @property {boolean} flipped
 * @property {string | null} selected  a piece picked up on the board
 * @property {any} turn  the turn being entered piece by piece, from the server
 * @property {string[]} steps  the steps of that turn so far
 * @property {any} hint
 * @property {any} review  the earlier position being looked at, from the server
 * @property {any} coach  the coach's analysis of the finished game, from the server
 * @property {boolean} acting  an action is on its way to the server
 * @property {import("./live.js").Connection} connection  the live connection
 * @property {string[]} route  a multi-jump's squares clicked so far
 * @property {number[] | string | null} cursor  the keyboard's place on the board: [row, col]
 *   on screen for a board of squares, a point ("13", "bar", "off") for backgammon
 * @property {any} lesson  learning from one's mistakes: the one being looked at
 * @property {{version: number, text: string} | null} arrow  a move to point out on
 *   the board while the position at ``version`` is looked at (the better move)
 * @property {{version: number, since: number, after: number} | null} slide  the last
 *   move's piece slides to its square in the drawings of ``version``, from the moment
 *   ``since`` (a move made after version ``after``: a backgammon roll alone moves none)
 * @property {boolean} dragged  the move on its way was dragged to its square
 * @property {number} clockOffset  the server's time less this device's (ms)
 */

/**
 * @typedef {object} GamePage  What the page's parts share.
 * @property {string} gameId
 * @property {PageState} state
 * @property {Seat[]} seats
 * @property {number[]} mySides
 * @property {(side: number) => boolean} mayAct
 * @property {(side: number) => string | undefined} tokenFor
 * @property {(text: string, tone?: string) => void} say
 * @property {(text: string) => void} hear  say ``text`` to a screen reader only
 * @property {(action: string, move?: string) => Promise<void>} act
 * @property {(updated: Game) => Promise<void>} adopt
 * @property {() => void} draw
 * @property {(prompt: string, items: {label: string, value: string, testid: string}[]) => void} choose
 * @property {(prompt: string, items: {label: string, value: string, testid: string}[]) => Promise<string>} ask
 *   a question answered by one of the buttons (the tutor's)
 * @property {string} tutor  the tutor's threshold ("" for none)
 * @property {(work: () => Promise<void>) => Promise<void>} once  ``work``, unless an
 *   action is under way (a double click acts once)
 * @property {(connection: import("./live.js").Connection) => void} connected
 *   how the live connection stands now
 */

/**
 * The side this browser acts for in ``action``: the side to move when it holds it,
 * the one answering a draw offer, or its only seat.
 * @param {GamePage} page
 * @param {string} action
 */
function actingSide(page, action) {
  const g = page.state.game;
  const answering = action === "accept-draw" || action === "decline-draw";
  if (typeof g.turn === "number" && page.mayAct(g.turn) && !answering) return g.turn;
  if (answering) return page.mySides.find((s) => s !== g.draw_offer);
  if (typeof g.turn === "number" && page.mySides.length === 2) return g.turn;
  return page.mySides[0];
}

/**
 * The side at the bottom at first: each player sees their own side there, a
 * spectator (or two players at one screen) the first side.
 * @param {Game} game
 * @param {number[]} mySides
 */
function defaultFlip(game, mySides) {
  const wanted = mySides.length === 1 ? mySides[0] : 0;
  return wanted !== game.page.bottom;
}

/**
 * The page's elements.
 * @param {Game} game
 */
function layout(game) {
  return {
    boardBox: h("div", { id: "board", class: `board-box ${game.game}` }),
    status: h("p", { id: "status", "data-testid": "status" }),
    clocks: h("div", { class: "clocks", "data-testid": "clocks", hidden: true }),
    messageBox: h("p", { id: "message", role: "alert", "data-testid": "message" }),
    ending: h("div", { id: "ending", "data-testid": "ending", hidden: true }),
    coachBox: h("div", { id: "coach", class: "coach", "data-testid": "coach", hidden: true }),
    controls: h("div", { class: "controls", id: "controls" }),
    moveList: h("ol", { id: "moves", class: `moves ${game.game}`, "data-testid": "moves" }),
    info: h("div", { id: "info", class: "info" }),
    choices: h("div", { id: "choices", class: "choices", hidden: true }),
    tutorBox: h("div", { id: "tutor", class: "choices tutor", "data-testid": "tutor", role: "alertdialog", hidden: true }),
    reviewBar: h("div", { id: "review", class: "review", "data-testid": "review", hidden: true }),
    inviteBox: h("div", { id: "invite", class: "invite", hidden: true }),
    connection: h("p", { id: "connection", class: "connection", "data-testid": "connection", role: "status" }),
    // Heard, not seen: each move as it comes and the state of the game, for a
    // screen reader (lichess's blind mode does the same).
    announcer: h("p", { id: "announce", class: "visually-hidden", "aria-live": "polite", "data-testid": "announce" }),
    // The position in words, on demand (the position looked back at, if any).
    description: h("div", { id: "description", class: "description", "data-testid": "description", hidden: true }),
    describe: h("button", { type: "button", class: "secondary", "data-testid": "describe", "aria-expanded": "false" }, "Describe the position"),
  };
}

/**
 * Say what happened since the version last announced: the moves (and throws)
 * made, then ``standing``: whose turn it is, or how the game ended.
 * @param {GamePage} page
 * @param {HTMLElement} announcer
 * @param {string} standing
 */
function announce(page, announcer, standing) {
  const g = page.state.game;
  const since = Number(announcer.dataset.version ?? g.version);
  announcer.dataset.version = String(g.version);
  if (g.version === since && announcer.textContent) return;
  const said = g.moves.filter((m) => m.version > since)
    .map((m) => (m.side === null ? `Dice: ${m.text}.` : `${g.side_names[m.side]}: ${m.text}.`));
  said.push(standing);
  announcer.textContent = said.join(" ");
}

/** What each state of the connection is called on the page. */
const CONNECTION_WORDS = {
  connecting: () => "Connecting…",
  connected: () => "Connected",
  reconnecting: (/** @type {number} */ seconds) => `Connection lost: trying again in ${seconds} s…`,
  offline: () => "Offline: this device has no network. Moves wait until it is back.",
};

/**
 * Show how the connection stands; while it is down, the page's buttons and the
 * typed move are disabled (what is sent would be lost).
 * @param {GamePage} page
 * @param {ReturnType<typeof layout>} parts
 * @param {HTMLElement} typed
 */
function drawConnection(page, parts, typed) {
  const { status, seconds } = page.state.connection;
  const words = CONNECTION_WORDS[/** @type {keyof typeof CONNECTION_WORDS} */ (status)] || CONNECTION_WORDS.connecting;
  parts.connection.textContent = words(seconds);
  parts.connection.className = `connection ${status}`;
  parts.connection.dataset.status = status;
  const down = connectionDown(page);
  for (const control of [...parts.controls.querySelectorAll("button"), ...typed.querySelectorAll("input, button")]) {
    const element = /** @type {HTMLButtonElement | HTMLInputElement} */ (control);
    if (element.dataset.local) continue;
    if (down) {
      if (!element.disabled) element.dataset.downed = "1";
      element.disabled = true;
    } else if (element.dataset.downed) {
      element.disabled = false;
      delete element.dataset.downed;
    }
  }
}

/**
 * A move may also be typed in the game's notation (e4, Nf3, 11-15, 24/18 13/11):
 * the server reads it and explains a mistake like any other.
 * @param {GamePage} page
 */
function typedMove(page) {
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "text", name: "move", autocomplete: "off", spellcheck: "false",
    placeholder: page.state.game.page.prompt, "aria-label": "Type a move", "data-testid": "move-input", list: "legal-moves" }));
  // The legal moves, offered as the move is typed (filled in as the game goes on).
  const legal = h("datalist", { id: "legal-moves", "data-testid": "legal-moves" });
  const form = h("form", { class: "typed-move", hidden: true },
    input, legal, h("button", { type: "submit", "data-testid": "move-submit" }, "Play"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const before = page.state.game.version;
    await page.act("move", text);
    if (page.state.game.version !== before) input.value = "";
  });
  return form;
}

/**
 * The invitation to send a friend, when this browser made one.
 * @param {string} gameId
 * @param {HTMLElement} box
 */
function fillInvite(gameId, box) {
  const invite = store.invite(gameId);
  if (!invite) return;
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "text", readonly: true, value: invite, "data-testid": "invite-link", size: 40 }));
  box.append(
    h("p", {}, "Send this link to your friend: it gives them the other seat (once)."),
    input,
    h("button", { type: "button", onclick: () => { input.select(); navigator.clipboard?.writeText(invite).catch(() => {}); } }, "Copy"),
  );
}

/**
 * Show the game ``gameId``; returns what to do on leaving the page.
 * @param {string} gameId
 * @returns {Promise<() => void>}
 */
export async function showGame(gameId) {
  const main = mainArea();
  main.replaceChildren(h("p", {}, "Loading the game…"));
  /** @type {Game} */
  let game;
  try {
    game = await api(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    main.replaceChildren(h("p", { class: "error" }, message), h("p", {}, h("a", { href: "#" }, "Back to the games")));
    return () => {};
  }
  const seats = store.seats(gameId);
  const mySides = seats.map((s) => s.side);
  const parts = layout(game);
  /** @type {GamePage} */
  const page = {
    gameId,
    seats,
    mySides,
    state: { game, flipped: defaultFlip(game, mySides), selected: null, turn: null, steps: [], hint: null, review: null, coach: null, lesson: null, arrow: null, acting: false, connection: { status: "connecting", seconds: 0 }, route: [], cursor: null, slide: null, dragged: false, clockOffset: serverOffset(game) },
    mayAct: (side) => mySides.includes(side),
    tokenFor: (side) => (seats.find((s) => s.side === side) || { token: undefined }).token,
    say(text, tone = "") {
      parts.messageBox.textContent = text;
      parts.messageBox.className = tone;
    },
    hear(text) {
      parts.announcer.textContent = text;
    },
    act: (action, move) => act(page, action, move),
    once: (work) => once(page, work),
    connected(connection) {
      const was = page.state.connection.status;
      page.state.connection = connection;
      drawConnection(page, parts, typed);
      if (was !== connection.status && connection.status === "connected" && (was === "reconnecting" || was === "offline")) {
        page.say("Connected again: the game is as the server has it.", "hint");
      }
    },
    adopt: (updated) => adopt(page, updated),
    draw: () => {}, // set below, once the typed move's form exists
    // chosen on this browser's start form, or a rule of a game between friends
    tutor: store.tutor(gameId) || (game.options && game.options.tutor) || "",
    ask(prompt, items) {
      return new Promise((resolve) => {
        parts.tutorBox.hidden = false;
        parts.tutorBox.replaceChildren(
          h("p", {}, prompt),
          ...items.map((item) =>
            h("button", { type: "button", "data-testid": item.testid, onclick: () => { parts.tutorBox.hidden = true; resolve(item.value); } }, item.label)),
        );
      });
    },
    choose(prompt, items) {
      parts.choices.hidden = false;
      parts.choices.replaceChildren(
        h("p", {}, prompt),
        ...items.map((item) =>
          h("button", { type: "button", "data-testid": item.testid, onclick: () => { parts.choices.hidden = true; page.act("move", item.value); } }, item.label)),
        h("button", { type: "button", class: "secondary", onclick: () => { parts.choices.hidden = true; } }, "Cancel"),
      );
    },
  };
  const typed = typedMove(page);
  document.title = `${game.title} — Parlour`;
  if (mySides.length) fillInvite(gameId, parts.inviteBox);
  main.replaceChildren(
    h("div", { class: "game-page" },
      h("div", { class: "board-column" }, parts.reviewBar, parts.boardBox, parts.choices, parts.tutorBox),
      h("aside", { class: "panel" },
        h("h1", {}, game.title, " ", h("a", { class: "small", href: `/rules/${game.game}?game=${encodeURIComponent(gameId)}`, "data-testid": "rules-link" }, "rules")),
        parts.connection, parts.announcer, parts.inviteBox, parts.clocks, parts.status, parts.describe, parts.description, parts.ending, parts.coachBox, parts.messageBox, parts.info, parts.controls, typed,
        h("h2", {}, "Moves"), parts.moveList,
      ),
    ),
  );
  page.draw = () => draw(page, parts, typed);
  parts.describe.addEventListener("click", () => {
    parts.description.hidden = !parts.description.hidden;
    parts.describe.setAttribute("aria-expanded", String(!parts.description.hidden));
    page.draw();
  });
  const onKey = reviewKeys(page);
  document.addEventListener("keydown", onKey);
  await loadTurn(page);
  page.draw();
  await loadAnalysis(page);
  const stopLive = followLive(page);
  const stopClocks = tickClocks(page, parts.clocks);
  return () => {
    stopLive();
    stopClocks();
    document.removeEventListener("keydown", onKey);
  };
}

/**
 * Send an action of this browser's seat; a refusal is explained, and a game that
 * moved on meanwhile is fetched again.
 * @param {GamePage} page
 * @param {string} action
 * @param {string} [move]
 */
async function act(page, action, move) {
  page.state.review = null; // acting returns to the game
  const token = page.tokenFor(Number(actingSide(page, action)));
  if (!token) {
    page.say("You are watching this game.", "warn");
    return;
  }
  if (connectionDown(page)) {
    page.say("Not connected to the server: nothing was sent. Try again once the connection is back.", "error");
    return;
  }
  // One action at a time: a second click while the first is on its way (a double
  // click) would be sent for a position that is about to change.
  await page.once(async () => {
    if (action === "move" && move !== undefined && !(await tutorAllows(page, move))) {
      page.draw();
      return;
    }
    /** @type {Record<string, any>} */
    const body = { action, version: page.state.game.version };
    if (move !== undefined) body.move = move;
    try {
      const updated = await api(`/api/games/${page.gameId}/actions`, { method: "POST", body, token });
      page.say("");
      page.state.hint = null;
      await page.adopt(updated);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // The game moved on before this reached the server (the opponent's move,
        // the computer's): nothing was done; show the game as it now stands.
        page.say("The game had moved on before that arrived: nothing was played. Here it is as it stands.", "warn");
        await page.adopt(await api(`/api/games/${page.gameId}`));
      } else {
        page.say(error instanceof Error ? error.message : String(error), "error");
        page.draw();
      }
    }
  });
}

/**
 * Run ``work`` unless an action is already under way (a double click does it once);
 * a refusal it does not answer itself is said on the page.
 * @param {GamePage} page
 * @param {() => Promise<void>} work
 */
async function once(page, work) {
  if (page.state.acting) return;
  page.state.acting = true;
  try {
    await work();
  } catch (error) {
    page.say(error instanceof Error ? error.message : String(error), "error");
  } finally {
    page.state.acting = false;
  }
}

/**
 * Whether the live connection is down (what is sent now would be lost).
 * @param {GamePage} page
 */
function connectionDown(page) {
  const status = page.state.connection.status;
  return status === "reconnecting" || status === "offline";
}

/**
 * Take a newer game from the server (an answer, or a live update).
 * @param {GamePage} page
 * @param {Game} updated
 */
async function adopt(page, updated) {
  const state = page.state;
  if (updated.version < state.game.version) return;
  const changed = updated.version !== state.game.version;
  const offered = state.game.draw_offer;
  // Our offer gone, the game going on: the opponent declined it (or moved instead).
  const mine = page.mySides.length === 1 && page.mySides[0] === offered;
  if (mine && updated.draw_offer === null && !updated.outcome) page.say("Your draw offer was declined.", "warn");
  const before = state.game;
  state.game = updated;
  if (updated.clock) state.clockOffset = serverOffset(updated);
  if (changed) {
    const sound = soundOf(before, updated);
    if (sound) playSound(sound);
    // A dragged piece is on its square already; any other move slides there.
    state.slide = state.dragged ? null : { version: updated.version, since: performance.now(), after: before.version };
    state.dragged = false;
    state.route = [];
    state.steps = [];
    state.turn = null;
    state.selected = null;
    if (state.coach && state.coach.status !== "running") state.coach = null; // a new game of the series
  }
  await loadTurn(page);
  page.draw();
}

/**
 * The sound for what happened between two versions of a game: its end, a check, a
 * capture (chess "x", checkers' jumps, backgammon's hits "*"), the dice thrown last,
 * or a move.
 * @param {Game} before
 * @param {Game} after
 * @returns {string | null}
 */
export function soundOf(before, after) {
  if (after.outcome && !before.outcome) return "end";
  const fresh = after.moves.filter((m) => m.version > before.version);
  const played = fresh.filter((m) => m.side !== null);
  const last = played[played.length - 1];
  if (last && /[+#]$/.test(last.text)) return "check";
  if (played.some((m) => /x|\*/.test(m.text))) return "capture";
  // The dice last: a roll asked for, or a turn passed to a player who throws them.
  if (fresh.length && fresh[fresh.length - 1].side === null) return "dice";
  return played.length ? "move" : null;
}

/**
 * Draw everything from the state.
 * @param {GamePage} page
 * @param {ReturnType<typeof layout>} parts
 * @param {HTMLElement} typed
 */
function draw(page, parts, typed) {
  const state = page.state;
  const g = state.game;
  drawBoard(page, parts.boardBox);
  drawClocks(page, parts.clocks);
  drawReviewBar(page, parts.reviewBar);
  if (parts.inviteBox.childElementCount) parts.inviteBox.hidden = g.seats.every((s) => s.taken);
  // Whose turn it is, or how the game ended: shown, and said when it changes.
  const standing = g.outcome ? outcomeText(g) : statusText(page);
  parts.ending.hidden = !g.outcome;
  if (g.outcome) {
    parts.status.textContent = "The game is over.";
    parts.ending.textContent = standing;
  } else {
    parts.status.textContent = standing;
  }
  parts.info.replaceChildren(...infoLines(page));
  drawCoach(page, parts.coachBox);
  parts.moveList.replaceChildren(...moveListItems(g, state.review ? state.review.version : null, (version) => review(page, version), marksOf(page)));
  if (!state.review) parts.moveList.scrollTop = parts.moveList.scrollHeight;
  parts.controls.replaceChildren(...controlButtons(page));
  drawConnection(page, parts, typed);
  typed.hidden = !(typeof g.turn === "number" && page.mayAct(g.turn) && !g.outcome && !state.review);
  const legal = /** @type {HTMLElement} */ (typed.querySelector("datalist"));
  const shown = `${g.version}:${typed.hidden}`;
  if (legal.dataset.shown !== shown) {
    legal.dataset.shown = shown;
    legal.replaceChildren(...(typed.hidden ? [] : g.legal_moves.map((move) => h("option", { value: move }))));
  }
  announce(page, parts.announcer, standing);
  if (!parts.description.hidden) {
    const lines = (state.review && state.review.description) || g.description;
    parts.description.replaceChildren(h("ul", {}, lines.map((line) => h("li", {}, line))));
  }
}
