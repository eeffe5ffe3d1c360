//! What the retrograde analyses (Oware's tablebases, Dobutsu's solution) share: the table file
//! ([`file`](mod@file): header, checksum, written whole or not at all, verified and memory-mapped
//! on load), where a solved table's bytes live ([`storage`]: built in memory or mapped from its
//! file), progress reports by phase ([`progress`]), the exchange between the ranks of a build split
//! over processes ([`transport`]), and the cache prefetch of random accesses (which the search's
//! transposition table uses too).

pub mod file;
pub mod progress;
pub mod storage;
pub mod transport;

pub use progress::{Phase, Progress, Silent};
pub use storage::{Buffer, Storage};

/// The cache hint the passes use ([`crate::memory::prefetch`]).
pub use crate::memory::prefetch;
