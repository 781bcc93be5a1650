// @ts-check
// Building the page: elements made in one call, and words for counts.

/**
 * An HTML element with attributes (``on…`` ones become listeners, ``dataset`` sets
 * data attributes, false/null/undefined are left out) and children appended.
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
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

/**
 * "1 point", "3 points".
 * @param {number} n
 * @param {string} word
 */
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The page's main area, where the home page or a game is drawn. */
export function mainArea() {
  const main = document.getElementById("main");
  if (!main) throw new Error("the page has no #main");
  return main;
}
