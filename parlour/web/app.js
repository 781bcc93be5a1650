// Parlour in the browser: the home page (choose a game and an opponent) and the game
// page (the board, the moves, the controls), over the server's HTTP and WebSocket
// API. The server decides everything; the page draws what it is told and sends
// what the player does. Seat tokens stay in this browser's localStorage, never in
// a URL.

import { renderChess } from "./boards/chess.js";
import { renderCheckers } from "./boards/checkers.js";
import { renderBackgammon } from "./boards/backgammon.js";

const RENDERERS = { chess: renderChess, checkers: renderCheckers, backgammon: renderBackgammon };
const FILE_KINDS = { chess: "PGN", checkers: "PDN", backgammon: ".mat" };
const main = document.getElementById("main");

// -- small helpers -----------------------------------------------------------------

function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) element.append(child);
  }
  return element;
}

let busy = 0;
function setBusy(delta) {
  busy += delta;
  document.body.dataset.busy = busy > 0 ? "1" : "0";
}

async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  setBusy(1);
  try {
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await response.json().catch(() => ({ error: "bad-answer", detail: "the server's answer was not JSON" }));
    if (!response.ok) {
      const error = new Error(data.detail || `the server refused (${response.status})`);
      error.data = data;
      error.status = response.status;
      throw error;
    }
    return data;
  } finally {
    setBusy(-1);
  }
}

const store = {
  seats(id) {
    try {
      return JSON.parse(localStorage.getItem(`parlour:seats:${id}`) || "[]");
    } catch {
      return [];
    }
  },
  addSeats(id, seats) {
    const known = store.seats(id).filter((s) => !seats.some((n) => n.side === s.side));
    localStorage.setItem(`parlour:seats:${id}`, JSON.stringify([...known, ...seats]));
  },
  setInvite(id, url) {
    localStorage.setItem(`parlour:invite:${id}`, url);
  },
  invite(id) {
    return localStorage.getItem(`parlour:invite:${id}`);
  },
  recent() {
    try {
      return JSON.parse(localStorage.getItem("parlour:recent") || "[]");
    } catch {
      return [];
    }
  },
  remember(id, title) {
    const list = store.recent().filter((g) => g.id !== id);
    list.unshift({ id, title, at: new Date().toISOString() });
    localStorage.setItem("parlour:recent", JSON.stringify(list.slice(0, 8)));
  },
};

// -- routing ---------------------------------------------------------------------------

let leave = () => {};

async function route() {
  leave();
  leave = () => {};
  const hash = location.hash.slice(1);
  const params = new URLSearchParams(hash);
  if (params.has("join")) {
    await joinFromLink(params.get("join"));
  } else if (params.has("game")) {
    leave = await showGame(params.get("game"));
  } else {
    await showHome();
  }
}
window.addEventListener("hashchange", route);

// -- the home page ----------------------------------------------------------------------

async function showHome() {
  document.title = "Parlour";
  main.replaceChildren(h("p", {}, "Loading…"));
  let catalogue;
  try {
    catalogue = await api("/api/catalogue");
  } catch (error) {
    main.replaceChildren(h("p", { class: "error" }, `The server did not answer: ${error.message}`));
    return;
  }
  const cards = catalogue.games.map((game) => gameCard(game));
  const recent = store.recent();
  main.replaceChildren(
    ...[h("section", { class: "intro" },
      h("h1", {}, "Parlour"),
      h("p", {}, "Chess, checkers and backgammon: play the computer, a friend at this screen, or a friend anywhere with a link."),
    ),
    h("div", { class: "cards" }, cards),
    recent.length
      ? h("section", { class: "recent" },
          h("h2", {}, "Your recent games"),
          h("ul", {}, recent.map((g) => h("li", {}, h("a", { href: `#game=${g.id}` }, `${g.title} (${new Date(g.at).toLocaleString()})`)))),
        )
      : null].filter(Boolean),
  );
}

function gameCard(game) {
  const id = (name) => `${game.name}-${name}`;
  const levelSelect = h("select", { id: id("level"), name: "level", "data-testid": `${game.name}-level` },
    game.levels.map((level) =>
      h("option", { value: level.name, selected: level.name === game.default_level, title: level.about },
        level.name === "random" ? "random moves (test)" : `level ${level.name} of ${game.levels.length - 1}${level.name === "1" ? " (beginner)" : ""}`),
    ),
  );
  const opponent = (value, label, checked) =>
    h("label", { class: "choice" },
      h("input", { type: "radio", name: id("opponent"), value, checked, "data-testid": `${game.name}-opponent-${value}` }),
      " ", label);
  const sideSelect = h("select", { name: "side", "data-testid": `${game.name}-side` },
    game.side_names.map((name, side) => h("option", { value: side }, name)),
  );
  const rules = game.name === "backgammon" ? backgammonRules() : null;
  const form = h("form", { class: "card", "data-game": game.name },
    h("h2", {}, game.title),
    h("p", { class: "rules-link" }, h("a", { href: `/rules/${game.name}`, target: "_blank" }, `How to play ${game.title.toLowerCase()}`)),
    h("fieldset", {},
      h("legend", {}, "Opponent"),
      opponent("computer", h("span", {}, "The computer at ", levelSelect), true),
      opponent("local", "A friend at this screen", false),
      opponent("friend", "A friend anywhere (send a link)", false),
    ),
    h("label", { class: "side" }, "Play as ", sideSelect),
    rules ? rules.element : null,
    h("button", { type: "submit", class: "primary", "data-testid": `${game.name}-start` }, `Play ${game.title.toLowerCase()}`),
    h("p", { class: "error", role: "alert" }),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const choice = form.querySelector(`input[name="${id("opponent")}"]:checked`).value;
    const body = { game: game.name, opponent: choice, side: Number(sideSelect.value) };
    if (choice === "computer") body.level = levelSelect.value;
    if (rules) body.rules = rules.read();
    try {
      const made = await api("/api/games", { method: "POST", body });
      store.addSeats(made.game.id, made.seats);
      if (made.invite_url) store.setInvite(made.game.id, new URL(made.invite_url, location.origin).href);
      store.remember(made.game.id, game.title);
      location.hash = `game=${made.game.id}`;
    } catch (error) {
      form.querySelector(".error").textContent = error.message;
    }
  });
  return form;
}

// A match to N points or a money session, and the cube rules of money play (the
// server checks them again and explains a refusal).
function backgammonRules() {
  const lengths = [0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25];
  const length = h("select", { name: "match_length", "data-testid": "backgammon-match-length" },
    lengths.map((n) => h("option", { value: n, selected: n === 0 }, n === 0 ? "money play" : `a ${n}-point match`)),
  );
  const check = (name, label, about) =>
    h("label", { class: "choice", title: about },
      h("input", { type: "checkbox", name, "data-testid": `backgammon-${name}` }), " ", label);
  const jacoby = check("jacoby", "Jacoby rule", "gammons count single until the cube is turned");
  const beavers = check("beavers", "Beavers", "a doubled player may redouble at once and keep the cube");
  const automatic = h("select", { name: "automatic_doubles", "data-testid": "backgammon-automatic-doubles" },
    [0, 1, 2, 3].map((n) => h("option", { value: n }, n === 0 ? "off" : `up to ${n}`)));
  const cubeLimit = h("select", { name: "max_cube", "data-testid": "backgammon-max-cube" },
    h("option", { value: "" }, "none"), h("option", { value: "64" }, "64 (a standard cube)"));
  const money = h("div", { class: "money-rules" },
    jacoby, beavers,
    h("label", { class: "choice", title: "a tied opening throw doubles the stake" }, "Automatic doubles ", automatic),
  );
  const showMoney = () => {
    const isMoney = length.value === "0";
    money.hidden = !isMoney;
    for (const input of money.querySelectorAll("input, select")) input.disabled = !isMoney;
  };
  length.addEventListener("change", showMoney);
  showMoney();
  const element = h("fieldset", { class: "rules-choice" },
    h("legend", {}, "Rules"),
    h("label", { class: "choice" }, "Play ", length),
    money,
    h("label", { class: "choice" }, "Cube limit ", cubeLimit),
  );
  const read = () => {
    const rules = { match_length: Number(length.value) };
    if (rules.match_length === 0) {
      rules.jacoby = jacoby.querySelector("input").checked;
      rules.beavers = beavers.querySelector("input").checked;
      rules.automatic_doubles = Number(automatic.value);
    }
    if (cubeLimit.value) rules.max_cube = Number(cubeLimit.value);
    return rules;
  };
  return { element, read };
}

async function joinFromLink(value) {
  const dot = value.indexOf(".");
  const gameId = value.slice(0, dot);
  const invite = value.slice(dot + 1);
  main.replaceChildren(h("p", {}, "Joining the game…"));
  if (store.seats(gameId).length) {
    location.replace(`#game=${gameId}`);
    return;
  }
  try {
    const joined = await api(`/api/games/${encodeURIComponent(gameId)}/join`, { method: "POST", body: { invite } });
    store.addSeats(gameId, [{ side: joined.side, token: joined.token }]);
    store.remember(gameId, joined.game.title);
    location.replace(`#game=${gameId}`);
  } catch (error) {
    main.replaceChildren(
      h("p", { class: "error" }, `This invitation cannot be used: ${error.message}.`),
      h("p", {}, h("a", { href: `#game=${gameId}` }, "Watch the game"), " or ", h("a", { href: "#" }, "start a new one"), "."),
    );
  }
}

// -- the game page ------------------------------------------------------------------------

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function outcomeText(game) {
  const o = game.outcome;
  if (!o) return "";
  if (o.winner === null) return `Draw by ${o.reason}.`;
  let text = `${o.winner_name} wins by ${o.reason} (${plural(o.points, "point")}).`;
  const series = game.series;
  if (series && series.kind === "match") {
    const [a, b] = series.points;
    if (series.over) text += ` ${game.side_names[series.winner]} wins the match, ${Math.max(a, b)}-${Math.min(a, b)}.`;
    else text += ` The score is ${game.side_names[0]} ${a}, ${game.side_names[1]} ${b} (match to ${series.match_length}).`;
  } else if (series) {
    text += ` After ${plural(series.games.length, "game")}: ${game.side_names[0]} ${series.points[0]}, ${game.side_names[1]} ${series.points[1]}.`;
  }
  return text;
}

function moveListItems(game, reviewing = null, onReview = null) {
  const record = game.moves;
  if (game.game === "backgammon") {
    // A roll and the throw that follows it make one line: "White rolls 6-4".
    const rows = [];
    record.forEach((entry, i) => {
      const dice = entry.side === null ? `${entry.text[0]}-${entry.text[1]}` : null;
      const previous = rows.at(-1);
      if (dice && previous && previous.roll) {
        previous.text = `${previous.who} rolls ${dice}`;
        previous.roll = false;
      } else if (dice && record.slice(0, i).every((m) => m.side === null)) {
        rows.push({ text: `Opening throw ${dice}`, cls: "throw" });
      } else if (dice) {
        // A throw with no "roll" before it: the doubler's, after a take.
        const next = record.slice(i + 1).find((m) => m.side !== null);
        const mover = next ? next.side : game.board && game.board.mover;
        rows.push({ text: `${game.side_names[mover] ?? "Dice"} rolls ${dice}`, cls: "throw" });
      } else if (entry.text === "roll") {
        const who = game.side_names[entry.side];
        rows.push({ who, text: `${who} rolls`, roll: true, cls: "throw" });
      } else {
        rows.push({ text: `${game.side_names[entry.side]}: ${entry.text}`, cls: "", version: entry.version });
      }
      if (dice && rows.at(-1)) rows.at(-1).version = entry.version;
    });
    return rows.map((r) => h("li", { class: r.cls }, reviewable(h("span", {}, r.text), r.version, reviewing, onReview)));
  }
  const items = [];
  const ply = (entry) => reviewable(h("span", { class: "ply" }, entry.text), entry.version, reviewing, onReview);
  for (let i = 0; i < record.length; i += 2) {
    items.push(
      h("li", {},
        h("span", { class: "num" }, `${i / 2 + 1}.`),
        ply(record[i]),
        record[i + 1] ? ply(record[i + 1]) : null,
      ),
    );
  }
  return items;
}

// A move in the list that shows the position after it when clicked.
function reviewable(element, version, reviewing, onReview) {
  if (version === undefined || !onReview) return element;
  element.classList.add("reviewable");
  element.dataset.version = String(version);
  element.setAttribute("role", "button");
  element.setAttribute("tabindex", "0");
  element.title = "Show the position after this move";
  if (reviewing === version) element.classList.add("reviewed");
  element.addEventListener("click", () => onReview(version));
  element.addEventListener("keydown", (event) => { if (event.key === "Enter") onReview(version); });
  return element;
}

async function showGame(gameId) {
  main.replaceChildren(h("p", {}, "Loading the game…"));
  let game;
  try {
    game = await api(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (error) {
    main.replaceChildren(h("p", { class: "error" }, error.message), h("p", {}, h("a", { href: "#" }, "Back to the games")));
    return () => {};
  }
  const seats = store.seats(gameId);
  const mySides = seats.map((s) => s.side);
  const tokenFor = (side) => (seats.find((s) => s.side === side) || {}).token;
  const state = {
    game,
    flipped: defaultFlip(game, mySides),
    selected: null,
    turn: null, // backgammon: the turn being entered, from the server
    steps: [],
    message: "",
    tone: "",
    closed: false,
    hint: null,
    review: null, // looking back: the position at an earlier version, from the server
  };
  document.title = `${game.title} — Parlour`;

  const boardBox = h("div", { id: "board", class: `board-box ${game.game}` });
  const status = h("p", { id: "status", "data-testid": "status" });
  const messageBox = h("p", { id: "message", role: "alert", "data-testid": "message" });
  const ending = h("div", { id: "ending", "data-testid": "ending", hidden: true });
  const controls = h("div", { class: "controls", id: "controls" });
  const moveList = h("ol", { id: "moves", class: `moves ${game.game}`, "data-testid": "moves" });
  const info = h("div", { id: "info", class: "info" });
  const choices = h("div", { id: "choices", class: "choices", hidden: true });
  const reviewBar = h("div", { id: "review", class: "review", "data-testid": "review", hidden: true });
  // A move may also be typed in the game's notation (e4, Nf3, 11-15, 24/18 13/11):
  // the server reads it and explains a mistake like any other.
  const EXAMPLES = { chess: "e.g. e4 or Nf3", checkers: "e.g. 11-15 or 22x15", backgammon: "e.g. 24/18 13/11" };
  const typedInput = h("input", { type: "text", name: "move", autocomplete: "off", spellcheck: "false",
    placeholder: EXAMPLES[game.game] || "a move", "aria-label": "Type a move", "data-testid": "move-input" });
  const typed = h("form", { class: "typed-move", hidden: true },
    typedInput, h("button", { type: "submit", "data-testid": "move-submit" }, "Play"));
  typed.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = typedInput.value.trim();
    if (!text) return;
    const before = state.game.version;
    await act("move", text);
    if (state.game.version !== before) typedInput.value = "";
  });
  const invite = store.invite(gameId);
  const inviteBox = h("div", { id: "invite", class: "invite", hidden: true });
  if (invite && mySides.length) {
    const input = h("input", { type: "text", readonly: true, value: invite, "data-testid": "invite-link", size: 40 });
    inviteBox.append(
      h("p", {}, "Send this link to your friend: it gives them the other seat (once)."),
      input,
      h("button", { type: "button", onclick: () => { input.select(); navigator.clipboard?.writeText(invite).catch(() => {}); } }, "Copy"),
    );
  }
  main.replaceChildren(
    h("div", { class: "game-page" },
      h("div", { class: "board-column" }, reviewBar, boardBox, choices),
      h("aside", { class: "panel" },
        h("h1", {}, game.title, " ", h("a", { class: "small", href: `/rules/${game.game}`, target: "_blank" }, "rules")),
        inviteBox, status, ending, messageBox, info, controls, typed,
        h("h2", {}, "Moves"), moveList,
      ),
    ),
  );

  const say = (text, tone = "") => {
    state.message = text;
    state.tone = tone;
    messageBox.textContent = text;
    messageBox.className = tone;
  };

  const mayAct = (side) => mySides.includes(side);

  async function act(action, move) {
    state.review = null; // acting returns to the game
    const side = actingSide(action);
    const token = tokenFor(side);
    if (!token) {
      say("You are watching this game.", "warn");
      return;
    }
    const body = { action, version: state.game.version };
    if (move !== undefined) body.move = move;
    try {
      const updated = await api(`/api/games/${gameId}/actions`, { method: "POST", body, token });
      say("");
      state.hint = null;
      await adopt(updated);
    } catch (error) {
      say(error.message, "error");
      if (error.status === 409) await adopt(await api(`/api/games/${gameId}`));
      else draw();
    }
  }

  function actingSide(action) {
    const g = state.game;
    if (typeof g.turn === "number" && mayAct(g.turn) && action !== "accept-draw" && action !== "decline-draw") {
      return g.turn;
    }
    if (action === "accept-draw" || action === "decline-draw") {
      return mySides.find((s) => s !== g.draw_offer);
    }
    if (typeof g.turn === "number" && mySides.length === 2) return g.turn;
    return mySides[0];
  }

  async function adopt(updated) {
    if (updated.version < state.game.version) return;
    const changed = updated.version !== state.game.version;
    state.game = updated;
    if (changed) {
      state.steps = [];
      state.turn = null;
      state.selected = null;
    }
    await loadTurn();
    draw();
  }

  // Backgammon: the turn entered checker by checker, checked by the server.
  async function loadTurn() {
    const g = state.game;
    if (g.game !== "backgammon" || !g.board || g.board.phase !== "play" || typeof g.turn !== "number" || !mayAct(g.turn)) {
      state.turn = null;
      return;
    }
    try {
      state.turn = await api(`/api/games/${gameId}/steps`, { method: "POST", body: { steps: state.steps } });
    } catch (error) {
      say(error.message, "error");
      state.steps.pop();
      state.turn = await api(`/api/games/${gameId}/steps`, { method: "POST", body: { steps: state.steps } });
    }
  }

  async function step(text) {
    state.steps.push(text);
    say("");
    await loadTurn();
    draw();
  }

  async function moveBySum(from) {
    const turn = state.turn;
    if (!turn) return;
    const bearOff = turn.options.find((o) => String(o.from) === from && o.to === "off");
    const first = bearOff || turn.options.find((o) => String(o.from) === from);
    if (!first) return;
    state.steps.push(first.text);
    await loadTurn();
    if (!bearOff && state.turn) {
      const second = state.turn.options.find((o) => String(o.from) === String(first.to));
      if (second) {
        state.steps.push(second.text);
        await loadTurn();
      }
    }
    draw();
  }

  function explainPoint(where) {
    const g = state.game;
    const board = state.turn || g.board;
    if (where === "off" || where === "bar") return;
    const count = board.points[Number(where) - 1];
    const mine = g.board.mover === 0 ? count > 0 : count < 0;
    if (!count) say("There is no checker there.", "warn");
    else if (!mine) say("Those checkers are your opponent's.", "warn");
    else if (board.bar[g.board.mover] > 0) say("A checker on the bar must come in before any other checker moves.", "warn");
    else say("That checker cannot move with these dice (or moving it would leave a die unplayed that must be used).", "warn");
  }

  function choose(prompt, items) {
    choices.hidden = false;
    choices.replaceChildren(
      h("p", {}, prompt),
      ...items.map((item) =>
        h("button", { type: "button", "data-testid": item.testid, onclick: () => { choices.hidden = true; act("move", item.value); } }, item.label),
      ),
      h("button", { type: "button", class: "secondary", onclick: () => { choices.hidden = true; } }, "Cancel"),
    );
  }

  // Looking back over the game: the position after an earlier move, drawn from the
  // server's replay of the log; the game goes on meanwhile, and "Back to the game"
  // (or Escape) returns to it.
  const reviewVersions = () => state.game.moves.map((m) => m.version);

  async function review(version) {
    if (version === null || version >= state.game.version) {
      state.review = null;
      draw();
      return;
    }
    try {
      state.review = await api(`/api/games/${gameId}/at?version=${version}`);
    } catch (error) {
      say(error.message, "error");
    }
    draw();
  }

  function reviewStep(delta) {
    const versions = reviewVersions();
    if (!versions.length) return;
    const now = state.review ? versions.indexOf(state.review.version) : versions.length - 1;
    const next = Math.max(0, Math.min(versions.length - 1, (now < 0 ? versions.length - 1 : now) + delta));
    review(next === versions.length - 1 && delta > 0 ? null : versions[next]);
  }

  function onKey(event) {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowLeft") reviewStep(-1);
    else if (event.key === "ArrowRight" && state.review) reviewStep(1);
    else if (event.key === "Escape" && state.review) review(null);
    else return;
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  function drawReviewBar() {
    const r = state.review;
    reviewBar.hidden = !r;
    if (!r) return;
    const entry = state.game.moves.find((m) => m.version === r.version);
    const who = entry && entry.side !== null ? `${state.game.side_names[entry.side]}'s ` : "";
    const what = entry ? (entry.side === null ? `the throw ${entry.text}` : `${who}${entry.text}`) : "the start";
    reviewBar.replaceChildren(
      h("span", {}, `Looking back: the position after ${what}.`),
      h("button", { type: "button", "data-testid": "review-previous", title: "Previous move (←)", onclick: () => reviewStep(-1) }, "◀"),
      h("button", { type: "button", "data-testid": "review-next", title: "Next move (→)", onclick: () => reviewStep(1) }, "▶"),
      h("button", { type: "button", class: "primary", "data-testid": "review-back", onclick: () => review(null) }, "Back to the game"),
    );
  }

  async function askHint() {
    const g = state.game;
    try {
      const hint = await api(`/api/games/${gameId}/hint`, { token: tokenFor(g.turn) });
      if (hint.version === state.game.version) {
        state.hint = hint;
        say(`Hint: ${hint.move} — ${hint.assessment}`, "hint");
      }
    } catch (error) {
      say(error.message, "error");
    }
  }

  function draw() {
    const g = state.game;
    const render = RENDERERS[g.game];
    const ctx = {
      flipped: state.flipped,
      // A piece picked up stays picked up when a live update redraws the board.
      selected: state.selected,
      onSelect: (name) => {
        state.selected = name;
      },
      canMove: (side) => mayAct(side) && g.status === "playing",
      say,
      attempt: (text) => act("move", text),
      choose,
      turn: state.turn,
      step,
      moveBySum,
      explainPoint,
    };
    if (state.review) {
      // The earlier position, to look at only: no moves, no steps.
      const r = state.review;
      const then = { ...g, board: r.board, position: r.position, turn: null, legal_moves: [], outcome: null,
        moves: g.moves.filter((m) => m.version <= r.version) };
      const still = { ...ctx, canMove: () => false, turn: null, selected: null, onSelect: () => {} };
      if (render && r.board) boardBox.replaceChildren(render(then, still));
      else boardBox.replaceChildren(h("pre", {}, r.position));
    } else if (render && g.board) boardBox.replaceChildren(render(g, ctx));
    else boardBox.replaceChildren(h("pre", {}, g.position));
    boardBox.classList.toggle("reviewing", Boolean(state.review));
    drawReviewBar();
    boardBox.dataset.version = String(g.version);
    boardBox.dataset.turn = String(g.turn);
    boardBox.dataset.steps = String(state.steps.length);
    boardBox.dataset.phase = g.board && g.board.phase ? g.board.phase : "";
    boardBox.dataset.mine = typeof g.turn === "number" && mayAct(g.turn) && !g.outcome ? "1" : "0";
    boardBox.dataset.sources = state.turn ? [...new Set(state.turn.options.map((o) => String(o.from)))].join(",") : "";
    if (inviteBox.childElementCount) inviteBox.hidden = g.seats.every((s) => s.taken);

    // Whose turn, and what is going on.
    if (g.outcome) {
      status.textContent = "The game is over.";
      ending.hidden = false;
      ending.textContent = outcomeText(g);
    } else {
      ending.hidden = true;
      const who = g.turn === "chance" ? "The dice are rolling" : `${g.side_names[g.turn]} to play`;
      const seat = typeof g.turn === "number" ? g.seats[g.turn] : null;
      let whose = "";
      if (seat && seat.player === "computer") whose = " (the computer is thinking…)";
      else if (seat && mayAct(g.turn)) whose = mySides.length === 2 ? "" : " (you)";
      else if (seat && !seat.taken) whose = " (waiting for your friend to join)";
      else if (seat) whose = " (your opponent)";
      status.textContent = who + whose;
    }

    info.replaceChildren(...infoLines(g));
    moveList.replaceChildren(...moveListItems(g, state.review ? state.review.version : null, review));
    if (!state.review) moveList.scrollTop = moveList.scrollHeight;
    controls.replaceChildren(...controlButtons(g));
    typed.hidden = !(typeof g.turn === "number" && mayAct(g.turn) && !g.outcome && !state.review);
  }

  function infoLines(g) {
    if (g.game !== "backgammon" || !g.board) return [];
    const b = (state.review && state.review.board) || state.turn || g.board;
    const names = g.side_names;
    const lines = [
      h("p", { "data-testid": "pips" }, `Pips: ${names[0]} ${b.pips[0]}, ${names[1]} ${b.pips[1]}`),
      h("p", { "data-testid": "cube" },
        `Cube: ${g.board.cube.value}` + (g.board.cube.owner === null ? " (in the middle)" : ` (owned by ${names[g.board.cube.owner]})`)),
    ];
    const series = g.series;
    if (series && series.kind === "match") {
      const score = series.points;
      lines.push(h("p", { "data-testid": "score" },
        `Match to ${series.match_length}, game ${series.game_number}: ${names[0]} ${score[0]}, ${names[1]} ${score[1]}` +
        (g.board.crawford && !g.outcome ? " — the Crawford game (no doubling)" : "")));
    } else if (series) {
      const rules = [series.jacoby && "Jacoby rule", series.beavers && "beavers",
        series.automatic_doubles && `automatic doubles (up to ${series.automatic_doubles})`].filter(Boolean);
      lines.push(h("p", { "data-testid": "score" },
        `Money play, game ${series.game_number}: ${names[0]} ${series.points[0]}, ${names[1]} ${series.points[1]} points` +
        (rules.length ? ` — ${rules.join(", ")}` : "")));
    }
    if (series && series.max_cube) lines.push(h("p", {}, `The cube goes no higher than ${series.max_cube}.`));
    if (series && series.games.length) {
      lines.push(h("ol", { class: "games", "data-testid": "games" },
        series.games.map((r) => h("li", {}, `${names[r.winner]} won ${plural(r.points, "point")} (${r.reason})`))));
    }
    if (g.board.dice && g.board.phase === "play") lines.push(h("p", {}, `${names[g.board.mover]} rolled ${g.board.dice[0]}-${g.board.dice[1]}`));
    return lines;
  }

  function controlButtons(g) {
    const buttons = [];
    const button = (label, testid, onclick, cls = "") => h("button", { type: "button", "data-testid": testid, class: cls, onclick }, label);
    const myTurn = typeof g.turn === "number" && mayAct(g.turn) && !g.outcome;
    if (g.game === "backgammon" && myTurn) {
      const words = {
        roll: "Roll the dice", double: "Double", take: "Take", drop: "Drop (pass)", beaver: "Beaver",
        accept: "Accept the resignation", decline: "Decline the resignation",
      };
      for (const move of g.legal_moves) {
        if (words[move]) buttons.push(button(words[move], `bg-${move}`, () => act("move", move), move === "roll" || move === "take" ? "primary" : ""));
      }
      // Before rolling, a player may offer to resign a single game, a gammon or a
      // backgammon; the opponent accepts (and wins that much) or declines.
      const offers = g.legal_moves.filter((m) => m.startsWith("resign "));
      if (offers.length) {
        buttons.push(button("Offer to resign…", "bg-resign-offer", () =>
          choose("Offer to resign: your opponent wins this much if they accept (times the cube).",
            offers.map((m) => ({ label: `${m.slice(7)[0].toUpperCase()}${m.slice(8)}`, value: m, testid: `bg-${m.replace(" ", "-")}` }))),
        ));
      }
      if (g.board.phase === "resigning") {
        const offer = [...g.moves].reverse().find((m) => m.text.startsWith("resign"));
        say(`${g.side_names[g.board.mover]} offers to resign${offer ? ` (${offer.text.slice(7)})` : ""}: accept to win that much now, or decline and play on.`, "hint");
      }
      if (g.board.phase === "beavered") {
        say("Your double was beavered: take at four times the stake, or drop.", "hint");
      }
      if (g.board.phase === "doubled") {
        say(`${g.side_names[g.board.mover]} doubles to ${g.board.cube.value * 2}: take, or drop and lose ${g.board.cube.value} point${g.board.cube.value === 1 ? "" : "s"}.`, "hint");
      }
      if (state.turn) {
        buttons.push(button("Undo", "bg-undo", async () => { state.steps.pop(); await loadTurn(); draw(); }));
        const confirm = button(state.turn.complete ? (state.turn.play === "no move" ? "No move: pass" : `Confirm ${state.turn.play}`) : "Confirm", "bg-confirm",
          () => act("move", state.turn.play), "primary");
        confirm.disabled = !state.turn.complete;
        buttons.push(confirm);
      }
    }
    if (g.series && g.series.next_game && mySides.length) {
      const label = g.series.kind === "match" ? `Next game (game ${g.series.game_number + 1})` : "Play another game";
      buttons.push(button(label, "next-game", () => act("next-game"), "primary"));
    }
    if (g.outcome && mySides.length && !(g.series && g.series.next_game) && g.options.opponent !== "friend") {
      buttons.push(button("Play again", "play-again", playAgain, "primary"));
    }
    if (!g.outcome && mySides.length) {
      if (g.has_draws) {
        if (g.draw_offer !== null && mySides.some((s) => s !== g.draw_offer)) {
          buttons.push(button("Accept the draw", "accept-draw", () => act("accept-draw")), button("Decline", "decline-draw", () => act("decline-draw")));
          say(`${g.side_names[g.draw_offer]} offers a draw.`, "hint");
        } else if (g.draw_offer === null && myTurn) {
          buttons.push(button("Offer a draw", "offer-draw", () => act("offer-draw")));
        }
        if (g.claimable_draw && myTurn) buttons.push(button(`Claim a draw (${g.claimable_draw})`, "claim-draw", () => act("claim-draw")));
      }
      if (g.hints && myTurn) buttons.push(button("Hint", "hint", askHint));
      buttons.push(button("Resign", "resign", () => { if (confirmResign()) act("resign"); }, "danger"));
    }
    buttons.push(button("Flip the board", "flip", () => { state.flipped = !state.flipped; draw(); }));
    if (g.can_export) {
      buttons.push(h("a", { class: "button", href: `/api/games/${gameId}/export`, download: "", "data-testid": "download" }, `Download ${FILE_KINDS[g.game] || "the game"}`));
    }
    buttons.push(h("a", { class: "button secondary", href: "#" }, "New game"));
    return buttons;
  }

  // A new game like this one: the same opponent and rules, the colours changed.
  async function playAgain() {
    const g = state.game;
    const computer = g.seats.find((seat) => seat.player === "computer");
    const body = { game: g.game, opponent: g.options.opponent, side: computer ? computer.side : 0 };
    if (computer) body.level = computer.level;
    if (g.options.rules) body.rules = g.options.rules;
    try {
      const made = await api("/api/games", { method: "POST", body });
      store.addSeats(made.game.id, made.seats);
      store.remember(made.game.id, g.title);
      location.hash = `game=${made.game.id}`;
    } catch (error) {
      say(error.message, "error");
    }
  }

  function confirmResign() {
    const question = state.game.game === "backgammon"
      ? "Resign outright? You concede the whole game: a gammon or a backgammon if you have borne off no checker yet, times the cube."
      : "Resign this game?";
    return window.__parlourNoConfirm || window.confirm(question);
  }

  await loadTurn();
  draw();

  // Live updates: a WebSocket that reconnects and asks for what it missed.
  let socket = null;
  let retry = 500;
  function connect() {
    if (state.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/live`);
    socket.addEventListener("open", () => {
      retry = 500;
      const hello = { type: "hello", since: state.game.version };
      if (seats.length) hello.token = seats[0].token;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", async (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "update" && message.game.version > state.game.version) {
        await adopt(message.game);
      }
    });
    socket.addEventListener("close", () => {
      if (state.closed) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    });
  }
  connect();
  return () => {
    state.closed = true;
    document.removeEventListener("keydown", onKey);
    if (socket) socket.close();
  };
}

function defaultFlip(game, mySides) {
  if (mySides.length !== 1) return game.game === "checkers";
  const me = mySides[0];
  // Each player sees their own side at the bottom of the board.
  if (game.game === "checkers") return me === 0;
  return me === 1;
}

route();
