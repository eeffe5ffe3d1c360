// @ts-check
// The perfectplay board: draws the game the server describes (/api/state), plays moves by
// click, tap or keyboard, asks the engine for its moves (play) or its lines and the tables'
// values (study), and imports and exports records. Everything it knows comes from the JSON API
// (docs/web.md); it fetches nothing from elsewhere. This module wires the controls; the state
// is in state.js, the requests in api.js, the types of the server's answers in types.js.

import { app, actions, legalMoves, humanToMove } from "./state.js";
import { find, restore } from "./tree.js";
import { $, showError } from "./dom.js";
import { stopStream } from "./api.js";
import { endPreview } from "./engine.js";
import { initGraph } from "./graph.js";
import { hint, offerDraw, resetPlay, resign } from "./play.js";
import { draw, initDrag } from "./board.js";
import {
  deleteFromHere, drawMoveList, fillSides, goTo, keepLegalPrefix, mayDiscard, newGame, playLine, playMove, promoteLine,
  savedGame,
  setGame, verdictOf, setMode, show, showLine, startSide, stepForward, takeback,
} from "./game.js";
import { downloadRecord, exportRecord, importRecord, setUp } from "./records.js";

actions.show = show;
actions.playMove = playMove;
actions.goTo = goTo;
actions.playLine = playLine;
actions.drawMoves = drawMoveList;

/** The theme's key in the browser's storage. */
const THEME_KEY = "perfectplay-theme";

function init() {
  $("variant").addEventListener("change", (/** @type {Event} */ e) => {
    const select = /** @type {HTMLSelectElement} */ (e.target);
    if (!mayDiscard()) { select.value = app.variant; return; }
    app.variant = select.value;
    fillSides();
    newGame(null);
  });
  $("mode-play").addEventListener("click", () => setMode("play"));
  $("mode-study").addEventListener("click", () => setMode("study"));
  $("side").addEventListener("change", (/** @type {Event} */ e) => {
    app.human = Number(/** @type {HTMLSelectElement} */ (e.target).value);
    app.flipped = app.human === 1;
    show();
  });
  for (const id of ["level", "engine-on", "multipv", "analysis-limit"]) $(id).addEventListener("change", () => show());
  // A choice made, the arrow keys step through the game again (not through the choices).
  for (const id of ["level", "multipv", "analysis-limit", "time-control", "side"]) {
    $(id).addEventListener("change", () => $(id).blur());
  }
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
  $("nav-forward").addEventListener("click", stepForward);
  $("nav-last").addEventListener("click", () => goTo(app.moves.length));
  $("takeback").addEventListener("click", takeback);
  $("resign").addEventListener("click", () => { if (confirm("Resign this game?")) resign(); });
  $("offer-draw").addEventListener("click", () => offerDraw().catch(showError));
  $("hint").addEventListener("click", () => hint().catch(showError));
  // A rematch: a new game from the same start, the sides swapped.
  $("rematch").addEventListener("click", () => {
    app.human = 1 - app.human;
    $("side").value = String(app.human);
    app.flipped = app.human === 1;
    newGame(app.start);
  });
  // A new time control starts the clocks again.
  $("time-control").addEventListener("change", () => { resetPlay(); show(); });
  // After a set-up, a new game from it or from the game's start position.
  $("new-game").addEventListener("click", () => { if (mayDiscard()) newGame(app.start); });
  $("new-game-start").addEventListener("click", () => { if (mayDiscard()) newGame(null); });
  // A look at an engine line ends when the pointer leaves the lines.
  $("lines").addEventListener("mouseleave", endPreview);
  initGraph();
  initDrag();
  $("promote").addEventListener("click", () => promoteLine(false));
  $("main-line").addEventListener("click", () => promoteLine(true));
  $("delete-line").addEventListener("click", deleteFromHere);
  $("flip").addEventListener("click", () => { app.flipped = !app.flipped; draw(); });
  $("import").addEventListener("click", importRecord);
  $("export").addEventListener("click", exportRecord);
  $("download").addEventListener("click", downloadRecord);
  $("setup").addEventListener("click", setUp);
  $("move-form").addEventListener("submit", (/** @type {Event} */ e) => {
    e.preventDefault();
    const mv = $("move-input").value.trim();
    if (!mv) return;
    const legal = legalMoves();
    const found = legal.find((m) => m === mv)
      || legal.find((m) => m.toLowerCase() === mv.toLowerCase() && app.state && app.state.game === "dobutsu");
    if (!found) { showError(`${mv} is not legal here (legal: ${legal.join(" ") || "none"})`); return; }
    if (!humanToMove()) { showError("it is the engine's move"); return; }
    $("move-input").value = "";
    playMove(found);
  });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
    // The keys step through the game; the page itself does not scroll with them.
    if (e.key === "ArrowLeft") goTo(app.ply - 1);
    else if (e.key === "ArrowRight") stepForward();
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
    try { localStorage.setItem(THEME_KEY, root.dataset.theme); } catch (e) { /* private mode */ }
  });
  // The page's address may name the game and mode: /?variant=dobutsu&mode=study.
  // A promotion's `+` typed raw in an address reads as a blank: a Dobutsu move followed by `+`
  // and then a separator or the end is taken as the promotion.
  const search = location.search.replace(/([a-c][1-4][a-c][1-4])\+(?=\+|&|$)/g, "$1%2B");
  const params = new URLSearchParams(search);
  const wanted = params.get("variant");
  if (wanted) {
    // Only a variant the page offers; another is said, and the default is shown.
    if ([...$("variant").options].some((/** @type {HTMLOptionElement} */ o) => o.value === wanted)) {
      app.variant = wanted;
      $("variant").value = wanted;
    } else showError(new Error(`'${wanted}' is not a variant: showing ${app.variant}`));
  }
  let savedTheme = null;
  try { savedTheme = localStorage.getItem(THEME_KEY); } catch (e) { /* private mode */ }
  const theme = params.get("theme") || savedTheme;
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  app.startSide = 0;
  const mode = params.get("mode");
  const ply = params.has("ply") ? Number(params.get("ply")) : undefined;
  const saved = savedGame();
  const tree = saved && restore(saved.tree);
  if (!params.has("moves") && !params.has("position") && saved && tree && (!wanted || wanted === saved.variant)) {
    // The game kept in the browser, every line of it, where it was left.
    app.variant = saved.variant;
    $("variant").value = saved.variant;
    app.start = saved.start;
    app.root = tree;
    showLine(saved.line, saved.ply);
    fillSides();
    app.verdict = saved.verdict ? verdictOf(saved.verdict.winner, saved.verdict.how) : null;
    startSide().then(() => setMode((mode || saved.mode) === "study" ? "study" : "play"));
    return;
  }
  fillSides();
  app.start = params.get("position");
  app.moves = (params.get("moves") || "").split(/\s+/).filter(Boolean);
  app.ply = app.moves.length;
  startSide()
    .then(keepLegalPrefix)
    .then(() => {
      // The address's line of the game kept in the browser: the game with its other lines.
      const same = saved && tree && saved.variant === app.variant && saved.start === app.start;
      if (same && tree && find(tree, app.moves)) {
        app.root = tree;
        showLine(app.moves, ply);
      } else {
        setGame(app.moves, ply);
      }
      app.verdict = verdictOf(params.get("winner"), params.get("how"));
      setMode(mode === "study" ? "study" : "play");
    });
}

init();
