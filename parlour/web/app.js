// @ts-check
// Parlour in the browser: the home page and the game page, over the server's HTTP
// and WebSocket API. This module only routes: the page shown follows the URL's hash.

import { joinFromLink, showHome, takeDeviceLink } from "./home.js";
import { showEditor } from "./editor.js";
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
  const device = params.get("device");
  if (join !== null) await joinFromLink(join);
  else if (device !== null) await takeDeviceLink(device);
  else if (game !== null) leave = await showGame(game);
  else if (params.has("editor")) await showEditor(params.get("editor") || "");
  else await showHome();
}

window.addEventListener("hashchange", route);
route();
