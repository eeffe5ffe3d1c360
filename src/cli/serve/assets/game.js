// @ts-check
// The game on the page: the position shown (asked of the server and drawn), the tree of moves
// (tree.js) and stepping through it, moves played, side lines promoted and deleted, new games,
// takebacks, the mode and the sides; the game kept in the address and in the browser.

import { app, humanToMove, legalMoves } from "./state.js";
import { $, html, showError } from "./dom.js";
import { ApiError, gameParams, here, request, stopStream } from "./api.js";
import { animateSowing, draw } from "./board.js";
import { maybeEngineMove, study } from "./engine.js";
import { drawGraph } from "./graph.js";
import { labelLevel6, moveMade, onPosition, resetPlay } from "./play.js";
import { addLine, child, lineThrough, lineTree, onMainLine, pathTo, promote, remove, store, treeText } from "./tree.js";

/** @typedef {import("./types.js").StateReply} StateReply */
/** @typedef {import("./tree.js").MoveNode} MoveNode */

/** Shows the position `app.ply` of the game: asks the server for it, draws it, and starts
 * what the mode runs on it (the engine's reply, or the analysis). */
export async function show() {
  const id = ++app.request;
  stopStream();
  app.bestMove = null;
  app.selected = null;
  // A hint's or a draw offer's answer holds for the position it was asked in.
  $("hint-answer").textContent = $("draw-answer").textContent = "";
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
  $("takeback").disabled = app.ply === 0 || (app.mode === "play" && app.verdict !== null);
  $("promote").disabled = $("main-line").disabled = onMainLine(app.node);
  $("delete-line").disabled = app.ply === 0;
  $("new-game").textContent = app.start ? "New game from this set-up" : "New game";
  $("new-game-start").hidden = !app.start;
  if (app.mode === "study") drawGraph();
  onPosition();
  labelLevel6();
  save();
  if (app.mode === "study") study(id);
  else maybeEngineMove(id);
}

/** The status line: whose move, or the game's end and why (in play, where the result banner
 * says it, nothing). */
function drawStatus() {
  const s = app.state;
  if (!s) return;
  let line;
  if (app.mode === "play" && (s.end || app.verdict)) {
    line = "";
  } else if (s.end) {
    const who = s.end.winner ? `${s.end.winner} wins` : "Draw";
    line = `Game over: ${who} (${s.end.result}): ${s.end.reason}.`;
  } else if (app.mode === "play" && app.verdict) {
    const v = app.verdict;
    line = v.winner === null ? `Game over: draw ${v.how}.` : `Game over: ${s.players[v.winner]} wins ${v.how === "on time" ? "on time" : `(${s.players[1 - v.winner]} ${v.how})`}.`;
  } else if (app.mode === "play") {
    line = humanToMove() ? `${s.to_move} to move: your move.` : `${s.to_move} to move: the engine is thinking…`;
  } else {
    line = `${s.to_move} to move.`;
  }
  $("status").textContent = line;
}

/** The tree of moves: the main line, each side line after the main move it is played
 * instead of (nested lines indented), each move numbered where a line starts or after a side
 * line, the position shown marked, and each move's cost from the review. */
export function drawMoveList() {
  const list = $("move-list");
  list.replaceChildren();
  drawLine(list, app.root, 0);
  $("marks-note").hidden = !list.querySelector("[data-mark]");
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
 * The moves after `from` (at `ply`) into `box`: its first line, and the others as side lines.
 * @param {HTMLElement} box
 * @param {MoveNode} from
 * @param {number} ply
 */
function drawLine(box, from, ply) {
  let numbered = false;
  for (let at = from; at.children.length; ply += 1) {
    const [next, ...sides] = at.children;
    box.append(...moveItems(next, ply + 1, !numbered));
    numbered = true;
    for (const side of sides) {
      const line = html("div", "variation");
      line.append(...moveItems(side, ply + 1, true));
      drawLine(line, side, ply + 1);
      box.appendChild(line);
      numbered = false;
    }
    at = next;
  }
}

/**
 * A move's button, after its number where a first player's move or `numbered` asks for it,
 * the two in one `.pair` that never wraps (a row never ends at a number).
 * @param {MoveNode} n
 * @param {number} ply  the ply the move makes
 * @param {boolean} numbered
 * @returns {HTMLElement[]}
 */
function moveItems(n, ply, numbered) {
  const k = ply - 1 + (app.startSide === 1 ? 1 : 0);
  const pair = html("span", "pair");
  if (k % 2 === 0 || numbered) pair.append(html("span", "num", `${Math.floor(k / 2) + 1}.${k % 2 ? ".." : ""}`));
  const b = html("button", onMainLine(n) ? "" : "side", n.move);
  b.dataset.ply = String(ply);
  b.dataset.move = n.move;
  if (n === app.node) b.classList.add("current");
  if (n.mark) {
    const m = n.mark;
    b.classList.add(m.exact ? (m.kind === "blunder" ? "cost-result" : "cost-margin") : `search-${m.kind}`);
    b.dataset.mark = m.kind;
    b.dataset.exact = String(m.exact);
    b.title = `${n.cost || m.kind} (${m.exact ? "exact: the tables' values" : "a search's values"})`;
  }
  b.addEventListener("click", () => jumpTo(n));
  pair.append(b);
  return [pair];
}

/**
 * Shows `n`'s line from `n` on (its path, then its first moves), at `n`.
 * @param {MoveNode} n
 */
function setLine(n) {
  app.line = lineThrough(n);
  app.moves = app.line.map((x) => x.move);
  app.node = n;
  app.ply = pathTo(n).length;
}

/**
 * Shows position `n` of the tree: on the line shown if it is on it, else on its own line.
 * @param {MoveNode} n
 */
export function jumpTo(n) {
  const i = app.line.indexOf(n);
  if (i >= 0) goTo(i + 1);
  else { setLine(n); show(); }
}

/**
 * A new tree for the game `moves` from the page's start, with its side lines `lines` (an
 * imported record's), shown at `ply` (its end when absent).
 * @param {string[]} moves
 * @param {number} [ply]
 * @param {import("./types.js").SideLine[]} [lines]
 */
export function setGame(moves, ply, lines = []) {
  resetPlay();
  app.root = lineTree(moves);
  addLine(app.root, moves, lines);
  showLine(moves, ply);
}

/**
 * Shows the line `moves` of the tree at `ply` (clamped; its end when absent); a line that
 * leaves the tree is shown as far as it goes.
 * @param {string[]} moves
 * @param {number} [ply]
 */
export function showLine(moves, ply) {
  let end = app.root;
  for (const mv of moves) {
    const next = end.children.find((c) => c.move === mv);
    if (!next) break;
    end = next;
  }
  setLine(end);
  const at = Math.max(0, Math.min(app.ply, ply === undefined ? app.ply : ply));
  app.node = at ? app.line[at - 1] : app.root;
  app.ply = at;
}

/**
 * Shows the position after `ply` moves (clamped to the game).
 * @param {number} ply
 */
export function goTo(ply) {
  app.ply = Math.max(0, Math.min(app.moves.length, ply));
  app.node = app.ply ? app.line[app.ply - 1] : app.root;
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
  moveMade();
  // Said at once: the seeds are sown once the server has answered.
  if (app.state && app.state.game === "oware") $("status").textContent = `${app.state.to_move} sows ${mv}…`;
  app.animate = animationOf(mv);
  const known = app.node.children.find((c) => c.move === mv);
  if (known) { jumpTo(known); return; }
  // A new move: the line it starts is kept beside the others (in play, it becomes the game;
  // the moves it replaces stay as a side line).
  const next = child(app.node, mv);
  if (app.mode === "play") promote(next, true);
  setLine(next);
  show();
}

/**
 * Plays `moves` from the position shown (an engine line, to one of its moves): each a move
 * of the tree (added where new), and shows the position after them.
 * @param {string[]} moves
 */
export function playLine(moves) {
  let at = app.node;
  for (const mv of moves) at = child(at, mv);
  setLine(at);
  show();
}

/** Promotes the line of the position shown: one step (`all`: to the main line). */
export function promoteLine(/** @type {boolean} */ all) {
  if (promote(app.node, all)) show();
}

/** Deletes the position shown and every move after it; shows the position before. */
export function deleteFromHere() {
  if (!app.node.parent) return;
  setLine(remove(app.node));
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
  setGame([]);
  try { localStorage.removeItem(GAME_KEY); } catch (e) { /* private mode */ }
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

/** Takes back the move that led to the position shown (and the moves after it); in play,
 * back to the person's turn. */
export function takeback() {
  if (!app.node.parent) return;
  let at = remove(app.node);
  if (app.mode === "play") {
    while (at.parent && (app.startSide + pathTo(at).length) % 2 !== app.human) at = remove(at);
  }
  setLine(at);
  show();
}

/** The browser's storage key of the game. */
const GAME_KEY = "perfectplay-game";

/**
 * The game as kept in the browser: the tree, the line shown and where.
 * @typedef {object} SavedGame
 * @property {string} variant
 * @property {string | null} start
 * @property {"play" | "study"} mode
 * @property {import("./tree.js").StoredNode} tree
 * @property {string[]} line
 * @property {number} ply
 * @property {{ winner: string, how: string } | null} [verdict]  the players' end (`verdictWords`)
 */

/**
 * The game's end by the players in words, as the address and the record say it: the winner's
 * name (`none` for a draw) and how; null when the players have not ended it.
 * @returns {{ winner: string, how: string } | null}
 */
export function verdictWords() {
  const v = app.verdict;
  if (!v) return null;
  return { winner: v.winner === null ? "none" : playerNames()[v.winner], how: v.how };
}

/**
 * The players' end read back from its words (an address's or the browser's), or null when they
 * do not name one.
 * @param {string | null | undefined} winner
 * @param {string | null | undefined} how
 * @returns {{ winner: number | null, how: string } | null}
 */
export function verdictOf(winner, how) {
  if (!winner || !how || !["resigned", "on time", "by agreement"].includes(how)) return null;
  if (winner === "none") return how === "by agreement" ? { winner: null, how } : null;
  const k = playerNames().indexOf(winner);
  return k >= 0 && how !== "by agreement" ? { winner: k, how } : null;
}

/**
 * The players' names of the page's variant, the first player's first.
 * @returns {string[]}
 */
function playerNames() {
  return app.variant === "dobutsu" ? ["Sente", "Gote"] : ["South", "North"];
}

/** Keeps the game in the address (the line shown, and the ply when not its end: a link that
 * shares it) and in the browser's storage (the whole tree: a reload keeps it). */
function save() {
  const q = new URLSearchParams({ variant: app.variant, mode: app.mode });
  if (app.start) q.set("position", app.start);
  if (app.moves.length) q.set("moves", app.moves.join(" "));
  if (app.ply !== app.moves.length) q.set("ply", String(app.ply));
  // A game the players ended (on time, resigned, agreed) stays ended in a link and a reload.
  const verdict = verdictWords();
  if (verdict) { q.set("winner", verdict.winner); q.set("how", verdict.how); }
  const address = `?${q}`;
  if (location.search !== address) history.replaceState(null, "", address);
  // An empty game is not kept: the page opened on another variant leaves the game kept until
  // a move is played (a new game asked for forgets it: `newGame`).
  if (!app.root.children.length) return;
  /** @type {SavedGame} */
  const saved = {
    variant: app.variant, start: app.start, mode: app.mode, tree: store(app.root), line: app.moves, ply: app.ply,
    verdict: verdict || null,
  };
  try { localStorage.setItem(GAME_KEY, JSON.stringify(saved)); } catch (e) { /* private mode, or full */ }
}

/**
 * The game kept in the browser, if any.
 * @returns {SavedGame | null}
 */
export function savedGame() {
  try {
    const saved = JSON.parse(localStorage.getItem(GAME_KEY) || "null");
    return saved && typeof saved.variant === "string" && Array.isArray(saved.line) ? saved : null;
  } catch (e) { return null; }
}

/**
 * Whether the game may be replaced: it has no move, or the person says so.
 * @returns {boolean}
 */
export function mayDiscard() {
  if (!app.root.children.length) return true;
  const game = keptGame();
  return game === app.kept || confirm("Discard this game and its lines? (Export it first to keep it.)");
}

/**
 * The game as one record holds it: its variant, start, tree of moves (the main line and its
 * side lines) and the players' end.
 * @returns {string}
 */
export function keptGame() {
  return JSON.stringify([app.variant, app.start, treeText(app.root), app.verdict]);
}

/** The sides of the variant in the side select, the move box's example, and the rules. */
export function fillSides() {
  const oware = app.variant !== "dobutsu";
  $("rules-oware").hidden = !oware;
  $("rules-dobutsu").hidden = oware;
  document.querySelectorAll(".abapa-only").forEach((e) => { /** @type {HTMLElement} */ (e).hidden = app.variant !== "abapa"; });
  document.querySelectorAll(".awari-only").forEach((e) => { /** @type {HTMLElement} */ (e).hidden = app.variant !== "awari"; });
  const names = playerNames();
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
  $("graph-panel").hidden = mode !== "study";
  $("play-buttons").hidden = mode !== "play";
  show();
}
