// @ts-check
// Play against the engine: the time control (a time a move, or a game clock with an increment:
// the person's clock runs on their move, the engine's while it thinks, and a player whose clock
// runs out loses on time), resigning, offering a draw (the engine accepts when the position's
// value is a draw), a hint, the result banner and a rematch.

import { actions, app, sideIndex } from "./state.js";
import { $ } from "./dom.js";
import { here, request, stopStream } from "./api.js";
import { draw } from "./board.js";

/** @typedef {import("./types.js").BestReply} BestReply */
/** @typedef {import("./types.js").InfoReply} InfoReply */
/** @typedef {import("./types.js").ProbeReply} ProbeReply */

/**
 * The clocks of a game on a game clock.
 * @typedef {object} Clocks
 * @property {number} base  each player's time at the start, ms
 * @property {number} inc  the increment per move, ms
 * @property {[number, number]} left  each player's time left (by index), ms, at `since`
 * @property {number | null} running  the index of the player whose clock runs
 * @property {number} since  when it started running (performance.now())
 * @property {number} ply  the ply of the position it runs on
 * @property {number | null} moved  the player whose move stopped their clock, until the
 *   position after it is shown (then the increment is added)
 */

/** @type {Clocks | null} */
let clocks = null;

/** The timer that redraws the running clock and notices a flag fall. */
let timer = 0;

/** The nodes of the search that values a draw offer where the tables know nothing. */
const DRAW_OFFER_NODES = 20000;

/**
 * The time control chosen: `{ movetime }` or `{ base, inc }` (ms).
 * @returns {{ movetime: number } | { base: number, inc: number }}
 */
function control() {
  const value = $("time-control").value;
  const clock = /^clock=(\d+)\+(\d+)$/.exec(value);
  if (clock) return { base: Number(clock[1]), inc: Number(clock[2]) };
  return { movetime: Number(value.replace("movetime=", "")) };
}

/** A new game's clocks (none on a time a move), and no result yet. */
export function resetPlay() {
  const c = control();
  clocks = "base" in c ? { base: c.base, inc: c.inc, left: [c.base, c.base], running: null, since: 0, ply: 0, moved: null } : null;
  app.verdict = null;
  window.clearInterval(timer);
  timer = 0;
  drawClocks();
  drawBanner();
}

/**
 * The time left on player `k`'s clock now.
 * @param {number} k
 * @returns {number}
 */
function leftNow(k) {
  if (!clocks) return Infinity;
  const run = clocks.running === k ? performance.now() - clocks.since : 0;
  return clocks.left[k] - run;
}

/** Stops the running clock, its time taken off. */
function stopClock() {
  if (!clocks || clocks.running === null) return;
  clocks.left[clocks.running] = leftNow(clocks.running);
  clocks.running = null;
}

/**
 * The position shown has changed: in play at the game's last position the clock of the side to
 * move runs (the player who just moved has the increment added); anywhere else no clock runs.
 */
export function onPosition() {
  if (!clocks) { drawBanner(); return; }
  const mover = clocks.moved !== null ? clocks.moved : clocks.running;
  const moved = mover !== null && app.ply === clocks.ply + 1;
  clocks.moved = null;
  stopClock();
  if (moved && mover !== null) clocks.left[mover] += clocks.inc;
  const live = app.mode === "play" && app.state && !app.state.end && !app.verdict && app.ply === app.moves.length;
  if (live) {
    clocks.running = sideIndex();
    clocks.since = performance.now();
    clocks.ply = app.ply;
    if (!timer) timer = window.setInterval(tick, 100);
  } else {
    window.clearInterval(timer);
    timer = 0;
  }
  drawClocks();
  drawBanner();
}

/** A move is made: its player's clock stops at once, as lichess leaves lag out: the person
 * is charged for their thinking only (not the server's answer and the sowing that follow), the
 * engine for its search (not its sowing). */
export function moveMade() {
  if (!clocks || clocks.running === null) return;
  const mover = clocks.running;
  stopClock();
  clocks.moved = mover;
  drawClocks();
}

/** Redraws the clocks; a clock run out ends the game on time. */
function tick() {
  if (clocks && clocks.running !== null && leftNow(clocks.running) <= 0) {
    const loser = clocks.running;
    stopClock();
    clocks.left[loser] = 0;
    end(1 - loser, "on time");
  }
  drawClocks();
}

/**
 * The game ends here by the players (time, resignation, agreement): `winner` by index (null: a
 * draw), `how` in words.
 * @param {number | null} winner
 * @param {string} how
 */
function end(winner, how) {
  stopClock();
  window.clearInterval(timer);
  timer = 0;
  stopStream();
  app.verdict = { winner, how };
  // Drawn again: no move left to make, the banner says how it ended (a move of
  // the engine's still coming is dropped).
  actions.show();
}

/**
 * The game clock's parameters for the engine's search (`wtime`, `btime`, `winc`, `binc`), or
 * the time a move (`movetime`).
 * @returns {Record<string, number>}
 */
export function searchClock() {
  const c = control();
  if (!clocks || !("base" in c)) return { movetime: "movetime" in c ? c.movetime : 1000 };
  return {
    wtime: Math.max(0, Math.round(leftNow(0))), btime: Math.max(0, Math.round(leftNow(1))),
    winc: clocks.inc, binc: clocks.inc,
  };
}

/**
 * A clock's text: minutes and seconds, tenths under 10 s.
 * @param {number} ms
 * @returns {string}
 */
export function clockText(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const s = Math.floor(t / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The clocks under the board, the running one marked. */
function drawClocks() {
  const box = $("clocks");
  box.hidden = !clocks || app.mode !== "play";
  if (!clocks || !app.state) return;
  const players = app.state.players;
  box.querySelectorAll(".clock").forEach((el, k) => {
    const e = /** @type {HTMLElement} */ (el);
    e.dataset.player = players[k];
    e.dataset.ms = String(Math.max(0, Math.round(leftNow(k))));
    e.classList.toggle("running", clocks !== null && clocks.running === k);
    e.classList.toggle("flagged", leftNow(k) <= 0);
    e.textContent = `${players[k]} ${clockText(leftNow(k))}`;
  });
}

/** The result banner of a game over in play: who won, and how; the play buttons. */
export function drawBanner() {
  const banner = $("result-banner");
  const s = app.state;
  const playing = app.mode === "play" && s !== null;
  let text = "";
  let outcome = "";
  if (playing && s && app.verdict) {
    const v = app.verdict;
    if (v.winner === null) { text = `Draw ${v.how}.`; outcome = "draw"; }
    else {
      const won = v.winner === app.human;
      outcome = won ? "won" : "lost";
      text = v.how === "on time"
        ? `You ${outcome} on time: ${s.players[v.winner]} wins.`
        : `You ${outcome}: ${s.players[1 - v.winner]} ${v.how}.`;
    }
  } else if (playing && s && s.end) {
    const winner = s.end.winner ? s.players.indexOf(s.end.winner) : null;
    outcome = winner === null ? "draw" : winner === app.human ? "won" : "lost";
    text = `${winner === null ? "Draw" : `You ${outcome}`} (${s.end.result}): ${s.end.reason}.`;
  }
  banner.hidden = !text;
  banner.textContent = text;
  banner.dataset.outcome = outcome;
  const over = Boolean(text);
  $("resign").disabled = $("offer-draw").disabled = $("hint").disabled = over || !playing;
  $("rematch").hidden = !over;
}

/** The person resigns. */
export function resign() {
  if (!app.state || app.verdict || app.state.end) return;
  end(1 - app.human, "resigned");
}

/** The person offers a draw: the engine accepts when the position's value is a draw (the
 * tables' value, else a short search's most likely result). */
export async function offerDraw() {
  if (!app.state || app.verdict || app.state.end) return;
  const asked = app.request;
  let accepted = false;
  /** @type {ProbeReply} */
  const probe = await request("probe", here());
  if (probe.value && probe.value.result) accepted = probe.value.result === "draw";
  else {
    /** @type {BestReply} */
    const best = await request("bestmove", here({ nodes: DRAW_OFFER_NODES }));
    accepted = best.wdl !== null && best.wdl[1] >= Math.max(best.wdl[0], best.wdl[2]);
  }
  if (asked !== app.request || app.verdict) return;
  if (accepted) end(null, "by agreement");
  else $("draw-answer").textContent = "The engine declines the draw.";
}

/** A hint: the best move of the position (the tables' where they know it, else a search of a
 * second) marked on the board. */
export async function hint() {
  if (!app.state || app.verdict || app.state.end) return;
  const asked = app.request;
  /** @type {BestReply} */
  const best = await request("bestmove", here({ movetime: 1000 }));
  if (asked !== app.request || !best.move) return;
  app.bestMove = best.move;
  draw();
  $("hint-answer").textContent = `Hint: ${best.move}.`;
}

/** The timer that asks /api/info again while tables are being built. */
let levelTimer = 0;
/** The variant whose level 6 is labelled: the label is asked again once a position of another
 * one is shown (its first look starts the build of its tables). */
let levelVariant = "";

/** Labels level 6 when the variant shown is not the one labelled. */
export function labelLevel6() {
  if (levelVariant !== app.variant) followLevel6();
}

/** Level 6 labelled by what it plays by now (the server's words: the solution, search with
 * endgame tables, search while tables are built), in its option and in the play panel; asked
 * again every 5 s while a build runs, so that the label changes when the tables land. */
export async function followLevel6() {
  window.clearTimeout(levelTimer);
  /** @type {InfoReply} */
  let info;
  try {
    info = await request("info", {});
  } catch (e) {
    levelTimer = window.setTimeout(followLevel6, 5000);
    return;
  }
  const v = info.variants.find((x) => x.name === app.variant);
  levelVariant = app.variant;
  if (v) {
    const option = /** @type {HTMLOptionElement} */ ($("level").querySelector('option[value="6"]'));
    option.textContent = `6 (${v.level6})`;
    $("level-note").textContent = `Level 6 plays by: ${v.level6}.`;
  }
  if (info.variants.some((x) => x.level6.includes("building"))) levelTimer = window.setTimeout(followLevel6, 5000);
}
