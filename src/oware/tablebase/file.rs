//! Layer files: one [`crate::retro::file`] table of game `oware` per layer, named
//! `oware-<variant>-<seeds>.tb` (seeds in two digits), whose payload is one value byte (an `i8`)
//! per position in rank order: the lower bounds, then (`abapa`) the upper bounds; then one
//! distance byte per position ([`super::Tablebase::distance`]; 255 for none).
//!
//! Header counts: 0 the variant (0 abapa, 1 awari), 1 the seeds, 2 the positions, 3 the bytes per
//! position (2 awari, 3 abapa), 4 the positions whose value is only bounded.

use std::path::{Path, PathBuf};

use super::index::MAX_SEEDS;
use super::reachable::reachable_len;
use super::{Layer, Tablebase};
use crate::oware::Variant;
use crate::retro::file::{self as table, TableError, TableFile, COUNTS};
use crate::retro::Storage;

/// The game name in the header.
pub const GAME: &str = "oware";
/// The version of a variant's payload layout and meaning: 3 since the layers hold distances
/// (version 2 held the values alone; version 1 held every board, not only those that can follow a
/// move, [`super::reachable`]); abapa's 4 since its bounds count the cycles that keep a margin
/// ([`super::build`]'s cycle pass), tighter than version 3's (whose files are refused by name
/// rather than read as if they were these). Awari's layers did not change.
pub fn version(variant: Variant) -> u32 {
    match variant {
        Variant::Awari => 3,
        Variant::Abapa => 4,
    }
}

/// The file name of the layer of `seeds` seeds.
pub fn layer_name(variant: Variant, seeds: u32) -> String {
    format!("oware-{variant}-{seeds:02}.tb")
}

/// Writes every layer of `tb` not yet in `dir` (whole or not at all, each), creating `dir`;
/// layers that came from files are not rewritten. The paths written.
///
/// # Errors
/// [`TableError::Io`] when the directory or a file cannot be written.
pub fn save(tb: &Tablebase, dir: &Path) -> Result<Vec<PathBuf>, TableError> {
    std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
        path: dir.to_owned(),
        source,
    })?;
    let mut written = Vec::new();
    for n in 0..tb.layers.len() as u32 {
        written.extend(save_layer(tb, n, dir)?);
    }
    Ok(written)
}

/// Writes the layer of `seeds` seeds of `tb` to its file in `dir` (which must exist), whole or
/// not at all, unless it came from a file; the path written. Nothing for a layer the table does
/// not hold.
///
/// # Errors
/// [`TableError::Io`] when the file cannot be written.
pub fn save_layer(tb: &Tablebase, seeds: u32, dir: &Path) -> Result<Option<PathBuf>, TableError> {
    let Some(layer) = tb.layers.get(seeds as usize) else {
        return Ok(None);
    };
    let Some(sections) = layer.storage.owned_sections() else {
        return Ok(None);
    };
    let path = dir.join(layer_name(tb.variant, seeds));
    let mut counts = [0u64; COUNTS];
    counts[..5].copy_from_slice(&[
        tb.variant as u64,
        seeds as u64,
        reachable_len(seeds),
        sections.len() as u64,
        layer.bounded,
    ]);
    table::write(&path, GAME, version(tb.variant), &counts, &sections)?;
    Ok(Some(path))
}

/// Writes the layer of `seeds` seeds of `tb` as [`save_layer`] does, then puts its file, mapped
/// and verified, in place of the layer's memory, and gives back the memory of its pages
/// ([`crate::retro::Storage::release`]): a build that goes on holds no built layer in memory.
/// The path written; nothing for a layer the table does not hold or that came from a file.
///
/// # Errors
/// [`TableError::Io`] when the file cannot be written; what [`load`] refuses when the file
/// written cannot be read back whole (then the layer stays in memory).
pub fn save_and_map_layer(
    tb: &mut Tablebase,
    seeds: u32,
    dir: &Path,
) -> Result<Option<PathBuf>, TableError> {
    let Some(path) = save_layer(tb, seeds, dir)? else {
        return Ok(None);
    };
    let layer = load_layer(&path, tb.variant, seeds)?;
    layer.storage.release();
    tb.layers[seeds as usize] = layer;
    Ok(Some(path))
}

/// Maps and verifies the layer file at `path`, which must hold the layer of `seeds` seeds for
/// `variant`.
fn load_layer(path: &Path, variant: Variant, seeds: u32) -> Result<Layer, TableError> {
    let file = TableFile::open(path, GAME, version(variant))?;
    let c = *file.counts();
    let inconsistent = |reason: String| TableError::Inconsistent {
        path: path.to_owned(),
        reason,
    };
    if c[0] != variant as u64 || c[1] != seeds as u64 {
        return Err(inconsistent(format!(
            "it holds variant {} with {} seeds, expected {variant} with {seeds}",
            c[0], c[1]
        )));
    }
    let exact = variant == Variant::Awari;
    let per = if exact { 2 } else { 3 };
    let len = reachable_len(seeds);
    if c[2] != len || c[3] != per || file.payload().len() as u64 != per * len {
        return Err(inconsistent(format!(
            "{} positions of {} bytes in {} bytes, expected {len} of {per}",
            c[2],
            c[3],
            file.payload().len()
        )));
    }
    let limit = seeds as i8;
    let values = (per - 1) * len;
    if file.payload()[..values as usize]
        .iter()
        .any(|&b| !(-limit..=limit).contains(&(b as i8)))
    {
        return Err(inconsistent(format!("a value outside -{seeds}..{seeds}")));
    }
    let sections = vec![len as usize; per as usize];
    Ok(Layer {
        bounded: c[4],
        storage: Storage::mapped(file, &sections),
    })
}

/// Loads the layers of `variant` from `dir`: layer 0, 1, ... while their files are there and
/// sound, up to `up_to` seeds (all there are when `None`). Returns the table (perhaps with no
/// layer) and the problems met, each naming its file: the first layer refused (missing below
/// `up_to` or below a layer file that is there; truncated, corrupt, of another game, variant or
/// layer), from which on the layers are not used; then, of the layers above it, each missing
/// below the highest file there and each whose header or length is wrong (their payloads are not
/// read); and stray files (any name in `dir` that is no layer file of either variant), which
/// are skipped.
pub fn load(dir: &Path, variant: Variant, up_to: Option<u32>) -> (Tablebase, Vec<TableError>) {
    let mut tb = Tablebase::empty(variant);
    let mut problems = Vec::new();
    let last = up_to.unwrap_or(MAX_SEEDS).min(MAX_SEEDS);
    let path = |n| dir.join(layer_name(variant, n));
    // A missing layer is a problem below a layer file, and (the first) below the last asked for.
    let highest = (0..=last).rev().find(|&n| path(n).exists());
    let wanted = highest.max(up_to.map(|_| last));
    let mut n = 0;
    while n <= last {
        match load_layer(&path(n), variant, n) {
            Ok(layer) => tb.layers.push(layer),
            Err(e) => {
                if !matches!(e, TableError::Missing(_)) || wanted.is_some_and(|w| n <= w) {
                    problems.push(e);
                }
                break;
            }
        }
        n += 1;
    }
    // The layers above the first refused: unused, but what is wrong with them is said too.
    for m in n + 1..=highest.unwrap_or(0) {
        if let Err(e) = table::peek(&path(m), GAME, version(variant)) {
            problems.push(e);
        }
    }
    problems.extend(stray_files(dir));
    (tb, problems)
}

/// The names in `dir` that are no layer file of either variant, in name order, each as a
/// problem.
fn stray_files(dir: &Path) -> Vec<TableError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut stray: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_str().is_some_and(is_layer_name))
        .map(|e| e.path())
        .collect();
    stray.sort();
    stray
        .into_iter()
        .map(|path| TableError::Inconsistent {
            path,
            reason: "a stray file, not a layer file (oware-<variant>-<seeds>.tb); skipped".into(),
        })
        .collect()
}

/// Whether `name` is the name of a layer file of either variant.
fn is_layer_name(name: &str) -> bool {
    (0..=MAX_SEEDS).any(|n| {
        [Variant::Abapa, Variant::Awari]
            .iter()
            .any(|&v| layer_name(v, n) == name)
    })
}
