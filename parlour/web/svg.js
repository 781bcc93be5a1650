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
