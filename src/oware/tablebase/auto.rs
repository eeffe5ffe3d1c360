//! The tablebase the engine builds itself: with no `TablebasePath`, at full strength and with
//! `AutoSolve` on, the engine builds the layers of its rule set into its data directory
//! ([`default_dir`]) in the background, as far as [`auto_seeds`] says this machine builds in a
//! few minutes within a bounded share of its memory and disk (or as far as the
//! `TablebaseBuildSeeds` option says), and loads them once the last is written
//! ([`crate::oware::tablebase::oracle::load_tables`] uses the layers found there).
//!
//! Each layer file is written whole or not at all (a temporary name, then a rename), so a build
//! stopped half way leaves only whole layers, from which the next build goes on. One engine
//! builds at a time, under the lock file [`lock_path`] ([`crate::engine::build`]).

use std::path::{Path, PathBuf};

use super::estimate::BuildEstimate;
use super::file;
use super::index::MAX_SEEDS;
use super::reachable::reachable_total_len;
use super::{estimate, Tablebase};
use crate::game::TablesBuild;
use crate::machine::Machine;
use crate::oware::RuleSet;
use crate::retro::file::TableError;
use crate::retro::Silent;

/// Wall-clock seconds a build chosen by [`auto_seeds`] may take, estimated on the threads it
/// runs on ([`build_threads`]): "a few minutes".
pub const WALL_SECONDS: f64 = 300.0;

/// The share of the memory available that a build chosen by [`auto_seeds`] may hold at its
/// peak, and that the table it makes may take once the engine maps it.
pub const MEMORY_SHARE: f64 = 0.25;

/// The share of the free disk of the data directory that the layer files of a build chosen by
/// [`auto_seeds`] may take.
pub const DISK_SHARE: f64 = 0.25;

/// The directory of the layer files the engine builds and finds by default:
/// `<data>/oware` under [`crate::game::data_dir`], for both rule sets (the files' names say
/// which). `None` when there is no data directory.
pub fn default_dir() -> Option<PathBuf> {
    Some(crate::game::data_dir()?.join("oware"))
}

/// The lock file the engine that builds `variant`'s layers in `dir` holds:
/// `oware-<variant>.lock` beside `dir` (not in it, where it would be a stray file).
pub fn lock_path(dir: &Path, variant: RuleSet) -> PathBuf {
    let name = format!("oware-{variant}.lock");
    dir.parent()
        .map_or_else(|| PathBuf::from(&name), |p| p.join(&name))
}

/// The threads a background build runs on: all the cores but one, which is left to the search
/// (at least one).
pub fn build_threads(machine: &Machine) -> usize {
    machine.cores.saturating_sub(1).max(1)
}

/// The memory a background build may hold, [`MEMORY_SHARE`] of what `machine` has available
/// (`None` when that cannot be read).
pub fn memory_bound(machine: &Machine) -> Option<u64> {
    machine
        .memory_available
        .map(|a| (a as f64 * MEMORY_SHARE) as u64)
}

/// The most seeds whose layers, all of them from 0, `machine` builds within its bounds: in at
/// most [`WALL_SECONDS`] on [`build_threads`] threads by the estimate
/// ([`BuildEstimate::wall_seconds`]), holding at most [`memory_bound`] at the peak and as the
/// table mapped, and writing at most [`DISK_SHARE`] of the free disk. 0 when the memory or the
/// disk cannot be read (then nothing is built). The layers already built do not count: the
/// answer does not grow each time an engine starts.
pub fn auto_seeds(variant: RuleSet, machine: &Machine) -> u32 {
    let (Some(memory), Some(disk)) = (memory_bound(machine), machine.disk_free) else {
        return 0;
    };
    let disk = (disk as f64 * DISK_SHARE) as u64;
    let threads = build_threads(machine);
    let fits = |n: u32| {
        let e = BuildEstimate::new(variant, 0, n, Some(memory), false);
        let table = reachable_total_len(n) * estimate::bytes_per_value(variant);
        e.wall_seconds(threads) <= WALL_SECONDS
            && e.peak_memory <= memory
            && table <= memory
            && e.disk <= disk
    };
    (0..=MAX_SEEDS).take_while(|&n| fits(n)).last().unwrap_or(0)
}

/// Whether the layers of 0 to `seeds` seeds of `variant` are all in `dir` (by their headers and
/// lengths; their checksums are verified when they are loaded).
pub fn is_built(dir: &Path, variant: RuleSet, seeds: u32) -> bool {
    (0..=seeds).all(|n| {
        crate::retro::file::peek(
            &dir.join(file::layer_name(variant, n)),
            file::GAME,
            file::version(variant),
        )
        .is_ok()
    })
}

/// Builds the layers of `variant` up to `seeds` seeds in `dir` (creating it), going on from the
/// sound layers there, on a pool of `threads` threads, within `memory` bytes (`None`: no
/// bound); each layer file written whole or not at all. Temporary files a build stopped half
/// way left in `dir` are removed first: the caller holds the build's lock, so no other build
/// is writing them.
///
/// # Errors
/// [`TableError::Io`] when `dir` cannot be made, a layer cannot be written, or the pool's
/// threads cannot be started (then its path is `dir`).
pub fn build(
    variant: RuleSet,
    seeds: u32,
    dir: &Path,
    threads: usize,
    memory: Option<u64>,
) -> Result<(), TableError> {
    let io = |source| TableError::Io {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    remove_temporary_files(dir, variant);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("{variant} tablebase build {i}"))
        .build()
        .map_err(|e| io(std::io::Error::other(e)))?;
    pool.install(|| {
        let (mut tb, _) = file::load(dir, variant, Some(seeds));
        tb.release();
        extend_in(&mut tb, seeds, dir, memory)
    })
}

/// Builds the layers `tb` lacks up to `seeds` seeds, each written to `dir` and mapped in place
/// of its memory.
fn extend_in(
    tb: &mut Tablebase,
    seeds: u32,
    dir: &Path,
    memory: Option<u64>,
) -> Result<(), TableError> {
    while tb.seeds().is_none_or(|s| s < seeds) {
        let report = tb.build_next_within(memory, &Silent);
        file::save_and_map_layer(tb, report.seeds, dir)?;
    }
    Ok(())
}

/// Removes the temporary files of `variant`'s layers in `dir` (`<layer file>.tmp<pid>`).
fn remove_temporary_files(dir: &Path, variant: RuleSet) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!("oware-{variant}-");
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with(&prefix) && name.contains(".tb.tmp") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The background build of `variant`'s layers in [`default_dir`] when `limit` (the
/// `TablebaseBuildSeeds` option: `None` for [`auto_seeds`], `Some(0)` for none) asks for more
/// seeds than the table built in memory holds (`in_memory`) and they are not all there yet.
pub fn default_build(variant: RuleSet, limit: Option<u32>, in_memory: u32) -> Option<TablesBuild> {
    let dir = default_dir()?;
    let machine = Machine::read(dir.ancestors().find(|d| d.exists())?);
    let seeds = limit
        .unwrap_or_else(|| auto_seeds(variant, &machine))
        .min(MAX_SEEDS);
    if seeds <= in_memory || is_built(&dir, variant, seeds) {
        return None;
    }
    let threads = build_threads(&machine);
    let memory = memory_bound(&machine);
    let e = BuildEstimate::new(variant, 0, seeds, memory, false);
    let description = format!(
        "the {variant} tablebase up to {seeds} seeds (about {} on {threads} thread{}, {} MiB \
         of memory, {} MiB of disk)",
        minutes(e.wall_seconds(threads)),
        if threads == 1 { "" } else { "s" },
        e.peak_memory >> 20,
        e.disk >> 20
    );
    let target = dir.clone();
    let written = dir.clone();
    Some(TablesBuild {
        path: dir.join(file::layer_name(variant, seeds)),
        lock: lock_path(&dir, variant),
        written: Box::new(move || is_built(&written, variant, seeds)),
        description,
        run: Box::new(move || build(variant, seeds, &target, threads, memory)),
    })
}

/// A time for a person: `40 s`, `4 min`.
fn minutes(secs: f64) -> String {
    if secs < 90.0 {
        format!("{:.0} s", secs.max(1.0))
    } else {
        format!("{:.0} min", secs / 60.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(gib_available: u64, gib_free: u64, cores: usize) -> Machine {
        Machine {
            memory_available: Some(gib_available << 30),
            memory_total: Some(gib_available << 30),
            disk_free: Some(gib_free << 30),
            cores,
        }
    }

    /// A machine like this one (2 cores, 22 GiB available, 67 GiB free) builds what one core
    /// does in five minutes; the estimate of the seeds chosen fits, of one more does not.
    #[test]
    fn the_seeds_chosen_fit_the_time_and_one_more_does_not() {
        for variant in [RuleSet::Abapa, RuleSet::Awari] {
            let m = machine(22, 67, 2);
            let n = auto_seeds(variant, &m);
            assert!((16..=24).contains(&n), "{variant}: {n}");
            let time =
                |n| BuildEstimate::new(variant, 0, n, memory_bound(&m), false).wall_seconds(1);
            assert!(time(n) <= WALL_SECONDS, "{variant}: {n}");
            assert!(time(n + 1) > WALL_SECONDS, "{variant}: {n}");
            // More cores build more in the same time.
            assert!(auto_seeds(variant, &machine(22, 67, 8)) > n, "{variant}");
        }
    }

    /// Short memory or disk, or none known, bounds the build.
    #[test]
    fn memory_and_disk_bound_the_seeds() {
        let m = machine(22, 67, 2);
        let n = auto_seeds(RuleSet::Abapa, &m);
        assert!(auto_seeds(RuleSet::Abapa, &machine(1, 67, 2)) < n);
        assert!(auto_seeds(RuleSet::Abapa, &machine(22, 1, 2)) < n);
        let unknown = Machine {
            disk_free: None,
            ..m
        };
        assert_eq!(auto_seeds(RuleSet::Abapa, &unknown), 0);
    }

    /// A build goes on from the layers there, removes a temporary file left behind, and writes
    /// the same layers as a build from nothing.
    #[test]
    fn a_build_goes_on_from_the_layers_there() {
        let dir = std::env::temp_dir().join(format!("pp-auto-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        build(RuleSet::Abapa, 6, &dir, 1, None).unwrap();
        assert!(is_built(&dir, RuleSet::Abapa, 6));
        assert!(!is_built(&dir, RuleSet::Abapa, 8));
        let stray = dir.join("oware-abapa-07.tb.tmp99");
        std::fs::write(&stray, b"cut").unwrap();
        build(RuleSet::Abapa, 8, &dir, 1, None).unwrap();
        assert!(is_built(&dir, RuleSet::Abapa, 8));
        assert!(!stray.exists());
        let whole = Tablebase::build(RuleSet::Abapa, 8, &Silent);
        let (loaded, problems) = file::load(&dir, RuleSet::Abapa, None);
        assert!(problems.is_empty(), "{problems:?}");
        for d in [
            "1-1-1-1-1-2-0-0-0-0-0-1-20-20-N",
            "2-0-1-0-3-0-0-1-0-1-0-0-20-20-S",
        ] {
            let b: crate::oware::Board = d.parse().unwrap();
            assert_eq!(loaded.probe(&b), whole.probe(&b), "{d}");
            assert!(loaded.probe(&b).is_some(), "{d}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
