// @ts-check
// Live updates: a WebSocket that says hello with the version the page has, adopts
// every newer game it is sent, and reconnects (asking for what it missed) when the
// connection drops.

/** @typedef {import("./page.js").GamePage} GamePage */

/**
 * The connection as the page shows it: "connecting", "connected", "reconnecting"
 * (with the seconds until the next try) or "offline" (the browser has no network).
 * @typedef {{status: string, seconds: number}} Connection
 */

/**
 * Follow the game live until the returned function is called, telling the page how
 * the connection stands (``page.connected``) whenever that changes.
 * @param {GamePage} page
 * @returns {() => void}
 */
export function followLive(page) {
  /** @type {WebSocket | null} */
  let socket = null;
  let retry = 500;
  let closed = false;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let next = null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let ticking = null;
  /** @param {string} status @param {number} [seconds] */
  const show = (status, seconds = 0) => page.connected({ status, seconds });
  function wait() {
    // Try again after ``retry`` ms, counting down the seconds on the page.
    let left = Math.ceil(retry / 1000);
    show(navigator.onLine ? "reconnecting" : "offline", left);
    if (ticking) clearInterval(ticking);
    ticking = setInterval(() => {
      left = Math.max(0, left - 1);
      show(navigator.onLine ? "reconnecting" : "offline", left);
    }, 1000);
    next = setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  }
  function connect() {
    if (closed) return;
    if (ticking) clearInterval(ticking);
    ticking = null;
    next = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const live = new WebSocket(`${scheme}://${location.host}/api/games/${page.gameId}/live`);
    socket = live;
    live.addEventListener("open", async () => {
      retry = 500;
      /** @type {{type: string, since: number, token?: string}} */
      const hello = { type: "hello", since: page.state.game.version };
      if (page.seats.length) hello.token = page.seats[0].token;
      live.send(JSON.stringify(hello));
      show("connected");
    });
    live.addEventListener("message", async (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "update" && message.game.version > page.state.game.version) {
        await page.adopt(message.game);
      }
    });
    live.addEventListener("close", () => {
      if (closed || socket !== live) return;
      socket = null;
      wait();
    });
  }
  const offline = () => {
    if (socket) socket.close(); // its close starts the countdown, shown as offline
    else show("offline");
  };
  const online = () => {
    // Back on the network: try at once rather than at the end of the countdown.
    if (next) clearTimeout(next);
    retry = 500;
    if (!socket) connect();
  };
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);
  show("connecting");
  connect();
  return () => {
    closed = true;
    window.removeEventListener("offline", offline);
    window.removeEventListener("online", online);
    if (next) clearTimeout(next);
    if (ticking) clearInterval(ticking);
    if (socket) socket.close();
  };
}
