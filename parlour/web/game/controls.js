// @ts-check
// The panel beside the board: whose turn it is, how the game ended, the lines of
// information and the buttons for what the player may do now. What is particular
// to a game (its cube and dice buttons, its questions) comes from the server.

import { api, openGame, store } from "../api.js";
import { h, plural } from "../dom.js";
import { loadTurn } from "./turn.js";

/** @typedef {import("../types.js").Game} Game */
/** @typedef {import("./page.js").GamePage} GamePage */

/**
 * How the game ended, and the match or session so far.
 * @param {Game} game
 */
export function outcomeText(game) {
  const o = game.outcome;
  if (!o) return "";
  if (o.winner === null) return `Draw by ${o.reason}.`;
  let text = `${o.winner_name} wins by ${o.reason} (${plural(o.points, "point")}).`;
  const series = game.series;
  if (series && series.kind === "match") {
    const [a, b] = series.points;
    if (series.over && series.winner !== null) text += ` ${game.side_names[series.winner]} wins the match, ${Math.max(a, b)}-${Math.min(a, b)}.`;
    else text += ` The score is ${game.side_names[0]} ${a}, ${game.side_names[1]} ${b} (match to ${series.match_length}).`;
  } else if (series) {
    text += ` After ${plural(series.games.length, "game")}: ${game.side_names[0]} ${series.points[0]}, ${game.side_names[1]} ${series.points[1]}.`;
  }
  return text;
}

/**
 * Whose turn it is, and who they are to this browser.
 * @param {GamePage} page
 */
export function statusText(page) {
  const g = page.state.game;
  let who = g.turn === "chance" ? "The dice are rolling" : `${g.side_names[Number(g.turn)]} to play`;
  if (g.board && g.board.check) who += ", in check";
  const seat = typeof g.turn === "number" ? g.seats[g.turn] : null;
  let whose = "";
  if (seat && seat.player === "computer") whose = " (the computer is thinking…)";
  else if (seat && typeof g.turn === "number" && page.mayAct(g.turn)) whose = page.mySides.length === 2 ? "" : " (you)";
  else if (seat && !seat.taken) whose = " (waiting for a friend to join)";
  else if (seat && page.mySides.length) whose = " (your opponent)";
  // Someone with no seat here is told so: they may watch, not play.
  if (!page.mySides.length) whose += " — you are watching this game";
  return who + whose;
}

/**
 * The panel's lines: the game's own (the board as it stands, looked back at, or with
 * the checkers moved so far) and the match or money session.
 * @param {GamePage} page
 * @returns {HTMLElement[]}
 */
export function infoLines(page) {
  const { game: g, review, turn } = page.state;
  /** @type {{id: string, text: string}[]} */
  const own = (review && review.page && review.page.info) || (turn && turn.info) || g.page.info;
  const lines = own.map((line) => h("p", { "data-testid": line.id }, line.text));
  const series = g.series;
  const names = g.side_names;
  if (series && series.kind === "match") {
    const score = series.points;
    lines.push(h("p", { "data-testid": "score" },
      `Match to ${series.match_length}, game ${series.game_number}: ${names[0]} ${score[0]}, ${names[1]} ${score[1]}`));
  } else if (series) {
    const rules = series.rules_in_words || [];
    lines.push(h("p", { "data-testid": "score" },
      `Money play, game ${series.game_number}: ${names[0]} ${series.points[0]}, ${names[1]} ${series.points[1]} points` +
      (rules.length ? ` — ${rules.join(", ")}` : "")));
  }
  for (const note of (series && series.notes) || []) lines.push(h("p", {}, note));
  if (g.has_chance && g.dice) lines.push(fairDice(page));
  if (series && series.games.length) {
    lines.push(h("ol", { class: "games", "data-testid": "games" },
      series.games.map((r) => h("li", {}, `${names[r.winner]} won ${plural(r.points, "point")} (${r.reason})`))));
  }
  return lines;
}

/**
 * What lets anyone check the dice: the commitment from the start, the secret and
 * how to check it once the game is over.
 * @param {GamePage} page
 * @returns {HTMLElement}
 */
function fairDice(page) {
  const g = page.state.game;
  const dice = /** @type {{commitment: string, secret: string | null}} */ (g.dice);
  const record = `/api/games/${page.gameId}/dice`;
  const body = dice.secret === null
    ? [h("p", {}, "The dice follow from a secret the server chose before the first throw. Its SHA-256 hash, published now:"),
      h("code", { "data-testid": "dice-commitment" }, dice.commitment),
      h("p", {}, "The secret is shown when the game is over; then anyone can check every throw.")]
    : [h("p", {}, "The secret the dice followed, and its SHA-256 hash published at the start:"),
      h("code", { "data-testid": "dice-secret" }, dice.secret),
      h("code", { "data-testid": "dice-commitment" }, dice.commitment),
      h("p", {}, "Check every throw with ", h("code", {}, `parlour verify ${location.origin}/#game=${page.gameId}`),
        " or from ", h("a", { href: record, download: `dice-${page.gameId}.json`, "data-testid": "dice-record" }, "the dice record"), ".")];
  // Redrawn with every update: open if it was open.
  const open = Boolean(document.querySelector("details.fair-dice[open]"));
  return h("details", { class: "fair-dice", "data-testid": "fair-dice", open }, h("summary", {}, "Fair dice"), ...body);
}

/**
 * @param {string} label
 * @param {string} testid
 * @param {(event: Event) => void} onclick
 * @param {string} [cls]
 */
const button = (label, testid, onclick, cls = "") => h("button", { type: "button", "data-testid": testid, class: cls, onclick }, label);

/**
 * The game's own buttons (backgammon's roll, double, take...), its offers, and the
 * turn being entered piece by piece.
 * @param {GamePage} page
 * @returns {HTMLElement[]}
 */
function turnButtons(page) {
  const { game: g, turn } = page.state;
  const buttons = g.page.actions.map((action) =>
    button(action.label, `bg-${action.move}`, () => page.act("move", action.move), action.primary ? "primary" : ""));
  const offers = g.page.offers;
  if (offers.length) {
    buttons.push(button("Offer to resign…", "bg-resign-offer", () =>
      page.choose(g.page.offer_question || "",
        offers.map((o) => ({ label: o.label, value: o.move, testid: `bg-${o.move.replace(" ", "-")}` }))),
    ));
  }
  if (g.page.notice) page.say(g.page.notice, "hint");
  if (turn) {
    if (page.state.steps.length) {
      buttons.push(button("Undo", "bg-undo", async () => { page.state.steps.pop(); await loadTurn(page); page.draw(); }));
    }
    const label = turn.complete ? (turn.play === "no move" ? "No move: pass" : `Confirm ${turn.play}`) : "Confirm";
    const confirm = button(label, "bg-confirm", () => page.act("move", turn.play), "primary");
    confirm.toggleAttribute("disabled", !turn.complete);
    buttons.push(confirm);
  }
  return buttons;
}

/**
 * Draws: offer, answer, claim.
 * @param {GamePage} page
 * @param {boolean} myTurn
 * @returns {HTMLElement[]}
 */
function drawButtons(page, myTurn) {
  const g = page.state.game;
  const buttons = [];
  if (g.draw_offer !== null && page.mySides.some((s) => s !== g.draw_offer)) {
    buttons.push(button("Accept the draw", "accept-draw", () => page.act("accept-draw")), button("Decline", "decline-draw", () => page.act("decline-draw")));
    page.say(`${g.side_names[g.draw_offer]} offers a draw.`, "hint");
  } else if (g.draw_offer === null) {
    // An offer may be made at any time (as on lichess); it stands until answered
    // or until the opponent moves instead.
    buttons.push(button("Offer a draw", "offer-draw", () => page.act("offer-draw")));
  } else if (page.mySides.length === 1 && g.draw_offer === page.mySides[0]) {
    page.say("You offered a draw: waiting for the answer.", "hint");
  }
  if (g.claimable_draw && myTurn) buttons.push(button(`Claim a draw (${g.claimable_draw})`, "claim-draw", () => page.act("claim-draw")));
  return buttons;
}

/**
 * Every button of the panel, for what the player may do now.
 * @param {GamePage} page
 * @returns {HTMLElement[]}
 */
export function controlButtons(page) {
  const g = page.state.game;
  const mine = page.mySides.length > 0;
  const myTurn = typeof g.turn === "number" && page.mayAct(g.turn) && !g.outcome;
  const buttons = myTurn ? turnButtons(page) : [];
  if (g.series && g.series.next_game && mine) {
    const label = g.series.kind === "match" ? `Next game (game ${g.series.game_number + 1})` : "Play another game";
    buttons.push(button(label, "next-game", () => page.act("next-game"), "primary"));
  }
  if (g.outcome && mine && !(g.series && g.series.next_game) && g.options.opponent !== "friend") {
    buttons.push(button("Play again", "play-again", () => playAgain(page), "primary"));
  }
  if (g.outcome && mine && !(g.series && g.series.next_game) && g.options.opponent === "friend") {
    buttons.push(...rematchButtons(page));
  }
  if (!g.outcome && mine) {
    if (g.has_draws) buttons.push(...drawButtons(page, myTurn));
    if (g.hints && myTurn) buttons.push(button("Hint", "hint", () => askHint(page)));
    buttons.push(button("Resign", "resign", () => { if (confirmResign(g)) page.act("resign"); }, "danger"));
  }
  const flip = button("Flip the board", "flip", () => { page.state.flipped = !page.state.flipped; page.draw(); });
  flip.dataset.local = "1"; // works without the server
  buttons.push(flip);
  if (g.can_export) {
    buttons.push(h("a", { class: "button", href: `/api/games/${page.gameId}/export`, download: "", "data-testid": "download" }, `Download ${g.export_kind || "the game"}`));
  }
  buttons.push(h("a", { class: "button secondary", href: "#" }, "New game"));
  return buttons;
}

/**
 * A rematch between friends apart: offer one, or take (or go to) the one offered.
 * @param {GamePage} page
 * @returns {HTMLElement[]}
 */
function rematchButtons(page) {
  const g = page.state.game;
  const side = page.mySides[0];
  const token = page.tokenFor(side);
  if (!g.rematch) {
    return [button("Rematch (colours swapped)", "rematch", () => page.once(async () => {
      const made = await api(`/api/games/${page.gameId}/rematch`, { method: "POST", body: {}, token });
      openGame(made.game.id, made.seats, g.title);
    }), "primary")];
  }
  const rematch = g.rematch;
  if (store.seats(rematch).length) {
    return [h("a", { class: "button primary", href: `#game=${rematch}`, "data-testid": "rematch-go" }, "Go to the rematch")];
  }
  page.say("Your friend offers a rematch, colours swapped.", "hint");
  return [button("Join the rematch", "rematch-join", () => page.once(async () => {
    // The token held in this game is the invitation to the other seat there.
    const joined = await api(`/api/games/${rematch}/join`, { method: "POST", body: { invite: token } });
    openGame(rematch, [{ side: joined.side, token: joined.token }], g.title);
  }), "primary")];
}

/**
 * The engine's advice for the player to move.
 * @param {GamePage} page
 */
async function askHint(page) {
  const g = page.state.game;
  try {
    const hint = await api(`/api/games/${page.gameId}/hint`, { token: page.tokenFor(Number(g.turn)) });
    if (hint.version === page.state.game.version) {
      page.state.hint = hint;
      page.say(`Hint: ${hint.move} — ${hint.assessment}`, "hint");
    }
  } catch (error) {
    page.say(error instanceof Error ? error.message : String(error), "error");
  }
}

/**
 * A new game like this one: the same opponent and rules, the colours changed.
 * @param {GamePage} page
 */
async function playAgain(page) {
  const g = page.state.game;
  const computer = g.seats.find((seat) => seat.player === "computer");
  /** @type {Record<string, any>} */
  const body = { game: g.game, opponent: g.options.opponent, side: computer ? computer.side : 0 };
  if (computer) body.level = computer.level;
  if (g.options.rules) body.rules = g.options.rules;
  await page.once(async () => { // a double click makes one game; a refusal is said
    const made = await api("/api/games", { method: "POST", body });
    openGame(made.game.id, made.seats, g.title);
  });
}

/**
 * Ask before resigning outright, in the game's own words (tests may skip it).
 * @param {Game} game
 */
function confirmResign(game) {
  return /** @type {any} */ (window).__parlourNoConfirm || window.confirm(game.page.resign_question);
}
