//! Game-independent search, written against [`crate::game::Game`]: iterative deepening on a node
//! budget; principal variation search (fail-soft alpha-beta, null windows after the first move)
//! with an aspiration window at the root and late move reductions; a transposition table sized
//! in megabytes (`tt`);
//! moves ordered by the previous iteration's line, the table's move, then the static evaluation
//! of the position each leads to; leaves extended by capture sequences (quiescence).
//!
//! Each feature was kept because it measured better: fewer nodes to a fixed depth on
//! `perfectplay bench` and, for the whole, a match at equal nodes against the first search
//! (docs/search.md has the measurements and their commands). Killer moves and a history table
//! were tried and cost nodes in Oware, and lost a few Elo in Dobutsu. Each game chooses how far
//! the tree is pruned beyond alpha-beta ([`crate::game::Pruning`]): Dobutsu Shogi uses reverse
//! futility and late move pruning, Oware neither.
//!
//! The rooms: [`Searcher`] (`searcher.rs`) is what an engine keeps between searches; a search
//! runs on one `SearchThread` per thread (`thread.rs`: its state, and `Node`, what each node is
//! asked); `root.rs` is the iterative deepening at the root, `negamax.rs` the node search.
//!
//! Determinism: with a node or depth limit (no `movetime`, no game clock, no `infinite`, no
//! `ponder`, no `stop`), the same root, history, options and limits give the same move, score,
//! depth and node count on every run and every machine; the clock is only read to honour
//! `movetime` and the game clock, and to report time. Such a search starts with a logically empty
//! table (entries of earlier searches are ignored), so this holds for it whatever was searched
//! before it, for a given `Hash` size. The searches that depend on time anyway
//! ([`Limits::depends_on_time`], and pondering) keep what earlier searches stored since the last
//! reproducible one (or `ucinewgame`): a search on the opponent's time, and the previous moves'
//! searches, then help the next one.
//!
//! Time management under a game clock ([`TimeBudget`]): the side to move's clock gives a soft
//! limit, after which no new iteration starts (longer while the best move changes or the score
//! drops), and a hard limit, checked inside the search, which is never above the clock.

mod bands;
mod limits;
mod negamax;
mod root;
mod searcher;
#[cfg(test)]
mod tests;
mod thread;
mod tt;

pub use limits::{Clock, Control, Level, Limits, TimeBudget, MOVES_LEFT_GUESS};
pub use searcher::Searcher;
pub use thread::MAX_DEPTH;
pub use tt::{HashReport, DEFAULT_HASH_MB, MAX_HASH_MB};

/// What the search probes of a game's tables, kept with them in `game`.
pub use crate::game::Oracle;

use std::fmt;
use std::time::Duration;

use crate::game::{CycleRule, Game};

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A heuristic (or proven drawn, 0) value in centi-seeds: 100 is one seed of expected margin.
    Cp(i32),
    /// A proven result: the game ends in this many moves (a move is two plies, rounded up, as UCI
    /// counts mate distances); positive when the side to move wins, negative when it loses.
    Mate(i32),
}

impl fmt::Display for Score {
    /// `cp S` or `mate N`, as in UCI `info` lines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// What a search starts from: the root position, the keys ([`Game::key`]) of the positions since
/// the last irreversible move (oldest first, ending with the root's own key), so the cycle rule is
/// applied inside the tree, the game's ply (used with the `Seed` to break ties), and the root
/// moves to search (`go searchmoves`).
#[derive(Clone, Debug)]
pub struct Root<G: Game> {
    /// The position to search.
    pub position: G,
    /// Keys since the last irreversible move, the root's last. May be empty (no history known).
    pub history: Vec<u64>,
    /// Plies played in the game so far (for tie-breaking and level choices).
    pub game_ply: u32,
    /// The root moves to search (UCI's `go searchmoves`): legal moves of the root; empty for all.
    /// A single move given is searched (for its score), where a single legal move is played at
    /// once.
    pub searchmoves: Vec<G::Move>,
}

impl<G: Game> Root<G> {
    /// A root without history.
    pub fn new(position: G) -> Root<G> {
        let history = vec![position.key()];
        Root {
            position,
            history,
            game_ply: 0,
            searchmoves: Vec::new(),
        }
    }
}

/// The settings a search reads at run time.
#[derive(Clone, Debug)]
pub struct SearchConfig<W> {
    /// Evaluation weights.
    pub weights: W,
    /// The cycle rule applied inside the tree.
    pub cycle: CycleRule,
    /// Strength level: caps depth and nodes, and at levels 1-2 sometimes picks a weaker move.
    pub level: Level,
    /// Hash of the `Seed` option: the source of every tie-break and level choice.
    pub seed: u64,
    /// `MultiPV`: how many lines (distinct root moves) each iteration scores exactly and
    /// reports, best first; 1 for the best alone. More than the root has means all of them.
    pub lines: usize,
}

impl<W> SearchConfig<W> {
    /// A full-strength search of one line with `weights` under `cycle` and seed 0: what the
    /// bench and the tests that compare the search with minimax search with.
    pub fn plain(weights: W, cycle: CycleRule) -> Self {
        SearchConfig {
            weights,
            cycle,
            level: Level::default(),
            seed: 0,
            lines: 1,
        }
    }
}

/// A report after each completed iteration of iterative deepening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration<M> {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached by the search so far.
    pub seldepth: u32,
    /// Nodes (positions visited) since the search started.
    pub nodes: u64,
    /// Score of the best move.
    pub score: Score,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// Transposition table fill, per mille, when there is one.
    pub hashfull: Option<u32>,
    /// Positions valued by the [`Oracle`] since the search started (0 without one).
    pub tbhits: u64,
    /// The line's rank among the iteration's lines (`MultiPV`), from 1: one report per line and
    /// iteration, best first.
    pub multipv: u32,
    /// Whether `score` is a table's exact value ([`Oracle`]: the root answered from it), so
    /// that a draw there is a proven one; a `Score::Mate` is always proven.
    pub exact: bool,
}

/// Receives progress from a running search (the protocol prints it, the bench ignores it).
pub trait SearchHandler<M> {
    /// Called after each completed iteration.
    fn iteration(&mut self, info: &Iteration<M>);
}

/// A handler that ignores everything.
pub struct Silent;

impl<M> SearchHandler<M> for Silent {
    fn iteration(&mut self, _info: &Iteration<M>) {}
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` when the root has no legal move.
    pub best_move: Option<M>,
    /// Score of the last completed iteration (`Cp(0)` when none).
    pub score: Score,
    /// Depth of the last completed iteration (0 when the move was forced or there was none).
    pub depth: u32,
    /// Nodes searched in total.
    pub nodes: u64,
    /// Principal variation of the last completed iteration.
    pub pv: Vec<M>,
}

/// Hashes the `Seed` option's text (FNV-1a, 64 bit) into [`SearchConfig::seed`].
pub fn seed_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
