// @ts-check
// The clocks of a game with a time control, as the server reckons them: each side's
// time as of the game's last event, and whose is running. The page counts the
// running one down from the server's time (the game's clock carries the server's
// "now", which says how far this device's clock is off); the server, not the page,
// decides when a side's time is out.

import { h } from "../dom.js";

/** @typedef {import("./page.js").GamePage} GamePage */

/**
 * A clock's time as players read it: h:mm:ss, m:ss, and tenths under ten seconds.
 * @param {number} ms
 * @returns {string}
 */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  const seconds = Math.floor(left / 1000);
  const [hours, minutes, rest] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  const mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
  return `${hours ? `${hours}:` : ""}${mm}:${String(rest).padStart(2, "0")}`;
}

/**
 * Each side's time now, in milliseconds.
 * @param {any} clock  the game's clock, as the server sent it
 * @param {number} offset  the server's time less this device's (ms)
 * @param {number} [now]
 * @returns {number[]}
 */
export function clockReading(clock, offset, now = Date.now()) {
  const reading = [...clock.remaining];
  if (clock.running !== null && clock.since !== null) {
    const spent = now + offset - clock.since * 1000 - clock.delay * 1000;
    reading[clock.running] = Math.max(0, reading[clock.running] - Math.max(0, spent));
  }
  return reading;
}

/**
 * Draw the clocks into ``box`` (hidden in a game without them).
 * @param {GamePage} page
 * @param {HTMLElement} box
 */
export function drawClocks(page, box) {
  const g = page.state.game;
  const clock = g.clock;
  box.hidden = !clock;
  if (!clock) return;
  const reading = clockReading(clock, page.state.clockOffset);
  box.replaceChildren(
    ...[0, 1].map((side) => {
      const running = clock.running === side && !g.outcome;
      const classes = ["clock", running ? "running" : "", reading[side] < 20000 ? "low" : "", reading[side] <= 0 ? "out" : ""];
      return h("div", { class: classes.filter(Boolean).join(" "), "data-testid": `clock-${side}`, "data-ms": String(Math.round(reading[side])) },
        h("span", { class: "clock-name" }, g.side_names[side]),
        h("span", { class: "clock-time" }, clockText(reading[side])));
    }),
    h("span", { class: "clock-label" }, clock.label),
  );
}

/**
 * Keep the clocks ticking (ten times a second while one runs); returns what stops it.
 * @param {GamePage} page
 * @param {HTMLElement} box
 * @returns {() => void}
 */
export function tickClocks(page, box) {
  const timer = setInterval(() => {
    const clock = page.state.game.clock;
    if (clock && clock.running !== null && !page.state.game.outcome) drawClocks(page, box);
  }, 100);
  return () => clearInterval(timer);
}

/**
 * How far the server's time is ahead of this device's (ms), from a game just received.
 * @param {any} game
 * @returns {number}
 */
export function serverOffset(game) {
  return game.clock && typeof game.clock.now === "number" ? game.clock.now * 1000 - Date.now() : 0;
}
