//! The tablebase as the search's [`Oracle`]: an exact score (the stores' difference plus the
//! margin the table secures, 100 per seed) for every position it values exactly, and the root's
//! move from [`Tablebase::best_move`], which makes progress where equal scores would not say how
//! (it follows the distance to the end where the table knows it, and the root then reports the
//! result and the distance, [`Oracle::distance`]).
//! Positions whose value is only bounded (`abapa`'s history cases) give the search their bounds
//! ([`Oracle::bounds`]).
//!
//! A table built in memory is built layer by layer as far as the positions probed need, or, once
//! [`Oracle::prepare`] is called, all of it on a thread of its own: each layer is built under
//! the table's write lock, so a probe that needs a layer not yet there waits for it (or builds it
//! itself), and every probe answers the same whatever the timing. A search that depends on the
//! clock anyway ([`Oracle::set_waiting`] `false`) never waits: a probe the table cannot answer
//! at once (its layer not built, or being built) answers nothing and starts the background
//! build, so that `stop` is obeyed at once.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, TryLockError, Weak};
use std::thread::JoinHandle;

use super::{auto, file, Tablebase};
use crate::game::Oracle;
use crate::game::{Outcome, TableSettings, Tables};
use crate::oware::{Board, Move, RuleSet};
use crate::retro::file::TableError;
use crate::retro::Silent;

/// The seeds of the table built in memory when no files are given (the `TablebaseSeeds`
/// default): it builds in about a second.
pub const DEFAULT_SEEDS: u32 = 12;
/// The most seeds a table built in memory may have (a few seconds to build).
pub const MAX_IN_MEMORY_SEEDS: u32 = 14;
/// Positions [`Tablebase::best_move`] may search for the root's move.
const ROOT_MOVE_BUDGET: u64 = 200_000;

/// Where the values come from.
enum Source {
    /// Loaded from layer files.
    Files(Tablebase),
    /// Built in memory as far as the positions probed need (up to the oracle's seeds), the
    /// first time they are probed, or all of it in the background once prepared. The build
    /// thread holds only a weak reference: it stops after the layer it is building once the
    /// oracle is dropped.
    Lazy(Arc<LazyTable>),
}

/// A table built in memory, and the right to build it.
struct LazyTable {
    /// The table: written only to add layers.
    table: RwLock<Tablebase>,
    /// Held by whoever builds (the background thread, a probe that waits, `wait_prepared`) from
    /// finding a layer missing to the end of its build. So the write lock is taken only to add
    /// a layer, never to find that another builder has added it meanwhile: a probe that does
    /// not wait (`try_read`) never finds the table locked for nothing.
    builder: Mutex<()>,
}

impl LazyTable {
    fn new(variant: RuleSet) -> LazyTable {
        LazyTable {
            table: RwLock::new(Tablebase::empty(variant)),
            builder: Mutex::new(()),
        }
    }

    /// The table, to read (a poisoned lock is taken over: a layer is added whole or not).
    fn read(&self) -> RwLockReadGuard<'_, Tablebase> {
        self.table.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Builds layers until the table holds `seeds` seeds, only the next one if `one` is set;
    /// returns whether it holds them (`true` with nothing built when it already did).
    fn build(&self, seeds: u32, one: bool) -> bool {
        let held = |tb: &Tablebase| tb.seeds().is_some_and(|s| s >= seeds);
        let _builder = self.builder.lock().unwrap_or_else(|e| e.into_inner());
        if held(&self.read()) {
            return true;
        }
        let mut tb = self.table.write().unwrap_or_else(|e| e.into_inner());
        if one {
            tb.build_next(&Silent);
        } else {
            tb.extend(seeds, &Silent);
        }
        held(&tb)
    }
}

/// An Oware tablebase for the search, used up to `seeds` seeds on the board.
pub struct TableOracle {
    variant: RuleSet,
    seeds: u32,
    source: Source,
    /// Whether the whole table was asked for ([`Oracle::prepare`]).
    prepared: AtomicBool,
    /// Whether a probe waits for the layer it needs ([`Oracle::set_waiting`]).
    waiting: AtomicBool,
}

impl TableOracle {
    /// A table of `seeds` seeds (at most [`MAX_IN_MEMORY_SEEDS`]) for `variant`, built the
    /// first time it is needed.
    pub fn in_memory(variant: RuleSet, seeds: u32) -> TableOracle {
        TableOracle {
            variant,
            seeds: seeds.min(MAX_IN_MEMORY_SEEDS),
            source: Source::Lazy(Arc::new(LazyTable::new(variant))),
            prepared: AtomicBool::new(false),
            waiting: AtomicBool::new(true),
        }
    }

    /// The loaded table `tb`, used up to `seeds` seeds (or all it holds).
    pub fn from_table(tb: Tablebase, seeds: Option<u32>) -> TableOracle {
        let held = tb.seeds().unwrap_or(0);
        TableOracle {
            variant: tb.variant(),
            seeds: seeds.map_or(held, |s| s.min(held)),
            source: Source::Files(tb),
            prepared: AtomicBool::new(false),
            waiting: AtomicBool::new(true),
        }
    }

    /// The most seeds on the board this oracle answers for.
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// The most seeds on the board the table holds now (`None` before its first layer): for a
    /// table built in memory, as far as it got.
    pub fn built_seeds(&self) -> Option<u32> {
        match &self.source {
            Source::Files(tb) => tb.seeds(),
            Source::Lazy(lazy) => lazy.read().seeds(),
        }
    }

    /// Starts building the whole in-memory table on a thread of its own, the first time it is
    /// called: the thread's handle, or `None` when there is nothing to build (a table of files,
    /// a second call) or no thread could be started (the probes then build what they need).
    pub fn start_build(&self) -> Option<JoinHandle<()>> {
        let Source::Lazy(lazy) = &self.source else {
            return None;
        };
        if self.prepared.swap(true, Ordering::SeqCst) {
            return None;
        }
        let table = Arc::downgrade(lazy);
        let seeds = self.seeds;
        let spawned = std::thread::Builder::new()
            .name(format!("{} tablebase", self.variant))
            .spawn(move || build_in_background(&table, seeds));
        match spawned {
            Ok(handle) => Some(handle),
            Err(e) => {
                log::warn!("no thread to build the tablebase in the background ({e}): it is built when first needed");
                None
            }
        }
    }

    /// `f` of the table, if `board` is within reach (the layers it needs built now if they have
    /// to be).
    fn with_table<T>(&self, board: &Board, f: impl FnOnce(&Tablebase) -> Option<T>) -> Option<T> {
        let n = board.seeds_on_board() as u32;
        if n > self.seeds || board.variant() != self.variant {
            return None;
        }
        match &self.source {
            Source::Files(tb) => f(tb),
            Source::Lazy(lazy) if !self.waiting.load(Ordering::Relaxed) => {
                let tb = match lazy.table.try_read() {
                    Ok(tb) => tb,
                    Err(TryLockError::Poisoned(e)) => e.into_inner(),
                    // A layer is being built.
                    Err(TryLockError::WouldBlock) => {
                        self.prepare();
                        return None;
                    }
                };
                if tb.seeds().is_some_and(|s| s >= n) {
                    return f(&tb);
                }
                drop(tb);
                self.prepare();
                None
            }
            Source::Lazy(lazy) => {
                {
                    let tb = lazy.read();
                    if tb.seeds().is_some_and(|s| s >= n) {
                        return f(&tb);
                    }
                }
                lazy.build(n, false);
                f(&lazy.read())
            }
        }
    }

    /// The exact final margin of `board` for its mover, stores included, in seeds.
    fn final_margin(&self, board: &Board) -> Option<i32> {
        let v = self.with_table(board, |tb| tb.probe(board)?.exact())?;
        let me = board.side_to_move();
        let stores = board.store(me) as i32 - board.store(me.opponent()) as i32;
        Some(stores + v as i32)
    }

    /// The final margins of `board` for its mover (stores included, in seeds) the table bounds it
    /// by, `low..=high`; `None` outside the table and where it bounds nothing (`-n..n` for `n`
    /// seeds on the board).
    fn final_margins(&self, board: &Board) -> Option<(i32, i32)> {
        let v = self.with_table(board, |tb| tb.probe(board))?;
        let n = board.seeds_on_board() as i8;
        if v.low == -n && v.high == n && n > 0 {
            return None;
        }
        let me = board.side_to_move();
        let stores = board.store(me) as i32 - board.store(me.opponent()) as i32;
        Some((stores + v.low as i32, stores + v.high as i32))
    }

    /// The outcome for the mover of `board` under perfect play, where the table knows it exactly.
    pub fn outcome(&self, board: &Board) -> Option<Outcome> {
        Some(match self.final_margin(board)?.cmp(&0) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Equal => Outcome::Draw,
            std::cmp::Ordering::Less => Outcome::Loss,
        })
    }
}

/// Builds `table` layer by layer up to `seeds` seeds, each layer under the write lock (so a probe
/// that needs it waits for it, and no layer is built twice), until it is complete or nobody holds
/// the table any more.
fn build_in_background(table: &Weak<LazyTable>, seeds: u32) {
    while let Some(table) = table.upgrade() {
        if table.build(seeds, true) {
            return;
        }
    }
}

impl Oracle<Board> for TableOracle {
    /// Never: the search's nodes score the table's positions by their margins
    /// ([`Oracle::score`]); the root reports the distance ([`Oracle::distance`]).
    fn probe(&self, _pos: &Board) -> Option<(Outcome, u32)> {
        None
    }

    fn score(&self, pos: &Board) -> Option<i32> {
        self.final_margin(pos).map(|m| 100 * m)
    }

    /// 100 per seed of the final margins the table bounds the position by: exact ones, and
    /// under `abapa` the bounds of the positions whose value depends on the history.
    fn bounds(&self, pos: &Board) -> Option<(i32, i32)> {
        self.final_margins(pos)
            .map(|(low, high)| (100 * low, 100 * high))
    }

    fn margin_bounds(&self, pos: &Board) -> Option<(i32, i32)> {
        self.final_margins(pos)
    }

    /// The result with [`Tablebase::distance`] where the side ahead on the board is the winner
    /// (the stores do not turn the result, and the margin is not 0): the plies until the side
    /// to move has no legal move, when both sides keep the value; a store above 24 may end the
    /// game sooner, so the winner wins within this many plies.
    fn distance(&self, pos: &Board) -> Option<(Outcome, u32)> {
        let (value, plies) = self.with_table(pos, |tb| {
            let v = tb.probe(pos)?.exact()?;
            Some((v, tb.distance(pos)?))
        })?;
        let outcome = self.outcome(pos)?;
        let agrees = match outcome {
            Outcome::Win => value > 0,
            Outcome::Loss => value < 0,
            Outcome::Draw => false,
        };
        agrees.then_some((outcome, plies))
    }

    fn root_move(&self, pos: &Board) -> Option<Move> {
        self.with_table(pos, |tb| {
            tb.probe(pos)?.exact()?;
            tb.best_move(pos, ROOT_MOVE_BUDGET).map(|(mv, _)| mv)
        })
    }

    /// Builds the whole in-memory table in the background ([`TableOracle::start_build`]).
    fn prepare(&self) {
        // The thread runs detached: it ends when the table is complete or the oracle is gone.
        drop(self.start_build());
    }

    fn prepare_for(&self, root: &Board) {
        let n = root.seeds_on_board() as u32;
        if root.variant() == self.variant && n > self.seeds && n <= 2 * self.seeds {
            self.prepare();
        }
    }

    fn check_files(&self) -> Result<(), crate::retro::file::TableError> {
        match &self.source {
            Source::Files(tb) => tb.check_files(),
            Source::Lazy(_) => Ok(()),
        }
    }

    fn set_waiting(&self, wait: bool) {
        self.waiting.store(wait, Ordering::Relaxed);
    }

    /// Once prepared, waits for the in-memory table to be complete (building what the
    /// background thread has not started yet, so that no layer waits for the other).
    fn wait_prepared(&self) {
        if let Source::Lazy(lazy) = &self.source {
            if self.prepared.load(Ordering::SeqCst) {
                lazy.build(self.seeds, false);
            }
        }
    }
}

/// Why [`load_tables`] gives no table from a directory.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The directory holds no layer file of the variant.
    #[error(
        "no {variant} layer files (oware-{variant}-00.tb, ...) in {dir}: build them with \
         `perfectplay tablebase build --seeds N --variant {variant} --dir {dir}`"
    )]
    NoLayers {
        /// The rules asked for.
        variant: RuleSet,
        /// The directory.
        dir: String,
    },
    /// Every layer file there was refused: each file and why.
    #[error("{0}")]
    Refused(Refused),
}

/// The layer files refused ([`file::load`]'s problems), said one after the other.
#[derive(Debug)]
pub struct Refused(pub Vec<TableError>);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, e) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// The tables the `TablebasePath` and `TablebaseSeeds` options name, for play under `variant`:
/// the layer files in the directory `TablebasePath` (up to `TablebaseSeeds` seeds, all they hold
/// when it is not set), or with no path a table of `TablebaseSeeds` seeds (default
/// [`DEFAULT_SEEDS`], at most [`MAX_IN_MEMORY_SEEDS`]) built in memory, in the background once
/// prepared ([`Oracle::prepare`]: the protocol's `ucinewgame`, or a `go` near the table), else
/// as the probes need it; with neither option set, the layers in the data directory where they
/// go further ([`auto`]: the engine builds them there); `TablebaseSeeds` 0 uses none.
///
/// The description names each file of the directory not used: the layers missing, truncated,
/// corrupt or of another variant, and stray files ([`file::load`]).
///
/// # Errors
/// [`LoadError`] when the directory gives no layer at all: the files refused (missing,
/// truncated, corrupt, of another variant), or none there.
pub fn load_tables(
    tables: &TableSettings,
    variant: RuleSet,
) -> Result<Option<Tables<Board>>, LoadError> {
    if tables.limit == Some(0) {
        return Ok(None);
    }
    // What the directory holds that is not used, each file named, for the one line that says
    // what was loaded.
    let mut skipped = Vec::new();
    let found = match (&tables.path, tables.limit) {
        (None, None) => found_in_data_dir(variant),
        _ => None,
    };
    let oracle = match (tables.path.as_deref(), found) {
        (None, Some(found)) => found,
        (None | Some(""), None) => {
            TableOracle::in_memory(variant, tables.limit.unwrap_or(DEFAULT_SEEDS))
        }
        (Some(dir), _) => {
            let (tb, problems) = file::load(Path::new(dir), variant, None);
            if tb.seeds().is_none() {
                return Err(if problems.is_empty() {
                    LoadError::NoLayers {
                        variant,
                        dir: dir.to_string(),
                    }
                } else {
                    LoadError::Refused(Refused(problems))
                });
            }
            skipped = problems.iter().map(|p| p.to_string()).collect();
            TableOracle::from_table(tb, tables.limit)
        }
    };
    let description = match &oracle.source {
        Source::Files(_) if tables.path.is_none() => format!(
            "the {variant} tablebase up to {} seeds from {}",
            oracle.seeds,
            auto::default_dir().unwrap_or_default().display()
        ),
        // The built-in default goes unannounced.
        Source::Lazy(_) if tables.path.is_none() && tables.limit.is_none() => String::new(),
        Source::Lazy(_) => format!(
            "the {variant} tablebase up to {} seeds, built in memory (in the background from \
             the next ucinewgame, else when first needed)",
            oracle.seeds
        ),
        Source::Files(_) if skipped.is_empty() => format!(
            "the {variant} tablebase up to {} seeds from {}",
            oracle.seeds,
            tables.path.as_deref().unwrap_or("")
        ),
        Source::Files(_) => format!(
            "the {variant} tablebase up to {} seeds from {} (not used: {})",
            oracle.seeds,
            tables.path.as_deref().unwrap_or(""),
            skipped.join("; ")
        ),
    };
    Ok(Some(Tables {
        oracle: Arc::new(oracle),
        description,
        outside: None,
    }))
}

/// The layers of `variant` in the data directory ([`auto::default_dir`]), where they go further
/// than the table built in memory by default ([`DEFAULT_SEEDS`]): those from 0 up while they
/// are sound (a file cut short or corrupt ends them), the rest not used.
fn found_in_data_dir(variant: RuleSet) -> Option<TableOracle> {
    let dir = auto::default_dir()?;
    if !auto::is_built(&dir, variant, DEFAULT_SEEDS + 1) {
        return None;
    }
    let (tb, _) = file::load(&dir, variant, None);
    (tb.seeds()? > DEFAULT_SEEDS).then(|| TableOracle::from_table(tb, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 9-seed abapa position (stores 20 and 19) whose value is only bounded, and one of its
    /// layer's exact ones.
    fn boards() -> Vec<Board> {
        [
            "2-0-1-0-3-0-0-1-0-2-0-0-20-19-S",
            "1-1-1-1-1-2-0-2-0-0-0-0-20-19-N",
        ]
        .iter()
        .map(|d| d.parse::<Board>().unwrap())
        .collect()
    }

    #[test]
    fn a_prepared_table_is_built_whole_in_the_background() {
        let oracle = TableOracle::in_memory(RuleSet::Abapa, 9);
        assert_eq!(oracle.built_seeds(), None);
        // Waiting for a build nobody started builds nothing.
        oracle.wait_prepared();
        assert_eq!(oracle.built_seeds(), None);
        let handle = oracle.start_build().expect("a build thread");
        // Only one build, however often it is asked for.
        assert!(oracle.start_build().is_none());
        oracle.prepare();
        oracle.wait_prepared();
        assert_eq!(oracle.built_seeds(), Some(9));
        handle.join().unwrap();
        // Probes answer as those of a table built when first needed.
        let lazy = TableOracle::in_memory(RuleSet::Abapa, 9);
        for b in boards() {
            assert_eq!(oracle.score(&b), lazy.score(&b), "{b}");
        }
    }

    #[test]
    fn probes_during_the_build_answer_as_without_it() {
        let lazy = TableOracle::in_memory(RuleSet::Abapa, 10);
        let expected: Vec<Option<i32>> = boards().iter().map(|b| lazy.score(b)).collect();
        assert!(expected.iter().any(Option::is_some));
        let oracle = TableOracle::in_memory(RuleSet::Abapa, 10);
        let handle = oracle.start_build().expect("a build thread");
        let got: Vec<Option<i32>> = boards().iter().map(|b| oracle.score(b)).collect();
        assert_eq!(got, expected);
        handle.join().unwrap();
        assert_eq!(oracle.built_seeds(), Some(10));
    }

    #[test]
    fn a_search_on_the_clock_does_not_wait_for_the_table() {
        let lazy = TableOracle::in_memory(RuleSet::Abapa, 10);
        let expected: Vec<Option<i32>> = boards().iter().map(|b| lazy.score(b)).collect();
        let oracle = TableOracle::in_memory(RuleSet::Abapa, 10);
        oracle.set_waiting(false);
        // Nothing built yet: no answer, and the whole table is asked for in the background.
        assert_eq!(oracle.score(&boards()[1]), None);
        assert!(oracle.prepared.load(Ordering::SeqCst));
        oracle.wait_prepared();
        assert_eq!(oracle.built_seeds(), Some(10));
        // Once built, the same answers as a search that waits.
        let got: Vec<Option<i32>> = boards().iter().map(|b| oracle.score(b)).collect();
        assert_eq!(got, expected);
        assert!(expected.iter().any(Option::is_some));
        // Waiting again: a fresh table builds what a probe needs at once.
        let fresh = TableOracle::in_memory(RuleSet::Abapa, 10);
        fresh.set_waiting(false);
        fresh.set_waiting(true);
        assert_eq!(fresh.score(&boards()[1]), expected[1]);
        assert!(!fresh.prepared.load(Ordering::SeqCst));
    }

    #[test]
    fn a_dropped_oracle_stops_its_build() {
        let oracle = TableOracle::in_memory(RuleSet::Abapa, MAX_IN_MEMORY_SEEDS);
        let table = match &oracle.source {
            Source::Lazy(lazy) => Arc::downgrade(lazy),
            Source::Files(_) => unreachable!(),
        };
        let handle = oracle.start_build().expect("a build thread");
        drop(oracle);
        // The thread ends after the layer it was building, and with it the table.
        handle.join().unwrap();
        assert!(table.upgrade().is_none());
    }

    #[test]
    fn go_prepares_only_a_table_the_game_can_reach_and_needs_later() {
        let oracle = TableOracle::in_memory(RuleSet::Abapa, 4);
        let start = Board::start(RuleSet::Abapa);
        oracle.prepare_for(&start);
        // A root inside the table: its search builds what it needs itself.
        oracle.prepare_for(&"0-0-0-0-0-1-1-1-0-0-0-0-22-23-S".parse::<Board>().unwrap());
        assert!(!oracle.prepared.load(Ordering::SeqCst));
        oracle.prepare_for(&"0-0-0-0-0-1-1-1-0-0-1-1-23-20-S".parse::<Board>().unwrap());
        assert!(oracle.prepared.load(Ordering::SeqCst));
        oracle.wait_prepared();
        assert_eq!(oracle.built_seeds(), Some(4));
    }
}
