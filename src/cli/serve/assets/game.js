// @ts-check
// The game on the page: the position shown (asked of the server and drawn), the move list and
// stepping through it, moves played, new games, takebacks, the mode and the sides.

import { app, humanToMove, legalMoves } from "./state.js";
import { $, html, showError } from "./dom.js";
import { ApiError, gameParams, here, request, stopStream } from "./api.js";
import { animateSowing, draw } from "./board.js";
import { maybeEngineMove, study } from "./engine.js";

/** @typedef {import("./types.js").StateReply} StateReply */

/** Shows the position `app.ply` of the game: asks the server for it, draws it, and starts
 * what the mode runs on it (the engine's reply, or the analysis). */
export async function show() {
  const id = ++app.request;
  stopStream();
  app.bestMove = null;
  app.selected = null;
  /** @type {StateReply} */
  let state;
  try {
    state = await request("state", here());
  } catch (e) {
    showError(e);
    return;
  }
  if (id !== app.request) return;
  const before = app.state;
  const anim = app.animate;
  app.state = state;
  if (anim && anim.move && before && state.game === "oware" && before.game === "oware") {
    await animateSowing(before, anim.move, state);
    if (id !== app.request) return;
  }
  draw();
  app.animate = null;
  drawMoveList();
  drawStatus();
  $("nav-first").disabled = $("nav-back").disabled = app.ply === 0;
  $("nav-forward").disabled = $("nav-last").disabled = app.ply === app.moves.length;
  $("takeback").disabled = app.moves.length === 0;
  if (app.mode === "study") study(id);
  else maybeEngineMove(id);
}

/** The status line: whose move, or the game's end and why. */
function drawStatus() {
  const s = app.state;
  if (!s) return;
  let line;
  if (s.end) {
    const who = s.end.winner ? `${s.end.winner} wins` : "Draw";
    line = `Game over: ${who} (${s.end.result}): ${s.end.reason}.`;
  } else if (app.mode === "play") {
    line = humanToMove() ? `${s.to_move} to move: your move.` : `${s.to_move} to move: the engine is thinking…`;
  } else {
    line = `${s.to_move} to move.`;
  }
  $("status").textContent = line;
}

/** The move list, numbered from the start's side, the current move marked, and each move's
 * cost from the review. */
export function drawMoveList() {
  const list = $("move-list");
  list.replaceChildren();
  const firstOffset = app.state && app.startSide === 1 ? 1 : 0;
  /** @type {HTMLLIElement | null} */
  let li = null;
  app.moves.forEach((mv, i) => {
    const k = i + firstOffset;
    if (k % 2 === 0 || i === 0 || !li) {
      li = html("li");
      li.appendChild(html("span", "num", `${Math.floor(k / 2) + 1}.${k % 2 ? ".." : ""}`));
      list.appendChild(li);
    }
    const b = html("button", "", mv);
    b.dataset.ply = String(i + 1);
    b.dataset.move = mv;
    if (i + 1 === app.ply) b.classList.add("current");
    const cost = app.costs[i];
    if (cost) {
      b.classList.add(cost.startsWith("threw") ? "cost-result" : "cost-margin");
      b.title = cost;
    }
    b.addEventListener("click", () => goTo(i + 1));
    li.appendChild(b);
  });
  // The list scrolls to the current move; the page never does (scrollIntoView would move the
  // whole page and take the board out of view).
  const current = list.querySelector(".current");
  if (current) {
    const item = current.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    if (item.top < box.top) list.scrollTop -= box.top - item.top;
    else if (item.bottom > box.bottom) list.scrollTop += item.bottom - box.bottom;
  }
}

/**
 * Shows the position after `ply` moves (clamped to the game).
 * @param {number} ply
 */
export function goTo(ply) {
  app.ply = Math.max(0, Math.min(app.moves.length, ply));
  show();
}

/** Steps one move forward, animated. */
export function stepForward() {
  if (app.ply >= app.moves.length) return;
  app.animate = animationOf(app.moves[app.ply]);
  goTo(app.ply + 1);
}

/**
 * Plays `mv` in the position shown.
 * @param {string} mv
 */
export function playMove(mv) {
  if (!legalMoves().includes(mv)) {
    showError(`${mv} is not legal here (legal: ${legalMoves().join(" ") || "none"})`);
    return;
  }
  showError(null);
  // Said at once: the seeds are sown once the server has answered.
  if (app.state && app.state.game === "oware") $("status").textContent = `${app.state.to_move} sows ${mv}…`;
  if (app.ply < app.moves.length) {
    // A move played in an earlier position starts a new line from there.
    if (app.moves[app.ply] === mv) { app.animate = animationOf(mv); goTo(app.ply + 1); return; }
    app.moves = app.moves.slice(0, app.ply);
    app.costs = [];
  }
  app.moves.push(mv);
  app.ply = app.moves.length;
  app.animate = animationOf(mv);
  show();
}

/**
 * How `mv` is animated in the position shown.
 * @param {string} mv
 * @returns {import("./state.js").Animation}
 */
export function animationOf(mv) {
  if (app.state && app.state.game === "oware") return { move: mv };
  return mv.includes("@") ? { to: mv.slice(2, 4) } : { from: mv.slice(0, 2), to: mv.slice(2, 4) };
}

/**
 * A new game of the page's variant from `start` (null: the game's start position).
 * @param {string | null} start
 */
export function newGame(start) {
  app.start = start || null;
  app.moves = [];
  app.ply = 0;
  app.costs = [];
  app.state = null;
  app.levelsPlayed = new Set();
  showError(null);
  startSide().then(show);
}

/**
 * The server's refusal of a game, or null.
 * @param {string | null} start
 * @param {string[]} moves
 * @returns {Promise<string | null>}
 */
async function refused(start, moves) {
  try {
    await request("state", gameParams(moves, start));
    return null;
  } catch (e) {
    if (e instanceof ApiError) return e.message;
    throw e;
  }
}

/** An address's game whose start or moves the server refuses: the start position is dropped
 * if it is refused, and the moves are cut before the first one refused, with the reason shown,
 * so that the page always shows a game it can play on. */
export async function keepLegalPrefix() {
  const startRefused = app.start ? await refused(app.start, []) : null;
  if (startRefused) {
    showError(new Error(`${startRefused}: showing the start position`));
    app.start = null;
    await startSide();
  }
  const error = await refused(app.start, app.moves);
  if (!error) return;
  let keep = 0;
  while (keep < app.moves.length && !(await refused(app.start, app.moves.slice(0, keep + 1)))) keep += 1;
  showError(new Error(`${error}: showing the game up to move ${keep}`));
  app.moves = app.moves.slice(0, keep);
  app.ply = keep;
}

/** Finds the player to move in the start position (for move numbers). */
export async function startSide() {
  try {
    /** @type {StateReply} */
    const s = await request("state", gameParams([]));
    app.startSide = s.players.indexOf(s.to_move);
  } catch (e) { app.startSide = 0; }
}

/** Takes back the last move; in play, back to the person's turn. */
export function takeback() {
  if (!app.moves.length) return;
  app.moves = app.moves.slice(0, app.ply);
  app.moves.pop();
  if (app.mode === "play") {
    /** @param {number} ply */
    const moverAt = (ply) => (app.startSide + ply) % 2;
    while (app.moves.length && moverAt(app.moves.length) !== app.human) app.moves.pop();
  }
  app.ply = app.moves.length;
  app.costs = [];
  show();
}

/** The sides of the variant in the side select, and the move box's example. */
export function fillSides() {
  const names = app.variant === "dobutsu" ? ["Sente", "Gote"] : ["South", "North"];
  const side = $("side");
  side.replaceChildren(...names.map((n, i) => {
    const o = html("option", "", `${n} (${i === 0 ? "moves first" : "moves second"})`);
    o.value = String(i);
    return o;
  }));
  side.value = String(app.human);
  $("move-input").placeholder = app.variant === "dobutsu" ? "Type a move (b2b3, C@a3, a3a4+)" : "Type a move (A-F or a-f)";
}

/**
 * Play or study.
 * @param {"play" | "study"} mode
 */
export function setMode(mode) {
  app.mode = mode;
  $("mode-play").setAttribute("aria-selected", String(mode === "play"));
  $("mode-study").setAttribute("aria-selected", String(mode === "study"));
  $("play-panel").hidden = mode !== "play";
  $("study-panel").hidden = mode !== "study";
  $("values-panel").hidden = mode !== "study";
  show();
}
