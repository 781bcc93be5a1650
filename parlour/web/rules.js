// @ts-check
// A rules page opened from a game (/rules/chess?game=ID) offers the way back to it;
// the header has the theme and sound switches, as every page's.

import { addSwitches } from "./settings.js";

addSwitches(document.querySelector("header.top"));

const game = new URLSearchParams(location.search).get("game");
const main = document.querySelector("main.rules");
if (game && /^[A-Za-z0-9_-]{1,64}$/.test(game) && main) {
  const back = document.createElement("a");
  back.href = `/#game=${game}`;
  back.className = "back-to-game";
  back.dataset.testid = "back-to-game";
  back.textContent = "← Back to your game";
  main.prepend(back);
}
