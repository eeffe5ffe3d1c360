//! How a retrograde analysis reports its progress: by phase, through a callback the front end
//! implements (progress bars), so that the solvers themselves print nothing.

use std::fmt;

/// A phase of a retrograde analysis, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The forward pass: the positions reachable from the start (units: positions expanded; the
    /// total is not known in advance). Dobutsu's solver only.
    Enumerate,
    /// Every position's moves played once, before the values are known (units: positions).
    Moves,
    /// The backward pass that gives the values: Oware's thresholds (units: positions scanned,
    /// once per threshold), Dobutsu's levels of distance (units: positions resolved).
    Values,
    /// The backward pass that gives Oware's distances to the end, once the values are known
    /// (units: positions whose moves were played).
    Distances,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Enumerate => "enumerate",
            Phase::Moves => "moves",
            Phase::Values => "values",
            Phase::Distances => "distances",
        })
    }
}

/// Receives progress from an analysis; called from several threads at once.
pub trait Progress: Sync {
    /// A phase starts, with `total` units of work when known. `layer` names the part of a
    /// solver that builds in layers (Oware: the seeds on the board of the layer being built);
    /// `None` for a solver that solves everything at once.
    fn start(&self, _layer: Option<u32>, _phase: Phase, _total: Option<u64>) {}
    /// `n` more units done.
    fn advance(&self, _n: u64) {}
    /// The phase is over.
    fn finish(&self) {}
}

/// A [`Progress`] that ignores everything.
pub struct Silent;
impl Progress for Silent {}
