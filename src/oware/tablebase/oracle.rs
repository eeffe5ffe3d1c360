//! The tablebase as the search's [`Oracle`]: an exact score (the stores' difference plus the
//! margin the table secures, 100 per seed) for every position it values exactly, and the root's
//! move from [`Tablebase::best_move`], which makes progress where equal scores would not say how.
//! Positions whose value is only bounded (`abapa`'s history cases) are left to the search.

use std::path::Path;
use std::sync::{Arc, RwLock};

use super::{file, Silent, Tablebase};
use crate::game::{Outcome, TableSettings, Tables};
use crate::oware::{Board, Move, Variant};
use crate::search::Oracle;

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
    /// first time they are probed.
    Lazy(RwLock<Tablebase>),
}

/// An Oware tablebase for the search, used up to `seeds` seeds on the board.
pub struct TableOracle {
    variant: Variant,
    seeds: u32,
    source: Source,
}

impl TableOracle {
    /// A table of `seeds` seeds (at most [`MAX_IN_MEMORY_SEEDS`]) for `variant`, built the
    /// first time it is needed.
    pub fn in_memory(variant: Variant, seeds: u32) -> TableOracle {
        TableOracle {
            variant,
            seeds: seeds.min(MAX_IN_MEMORY_SEEDS),
            source: Source::Lazy(RwLock::new(Tablebase::empty(variant))),
        }
    }

    /// The loaded table `tb`, used up to `seeds` seeds (or all it holds).
    pub fn from_table(tb: Tablebase, seeds: Option<u32>) -> TableOracle {
        let held = tb.seeds().unwrap_or(0);
        TableOracle {
            variant: tb.variant(),
            seeds: seeds.map_or(held, |s| s.min(held)),
            source: Source::Files(tb),
        }
    }

    /// The most seeds on the board this oracle answers for.
    pub fn seeds(&self) -> u32 {
        self.seeds
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
            Source::Lazy(lock) => {
                {
                    let tb = lock.read().unwrap_or_else(|e| e.into_inner());
                    if tb.seeds().is_some_and(|s| s >= n) {
                        return f(&tb);
                    }
                }
                let mut tb = lock.write().unwrap_or_else(|e| e.into_inner());
                tb.extend(n, &Silent);
                f(&tb)
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

    /// The outcome for the mover of `board` under perfect play, where the table knows it exactly.
    pub fn outcome(&self, board: &Board) -> Option<Outcome> {
        Some(match self.final_margin(board)?.cmp(&0) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Equal => Outcome::Draw,
            std::cmp::Ordering::Less => Outcome::Loss,
        })
    }
}

impl Oracle<Board> for TableOracle {
    /// Never: the table keeps no distance (see [`Oracle::score`]).
    fn probe(&self, _pos: &Board) -> Option<(Outcome, u32)> {
        None
    }

    fn score(&self, pos: &Board) -> Option<i32> {
        self.final_margin(pos).map(|m| 100 * m)
    }

    fn root_move(&self, pos: &Board) -> Option<Move> {
        self.with_table(pos, |tb| {
            tb.probe(pos)?.exact()?;
            tb.best_move(pos, ROOT_MOVE_BUDGET).map(|(mv, _)| mv)
        })
    }
}

/// The tables the `TablebasePath` and `TablebaseSeeds` options name, for play under `variant`:
/// the layer files in the directory `TablebasePath` (up to `TablebaseSeeds` seeds, all they hold
/// when it is not set), or with no path a table of `TablebaseSeeds` seeds (default
/// [`DEFAULT_SEEDS`], at most [`MAX_IN_MEMORY_SEEDS`]) built in memory when first needed;
/// `TablebaseSeeds` 0 uses none.
///
/// # Errors
/// A message naming the files refused (missing, truncated, corrupt, of another variant) when
/// the directory gives no layer at all.
pub fn load_tables(
    tables: &TableSettings,
    variant: Variant,
) -> Result<Option<Tables<Board>>, String> {
    if tables.limit == Some(0) {
        return Ok(None);
    }
    let oracle = match tables.path.as_deref() {
        None | Some("") => TableOracle::in_memory(variant, tables.limit.unwrap_or(DEFAULT_SEEDS)),
        Some(dir) => {
            let (tb, problems) = file::load(Path::new(dir), variant, None);
            let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
            if tb.seeds().is_none() {
                return Err(if said.is_empty() {
                    format!(
                        "no {variant} layer files (oware-{variant}-00.tb, ...) in {dir}: build \
                         them with `perfectplay tablebase build --seeds N --variant {variant} \
                         --dir {dir}`"
                    )
                } else {
                    said.join("; ")
                });
            }
            for p in &said {
                log::warn!("{p}");
            }
            TableOracle::from_table(tb, tables.limit)
        }
    };
    let description = match &oracle.source {
        // The built-in default goes unannounced.
        Source::Lazy(_) if tables.path.is_none() && tables.limit.is_none() => String::new(),
        Source::Lazy(_) => format!(
            "the {variant} tablebase up to {} seeds, built in memory when first needed",
            oracle.seeds
        ),
        Source::Files(_) => format!(
            "the {variant} tablebase up to {} seeds from {}",
            oracle.seeds,
            tables.path.as_deref().unwrap_or("")
        ),
    };
    Ok(Some(Tables {
        oracle: Arc::new(oracle),
        description,
        outside: None,
    }))
}
