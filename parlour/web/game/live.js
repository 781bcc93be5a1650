// @ts-check
// Live updates: a WebSocket that says hello with the version the page has, adopts
// every newer game it is sent, and reconnects (asking for what it missed) when the
// connection drops.

/** @typedef {import("./page.js").GamePage} GamePage */

/**
 * Follow the game live until the returned function is called.
 * @param {GamePage} page
 * @returns {() => void}
 */
export function followLive(page) {
  /** @type {WebSocket | null} */
  let socket = null;
  let retry = 500;
  let closed = false;
  function connect() {
    if (closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const live = new WebSocket(`${scheme}://${location.host}/api/games/${page.gameId}/live`);
    socket = live;
    live.addEventListener("open", () => {
      retry = 500;
      /** @type {{type: string, since: number, token?: string}} */
      const hello = { type: "hello", since: page.state.game.version };
      if (page.seats.length) hello.token = page.seats[0].token;
      live.send(JSON.stringify(hello));
    });
    live.addEventListener("message", async (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "update" && message.game.version > page.state.game.version) {
        await page.adopt(message.game);
      }
    });
    live.addEventListener("close", () => {
      if (closed) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    });
  }
  connect();
  return () => {
    closed = true;
    if (socket) socket.close();
  };
}
