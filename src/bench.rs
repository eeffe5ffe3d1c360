//! The search benchmark behind `perfectplay bench`: a fixed set of positions from real games,
//! each searched to a fixed depth with a fresh transposition table.
//!
//! The positions come from eight self-play games of perfectplay (`data/selfplay-games.txt`,
//! written by `examples/selfplay_games.rs`, see `data/README.md`): every [`SAMPLE_EVERY`] plies of
//! each game while it goes on, searched with the game's history so the cycle rule applies as in
//! play. The total
//! node count is the search's signature: it changes exactly when the search's behaviour changes.

use std::time::{Duration, Instant};

use crate::oware::{parse_moves, Board, GameState, Rules};
use crate::search::{Control, HashReport, Level, Limits, Root, SearchConfig, Searcher, Silent};

/// The game lines the positions come from (one per line: diagram, `moves`, the moves run
/// together): the self-play games of `data/selfplay-games.txt`.
pub const BENCH_GAMES: &str = include_str!("../data/selfplay-games.txt");
/// The depth each position is searched to when none is given.
pub const DEFAULT_BENCH_DEPTH: u32 = 14;
/// A position is taken every this many plies of each game line (plies 10, 20, ...).
pub const SAMPLE_EVERY: usize = 10;

/// The result of [`run_bench`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Positions searched.
    pub positions: usize,
    /// Depth each was searched to.
    pub depth: u32,
    /// Nodes searched in total: the search's signature.
    pub nodes: u64,
    /// Time the searches took together (not counting making the table).
    pub elapsed: Duration,
    /// How the table was made (its size, whether it was shrunk for lack of memory).
    pub hash: HashReport,
}

impl BenchReport {
    /// Nodes per second over the whole bench.
    pub fn nps(&self) -> u64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }
}

/// The bench positions: roots with their game history, in a fixed order.
pub fn bench_positions() -> Vec<Root<Board>> {
    let mut roots = Vec::new();
    for line in BENCH_GAMES.lines().filter(|l| !l.trim().is_empty()) {
        let mut words = line.split_whitespace();
        let (Some(diagram), Some("moves")) = (words.next(), words.next()) else {
            continue;
        };
        let (Ok(start), Ok(moves)) = (diagram.parse::<Board>(), parse_moves(words)) else {
            continue;
        };
        let mut game = GameState::new(start, Rules::default());
        for mv in moves {
            if game.play(mv).is_err() || game.is_over() {
                break;
            }
            if game.ply().is_multiple_of(SAMPLE_EVERY) {
                roots.push(Root {
                    position: game.board(),
                    history: game.keys_since_capture().to_vec(),
                    game_ply: game.ply() as u32,
                });
            }
        }
    }
    roots
}

/// Searches `root` to `depth` plies at full strength with default options (its table starts
/// empty for this search, as every search's does) and returns the nodes searched.
pub fn search_to_depth(searcher: &mut Searcher<Board>, root: &Root<Board>, depth: u32) -> u64 {
    let config = SearchConfig {
        weights: Default::default(),
        cycle: Default::default(),
        level: Level::default(),
        seed: 0,
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher
        .search(root, &limits, &config, &Control::default(), &mut Silent)
        .nodes
}

/// Searches every bench position to `depth` (default [`DEFAULT_BENCH_DEPTH`]) at full strength
/// with default options and a fresh table of `hash_mb` MB each, and reports the nodes and time.
pub fn run_bench(depth: Option<u32>, hash_mb: usize) -> BenchReport {
    let depth = depth.unwrap_or(DEFAULT_BENCH_DEPTH);
    let roots = bench_positions();
    let mut searcher = Searcher::<Board>::with_hash_mb(hash_mb);
    let hash = searcher.hash_report().clone();
    let started = Instant::now();
    let nodes = roots
        .iter()
        .map(|root| search_to_depth(&mut searcher, root, depth))
        .sum();
    BenchReport {
        positions: roots.len(),
        depth,
        nodes,
        elapsed: started.elapsed(),
        hash,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_taken_from_every_line() {
        let roots = bench_positions();
        assert!(roots.len() >= 40, "only {} bench positions", roots.len());
        assert!(roots.iter().all(|r| r.position.outcome().is_none()));
    }

    #[test]
    fn shallow_bench_is_reproducible() {
        let a = run_bench(Some(4), 1);
        let b = run_bench(Some(4), 1);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.positions, bench_positions().len());
    }
}
