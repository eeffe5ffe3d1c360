// @ts-check
// The evaluation graph of the line shown, as lichess draws a game's: the first player's share
// of the game after each ply, exact where the tables know the position (the review's values),
// the search's elsewhere (a short search of each such position); a click goes to that ply.
// Below it each side's summary: wins thrown, seeds of margin lost (Oware, exact values), and
// best moves found (a move that kept the tables' value, or the search's own choice).

import { app, actions } from "./state.js";
import { $, el, html, showError } from "./dom.js";
import { ApiError, gameParams, request } from "./api.js";

/** @typedef {import("./types.js").ReviewReply} ReviewReply */
/** @typedef {import("./types.js").BestReply} BestReply */
/** @typedef {import("./types.js").ValueReply} ValueReply */
/** @typedef {import("./tree.js").MoveNode} MoveNode */

/**
 * What is known of the value of a position of the game.
 * @typedef {object} Evaluation
 * @property {number} share  the first player's share of the game, 0 to 1
 * @property {boolean} exact  from the tables (else a search's)
 * @property {string | null} best  the search's best move there (null where the tables decide)
 */

/** The nodes a position's search looks at (a search of that many nodes is deterministic). */
export const SEARCH_NODES = 20000;

/** The graph's width and height in its own units. */
const [W, H] = [600, 100];

/**
 * The index of the player to move after `ply` plies.
 * @param {number} ply
 * @returns {number}
 */
function moverAt(ply) {
  return (app.startSide + ply) % 2;
}

/**
 * The first player's share of a known value of the side `mover`, or null when the value does
 * not decide the result.
 * @param {ValueReply | null} v
 * @param {number} mover
 * @returns {number | null}
 */
function shareOf(v, mover) {
  if (!v || !v.result) return null;
  const share = { win: 1, draw: 0.5, loss: 0 }[v.result];
  return mover === 0 ? share : 1 - share;
}

/**
 * A search of the position after `moves`, asked again while every search thread is busy.
 * @param {string[]} moves
 * @returns {Promise<BestReply>}
 */
async function search(moves) {
  for (;;) {
    try {
      return await request("bestmove", Object.assign(gameParams(moves), { nodes: SEARCH_NODES }));
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 503)) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** @typedef {import("./types.js").ReviewedMove} ReviewedMove */
/** @typedef {import("./tree.js").Mark} Mark */

/**
 * The drops in the mover's share of the game (0 to 1) that mark a move where the tables do not
 * value it, as lichess marks a game by its winning chances: 0.15 a blunder, 0.10 a mistake,
 * 0.05 an inaccuracy.
 * @type {[number, Mark["kind"]][]}
 */
export const SEARCH_MARKS = [[0.15, "blunder"], [0.10, "mistake"], [0.05, "inaccuracy"]];

/**
 * The exact mark of a reviewed move: a result thrown away (`blunder`), seeds of margin lost
 * (`mistake`), or none.
 * @param {ReviewedMove} m
 * @returns {Mark | null}
 */
export function exactMark(m) {
  /** @type {Record<string, number>} */
  const order = { loss: 0, draw: 1, win: 2 };
  const [b, a] = [m.before && m.before.result, m.after && m.after.result];
  const seeds = m.seeds_lost || 0;
  if (b && a && order[a] < order[b]) return { kind: "blunder", exact: true, seeds };
  if (seeds > 0) return { kind: "mistake", exact: true, seeds };
  return null;
}

/**
 * Marks the moves the tables do not mark by the drop of the mover's share between the
 * positions before and after them, where a search valued one of them.
 * @param {MoveNode[]} nodes  the root, then the line
 */
function markBySearch(nodes) {
  for (let i = 0; i + 1 < nodes.length; i++) {
    const next = nodes[i + 1];
    const shares = moverShares(nodes, i);
    const [a, b] = [nodes[i].evaluation, next.evaluation];
    if (next.mark || !shares || !a || !b || (a.exact && b.exact)) continue;
    const drop = shares[0] - shares[1];
    const found = SEARCH_MARKS.find(([least]) => drop >= least - 1e-9);
    if (!found) continue;
    next.mark = { kind: found[1], exact: false, seeds: 0 };
    const pct = (/** @type {number} */ x) => `${Math.round(x * 100)}%`;
    const mover = app.state ? app.state.players[moverAt(i)] : "the mover";
    next.cost = `${found[1]}: ${mover}'s share of the game fell from ${pct(shares[0])} to ${pct(shares[1])}`;
  }
}

/** Evaluates every position of the line shown: the tables' values from the review, a search
 * where they know none; the graph grows as the values come. Then marks each move that gave
 * something away: exactly where the tables value it, else by the search's values. */
export async function evaluateLine() {
  const line = app.line;
  const nodes = [app.root, ...line];
  const moves = line.map((n) => n.move);
  const button = $("evaluate");
  button.disabled = true;
  try {
    /** @type {ReviewReply} */
    const review = await request("review", gameParams(moves));
    review.moves.forEach((m, i) => {
      line[i].cost = m.cost;
      line[i].mark = exactMark(m);
      const before = shareOf(m.before, moverAt(i));
      const after = shareOf(m.after, moverAt(i));
      if (before !== null) nodes[i].evaluation = { share: before, exact: true, best: null };
      if (after !== null) nodes[i + 1].evaluation = { share: after, exact: true, best: null };
    });
    drawGraph();
    for (let i = 0; i < nodes.length; i++) {
      const known = nodes[i].evaluation;
      if (known && known.exact) continue;
      const best = await search(moves.slice(0, i));
      if (!best.wdl) continue;
      const [w, d, l] = best.wdl;
      const mover = (w + d / 2) / (w + d + l);
      nodes[i].evaluation = { share: moverAt(i) === 0 ? mover : 1 - mover, exact: false, best: best.move };
      drawGraph();
    }
    markBySearch(nodes);
    drawGraph();
    actions.drawMoves();
  } catch (e) {
    showError(e);
  } finally {
    button.disabled = false;
  }
}

/**
 * The mover's share before and after move `i` of the line (its view), where known.
 * @param {MoveNode[]} nodes  the root, then the line
 * @param {number} i
 * @returns {[number, number] | null}
 */
function moverShares(nodes, i) {
  const a = nodes[i].evaluation, b = nodes[i + 1].evaluation;
  if (!a || !b) return null;
  return moverAt(i) === 0 ? [a.share, b.share] : [1 - a.share, 1 - b.share];
}

/**
 * Each side's summary of the line: wins thrown (a won position, exact or a proven result of
 * the search, left for one that is not), seeds of margin lost (the review's exact costs), best
 * moves found (a move that kept the tables' value, or the search's best move) of the moves
 * valued.
 * @param {MoveNode[]} nodes
 * @returns {{ thrown: number, seeds: number, best: number, valued: number }[]}
 */
export function summary(nodes) {
  const sides = [0, 1].map(() => ({ thrown: 0, seeds: 0, best: 0, valued: 0 }));
  for (let i = 0; i + 1 < nodes.length; i++) {
    const side = sides[moverAt(i)];
    const next = nodes[i + 1];
    if (next.mark && next.mark.exact) side.seeds += next.mark.seeds;
    const shares = moverShares(nodes, i);
    const here = nodes[i].evaluation;
    if (!shares || !here) continue;
    if (shares[0] === 1 && shares[1] < 1) side.thrown += 1;
    side.valued += 1;
    const kept = here.exact && next.evaluation && next.evaluation.exact && !next.mark;
    if (kept || (!here.exact && here.best === next.move)) side.best += 1;
  }
  return sides;
}

/** The graph and the summary of the line shown, the position shown marked. */
export function drawGraph() {
  const svg = $("eval-graph");
  svg.replaceChildren();
  const nodes = [app.root, ...app.line];
  const n = Math.max(nodes.length - 1, 1);
  /** @param {number} i */
  const x = (i) => (i / n) * W;
  /** @param {number} share */
  const y = (share) => (1 - share) * H;
  el("rect", { x: 0, y: 0, width: W, height: H, class: "graph-back" }, svg);
  el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "graph-mid" }, svg);
  const known = nodes.map((nd, i) => [i, nd.evaluation]).filter(([, e]) => e);
  const points = known.map(([i, e]) => `${x(/** @type {number} */ (i))},${y(/** @type {Evaluation} */ (e).share)}`);
  if (points.length > 1) {
    el("polygon", { points: [`${x(/** @type {number} */ (known[0][0]))},${H}`, ...points,
      `${x(/** @type {number} */ (known[known.length - 1][0]))},${H}`].join(" "), class: "graph-area" }, svg);
    el("polyline", { points: points.join(" "), class: "graph-line" }, svg);
  }
  el("line", { x1: x(app.ply), y1: 0, x2: x(app.ply), y2: H, class: "graph-now" }, svg);
  nodes.forEach((nd, i) => {
    const e = nd.evaluation;
    if (!e) return;
    const classes = ["point", e.exact ? "exact" : "searched"];
    if (nd.mark) classes.push("costly");
    el("circle", { cx: x(i), cy: y(e.share), r: nd.mark ? 5 : 3, class: classes.join(" "),
      "data-ply": i, "data-share": e.share.toFixed(3), "data-exact": String(e.exact) }, svg);
  });
  drawSummary(nodes);
}

/**
 * The summary table.
 * @param {MoveNode[]} nodes
 */
function drawSummary(nodes) {
  const body = $("summary").querySelector("tbody");
  body.replaceChildren();
  if (!nodes.some((nd) => nd.evaluation) || !app.state) return;
  const sides = summary(nodes);
  app.state.players.forEach((player, k) => {
    const s = sides[k];
    const tr = html("tr");
    tr.dataset.player = player;
    tr.append(html("th", "", player), html("td", "thrown", String(s.thrown)),
      html("td", "seeds", String(s.seeds)), html("td", "best", `${s.best} of ${s.valued}`));
    body.appendChild(tr);
  });
}

/** A click on the graph goes to the ply under it. */
export function initGraph() {
  $("eval-graph").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const box = $("eval-graph").getBoundingClientRect();
    const n = Math.max(app.line.length, 1);
    actions.goTo(Math.round(((e.clientX - box.left) / box.width) * n));
  });
  $("evaluate").addEventListener("click", evaluateLine);
}
