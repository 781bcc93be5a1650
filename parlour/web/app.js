// @ts-check
// Parlour in the browser: the home page and the game page, over the server's HTTP
// and WebSocket API. This module only routes: the page shown follows the URL's hash.

import { joinFromLink, showHome } from "./home.js";
import { showGame } from "./game/page.js";
import { addSwitches } from "./settings.js";

addSwitches(document.querySelector("header.top"));

/** What to do on leaving the page shown (a game page stops following the game). */
let leave = () => {};

async function route() {
  leave();
  leave = () => {};
  const params = new URLSearchParams(location.hash.slice(1));
  const join = params.get("join");
  const game = params.get("game");
  if (join !== null) await joinFromLink(join);
  else if (game !== null) leave = await showGame(game);
  else await showHome();
}

window.addEventListener("hashchange", route);
route();
