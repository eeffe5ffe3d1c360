// @ts-check
// The JSON the server sends, as JSDoc types: each mirrors a serde struct of
// src/cli/serve/reply.rs (same fields, same names), so that `// @ts-check` checks the page's
// reading of it. No code: the other modules import these types.

/**
 * `{"error": ...}`: the body of every 4xx and 5xx answer (ErrorReply).
 * @typedef {{ error: string }} ErrorReply
 */

/**
 * A variant of GET /api/info (VariantInfo).
 * @typedef {object} VariantInfo
 * @property {string} name
 * @property {"oware" | "dobutsu"} game
 * @property {[string, string]} players
 * @property {boolean} tables
 * @property {string | null} note
 * @property {string} level6  what level 6 plays by now, for its label
 */

/**
 * GET /api/info (InfoReply).
 * @typedef {object} InfoReply
 * @property {string} engine
 * @property {VariantInfo[]} variants
 * @property {number} searches
 * @property {number} queued
 * @property {number} search_threads
 */

/**
 * An Oware board (BoardReply::Oware): seeds by house name (`A`-`F`, `a`-`f`), stores by player.
 * @typedef {object} OwareBoard
 * @property {Record<string, number>} houses
 * @property {Record<string, number>} stores
 * @property {string} variant
 */

/**
 * A Dobutsu piece (PieceReply).
 * @typedef {{ kind: string, owner: string }} PieceReply
 */

/**
 * A Dobutsu board (BoardReply::Dobutsu): pieces by square (`a1`-`c4`), hands by player.
 * @typedef {object} DobutsuBoard
 * @property {Record<string, PieceReply>} squares
 * @property {Record<string, Record<string, number>>} hands
 */

/**
 * A legal move and the position after it (LegalMove).
 * @typedef {{ move: string, position: string }} LegalMove
 */

/**
 * How a game ended (EndReply): `counted` is the board after the final counting where the end
 * gives the seeds left to the stores (Oware), else null.
 * @typedef {{ result: string, winner: string | null, reason: string, counted: (OwareBoard & DobutsuBoard) | null }} EndReply
 */

/**
 * GET /api/state (StateReply).
 * @typedef {object} StateReply
 * @property {"oware" | "dobutsu"} game
 * @property {[string, string]} players
 * @property {string} start
 * @property {string[]} moves
 * @property {string} position
 * @property {string} to_move
 * @property {OwareBoard & DobutsuBoard} board  the one of the game (`game` says which)
 * @property {LegalMove[]} legal
 * @property {EndReply | null} end
 * @property {number} ply
 */

/**
 * A value the tables know, from the side to move (ValueReply).
 * @typedef {object} ValueReply
 * @property {"win" | "draw" | "loss" | null} result
 * @property {number | null} plies
 * @property {number | null} score
 * @property {number | null} low
 * @property {number | null} high
 * @property {string} text
 */

/**
 * A legal move with its value (MoveValue).
 * @typedef {{ move: string, position: string, value: ValueReply | null }} MoveValue
 */

/**
 * GET /api/probe (ProbeReply).
 * @typedef {object} ProbeReply
 * @property {string} position
 * @property {string} to_move
 * @property {ValueReply | null} value
 * @property {MoveValue[]} moves
 * @property {string | null} tables
 */

/**
 * A reviewed move (ReviewedMove).
 * @typedef {object} ReviewedMove
 * @property {string} move
 * @property {string} player
 * @property {ValueReply | null} before
 * @property {ValueReply | null} after
 * @property {string | null} cost
 * @property {number | null} seeds_lost  the seeds of margin lost (Oware, exact values)
 */

/**
 * GET /api/review (ReviewReply).
 * @typedef {{ moves: ReviewedMove[], tables: string | null }} ReviewReply
 */

/**
 * A record read by an import (ImportedGame).
 * @typedef {object} ImportedGame
 * @property {string} variant
 * @property {string | null} position
 * @property {string[]} moves
 * @property {SideLine[]} variations
 * @property {Record<string, string>} tags
 * @property {EndReply | null} end
 */

/**
 * A side line of an imported record (SideLine): the moves played instead of the move at index
 * `at` of the line it branches from, and its own side lines.
 * @typedef {{ at: number, moves: string[], variations: SideLine[] }} SideLine
 */

/**
 * POST /api/import (ImportReply).
 * @typedef {{ records: ImportedGame[] }} ImportReply
 */

/**
 * A search's score from the side to move (ScoreReply): `{"cp": 35}` or `{"mate": -4}`.
 * @typedef {{ cp: number } | { mate: number }} ScoreReply
 */

/**
 * An analysis line, the stream's `info` event (LineReply).
 * @typedef {object} LineReply
 * @property {number} depth
 * @property {number} seldepth
 * @property {number} multipv
 * @property {ScoreReply} score
 * @property {[number, number, number]} wdl  win, draw, loss per mille, from the side to move
 * @property {boolean} exact
 * @property {number} nodes
 * @property {number} nps
 * @property {number} time  ms
 * @property {number} tbhits
 * @property {string[]} pv
 */

/**
 * The stream's `tick` event (TickReply).
 * @typedef {{ time: number, nodes: number, nps: number, queued: boolean }} TickReply
 */

/**
 * The stream's `note` event (NoteReply).
 * @typedef {{ text: string }} NoteReply
 */

/**
 * GET /api/bestmove and the stream's last event (BestReply).
 * @typedef {object} BestReply
 * @property {string | null} move
 * @property {ScoreReply | null} score
 * @property {[number, number, number] | null} wdl  win, draw, loss per mille, from the side to move
 * @property {number} depth
 * @property {number} nodes
 * @property {string[]} pv
 */

export {};
