// @ts-check
// The engine on the page: its reply in play (a search of the level and time chosen), and in
// study its lines as they come, its depth and speed, and the tables' values of every move.

import { app, actions, sideIndex, humanToMove } from "./state.js";
import { $, html, showError } from "./dom.js";
import { gameParams, request, here, stream } from "./api.js";
import { draw, drawPreview, setEvalBar, setEvalBarToEnd } from "./board.js";
import { searchClock } from "./play.js";
import { firstShare, scoreText, shareOfValue, valueClass, valueLabel, valueWords } from "./format.js";

/** @typedef {import("./types.js").ProbeReply} ProbeReply */
/** @typedef {import("./types.js").TickReply} TickReply */
/** @typedef {import("./types.js").StateReply} StateReply */

/**
 * Play: the engine's move when it is the engine's turn at the game's last position.
 * @param {number} id  the position's request number (a later position drops the answer)
 */
export function maybeEngineMove(id) {
  if (app.state && app.state.end) setEvalBarToEnd(app.state.end);
  else setEvalBar(null, "");
  if (!app.state || app.state.end || app.verdict || humanToMove() || app.ply !== app.moves.length) return;
  const level = $("level").value;
  stream(Object.assign({ level }, searchClock()), {
    best: (best) => {
      if (id !== app.request || app.verdict || !best.move) return;
      app.levelsPlayed.add(level);
      actions.playMove(best.move);
    },
  });
}

/**
 * Study: the tables' values and the engine's lines of the position shown.
 * @param {number} id
 */
export function study(id) {
  app.lines = [];
  app.searchDone = false;
  $("lines").replaceChildren();
  $("engine-stats").textContent = "";
  if (app.state) $("lines-view").textContent = `Scores from ${app.state.players[0]}'s view: + is good for ${app.state.players[0]}.`;
  loadProbe(id);
  if (!app.state) return;
  if (app.state.end) { setEvalBarToEnd(app.state.end); return; }
  if (!$("engine-on").checked) { setEvalBar(null, ""); return; }
  let pending = false;
  const [limitName, limitValue] = $("analysis-limit").value.split("=");
  stream({ multipv: $("multipv").value, [limitName]: limitValue }, {
    info: (line) => {
      if (id !== app.request) return;
      app.lines[line.multipv - 1] = line;
      app.lines.length = Math.min(app.lines.length, Number($("multipv").value));
      if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; drawLines(); }); }
    },
    tick: (t) => { if (id === app.request) drawStats(t.time, t); },
    best: () => { if (id === app.request) { app.searchDone = true; drawStats(app.lines[0] ? app.lines[0].time : 0); } },
  });
}

/**
 * The search's depth from its last line, and its speed, nodes and time: from the last tick
 * (the search's count between two lines) when it is newer than the line.
 * @param {number} time  ms
 * @param {TickReply} [tick]
 */
function drawStats(time, tick) {
  const top = app.lines[0];
  const now = tick && (!top || tick.nodes > top.nodes) ? tick : top;
  const clock = `${(time / 1000).toFixed(1)} s`;
  const speed = now ? ` · ${(now.nps / 1000).toFixed(0)} kn/s · ${now.nodes.toLocaleString()} nodes` : "";
  // A root the tables decide is answered without a search: its depth and speed mean nothing.
  if (top && top.exact && top.nodes <= Math.max(top.tbhits, 1)) {
    $("engine-stats").textContent = "exact: the tables' value, no search needed";
    return;
  }
  // With one legal move the engine answers it at once, without a line or a search.
  if (!top && app.searchDone && app.state && app.state.legal.length === 1) {
    $("engine-stats").textContent = `one legal move, ${app.state.legal[0].move}: no search needed`;
    return;
  }
  const done = app.searchDone ? " · done" : "";
  $("engine-stats").textContent = top
    ? `depth ${top.depth}/${top.seldepth}${speed} · ${clock}${done}`
    : `searching${speed} · ${clock}${done}`;
}

/** The lines, the bar from the best line (where the tables do not know the position), and the
 * best move's mark (where they do not know every move). */
function drawLines() {
  const side = sideIndex();
  const list = $("lines");
  list.replaceChildren();
  app.lines.forEach((line, i) => {
    if (!line) return;
    const li = html("li");
    li.dataset.multipv = String(i + 1);
    const pv = html("span", "pv");
    // Each move an element of its own, with its notation (a blank between them): a click
    // plays the line to it, a hover shows the position after it.
    line.pv.forEach((mv, k) => {
      if (k) pv.append(" ");
      const m = html("span", "pv-move", mv);
      m.dataset.pvMove = mv;
      m.tabIndex = 0;
      m.setAttribute("role", "button");
      const upTo = line.pv.slice(0, k + 1);
      m.title = `Play ${upTo.join(" ")}`;
      m.addEventListener("click", (e) => { clickedAt = [e.clientX, e.clientY]; actions.playLine(upTo); });
      m.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); actions.playLine(upTo); }
      });
      // The new lines drawn under a pointer that has not moved since its click are not looked
      // at: only a pointer that moves onto a move previews it.
      const look = (/** @type {MouseEvent} */ e) => {
        if (clickedAt && clickedAt[0] === e.clientX && clickedAt[1] === e.clientY) return;
        clickedAt = null;
        if (looking !== m) { looking = m; previewLine(upTo); }
      };
      m.addEventListener("mouseenter", look);
      m.addEventListener("mousemove", look);
      m.addEventListener("focus", () => previewLine(upTo));
      m.addEventListener("blur", endPreview);
      pv.appendChild(m);
    });
    // One line each, so that the values and the moves stay in view; the rest on demand.
    const more = html("button", "more", openLines.has(i) ? "−" : "…");
    more.title = openLines.has(i) ? "Show this line on one row" : "Show the whole line";
    more.setAttribute("aria-expanded", String(openLines.has(i)));
    more.addEventListener("click", () => {
      if (!openLines.delete(i)) openLines.add(i);
      drawLines();
    });
    li.classList.toggle("open", openLines.has(i));
    li.append(html("span", "score", scoreText(line.score, side)), pv, more);
    list.appendChild(li);
  });
  const top = app.lines[0];
  if (top) {
    drawStats(top.time);
    if (!(app.probe && app.probe.value && app.probe.value.result)) {
      setEvalBar(firstShare(top, side), scoreText(top.score, side));
    }
    // The board is drawn again only when the mark moves: a redraw replaces the squares under
    // a pointer about to click them.
    if ((!app.probe || !app.probe.moves.every((m) => m.value)) && app.bestMove !== top.pv[0]) {
      app.bestMove = top.pv[0];
      draw();
    }
  }
}

/** The lines shown whole (by rank, from 0); the others are cut to one row. @type {Set<number>} */
const openLines = new Set();

/** The line looked at now (a hover on an engine line's move), to drop stale answers. */
let previewing = 0;

/** Where the pointer clicked an engine line's move, until it moves. @type {[number, number] | null} */
let clickedAt = null;

/** The engine line's move looked at. @type {HTMLElement | null} */
let looking = null;

/**
 * Shows on the board the position after `moves` from the position shown, until `endPreview`.
 * @param {string[]} moves
 */
async function previewLine(moves) {
  const id = ++previewing;
  const request_ = app.request;
  /** @type {StateReply} */
  let state;
  try {
    state = await request("state", gameParams([...app.moves.slice(0, app.ply), ...moves]));
  } catch (e) { return; }
  if (id === previewing && request_ === app.request) drawPreview(state);
}

/** The board shows the position shown again. */
export function endPreview() {
  looking = null;
  if (!previewing) return;
  previewing += 1;
  draw();
}

/**
 * The tables' values of the position shown and of each move.
 * @param {number} id
 */
async function loadProbe(id) {
  /** @type {ProbeReply} */
  let probe;
  try { probe = await request("probe", here()); } catch (e) { showError(e); return; }
  if (id !== app.request || !app.state) return;
  app.probe = probe;
  const side = sideIndex();
  const v = probe.value;
  const tag = $("position-value");
  const players = app.state.players;
  tag.textContent = v ? `${valueLabel(v, side)} · ${valueWords(v, side, players)}` : "";
  tag.className = `value-tag ${valueClass(v)}`;
  $("values-view").textContent = `${players[0]}'s view`;
  $("tables-note").textContent = probe.tables || "";
  const body = $("values").querySelector("tbody");
  body.replaceChildren();
  for (const m of probe.moves) {
    const tr = html("tr", "move");
    tr.dataset.move = m.move;
    // The signed value from the first player's view, as the lines and the bar read; the words
    // name the player the value favours.
    tr.append(html("td", "mv", m.move), html("td", `signed ${valueClass(m.value)}`, m.value ? valueLabel(m.value, side) : ""),
      html("td", valueClass(m.value), valueWords(m.value, side, players)));
    tr.addEventListener("click", () => actions.playMove(m.move));
    body.appendChild(tr);
  }
  if (v && v.result) {
    if (!app.state.end) setEvalBar(shareOfValue(v, side), valueLabel(v, side));
  }
  // The tables' best move, when they know every move; else the engine's.
  if (probe.moves.length && probe.moves.every((m) => m.value)) {
    app.bestMove = probe.moves[0].move;
    draw();
  }
  // No value at all: one line instead of a row of dashes a move (on a phone it would push the
  // moves out of view).
  const none = !v && !probe.moves.some((m) => m.value);
  $("values").hidden = none;
  if (none) {
    $("tables-note").textContent = probe.tables
      ? `No exact values here: ${probe.tables}.` : "No exact values here: no tables for this position.";
  }
}
