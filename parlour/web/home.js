// @ts-check
// The home page (choose a game and an opponent, and one's games), the invitation link
// a friend opens, and the link that takes one's games to another device. Seat tokens
// stay in this browser's localStorage; only that device link, made on request and
// read by the page (a URL's #fragment never reaches the server), carries them.

import { api, gamesOffered, openGame, store } from "./api.js";
import { h, mainArea } from "./dom.js";
import { levelChoice } from "./levels.js";

/** The home page: a card per game, and the recent games. */
export async function showHome() {
  const main = mainArea();
  document.title = "Parlour";
  main.replaceChildren(h("p", {}, "Loading…"));
  let catalogue;
  try {
    catalogue = await gamesOffered();
  } catch (error) {
    main.replaceChildren(h("p", { class: "error" }, `The server did not answer: ${error instanceof Error ? error.message : error}`));
    return;
  }
  const cards = catalogue.games.map((/** @type {any} */ game) => gameCard(game));
  const sections = [
    h("section", { class: "intro" },
      h("h1", {}, "Parlour"),
      h("p", {}, "Chess, checkers and backgammon: play the computer, a friend at this screen, or a friend anywhere with a link."),
    ),
    h("div", { class: "cards" }, cards),
  ];
  const importable = catalogue.games.filter((/** @type {any} */ game) => game.file_format);
  if (importable.length) sections.push(importForm(importable));
  const mine = yourGames();
  if (mine) sections.push(mine);
  main.replaceChildren(...sections);
}

/**
 * "Your games": the games this browser holds seats in, newest first, each with how
 * it stands (your move, their move, won, lost...), from the server; and the link
 * that takes them to another device. Null when it holds none.
 * @returns {HTMLElement | null}
 */
function yourGames() {
  const remembered = store.recent().slice(0, 50);
  if (!remembered.length) return null;
  const list = h("ul", { class: "your-games", "data-testid": "your-games" },
    remembered.map((g) => h("li", { "data-game": g.id }, h("a", { href: `#game=${g.id}` }, g.title), " ", h("span", { class: "game-state" }, "…"))));
  const linkBox = h("div", { class: "device-link", hidden: true });
  const section = h("section", { class: "recent" },
    h("h2", {}, "Your games"),
    list,
    h("button", { type: "button", "data-testid": "device-link-show", onclick: () => showDeviceLink(linkBox) }, "Play these games on another device"),
    linkBox,
  );
  api(`/api/games?ids=${remembered.map((g) => encodeURIComponent(g.id)).join(",")}`)
    .then((answer) => {
      /** @type {Map<string, any>} */
      const known = new Map(answer.games.map((/** @type {any} */ g) => [g.id, g]));
      for (const item of list.querySelectorAll("li")) {
        const game = known.get(/** @type {HTMLElement} */ (item).dataset.game || "");
        const state = /** @type {HTMLElement} */ (item.querySelector(".game-state"));
        if (!game) {
          state.textContent = "(not on this server)";
          continue;
        }
        if (game.status === "unreadable") {
          state.textContent = "(cannot be shown: its record no longer replays)";
          continue;
        }
        const [words, kind] = standing(game, store.seats(game.id).map((s) => s.side));
        state.textContent = `${words} · ${game.moves} moves · ${new Date(game.last_change).toLocaleString()}`;
        item.classList.add(kind);
      }
      // Games waiting for this browser's move first, then the others going on, then the finished.
      const order = { "to-move": 0, waiting: 1, over: 2, gone: 3 };
      const items = [...list.querySelectorAll("li")];
      const rank = (/** @type {Element} */ li) => order[["to-move", "waiting", "over"].find((k) => li.classList.contains(k)) || "gone"];
      list.replaceChildren(...items.sort((a, b) => rank(a) - rank(b)));
    })
    .catch(() => {
      for (const state of list.querySelectorAll(".game-state")) state.textContent = "";
    });
  return section;
}

/**
 * How a game stands for the sides this browser holds: words, and a kind for the order.
 * @param {any} game  a line of GET /api/games
 * @param {number[]} sides
 * @returns {[string, string]}
 */
function standing(game, sides) {
  if (game.outcome) {
    const winner = game.outcome.winner;
    if (winner === null) return [`drawn (${game.outcome.reason})`, "over"];
    if (sides.length === 1) return [`${sides[0] === winner ? "won" : "lost"} (${game.outcome.reason})`, "over"];
    return [`${game.outcome.winner_name} won (${game.outcome.reason})`, "over"];
  }
  if (typeof game.turn === "number" && sides.includes(game.turn)) return ["your move", "to-move"];
  if (game.status === "abandoned") return ["abandoned", "waiting"];
  return [game.opponent === "computer" ? "the computer's move" : "their move", "waiting"];
}

/**
 * Show the link that takes this browser's games (their seats) to another device.
 * @param {HTMLElement} box
 */
function showDeviceLink(box) {
  const games = store.recent().map((g) => ({ id: g.id, title: g.title, seats: store.seats(g.id) }));
  const text = btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify({ v: 1, games }))))
    .replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "text", readonly: true, value: `${location.origin}/#device=${text}`, "data-testid": "device-link", "aria-label": "Link to your games" }));
  box.hidden = false;
  box.replaceChildren(
    h("p", {}, "Open this link on your other device to play your games there too. It holds your seats: anyone with it can play them, so send it only to yourself."),
    input,
    h("button", { type: "button", onclick: () => { input.select(); navigator.clipboard?.writeText(input.value).catch(() => {}); } }, "Copy"),
  );
}

/**
 * Take the games of a device link into this browser, then show them.
 * @param {string} text  the link's part after #device=
 */
export async function takeDeviceLink(text) {
  const main = mainArea();
  let games;
  try {
    const bytes = Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
    const data = JSON.parse(new TextDecoder().decode(bytes));
    games = data.games.filter((/** @type {any} */ g) => typeof g.id === "string" && typeof g.title === "string" && Array.isArray(g.seats));
  } catch {
    main.replaceChildren(
      h("p", { class: "error", "data-testid": "device-error" }, "This link to your games is damaged (cut short, perhaps): make it again on your other device, under Your games."),
      h("p", {}, h("a", { href: "#" }, "Go to the home page"), "."),
    );
    return;
  }
  for (const game of [...games].reverse()) {
    store.addSeats(game.id, game.seats.filter((/** @type {any} */ s) => (s.side === 0 || s.side === 1) && typeof s.token === "string"));
    store.remember(game.id, game.title);
  }
  history.replaceState(null, "", location.pathname);  // the tokens leave the address bar
  await showHome();
  const note = h("p", { class: "hint", "data-testid": "device-taken", role: "status" }, `${games.length} of your games are on this device now.`);
  mainArea().prepend(note);
}

/**
 * What each game's position text is called, and a note on where it comes from: the
 * server reads it by the game's rules (and says what is wrong with it).
 * @type {Record<string, {name: string, note: string}>}
 */
const POSITION_TEXT = {
  chess: {
    name: "FEN",
    note: "A position in Forsyth-Edwards Notation, as chess programs and puzzle sites copy it: e.g. 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1.",
  },
  checkers: {
    name: "PDN FEN",
    note: "The side to move, then each side's squares (K before a king): e.g. W:W21,22,23:B1,2,K3.",
  },
  backgammon: {
    name: "GNU Backgammon Position ID:Match ID",
    note: "As GNU Backgammon shows them, e.g. 4HPwATDgc/ABMA:cIkWAAAAAAAA (the Position ID alone is money play). A match goes on from the Match ID's score: choose its length under Rules.",
  },
};

/** Time controls offered for chess and checkers: "base+increment" in seconds. */
const CLOCKS = [["60+0", "1+0 bullet"], ["180+2", "3+2 blitz"], ["300+3", "5+3 blitz"], ["600+5", "10+5 rapid"], ["900+10", "15+10 rapid"], ["1800+20", "30+20 classical"]];
/** Backgammon's: "base/delay" in seconds (a delay for each action, then the reserve). */
const BACKGAMMON_CLOCKS = [["300/12", "5 min + 12 s a move"], ["600/12", "10 min + 12 s a move"], ["900/15", "15 min + 15 s a move"]];

/**
 * The time control a clock choice names ("300+3": base and increment; "300/12":
 * base and delay).
 * @param {string} value
 * @returns {{base: number, increment?: number, delay?: number}}
 */
function clockOf(value) {
  const [base, step] = value.split(/[+/]/).map(Number);
  return value.includes("/") ? { base, delay: step } : { base, increment: step };
}

/**
 * A card's "Start from a position": a field for the position to start from, in the
 * game's own text, sent with the card's other choices when it is filled.
 * @param {any} game  the catalogue's entry
 * @returns {{element: HTMLElement, read: () => string}}
 */
function startFromPosition(game) {
  const known = POSITION_TEXT[game.name] || { name: "Position", note: "The position in the game's own notation." };
  const input = /** @type {HTMLInputElement} */ (h("input", {
    type: "text", id: `${game.name}-position`, name: "start", maxlength: "200",
    spellcheck: "false", autocomplete: "off", autocapitalize: "off",
    "aria-describedby": `${game.name}-position-note`, "data-testid": `${game.name}-position`,
  }));
  const element = h("details", { class: "start-from", "data-testid": `${game.name}-start-from` },
    h("summary", {}, "Start from a position"),
    h("label", { for: input.id }, `Paste a ${known.name}`),
    h("div", { class: "typed-move" }, input),
    h("p", { class: "small", id: `${game.name}-position-note` }, known.note),
    game.name === "chess" || game.name === "checkers"
      ? h("p", {}, h("a", { href: `#editor=${game.name}`, "data-testid": `${game.name}-editor-link` }, "Set up a position on a board"))
      : null,
  );
  return { element, read: () => input.value.trim() };
}

/**
 * A game's card: the opponent, the side, the game's optional rules, and a position
 * to start from.
 * @param {any} game  the catalogue's entry
 */
function gameCard(game) {
  const id = (name) => `${game.name}-${name}`;
  const { select: levelSelect, note: levelNote } = levelChoice(game, id("level"), `${game.name}-level`);
  const opponent = (value, label, checked) =>
    h("label", { class: "choice" },
      h("input", { type: "radio", name: id("opponent"), value, checked, "data-testid": `${game.name}-opponent-${value}` }),
      " ", label);
  const sideSelect = /** @type {HTMLSelectElement} */ (h("select", { name: "side", "data-testid": `${game.name}-side` },
    game.side_names.map((name, side) => h("option", { value: side }, name)),
  ));
  const rules = rulesForm(game.name, game.rules || []);
  const position = startFromPosition(game);
  const clockSelect = /** @type {HTMLSelectElement} */ (h("select", { name: "clock", "data-testid": `${game.name}-clock` },
    h("option", { value: "" }, "no clock"),
    (game.name === "backgammon" ? BACKGAMMON_CLOCKS : CLOCKS).map(([value, label]) => h("option", { value }, label)),
  ));
  // The tutor warns before a move at or past the threshold (games with an engine).
  const coached = game.levels.some((level) => level.name !== "random");
  const tutorSelect = /** @type {HTMLSelectElement} */ (h("select", { name: "tutor", "data-testid": `${game.name}-tutor` },
    h("option", { value: "" }, "off"),
    h("option", { value: "blunder" }, game.name === "backgammon" ? "warn at very bad moves" : "warn at blunders"),
    h("option", { value: "mistake" }, game.name === "backgammon" ? "warn at bad moves" : "warn at mistakes"),
    h("option", { value: "inaccuracy" }, game.name === "backgammon" ? "warn at doubtful moves" : "warn at inaccuracies"),
  ));
  const form = h("form", { class: "card", "data-game": game.name },
    h("h2", {}, game.title),
    h("p", { class: "rules-link" }, h("a", { href: `/rules/${game.name}`, target: "_blank" }, `How to play ${game.title.toLowerCase()}`)),
    h("fieldset", {},
      h("legend", {}, "Opponent"),
      opponent("computer", h("span", {}, "The computer at ", levelSelect), true),
      levelNote,
      opponent("local", "A friend at this screen", false),
      opponent("friend", "A friend anywhere (send a link)", false),
    ),
    h("label", { class: "side" }, "Play as ", sideSelect),
    coached ? h("label", { class: "side", title: "Before a move that gives too much away, the tutor says so" }, "Tutor: ", tutorSelect) : null,
    h("label", { class: "side", title: "Each side's time, kept by the server: a side whose time runs out loses" }, "Clock: ", clockSelect),
    rules ? rules.element : null,
    position.element,
    h("button", { type: "submit", class: "primary", "data-testid": `${game.name}-start` }, `Play ${game.title.toLowerCase()}`),
    h("p", { class: "error", role: "alert" }),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const checked = /** @type {HTMLInputElement} */ (form.querySelector(`input[name="${id("opponent")}"]:checked`));
    const choice = checked.value;
    /** @type {Record<string, any>} */
    const body = { game: game.name, opponent: choice, side: Number(sideSelect.value) };
    if (choice === "computer") body.level = levelSelect.value;
    // Between friends apart the tutor is a rule of the game, seen by both.
    if (coached && choice === "friend" && tutorSelect.value) body.tutor = tutorSelect.value;
    if (rules) body.rules = rules.read();
    // A pasted position: the game starts there (the server says what is wrong with it).
    const pasted = position.read();
    if (pasted) body.start = pasted;
    if (clockSelect.value) body.clock = clockOf(clockSelect.value);
    // One game per click: a second click while the first is on its way does nothing.
    const start = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
    if (start.disabled) return;
    start.disabled = true;
    try {
      const made = await api("/api/games", { method: "POST", body });
      store.setTutor(made.game.id, coached ? tutorSelect.value : "");
      if (made.invite_url) store.setInvite(made.game.id, new URL(made.invite_url, location.origin).href);
      openGame(made.game.id, made.seats, game.title);
    } catch (error) {
      const shown = form.querySelector(".error");
      if (shown) shown.textContent = error instanceof Error ? error.message : String(error);
    } finally {
      start.disabled = false;
    }
  });
  return form;
}

/**
 * "Import a game": a game file (PGN, PDN, .mat) chosen or pasted becomes a game to
 * look back over, analyse or play on, at this screen, against the computer (its
 * usual level) or a friend. The server reads and checks it; the file's extension
 * only preselects the game.
 * @param {any[]} games  the catalogue's games that have a file format
 */
function importForm(games) {
  const gameSelect = /** @type {HTMLSelectElement} */ (h("select", { name: "game", "data-testid": "import-game" },
    games.map((game) => h("option", { value: game.name }, `${game.title} (.${game.file_format})`)),
  ));
  const text = /** @type {HTMLTextAreaElement} */ (h("textarea", {
    name: "text", rows: "6", spellcheck: "false", "data-testid": "import-text",
    placeholder: "Paste a game here, or choose a file",
    "aria-label": "The game file's text",
  }));
  const file = /** @type {HTMLInputElement} */ (h("input", {
    type: "file", "data-testid": "import-file", "aria-label": "A game file",
    accept: [...games.map((game) => `.${game.file_format}`), ".txt"].join(","),
  }));
  const opponentSelect = /** @type {HTMLSelectElement} */ (h("select", { name: "opponent", "data-testid": "import-opponent" },
    h("option", { value: "local" }, "at this screen"),
    h("option", { value: "computer" }, "against the computer"),
    h("option", { value: "friend" }, "with a friend (send a link)"),
  ));
  const sideSelect = /** @type {HTMLSelectElement} */ (h("select", { name: "side", "data-testid": "import-side" }));
  const showSides = () => {
    const game = games.find((g) => g.name === gameSelect.value) || games[0];
    sideSelect.replaceChildren(...game.side_names.map((/** @type {string} */ name, /** @type {number} */ side) => h("option", { value: side }, name)));
    sideSelect.disabled = opponentSelect.value === "local";
  };
  gameSelect.addEventListener("change", showSides);
  opponentSelect.addEventListener("change", showSides);
  showSides();
  const error = h("p", { class: "error", role: "alert" });
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    const extension = chosen.name.split(".").pop()?.toLowerCase();
    const known = games.find((game) => game.file_format === extension);
    if (known) gameSelect.value = known.name;
    showSides();
    text.value = await chosen.text();
  });
  const form = h("form", { class: "import", "data-testid": "import-form" },
    h("h2", {}, "Import a game"),
    h("p", {}, "A game from a file (or pasted), to look back over, analyse or play on from where it stops. From a file of several games, the first is imported."),
    h("div", { class: "import-row" }, h("label", {}, "Game ", gameSelect), file),
    h("div", { class: "import-row" }, h("label", {}, "Play on ", opponentSelect), h("label", {}, "as ", sideSelect)),
    text,
    h("button", { type: "submit", class: "primary", "data-testid": "import-start" }, "Import"),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (!text.value.trim()) {
      error.textContent = "Choose a game file or paste one first.";
      return;
    }
    const game = games.find((g) => g.name === gameSelect.value);
    const start = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
    if (start.disabled) return;
    start.disabled = true;
    try {
      /** @type {Record<string, any>} */
      const body = { game: gameSelect.value, text: text.value, opponent: opponentSelect.value };
      if (opponentSelect.value !== "local") body.side = Number(sideSelect.value);
      if (opponentSelect.value === "computer" && game) body.level = game.default_level;
      const made = await api("/api/games/import", { method: "POST", body });
      if (made.invite_url) store.setInvite(made.game.id, new URL(made.invite_url, location.origin).href);
      openGame(made.game.id, made.seats, `${game ? game.title : made.game.title} (imported)`);
    } catch (problem) {
      error.textContent = problem instanceof Error ? problem.message : String(problem);
    } finally {
      start.disabled = false;
    }
  });
  return form;
}

/**
 * @typedef {object} RuleChoice  One optional rule on the form, as the server describes it.
 * @property {string} name
 * @property {string} label
 * @property {string} about
 * @property {"choice" | "flag"} kind
 * @property {[any, string][]} [choices]
 * @property {any} default
 * @property {Record<string, any> | null} only_with
 */

/**
 * The form's part for a game's optional rules (a backgammon match's length, the
 * cube's rules), built from the server's description; the server checks the rules
 * again and explains a refusal. Null for a game without optional rules.
 * @param {string} gameName
 * @param {RuleChoice[]} choices
 * @returns {{element: HTMLElement, read: () => Record<string, any>} | null}
 */
function rulesForm(gameName, choices) {
  if (!choices.length) return null;
  /** @type {Map<string, {rule: RuleChoice, input: HTMLInputElement | HTMLSelectElement, label: HTMLElement}>} */
  const fields = new Map();
  for (const rule of choices) {
    const testid = `${gameName}-${rule.name.replaceAll("_", "-")}`;
    let input;
    let label;
    if (rule.kind === "flag") {
      input = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", name: rule.name, checked: rule.default, "data-testid": testid }));
      label = h("label", { class: "choice", title: rule.about }, input, " ", rule.label);
    } else {
      input = /** @type {HTMLSelectElement} */ (h("select", { name: rule.name, "data-testid": testid },
        (rule.choices || []).map(([value, words]) => h("option", { value: value ?? "", selected: value === rule.default }, words))));
      label = h("label", { class: "choice", title: rule.about }, `${rule.label} `, input);
    }
    fields.set(rule.name, { rule, input, label });
  }
  /** @param {string} name */
  const valueOf = (name) => {
    const field = fields.get(name);
    if (!field) return undefined;
    if (field.input instanceof HTMLInputElement) return field.input.checked;
    const chosen = (field.rule.choices || []).find(([value]) => String(value ?? "") === field.input.value);
    return chosen ? chosen[0] : null;
  };
  /** @param {RuleChoice} rule */
  const applies = (rule) => !rule.only_with || Object.entries(rule.only_with).every(([name, value]) => valueOf(name) === value);
  const update = () => {
    for (const { rule, input, label } of fields.values()) {
      label.style.display = applies(rule) ? "" : "none"; // a label's CSS display outranks [hidden]
      input.disabled = !applies(rule);
    }
  };
  for (const { input } of fields.values()) input.addEventListener("change", update);
  update();
  const element = h("fieldset", { class: "rules-choice" },
    h("legend", {}, "Rules"), [...fields.values()].map((field) => field.label));
  const read = () => {
    /** @type {Record<string, any>} */
    const rules = {};
    for (const { rule } of fields.values()) {
      const value = valueOf(rule.name);
      if (applies(rule) && value !== null) rules[rule.name] = value;
    }
    return rules;
  };
  return { element, read };
}

/**
 * Exchange an invitation link for a seat, once, and go to the game.
 * @param {string} value  the link's "gameid.invite"
 */
export async function joinFromLink(value) {
  const main = mainArea();
  const dot = value.indexOf(".");
  if (dot <= 0 || dot === value.length - 1) {
    // A link cut short (copied in part): say so rather than guess at the game.
    main.replaceChildren(
      h("p", { class: "error", "data-testid": "join-error" }, "This invitation link is incomplete: it ends #join= then the game's code, a dot and the invitation's code. Ask your friend to send it again."),
      h("p", {}, h("a", { href: "#" }, "Start a new game"), "."),
    );
    return;
  }
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
      h("p", { class: "error", "data-testid": "join-error" }, `This invitation cannot be used: ${error instanceof Error ? error.message : error}.`),
      h("p", {}, h("a", { href: `#game=${gameId}` }, "Watch the game"), " or ", h("a", { href: "#" }, "start a new one"), "."),
    );
  }
}

