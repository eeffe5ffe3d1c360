// @ts-check
// Records in and out: a game exported as OGN or PGN (the match runner's formats) and
// downloaded, records pasted and imported (then reviewed against the tables), and a position
// set up from a diagram or FEN.

import { app } from "./state.js";
import { $, showError } from "./dom.js";
import { gameParams, request, requestPosted } from "./api.js";
import { fillSides, keptGame, mayDiscard, newGame, setGame, setMode, startSide, verdictWords } from "./game.js";
import { evaluateLine } from "./graph.js";
import { hasSideLines, lineThrough, treeText } from "./tree.js";

/** @typedef {import("./types.js").ImportReply} ImportReply */

/** The server reads at most 1 MiB of a record (docs/web.md). */
const MAX_RECORD_BYTES = 1 << 20;

/** Imports the first record of the record box: shown from its start in study, reviewed. */
export async function importRecord() {
  const textValue = $("record-text").value;
  if (new Blob([textValue]).size > MAX_RECORD_BYTES) {
    showError(new Error("the record is over 1 MiB: import fewer games at a time"));
    return;
  }
  const guess = /\[Variant\s+"dobutsu"\]/i.test(textValue) ? "dobutsu"
    : /\[Variant\s+"(Oware )?awari"\]/i.test(textValue) ? "awari"
    : /\[Variant\s+"(Oware )?abapa"\]/i.test(textValue) ? "abapa" : app.variant;
  if (!mayDiscard()) return;
  try {
    /** @type {ImportReply} */
    const body = await request("import", { variant: guess }, { method: "POST", body: textValue });
    const rec = body.records[0];
    app.variant = rec.variant;
    $("variant").value = rec.variant;
    fillSides();
    app.start = rec.position;
    setGame(rec.moves, 0, rec.variations);
    await startSide();
    setMode("study");
    app.kept = keptGame();
    showError(null);
    // Reviewed at once: the graph, and each move that gave something away marked.
    evaluateLine();
  } catch (e) { showError(e); }
}

/** The game's record as the server writes it (OGN or PGN): the main line with every side line
 * in parentheses, whatever position is shown; in play the engine is named by the levels it
 * played at.
 * @returns {Promise<string>} */
async function recordText() {
  if (!app.state) throw new Error("no game yet");
  const players = app.state.players;
  const levels = app.levelsPlayed.size ? [...app.levelsPlayed].sort().join("/") : $("level").value;
  const names = app.mode === "play"
    ? players.map((_, i) => (i === app.human ? "You" : `perfectplay level ${levels}`))
    : ["?", "?"];
  const ended = verdictWords();
  const main = lineThrough(app.root).map((n) => n.move);
  // Posted: the tree of a long study is longer than an address may be.
  return requestPosted("record", Object.assign(gameParams(main), { first: names[0], second: names[1] },
    hasSideLines(app.root) ? { tree: treeText(app.root) } : {},
    ended ? { winner: ended.winner, how: ended.how } : {}));
}

/** Writes the record into the record box. */
export async function exportRecord() {
  try {
    $("record-text").value = await recordText();
    app.kept = keptGame();
  } catch (e) { showError(e); }
}

/** Download writes the record of the game as it is now, whether or not it was exported first. */
export async function downloadRecord() {
  try {
    const body = await recordText();
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([body], { type: "text/plain" }));
    link.download = app.state && app.state.game === "oware" ? "game.ogn" : "game.pgn";
    $("download").dataset.href = link.href;
    document.body.appendChild(link);
    link.click();
    link.remove();
    app.kept = keptGame();
  } catch (e) { showError(e); }
}

/** A new game from the position of the set-up box, if the server reads it. */
export async function setUp() {
  const textValue = $("setup-text").value.trim();
  try {
    await request("state", { variant: app.variant, position: textValue });
  } catch (e) { showError(e); return; }
  if (mayDiscard()) newGame(textValue);
}
