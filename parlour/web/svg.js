// @ts-check
// Small helpers for drawing SVG by hand: every board is plain SVG, sharp at any size.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes, and children appended. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined) element.append(child);
  }
  return element;
}

/** The SVG coordinates of a pointer event over ``root``. */
export function pointerAt(root, event) {
  const point = root.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(root.getScreenCTM().inverse());
}

/**
 * Let a board be played by keyboard: it takes the focus (Tab), and is marked
 * ``data-keyboard`` while it holds the focus that way. Focus from a click does not
 * count: after a click the arrow keys stay the page's (looking back over the moves).
 * Returns whether the board's keys are its own now.
 * @param {Element} root
 * @returns {() => boolean}
 */
export function keyboardFocus(root) {
  root.setAttribute("tabindex", "0");
  const element = /** @type {SVGElement} */ (root);
  let pointed = false;
  root.addEventListener("pointerdown", () => {
    pointed = true;
    setTimeout(() => { pointed = false; });
    delete element.dataset.keyboard;
  });
  root.addEventListener("focus", () => {
    if (!pointed) element.dataset.keyboard = "1";
  });
  root.addEventListener("blur", () => {
    delete element.dataset.keyboard;
  });
  return () => element.dataset.keyboard === "1";
}
