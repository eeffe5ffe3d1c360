// @ts-check
// The game as a tree of moves, as lichess's analysis board keeps it: each position's first
// child continues the main line, the others are side lines. Trying a move in an earlier
// position adds a side line and never removes a move; a side line can be promoted (one step
// toward the main line, or all the way) or deleted.

/**
 * A position of the game: the move that led to it (none at the root), what that move cost
 * (the review's words), and the moves played from it, the main continuation first.
 * @typedef {object} MoveNode
 * @property {string} move
 * @property {string | null} cost
 * @property {Mark | null} mark  the review's mark of the move, if it gave something away
 * @property {MoveNode[]} children
 * @property {MoveNode | null} parent
 * @property {import("./graph.js").Evaluation} [evaluation]  the value of the position after the
 *   move, where the game was evaluated (graph.js)
 */

/**
 * A move's mark in the review, as lichess marks a game's: `blunder` (`??`), `mistake` (`?`) or
 * `inaccuracy` (`?!`); `exact` when the tables' values give it (a result thrown away, seeds of
 * margin lost: `seeds`), else a search's (the mover's share of the game dropped).
 * @typedef {{ kind: "blunder" | "mistake" | "inaccuracy", exact: boolean, seeds: number }} Mark
 */

/**
 * A new root, or a node of `move` under `parent`.
 * @param {string} move
 * @param {MoveNode | null} parent
 * @returns {MoveNode}
 */
export function node(move, parent) {
  return { move, cost: null, mark: null, children: [], parent };
}

/**
 * A tree whose main line is `moves`.
 * @param {string[]} moves
 * @returns {MoveNode}
 */
export function lineTree(moves) {
  const root = node("", null);
  let at = root;
  for (const mv of moves) at = child(at, mv);
  return root;
}

/** @typedef {import("./types.js").SideLine} SideLine */

/**
 * Adds the line `moves` from `from` to the tree (its moves where new, as later lines), with
 * its side lines `lines`, nested.
 * @param {MoveNode} from
 * @param {string[]} moves
 * @param {SideLine[]} lines
 */
export function addLine(from, moves, lines) {
  const before = [from];
  for (const mv of moves) before.push(child(before[before.length - 1], mv));
  for (const line of lines) {
    if (line.at < moves.length) addLine(before[line.at], line.moves, line.variations);
  }
}

/**
 * The moves after `at` as PGN move text without numbers: its first line, each other line in
 * parentheses after the move it is played instead of, nested (`b2b3 (c1c2 b3b2) b4b3`).
 * @param {MoveNode} at
 * @returns {string}
 */
export function treeText(at) {
  const words = [];
  for (let n = at; n.children.length; n = n.children[0]) {
    const [main, ...sides] = n.children;
    words.push(main.move);
    for (const side of sides) words.push(`(${[side.move, treeText(side)].filter(Boolean).join(" ")})`);
  }
  return words.join(" ");
}

/**
 * Whether the tree under `at` has a side line.
 * @param {MoveNode} at
 * @returns {boolean}
 */
export function hasSideLines(at) {
  for (let n = at; n.children.length; n = n.children[0]) if (n.children.length > 1) return true;
  return false;
}

/**
 * The child of `at` reached by `mv`, added as its last line if it is new.
 * @param {MoveNode} at
 * @param {string} mv
 * @returns {MoveNode}
 */
export function child(at, mv) {
  let next = at.children.find((c) => c.move === mv);
  if (!next) {
    next = node(mv, at);
    at.children.push(next);
  }
  return next;
}

/**
 * The nodes from the root's first move to `at`.
 * @param {MoveNode} at
 * @returns {MoveNode[]}
 */
export function pathTo(at) {
  const path = [];
  for (let n = at; n.parent; n = n.parent) path.push(n);
  return path.reverse();
}

/**
 * The moves from the root to `at`.
 * @param {MoveNode} at
 * @returns {string[]}
 */
export function movesTo(at) {
  return pathTo(at).map((n) => n.move);
}

/**
 * The nodes of the line through `at`: from the root to `at`, then on by first children.
 * @param {MoveNode} at
 * @returns {MoveNode[]}
 */
export function lineThrough(at) {
  const line = pathTo(at);
  for (let n = at; n.children.length; n = n.children[0]) line.push(n.children[0]);
  return line;
}

/**
 * The node `moves` lead to from `root`, or null when they leave the tree.
 * @param {MoveNode} root
 * @param {string[]} moves
 * @returns {MoveNode | null}
 */
export function find(root, moves) {
  let at = root;
  for (const mv of moves) {
    const next = at.children.find((c) => c.move === mv);
    if (!next) return null;
    at = next;
  }
  return at;
}

/**
 * Whether `at` is on the main line (every node on its path is its parent's first child).
 * @param {MoveNode} at
 * @returns {boolean}
 */
export function onMainLine(at) {
  for (let n = at; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
  return true;
}

/**
 * Promotes the side line `at` is on: at the last fork above it where its branch is not the
 * first, the branch becomes the first (`all`: at every such fork, making it the main line).
 * Returns whether anything moved.
 * @param {MoveNode} at
 * @param {boolean} all
 * @returns {boolean}
 */
export function promote(at, all) {
  let moved = false;
  for (let n = at; n.parent; n = n.parent) {
    const siblings = n.parent.children;
    const i = siblings.indexOf(n);
    if (i > 0) {
      siblings.splice(i, 1);
      siblings.unshift(n);
      moved = true;
      if (!all) return true;
    }
  }
  return moved;
}

/**
 * Removes `at` and every move after it; returns its parent (or `at` itself for the root).
 * @param {MoveNode} at
 * @returns {MoveNode}
 */
export function remove(at) {
  const parent = at.parent;
  if (!parent) return at;
  parent.children.splice(parent.children.indexOf(at), 1);
  return parent;
}

/**
 * The tree as plain data for storage: `[move, cost, children, mark]` nested.
 * @typedef {[string, string | null, StoredNode[], Mark | null]} StoredNode
 */

/**
 * @param {MoveNode} at
 * @returns {StoredNode}
 */
export function store(at) {
  return [at.move, at.cost, at.children.map(store), at.mark];
}

/**
 * The tree of stored data, or null when it is not a stored tree.
 * @param {unknown} data
 * @param {MoveNode | null} [parent]
 * @returns {MoveNode | null}
 */
export function restore(data, parent = null) {
  if (!Array.isArray(data) || data.length < 3 || typeof data[0] !== "string" || !Array.isArray(data[2])) return null;
  const n = node(data[0], parent);
  n.cost = typeof data[1] === "string" ? data[1] : null;
  const m = data[3];
  if (m && ["blunder", "mistake", "inaccuracy"].includes(m.kind)) {
    n.mark = { kind: m.kind, exact: Boolean(m.exact), seeds: Number(m.seeds) || 0 };
  }
  for (const c of data[2]) {
    const restored = restore(c, n);
    if (!restored) return null;
    n.children.push(restored);
  }
  return n;
}
