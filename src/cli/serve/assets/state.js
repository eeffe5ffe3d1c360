// @ts-check
// The page's state, declared in one place: every module reads and writes this one object, and
// nothing else is kept between events (the DOM is drawn from it).

import { node } from "./tree.js";

/** @typedef {import("./types.js").StateReply} StateReply */
/** @typedef {import("./types.js").ProbeReply} ProbeReply */
/** @typedef {import("./types.js").LineReply} LineReply */
/** @typedef {import("./tree.js").MoveNode} MoveNode */

/**
 * A move to animate when the next position is drawn: Oware's house sown, or Dobutsu's piece
 * from one square (none for a drop) to another.
 * @typedef {{ move?: string, from?: string, to?: string }} Animation
 */

/**
 * @typedef {object} AppState
 * @property {string} variant  `abapa`, `awari` or `dobutsu`
 * @property {"play" | "study"} mode
 * @property {string | null} start  the start position's text, null for the game's own
 * @property {number} startSide  the index of the player to move at the start (move numbers)
 * @property {MoveNode} root  the game's tree of moves (tree.js), its start position
 * @property {MoveNode} node  the position shown, a node of the tree
 * @property {MoveNode[]} line  the line shown: from the root's first move through `node`
 *   and on by the first moves; stepping back and forth keeps to it
 * @property {string[]} moves  the moves of the line shown, in the protocol's notation
 * @property {number} ply  the position shown: after moves[0..ply] (`node`'s depth)
 * @property {StateReply | null} state  /api/state of the position shown
 * @property {boolean} flipped
 * @property {number} human  play: the index of the player the person plays
 * @property {string | null} selected  Dobutsu: the square or hand piece picked
 * @property {LineReply[]} lines  study: the last lines, by multipv
 * @property {AbortController | null} stream  the running search
 * @property {boolean} paused  the page was hidden while a search ran: it starts again when shown
 * @property {boolean} offline  the server stopped answering: the page polls until it is back
 * @property {ProbeReply | null} probe
 * @property {string | null} bestMove
 * @property {number} request  increases with each position shown, to drop stale answers
 * @property {Animation | null} animate
 * @property {Set<string>} levelsPlayed  play: the levels the engine played this game's moves at
 * @property {boolean} searchDone  study: the analysis ended (at its limit)
 * @property {{ winner: number | null, how: string } | null} verdict  play: the game ended by
 *   the players (on time, resigned, a draw agreed): the winner's index (null: a draw), and how
 * @property {string | null} kept  the game as last imported, exported or downloaded (see
 *   `keptGame` in game.js): the same game is discarded without asking
 */

/** @type {AppState} */
export const app = {
  variant: "abapa",
  mode: "play",
  start: null,
  startSide: 0,
  root: node("", null),
  node: node("", null),
  line: [],
  moves: [],
  ply: 0,
  state: null,
  flipped: false,
  human: 0,
  selected: null,
  lines: [],
  stream: null,
  paused: false,
  offline: false,
  probe: null,
  bestMove: null,
  request: 0,
  animate: null,
  levelsPlayed: new Set(),
  searchDone: false,
  verdict: null,
  kept: null,
};

/** This page's id: its new analysis stops its last one on the server. */
export const PAGE = Math.random().toString(36).slice(2);

/**
 * What the modules call on each other: filled in by app.js, so that the drawing modules need
 * not import the game's (no import cycle).
 * @type {{ show: () => void, playMove: (mv: string) => void, goTo: (ply: number) => void,
 *   playLine: (moves: string[]) => void, drawMoves: () => void }}
 */
export const actions = {
  show: () => {},
  playMove: () => {},
  goTo: () => {},
  playLine: () => {},
  drawMoves: () => {},
};

/**
 * The index of the player to move in the position shown.
 * @returns {number}
 */
export function sideIndex() {
  return app.state ? app.state.players.indexOf(app.state.to_move) : 0;
}

/**
 * The legal moves of the position shown (none once the game is over, or in play once the
 * players have ended it).
 * @returns {string[]}
 */
export function legalMoves() {
  const over = !app.state || app.state.end || (app.mode === "play" && app.verdict);
  return app.state && !over ? app.state.legal.map((l) => l.move) : [];
}

/**
 * Whether the person moves now: always in study, on their side's turn in play.
 * @returns {boolean}
 */
export function humanToMove() {
  return app.mode === "study" || sideIndex() === app.human;
}

/**
 * The move that led to the position drawn, if any.
 * @returns {string | null}
 */
export function lastMove() {
  const moves = app.state ? app.state.moves : [];
  return moves.length ? moves[moves.length - 1] : null;
}
