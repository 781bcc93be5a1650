// @ts-check
// The server's HTTP API, and what this browser remembers: the seats' tokens (never in
// a URL), invitations sent, and the recent games.

/** @typedef {import("./types.js").Seat} Seat */

let busy = 0;

/** Mark the page busy while requests are out (tests wait for it to be idle). */
function setBusy(/** @type {number} */ delta) {
  busy += delta;
  document.body.dataset.busy = busy > 0 ? "1" : "0";
}

/** A refusal from the server: its sentence, with the status and the JSON body. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   * @param {any} data
   */
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

/**
 * Call the API: JSON in and out; a refusal throws an ApiError naming why.
 * @param {string} path
 * @param {{method?: string, body?: any, token?: string}} [request]
 * @returns {Promise<any>}
 */
export async function api(path, { method = "GET", body, token } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  setBusy(1);
  try {
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      // No answer at all (the network, or the server, is down): say so plainly.
      throw new ApiError("The server cannot be reached: check the connection and try again.", 0, { error: "unreachable" });
    }
    const data = await response.json().catch(() => ({ error: "bad-answer", detail: "the server's answer was not JSON" }));
    if (!response.ok) throw new ApiError(data.detail || `the server refused (${response.status})`, response.status, data);
    return data;
  } finally {
    setBusy(-1);
  }
}

/**
 * @param {string} key
 * @returns {any[]}
 */
function readList(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "[]");
  } catch {
    return [];
  }
}

/** The most games this browser lists (the newest kept). */
const MOST_REMEMBERED = 100;

/** @type {Promise<any> | null} */
let offered = null;

/**
 * The games this server offers (``GET /api/catalogue``), asked once while the page
 * lives: the home page and the board editor both need it.
 * @returns {Promise<any>}
 */
export function gamesOffered() {
  offered ??= api("/api/catalogue").catch((error) => {
    offered = null; // asked again next time
    throw error;
  });
  return offered;
}

export const store = {
  /**
   * The seats this browser holds in a game.
   * @param {string} id
   * @returns {Seat[]}
   */
  seats(id) {
    return readList(`parlour:seats:${id}`);
  },
  /**
   * @param {string} id
   * @param {Seat[]} seats
   */
  addSeats(id, seats) {
    const known = store.seats(id).filter((s) => !seats.some((n) => n.side === s.side));
    localStorage.setItem(`parlour:seats:${id}`, JSON.stringify([...known, ...seats]));
  },
  /**
   * @param {string} id
   * @param {string} url
   */
  setInvite(id, url) {
    localStorage.setItem(`parlour:invite:${id}`, url);
  },
  /** @param {string} id */
  invite(id) {
    return localStorage.getItem(`parlour:invite:${id}`);
  },
  /**
   * The tutor's threshold chosen for a game ("inaccuracy", "mistake", "blunder"),
   * or "" for no tutor.
   * @param {string} id
   */
  tutor(id) {
    return localStorage.getItem(`parlour:tutor:${id}`) || "";
  },
  /**
   * @param {string} id
   * @param {string} threshold
   */
  setTutor(id, threshold) {
    if (threshold) localStorage.setItem(`parlour:tutor:${id}`, threshold);
    else localStorage.removeItem(`parlour:tutor:${id}`);
  },
  /** @returns {{id: string, title: string, at: string}[]} */
  recent() {
    return readList("parlour:recent");
  },
  /**
   * @param {string} id
   * @param {string} title
   */
  remember(id, title) {
    const list = store.recent().filter((g) => g.id !== id);
    list.unshift({ id, title, at: new Date().toISOString() });
    localStorage.setItem("parlour:recent", JSON.stringify(list.slice(0, MOST_REMEMBERED)));
  },
};

/**
 * Keep a game's seats and title in this browser, and open its page.
 * @param {string} id
 * @param {Seat[]} seats
 * @param {string} title
 */
export function openGame(id, seats, title) {
  store.addSeats(id, seats);
  store.remember(id, title);
  location.hash = `game=${id}`;
}
