// @ts-check
// Small helpers over the DOM: elements by id, SVG elements, the error line.

const SVG = "http://www.w3.org/2000/svg";

/**
 * The element of id `id` (the page's markup has every id the modules ask for).
 * @param {string} id
 * @returns {any}
 */
export function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`no element #${id}`);
  return node;
}

/**
 * A new SVG element with `attrs`, appended to `parent` if given.
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
export function el(name, attrs, parent) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG, name));
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * An SVG text at (x, y).
 * @param {Element} parent
 * @param {number} x
 * @param {number} y
 * @param {string} content
 * @param {string} [cls]
 * @returns {SVGElement}
 */
export function svgText(parent, x, y, content, cls) {
  const t = el("text", { x, y, class: cls || "" }, parent);
  t.textContent = content;
  return t;
}

/**
 * Shows `e` (an error or a message) on the error line, or clears it.
 * @param {unknown} e
 */
export function showError(e) {
  const message = e instanceof Error ? e.message : e ? String(e) : "";
  $("error").textContent = message;
}

/**
 * An HTML element with a class and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [cls]
 * @param {string} [content]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function html(tag, cls, content) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (content !== undefined) node.textContent = content;
  return node;
}
