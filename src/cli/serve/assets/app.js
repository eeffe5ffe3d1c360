// The perfectplay board: draws the game the server describes (/api/state), plays moves by
// click, tap or keyboard, asks the engine for its moves (play) or its lines and the tables'
// values (study), and imports and exports records. Everything it knows comes from the JSON API
// (docs/web.md); it fetches nothing from elsewhere.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const PAGE = Math.random().toString(36).slice(2);
const $ = (id) => document.getElementById(id);

const app = {
  variant: "abapa",
  mode: "play",
  start: null,        // the start position's text, null for the start position
  moves: [],          // the moves of the game, in the protocol's notation
  ply: 0,             // the position shown: after moves[0..ply]
  state: null,        // /api/state of the position shown
  flipped: false,
  human: 0,           // play: the player index the person plays
  selected: null,     // Dobutsu: the square or hand piece picked
  lines: [],          // study: the last lines, by multipv
  stream: null,       // the running search's AbortController
  paused: false,      // the page was hidden while a search ran: it starts again when shown
  offline: false,     // the server stopped answering: the page polls until it is back
  costs: [],          // review: what each move cost
  probe: null,
  bestMove: null,
  request: 0,         // increases with each position shown, to drop stale answers
  animate: null,      // the move to animate when the next position is drawn
  levelsPlayed: new Set(), // play: the levels the engine played this game's moves at
  searchDone: false,  // study: the analysis ended (at its limit)
};

// ---------------------------------------------------------------- the API

function query(extra) {
  const q = new URLSearchParams({ variant: app.variant });
  if (app.start) q.set("position", app.start);
  q.set("moves", app.moves.slice(0, app.ply).join(" "));
  for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
  return q.toString();
}

async function api(path, extra, options) {
  let res;
  try {
    res = await fetch(`/api/${path}?${query(extra)}`, options);
  } catch (e) {
    lostServer();
    throw new Error("the server is not answering");
  }
  const type = res.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) throw new Error(body.error || body || res.statusText);
  return body;
}

function showError(e) {
  $("error").textContent = e ? String(e.message || e) : "";
}

// ---------------------------------------------------------------- values and scores

function valueClass(v) {
  return v && v.result ? v.result : "unknown";
}

// A score of the side to move, as the first player sees it, in the units people read:
// seeds (Oware) or pawns of a hundred (Dobutsu), or a mate distance in moves.
function scoreText(score, sideIndex) {
  const sign = sideIndex === 0 ? 1 : -1;
  if ("mate" in score) {
    const n = score.mate * sign;
    return (n > 0 ? "+" : "-") + "#" + Math.abs(n);
  }
  const cp = score.cp * sign;
  return (cp >= 0 ? "+" : "") + (cp / 100).toFixed(2);
}

// The first player's expected share of the game from a line (its WDL, from the side to move).
function firstShare(line, sideIndex) {
  const [w, d, l] = line.wdl;
  const mover = (w + d / 2) / (w + d + l);
  return sideIndex === 0 ? mover : 1 - mover;
}

function shareOfValue(v, sideIndex) {
  if (!v || !v.result) return null;
  const mover = { win: 1, draw: 0.5, loss: 0 }[v.result];
  return sideIndex === 0 ? mover : 1 - mover;
}

// A table's value as the evaluation bar labels it, from the first player's view: `=` for a draw,
// `+#N` / `-#N` for a result in N moves, `+6` / `-6` for an exact Oware margin in seeds, a range
// for bounds.
function valueLabel(v, sideIndex) {
  const sign = sideIndex === 0 ? 1 : -1;
  if (v.result === "draw") return "=";
  if (v.score !== null && v.score !== undefined) {
    const m = v.score * sign;
    return m > 0 ? `+${m}` : String(m);
  }
  if (v.plies !== null && v.plies !== undefined && v.result) {
    const firstWins = (v.result === "win") === (sideIndex === 0);
    return `${firstWins ? "+" : "-"}#${Math.ceil(v.plies / 2)}`;
  }
  if (v.low !== null && v.low !== undefined) {
    const [a, b] = sign > 0 ? [v.low, v.high] : [-v.high, -v.low];
    return `${a}..${b}`;
  }
  return v.text;
}

// The bar at the end of a game: the result, the winner's side full.
function setEvalBarToEnd(end) {
  const players = app.state.players;
  const share = end.winner === players[0] ? 1 : end.winner === players[1] ? 0 : 0.5;
  setEvalBar(share, end.result);
}

function setEvalBar(share, text) {
  const fill = document.querySelector(".evalbar-fill");
  fill.style.height = share === null ? "50%" : `${Math.round(share * 100)}%`;
  document.querySelector(".evalbar-text").textContent = text || "";
  $("evalbar").setAttribute("aria-label", `Evaluation: ${text || "none"}`);
}

// ---------------------------------------------------------------- drawing: common

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, cls) {
  const t = el("text", { x, y, class: cls || "" }, parent);
  t.textContent = content;
  return t;
}

function sideIndex() {
  return app.state ? app.state.players.indexOf(app.state.to_move) : 0;
}

function legalMoves() {
  return app.state && !app.state.end ? app.state.legal.map((l) => l.move) : [];
}

function humanToMove() {
  return app.mode === "study" || sideIndex() === app.human;
}

function lastMove() {
  return app.ply > 0 ? app.moves[app.ply - 1] : null;
}

function draw() {
  // The bar turns with the board, whichever control turned it (button, `f`, side).
  $("evalbar").classList.toggle("flipped", app.flipped);
  const svg = $("board");
  svg.replaceChildren();
  if (!app.state) return;
  if (app.state.game === "oware") drawOware(svg, app.state.board.houses, app.state.board.stores);
  else drawDobutsu(svg);
}

// ---------------------------------------------------------------- drawing: Oware

const HOUSES = "ABCDEFabcdef";

function housePlace(name) {
  const i = HOUSES.indexOf(name);
  const south = i < 6;
  let col = south ? i : 11 - i;          // South's A..F left to right, North's a..f right to left
  let bottom = south;
  if (app.flipped) { col = 5 - col; bottom = !bottom; }
  return { x: 130 + col * 88, y: bottom ? 190 : 90 };
}

function seedDots(g, x, y, n) {
  const shown = Math.min(n, 18);
  for (let k = 0; k < shown; k++) {
    const ring = k < 6 ? 0 : k < 12 ? 1 : 2;
    const a = (k % 6) / 6 * Math.PI * 2 + ring * 0.5;
    const r = ring === 0 ? 11 : ring === 1 ? 22 : 5;
    el("circle", { cx: x + Math.cos(a) * r, cy: y + Math.sin(a) * r, r: 6.5, class: "seed" }, g);
  }
}

function drawOware(svg, houses, stores) {
  svg.setAttribute("viewBox", "0 0 700 280");
  el("rect", { x: 6, y: 30, width: 688, height: 220, rx: 90, class: "wood" }, svg);
  const legal = humanToMove() ? legalMoves() : [];
  const last = lastMove();
  const players = app.state.players;
  // Stores: North's on the left, South's on the right (as South sees the board).
  const storeAt = (player, x) => {
    const g = el("g", { class: "store", "data-store": player,
      "aria-label": `${player}'s store: ${stores[player]} seeds` }, svg);
    el("ellipse", { cx: x, cy: 140, rx: 38, ry: 88, class: "pit" }, g);
    text(g, x, 148, String(stores[player]), "count");
    text(g, x, 266 - (x < 350 ? 250 : 0), player, "name").setAttribute("class", "count name");
  };
  storeAt(app.flipped ? players[0] : players[1], 50);
  storeAt(app.flipped ? players[1] : players[0], 650);
  for (const name of HOUSES) {
    const { x, y } = housePlace(name);
    const n = houses[name];
    const classes = ["house"];
    if (legal.includes(name)) classes.push("legal");
    if (name === last) classes.push("last");
    if (name === app.bestMove) classes.push("best");
    const g = el("g", { class: classes.join(" "), "data-square": name, role: "button",
      tabindex: legal.includes(name) ? 0 : -1, "aria-label": `${name}: ${n} seeds` }, svg);
    el("circle", { cx: x, cy: y, r: 38, class: "pit" }, g);
    seedDots(g, x, y, n);
    text(g, x, y + (y > 140 ? 62 : -46), name, "name");
    const c = text(g, x + 28, y - 26, String(n), "count");
    c.setAttribute("font-size", "16");
    if (legal.includes(name)) {
      g.addEventListener("click", () => playMove(name));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") playMove(name); });
    } else {
      g.addEventListener("click", () => showError(whyNotSown(name, houses)));
    }
  }
}

// Why the house `name` cannot be sown now, in words: the game's end, the engine's turn, the
// other side's house, an empty house, or the feeding rule (the opponent has no seeds and the
// move does not reach its row).
function whyNotSown(name, houses) {
  const s = app.state;
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

// Sows the seeds of `from` one by one, then shows the position after the move (captures taken).
async function animateSowing(before, from, after) {
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

const DIRS = {
  L: [[-1, 1], [0, 1], [1, 1], [-1, 0], [1, 0], [-1, -1], [0, -1], [1, -1]],
  G: [[0, 1], [-1, 0], [1, 0], [0, -1]],
  E: [[-1, 1], [1, 1], [-1, -1], [1, -1]],
  C: [[0, 1]],
  H: [[-1, 1], [0, 1], [1, 1], [-1, 0], [1, 0], [0, -1]],
};
const NAMES = { L: "Lion", G: "Giraffe", E: "Elephant", C: "Chick", H: "Hen" };
const CELL = 100;

function squareXY(sq) {
  let file = sq.charCodeAt(0) - 97;
  let rank = Number(sq[1]) - 1;
  if (app.flipped) { file = 2 - file; rank = 3 - rank; }
  return { x: 80 + file * CELL, y: 90 + (3 - rank) * CELL };
}

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

function dobutsuTargets() {
  const legal = humanToMove() ? legalMoves() : [];
  const sel = app.selected;
  if (!sel) return [];
  return legal.filter((m) => sel.length === 1 ? m.startsWith(sel + "@") : m.startsWith(sel) && m[1] !== "@")
    .map((m) => m.includes("@") ? m.slice(2, 4) : m.slice(2, 4));
}

function drawDobutsu(svg) {
  svg.setAttribute("viewBox", "0 0 460 600");
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
        if (app.animate && app.animate.to === sq && app.animate.from) {
          const f = squareXY(app.animate.from);
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

function drawHand(svg, owner, hand, y, legal) {
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

function drawBestArrow(svg) {
  const best = app.bestMove;
  if (!best || app.state.game !== "dobutsu") return;
  const to = squareXY(best.slice(best.includes("@") ? 2 : 2, 4));
  const end = { x: to.x + CELL / 2, y: to.y + CELL / 2 };
  if (best.includes("@")) {
    el("circle", { cx: end.x, cy: end.y, r: 40, class: "arrow", fill: "none" }, svg);
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

function clickSquare(sq) {
  const legal = humanToMove() ? legalMoves() : [];
  const sel = app.selected;
  if (sel) {
    const candidates = legal.filter((m) => sel.length === 1
      ? m === `${sel}@${sq}` : m.startsWith(sel + sq));
    if (candidates.length) {
      app.selected = null;
      playMove(candidates[0]);
      return;
    }
  }
  app.selected = legal.some((m) => m.startsWith(sq)) && sel !== sq ? sq : null;
  draw();
}

// ---------------------------------------------------------------- the game

async function show() {
  const id = ++app.request;
  stopStream();
  app.bestMove = null;
  app.selected = null;
  let state;
  try {
    state = await api("state");
  } catch (e) {
    showError(e);
    return;
  }
  if (id !== app.request) return;
  const before = app.state;
  const anim = app.animate;
  app.state = state;
  if (anim && before && state.game === "oware" && before.game === "oware") {
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

function drawStatus() {
  const s = app.state;
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

function drawMoveList() {
  const list = $("move-list");
  list.replaceChildren();
  const firstOffset = app.state && app.startSide === 1 ? 1 : 0;
  let li = null;
  app.moves.forEach((mv, i) => {
    const k = i + firstOffset;
    if (k % 2 === 0 || i === 0) {
      li = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = `${Math.floor(k / 2) + 1}.${k % 2 ? ".." : ""}`;
      li.appendChild(num);
      list.appendChild(li);
    }
    const b = document.createElement("button");
    b.textContent = mv;
    b.dataset.ply = String(i + 1);
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

function goTo(ply) {
  app.ply = Math.max(0, Math.min(app.moves.length, ply));
  show();
}

function playMove(mv) {
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

function animationOf(mv) {
  if (app.state.game === "oware") return { move: mv };
  return mv.includes("@") ? { to: mv.slice(2, 4) } : { from: mv.slice(0, 2), to: mv.slice(2, 4) };
}

function newGame(start) {
  app.start = start || null;
  app.moves = [];
  app.ply = 0;
  app.costs = [];
  app.state = null;
  app.levelsPlayed = new Set();
  showError(null);
  startSide().then(show);
}

// An address's game whose start or moves the server refuses: the start position is dropped if
// it is refused, and the moves are cut before the first one refused, with the reason shown, so
// that the page always shows a game it can play on.
async function keepLegalPrefix() {
  const refused = async (start, moves) => {
    const q = new URLSearchParams({ variant: app.variant, moves: moves.join(" ") });
    if (start) q.set("position", start);
    const res = await fetch(`/api/state?${q}`);
    return res.ok ? null : (await res.json()).error;
  };
  if (app.start && await refused(app.start, [])) {
    showError(new Error(`${await refused(app.start, [])}: showing the start position`));
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

// The player to move in the start position (for move numbers).
async function startSide() {
  const q = new URLSearchParams({ variant: app.variant });
  if (app.start) q.set("position", app.start);
  try {
    const s = await (await fetch(`/api/state?${q}`)).json();
    app.startSide = s.players.indexOf(s.to_move);
  } catch (e) { app.startSide = 0; }
}

function takeback() {
  if (!app.moves.length) return;
  app.moves = app.moves.slice(0, app.ply);
  let n = app.mode === "play" ? 1 : 1;
  app.moves.pop();
  // In play, back to the person's turn.
  if (app.mode === "play") {
    const moverAt = (ply) => (app.startSide + ply) % 2;
    while (app.moves.length && moverAt(app.moves.length) !== app.human) { app.moves.pop(); n++; }
  }
  app.ply = app.moves.length;
  app.costs = [];
  show();
}

// ---------------------------------------------------------------- the engine

function stopStream() {
  if (app.stream) { app.stream.abort(); app.stream = null; }
}

// How long a stream may stay silent before the server is taken for gone: it sends a tick at
// least every quarter second.
const SILENCE_MS = 3000;

// The server stopped answering (a request failed, or a stream fell silent): say so, and ask
// /api/info every two seconds until it answers; then show the position again, which restarts
// what was running.
function lostServer() {
  stopStream();
  if (app.offline) return;
  app.offline = true;
  const note = $("connection");
  note.textContent = "The server is not answering: retrying…";
  note.hidden = false;
  const retry = async () => {
    try {
      const res = await fetch("/api/info", { cache: "no-store" });
      if (res.ok) {
        app.offline = false;
        note.hidden = true;
        show();
        return;
      }
    } catch (e) { /* still gone */ }
    setTimeout(retry, 2000);
  };
  setTimeout(retry, 2000);
}

// Runs a search as a stream of Server-Sent Events, read with fetch so that a refusal's status
// is seen: 503 (every search thread busy) is retried after the server's Retry-After, other
// errors are shown, and silence or a broken connection is taken for a server gone.
function stream(extra, handlers) {
  stopStream();
  const controller = new AbortController();
  app.stream = controller;
  const url = `/api/analysis?${query(Object.assign({ page: PAGE }, extra))}`;
  let silence = null;
  const quiet = () => {
    clearTimeout(silence);
    silence = setTimeout(() => { if (app.stream === controller) lostServer(); }, SILENCE_MS);
  };
  const done = () => { clearTimeout(silence); if (app.stream === controller) app.stream = null; };
  const dispatch = (name, data) => {
    const value = JSON.parse(data);
    if (name === "info") handlers.info && handlers.info(value);
    else if (name === "note") $("tables-note").textContent = value.text;
    else if (name === "tick") handlers.tick && handlers.tick(value);
    else if (name === "bestmove") { done(); handlers.best && handlers.best(value); }
  };
  (async () => {
    quiet();
    let res;
    try {
      res = await fetch(url, { signal: controller.signal, cache: "no-store" });
    } catch (e) {
      if (!controller.signal.aborted) lostServer();
      return;
    }
    if (res.status === 503) {
      done();
      const wait = Number(res.headers.get("Retry-After")) || 1;
      $("engine-stats").textContent = `every search thread of the server is busy: retrying in ${wait} s`;
      setTimeout(() => { if (!controller.signal.aborted && !app.stream) stream(extra, handlers); }, wait * 1000);
      return;
    }
    if (!res.ok) {
      done();
      let message = res.statusText;
      try { message = (await res.json()).error; } catch (e) { /* not JSON */ }
      showError(new Error(message));
      return;
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        quiet();
        buffer += value;
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let name = "message";
          const data = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) name = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
          }
          if (data.length && app.stream === controller) dispatch(name, data.join("\n"));
        }
      }
      done();
    } catch (e) {
      if (!controller.signal.aborted && app.stream === controller) lostServer();
    }
  })();
}

function maybeEngineMove(id) {
  if (app.state && app.state.end) setEvalBarToEnd(app.state.end);
  else setEvalBar(null, "");
  if (!app.state || app.state.end || humanToMove() || app.ply !== app.moves.length) return;
  const level = $("level").value;
  stream({ level, movetime: $("movetime").value }, {
    best: (best) => {
      if (id !== app.request || !best.move) return;
      app.levelsPlayed.add(level);
      playMove(best.move);
    },
  });
}

function study(id) {
  app.lines = [];
  app.searchDone = false;
  $("lines").replaceChildren();
  $("engine-stats").textContent = "";
  loadProbe(id);
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

// The search's depth from its last line, and its speed, nodes and time: from the last tick
// (the search's count between two lines) when it is newer than the line.
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
  const done = app.searchDone ? " · done" : "";
  $("engine-stats").textContent = top
    ? `depth ${top.depth}/${top.seldepth}${speed} · ${clock}${done}`
    : `searching${speed} · ${clock}${done}`;
}

function drawLines() {
  const side = sideIndex();
  const list = $("lines");
  list.replaceChildren();
  app.lines.forEach((line, i) => {
    if (!line) return;
    const li = document.createElement("li");
    li.dataset.multipv = String(i + 1);
    const s = document.createElement("span");
    s.className = "score";
    s.textContent = scoreText(line.score, side);
    const pv = document.createElement("span");
    pv.className = "pv";
    pv.textContent = line.pv.join(" ");
    li.append(s, pv);
    list.appendChild(li);
  });
  const top = app.lines[0];
  if (top) {
    drawStats(top.time);
    if (!(app.probe && app.probe.value && app.probe.value.result)) {
      setEvalBar(firstShare(top, side), scoreText(top.score, side));
    }
    if (!app.probe || !app.probe.moves.every((m) => m.value)) {
      app.bestMove = top.pv[0];
      draw();
    }
  }
}

async function loadProbe(id) {
  let probe;
  try { probe = await api("probe"); } catch (e) { showError(e); return; }
  if (id !== app.request) return;
  app.probe = probe;
  const side = sideIndex();
  const v = probe.value;
  const tag = $("position-value");
  tag.textContent = v ? `${probe.to_move}: ${v.text}` : "";
  tag.className = `value-tag ${valueClass(v)}`;
  $("tables-note").textContent = probe.tables || "";
  const body = $("values").querySelector("tbody");
  body.replaceChildren();
  for (const m of probe.moves) {
    const tr = document.createElement("tr");
    tr.className = "move";
    tr.dataset.move = m.move;
    const a = document.createElement("td");
    a.className = "mv";
    a.textContent = m.move;
    const b = document.createElement("td");
    b.className = valueClass(m.value);
    b.textContent = m.value ? m.value.text : "–";
    tr.append(a, b);
    tr.addEventListener("click", () => playMove(m.move));
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
  if (!v && !probe.moves.some((m) => m.value) && !probe.tables) {
    $("tables-note").textContent = "This position is not in the tables: the engine's lines above are a search.";
  }
}

// ---------------------------------------------------------------- records

// The server reads at most 1 MiB of a record (docs/web.md).
const MAX_RECORD_BYTES = 1 << 20;

async function importRecord() {
  const textValue = $("record-text").value;
  if (new Blob([textValue]).size > MAX_RECORD_BYTES) {
    showError(new Error("the record is over 1 MiB: import fewer games at a time"));
    return;
  }
  const guess = /\[Variant\s+"dobutsu"\]/i.test(textValue) ? "dobutsu"
    : /\[Variant\s+"(Oware )?awari"\]/i.test(textValue) ? "awari"
    : /\[Variant\s+"(Oware )?abapa"\]/i.test(textValue) ? "abapa" : app.variant;
  try {
    const res = await fetch(`/api/import?variant=${guess}`, { method: "POST", body: textValue });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error);
    const rec = body.records[0];
    app.variant = rec.variant;
    $("variant").value = rec.variant;
    fillSides();
    app.start = rec.position;
    app.moves = rec.moves;
    app.ply = 0;
    app.costs = [];
    await startSide();
    setMode("study");
    showError(null);
    reviewGame();
  } catch (e) { showError(e); }
}

async function reviewGame() {
  const q = new URLSearchParams({ variant: app.variant, moves: app.moves.join(" ") });
  if (app.start) q.set("position", app.start);
  try {
    const res = await fetch(`/api/review?${q}`);
    const body = await res.json();
    if (!res.ok) throw new Error(body.error);
    app.costs = body.moves.map((m) => m.cost);
    drawMoveList();
  } catch (e) { showError(e); }
}

// The game's record as the server writes it (OGN or PGN), the whole game whatever position is
// shown; in play the engine is named by the levels it played at.
async function recordText() {
  const players = app.state.players;
  const levels = app.levelsPlayed.size ? [...app.levelsPlayed].sort().join("/") : $("level").value;
  const names = app.mode === "play"
    ? players.map((_, i) => (i === app.human ? "You" : `perfectplay level ${levels}`))
    : ["?", "?"];
  const q = new URLSearchParams({ variant: app.variant, moves: app.moves.join(" "), first: names[0], second: names[1] });
  if (app.start) q.set("position", app.start);
  const res = await fetch(`/api/record?${q}`);
  const body = await res.text();
  if (!res.ok) throw new Error(JSON.parse(body).error);
  return body;
}

async function exportRecord() {
  try { $("record-text").value = await recordText(); } catch (e) { showError(e); }
}

// Download writes the record of the game as it is now, whether or not it was exported first.
async function downloadRecord() {
  try {
    const body = await recordText();
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([body], { type: "text/plain" }));
    link.download = app.state.game === "oware" ? "game.ogn" : "game.pgn";
    $("download").dataset.href = link.href;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } catch (e) { showError(e); }
}

async function setUp() {
  const textValue = $("setup-text").value.trim();
  const q = new URLSearchParams({ variant: app.variant, position: textValue });
  const res = await fetch(`/api/state?${q}`);
  const body = await res.json();
  if (!res.ok) { showError(body.error); return; }
  newGame(textValue);
}

// ---------------------------------------------------------------- controls

function fillSides() {
  const names = app.variant === "dobutsu" ? ["Sente", "Gote"] : ["South", "North"];
  const side = $("side");
  side.replaceChildren(...names.map((n, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = `${n} (${i === 0 ? "moves first" : "moves second"})`;
    return o;
  }));
  side.value = String(app.human);
  $("move-input").placeholder = app.variant === "dobutsu" ? "Type a move (b2b3, C@a3, a3a4+)" : "Type a move (A-F or a-f)";
}

function setMode(mode) {
  app.mode = mode;
  $("mode-play").setAttribute("aria-selected", String(mode === "play"));
  $("mode-study").setAttribute("aria-selected", String(mode === "study"));
  $("play-panel").hidden = mode !== "play";
  $("study-panel").hidden = mode !== "study";
  $("values-panel").hidden = mode !== "study";
  show();
}

function init() {
  $("variant").addEventListener("change", (e) => {
    app.variant = e.target.value;
    fillSides();
    newGame(null);
  });
  $("mode-play").addEventListener("click", () => setMode("play"));
  $("mode-study").addEventListener("click", () => setMode("study"));
  $("side").addEventListener("change", (e) => { app.human = Number(e.target.value); app.flipped = app.human === 1; show(); });
  $("level").addEventListener("change", () => show());
  $("engine-on").addEventListener("change", () => show());
  $("multipv").addEventListener("change", () => show());
  $("analysis-limit").addEventListener("change", () => show());
  // A hidden page searches nothing: its search stops, and starts again when it is shown.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      if (app.stream) { app.paused = true; stopStream(); }
    } else if (app.paused) {
      app.paused = false;
      show();
    }
  });
  $("nav-first").addEventListener("click", () => goTo(0));
  $("nav-back").addEventListener("click", () => goTo(app.ply - 1));
  $("nav-forward").addEventListener("click", () => { app.animate = animationOf(app.moves[app.ply]); goTo(app.ply + 1); });
  $("nav-last").addEventListener("click", () => goTo(app.moves.length));
  $("takeback").addEventListener("click", takeback);
  $("new-game").addEventListener("click", () => newGame(app.start));
  $("flip").addEventListener("click", () => { app.flipped = !app.flipped; draw(); });
  $("import").addEventListener("click", importRecord);
  $("export").addEventListener("click", exportRecord);
  $("download").addEventListener("click", downloadRecord);
  $("setup").addEventListener("click", setUp);
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const mv = $("move-input").value.trim();
    if (!mv) return;
    const legal = legalMoves();
    const found = legal.find((m) => m === mv) || legal.find((m) => m.toLowerCase() === mv.toLowerCase() && app.state.game === "dobutsu");
    if (!found) { showError(`${mv} is not legal here (legal: ${legal.join(" ") || "none"})`); return; }
    if (!humanToMove()) { showError("it is the engine's move"); return; }
    $("move-input").value = "";
    playMove(found);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
    // The keys step through the game; the page itself does not scroll with them.
    if (e.key === "ArrowLeft") goTo(app.ply - 1);
    else if (e.key === "ArrowRight" && app.ply < app.moves.length) { app.animate = animationOf(app.moves[app.ply]); goTo(app.ply + 1); }
    else if (e.key === "Home") goTo(0);
    else if (e.key === "End") goTo(app.moves.length);
    else if (e.key === "f") { app.flipped = !app.flipped; draw(); }
    else return;
    e.preventDefault();
  });
  $("theme").addEventListener("click", () => {
    const root = document.documentElement;
    const dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    root.dataset.theme = dark ? "light" : "dark";
    try { localStorage.setItem("perfectplay-theme", root.dataset.theme); } catch (e) { /* private mode */ }
  });
  // The page's address may name the game and mode: /?variant=dobutsu&mode=study.
  // A promotion's `+` typed raw in an address reads as a blank: a Dobutsu move followed by `+`
  // and then a separator or the end is taken as the promotion.
  const search = location.search.replace(/([a-c][1-4][a-c][1-4])\+(?=\+|&|$)/g, "$1%2B");
  const params = new URLSearchParams(search);
  const wanted = params.get("variant");
  if (wanted) {
    // Only a variant the page offers; another is said, and the default is shown.
    if ([...$("variant").options].some((o) => o.value === wanted)) { app.variant = wanted; $("variant").value = wanted; }
    else showError(new Error(`'${wanted}' is not a variant: showing ${app.variant}`));
  }
  let savedTheme = null;
  try { savedTheme = localStorage.getItem("perfectplay-theme"); } catch (e) { /* private mode */ }
  const theme = params.get("theme") || savedTheme;
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  fillSides();
  app.startSide = 0;
  if (params.get("position")) app.start = params.get("position");
  if (params.get("moves")) { app.moves = params.get("moves").split(/\s+/).filter(Boolean); app.ply = app.moves.length; }
  startSide()
    .then(keepLegalPrefix)
    .then(() => setMode(params.get("mode") === "study" ? "study" : "play"));
}

init();
