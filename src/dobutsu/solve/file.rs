//! The solution file: a [`crate::retro::file`] table of game `dobutsu` whose payload is the
//! bitset of undecided reachable positions over the [`super::index::Index`] (little-endian
//! 64-bit words), then one value byte per set bit in index order (0 a draw, else the distance;
//! odd a win, even a loss for the side to move).
//!
//! Header counts: 0 the piece set (Giraffes + 256 × Elephants + 65536 × Chicks), 1 the number of
//! bitset words, 2 the number of values, 3 the longest distance; 4-8 the forward pass's census
//! (mirror images merged): Lion captures, Try losses, Try wins, no moves, undecided.

use std::path::{Path, PathBuf};

use super::{Figures, Index, Solution};
use crate::retro::file::{self as table, TableError, TableFile, COUNTS};
use crate::retro::Storage;

/// The game name in the header.
pub const GAME: &str = "dobutsu";
/// The version of this payload layout.
pub const VERSION: u32 = 1;

/// The solution file's name in its default place.
pub const FILE_NAME: &str = "dobutsu.solution";

/// The default place of the solution file, where `perfectplay solve dobutsu` writes it and the
/// engine looks for it: `$XDG_DATA_HOME/perfectplay/dobutsu.solution`, where `XDG_DATA_HOME`
/// defaults to `$HOME/.local/share` (the XDG base directory convention). `None` when neither
/// variable is set (or they are not absolute paths).
pub fn default_path() -> Option<PathBuf> {
    Some(crate::game::data_dir()?.join(FILE_NAME))
}

/// Writes `solution` to `path` (whole or not at all).
///
/// # Errors
/// [`TableError::Io`] when the file cannot be written.
pub fn save(solution: &Solution, figures: &Figures, path: &Path) -> Result<(), TableError> {
    let Some(sections) = solution.storage.owned_sections() else {
        unreachable!("only a computed solution is saved");
    };
    let t = solution.index.totals();
    let m = &figures.merged;
    let mut counts = [0u64; COUNTS];
    counts[..9].copy_from_slice(&[
        t[0] as u64 | (t[1] as u64) << 8 | (t[2] as u64) << 16,
        sections[0].len() as u64 / 8,
        sections[1].len() as u64,
        figures.values_merged.max_distance() as u64,
        m.lion_captures,
        m.try_losses,
        m.try_wins,
        m.no_moves,
        m.undecided,
    ]);
    table::write(path, GAME, VERSION, &counts, &sections)
}

/// Maps and verifies the solution file at `path`.
///
/// # Errors
/// Every [`TableError`]: missing, unreadable, truncated, not a table, another game or version,
/// corrupt, or counts that do not fit the payload.
pub fn load(path: &Path) -> Result<Solution, TableError> {
    let file = TableFile::open(path, GAME, VERSION)?;
    let c = *file.counts();
    let inconsistent = |reason: String| TableError::Inconsistent {
        path: path.to_owned(),
        reason,
    };
    let totals = [c[0] as u8, (c[0] >> 8) as u8, (c[0] >> 16) as u8];
    if c[0] >> 24 != 0 || totals.iter().any(|&t| t > 2) {
        return Err(inconsistent(format!("piece set {:#x}", c[0])));
    }
    let index = Index::new(totals);
    let words = index.solvable_len().div_ceil(64);
    if c[1] != words || file.payload().len() as u64 != 8 * c[1] + c[2] {
        return Err(inconsistent(format!(
            "{} words and {} values in a payload of {} bytes, {words} words expected",
            c[1],
            c[2],
            file.payload().len()
        )));
    }
    let bitset = 8 * words as usize;
    let values = file.payload().len() - bitset;
    let solution = Solution::new(index, Storage::mapped(file, &[bitset, values]));
    if solution.len() != c[2] {
        return Err(inconsistent(format!(
            "{} positions in the bitset, {} values",
            solution.len(),
            c[2]
        )));
    }
    Ok(solution)
}
