//! The search benchmark behind `perfectplay bench`: a fixed set of positions from self-play games
//! of each game, each searched to a fixed depth with a fresh transposition table.
//!
//! The positions come from self-play games of perfectplay (Oware: `data/selfplay-games.txt`;
//! Dobutsu Shogi: `data/dobutsu-selfplay-games.txt`; both written by
//! `examples/selfplay_games.rs`, see `data/README.md`): every [`SAMPLE_EVERY`] plies of each game
//! while it goes on, searched with the game's history so the cycle rule applies as in play. The
//! total node count is the search's signature: it changes exactly when the search's behaviour
//! changes.

use std::time::{Duration, Instant};

use crate::game::{GameState, Notation};
use crate::oware::Board;
use crate::search::{Control, HashReport, Limits, Root, SearchConfig, Searcher, Silent};
use crate::variant::{Variant, VariantGame, VisitGame};

/// The Oware games the positions come from (one per line: the start diagram, `moves`, the moves
/// run together): `data/selfplay-games.txt`.
pub const BENCH_GAMES: &str = include_str!("../data/selfplay-games.txt");
/// The Dobutsu Shogi games (one per line: the start FEN, `moves`, the moves separated by spaces):
/// `data/dobutsu-selfplay-games.txt`.
pub const DOBUTSU_BENCH_GAMES: &str = include_str!("../data/dobutsu-selfplay-games.txt");
/// The depth each Oware position is searched to when none is given.
pub const DEFAULT_BENCH_DEPTH: u32 = 14;
/// The depth each Dobutsu position is searched to when none is given.
pub const DEFAULT_DOBUTSU_BENCH_DEPTH: u32 = 9;
/// A position is taken every this many plies of each game line (plies 10, 20, ...).
pub const SAMPLE_EVERY: usize = 10;

/// The bench games and default depth of a variant (both Oware variants use the Oware games).
pub fn bench_games(variant: Variant) -> (&'static str, u32) {
    match variant {
        Variant::Dobutsu => (DOBUTSU_BENCH_GAMES, DEFAULT_DOBUTSU_BENCH_DEPTH),
        Variant::Abapa | Variant::Awari => (BENCH_GAMES, DEFAULT_BENCH_DEPTH),
    }
}

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

/// The positions of game lines `games` (`POSITION moves M M ...`, the position in the game's
/// notation, possibly of several words) under `rules`: roots with their game history, in a fixed
/// order. Lines that do not read are skipped.
pub fn positions_of<G: Notation>(games: &str, rules: &G::Rules) -> Vec<Root<G>> {
    let mut roots = Vec::new();
    for line in games.lines().filter(|l| !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().position(|&w| w == "moves") else {
            continue;
        };
        let Ok(start) = G::parse_position(&words[..at].join(" "), rules) else {
            continue;
        };
        let Ok(moves) = start.parse_moves(&words[at + 1..]) else {
            continue;
        };
        let mut game = GameState::new(start, rules.clone());
        for mv in moves {
            if game.play(mv).is_err() || game.is_over() {
                break;
            }
            if game.ply().is_multiple_of(SAMPLE_EVERY) {
                roots.push(Root::from(&game));
            }
        }
    }
    roots
}

/// The Oware bench positions (Abapa, default rules).
pub fn bench_positions() -> Vec<Root<Board>> {
    positions_of(BENCH_GAMES, &Default::default())
}

/// Searches `root` to `depth` plies at full strength with default options (its table starts
/// empty for this search, as every search's does) and returns the nodes searched.
pub fn search_to_depth<G: Notation>(
    searcher: &mut Searcher<G>,
    root: &Root<G>,
    rules: &G::Rules,
    depth: u32,
) -> u64 {
    let config = SearchConfig::plain(Default::default(), G::cycle_rule(rules));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher
        .search(root, &limits, &config, &Control::default(), &mut Silent)
        .nodes
}

/// Searches every Oware bench position to `depth` (default [`DEFAULT_BENCH_DEPTH`]); see
/// [`run_bench_variant`].
pub fn run_bench(depth: Option<u32>, hash_mb: usize) -> BenchReport {
    run_bench_variant(Variant::Abapa, depth, hash_mb, 1)
}

/// Searches every bench position of `variant` to `depth` (default: the game's, see
/// [`bench_games`]) at full strength with default options, a table of `hash_mb` MB (each search
/// starts it logically empty) and `threads` threads (`Threads`; with 1 the node total is the
/// search's signature, with more it varies from run to run and counts every thread's nodes),
/// and reports the nodes and time.
pub fn run_bench_variant(
    variant: Variant,
    depth: Option<u32>,
    hash_mb: usize,
    threads: usize,
) -> BenchReport {
    let (games, default_depth) = bench_games(variant);
    variant.visit(Bench {
        games,
        depth: depth.unwrap_or(default_depth),
        hash_mb,
        threads,
    })
}

/// [`run_bench_variant`] on the variant's game.
struct Bench {
    games: &'static str,
    depth: u32,
    hash_mb: usize,
    threads: usize,
}

impl VisitGame for Bench {
    type Output = BenchReport;
    fn visit<G: VariantGame>(self, rules: G::Rules) -> BenchReport {
        let roots = positions_of::<G>(self.games, &rules);
        let mut searcher = Searcher::<G>::with_hash_mb(self.hash_mb);
        searcher.set_threads(self.threads);
        let hash = searcher.hash_report().clone();
        let started = Instant::now();
        let nodes = roots
            .iter()
            .map(|root| search_to_depth(&mut searcher, root, &rules, self.depth))
            .sum();
        BenchReport {
            positions: roots.len(),
            depth: self.depth,
            nodes,
            elapsed: started.elapsed(),
            hash,
        }
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
        let dobutsu =
            positions_of::<crate::dobutsu::Position>(DOBUTSU_BENCH_GAMES, &Default::default());
        assert!(
            dobutsu.len() >= 30,
            "only {} Dobutsu bench positions",
            dobutsu.len()
        );
        // Games that go on (a position where the mover can take the Lion is one of them).
        assert!(dobutsu
            .iter()
            .all(|r| crate::game::Game::outcome(&r.position).is_none()));
    }

    #[test]
    fn shallow_bench_is_reproducible() {
        let a = run_bench(Some(4), 1);
        let b = run_bench(Some(4), 1);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.positions, bench_positions().len());
    }
}
