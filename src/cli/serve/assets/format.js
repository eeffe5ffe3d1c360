// @ts-check
// Values and scores in the words and signs people read: a table's value, a search's score,
// the first player's share of the game for the evaluation bar.

/** @typedef {import("./types.js").ValueReply} ValueReply */
/** @typedef {import("./types.js").ScoreReply} ScoreReply */
/** @typedef {import("./types.js").LineReply} LineReply */

/**
 * The CSS class of a value: its result, or `unknown`.
 * @param {ValueReply | null} v
 * @returns {string}
 */
export function valueClass(v) {
  return v && v.result ? v.result : "unknown";
}

/**
 * A score of the side to move, as the first player sees it, in the units people read: seeds
 * (Oware) or pawns of a hundred (Dobutsu), or a result in moves.
 * @param {ScoreReply} score
 * @param {number} sideIndex  the index of the side to move
 * @returns {string}
 */
export function scoreText(score, sideIndex) {
  const sign = sideIndex === 0 ? 1 : -1;
  if ("mate" in score) {
    const n = score.mate * sign;
    return (n > 0 ? "+" : "-") + "#" + Math.abs(n);
  }
  const cp = score.cp * sign;
  return (cp >= 0 ? "+" : "") + (cp / 100).toFixed(2);
}

/**
 * The first player's expected share of the game from a line (its WDL, from the side to move).
 * @param {LineReply} line
 * @param {number} sideIndex
 * @returns {number}
 */
export function firstShare(line, sideIndex) {
  const [w, d, l] = line.wdl;
  const mover = (w + d / 2) / (w + d + l);
  return sideIndex === 0 ? mover : 1 - mover;
}

/**
 * The first player's share of a known result.
 * @param {ValueReply | null} v
 * @param {number} sideIndex
 * @returns {number | null}
 */
export function shareOfValue(v, sideIndex) {
  if (!v || !v.result) return null;
  const mover = { win: 1, draw: 0.5, loss: 0 }[v.result];
  return sideIndex === 0 ? mover : 1 - mover;
}

/**
 * A table's value as the evaluation bar labels it, from the first player's view: `=` for a
 * draw, `+#N` / `-#N` for a result in N moves, `+6` / `-6` for an exact Oware margin in seeds,
 * a range for bounds.
 * @param {ValueReply} v
 * @param {number} sideIndex
 * @returns {string}
 */
export function valueLabel(v, sideIndex) {
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
  if (v.low !== null && v.high !== null) {
    const [a, b] = sign > 0 ? [v.low, v.high] : [-v.high, -v.low];
    return `${a}..${b}`;
  }
  return v.text;
}

/**
 * A table's value in words that name the player it favours, so that they read the same
 * whoever is to move: `South wins by 6 seeds in 11 plies`, `Gote wins in 2 plies`, `draw`, or
 * the first player's bounds (`South: between -1 and +3 seeds`).
 * @param {ValueReply | null} v  from the side to move
 * @param {number} sideIndex  the index of the side to move
 * @param {string[]} players  the players' names, the first player's first
 * @returns {string}
 */
export function valueWords(v, sideIndex, players) {
  if (!v) return "–";
  const plies = v.plies !== null && v.plies !== undefined ? ` in ${v.plies} plies` : "";
  if (v.result === "win" || v.result === "loss") {
    const winner = players[v.result === "win" ? sideIndex : 1 - sideIndex];
    const by = v.score !== null && v.score !== undefined ? ` by ${Math.abs(v.score)} seeds` : "";
    return `${winner} wins${by}${plies}`;
  }
  if (v.result === "draw") return "draw";
  if (v.low !== null && v.high !== null && v.low !== undefined && v.high !== undefined) {
    const [a, b] = sideIndex === 0 ? [v.low, v.high] : [-v.high, -v.low];
    const signed = (/** @type {number} */ n) => (n > 0 ? `+${n}` : String(n));
    return `${players[0]}: between ${signed(a)} and ${signed(b)} seeds`;
  }
  return v.text;
}
