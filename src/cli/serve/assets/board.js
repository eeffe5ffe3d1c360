// @ts-check
// The board: Oware's houses and stores or Dobutsu's squares and hands drawn in SVG from the
// position shown, the moves the person can make on it (click, tap, keyboard), Oware's sowing
// seed by seed, the best move's mark, and the evaluation bar beside it.

import { app, actions, humanToMove, legalMoves, lastMove } from "./state.js";
import { $, el, svgText as text, showError } from "./dom.js";

/** @typedef {import("./types.js").EndReply} EndReply */
/** @typedef {import("./types.js").StateReply} StateReply */

/**
 * The bar at the end of a game: the result, the winner's side full.
 * @param {EndReply} end
 */
export function setEvalBarToEnd(end) {
  const players = app.state ? app.state.players : [];
  const share = end.winner === players[0] ? 1 : end.winner === players[1] ? 0 : 0.5;
  setEvalBar(share, end.result);
}

/**
 * The bar at the first player's `share` (null: none known) with `label`.
 * @param {number | null} share
 * @param {string} label
 */
export function setEvalBar(share, label) {
  const fill = /** @type {HTMLElement} */ (document.querySelector(".evalbar-fill"));
  fill.style.height = share === null ? "50%" : `${Math.round(share * 100)}%`;
  $("evalbar").querySelector(".evalbar-text").textContent = label || "";
  $("evalbar").setAttribute("aria-label", `Evaluation: ${label || "none"}`);
}

/**
 * Draws `state` instead of the position shown, for a look at a line (no move can be made on
 * it, and nothing of the position shown changes); `draw()` shows the position again.
 * @param {StateReply} state
 */
export function drawPreview(state) {
  const [real, best, selected] = [app.state, app.bestMove, app.selected];
  app.state = Object.assign({}, state, { legal: [] });
  app.bestMove = null;
  app.selected = null;
  draw();
  $("board").classList.add("preview");
  [app.state, app.bestMove, app.selected] = [real, best, selected];
}

/** Draws the position shown. */
export function draw() {
  $("board").classList.remove("preview");
  // The bar turns with the board, whichever control turned it (button, `f`, side).
  $("evalbar").classList.toggle("flipped", app.flipped);
  const svg = $("board");
  // The element with the focus (a square, a house, a piece in hand) keeps it when redrawn.
  const focused = document.activeElement && svg.contains(document.activeElement)
    ? ["data-square", "data-hand", "data-owner"].map((a) => document.activeElement?.getAttribute(a) || "")
    : null;
  svg.replaceChildren();
  if (!app.state) return;
  svg.classList.toggle("dobutsu", app.state.game === "dobutsu");
  // A game over with the seeds left given to the stores shows that final counting: the stores
  // then hold the result the status states.
  const board = app.state.end && app.state.end.counted ? app.state.end.counted : app.state.board;
  if (app.state.game === "oware") drawOware(svg, board.houses, board.stores);
  else drawDobutsu(svg);
  if (focused) {
    const [sq, hand, owner] = focused;
    const again = sq ? svg.querySelector(`[data-square="${sq}"]`) : svg.querySelector(`[data-hand="${hand}"][data-owner="${owner}"]`);
    if (again instanceof SVGElement) again.focus();
  }
}

// ---------------------------------------------------------------- drawing: Oware

const HOUSES = "ABCDEFabcdef";

/** A narrow screen (a phone) draws Oware with the stores above and below the rows, so that
 * the houses take the board's whole width: big enough to tap, their letters readable. */
const NARROW = window.matchMedia("(max-width: 600px)");
NARROW.addEventListener("change", () => draw());

/**
 * Where house `name` is drawn.
 * @param {string} name
 * @returns {{ x: number, y: number }}
 */
function housePlace(name) {
  const i = HOUSES.indexOf(name);
  const south = i < 6;
  let col = south ? i : 11 - i;          // South's A..F left to right, North's a..f right to left
  let bottom = south;
  if (app.flipped) { col = 5 - col; bottom = !bottom; }
  if (NARROW.matches) return { x: 50 + col * 88, y: bottom ? 262 : 158 };
  return { x: 130 + col * 88, y: bottom ? 190 : 90 };
}

/**
 * `n` seeds in rings around (x, y), at most 18 drawn.
 * @param {Element} g
 * @param {number} x
 * @param {number} y
 * @param {number} n
 */
function seedDots(g, x, y, n) {
  const shown = Math.min(n, 18);
  for (let k = 0; k < shown; k++) {
    const ring = k < 6 ? 0 : k < 12 ? 1 : 2;
    const a = (k % 6) / 6 * Math.PI * 2 + ring * 0.5;
    const r = ring === 0 ? 11 : ring === 1 ? 22 : 5;
    el("circle", { cx: x + Math.cos(a) * r, cy: y + Math.sin(a) * r, r: 6.5, class: "seed" }, g);
  }
}

/**
 * An Oware board with `houses` and `stores` (by name).
 * @param {SVGElement} svg
 * @param {Record<string, number>} houses
 * @param {Record<string, number>} stores
 */
function drawOware(svg, houses, stores) {
  if (!app.state) return;
  const narrow = NARROW.matches;
  svg.classList.toggle("narrow", narrow);
  svg.setAttribute("viewBox", narrow ? "0 0 540 420" : "0 0 700 280");
  if (narrow) el("rect", { x: 4, y: 4, width: 532, height: 412, rx: 60, class: "wood" }, svg);
  else el("rect", { x: 6, y: 30, width: 688, height: 220, rx: 90, class: "wood" }, svg);
  const legal = humanToMove() ? legalMoves() : [];
  const last = lastMove();
  const players = app.state.players;
  /**
   * A store (its player's name beside it): `top` the one at the top or on the left.
   * @param {string} player
   * @param {boolean} top
   */
  const storeAt = (player, top) => {
    const g = el("g", { class: "store", "data-store": player,
      "aria-label": `${player}'s store: ${stores[player]} seeds` }, svg);
    if (narrow) {
      // Above North's row and below South's (as South sees the board), the name at its side.
      const y = top ? 56 : 364;
      el("ellipse", { cx: 320, cy: y, rx: 190, ry: 34, class: "pit" }, g);
      text(g, 320, y + 9, String(stores[player]), "count");
      text(g, 70, y + 7, player, "count name");
    } else {
      // North's on the left, South's on the right.
      const x = top ? 50 : 650;
      el("ellipse", { cx: x, cy: 140, rx: 38, ry: 88, class: "pit" }, g);
      text(g, x, 148, String(stores[player]), "count");
      text(g, x, 266 - (top ? 250 : 0), player, "count name");
    }
  };
  storeAt(app.flipped ? players[0] : players[1], true);
  storeAt(app.flipped ? players[1] : players[0], false);
  for (const name of HOUSES) {
    const { x, y } = housePlace(name);
    const n = houses[name];
    const classes = ["house"];
    if (legal.includes(name)) classes.push("legal");
    if (name === last) classes.push("last");
    if (name === app.bestMove) classes.push("best");
    const g = el("g", { class: classes.join(" "), "data-square": name, role: "button",
      tabindex: legal.includes(name) ? 0 : -1, "aria-label": `${name}: ${n} seeds` }, svg);
    el("circle", { cx: x, cy: y, r: narrow ? 42 : 38, class: "pit" }, g);
    seedDots(g, x, y, n);
    if (narrow) {
      // The letter and the count in the gap between the rows and their stores.
      const below = y > 210;
      text(g, x - 14, y + (below ? 66 : -52), name, "name");
      text(g, x + 16, y + (below ? 66 : -52), String(n), "count");
    } else {
      text(g, x, y + (y > 140 ? 62 : -46), name, "name");
      const c = text(g, x + 28, y - 26, String(n), "count");
      c.setAttribute("font-size", "16");
    }
    if (legal.includes(name)) {
      g.addEventListener("click", () => actions.playMove(name));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") actions.playMove(name); });
    } else {
      g.addEventListener("click", () => showError(whyNotSown(name, houses)));
    }
  }
}

/**
 * Why the house `name` cannot be sown now, in words: the game's end, the engine's turn, the
 * other side's house, an empty house, or the feeding rule (the opponent has no seeds and the
 * move does not reach its row).
 * @param {string} name
 * @param {Record<string, number>} houses
 * @returns {string}
 */
function whyNotSown(name, houses) {
  const s = app.state;
  if (!s) return "";
  if (s.end) return "The game is over.";
  if (!humanToMove()) return "It is the engine's move.";
  const mover = s.to_move;
  const south = name === name.toUpperCase();
  const owner = s.players[south ? 0 : 1];
  const legal = legalMoves();
  if (owner !== mover) return `${name} is ${owner}'s house: ${mover} sows from ${legal.join(", ")}.`;
  if (!houses[name]) return `${name} is empty: ${mover} sows from ${legal.join(", ")}.`;
  const other = s.players[south ? 1 : 0];
  const row = (south ? "abcdef" : "ABCDEF").split("");
  if (row.every((h) => !houses[h])) {
    return `${other} has no seeds, and ${mover} must feed: sowing ${name} does not reach ` +
      `${other}'s row (the feeding rule). Moves that feed: ${legal.join(", ")}.`;
  }
  return `${name} is not legal here (legal: ${legal.join(", ")}).`;
}

/**
 * Sows the seeds of `from` one by one, then flashes the houses the move captured.
 * @param {StateReply} before
 * @param {string} from
 * @param {StateReply} after
 */
export async function animateSowing(before, from, after) {
  const houses = Object.assign({}, before.board.houses);
  const stores = before.board.stores;
  let n = houses[from];
  houses[from] = 0;
  let i = HOUSES.indexOf(from);
  const step = Math.max(20, Math.min(70, 700 / Math.max(n, 1)));
  $("status").textContent = `${before.to_move} sows ${from}…`;
  const svg = $("board");
  while (n > 0) {
    i = (i + 1) % 12;
    if (HOUSES[i] === from) continue;
    houses[HOUSES[i]] += 1;
    n -= 1;
    svg.replaceChildren();
    drawOware(svg, houses, stores);
    await new Promise((r) => setTimeout(r, step));
  }
  const taken = HOUSES.split("").filter((h) => houses[h] > 0 && after.board.houses[h] === 0 && h !== from);
  if (taken.length) {
    for (const h of taken) svg.querySelector(`[data-square="${h}"]`)?.classList.add("captured");
    await new Promise((r) => setTimeout(r, 250));
  }
}

// ---------------------------------------------------------------- drawing: Dobutsu

/** @type {Record<string, number[][]>} */
const DIRS = {
  L: [[-1, 1], [0, 1], [1, 1], [-1, 0], [1, 0], [-1, -1], [0, -1], [1, -1]],
  G: [[0, 1], [-1, 0], [1, 0], [0, -1]],
  E: [[-1, 1], [1, 1], [-1, -1], [1, -1]],
  C: [[0, 1]],
  H: [[-1, 1], [0, 1], [1, 1], [-1, 0], [1, 0], [0, -1]],
};
/** @type {Record<string, string>} */
const NAMES = { L: "Lion", G: "Giraffe", E: "Elephant", C: "Chick", H: "Hen" };
const CELL = 100;

/**
 * The top left corner of square `sq`.
 * @param {string} sq
 * @returns {{ x: number, y: number }}
 */
function squareXY(sq) {
  let file = sq.charCodeAt(0) - 97;
  let rank = Number(sq[1]) - 1;
  if (app.flipped) { file = 2 - file; rank = 3 - rank; }
  return { x: 80 + file * CELL, y: 90 + (3 - rank) * CELL };
}

/**
 * A piece of `kind` and `owner` in the cell at (x, y).
 * @param {Element} parent
 * @param {number} x
 * @param {number} y
 * @param {string} kind
 * @param {string} owner
 * @returns {SVGElement}
 */
function drawPiece(parent, x, y, kind, owner) {
  const gote = owner === "Gote";
  const up = gote !== app.flipped ? -1 : 1;   // the direction the piece faces on the screen
  const g = el("g", { class: `piece ${gote ? "gote" : "sente"}` }, parent);
  el("rect", { x: x + 10, y: y + 10, width: CELL - 20, height: CELL - 20, rx: 14, class: `tile tile-${kind}` }, g);
  const label = text(g, x + CELL / 2, y + CELL / 2 + 5, NAMES[kind]);
  if (up < 0) label.setAttribute("transform", `rotate(180 ${x + CELL / 2} ${y + CELL / 2})`);
  for (const [dx, dy] of DIRS[kind]) {
    el("circle", { cx: x + CELL / 2 + dx * 32 * up, cy: y + CELL / 2 - dy * 32 * up, r: 4, class: "dir" }, g);
  }
  return g;
}

/**
 * The squares the picked piece may go to.
 * @returns {string[]}
 */
function dobutsuTargets() {
  const legal = humanToMove() ? legalMoves() : [];
  const sel = app.selected;
  if (!sel) return [];
  return legal.filter((m) => sel.length === 1 ? m.startsWith(sel + "@") : m.startsWith(sel) && m[1] !== "@")
    .map((m) => m.includes("@") ? m.slice(2, 4) : m.slice(2, 4));
}

/**
 * A Dobutsu board.
 * @param {SVGElement} svg
 */
function drawDobutsu(svg) {
  if (!app.state) return;
  svg.setAttribute("viewBox", "0 0 460 600");
  svg.classList.remove("narrow");
  const { squares, hands } = app.state.board;
  const legal = humanToMove() ? legalMoves() : [];
  const last = lastMove();
  const lastSquares = last ? (last.includes("@") ? [last.slice(2, 4)] : [last.slice(0, 2), last.slice(2, 4)]) : [];
  const targets = dobutsuTargets();
  for (const file of "abc") {
    for (const rank of "1234") {
      const sq = file + rank;
      const { x, y } = squareXY(sq);
      const piece = squares[sq];
      const movable = piece && legal.some((m) => m.startsWith(sq));
      const classes = ["cell"];
      if (lastSquares.includes(sq)) classes.push("last");
      if (app.selected === sq) classes.push("selected");
      if (targets.includes(sq)) classes.push("target");
      if (movable) classes.push("movable");
      const label = piece ? `${sq}: ${piece.owner}'s ${NAMES[piece.kind]}` : `${sq}: empty`;
      const g = el("g", { class: classes.join(" "), "data-square": sq, role: "button", "aria-label": label,
        tabindex: movable || targets.includes(sq) ? 0 : -1 }, svg);
      const dark = (file.charCodeAt(0) + Number(rank)) % 2 === 0;
      el("rect", { x, y, width: CELL, height: CELL, class: `sq ${dark ? "dark" : "light"}` }, g);
      if (piece) {
        const p = drawPiece(g, x, y, piece.kind, piece.owner);
        p.setAttribute("data-piece", piece.kind);
        const anim = app.animate;
        if (anim && anim.to === sq && anim.from) {
          const f = squareXY(anim.from);
          p.setAttribute("style", `transform: translate(${f.x - x}px, ${f.y - y}px)`);
          requestAnimationFrame(() => requestAnimationFrame(() => {
            p.classList.add("moving");
            p.setAttribute("style", "transform: translate(0px, 0px)");
          }));
        }
      }
      if (targets.includes(sq)) el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 14, class: "target-dot" }, g);
      g.addEventListener("click", () => clickSquare(sq));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") clickSquare(sq); });
    }
  }
  for (const f of "abc") {
    const { x } = squareXY(f + "1");
    text(svg, x + CELL / 2, 90 + 4 * CELL + 16, f, "coord");
  }
  for (const r of "1234") {
    const { y } = squareXY("a" + r);
    text(svg, 66, y + CELL / 2 + 4, r, "coord");
  }
  // Hands: the player at the bottom's below the board, the other's above.
  const bottom = app.flipped ? "Gote" : "Sente";
  const top = app.flipped ? "Sente" : "Gote";
  drawHand(svg, top, hands[top], 8, legal);
  drawHand(svg, bottom, hands[bottom], 90 + 4 * CELL + 22, legal);
  drawBestArrow(svg);
}

/**
 * `owner`'s hand, at height `y`.
 * @param {SVGElement} svg
 * @param {string} owner
 * @param {Record<string, number>} hand
 * @param {number} y
 * @param {string[]} legal
 */
function drawHand(svg, owner, hand, y, legal) {
  if (!app.state) return;
  text(svg, 20, y + 44, owner, "hand-label").setAttribute("text-anchor", "start");
  let x = 80;
  for (const kind of ["L", "G", "E", "C"]) {
    const n = hand[kind];
    if (!n) continue;
    const movable = owner === app.state.to_move && legal.some((m) => m.startsWith(kind + "@"));
    const classes = ["hand-tile"];
    if (movable) classes.push("movable");
    if (app.selected === kind && movable) classes.push("selected");
    const g = el("g", { class: classes.join(" "), "data-hand": kind, "data-owner": owner, role: "button",
      "aria-label": `${owner}'s hand: ${n} ${NAMES[kind]}`, tabindex: movable ? 0 : -1 }, svg);
    const s = 0.72;
    const inner = el("g", { transform: `translate(${x} ${y}) scale(${s})` }, g);
    drawPiece(inner, 0, 0, kind, owner);
    text(g, x + CELL * s + 4, y + 44, `×${n}`, "hand-count");
    if (movable) {
      g.addEventListener("click", () => { app.selected = app.selected === kind ? null : kind; draw(); });
      g.addEventListener("keydown", (e) => { if (e.key === "Enter") { app.selected = kind; draw(); } });
    }
    x += CELL * s + 40;
  }
}

/**
 * The best move's mark: an arrow, or a ring on a drop's square.
 * @param {SVGElement} svg
 */
function drawBestArrow(svg) {
  const best = app.bestMove;
  if (!best || !app.state || app.state.game !== "dobutsu") return;
  const to = squareXY(best.slice(best.includes("@") ? 2 : 2, 4));
  const end = { x: to.x + CELL / 2, y: to.y + CELL / 2 };
  if (best.includes("@")) {
    // A drop: a ring on its square, with the piece dropped named in it.
    el("circle", { cx: end.x, cy: end.y, r: 40, class: "arrow", fill: "none" }, svg);
    const label = text(svg, end.x, end.y + 34, NAMES[best[0]] || best[0], "drop-label");
    label.setAttribute("data-drop", best[0]);
    return;
  }
  const from = squareXY(best.slice(0, 2));
  const start = { x: from.x + CELL / 2, y: from.y + CELL / 2 };
  const dx = end.x - start.x, dy = end.y - start.y, len = Math.hypot(dx, dy);
  const ux = dx / len, uy = dy / len;
  const tip = { x: end.x - ux * 10, y: end.y - uy * 10 };
  el("line", { x1: start.x, y1: start.y, x2: tip.x - ux * 16, y2: tip.y - uy * 16, class: "arrow" }, svg);
  el("polygon", { class: "arrowhead", points: [
    [tip.x, tip.y], [tip.x - ux * 26 - uy * 16, tip.y - uy * 26 + ux * 16],
    [tip.x - ux * 26 + uy * 16, tip.y - uy * 26 - ux * 16]].map((p) => p.join(",")).join(" ") }, svg);
}

/**
 * A click on square `sq`: picks a piece, or plays the picked one there.
 * @param {string} sq
 */
function clickSquare(sq) {
  const legal = humanToMove() ? legalMoves() : [];
  const sel = app.selected;
  if (sel) {
    const candidates = legal.filter((m) => sel.length === 1
      ? m === `${sel}@${sq}` : m.startsWith(sel + sq));
    if (candidates.length) {
      app.selected = null;
      actions.playMove(candidates[0]);
      return;
    }
  }
  app.selected = legal.some((m) => m.startsWith(sq)) && sel !== sq ? sq : null;
  draw();
}


// ---------------------------------------------------------------- Dobutsu: drag and drop

/**
 * A drag under way: where it began (a square, or a kind in hand), the piece drawn under the
 * pointer once it has moved, and where the pointer went down (a short move is a click).
 * @type {{ from: string, kind: string, owner: string, x: number, y: number, ghost: SVGElement | null } | null}
 */
let drag = null;

/** A drag just ended: the click that follows its pointer-up is not a click on the board. */
let dropped = false;

/**
 * The point of the board's SVG under the pointer.
 * @param {PointerEvent} e
 * @returns {{ x: number, y: number }}
 */
function svgPoint(e) {
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("board")));
  const m = svg.getScreenCTM();
  if (!m) return { x: 0, y: 0 };
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

/**
 * The square under the pointer, if any.
 * @param {PointerEvent} e
 * @returns {string | null}
 */
function squareUnder(e) {
  const hit = document.elementFromPoint(e.clientX, e.clientY);
  const cell = hit && hit.closest("[data-square]");
  return cell ? cell.getAttribute("data-square") : null;
}

/** Dobutsu's pieces can be dragged to their squares as well as clicked: a piece of the side to
 * move (on the board or in hand) taken up, its squares marked, and dropped on one of them plays
 * the move; dropped anywhere else it goes back. */
export function initDrag() {
  const svg = $("board");
  svg.addEventListener("pointerdown", (/** @type {PointerEvent} */ e) => {
    if (!app.state || app.state.game !== "dobutsu" || e.button !== 0) return;
    const target = /** @type {Element} */ (e.target);
    const cell = target.closest(".cell.movable, .hand-tile.movable");
    if (!cell) return;
    const sq = cell.getAttribute("data-square");
    const from = sq || cell.getAttribute("data-hand") || "";
    const piece = sq ? app.state.board.squares[sq] : { kind: from, owner: cell.getAttribute("data-owner") || "" };
    if (!piece) return;
    const p = svgPoint(e);
    drag = { from, kind: piece.kind, owner: piece.owner, x: p.x, y: p.y, ghost: null };
  });
  svg.addEventListener("pointermove", (/** @type {PointerEvent} */ e) => {
    if (!drag) return;
    const p = svgPoint(e);
    if (!drag.ghost) {
      if (Math.hypot(p.x - drag.x, p.y - drag.y) < 8) return;
      // Captured only once it is a drag: a click's pointer-up and click stay on the square.
      svg.setPointerCapture(e.pointerId);
      app.selected = drag.from;
      // The squares marked in place, not redrawn: a touch's events stay with the element it
      // began on, and would be lost with it.
      for (const sq of dobutsuTargets()) {
        const cell = svg.querySelector(`[data-square="${sq}"]`);
        if (!cell) continue;
        cell.classList.add("target");
        const { x, y } = squareXY(sq);
        el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 14, class: "target-dot" }, cell);
      }
      svg.querySelectorAll(`[data-square="${drag.from}"] .piece, [data-hand="${drag.from}"][data-owner="${drag.owner}"]`)
        .forEach((n) => n.classList.add("dragged"));
      drag.ghost = el("g", { class: "ghost" }, svg);
      drawPiece(drag.ghost, 0, 0, drag.kind, drag.owner);
    }
    if (!drag.ghost.isConnected) svg.appendChild(drag.ghost);
    drag.ghost.setAttribute("transform", `translate(${p.x - CELL / 2} ${p.y - CELL / 2})`);
  });
  const finish = (/** @type {PointerEvent} */ e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.ghost) return; // a click: the click handlers take it
    d.ghost.remove();
    dropped = true;
    setTimeout(() => { dropped = false; }, 0);
    const to = e.type === "pointerup" ? squareUnder(e) : null;
    const legal = humanToMove() ? legalMoves() : [];
    const move = to && legal.find((m) => d.from.length === 1 ? m === `${d.from}@${to}` : m.startsWith(d.from + to));
    app.selected = null;
    if (move) actions.playMove(move);
    else draw();
  };
  // A finger that went down on a piece the player may move drags it; anywhere else it scrolls
  // the page. Browsers honour touch-action on the svg element only, not on its pieces, so the
  // scroll is cancelled here instead, at the first move of such a touch.
  svg.addEventListener("touchmove", (e) => { if (drag) e.preventDefault(); }, { passive: false });
  svg.addEventListener("pointerup", finish);
  svg.addEventListener("pointercancel", finish);
  // The click that ends a drag is not a click on a square.
  svg.addEventListener("click", (e) => { if (dropped) { e.stopPropagation(); dropped = false; } }, true);
}
